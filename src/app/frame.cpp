// run_frame (frame.h): the one frame of every mode, stage by stage.
#include "app/frame.h"

#include <chrono>
#include <cmath>
#include <cstdio>

#include "gfx/gl.h"

#include "anim/stopwatch.h"
#include "app/app_common.h"
#include "app/cli.h"
#include "app/crowd_frame.h"
#include "app/difference_view.h"
#include "app/viewer_scene.h"
#include "gfx/renderer.h"

namespace sv {
namespace {

using Clock = std::chrono::steady_clock;

// 1. The clock: the player, its layers and cross-fade advanced by the step, or set to `at`.
void clock_stage(Scene& scene, const FrameChoices& choices, const FrameClock& clock) {
  if (clock.at) {
    const double t = *clock.at;
    scene.play.player.clip = choices.clip;
    scene.play.player.playing = false;
    scene.play.player.time = std::min(t, scene.duration());
    if (choices.blend != nullptr && choices.blend->blends()) set_blend(scene, *choices.blend, t);
    return;
  }
  // A step of 0 leaves every clock as it is (no wrap or clamp either: a test that sets a time on
  // the bind pose's player and then a clip keeps the time).
  if (clock.step != 0.0) advance(scene, clock.step);
}

// 3 + 4. The pose of the player's clip (or the layer stack over it) with the morph weights, its
// palettes, and the CPU's vertices where the CPU path or the CPU-vs-GPU view needs them. Reads the
// document and the playback, writes only the frame's products. The method (2: its centres, a job)
// was chosen before.
void pose_stage(const Model& model, Playback& play, FrameProducts& out,
                const FrameChoices& choices) {
  const RenderOptions& options = *choices.render;
  SkinnedPose& pose = out.animator;
  pose.pose.set_morph_overrides(choices.morph_overrides);
  const int32_t clip = play.player.clip;
  bool posed = false;
  if (play.stack.blends() && clip >= 0) {
    // Nothing allocates unless the stack changed size or clips.
    if (out.frame_layers.size() != play.stack.size()) out.frame_layers.resize(play.stack.size());
    posed = play.stack.frame(model, play.player, out.frame_layers) &&
            pose.pose.set_layers(model, out.frame_layers).empty() &&
            pose.evaluate(model, out.frame_layers);
  }
  if (!posed) {
    pose.pose.set_clip(model, clip);
    const PoseMode mode = clip == kBindPose ? PoseMode::Bind
                          : clip < 0        ? PoseMode::Rest
                                            : PoseMode::Clip;
    pose.evaluate(model, mode, play.player.time);
  }
  // From the compact streams where SkinnedPose::compact() holds, as the GPU path draws (the
  // renderer picks the same per mesh): both paths read one layout.
  if (!options.gpu_skinning || options.view == ViewMode::CpuGpu)
    pose.skin_cpu(model, &skin_pool(), true);
}

// 7. The camera for a picture: framed on the clip's bounds (and the crowd's) from the load
// direction, or on the upright cylinder around them for a turntable, then turned.
void frame_stage(Scene& scene, const FrameChoices& choices, const DrawTarget& target) {
  if (target.camera == nullptr || target.framing == Framing::Keep) return;
  OrbitCamera& camera = *target.camera;
  camera = OrbitCamera{};
  if (target.axis) camera.set_view(*target.axis);
  const float aspect = target.viewport.aspect();
  frame_scene(scene, camera, *choices.render, aspect);
  if (target.framing == Framing::Turntable) {
    // The box around the cylinder: framing it from the load direction also frames the cylinder,
    // whose picture is the same from every yaw about its axis, and the model is inside it.
    Bounds box = world_bounds(scene);
    if (box.valid()) {
      const glm::vec3 c = box.center();
      const float r = 0.5f * std::hypot(box.max.x - box.min.x, box.max.z - box.min.z);
      box.min.x = c.x - r;
      box.max.x = c.x + r;
      box.min.z = c.z - r;
      box.max.z = c.z + r;
      camera.frame(box, aspect);
    }
  }
  camera.yaw += target.turn;
}

void record_time(FrameState& state, const FrameClock& clock, bool playing) {
  if (clock.wall_seconds <= 0.0 || clock.at) return;
  state.wall[state.next] = static_cast<float>(clock.wall_seconds);
  state.step[state.next] = static_cast<float>(playing ? clock.step : clock.wall_seconds);
  state.next = (state.next + 1) % FrameState::kRing;
  ++state.timed;
}

}  // namespace

double FrameState::fps() const noexcept {
  const std::size_t n = filled();
  double sum = 0.0;
  for (std::size_t i = 0; i < n; ++i) sum += wall[i];
  return sum > 0.0 ? static_cast<double>(n) / sum : 0.0;
}

double FrameState::realtime() const noexcept {
  const std::size_t n = filled();
  double walls = 0.0, steps = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    walls += wall[i];
    steps += step[i];
  }
  return walls > 0.0 ? steps / walls : 1.0;
}

const Frame& run_frame(Scene& scene, const FrameChoices& choices, const FrameClock& clock,
                       const DrawTarget& target, FrameState& state) {
  RenderOptions& render = *choices.render;
  const bool playing = scene.play.player.playing;
  clock_stage(scene, choices, clock);

  // 2. Jobs: a crowd draws on the GPU; CoR's centres are started (once) for the influences in
  // force and LBS is drawn until they are known.
  const bool crowd_on = choices.crowd != nullptr && choices.crowd->on;
  if (crowd_on) render.gpu_skinning = true;
  choose_method(scene, render.method, render.influences);
  // Pictures frame on the bounds of the clip they show (a cross-fade's base changes when it
  // ends); the window keeps what it framed last (F and Home reframe).
  if (target.framing != Framing::Keep) scene.frame.bounds = scene.bounds_of(scene.play.player.clip);

  pose_stage(scene.doc.model, scene.play, scene.frame, choices);
  // 5. Derived figures: the difference views (CPU vs GPU, method vs method).
  update_difference(scene, render);

  // 6. The crowd, at the player's time: on a picture clock its own clock is set to the time.
  scene.frame.crowd_upload_seconds = 0.0;
  if (target.renderer != nullptr && choices.crowd != nullptr) {
    if (clock.at && crowd_on) scene.frame.crowd.set_clock(*clock.at);
    const double dt = clock.at ? 0.0 : clock.step;
    if (std::string e = crowd_frame(scene, *choices.crowd, dt, *target.renderer);
        !e.empty() && clock.at)
      print_error_line(e);
  }

  frame_stage(scene, choices, target);

  // 8. The draw.
  Frame& f = state.last;
  f.drawn = false;
  f.draw_seconds = 0.0;
  if (target.renderer != nullptr && target.camera != nullptr) {
    if (target.clear) {
      glViewport(0, 0, target.width, target.height);
      const glm::vec3& bg = render.background;
      glClearColor(bg.r, bg.g, bg.b, 1.0f);
      glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    }
    const auto t0 = Clock::now();
    target.renderer->draw(scene.doc.model, scene.gpu, scene.frame.animator, *target.camera, render,
                          target.viewport, target.height);
    f.draw_seconds = seconds_since(t0);
    f.drawn = true;
  }

  record_time(state, clock, playing);
  const Player& player = scene.play.player;
  const FrameProducts& out = scene.frame;
  f.index = state.frames++;
  f.clip = player.clip;
  f.time = player.time;
  f.playing = player.playing;
  f.wall_seconds = clock.wall_seconds;
  f.step = clock.at ? 0.0 : clock.step;
  f.morph_weights = out.animator.pose.all_morph_weights();
  f.model_matrices = out.animator.pose.model_matrices();
  f.method = out.animator.skin().method;
  f.cpu_skinned = !render.gpu_skinning || render.view == ViewMode::CpuGpu;
  f.times = out.animator.times();
  f.crowd_upload_seconds = out.crowd_upload_seconds;
  f.difference_seconds = out.difference.seconds;
  f.crowd_error = out.crowd_error;
  return f;
}

}  // namespace sv
