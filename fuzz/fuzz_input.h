// The fuzz input format and the work done on each input, shared by the libFuzzer targets
// (fuzz/import_fuzzer.cpp, fuzz/model_reader_fuzzer.cpp) and the regression test that replays
// kept inputs in the normal suite (tests/io/fuzz_regression_test.cpp).
//
// Input: byte 0 picks the format hint (modulo the table below), the rest is the file. The bytes
// go through import_model_from_memory: the import worker, a child process, reads them with
// assimp's ReadFileFromMemory, converts them as a file on disk, and sends back a flat binary
// model that this process checks (io/model_format.h). A model that loads is checked with
// Model::validate, posed at one frame (sample_clip at mid-clip or the rest pose, local_to_model,
// build_palette) and skinned once on the CPU (skin_lbs). A broken promise of our own code is
// returned as a message; a crash in this process is a crash. A clean one-line import error is a
// normal outcome -- including the worker crashing, hanging or running out of memory, which the
// child process contains.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include <glm/mat3x3.hpp>
#include <glm/mat4x4.hpp>

#include "anim/pose.h"
#include "anim/sample.h"
#include "anim/skinning.h"
#include "io/import.h"

namespace sv::fuzz {

// Format hints, one per assimp importer the seeds cover. Seeds are written with the index of
// their family (fuzz/make_seeds.sh).
inline constexpr const char* kHints[] = {"gltf", "glb", "fbx",     "x",   "dae",
                                         "bvh",  "smd", "md5mesh", "obj", "md5anim"};
inline constexpr std::size_t kHintCount = sizeof kHints / sizeof kHints[0];

// What every fuzz target does with a model that loaded: Model::validate, one sampled frame, one
// CPU skinning pass. "" when our code kept every promise, else what went wrong.
inline std::string exercise_model(const Model& m) {
  if (std::string e = m.validate(); !e.empty()) return "imported model does not validate: " + e;

  const std::size_t joints = m.skeleton.size();
  std::vector<Transform> local(joints);
  if (!m.clips.empty()) {
    const Clip& clip = m.clips[0];
    SamplingCursor cursor;
    cursor.reset(clip);
    if (!sample_clip(clip, m.skeleton, 0.5f * clip.duration, local, &cursor))
      return "sample_clip refused a validated clip";
  } else if (!rest_pose(m.skeleton, local)) {
    return "rest_pose refused the skeleton";
  }
  std::vector<glm::mat4> model_space(joints);
  if (!local_to_model(m.skeleton.parents, local, model_space))
    return "local_to_model refused a validated skeleton";
  for (const Mesh& mesh : m.meshes) {
    std::vector<glm::mat4> palette(mesh.skin_joints.size());
    std::vector<glm::mat3> normal_palette(mesh.skin_joints.size());
    if (!build_palette(model_space, mesh.skin_joints, mesh.inverse_bind, palette))
      return "build_palette refused mesh '" + mesh.name + "'";
    if (!build_normal_palette(palette, normal_palette))
      return "build_normal_palette refused mesh '" + mesh.name + "'";
    SkinInput in;
    in.positions = mesh.positions;
    in.normals = mesh.normals;
    in.joints = mesh.joints;
    in.weights = mesh.weights;
    in.max_joint = mesh.max_joint;
    std::vector<glm::vec3> positions(mesh.vertex_count()), normals(mesh.vertex_count());
    if (!skin_lbs(palette, normal_palette, in, positions, normals))
      return "skin_lbs refused mesh '" + mesh.name + "'";
  }
  return {};
}

// An import's outcome: a model that keeps every promise, or a clean one-line error. "" when so,
// else what went wrong. `import_error` receives the error (empty when the model loaded).
inline std::string check_result(const ImportResult& r, std::string* import_error) {
  if (!r.ok()) {
    if (import_error) *import_error = r.error;
    if (r.error.empty()) return "import failed without a message";
    if (r.error.find('\n') != std::string::npos) return "import error spans several lines";
    return {};
  }
  return exercise_model(*r.model);
}

// The import fuzzer's work on one input (see the top of this file).
inline std::string exercise(const uint8_t* data, std::size_t size, std::string* import_error,
                            const ImportOptions& options = {}) {
  if (import_error) import_error->clear();
  if (size < 1) return {};
  const char* hint = kHints[data[0] % kHintCount];
  const ImportResult r = import_model_from_memory(std::span<const uint8_t>(data + 1, size - 1),
                                                  hint, std::string("fuzz.") + hint, options);
  return check_result(r, import_error);
}

}  // namespace sv::fuzz
