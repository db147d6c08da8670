// What the skinning benchmarks share (skinview_bench.cpp's skin_cpu, methods_bench.cpp's
// skin_method): one WorkerPool per thread count for the program's life, and the timed loop that
// skins a whole mesh per iteration and reports vertices per second of CPU time (Google
// Benchmark's items_per_second) and of wall time (wall_items_per_second: the honest figure on a
// loaded machine, as the calling thread spin-waits for the workers).
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>

#include <benchmark/benchmark.h>

#include "anim/worker_pool.h"

namespace sv::bench {

inline WorkerPool& bench_pool(unsigned threads) {
  static std::map<unsigned, std::unique_ptr<WorkerPool>> pools;
  auto& p = pools[threads];
  if (!p) p = std::make_unique<WorkerPool>(threads);
  return *p;
}

// Runs `skin_once()` (true when the kernel accepted its input) per iteration over `n` vertices
// writing `out` (positions, then normals; kept from being optimised away).
template <class SkinOnce, class OutP, class OutN>
void time_skinning(benchmark::State& state, std::size_t n, OutP& out_p, OutN& out_n,
                   SkinOnce&& skin_once) {
  const auto start = std::chrono::steady_clock::now();
  for (auto _ : state) {
    if (!skin_once()) state.SkipWithError("the kernel refused the input");
    benchmark::DoNotOptimize(out_p.data());
    benchmark::DoNotOptimize(out_n.data());
    benchmark::ClobberMemory();
  }
  const double wall =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(n));
  state.counters["wall_items_per_second"] =
      static_cast<double>(state.iterations()) * static_cast<double>(n) / wall;
}

}  // namespace sv::bench
