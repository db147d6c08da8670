// window_frame (window_frame.h): the window's frame order around run_frame.
#include "app/window_frame.h"

#include "gfx/gl.h"

#include "app/viewer_scene.h"
#include "gfx/renderer.h"

namespace sv {

ui::SceneView scene_view(Scene* scene, const FrameState& frames, const gl::Renderer* renderer) {
  ui::SceneView v;
  v.realtime = frames.realtime();
  const double fps = frames.fps();
  v.frame_seconds = fps > 0.0 ? 1.0 / fps : 0.0;
  if (scene == nullptr) return v;
  v.model = &scene->doc.model;
  v.player = &scene->play.player;
  v.stack = &scene->play.stack;
  v.path = scene->doc.path;
  v.report = scene->doc.report;
  v.from_cache = scene->doc.from_cache;
  v.unit_metres = scene->doc.unit_metres;
  // The rest pose's bounds are computed once (on first use) and kept by the scene.
  if (const Bounds* b = scene->bounds_if_known(kRestPose); b != nullptr && b->valid())
    v.model_size = b->max - b->min;
  v.pose = &scene->frame.animator.pose;
  v.model_matrices = scene->frame.animator.pose.model_matrices();
  v.influence = scene->doc.influence;
  v.times = &scene->frame.animator.times();
  v.upload_seconds = frames.last.draw_seconds;
  v.gpu_seconds = renderer != nullptr ? renderer->gpu_seconds() : -1.0;
  v.difference_seconds = scene->frame.difference.seconds;
  v.bones = scene->gpu.bone_count();
  for (const Mesh& m : scene->doc.model.meshes) v.vertices += m.vertex_count();
  v.z_up = scene->play.z_up;
  const int influences = scene->frame.animator.skin().influences;
  const CenterTask& centers = scene->centers_for(influences);
  v.centers_progress = centers.started() ? centers.progress() : -1.0f;
  v.centers_failed = centers.done() && !centers_fit(*scene, influences);
  v.centers_merge = centers.merge();
  v.centers_depth = centers.depth();
  v.volume = scene->volume_of(scene->play.player.clip);
  v.volume_pending = v.volume == nullptr && scene->volume_pending();
  v.volume_method = scene->frame.animator.skin().method;
  v.crowd = scene->frame.crowd.empty() ? nullptr : &scene->frame.crowd;
  v.crowd_upload_seconds = scene->frame.crowd_upload_seconds;
  v.crowd_error = scene->frame.crowd_error;
  return v;
}

const Frame* window_frame(const WindowFrameInputs& in, WindowFrameHooks& hooks) {
  ui::ViewerState& state = *in.state;
  // The keys act on the state the frame is computed from: Space pauses this frame.
  const ui::UiEdits key_edits =
      ui::begin_ui(scene_view(in.scene, *in.frames, in.renderer), in.keys, state);
  hooks.before_frame(key_edits);

  const Frame* frame = nullptr;
  if (in.scene != nullptr) {
    state.render.selected_joint = state.selection.joint;
    FrameChoices choices;
    choices.render = &state.render;
    choices.crowd = &state.crowd;
    choices.morph_overrides = state.morph_overrides;
    DrawTarget target;
    target.renderer = in.renderer;
    target.camera = in.camera;
    target.framing = Framing::Keep;
    target.width = in.framebuffer_width;
    target.height = in.framebuffer_height;
    target.viewport = state.viewport;
    frame = &run_frame(*in.scene, choices, FrameClock::live(in.wall_seconds), target, *in.frames);
  } else if (in.renderer != nullptr) {
    glViewport(0, 0, in.framebuffer_width, in.framebuffer_height);
    const glm::vec3& bg = state.render.background;
    glClearColor(bg.r, bg.g, bg.b, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
  }
  if (in.renderer != nullptr) glViewport(0, 0, in.framebuffer_width, in.framebuffer_height);

  // The panels, from the frame just drawn (status() first: what it reads, the panels read).
  const ui::StatusView status = hooks.status();
  const ui::SceneView view = scene_view(in.scene, *in.frames, in.renderer);
  ui::UiEdits panel_edits;
  ui::draw_panels(view, status, state, panel_edits);
  hooks.after_panels(panel_edits, frame);
  return frame;
}

}  // namespace sv
