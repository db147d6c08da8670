// The volume figure of issue 12 (skin/volume.h), what the window's View section pays on the frame
// thread once per clip and method:
//
//   volume/shape/<vertices>         mesh_shapes: the weld and the edge count, once per model
//   volume/clip/<method>/<vertices> clip_volume_figures over make_model's 4-s clip (121 poses at
//                                   30 per second, 100k vertices within kBoundsWork), skinned
//                                   on the viewer's 2 worker threads, every mesh taken as closed
//   volume/default/<method>         the same over the default character's `twist` (needs sv::io)
#include <benchmark/benchmark.h>

#include <string>
#include <vector>

#include "anim/worker_pool.h"
#include "skin/rotation_centers.h"
#include "skin/volume.h"
#include "synthetic.h"
#ifdef SKINVIEW_BENCH_IO
#include "io/import.h"
#endif

namespace sv::bench {
namespace {

void measure(benchmark::State& state, const Model& m, int32_t clip, SkinMethod method) {
  const std::vector<MeshShape> closed(m.meshes.size(), MeshShape::Closed);
  std::vector<std::vector<glm::vec3>> centers;
  SkinChoice skin;
  skin.method = method;
  if (method == SkinMethod::Cor) {
    centers = compute_rotation_centers(m, false);
    skin.centers = centers;
  }
  WorkerPool pool(2);
  for (auto _ : state) {
    const VolumeFigures v = clip_volume_figures(m, clip, skin, closed, {}, nullptr, &pool);
    if (v.status != VolumeStatus::Ok) state.SkipWithError("refused");
    benchmark::DoNotOptimize(v.meshes.data());
    state.counters["poses"] = static_cast<double>(v.poses);
  }
}

void volume_shape(benchmark::State& state) {
  const Model m = make_model(60, static_cast<std::size_t>(state.range(0)));
  for (auto _ : state) benchmark::DoNotOptimize(mesh_shapes(m).data());
}
BENCHMARK(volume_shape)->Name("volume/shape")->Arg(100000)->Unit(benchmark::kMillisecond);

void volume_clip(benchmark::State& state) {
  const Model m = make_model(60, static_cast<std::size_t>(state.range(1)));
  measure(state, m, 0, kSkinMethods[state.range(0)]);
}
BENCHMARK(volume_clip)
    ->Name("volume/clip")
    ->Args({0, 100000})
    ->Args({1, 100000})
    ->Args({2, 100000})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

#ifdef SKINVIEW_BENCH_IO
void volume_default(benchmark::State& state) {
  ImportResult r = import_model(std::string(SKINVIEW_SOURCE_DIR) + "/assets/default.glb");
  if (!r.ok() || r.model->clips.size() < 4) {
    state.SkipWithError("cannot import assets/default.glb");
    return;
  }
  measure(state, *r.model, 3, kSkinMethods[state.range(0)]);  // twist
}
BENCHMARK(volume_default)
    ->Name("volume/default")
    ->Arg(0)
    ->Arg(1)
    ->Arg(2)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
#endif

}  // namespace
}  // namespace sv::bench
