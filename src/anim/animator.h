// Animator: a model's per-frame pose buffers and the stages that fill them, sized once at load.
//
//   sample_runtime (or rest / bind pose) -> local_to_model -> build_palette (+ normal palette)
//   per mesh -> [CPU path] skin_lbs per mesh
//
// Clips are sampled through ClipRuntime (anim/clip_runtime.h): each clip is laid out once, at
// construction, for forward playback, so a frame neither re-validates the clip nor chases one
// std::vector per track.
//
// The palettes of all meshes are concatenated (mesh m's bones start at palette_base[m]) so the
// GPU path uploads one buffer per frame. Nothing here allocates after construction except
// set_clip(), which resets the sampling cursor when the clip changes. No GL: the renderer and
// the tests read the buffers.
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
struct StageTimes {
  double sample = 0.0;
  double to_model = 0.0;
  double palette = 0.0;
  double cpu_skin = 0.0;
};

class Animator {
 public:
  Animator() = default;
  explicit Animator(const Model& model);  // sizes every buffer for `model`

  // Resets the sampling cursor when `clip` differs from the current one (allocates).
  void set_clip(const Model& model, int32_t clip);

  // Fills local, model and the palettes. Returns false (with buffers unspecified) when a stage
  // rejects its inputs, which means the model and the animator do not belong together.
  bool evaluate(const Model& model, PoseMode mode, float time) noexcept;

  // Skins every mesh on the CPU from the current palettes into skinned_positions/normals,
  // split over `pool`'s threads when one is given (the viewer keeps one for its lifetime).
  bool skin_cpu(const Model& model, WorkerPool* pool = nullptr) noexcept;

  int32_t clip() const noexcept { return clip_; }
  const StageTimes& times() const noexcept { return times_; }

  std::span<const glm::mat4> model_matrices() const noexcept { return model_; }
  std::span<const glm::mat4> palette() const noexcept { return palette_; }
  std::span<const glm::mat3> normal_palette() const noexcept { return normal_palette_; }
  std::span<const Transform> local() const noexcept { return local_; }
  uint32_t palette_base(std::size_t mesh) const noexcept { return palette_base_[mesh]; }
  std::span<const glm::vec3> skinned_positions(std::size_t mesh) const noexcept {
    return skinned_positions_[mesh];
  }
  std::span<const glm::vec3> skinned_normals(std::size_t mesh) const noexcept {
    return skinned_normals_[mesh];
  }

 private:
  int32_t clip_ = -2;                  // -2: never set
  std::vector<ClipRuntime> runtimes_;  // one per model clip; empty() where build() refused it
  RuntimeCursor cursor_;
  std::vector<Transform> local_;
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
