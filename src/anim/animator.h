// Animator: a model's per-frame pose buffers and the stages that fill them, sized once at load.
//
//   evaluate_pose (sample + local->model + palette, one pass; clip_runtime.h)
//     -> build_normal_palette -> [CPU path] skin_lbs per mesh
//
// The one pose path: the viewer, --dump (io/dump.cpp), the fuzzers and the benchmarks'
// animator/<joints> all run this. A clip is the model's runtime clip (Model::clips); the rest
// pose is a runtime clip with no keys, built here, so both go through evaluate_pose; the bind
// pose is the inverse of the inverse bind matrices. Local transforms are not kept: local()
// samples the one joint the UI asks for.
//
// The palettes of all meshes are concatenated (mesh m's bones start at palette_base[m]) so the
// GPU path uploads one buffer per frame, and evaluate_pose fills them all in one call. Nothing
// here allocates after construction except set_clip(), which resets the sampling cursor when
// the clip changes. No GL: the renderer and the tests read the buffers.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include <glm/mat3x3.hpp>
#include <glm/mat4x4.hpp>
#include <glm/vec3.hpp>

#include "anim/bounds.h"
#include "anim/clip_runtime.h"
#include "anim/transform.h"

namespace sv {

struct Model;
class WorkerPool;

enum class PoseMode : uint8_t {
  Clip,  // the clip at a time
  Rest,  // every joint at its rest (node) transform
  Bind,  // every joint where the inverse bind matrices put it: the mesh exactly as stored
};

// Wall-clock seconds of the last evaluate()/skin_cpu() per stage, for the Skinning panel.
// Sampling, local->model and the palette are one pass (evaluate_pose), timed as one.
struct StageTimes {
  double pose = 0.0;     // sample + local->model + palette
  double normals = 0.0;  // the normal palette
  double cpu_skin = 0.0;
};

class Animator {
 public:
  Animator() = default;
  explicit Animator(const Model& model);  // sizes every buffer for `model`

  // Resets the sampling cursor when `clip` differs from the current one (allocates).
  void set_clip(const Model& model, int32_t clip);

  // Fills the model matrices and the palettes at `time` (seconds; the caller wraps or clamps
  // it). Returns false (with buffers unspecified) when a stage rejects its inputs, which means
  // the model and the animator do not belong together.
  bool evaluate(const Model& model, PoseMode mode, double time) noexcept;

  // The local transform of `joint` in the last evaluate()'s pose (its mode and time): sampled
  // on demand for this one joint (sample_joint), the rest transform outside clips. Identity
  // when `joint` is out of range.
  Transform local(const Model& model, std::size_t joint) const noexcept;

  // Skins every mesh on the CPU from the current palettes into skinned_positions/normals,
  // split over `pool`'s threads when one is given (the viewer keeps one for its lifetime).
  bool skin_cpu(const Model& model, WorkerPool* pool = nullptr) noexcept;

  int32_t clip() const noexcept { return clip_; }
  const StageTimes& times() const noexcept { return times_; }

  std::span<const glm::mat4> model_matrices() const noexcept { return model_; }
  std::span<const glm::mat4> palette() const noexcept { return palette_; }
  std::span<const glm::mat3> normal_palette() const noexcept { return normal_palette_; }
  uint32_t palette_base(std::size_t mesh) const noexcept { return palette_base_[mesh]; }
  std::span<const glm::vec3> skinned_positions(std::size_t mesh) const noexcept {
    return skinned_positions_[mesh];
  }
  std::span<const glm::vec3> skinned_normals(std::size_t mesh) const noexcept {
    return skinned_normals_[mesh];
  }

 private:
  int32_t clip_ = -2;  // -2: never set
  RuntimeCursor cursor_;
  ClipRuntime rest_;  // the rest pose as a clip with no keys
  RuntimeCursor rest_cursor_;
  PoseMode mode_ = PoseMode::Rest;  // of the last evaluate()
  double time_ = 0.0;               // of the last evaluate()
  bool fits_ = true;  // false: some mesh has more skin joints than inverse binds or fewer
  std::vector<int32_t> skin_joints_;     // every mesh's skin joints, concatenated
  std::vector<glm::mat4> inverse_bind_;  // every mesh's inverse binds, concatenated
  std::vector<glm::mat4> model_;
  std::vector<glm::mat4> bind_model_;  // inverse of the skeleton's inverse bind matrices
  std::vector<glm::mat4> palette_;
  std::vector<glm::mat3> normal_palette_;
  std::vector<uint32_t> palette_base_;
  std::vector<std::vector<glm::vec3>> skinned_positions_;
  std::vector<std::vector<glm::vec3>> skinned_normals_;
  StageTimes times_;
};

}  // namespace sv
