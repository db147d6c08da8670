#include "app/crowd_frame.h"

#include <algorithm>
#include <chrono>
#include <cmath>

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
  // The range first: converting 1e20 to an integer is undefined (clang's UBSan:
  // float-cast-overflow), and std::floor needs no conversion at all.
  if (!parse_number(o.count, &n) || !(n >= 1.0 && n <= kMaxCrowd) || n != std::floor(n))
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
  // Reads the document and the playback; writes only the frame's crowd products.
  const Model& model = scene.doc.model;
  const Playback& play = scene.play;
  FrameProducts& out = scene.frame;
  renderer.set_crowd(nullptr);
  out.crowd_upload_seconds = 0.0;
  if (!request.on) {
    if (!out.crowd.empty()) {
      out.crowd.clear();
      out.crowd_gpu.clear();
    }
    out.crowd_error.clear();
    return {};
  }
  CrowdSettings& want = request.settings;
  if (want.spacing <= 0.0f) {
    // 1.25 x the larger horizontal extent of the clip's upright bounds: neighbours never touch.
    const Bounds world = out.bounds.transformed(up_axis_matrix(play.z_up));
    const float footprint =
        world.valid() ? std::max(world.max.x - world.min.x, world.max.z - world.min.z) : 1.0f;
    want.spacing = 1.25f * (footprint > 0.0f ? footprint : 1.0f);
  }
  const CrowdSettings& have = out.crowd.settings();
  const bool same =
      !out.crowd.empty() && have.count == want.count && have.spacing == want.spacing &&
      have.shared == want.shared && have.random_phases == want.random_phases &&
      have.seed == want.seed && have.cycle_clips == want.cycle_clips &&
      have.phase_groups == want.phase_groups && out.crowd.base_clip() == play.player.clip;
  if (!same) {
    out.crowd_error = out.crowd.configure(model, want, play.player.clip, skin_pool().size());
    if (out.crowd_error.empty())
      out.crowd_error =
          out.crowd_gpu.resize(out.crowd.instances(), out.crowd.groups(), out.crowd.bones());
    if (!out.crowd_error.empty()) {
      out.crowd.clear();
      out.crowd_gpu.clear();
      request.on = false;
      return out.crowd_error;
    }
    out.crowd.set_clock(play.player.time);
  } else {
    out.crowd.advance(play.player.playing ? dt * play.player.speed : 0.0);
  }
  const SkinMethod method = out.animator.skin().method;
  if (!out.crowd.evaluate(model, play.player.time, method, &skin_pool())) {
    out.crowd_error = "the crowd cannot be posed";
    return out.crowd_error;
  }
  const auto t0 = Clock::now();
  out.crowd_gpu.upload(out.crowd, up_axis_matrix(play.z_up), method);
  out.crowd_upload_seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  renderer.set_crowd(&out.crowd_gpu);
  return {};
}

}  // namespace sv
