// How an import's time splits, on the assimp-testmodels files:
//   import/<model>            sv::import_model, as skinview imports: start the import worker (a
//                             child process), which reads, repairs and converts the file and
//                             writes the flat binary model, then check and read that model here
//   import_in_process/<model> the worker's own work (read, repair, convert), in this process
//   import_readfile/<model>   assimp's ReadFile alone with the worker's post-processing
//                             (triangulation, smooth normals): the part spent in assimp
//   read_model/<model>        the parent's part: checking and reading the flat binary model
//   first_open/<model>        sv::import_model with an empty model cache: import/ + hashing the
//                             file and storing the model
//   reopen/<model>            sv::import_model when the model cache holds the file: no child
//   encode_compact/tube_1M/<threads>  the compact streams a load builds (skin/compact_streams.h:
//                             encode_compact of every mesh, on a WorkerPool of <threads>), after
//                             the import: what make_scene ran once per open before format 12
//                             (now only for a model without stored streams)
//   reopen_compact/tube_1M/<threads>  reopen/ and then the compact streams make_scene takes
//                             (load_compact: stored in the entry since model format 12)
// tube_1M is a generated 1M-vertex model (big_model.h): import/, first_open/, reopen/,
// encode_compact/ and reopen_compact/ only.
// import - import_in_process is the child's cost: process start, encoding, reading back.
#include <benchmark/benchmark.h>

#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <string>
#include <thread>

#include <assimp/postprocess.h>
#include <assimp/scene.h>
#include <assimp/Importer.hpp>

#include <glm/gtc/matrix_transform.hpp>

#include "anim/pose.h"
#include "big_model.h"
#include "import/worker_import.h"
#include "io/import.h"
#include "io/import_process.h"
#include "io/model_cache.h"
#include "io/model_format.h"
#include "skin/compact_streams.h"
#include "skin/skinning.h"
#include "skin_loop.h"

namespace sv::bench {
namespace {

struct TestModel {
  const char* name;
  const char* path;  // under SKINVIEW_TEST_MODELS
};

constexpr TestModel kModels[] = {
    {"simple_skin", "glTF2/simple_skin/simple_skin.gltf"},
    {"BCN_Epileptic", "X/BCN_Epileptic.X"},
    {"Testwuson", "X/Testwuson.X"},
    {"huesitos", "FBX/huesitos.fbx"},
    {"animation_with_skeleton", "FBX/animation_with_skeleton.fbx"},
};

std::string full_path(const TestModel& m) {
  return std::string(SKINVIEW_TEST_MODELS) + "/" + m.path;
}

// Whether the test model is there; skips the benchmark with the reason when it is not.
bool installed(benchmark::State& state, const std::string& path) {
  if (std::filesystem::exists(path)) return true;
  state.SkipWithError("model not installed (Debian package assimp-testmodels)");
  return false;
}

// CPU seconds (user + system) that this process's ended children have used so far.
double children_cpu_seconds() {
  // Workers that are still exiting after their result count once reaped.
  reap_finished_workers();
  rusage u{};
  ::getrusage(RUSAGE_CHILDREN, &u);
  return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
         1e-6 * static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec);
}

// Besides the wall time (the "Time" column) and this process's CPU time ("CPU": spawning,
// waiting, reading the model back), the counter `worker_cpu_ms` is the CPU the child used per
// import (process start, assimp, conversion, writing the model): on a loaded machine the wall
// time mostly measures waiting for a core, while CPU time does not.
void import_model_bench(benchmark::State& state, const std::string& path) {
  if (!installed(state, path)) return;
  const double before = children_cpu_seconds();
  for (auto _ : state) {
    ImportResult r = import_model(path);
    if (!r.ok()) state.SkipWithError(r.error.c_str());
    benchmark::DoNotOptimize(r);
  }
  state.counters["worker_cpu_ms"] = benchmark::Counter(1e3 * (children_cpu_seconds() - before),
                                                       benchmark::Counter::kAvgIterations);
}

// A folder for the cache benchmarks (entries and the generated model), removed at exit.
struct BenchFolder {
  std::string dir;
  BenchFolder() {
    std::string templ = (std::filesystem::temp_directory_path() / "skinview-bench-XXXXXX").string();
    if (::mkdtemp(templ.data()) != nullptr) dir = templ;
  }
  ~BenchFolder() {
    std::error_code ec;
    if (!dir.empty()) std::filesystem::remove_all(dir, ec);
  }
};
BenchFolder& bench_folder() {
  static BenchFolder f;
  return f;
}

// The 1M-vertex tube (big_model.h), written on first use; "" when it could not be written.
const std::string& big_model_path() {
  static const std::string path = [] {
    const std::string p = bench_folder().dir + "/tube_1M.glb";
    return write_big_model(p).empty() ? p : std::string();
  }();
  return path;
}

// first_open/<model>: import_model with an empty model cache, as a file is opened the first
// time: hash the file, miss, run the worker, store its model (the entry is removed, untimed,
// after each iteration).
void first_open_bench(benchmark::State& state, const std::string& path) {
  if (!installed(state, path)) return;
  ImportOptions o;
  o.cache_dir = bench_folder().dir + "/first-open-cache";
  const double before = children_cpu_seconds();
  for (auto _ : state) {
    ImportResult r = import_model(path, o);
    if (!r.ok() || r.from_cache) state.SkipWithError("not imported by the worker");
    benchmark::DoNotOptimize(r);
    state.PauseTiming();
    std::error_code ec;
    std::filesystem::remove_all(o.cache_dir, ec);
    state.ResumeTiming();
  }
  state.counters["worker_cpu_ms"] = benchmark::Counter(1e3 * (children_cpu_seconds() - before),
                                                       benchmark::Counter::kAvgIterations);
}

// Sleeps until `path`'s modification and status-change times are ModelCache::kSettledSeconds
// old (at most that long).
void wait_until_settled(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return;
  const auto changed = std::max(
      std::chrono::seconds(st.st_mtim.tv_sec) + std::chrono::nanoseconds(st.st_mtim.tv_nsec),
      std::chrono::seconds(st.st_ctim.tv_sec) + std::chrono::nanoseconds(st.st_ctim.tv_nsec));
  const auto settled = changed + std::chrono::seconds(ModelCache::kSettledSeconds + 1);
  const auto now = std::chrono::system_clock::now().time_since_epoch();
  if (settled > now)
    std::this_thread::sleep_for(std::min<std::chrono::nanoseconds>(
        settled - now, std::chrono::seconds(ModelCache::kSettledSeconds + 1)));
}

// reopen/<model>: import_model with the model cache holding the file (stored by one import
// before timing): find the key (by the file's identity: the hash of a settled file is
// remembered), map and check the entry, read_model. No child process.
void reopen_bench(benchmark::State& state, const std::string& path) {
  if (!installed(state, path)) return;
  ImportOptions o;
  o.cache_dir = bench_folder().dir + "/cache";
  const ImportResult first = import_model(path, o);
  if (!first.ok()) {
    state.SkipWithError(first.error.c_str());
    return;
  }
  // As a file a user reopens: not written in the last seconds, so the cache knows it by its
  // identity without hashing it (ModelCache::key_of). The generated model may be fresh.
  wait_until_settled(path);
  for (auto _ : state) {
    ImportResult r = import_model(path, o);
    if (!r.ok() || !r.from_cache) state.SkipWithError("not read from the model cache");
    benchmark::DoNotOptimize(r);
  }
}

void in_process_bench(benchmark::State& state, const TestModel* m) {
  const std::string path = full_path(*m);
  if (!installed(state, path)) return;
  for (auto _ : state) {
    ImportResult r = import_file_here(path);
    if (!r.ok()) state.SkipWithError(r.error.c_str());
    benchmark::DoNotOptimize(r);
  }
}

void read_model_bench(benchmark::State& state, const TestModel* m) {
  const std::string path = full_path(*m);
  if (!installed(state, path)) return;
  const ImportResult imported = import_file_here(path);
  if (!imported.ok()) {
    state.SkipWithError(imported.error.c_str());
    return;
  }
  const std::vector<uint8_t> bytes =
      write_model(*imported.model, imported.report, imported.provenance);
  for (auto _ : state) {
    ImportResult r = read_model(bytes, path);
    if (!r.ok()) state.SkipWithError(r.error.c_str());
    benchmark::DoNotOptimize(r);
  }
  state.SetBytesProcessed(state.iterations() * static_cast<int64_t>(bytes.size()));
}

void readfile_bench(benchmark::State& state, const TestModel* m) {
  const std::string path = full_path(*m);
  if (!installed(state, path)) return;
  for (auto _ : state) {
    Assimp::Importer importer;
    const aiScene* scene =
        importer.ReadFile(path, aiProcess_Triangulate | aiProcess_GenSmoothNormals);
    if (scene == nullptr) state.SkipWithError(importer.GetErrorString());
    benchmark::DoNotOptimize(scene);
  }
}

// skin_model/<model>: skin_lbs over every skinned mesh of the imported model (positions +
// normals), laid out as the importer leaves it: the real models' own bone sets (77-350 vertices
// per set) rather than the synthetic cloud's. The palette is any rigid pose (the cost does not
// depend on its values). Items are vertices.
void skin_model_bench(benchmark::State& state, const TestModel* m) {
  const std::string path = full_path(*m);
  if (!installed(state, path)) return;
  ImportResult r = import_model(path);
  if (!r.ok()) {
    state.SkipWithError(r.error.c_str());
    return;
  }
  struct Job {
    const Mesh* mesh;
    std::vector<glm::mat4> palette;
    std::vector<glm::mat3> normal_palette;
    std::vector<glm::vec3> out_p, out_n;
  };
  std::vector<Job> jobs;
  int64_t vertices = 0;
  for (const Mesh& mesh : r.model->meshes) {
    if (!mesh.skinned || mesh.normals.size() != mesh.vertex_count()) continue;
    Job j{&mesh,
          {},
          {},
          std::vector<glm::vec3>(mesh.vertex_count()),
          std::vector<glm::vec3>(mesh.vertex_count())};
    for (std::size_t b = 0; b < mesh.skin_joints.size(); ++b)
      j.palette.push_back(glm::rotate(glm::translate(glm::mat4(1.0f), glm::vec3(0.1f * b, 0, 0)),
                                      0.01f * static_cast<float>(b), glm::vec3(0, 0, 1)));
    j.normal_palette.resize(j.palette.size());
    build_normal_palette(j.palette, j.normal_palette);
    vertices += static_cast<int64_t>(mesh.vertex_count());
    jobs.push_back(std::move(j));
  }
  if (jobs.empty()) {
    state.SkipWithError("no skinned mesh");
    return;
  }
  for (auto _ : state) {
    for (Job& j : jobs) {
      const SkinInput in{j.mesh->positions, j.mesh->normals, j.mesh->joints, j.mesh->weights,
                         j.mesh->max_joint};
      if (!skin_lbs(j.palette, j.normal_palette, in, j.out_p, j.out_n))
        state.SkipWithError("skin_lbs refused the mesh");
      benchmark::DoNotOptimize(j.out_p.data());
      benchmark::DoNotOptimize(j.out_n.data());
    }
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * vertices);
}

// encode_compact/tube_1M/<threads>: encode_compact(model, pool) over the imported tube, as a load
// builds its compact streams. Items are vertices.
void encode_compact_bench(benchmark::State& state) {
  const std::string& path = big_model_path();
  if (!installed(state, path)) return;
  ImportOptions o;
  o.cache_dir = bench_folder().dir + "/cache";
  const ImportResult r = import_model(path, o);
  if (!r.ok()) {
    state.SkipWithError(r.error.c_str());
    return;
  }
  const auto threads = static_cast<unsigned>(state.range(0));
  WorkerPool& pool = bench_pool(threads);
  int64_t vertices = 0;
  for (const Mesh& mesh : r.model->meshes) vertices += static_cast<int64_t>(mesh.vertex_count());
  for (auto _ : state) {
    std::vector<CompactStreams> c = encode_compact(*r.model, threads > 1 ? &pool : nullptr);
    benchmark::DoNotOptimize(c.data());
  }
  state.SetItemsProcessed(state.iterations() * vertices);
}

// reopen_compact/tube_1M/<threads>: reopen/ and then the compact streams the viewer's make_scene
// takes (load_compact: the entry's stored ones since model format 12, encoded on a WorkerPool of
// <threads> only for a model without them): a reopen's cost in the window short of the GL upload.
void reopen_compact_bench(benchmark::State& state) {
  const std::string& path = big_model_path();
  if (!installed(state, path)) return;
  ImportOptions o;
  o.cache_dir = bench_folder().dir + "/cache";
  if (const ImportResult first = import_model(path, o); !first.ok()) {
    state.SkipWithError(first.error.c_str());
    return;
  }
  wait_until_settled(path);
  const auto threads = static_cast<unsigned>(state.range(0));
  WorkerPool& pool = bench_pool(threads);
  for (auto _ : state) {
    ImportResult r = import_model(path, o);
    if (!r.ok() || !r.from_cache) state.SkipWithError("not read from the model cache");
    std::vector<CompactStreams> c = load_compact(*r.model, threads > 1 ? &pool : nullptr);
    benchmark::DoNotOptimize(c.data());
    benchmark::DoNotOptimize(r);
  }
}

// Registered at start-up so every model gets its benchmarks under its short name.
const bool registered = [] {
  for (const TestModel& m : kModels) {
    benchmark::RegisterBenchmark((std::string("import/") + m.name).c_str(),
                                 [&m](benchmark::State& s) { import_model_bench(s, full_path(m)); })
        ->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark((std::string("first_open/") + m.name).c_str(),
                                 [&m](benchmark::State& s) { first_open_bench(s, full_path(m)); })
        ->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark((std::string("reopen/") + m.name).c_str(),
                                 [&m](benchmark::State& s) { reopen_bench(s, full_path(m)); })
        ->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark((std::string("import_in_process/") + m.name).c_str(),
                                 in_process_bench, &m)
        ->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark((std::string("import_readfile/") + m.name).c_str(), readfile_bench,
                                 &m)
        ->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark((std::string("read_model/") + m.name).c_str(), read_model_bench,
                                 &m)
        ->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark((std::string("skin_model/") + m.name).c_str(), skin_model_bench,
                                 &m)
        ->Unit(benchmark::kMicrosecond);
  }
  // The first open and the reopen of a 1M-vertex model (bench/big_model.h).
  benchmark::RegisterBenchmark("import/tube_1M",
                               [](benchmark::State& s) { import_model_bench(s, big_model_path()); })
      ->Unit(benchmark::kMillisecond)
      ->Iterations(3);
  benchmark::RegisterBenchmark("first_open/tube_1M",
                               [](benchmark::State& s) { first_open_bench(s, big_model_path()); })
      ->Unit(benchmark::kMillisecond)
      ->Iterations(3);
  benchmark::RegisterBenchmark("reopen/tube_1M", [](benchmark::State& s) {
    reopen_bench(s, big_model_path());
  })->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("encode_compact/tube_1M", encode_compact_bench)
      ->ArgName("threads")
      ->Arg(1)
      ->Arg(2)
      ->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("reopen_compact/tube_1M", reopen_compact_bench)
      ->ArgName("threads")
      ->Arg(1)
      ->Arg(2)
      ->Unit(benchmark::kMillisecond);
  return true;
}();

}  // namespace
}  // namespace sv::bench
