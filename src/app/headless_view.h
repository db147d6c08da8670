// HeadlessView: one model drawn into an offscreen target exactly as `--screenshot` draws it
// (view mode, skinning path, skeleton, selected joint, --size, --ui, --up, the --layer /
// --crossfade blend), at any time and from a camera turned about the vertical axis.
//
// `--screenshot` draws one frame with it and `--record` / `--video` draw a sequence (record.h),
// so a recorded frame is, by construction, the screenshot at that time: there is one code path
// from the options to the pixels. Each draw() sets the whole state from (time, turn) instead of
// advancing it, so frame i does not depend on the frames before it and no error accumulates
// over a long recording. Each picture is one run_frame (frame.h) on a picture clock, the frame
// the window runs too.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "anim/layer_stack.h"
#include "app/app_common.h"
#include "app/frame.h"
#include "gfx/camera.h"
#include "gfx/render_options.h"
#include "skin/crowd.h"

namespace sv {

struct Options;
struct ViewerOptions;
struct Model;
struct Scene;
namespace gl {
class Renderer;
}

class HeadlessView {
 public:
  HeadlessView();
  ~HeadlessView();  // the scene, then the context (HeadlessScene)
  HeadlessView(const HeadlessView&) = delete;
  HeadlessView& operator=(const HeadlessView&) = delete;

  // Checks the viewer's options, imports options.model and resolves --clip, --bone and the blend
  // (bad input exits 2 before any window is made), then opens the context and the scene. The
  // blend's layers given a time=T run on the clock from `blend_base_time` (app/blend_options.h:
  // --time for a screenshot). `check` runs after the view's own checks, before the window, with
  // the model and the duration in seconds of what --clip / --crossfade / the pose options play
  // (the base clip's; 0 for the rest and the bind pose); a non-empty message is bad input.
  // Returns -1 to go on, otherwise the exit status, its message printed; `mode` names the
  // option in "--MODE needs a model file".
  using Check = std::function<std::string(const Model& model, double duration)>;
  int open(const Options& options, const ViewerOptions& viewer, const char* mode,
           double blend_base_time, const Check& check = {});

  // Draws the frame at `time` (seconds on the clock, as --time) with the camera turned by
  // `turn_radians` about the world's vertical axis from where framing on load puts it, and reads
  // it back: width() x height() top-down RGBA8 rows, valid until the next draw().
  const std::vector<uint8_t>& draw(double time, float turn_radians = 0.0f);

  // For a turntable: frame on the upright cylinder around the framed bounds (its axis through
  // their centre) instead of the bounds, so the model stays in the picture from every side at one
  // distance; the frames then no longer equal --screenshot's.
  void set_turntable(bool on) noexcept { turntable_ = on; }

  int width() const noexcept { return width_; }
  int height() const noexcept { return height_; }

 private:
  HeadlessScene h_;
  RenderOptions ro_;
  FrameState frames_;          // the pictures' frames (run_frame on a picture clock)
  std::size_t late_seen_ = 0;  // of the renderer's late_problems(), said already
  OrbitCamera camera_;         // framed by each frame
  LayerStack stack_;           // the blend, resolved against the model before any window opens
  CrowdRequest crowd_;         // --crowd
  int32_t joint_ = -1;
  bool ui_ = false;
  bool legend_open_ = false;  // --legend-open
  bool turntable_ = false;
  std::optional<ViewAxis> axis_;  // --camera-view
  int width_ = 0, height_ = 0;
  PixelRect viewport_;
  std::vector<uint8_t> rgba_;
};

}  // namespace sv
