// HeadlessView (see headless_view.h): --screenshot's set-up, and one frame at a time and turn.
#include "app/headless_view.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "gfx/gl.h"  // before GLFW

#include "app/blend_options.h"
#include "app/cli.h"
#include "app/compare.h"
#include "app/viewer.h"
#include "app/viewer_scene.h"
#include "gfx/capture.h"
#include "gfx/renderer.h"
#include "ui/layout.h"

namespace sv {

HeadlessView::HeadlessView() = default;
HeadlessView::~HeadlessView() = default;

int HeadlessView::open(const Options& given, const ViewerOptions& viewer, const char* mode,
                       double blend_base_time, const Check& check) {
  // --compare A B: A is the model drawn, painted by how its weights changed in B.
  Options with_a;
  std::string compare_b;
  if (!given.compare.empty()) {
    with_a = given;
    if (std::string e = compare_files(given, &with_a.model, &compare_b); !e.empty())
      return bad_input(e);
    with_a.compare.clear();
  }
  const Options& options = given.compare.empty() ? given : with_a;
  if (!parse_size(viewer.size, &width_, &height_))
    return bad_input("bad --size '" + viewer.size + "' (want WxH)");
  if (!parse_view(viewer.view, &ro_.view)) return bad_input("bad --view '" + viewer.view + "'");
  if (std::string e = parse_method_pair(viewer.diff_methods, &ro_); !e.empty()) return bad_input(e);
  if (viewer.skinning != "auto" && viewer.skinning != "cpu" && viewer.skinning != "gpu") {
    return bad_input("bad --skinning '" + viewer.skinning + "' (want auto, cpu or gpu)");
  }
  ro_.method = skin_method_of(options);
  ro_.influences = options.influences;
  ro_.skeleton = viewer.skeleton;
  ro_.flat_colors = viewer.flat;
  ro_.show_back_faces = viewer.back_faces;
  ui_ = viewer.ui;
  legend_open_ = viewer.legend_open;
  if (!viewer.camera_view.empty()) {
    ViewAxis a{};
    if (!parse_view_axis(viewer.camera_view, &a))
      return bad_input("bad --camera-view '" + viewer.camera_view +
                       "' (want front, back, right, left, top or bottom)");
    axis_ = a;
  }
  if (std::string e = parse_crowd_options(viewer.crowd, viewer.skinning, &crowd_); !e.empty())
    return bad_input(e);
  BlendSpecs blend;
  if (std::string e = parse_blend_specs(options.layers, options.crossfade, &blend); !e.empty())
    return bad_input(e);
  const int status = open_headless_scene(options, mode, width_, height_, &h_, [&](const Model& m) {
    const int32_t base = requested_clip(m, options).value_or(kRestPose);
    if (blend.any()) {
      if (std::string e = make_layer_stack(m, options.model, base, blend_base_time, blend, &stack_);
          !e.empty())
        return e;
    }
    if (!viewer.bone.empty()) {
      joint_ = m.skeleton.find(viewer.bone);
      if (joint_ < 0) return no_joint_message(m, options.model, viewer.bone);
    }
    if (!check) return std::string();
    // What the player will be on: the blend's base (set_blend), else the requested clip.
    const int32_t played = stack_.blends() ? stack_.base : base;
    const double duration = played >= 0 && static_cast<std::size_t>(played) < m.clips.size()
                                ? m.clips[static_cast<std::size_t>(played)].duration()
                                : 0.0;
    return check(m, duration);
  });
  if (status >= 0) return status;
  Scene& s = *h_.scene;
  if (!compare_b.empty()) {
    auto comparison = std::make_shared<RigComparison>();
    if (std::string e = compare_with(options, s.doc.model, compare_b, comparison.get()); !e.empty())
      return bad_input(e);
    s.jobs.comparison = std::move(comparison);
    s.jobs.compared_with = compare_b;
    if (viewer.view == "shaded") ro_.view = ViewMode::WeightChange;
  }
  ro_.gpu_skinning = gl::gpu_skinning_for(viewer.skinning, h_.gl->renderer().software());
  ro_.selected_joint = joint_;
  // Skeleton-only files (BVH, CSM) have nothing else to show.
  if (s.doc.model.meshes.empty()) ro_.skeleton = true;
  if (viewer.up != "auto") s.play.z_up = viewer.up == "z";
  h_.gl->renderer().prepare(s.doc.model);
  if (crowd_.on) {
    // Laid out once here, so a crowd the driver cannot hold is bad input before any picture.
    s.play.player.clip = h_.clip;
    s.frame.bounds = s.bounds_of(s.play.player.clip);
    if (std::string e = crowd_frame(s, crowd_, 0.0, h_.gl->renderer()); !e.empty())
      return bad_input(e);
  }
  const bool diff_cor = ro_.view == ViewMode::MethodDiff &&
                        (ro_.diff_a == SkinMethod::Cor || ro_.diff_b == SkinMethod::Cor);
  if (ro_.method == SkinMethod::Cor || diff_cor) {
    // Pictures, not a live view: wait for the centres instead of drawing LBS while they are
    // computed.
    if (!wait_for_centers(s, ro_.influences))
      return bad_input(options.model +
                       ": the centres of rotation cannot be computed for this model");
  }
  // With the panels, the model is drawn in the viewport they leave, as in the window.
  viewport_ = PixelRect{0, 0, width_, height_};
  if (ui_) {
    const ui::Layout l = ui::compute_layout(static_cast<float>(width_), static_cast<float>(height_),
                                            ui::LayoutPrefs{});
    viewport_ = ui::to_pixels(l.viewport, 1.0f, 1.0f);
  }
  return -1;
}

const std::vector<uint8_t>& HeadlessView::draw(double time, float turn_radians) {
  HeadlessGl& gl = *h_.gl;
  Scene& s = *h_.scene;
  FrameChoices choices;
  choices.render = &ro_;
  choices.crowd = &crowd_;
  choices.clip = h_.clip;
  choices.blend = &stack_;
  DrawTarget target;
  target.renderer = &gl.renderer();
  target.camera = &camera_;
  target.framing = turntable_ ? Framing::Turntable : Framing::Load;
  target.turn = turn_radians;
  target.axis = axis_;
  target.width = width_;
  target.height = height_;
  target.viewport = viewport_;
  run_frame(s, choices, FrameClock::picture(time), target, frames_);
  // A mesh program built at this frame (gfx/renderer.h) whose disk shaders failed: said once.
  const std::vector<std::string>& late = gl.renderer().late_problems();
  for (; late_seen_ < late.size(); ++late_seen_)
    std::fprintf(stderr, "skinview: %s\n", late[late_seen_].c_str());
  if (ui_) {
    draw_ui_offscreen(gl.window(), &s, ro_, joint_, width_, height_, viewport_, camera_,
                      gl.warnings(), legend_open_, gl.renderer().software());
  }
  gl.target().read_rgba(&rgba_);
  return rgba_;
}

}  // namespace sv
