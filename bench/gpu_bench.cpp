// gpu_frame_cpu_cost/<vertices>: the CPU side of one GPU-skinning frame: sample the clip,
// local->model, palette and normal palette (sv::Animator::evaluate), then upload the palettes
// (sv::GpuModel::upload_palette). The mesh is uploaded once; nothing per frame depends on its
// vertex count, which is what the three sizes show. Needs a GL 3.3+ core context: run under
// Xvfb (xvfb-run -a ...); without a display each size is skipped with a message.
#include <benchmark/benchmark.h>

#include <string>

#include "anim/model.h"
#include "anim/player.h"
#include "gfx/gpu_model.h"
#include "gl_bench.h"
#include "skin/skinned_pose.h"
#include "synthetic.h"

namespace sv::bench {
namespace {

void gpu_frame_cpu_cost(benchmark::State& state) {
  if (!context().ok()) {
    state.SkipWithError("no display or GL 3.3 core context (run under xvfb-run)");
    return;
  }
  const Model model = make_model(60, static_cast<std::size_t>(state.range(0)));
  if (const std::string e = model.validate(); !e.empty()) {
    state.SkipWithError(e.c_str());
    return;
  }
  SkinnedPose animator(model);
  animator.pose.set_clip(model, 0);
  gl::GpuModel gpu(model);
  double t = 0.0;
  for (auto _ : state) {
    t = wrap_time(t + 1.0 / 60.0, model.clips[0].duration(), true);
    if (!animator.evaluate(model, PoseMode::Clip, t)) state.SkipWithError("evaluate failed");
    gpu.upload_palette(animator.pose.palette(), animator.normal_palette());
  }
  glFinish();
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(gpu_frame_cpu_cost)->Arg(10000)->Arg(100000)->Arg(1000000)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace sv::bench
