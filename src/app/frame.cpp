// run_frame (frame.h): the one frame of every mode, stage by stage.
#include "app/frame.h"

#include <chrono>
#include <cmath>
#include <cstdio>

#include "gfx/gl.h"

#include "app/app_common.h"
#include "app/cli.h"
#include "app/crowd_frame.h"
#include "app/difference_view.h"
#include "app/viewer_scene.h"
#include "gfx/renderer.h"

namespace sv {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

// 1. The clock: the player, its layers and cross-fade advanced by the step, or set to `at`.
void clock_stage(Scene& scene, const FrameChoices& choices, const FrameClock& clock) {
  if (clock.at) {
    const double t = *clock.at;
    scene.player.clip = choices.clip;
    scene.player.playing = false;
    scene.player.time = std::min(t, scene.duration());
    if (choices.blend != nullptr && choices.blend->blends()) set_blend(scene, *choices.blend, t);
    return;
  }
  // A step of 0 leaves every clock as it is (no wrap or clamp either: a test that sets a time on
  // the bind pose's player and then a clip keeps the time).
  if (clock.step != 0.0) advance(scene, clock.step);
}

// 3 + 4 + 5. The pose of the player's clip (or the layer stack over it) with the morph weights,
// its palettes, the CPU's vertices where the CPU path or the CPU-vs-GPU view needs them, and the
// difference view's figures. The method (2: its centres, a job) was chosen before.
void pose_stage(Scene& scene, const FrameChoices& choices) {
  const RenderOptions& options = *choices.render;
  scene.animator.pose.set_morph_overrides(choices.morph_overrides);
  const bool cpu = !options.gpu_skinning || options.view == ViewMode::CpuGpu;
  bool posed = false;
  if (scene.stack.blends() && scene.player.clip >= 0) {
    // Nothing allocates unless the stack changed size or clips.
    if (scene.frame_layers.size() != scene.stack.size())
      scene.frame_layers.resize(scene.stack.size());
    posed = scene.stack.frame(scene.model, scene.player, scene.frame_layers) &&
            scene.animator.pose.set_layers(scene.model, scene.frame_layers).empty() &&
            scene.animator.evaluate(scene.model, scene.frame_layers);
  }
  if (!posed) {
    scene.animator.pose.set_clip(scene.model, scene.player.clip);
    const PoseMode mode = scene.player.clip == kBindPose ? PoseMode::Bind
                          : scene.player.clip < 0        ? PoseMode::Rest
                                                         : PoseMode::Clip;
    scene.animator.evaluate(scene.model, mode, scene.player.time);
  }
  if (cpu) scene.animator.skin_cpu(scene.model, &skin_pool());
  update_difference(scene, options);
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
  const bool playing = scene.player.playing;
  clock_stage(scene, choices, clock);

  // 2. Jobs: a crowd draws on the GPU; CoR's centres are started (once) for the influences in
  // force and LBS is drawn until they are known.
  const bool crowd_on = choices.crowd != nullptr && choices.crowd->on;
  if (crowd_on) render.gpu_skinning = true;
  choose_method(scene, render.method, render.influences);
  // Pictures frame on the bounds of the clip they show (a cross-fade's base changes when it
  // ends); the window keeps what it framed last (F and Home reframe).
  if (target.framing != Framing::Keep) scene.bounds = scene.bounds_of(scene.player.clip);

  pose_stage(scene, choices);

  // 6. The crowd, at the player's time: on a picture clock its own clock is set to the time.
  scene.crowd_upload_seconds = 0.0;
  if (target.renderer != nullptr && choices.crowd != nullptr) {
    if (clock.at && crowd_on) scene.crowd.set_clock(*clock.at);
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
    target.renderer->draw(scene.model, scene.gpu, scene.animator, *target.camera, render,
                          target.viewport, target.height);
    f.draw_seconds = seconds_since(t0);
    f.drawn = true;
  }

  record_time(state, clock, playing);
  f.index = state.frames++;
  f.clip = scene.player.clip;
  f.time = scene.player.time;
  f.playing = scene.player.playing;
  f.wall_seconds = clock.wall_seconds;
  f.step = clock.at ? 0.0 : clock.step;
  f.morph_weights = scene.animator.pose.all_morph_weights();
  f.model_matrices = scene.animator.pose.model_matrices();
  f.method = scene.animator.skin().method;
  f.cpu_skinned = !render.gpu_skinning || render.view == ViewMode::CpuGpu;
  f.times = scene.animator.times();
  f.crowd_upload_seconds = scene.crowd_upload_seconds;
  f.difference_seconds = scene.difference.seconds;
  f.crowd_error = scene.crowd_error;
  return f;
}

}  // namespace sv
