#include "app/crowd_frame.h"

#include <algorithm>
#include <chrono>

#include <CLI/CLI.hpp>

#include "anim/worker_pool.h"
#include "app/app_common.h"
#include "app/viewer_scene.h"
#include "gfx/renderer.h"

namespace sv {

void add_crowd_options(CLI::App& app, CrowdOptions& o) {
  app.add_option("--crowd", o.count,
                 "Draw N instances of the model (1 to " + std::to_string(kMaxCrowd) +
                     ") on a grid, out of phase, one instanced draw per mesh (GPU skinning)")
      ->type_name("N")
      ->group("Crowd");
  app.add_flag("--crowd-shared", o.shared,
               "Instances in step share one palette (random phases snap to 8 phases)")
      ->group("Crowd");
  app.add_flag("--crowd-cycle", o.cycle, "Instance i plays clip (--clip + i) mod clips")
      ->group("Crowd");
  app.add_flag("--crowd-in-step", o.in_step, "Every instance at the same time (no random phases)")
      ->group("Crowd");
  app.add_option("--crowd-spacing", o.spacing,
                 "World units between instances (default: 1.25 x the model's footprint)")
      ->type_name("D")
      ->group("Crowd");
}

std::string parse_crowd_options(const CrowdOptions& o, const std::string& skinning,
                                CrowdRequest* out) {
  *out = CrowdRequest{};
  if (o.count.empty()) {
    if (o.shared || o.cycle || o.in_step || !o.spacing.empty())
      return "--crowd-shared, --crowd-cycle, --crowd-in-step and --crowd-spacing need --crowd N";
    return {};
  }
  double n = 0.0;
  if (!parse_number(o.count, &n) || n != static_cast<double>(static_cast<long long>(n)) ||
      n < 1.0 || n > kMaxCrowd)
    return "bad --crowd '" + o.count + "' (want a whole number of instances, 1 to " +
           std::to_string(kMaxCrowd) + ")";
  out->settings.count = static_cast<int32_t>(n);
  out->settings.shared = o.shared;
  out->settings.cycle_clips = o.cycle;
  out->settings.random_phases = !o.in_step;
  out->settings.spacing = 0.0f;
  if (!o.spacing.empty()) {
    double d = 0.0;
    if (!parse_number(o.spacing, &d) || d <= 0.0 || d > 1e6)
      return "bad --crowd-spacing '" + o.spacing + "' (want a distance > 0)";
    out->settings.spacing = static_cast<float>(d);
  }
  if (skinning == "cpu")
    return "--crowd draws with GPU skinning: a crowd's CPU cost is pose + palette per instance "
           "(leave out --skinning cpu)";
  out->on = true;
  return {};
}

std::string crowd_frame(Scene& scene, CrowdRequest& request, double dt, gl::Renderer& renderer) {
  using Clock = std::chrono::steady_clock;
  renderer.set_crowd(nullptr);
  scene.crowd_upload_seconds = 0.0;
  if (!request.on) {
    if (!scene.crowd.empty()) {
      scene.crowd.clear();
      scene.crowd_gpu.clear();
    }
    scene.crowd_error.clear();
    return {};
  }
  CrowdSettings& want = request.settings;
  if (want.spacing <= 0.0f) {
    // 1.25 x the larger horizontal extent of the clip's upright bounds: neighbours never touch.
    const Bounds world = scene.bounds.transformed(up_axis_matrix(scene.z_up));
    const float footprint =
        world.valid() ? std::max(world.max.x - world.min.x, world.max.z - world.min.z) : 1.0f;
    want.spacing = 1.25f * (footprint > 0.0f ? footprint : 1.0f);
  }
  const CrowdSettings& have = scene.crowd.settings();
  const bool same =
      !scene.crowd.empty() && have.count == want.count && have.spacing == want.spacing &&
      have.shared == want.shared && have.random_phases == want.random_phases &&
      have.seed == want.seed && have.cycle_clips == want.cycle_clips &&
      have.phase_groups == want.phase_groups && scene.crowd.base_clip() == scene.player.clip;
  if (!same) {
    scene.crowd_error =
        scene.crowd.configure(scene.model, want, scene.player.clip, skin_pool().size());
    if (scene.crowd_error.empty())
      scene.crowd_error = scene.crowd_gpu.resize(scene.crowd.instances(), scene.crowd.groups(),
                                                 scene.crowd.bones());
    if (!scene.crowd_error.empty()) {
      scene.crowd.clear();
      scene.crowd_gpu.clear();
      request.on = false;
      return scene.crowd_error;
    }
    scene.crowd.set_clock(scene.player.time);
  } else {
    scene.crowd.advance(scene.player.playing ? dt * scene.player.speed : 0.0);
  }
  if (!scene.crowd.evaluate(scene.model, scene.player.time, scene.animator.skin().method,
                            &skin_pool())) {
    scene.crowd_error = "the crowd cannot be posed";
    return scene.crowd_error;
  }
  const auto t0 = Clock::now();
  scene.crowd_gpu.upload(scene.crowd, up_axis_matrix(scene.z_up), scene.animator.skin().method);
  scene.crowd_upload_seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  renderer.set_crowd(&scene.crowd_gpu);
  return {};
}

}  // namespace sv
