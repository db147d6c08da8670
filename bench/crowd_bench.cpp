// Crowds (skin/crowd.h): the CPU side of a crowd frame, pose + palette per instance.
//   crowd/<instances>         Crowd::evaluate on one thread, every instance its own palette group
//                             (sample + local->model + palette, then the normal palette), on
//                             animator/60's model (60 joints, 4-s clip keying every joint);
//                             items = instances, so the reported time per item is per instance
//   crowd_pool/<instances>    the same split over a WorkerPool of every core (the viewer's call)
//   crowd_shared/<instances>  shared palettes, random phases from 8 phase groups: 8 palettes a
//                             frame whatever the count
#include <algorithm>
#include <thread>

#include <benchmark/benchmark.h>

#include "anim/model.h"
#include "anim/worker_pool.h"
#include "skin/crowd.h"
#include "synthetic.h"

namespace sv::bench {
namespace {

void run_crowd(benchmark::State& state, bool shared, WorkerPool* pool) {
  const Model m = make_model(60, 0);
  CrowdSettings s;
  s.count = static_cast<int32_t>(state.range(0));
  s.shared = shared;
  Crowd crowd;
  if (!crowd.configure(m, s, 0, pool != nullptr ? pool->size() : 1).empty())
    state.SkipWithError("Crowd::configure refused the settings");
  double t = 0.0;
  for (auto _ : state) {
    t = wrap_time(t + 1.0 / 60.0, m.clips[0].duration(), true);
    crowd.advance(1.0 / 60.0);
    if (!crowd.evaluate(m, t, SkinMethod::Lbs, pool)) state.SkipWithError("evaluate failed");
    benchmark::DoNotOptimize(crowd.palettes().data());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
  state.counters["palettes"] = static_cast<double>(crowd.palettes_computed());
}

void crowd(benchmark::State& state) { run_crowd(state, false, nullptr); }
BENCHMARK(crowd)->Arg(1)->Arg(100)->Arg(1000)->Unit(benchmark::kMicrosecond);

void crowd_pool(benchmark::State& state) {
  static WorkerPool pool(std::max(1u, std::thread::hardware_concurrency()));
  run_crowd(state, false, &pool);
}
BENCHMARK(crowd_pool)->Arg(1000)->Unit(benchmark::kMicrosecond)->UseRealTime();

void crowd_shared(benchmark::State& state) { run_crowd(state, true, nullptr); }
BENCHMARK(crowd_shared)->Arg(1000)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace sv::bench
