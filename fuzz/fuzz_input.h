// The fuzz input format and the work done on each input, shared by the libFuzzer targets
// (fuzz/import_fuzzer.cpp, fuzz/model_reader_fuzzer.cpp) and the regression test that replays
// kept inputs in the normal suite (tests/io/fuzz_regression_test.cpp).
//
// Input: byte 0 picks the format hint (modulo the table below), the rest is the file. The bytes
// go through import_model_from_memory: the import worker, a child process, reads them with
// assimp's ReadFileFromMemory, converts them as a file on disk, and sends back a flat binary
// model that this process checks (io/model_format.h). A model that loads is checked with
// Model::validate, posed through the viewer's own path (an Animator: evaluate_pose on the first
// clip at mid-clip and at its end, or on the rest pose, and the normal palette) and skinned once
// on the CPU (skin_lbs); one joint is also sampled alone (sample_joint, what the UI shows). A
// broken promise of our own code is returned as a message; a crash in this process is a crash. A
// clean one-line import error is a normal outcome -- including the worker crashing, hanging or
// running out of memory, which the child process contains.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "io/import.h"
#include "skin/skinned_pose.h"

namespace sv::fuzz {

// Format hints, one per assimp importer the seeds cover. Seeds are written with the index of
// their family (fuzz/make_seeds.sh).
inline constexpr const char* kHints[] = {"gltf", "glb", "fbx",     "x",   "dae",
                                         "bvh",  "smd", "md5mesh", "obj", "md5anim"};
inline constexpr std::size_t kHintCount = sizeof kHints / sizeof kHints[0];

// What every fuzz target does with a model that loaded: Model::validate, the viewer's pose path
// on the first clip (mid-clip and its end) or the rest pose, one joint sampled alone, one CPU
// skinning pass. "" when our code kept every promise, else what went wrong.
inline std::string exercise_model(const Model& m) {
  if (std::string e = m.validate(); !e.empty()) return "imported model does not validate: " + e;

  SkinnedPose animator(m);
  if (!m.clips.empty()) {
    const ClipRuntime& clip = m.clips[0];
    animator.pose.set_clip(m, 0);
    for (const double t : {0.5 * clip.duration(), clip.duration()})
      if (!animator.evaluate(m, PoseMode::Clip, t)) return "evaluate refused a validated clip";
    Transform local;
    if (!sample_joint(clip, 0.5 * clip.duration(), m.skeleton.size() - 1, local))
      return "sample_joint refused the last joint";
  } else if (!animator.evaluate(m, PoseMode::Rest, 0.0)) {
    return "evaluate refused the rest pose";
  }
  if (!animator.skin_cpu(m)) return "skin_cpu refused the model";
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
