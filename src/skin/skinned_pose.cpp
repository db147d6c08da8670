#include "skin/skinned_pose.h"

#include <chrono>
#include <new>

#include "anim/model.h"
#include "anim/morph.h"
#include "anim/pose.h"
#include "anim/stopwatch.h"
#include "anim/worker_pool.h"
#include "skin/skinning.h"

namespace sv {

SkinnedPose::SkinnedPose(const Model& model) : pose(model) {
  const std::size_t bones = pose.palette().size();
  normal_palette_.resize(bones, glm::mat3(1.0f));
  method_palette_.resize(bones);
  // The vertex arrays themselves are made by the first skin_cpu() (size_cpu_arrays).
  const std::size_t meshes = model.meshes.size();
  skinned_positions_.resize(meshes);
  skinned_normals_.resize(meshes);
  morphed_positions_.resize(meshes);
  morphed_normals_.resize(meshes);
}

bool SkinnedPose::size_cpu_arrays(const Model& model) noexcept {
  if (cpu_arrays_sized_) return true;
  try {
    for (std::size_t m = 0; m < model.meshes.size(); ++m) {
      const Mesh& mesh = model.meshes[m];
      const std::size_t normals = mesh.normals.empty() ? 0 : mesh.vertex_count();
      skinned_positions_[m].resize(mesh.vertex_count());
      // skinned_normals_[m] waits for the mesh's first float skinning (float_normals): a mesh
      // skinned compact writes octahedral codes instead (12 MB unused on a 1M-vertex mesh).
      if (mesh.morph_targets.empty()) continue;
      morphed_positions_[m].resize(mesh.vertex_count());
      morphed_normals_[m].resize(normals);
    }
  } catch (const std::bad_alloc&) {
    return false;
  }
  cpu_arrays_sized_ = true;
  return true;
}

std::span<glm::vec3> SkinnedPose::float_normals(std::size_t mesh, std::size_t count) noexcept {
  std::vector<glm::vec3>& out = skinned_normals_[mesh];
  if (out.size() != count) {
    try {
      out.resize(count);
    } catch (const std::bad_alloc&) {
      return {};
    }
  }
  return out;
}

bool SkinnedPose::evaluate(const Model& model, PoseMode mode, double time) noexcept {
  return pose.evaluate(model, mode, time) && update_palettes();
}

bool SkinnedPose::evaluate(const Model& model, std::span<const Layer> layers) noexcept {
  return pose.evaluate(model, layers) && update_palettes();
}

bool SkinnedPose::update_palettes() noexcept {
  times_.pose = pose.pose_seconds();
  const auto t0 = Clock::now();
  const std::span<const glm::mat4> palette = pose.palette();
  if (!build_normal_palette(palette, normal_palette_)) return false;
  if (skin_.method != SkinMethod::Lbs && !build_method_palette(palette, method_palette_))
    return false;
  times_.normals = seconds_since(t0);
  return true;
}

void SkinnedPose::set_compact(const Model& model, std::span<const CompactStreams> streams) {
  compact_ = streams;
  const std::size_t meshes = model.meshes.size();
  compact_mesh_.assign(meshes, 0);
  skinned_compact_.assign(meshes, 0);
  skinned_oct_normals_.assign(meshes, {});
  for (std::size_t m = 0; m < meshes && m < streams.size(); ++m) {
    const Mesh& mesh = model.meshes[m];
    const CompactStreams& c = streams[m];
    if (c.weights.size() != mesh.vertex_count() || c.normals.size() != mesh.normals.size())
      continue;
    compact_mesh_[m] = 1 | (mesh.has_influences8() ? 2 : 0);
    skinned_oct_normals_[m].resize(c.normals.size());
  }
}

bool SkinnedPose::compact(std::size_t mesh) const noexcept {
  if (mesh >= compact_mesh_.size() || (compact_mesh_[mesh] & 1) == 0) return false;
  if (skin_.influences == 8 && (compact_mesh_[mesh] & 2) != 0) return false;
  return !any_morph_weight(pose.morph_weights(mesh));
}

bool SkinnedPose::skin_cpu(const Model& model, WorkerPool* pool, bool use_compact) noexcept {
  const auto t0 = Clock::now();
  if (skinned_positions_.size() != model.meshes.size() || !size_cpu_arrays(model)) return false;
  const std::span<const glm::mat4> palette = pose.palette();
  for (std::size_t m = 0; m < model.meshes.size(); ++m) {
    const Mesh& mesh = model.meshes[m];
    const std::size_t n = mesh.skin_joints.size();
    const std::size_t base = pose.palette_base(m);
    if (base + n > palette.size()) return false;
    const bool compact_now = use_compact && compact(m);
    if (m < skinned_compact_.size()) skinned_compact_[m] = compact_now ? 1 : 0;
    SkinPalettes palettes;
    palettes.palette = palette.subspan(base, n);
    palettes.normal_palette = std::span<const glm::mat3>(normal_palette_).subspan(base, n);
    palettes.method = std::span<const MethodBone>(method_palette_).subspan(base, n);
    std::span<const glm::vec3> centers;
    if (skin_.method == SkinMethod::Cor) {
      if (m >= skin_.centers.size()) return false;
      centers = skin_.centers[m];
    }
    if (compact_now) {
      CompactSkinInput in = compact_[m].input(mesh.positions);
      in.centers = centers;
      const bool ok = pool != nullptr
                          ? skin_compact_parallel(*pool, skin_.method, palettes, in,
                                                  skinned_positions_[m], skinned_oct_normals_[m])
                          : skin_compact(skin_.method, palettes, in, skinned_positions_[m],
                                         skinned_oct_normals_[m]);
      if (!ok) return false;
      continue;
    }
    SkinInput in;
    in.positions = mesh.positions;
    in.normals = mesh.normals;
    if (const std::span<const float> w = pose.morph_weights(m); any_morph_weight(w)) {
      // Morphs first, in bind space; the skinning below reads the morphed streams.
      if (!apply_morphs(mesh.positions, mesh.normals, mesh.morph_targets, w, morphed_positions_[m],
                        morphed_normals_[m]))
        return false;
      in.positions = morphed_positions_[m];
      in.normals = morphed_normals_[m];
    }
    in.joints = mesh.joints;
    in.weights = mesh.weights;
    in.max_joint = mesh.max_joint;
    if (skin_.influences == 8 && mesh.has_influences8()) {
      in.joints2 = mesh.joints2;
      in.weights2 = mesh.weights2;
    }
    in.centers = centers;
    const std::span<glm::vec3> out_n = float_normals(m, in.normals.size());
    if (out_n.size() != in.normals.size()) return false;
    const bool ok =
        pool != nullptr
            ? skin_parallel(*pool, skin_.method, palettes, in, skinned_positions_[m], out_n)
            : sv::skin(skin_.method, palettes, in, skinned_positions_[m], out_n);
    if (!ok) return false;
  }
  times_.cpu_skin = seconds_since(t0);
  return true;
}

}  // namespace sv
