// The window's camera between frames: the mouse's orbit, pan and zoom toward the cursor, the
// camera history they and every framing feed (undo / redo view), frame selected, and the PNG of
// the viewport that F12 writes next to the model.
//
// History: a gesture (a drag, or a run of wheel notches) is one entry, recorded when it starts:
// it ends after kQuietFrames frames without a camera move (frames, not seconds: the same on a
// slow software rasteriser as on a GPU). A discrete change (an axis view, a framing, undo's own
// moves excepted) records the view it leaves through record().
#pragma once

#include <cstdint>
#include <string>

#include <glm/vec2.hpp>

#include "anim/bounds.h"
#include "gfx/camera.h"
#include "gfx/render_options.h"
#include "ui/viewport.h"

namespace sv {

struct Scene;

class CameraControl {
 public:
  static constexpr int kQuietFrames = 12;

  // This frame's mouse (ui::viewport_input) on `camera`: orbit, pan, and the wheel's zoom toward
  // the cursor (the point at the target's depth under it stays there) in `viewport`
  // (framebuffer pixels, as input.mouse_x/y).
  void apply_input(const ui::ViewportInput& input, const PixelRect& viewport,
                   OrbitCamera& camera) noexcept;
  // Records the view a discrete change is about to leave.
  void record(const OrbitCamera& camera) noexcept;
  // Undo / redo view change (CameraHistory), ending a gesture in progress: the next move is a
  // new entry. False when there is nothing to go back (forward) to.
  bool undo(OrbitCamera& camera) noexcept;
  bool redo(OrbitCamera& camera) noexcept;
  // A new model: its views have nothing to do with the last one's.
  void clear() noexcept;

  CameraHistory history;

 private:
  bool gesture_ = false;  // a drag or wheel run is in progress (already recorded)
  int quiet_ = 0;         // frames since the last move of that gesture
};

// The window's framing of the clip it plays, whose bounds are a job (Scene::bounds_if_known):
// frame() frames what is known now (the clip's bounds, else the rest pose's, which are computed
// at once) and, when the clip's were not known yet, remembers the view it set; settle(), once a
// frame, reframes on the clip's bounds when they arrive, unless the camera moved since (the
// user's view is theirs) or another clip is playing. A framing that waited would hold the UI
// thread for as long as the clip takes to sample (bounded, but seconds on a long clip).
class AutoFrame {
 public:
  void frame(Scene& scene, OrbitCamera& camera, RenderOptions& options, float aspect);
  // True when it reframed the camera now.
  bool settle(Scene& scene, OrbitCamera& camera, RenderOptions& options, float aspect);
  // The framing waits for a clip's bounds (--exit-json "framingPending").
  bool pending() const noexcept { return pending_; }

 private:
  bool pending_ = false;
  int32_t clip_ = 0;    // the clip whose bounds are awaited
  OrbitCamera framed_;  // the view frame() set on the rest pose's bounds
};

// A framebuffer pixel of `viewport` in normalised device coordinates (x right, y up, [-1, 1]).
glm::vec2 viewport_ndc(const PixelRect& viewport, float x, float y) noexcept;

// World-space bounds of `joint` and the vertices it skins in the pose now (skin/joint_bounds.h),
// turned upright as drawn, padded to at least kMinPartShare of the model's size on every axis (a
// leaf joint is a point); invalid for no joint.
inline constexpr float kMinPartShare = 0.08f;
Bounds selection_world_bounds(const Scene& scene, int32_t joint) noexcept;

// F12: the viewport's pixels (the 3D view, no panels or overlays) from the current back buffer
// (framebuffer_width x height, the frame drawn, before the swap) as a PNG in the model's folder,
// named <model stem>_NNN.png with the first number free (the name is reserved with O_EXCL, so it
// never overwrites). Returns the path written, or "" with `error`.
std::string save_viewport_png(const std::string& model_path, const PixelRect& viewport,
                              int framebuffer_width, int framebuffer_height, std::string* error);

// The first free name <folder>/<stem>_NNN.png (001 to 999) for `model_path`, created empty so
// nothing else takes it; "" with `error` when none can be made.
std::string reserve_shot_path(const std::string& model_path, std::string* error);

}  // namespace sv
