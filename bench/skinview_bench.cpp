// skinview_bench: the per-frame CPU costs of the animation pipeline (see BENCHMARKS.md).
//
//   skin_cpu/<vertices>/<threads>   skin_lbs (1 thread) or skin_lbs_parallel on a WorkerPool,
//                                   positions + normals, 4 influences over 60 joints
//                                   (vertices laid out as the importer lays out meshes: grouped
//                                   by bone set)
//   skin_cpu_ungrouped/<v>/<t>      the same vertices in generation order (per-vertex path)
//   skin_cpu_avx2/<vertices>        skin_cpu's data on one thread with the AVX2 kernels only
//   skin_cpu_plain/<vertices>       skin_lbs_reference, the plain scalar loop
//   pose/<joints>                   sample + local->model + palette on the runtime clip layout
//                                   (evaluate_pose), playback advancing 1/60 s per iteration
//                                   and wrapping
//   animator/<joints>               the viewer's own call, SkinnedPose::evaluate: pose/ plus the
//                                   normal palette, on a Model of that skeleton and clip
//   sample/<joints>                 sample_runtime (local TRS only: what blending will read),
//                                   same playback
//   seek/<joints>                   sample_runtime at random times (the cursor has to search)
//   blend/<layers>                  SkinnedPose::evaluate over a stack of 1, 2 or 4 layers on the
//                                   60-joint model (1: the base alone, the fused path; 2: + an
//                                   override at 0.5; 4: + an override masked to a subtree at
//                                   0.7 and an additive layer at 0.5), every clip keying every
//                                   joint, each layer at its own time
//   blend_additive/2                the base and an additive layer at 0.5 over every joint, on
//                                   blend/'s model and clips (both: bench/blend_cases.h)
//
// Items are vertices (skinning) or poses; all data is synthetic and seeded (synthetic.h).
// items_per_second divides by the calling thread's CPU time (Google Benchmark's rule). The
// calling thread spins while the worker finishes its half, so for 2 threads that is close to
// the wall time on an idle machine; skin_cpu also reports wall_items_per_second, divided by
// the wall time, which is the figure to quote when the machine is loaded.
#include <benchmark/benchmark.h>

#include <chrono>
#include <map>
#include <memory>
#include <random>
#include <vector>

#include "anim/clip_runtime.h"
#include "anim/player.h"
#include "anim/pose.h"
#include "anim/worker_pool.h"
#include "blend_cases.h"
#include "skin/skinned_pose.h"
#include "skin/skinning.h"
#include "skin_loop.h"
#include "synthetic.h"

namespace sv::bench {
namespace {

constexpr int kSkinJoints = 60;

const SkinData& skin_data(std::size_t vertices, bool grouped = true) {
  static std::map<std::pair<std::size_t, bool>, std::unique_ptr<SkinData>> cache;
  auto& d = cache[{vertices, grouped}];
  if (!d) d = std::make_unique<SkinData>(make_skin(vertices, kSkinJoints, 1234u, grouped));
  return *d;
}

void skin_cpu_on(benchmark::State& state, bool grouped) {
  const std::size_t n = static_cast<std::size_t>(state.range(0));
  const unsigned threads = static_cast<unsigned>(state.range(1));
  const SkinData& d = skin_data(n, grouped);
  const SkinInput in{d.positions, d.normals, d.joints, d.weights, d.max_joint};
  std::vector<glm::vec3> out_p(n), out_n(n);
  WorkerPool& workers = bench_pool(threads);
  time_skinning(state, n, out_p, out_n, [&] {
    return threads == 1 ? skin_lbs(d.palette, d.normal_palette, in, out_p, out_n)
                        : skin_lbs_parallel(workers, d.palette, d.normal_palette, in, out_p, out_n);
  });
  state.SetLabel(skin_isa_name(skin_best_isa()));
}

void skin_cpu(benchmark::State& state) { skin_cpu_on(state, true); }
BENCHMARK(skin_cpu)
    ->ArgNames({"", ""})
    ->Args({100000, 1})
    ->Args({100000, 2})
    ->Args({1000000, 1})
    ->Args({1000000, 2})
    ->Unit(benchmark::kMicrosecond);

// The same vertices in generation order: no two neighbours share their bones, so every vertex
// takes the per-vertex path (what a mesh costs that did not go through the importer's layout).
void skin_cpu_ungrouped(benchmark::State& state) { skin_cpu_on(state, false); }
BENCHMARK(skin_cpu_ungrouped)
    ->ArgNames({"", ""})
    ->Args({1000000, 1})
    ->Args({1000000, 2})
    ->Unit(benchmark::kMicrosecond);

// skin_cpu's data on one thread through `skin` (same contract as skin_lbs).
template <class Skin>
void skin_one_thread(benchmark::State& state, Skin skin) {
  const std::size_t n = static_cast<std::size_t>(state.range(0));
  const SkinData& d = skin_data(n);
  const SkinInput in{d.positions, d.normals, d.joints, d.weights, d.max_joint};
  std::vector<glm::vec3> out_p(n), out_n(n);
  for (auto _ : state) {
    if (!skin(d.palette, d.normal_palette, in, out_p, out_n))
      state.SkipWithError("the skinning call refused the input");
    benchmark::DoNotOptimize(out_p.data());
    benchmark::DoNotOptimize(out_n.data());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(n));
}

// The AVX2 kernels only (8-lane runs, per-vertex AVX2): what a CPU without AVX-512 gets.
void skin_cpu_avx2(benchmark::State& state) {
  skin_one_thread(state, [](auto&&... args) { return skin_lbs_isa(SkinIsa::Avx2Fma, args...); });
}
BENCHMARK(skin_cpu_avx2)->Arg(1000000)->Unit(benchmark::kMicrosecond);

void skin_cpu_plain(benchmark::State& state) {
  skin_one_thread(state, [](auto&&... args) { return skin_lbs_reference(args...); });
}
BENCHMARK(skin_cpu_plain)->Arg(1000000)->Unit(benchmark::kMicrosecond);

struct PoseData {
  Skeleton skeleton;
  ClipRuntime clip;  // built once, at load, outside the frame
  std::vector<int32_t> skin_joints;
  std::vector<Transform> local;
  std::vector<glm::mat4> model;
  std::vector<glm::mat4> palette;
  RuntimeCursor cursor;

  explicit PoseData(int joints)
      : skeleton(make_skeleton(joints, 42u)), clip(make_runtime_clip(skeleton, 4.0f, 30.0f, 43u)) {
    const std::size_t n = skeleton.size();
    for (std::size_t i = 0; i < n; ++i) skin_joints.push_back(static_cast<int32_t>(i));
    local.resize(n);
    model.resize(n);
    palette.resize(n);
    cursor.reset(clip);
  }
};

void pose(benchmark::State& state) {
  PoseData p(static_cast<int>(state.range(0)));
  if (p.clip.empty()) state.SkipWithError("ClipRuntime::build refused the clip");
  double t = 0.0;
  for (auto _ : state) {
    t = wrap_time(t + 1.0 / 60.0, p.clip.duration(), true);
    if (!evaluate_pose(p.clip, t, p.cursor, p.skin_joints, p.skeleton.inverse_bind, p.model,
                       p.palette))
      state.SkipWithError("evaluate_pose refused the input");
    benchmark::DoNotOptimize(p.palette.data());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(pose)->Arg(60)->Arg(400);

void animator(benchmark::State& state) {
  const Model m = make_model(static_cast<int>(state.range(0)), 0);
  // The frame's pose stage as the window runs it: the pose and the skinning palettes.
  SkinnedPose a(m);
  a.pose.set_clip(m, 0);
  double t = 0.0;
  for (auto _ : state) {
    t = wrap_time(t + 1.0 / 60.0, m.clips[0].duration(), true);
    if (!a.evaluate(m, PoseMode::Clip, t)) state.SkipWithError("SkinnedPose::evaluate failed");
    benchmark::DoNotOptimize(a.normal_palette().data());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(animator)->Arg(60);

void sample(benchmark::State& state) {
  PoseData p(static_cast<int>(state.range(0)));
  double t = 0.0;
  for (auto _ : state) {
    t = wrap_time(t + 1.0 / 60.0, p.clip.duration(), true);
    if (!sample_runtime(p.clip, t, p.cursor, p.local))
      state.SkipWithError("sample_runtime refused the input");
    benchmark::DoNotOptimize(p.local.data());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(sample)->Arg(60);

void seek(benchmark::State& state) {
  PoseData p(static_cast<int>(state.range(0)));
  std::mt19937 rng(7u);
  std::uniform_real_distribution<double> u(0.0, p.clip.duration());
  std::vector<double> times(1024);
  for (double& t : times) t = u(rng);
  std::size_t i = 0;
  for (auto _ : state) {
    if (!sample_runtime(p.clip, times[i++ & 1023u], p.cursor, p.local))
      state.SkipWithError("sample_runtime refused the input");
    benchmark::DoNotOptimize(p.local.data());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(seek)->Arg(60);

// SkinnedPose::evaluate over one of blend_cases.h's stacks, every layer at its own time.
void evaluate_stack(benchmark::State& state, const char* name) {
  const auto c = make_blend_case(name, static_cast<std::size_t>(state.range(0)));
  if (!c) {
    state.SkipWithError("no such blend case");
    return;
  }
  SkinnedPose a(c->model);
  if (!a.pose.set_layers(c->model, c->stack).empty())
    state.SkipWithError("set_layers refused the stack");
  double t = 0.0;
  for (auto _ : state) {
    t += 1.0 / 60.0;
    set_blend_time(*c, t);
    if (!a.evaluate(c->model, c->stack))
      state.SkipWithError("SkinnedPose::evaluate refused the stack");
    benchmark::DoNotOptimize(a.normal_palette().data());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations());
}

void blend(benchmark::State& state) { evaluate_stack(state, "blend"); }
BENCHMARK(blend)->Arg(1)->Arg(2)->Arg(4);

// The additive half of issue 25's aim against blend/1.
void blend_additive(benchmark::State& state) { evaluate_stack(state, "blend_additive"); }
BENCHMARK(blend_additive)->Arg(2);

}  // namespace
}  // namespace sv::bench

BENCHMARK_MAIN();
