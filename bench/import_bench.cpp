// import/<model>: sv::import_model on the assimp-testmodels files, beside
// import_readfile/<model>: assimp's ReadFile alone with the same post-processing the importer
// asks for (validation, triangulation, smooth normals): the part of an import spent in assimp.
#include <benchmark/benchmark.h>

#include <filesystem>
#include <string>

#include <assimp/postprocess.h>
#include <assimp/scene.h>
#include <assimp/Importer.hpp>

#include "io/import.h"

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

void import_model_bench(benchmark::State& state, const TestModel* m) {
  const std::string path = full_path(*m);
  if (!std::filesystem::exists(path)) {
    state.SkipWithError("model not installed (Debian package assimp-testmodels)");
    return;
  }
  for (auto _ : state) {
    ImportResult r = import_model(path);
    if (!r.ok()) state.SkipWithError(r.error.c_str());
    benchmark::DoNotOptimize(r);
  }
}

void readfile_bench(benchmark::State& state, const TestModel* m) {
  const std::string path = full_path(*m);
  if (!std::filesystem::exists(path)) {
    state.SkipWithError("model not installed (Debian package assimp-testmodels)");
    return;
  }
  for (auto _ : state) {
    Assimp::Importer importer;
    const aiScene* scene = importer.ReadFile(
        path, aiProcess_ValidateDataStructure | aiProcess_Triangulate | aiProcess_GenSmoothNormals);
    if (scene == nullptr) state.SkipWithError(importer.GetErrorString());
    benchmark::DoNotOptimize(scene);
  }
}

// Registered at start-up so every model gets both benchmarks under its short name.
const bool registered = [] {
  for (const TestModel& m : kModels) {
    benchmark::RegisterBenchmark((std::string("import/") + m.name).c_str(), import_model_bench, &m)
        ->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark((std::string("import_readfile/") + m.name).c_str(), readfile_bench,
                                 &m)
        ->Unit(benchmark::kMillisecond);
  }
  return true;
}();

}  // namespace
}  // namespace sv::bench
