// The frame pipeline: one function, run_frame(), computes and draws one frame from explicit
// inputs -- the loaded scene, the session's choices, the clock, the target -- and returns the
// record of that frame. The window, --screenshot, --record / --video, the window's Record
// control, --bench-frames and --soak all call it; there is no other frame loop. The panels read
// the record (and the pose it left in the scene) of the frame on screen: the window builds its
// panels after run_frame, never before.
//
// Stages, in order (each its own function in frame.cpp):
//   1. clock    the player (and its layers, cross-fade, crowd clock) advanced by the clock's step
//               or set to its time (`at`: pictures and recordings, so frame i never depends on
//               the frames before it);
//   2. jobs     what the frame needs that is computed off the frame: CoR's centres for the method
//               in force (started once, LBS drawn until they are known, uploaded once);
//   3. pose     sample + blend + morph weights -> local -> model -> palettes (SkinnedPose);
//   4. skin     CPU skinning where the CPU path or a view needs the vertices, from the
//               document's compact streams where SkinnedPose::compact() holds (LBS, 4
//               influences, no morph weight), as the GPU path draws;
//   5. derive   the difference views' figures (CPU vs GPU, method vs method);
//   6. crowd    the instances' poses and palettes, uploaded;
//   7. frame    the camera framed when the target asks (pictures), else kept (the window);
//   8. draw     the renderer, timed.
//
// A frame allocates nothing once the model, the clip, the layers and the crowd are set up.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include <glm/mat4x4.hpp>

#include "anim/layer_stack.h"
#include "anim/skeleton.h"
#include "gfx/camera.h"
#include "gfx/render_options.h"
#include "skin/crowd.h"
#include "skin/skin_method.h"
#include "skin/skinned_pose.h"

namespace sv {

struct Scene;
namespace gl {
class Renderer;
}

// The longest step the clip advances in one frame. A frame that took longer (a stall, a crowd
// of thousands on a software renderer) plays the clip slower than real time; the frame record
// and the FrameState say by how much (the timeline's "playing at 0.46x" notice), the frame-rate
// figure does not hide it.
inline constexpr double kMaxFrameStep = 0.25;

// How a frame moves the clock.
struct FrameClock {
  double wall_seconds = 0.0;  // the true time since the previous frame (0: an untimed frame)
  double step = 0.0;          // seconds the playing clips advance (times the player's speed)
  std::optional<double> at;   // set every clock to this time instead of advancing

  // The window: the clip advances by the wall time, at most kMaxFrameStep.
  static FrameClock live(double wall_seconds) noexcept {
    return {wall_seconds, std::min(wall_seconds, kMaxFrameStep), std::nullopt};
  }
  // --bench-frames and --soak: fixed steps, so every run plays the same poses.
  static FrameClock fixed(double step) noexcept { return {0.0, step, std::nullopt}; }
  // Pictures and recordings: the state at `at`, whatever came before.
  static FrameClock picture(double at) noexcept { return {0.0, 0.0, at}; }
};

// What the session chose that the frame reads (the window's ViewerState or the command line's
// options own them).
struct FrameChoices {
  RenderOptions* render = nullptr;  // view, method, influences, path; a crowd forces GPU skinning
  CrowdRequest* crowd = nullptr;    // null or off: no crowd
  std::span<const float> morph_overrides;  // the Morph section's pinned weights (NaN: the clip's)
  // With a picture clock only: the clip to play and the blend restarted at the clock's time.
  int32_t clip = kRestPose;
  const LayerStack* blend = nullptr;
};

// How the camera is set for the draw.
enum class Framing {
  Keep,       // drawn as the caller's camera is (the window)
  Load,       // framed on the clip's bounds from the load direction (--screenshot)
  Turntable,  // framed on the upright cylinder around them (--orbit)
};

// Where the frame is drawn. renderer == null: the frame is computed but not drawn.
struct DrawTarget {
  gl::Renderer* renderer = nullptr;
  OrbitCamera* camera = nullptr;  // Keep: read; Load / Turntable: written, then turned by `turn`
  Framing framing = Framing::Keep;
  float turn = 0.0f;  // radians about the vertical axis, after framing
  // Load and Turntable: seen along this axis, orthographic (--camera-view), before framing.
  std::optional<ViewAxis> axis;
  int width = 0, height = 0;  // the bound framebuffer
  PixelRect viewport;         // where the model goes in it (bottom-up, GL's)
  bool clear = true;          // clear the framebuffer to the background first
};

// The whole of a `width` x `height` framebuffer drawn by `renderer` through `camera` (the
// headless modes' and the Record control's target).
inline DrawTarget whole_target(gl::Renderer& renderer, OrbitCamera& camera, int width, int height,
                               Framing framing = Framing::Keep) {
  DrawTarget t;
  t.renderer = &renderer;
  t.camera = &camera;
  t.framing = framing;
  t.width = width;
  t.height = height;
  t.viewport = PixelRect{0, 0, width, height};
  return t;
}

// The record of one frame: what it showed and what it cost. Spans point into the scene and stay
// valid until its next frame.
struct Frame {
  long index = -1;  // frames run by this FrameState before it (0: the first)
  int32_t clip = kRestPose;
  double time = 0.0;  // the player's time the pose was sampled at
  bool playing = false;
  double wall_seconds = 0.0;                  // the true time since the previous frame (0: untimed)
  double step = 0.0;                          // how far the clock advanced
  std::span<const float> morph_weights;       // per mesh, per target, as skinned
  std::span<const glm::mat4> model_matrices;  // per joint, model space, as drawn
  SkinMethod method = SkinMethod::Lbs;        // the method drawn (LBS while CoR's centres load)
  bool cpu_skinned = false;                   // the CPU skinned the vertices this frame
  bool drawn = false;
  StageTimes times;                   // pose, normals, CPU skinning
  double draw_seconds = 0.0;          // upload + draw calls, CPU side
  double crowd_upload_seconds = 0.0;  // the crowd's palettes to the GPU
  double difference_seconds = -1.0;   // the difference view's update; < 0: none ran
  std::string_view crowd_error;       // why the requested crowd is off ("" when none)
};

// One caller's frame-to-frame state: how many frames ran, the ring of the timed frames' true
// durations and clock steps (the frame rate and the real-time ratio come from it), and the
// record of the last frame.
struct FrameState {
  static constexpr std::size_t kRing = 240;
  std::array<float, kRing> wall{};  // seconds per timed frame, true (never clamped)
  std::array<float, kRing> step{};  // seconds the clip advanced in it (= wall while paused)
  std::size_t next = 0;             // the slot the next timed frame fills
  std::size_t timed = 0;            // timed frames so far
  long frames = 0;
  Frame last;

  // The timed frames in the ring, oldest first is not kept: a span over all kRing slots with
  // `filled()` of them valid (PlotLines takes the ring and next as its offset).
  std::size_t filled() const noexcept { return std::min(timed, kRing); }
  // Frames per second over the ring: frames / their total time (0 before a timed frame).
  double fps() const noexcept;
  // The clip's playback against real time over the ring: 1 when every frame's step was its
  // wall time, 0.5 when the clip advanced half as fast as the clock (frames longer than
  // kMaxFrameStep). 1 before a timed frame.
  double realtime() const noexcept;
};

// Runs one frame of `scene` (see the stages above) and returns its record (also state.last).
// Needs the scene's GL context current when the target draws or a crowd is on.
const Frame& run_frame(Scene& scene, const FrameChoices& choices, const FrameClock& clock,
                       const DrawTarget& target, FrameState& state);

// One frame computed and not drawn, the clock where it is (a fixed step of 0): the same
// run_frame, for tests and benchmarks of the stages. `render` as FrameChoices::render.
inline const Frame& compute_frame(Scene& scene, RenderOptions& render, FrameState& state) {
  FrameChoices choices;
  choices.render = &render;
  return run_frame(scene, choices, FrameClock::fixed(0.0), DrawTarget{}, state);
}

}  // namespace sv
