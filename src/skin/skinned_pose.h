// SkinnedPose: one model's pose (anim/animator.h) and what skinning adds to it each frame, sized
// once at load -- the pose a frame draws.
//
//   pose (Animator):  sample / blend -> local->model -> palette K, morph weights
//   then here:        build_normal_palette -> [DQS, CoR] build_method_palette   (every frame)
//                     -> [CPU path] apply_morphs, skin (the chosen method, skinning.h) per mesh
//
// Compact streams (compact_streams.h, set_compact: the document's, built once at load) serve
// both paths where they apply (compact(): every method, 4 influences, no morph weight):
// skin_cpu(.., true) then runs skin_compact into the positions and octahedral normals
// (skinned_oct_normals), and the renderer draws the GPU path from the same streams (gfx/
// gpu_model.h), so both paths read one layout. Elsewhere the float streams serve, as before.
//
// The GPU path reads the pose's palette, the normal and method palettes and the morph weights;
// the CPU path (and every view that needs the vertices on the CPU: the difference views, --dump,
// the bounds and volume figures) calls skin_cpu() and reads skinned_positions/normals. The
// animation runtime knows nothing of this file: skinning reads its output, never the reverse.
// The CPU path's vertex arrays (skinned, and morphed where a mesh has targets) are made by the
// first skin_cpu(), not at construction: a pose drawn on the GPU path never touches them (on a
// 1M-vertex mesh, 24 MB of fresh pages a first open spent for nothing); a mesh's float normals
// wait for its first skinning from the float streams (a mesh skinned compact writes codes).
// Nothing allocates after those first calls.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include <glm/mat3x3.hpp>
#include <glm/vec3.hpp>

#include "anim/animator.h"
#include "skin/compact_streams.h"
#include "skin/skin_method.h"

namespace sv {

struct Model;
class WorkerPool;

// How the meshes are skinned. The method palette (skin_method.h) is built per frame, once per
// bone, whenever the method is not LBS (the GPU path reads it too). CoR needs each vertex's
// centre of rotation (rotation_centers.h), one vector per mesh, owned by the caller (the
// frame pipeline's document, the dump) and kept alive while set; without them CoR cannot skin
// and skin_cpu() fails.
//
// influences: 4 skins every vertex with its 4 largest weights renormalised (the design's
// default); 8 with its 8 largest, on meshes that keep a second set (Mesh::joints2; others have
// 4 or fewer anyway). CoR's centres must then be those computed with 8 (rotation_centers.h).
struct SkinChoice {
  SkinMethod method = SkinMethod::Lbs;
  std::span<const std::vector<glm::vec3>> centers;  // per mesh; CoR only
  int influences = 4;                               // 4 or 8
};

// Wall-clock seconds of the last frame's stages, for the Performance section.
struct StageTimes {
  double pose = 0.0;     // sample + local->model + palette (Animator, one pass)
  double normals = 0.0;  // the normal palette (and the method palette for DQS and CoR)
  double cpu_skin = 0.0;
};

class SkinnedPose {
 public:
  using Clock = Animator::Clock;

  SkinnedPose() = default;
  // Sizes the palettes for `model`; the vertex arrays wait for the first skin_cpu().
  explicit SkinnedPose(const Model& model);

  // The pose; evaluate it through the calls below so the palettes follow.
  Animator pose;

  // Poses (Animator::evaluate) and builds the skinning palettes for it. False when a stage
  // rejects its inputs.
  bool evaluate(const Model& model, PoseMode mode, double time) noexcept;
  bool evaluate(const Model& model, std::span<const Layer> layers) noexcept;
  // Builds the normal palette (and the method palette when the method is not LBS) from the pose's
  // palette: after the pose was evaluated directly. False when the sizes do not fit.
  bool update_palettes() noexcept;

  // Chooses the skinning method (takes effect at the next evaluate()). Nothing allocates.
  void set_skin(const SkinChoice& choice) noexcept { skin_ = choice; }
  const SkinChoice& skin() const noexcept { return skin_; }

  // Per mesh its compact streams (load_compact: the meshes' own), owned by the caller and
  // kept alive while set; empty turns them off. Sizes the octahedral normal outputs (allocates:
  // call at load).
  void set_compact(const Model& model, std::span<const CompactStreams> streams);
  // Whether mesh `mesh` is skinned from its compact streams this frame, on both paths: streams
  // set for it, 4 influences (or the mesh keeps no second set), no morph target weighing; any
  // method (skin_compact: LBS, DQS, CoR). 8 influences and morphs take the float streams.
  bool compact(std::size_t mesh) const noexcept;

  // Skins every mesh on the CPU from the current palettes into skinned_positions/normals with
  // the chosen method (morphs first, where the pose's morph weights are not zero), split over
  // `pool`'s threads when one is given. With `use_compact`, a mesh for which compact() holds is
  // skinned by skin_compact instead: its normals go to skinned_oct_normals (skinned_normals is
  // then stale for it, or empty before its first float skinning; skinned_compact says which).
  // False when a mesh cannot be skinned (CoR without its centres, or memory for the vertex arrays
  // the first call makes).
  bool skin_cpu(const Model& model, WorkerPool* pool = nullptr, bool use_compact = false) noexcept;

  std::span<const glm::mat3> normal_palette() const noexcept { return normal_palette_; }
  // The palette split for DQS and CoR (the palette's layout); stale while the method is LBS.
  std::span<const MethodBone> method_palette() const noexcept { return method_palette_; }
  // The last skin_cpu()'s vertices of mesh `mesh`, model space (empty before the first one).
  std::span<const glm::vec3> skinned_positions(std::size_t mesh) const noexcept {
    return skinned_positions_[mesh];
  }
  std::span<const glm::vec3> skinned_normals(std::size_t mesh) const noexcept {
    return skinned_normals_[mesh];
  }
  // The last skin_cpu()'s octahedral normals of a mesh it skinned compact (empty when none).
  std::span<const uint32_t> skinned_oct_normals(std::size_t mesh) const noexcept {
    return mesh < skinned_oct_normals_.size()
               ? std::span<const uint32_t>(skinned_oct_normals_[mesh])
               : std::span<const uint32_t>();
  }
  // Whether the last skin_cpu() skinned `mesh` from its compact streams.
  bool skinned_compact(std::size_t mesh) const noexcept {
    return mesh < skinned_compact_.size() && skinned_compact_[mesh] != 0;
  }
  // The last evaluate()'s and skin_cpu()'s stage times (cpu_skin: the last skin_cpu()).
  const StageTimes& times() const noexcept { return times_; }

 private:
  SkinChoice skin_;
  std::vector<glm::mat3> normal_palette_;
  std::vector<MethodBone> method_palette_;
  std::vector<std::vector<glm::vec3>> skinned_positions_;
  std::vector<std::vector<glm::vec3>> skinned_normals_;
  std::span<const CompactStreams> compact_;
  // Per mesh: 1 when its compact streams fit it (set_compact), 2 added when it keeps 8 influences.
  std::vector<uint8_t> compact_mesh_;
  std::vector<std::vector<uint32_t>> skinned_oct_normals_;  // per mesh with compact streams
  std::vector<uint8_t> skinned_compact_;                    // per mesh: last skin_cpu's choice
  // Per mesh with targets: the morphed bind-space streams skin_cpu skins.
  std::vector<std::vector<glm::vec3>> morphed_positions_;
  std::vector<std::vector<glm::vec3>> morphed_normals_;
  StageTimes times_;
  bool cpu_arrays_sized_ = false;
  bool size_cpu_arrays(const Model& model) noexcept;  // false without the memory
  // skinned_normals_[mesh] sized to `count` (made at the mesh's first float skinning, kept after);
  // empty without the memory.
  std::span<glm::vec3> float_normals(std::size_t mesh, std::size_t count) noexcept;
};

}  // namespace sv
