// Difference views' numbers: how far apart two skinned versions of the same mesh are, per vertex.
//
// Two comparisons use this (app/difference_view.h draws them as heat maps):
// - CPU vs GPU: the CPU kernels' output (SkinnedPose::skin_cpu) against skin.vert's, read back from
//   the GPU through transform feedback (gfx/skin_readback.h). Equal up to float rounding when
//   both paths are right; any other distance is a bug in one of them.
// - Method vs method (MethodDifference, below): the same pose skinned on the CPU with two methods
//   (LBS and DQS by default), so a rigger sees where the blending method, not the rig, moves the
//   skin: LBS's candy wrapper at a twist, DQS's bulge at a bend.
//
// The per-vertex value is the Euclidean distance |a_i - b_i| in model units (the space skinning
// writes). Figures are also given as a fraction of the model's size (model_size): the diagonal of
// the rest pose's skinned box, in that same space, the size the inspector and --info show. It is
// constant per model, so a figure does not change with the pose, and it is the yardstick the GPU
// tests use (1e-5 of the skinned box's diagonal). The bind-space positions are no yardstick: a
// file may store its mesh at another scale than the one skinning writes (FBX/huesitos.fbx's mesh
// spans 8.3 units, its skinned rest pose 832: against the former, the CPU-vs-GPU view counted
// rounding 100 times too strictly and marked vertices over its tolerance).
//
// Distances are stored concatenated over the meshes (mesh m's vertices from vertex_offset(m)),
// the layout the renderer's per-vertex value buffer takes (gfx/gpu_model.h). Nothing allocates
// after construction. No GL here.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include <glm/vec3.hpp>

#include "skin/skin_method.h"
#include "skin/skinning.h"

namespace sv {

struct Model;
class SkinnedPose;
class WorkerPool;

// The diagonal of the box of every mesh's stored (bind-space) positions, model units; 0 for a
// model without vertices. The rig comparison's yardstick (skin/rig_compare.h: joints' local
// translations, which live at the stored scale).
double stored_size(const Model& model) noexcept;

// The diagonal of the rest pose's skinned box (skin/clip_bounds.h, one exact pose), model units;
// where that box is empty or flat to a point (every joint scaled to 0), the diagonal of the
// meshes' stored positions; 0 for a model without vertices. Skins every vertex once: call it once
// per model, never per frame.
double model_size(const Model& model);

// What a difference view's legend says about the latest comparison.
struct DifferenceStats {
  bool valid = false;       // false: nothing compared yet, or the comparison could not run
  double model_size = 0.0;  // model units (model_size())
  double max = 0.0;         // largest distance, model units; +inf when some distance is not finite
  uint32_t mesh = 0;        // where the largest is: mesh index
  uint32_t vertex = 0;      // and its vertex (the Mesh's order)
  uint64_t vertices = 0;    // compared
  double threshold = 0.0;   // model units (set by the caller before accumulating)
  uint64_t over = 0;        // vertices farther apart than `threshold`, non-finite ones included
  // max / model_size (0 when the model has no size).
  double relative() const noexcept { return model_size > 0.0 ? max / model_size : 0.0; }
};

// Writes |a_i - b_i| into out[i]. False, writing nothing, when the three sizes differ. A
// non-finite coordinate on either side gives +inf (a NaN is a difference, not a match).
bool vertex_distances(std::span<const glm::vec3> a, std::span<const glm::vec3> b,
                      std::span<float> out) noexcept;

// Folds one mesh's distances into `stats` (max, where, vertices, over).
void accumulate(DifferenceStats& stats, uint32_t mesh, std::span<const float> distances) noexcept;

// MethodDifference counts the vertices the two methods move apart by more than this fraction of
// the model's size (0.1%: about 2 mm on a 1.8 m character, what a rigger sees on screen).
inline constexpr double kMethodDifferenceThreshold = 1e-3;

// The method-vs-method comparison: per frame, from a SkinnedPose's current palette, skins every
// mesh's positions with methods `a` and `b` on the CPU (the kernels of skin/skinning.h, the ones
// the CPU path draws with, split over a WorkerPool when given) and measures the distances. The
// method palette is built here from the palette when either method needs it (once per bone), so
// it does not depend on the method the pose draws with. Buffers are sized by the constructor.
class MethodDifference {
 public:
  MethodDifference() = default;
  explicit MethodDifference(const Model& model);

  // Compares `a` with `b` at `animator`'s current pose (evaluate() has run). CoR needs `centers`
  // (one vector per mesh, its vertex count each; skin/rotation_centers.h). False, with stats()
  // invalid, when a method cannot skin (CoR without fitting centres, sizes that do not fit).
  bool run(const Model& model, const SkinnedPose& animator, SkinMethod a, SkinMethod b,
           std::span<const std::vector<glm::vec3>> centers, WorkerPool* pool = nullptr) noexcept;

  std::span<const float> distances() const noexcept { return distances_; }
  const DifferenceStats& stats() const noexcept { return stats_; }
  // Method a's and b's skinned positions of mesh m from the last run().
  std::span<const glm::vec3> positions(int side, std::size_t mesh) const noexcept {
    return positions_[static_cast<std::size_t>(side)][mesh];
  }

 private:
  bool skin_mesh(const Model& model, const SkinnedPose& animator, SkinMethod method,
                 std::span<const std::vector<glm::vec3>> centers, std::size_t m,
                 std::span<const glm::vec3> bind_positions, std::span<glm::vec3> out,
                 WorkerPool* pool) noexcept;

  double size_ = 0.0;
  std::vector<std::size_t> offsets_;  // per mesh, into distances_
  std::vector<MethodBone> method_palette_;
  std::vector<std::vector<glm::vec3>> positions_[2];
  // Per mesh with morph targets: its bind-space positions with the pose's morph weights applied
  // (both methods skin the morphed mesh, as the drawn paths do); empty for other meshes.
  std::vector<std::vector<glm::vec3>> morphed_;
  std::vector<float> distances_;
  DifferenceStats stats_;
};

}  // namespace sv
