// The morph stage on the CPU path (anim/morph.h apply_morphs, run before skinning per mesh with a
// non-zero weight): a representative face mesh, 2,000 vertices (a game character's head) with
// `targets` targets all active, positions and normals. The per-target, per-vertex cost is the
// figure for BENCHMARKS.md. Items: target-vertex pairs.
#include <vector>

#include <benchmark/benchmark.h>
#include <glm/vec3.hpp>

#include "anim/morph.h"

namespace {

constexpr std::size_t kVertices = 2000;

void morph_apply(benchmark::State& state) {
  const auto targets = static_cast<std::size_t>(state.range(0));
  std::vector<glm::vec3> base(kVertices), normals(kVertices, glm::vec3(0, 0, 1));
  for (std::size_t v = 0; v < kVertices; ++v)
    base[v] = glm::vec3(float(v % 40), float(v / 40), 0.01f * float(v % 7));
  std::vector<sv::MorphTarget> list(targets);
  for (std::size_t t = 0; t < targets; ++t) {
    list[t].position_deltas.assign(kVertices, glm::vec3(0.001f * float(t + 1), 0.002f, 0.0f));
    list[t].normal_deltas.assign(kVertices, glm::vec3(0.0f, 0.01f, 0.0f));
  }
  std::vector<float> weights(targets, 0.5f);
  std::vector<glm::vec3> out_p(kVertices), out_n(kVertices);
  for (auto _ : state) {
    sv::apply_morphs(base, normals, list, weights, out_p, out_n);
    benchmark::DoNotOptimize(out_p.data());
    benchmark::DoNotOptimize(out_n.data());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * targets * kVertices));
}
BENCHMARK(morph_apply)->Arg(1)->Arg(2)->Arg(8)->Arg(32);

}  // namespace
