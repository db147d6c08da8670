// The skinning methods of issue 12 (skin/skin_method.h) beside LBS, and the precompute of CoR:
//
//   skin_method/<method>/<vertices>/<threads>/<rigid>
//       skin() or skin_parallel() with method 0 LBS, 1 DQS, 2 CoR: skin_cpu's data and layout
//       (bench/synthetic.h make_skin, grouped by bone set), positions + normals. rigid 1: the
//       palette's scale taken out (K = [R | t], the usual rig); rigid 0: make_skin's palette as
//       posed, every joint scaled by 1 +- 0.02, so DQS and CoR take two-phase skinning. The
//       method palette (build_method_palette) is built once outside the loop, as the Animator
//       builds it once per frame; method_palette/<bones> measures that.
//   skin_method8/<method>/<vertices>/<threads>
//       the same (rigid palette) with 8 influences on every vertex: skin_method's 4 and a second
//       set of 4 more bones (base+12 .. base+21) holding 0.3 of the weight, through the
//       8-influence loop (skin/skinning8.cpp). Every vertex with 8 is that loop's worst case.
//   skin_compact/<method>/<vertices>/<threads>
//       skin_method (rigid palette) on the compact streams of skin/compact_streams.h
//       (octahedral normals in and out, u8 joints, 3 f32 weights; skin_compact): 48 B per
//       vertex moved against skin_method's 72 (CoR: 60 against 84, its centres f32 on both)
//       (issue 25, deliverable 3). Compare with skin_method/method:<method>/.../rigid:1 in the
//       same run.
//   method_palette/<bones>             build_method_palette of a posed palette
//   cor_precompute/tube/<vertices>     compute_rotation_centers on make_tube_mesh (2 threads)
//   cor_precompute/default             the same on the default character's mesh (needs sv::io)
#include <benchmark/benchmark.h>

#include <chrono>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <glm/gtc/quaternion.hpp>

#include "anim/pose.h"
#include "anim/worker_pool.h"
#include "skin/compact_streams.h"
#include "skin/rotation_centers.h"
#include "skin/skin_method.h"
#include "skin/skinning.h"
#include "skin_loop.h"
#include "synthetic.h"
#ifdef SKINVIEW_BENCH_IO
#include "io/import.h"
#endif

namespace sv::bench {
namespace {

constexpr int kBones = 60;

struct MethodData {
  SkinData skin;
  std::vector<glm::mat4> palette;  // rigid or as posed
  std::vector<glm::mat3> normal_palette;
  std::vector<MethodBone> method;
  std::vector<glm::vec3> centers;
};

const MethodData& method_data(std::size_t vertices, bool rigid) {
  static std::map<std::pair<std::size_t, bool>, std::unique_ptr<MethodData>> cache;
  auto& d = cache[{vertices, rigid}];
  if (d) return *d;
  d = std::make_unique<MethodData>();
  d->skin = make_skin(vertices, kBones, 1234u, true);
  d->palette = d->skin.palette;
  if (rigid) {
    for (glm::mat4& k : d->palette) {
      glm::dmat3 r, s;
      if (polar_decompose(glm::dmat3(glm::mat3(k)), &r, &s)) {
        const glm::vec4 t = k[3];
        k = glm::mat4(glm::mat3(r));
        k[3] = t;
      }
    }
  }
  d->normal_palette.resize(d->palette.size());
  build_normal_palette(d->palette, d->normal_palette);
  d->method.resize(d->palette.size());
  build_method_palette(d->palette, d->method);
  // Centres near each vertex: the cost does not depend on where they are.
  d->centers = d->skin.positions;
  for (glm::vec3& c : d->centers) c *= 0.9f;
  return *d;
}

// Times skin() (1 thread) or skin_parallel() of `in` with `method`.
void time_method(benchmark::State& state, SkinMethod method, unsigned threads,
                 const SkinPalettes& pal, const SkinInput& in) {
  const std::size_t n = in.positions.size();
  std::vector<glm::vec3> out_p(n), out_n(n);
  WorkerPool& workers = bench_pool(threads);
  time_skinning(state, n, out_p, out_n, [&] {
    return threads == 1 ? skin(method, pal, in, out_p, out_n)
                        : skin_parallel(workers, method, pal, in, out_p, out_n);
  });
}

void skin_method(benchmark::State& state) {
  const auto method = static_cast<SkinMethod>(state.range(0));
  const auto n = static_cast<std::size_t>(state.range(1));
  const auto threads = static_cast<unsigned>(state.range(2));
  const MethodData& d = method_data(n, state.range(3) != 0);
  SkinInput in{d.skin.positions, d.skin.normals, d.skin.joints, d.skin.weights, d.skin.max_joint};
  in.centers = d.centers;
  const SkinPalettes pal{d.palette, d.normal_palette, d.method};
  time_method(state, method, threads, pal, in);
  state.SetLabel(std::string(skin_method_label(method)) + " " + skin_isa_name(skin_best_isa()));
}
BENCHMARK(skin_method)
    ->ArgNames({"method", "vertices", "threads", "rigid"})
    ->ArgsProduct({{0, 1, 2}, {1000000}, {1, 2}, {1, 0}})
    ->Unit(benchmark::kMicrosecond);

const CompactStreams& compact_streams(const MethodData& d) {
  static std::map<const MethodData*, std::unique_ptr<CompactStreams>> cache;
  auto& c = cache[&d];
  if (!c)
    c = std::make_unique<CompactStreams>(
        encode_compact(d.skin.joints, d.skin.weights, d.skin.normals, d.skin.max_joint));
  return *c;
}

void skin_compact(benchmark::State& state) {
  const auto method = static_cast<SkinMethod>(state.range(0));
  const auto n = static_cast<std::size_t>(state.range(1));
  const auto threads = static_cast<unsigned>(state.range(2));
  const MethodData& d = method_data(n, true);
  const CompactStreams& c = compact_streams(d);
  CompactSkinInput in = c.input(d.skin.positions);
  in.centers = d.centers;
  const SkinPalettes pal{d.palette, d.normal_palette, d.method};
  std::vector<glm::vec3> out_p(n);
  std::vector<uint32_t> out_n(n);
  WorkerPool& workers = bench_pool(threads);
  time_skinning(state, n, out_p, out_n, [&] {
    return threads == 1 ? skin_compact(method, pal, in, out_p, out_n)
                        : skin_compact_parallel(workers, method, pal, in, out_p, out_n);
  });
  // CoR also reads its centres (f32 x3, as on the float streams).
  const std::size_t bytes = c.bytes_per_vertex(true) + (method == SkinMethod::Cor ? 12 : 0);
  state.SetLabel(std::string(skin_method_label(method)) + " compact " + std::to_string(bytes) +
                 " B/vertex " + skin_isa_name(skin_best_isa()));
}
BENCHMARK(skin_compact)
    ->ArgNames({"method", "vertices", "threads"})
    ->ArgsProduct({{0, 1, 2}, {1000000}, {1, 2}})
    ->Unit(benchmark::kMicrosecond);

struct SecondSet {
  std::vector<glm::u16vec4> joints2;
  std::vector<glm::vec4> weights2;
};

const SecondSet& second_set(const SkinData& skin) {
  static std::map<std::size_t, std::unique_ptr<SecondSet>> cache;
  auto& s = cache[skin.positions.size()];
  if (s) return *s;
  s = std::make_unique<SecondSet>();
  for (const glm::u16vec4& j : skin.joints) {
    glm::u16vec4 j2;
    for (int i = 0; i < 4; ++i) j2[i] = static_cast<uint16_t>((j.x + 12 + 3 * i) % kBones);
    s->joints2.push_back(j2);
    s->weights2.emplace_back(0.12f, 0.08f, 0.06f, 0.04f);  // 0.3 of the top 8
  }
  return *s;
}

void skin_method8(benchmark::State& state) {
  const auto method = static_cast<SkinMethod>(state.range(0));
  const auto n = static_cast<std::size_t>(state.range(1));
  const auto threads = static_cast<unsigned>(state.range(2));
  const MethodData& d = method_data(n, true);
  const SecondSet& s = second_set(d.skin);
  SkinInput in{d.skin.positions, d.skin.normals, d.skin.joints, d.skin.weights, kBones - 1};
  in.centers = d.centers;
  in.joints2 = s.joints2;
  in.weights2 = s.weights2;
  const SkinPalettes pal{d.palette, d.normal_palette, d.method};
  time_method(state, method, threads, pal, in);
  state.SetLabel(std::string(skin_method_label(method)) + " 8 influences");
}
BENCHMARK(skin_method8)
    ->ArgNames({"method", "vertices", "threads"})
    ->ArgsProduct({{0, 1, 2}, {1000000}, {1, 2}})
    ->Unit(benchmark::kMicrosecond);

void method_palette(benchmark::State& state) {
  const MethodData& d = method_data(1000, false);
  std::vector<MethodBone> out(d.palette.size());
  for (auto _ : state) {
    build_method_palette(d.palette, out);
    benchmark::DoNotOptimize(out.data());
  }
  state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(d.palette.size()));
}
BENCHMARK(method_palette)->Arg(kBones);

void cor_on(benchmark::State& state, const Mesh& mesh) {
  CenterInput in;
  in.positions = mesh.positions;
  in.indices = mesh.indices;
  in.joints = mesh.joints;
  in.weights = mesh.weights;
  std::vector<glm::vec3> out(mesh.vertex_count());
  for (auto _ : state) {
    if (!compute_rotation_centers(in, out, nullptr, 2)) state.SkipWithError("refused");
    benchmark::DoNotOptimize(out.data());
  }
  state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(mesh.vertex_count()));
}

void cor_precompute_tube(benchmark::State& state) {
  const Mesh mesh = make_tube_mesh(static_cast<std::size_t>(state.range(0)), 24);
  cor_on(state, mesh);
}
BENCHMARK(cor_precompute_tube)
    ->Name("cor_precompute/tube")
    ->Arg(10000)
    ->Arg(100000)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

#ifdef SKINVIEW_BENCH_IO
void cor_precompute_default(benchmark::State& state) {
  ImportResult r = import_model(std::string(SKINVIEW_SOURCE_DIR) + "/assets/default.glb");
  if (!r.ok() || r.model->meshes.empty()) {
    state.SkipWithError("cannot import assets/default.glb");
    return;
  }
  cor_on(state, r.model->meshes[0]);
}
BENCHMARK(cor_precompute_default)
    ->Name("cor_precompute/default")
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
#endif

}  // namespace
}  // namespace sv::bench
