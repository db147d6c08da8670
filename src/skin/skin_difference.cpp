#include "skin/skin_difference.h"

#include <cmath>
#include <limits>

#include "anim/bounds.h"
#include "anim/model.h"
#include "anim/morph.h"
#include "skin/clip_bounds.h"
#include "skin/skinned_pose.h"

namespace sv {

double stored_size(const Model& model) noexcept {
  Bounds b;
  for (const Mesh& mesh : model.meshes)
    for (const glm::vec3& p : mesh.positions) b.add(p);
  return b.valid() ? static_cast<double>(b.diagonal()) : 0.0;
}

double model_size(const Model& model) {
  bool any = false;
  for (const Mesh& mesh : model.meshes) any |= !mesh.positions.empty();
  if (!any) return 0.0;
  const Bounds rest = clip_bounds(model, -1, PoseMode::Rest);
  if (rest.valid() && rest.diagonal() > 0.0f) return static_cast<double>(rest.diagonal());
  return stored_size(model);
}

bool vertex_distances(std::span<const glm::vec3> a, std::span<const glm::vec3> b,
                      std::span<float> out) noexcept {
  if (a.size() != b.size() || a.size() != out.size()) return false;
  constexpr float kInf = std::numeric_limits<float>::infinity();
  for (std::size_t i = 0; i < a.size(); ++i) {
    // In double: a distance of 1e-7 next to coordinates of 1e2 must not round away.
    const double dx = static_cast<double>(a[i].x) - static_cast<double>(b[i].x);
    const double dy = static_cast<double>(a[i].y) - static_cast<double>(b[i].y);
    const double dz = static_cast<double>(a[i].z) - static_cast<double>(b[i].z);
    const double d = std::sqrt(dx * dx + dy * dy + dz * dz);
    out[i] = std::isfinite(d) ? static_cast<float>(d) : kInf;
  }
  return true;
}

void accumulate(DifferenceStats& stats, uint32_t mesh, std::span<const float> distances) noexcept {
  for (std::size_t i = 0; i < distances.size(); ++i) {
    const double d = static_cast<double>(distances[i]);
    if (d > stats.threshold) ++stats.over;
    if (d > stats.max) {
      stats.max = d;
      stats.mesh = mesh;
      stats.vertex = static_cast<uint32_t>(i);
    }
  }
  stats.vertices += distances.size();
}

MethodDifference::MethodDifference(const Model& model) : size_(model_size(model)) {
  std::size_t total = 0, bones = 0;
  offsets_.resize(model.meshes.size());
  for (int side = 0; side < 2; ++side) positions_[side].resize(model.meshes.size());
  morphed_.resize(model.meshes.size());
  for (std::size_t m = 0; m < model.meshes.size(); ++m) {
    const Mesh& mesh = model.meshes[m];
    offsets_[m] = total;
    total += mesh.vertex_count();
    bones += mesh.skin_joints.size();
    for (int side = 0; side < 2; ++side) positions_[side][m].resize(mesh.vertex_count());
    if (!mesh.morph_targets.empty()) morphed_[m].resize(mesh.vertex_count());
  }
  distances_.resize(total);
  method_palette_.resize(bones);
}

bool MethodDifference::skin_mesh(const Model& model, const SkinnedPose& animator, SkinMethod method,
                                 std::span<const std::vector<glm::vec3>> centers, std::size_t m,
                                 std::span<const glm::vec3> bind_positions,
                                 std::span<glm::vec3> out, WorkerPool* pool) noexcept {
  const Mesh& mesh = model.meshes[m];
  const std::size_t n = mesh.skin_joints.size();
  const std::size_t base = animator.pose.palette_base(m);
  if (base + n > animator.pose.palette().size() || base + n > method_palette_.size()) return false;
  SkinInput in;
  in.positions = bind_positions;
  in.joints = mesh.joints;
  in.weights = mesh.weights;
  if (animator.skin().influences == 8 && mesh.has_influences8()) {  // as skin_cpu does
    in.joints2 = mesh.joints2;
    in.weights2 = mesh.weights2;
  }
  in.max_joint = mesh.max_joint;
  if (method == SkinMethod::Cor) {
    if (m >= centers.size()) return false;
    in.centers = centers[m];
  }
  SkinPalettes palettes;
  palettes.palette = animator.pose.palette().subspan(base, n);
  palettes.method = std::span<const MethodBone>(method_palette_).subspan(base, n);
  return pool != nullptr ? skin_parallel(*pool, method, palettes, in, out, {})
                         : skin(method, palettes, in, out, {});
}

bool MethodDifference::run(const Model& model, const SkinnedPose& animator, SkinMethod a,
                           SkinMethod b, std::span<const std::vector<glm::vec3>> centers,
                           WorkerPool* pool) noexcept {
  stats_ = DifferenceStats{};
  stats_.model_size = size_;
  stats_.threshold = kMethodDifferenceThreshold * size_;
  if (model.meshes.size() != offsets_.size()) return false;
  if ((a != SkinMethod::Lbs || b != SkinMethod::Lbs) &&
      !build_method_palette(animator.pose.palette(), method_palette_))
    return false;
  for (std::size_t m = 0; m < model.meshes.size(); ++m) {
    const std::span<glm::vec3> pa = positions_[0][m], pb = positions_[1][m];
    std::span<const glm::vec3> bind = model.meshes[m].positions;
    if (const std::span<const float> w = animator.pose.morph_weights(m);
        !morphed_[m].empty() && any_morph_weight(w)) {
      if (!apply_morphs(bind, {}, model.meshes[m].morph_targets, w, morphed_[m], {})) return false;
      bind = morphed_[m];
    }
    if (!skin_mesh(model, animator, a, centers, m, bind, pa, pool) ||
        !skin_mesh(model, animator, b, centers, m, bind, pb, pool))
      return false;
    const std::span<float> d = std::span<float>(distances_).subspan(offsets_[m], pa.size());
    if (!vertex_distances(pa, pb, d)) return false;
    accumulate(stats_, static_cast<uint32_t>(m), d);
  }
  stats_.valid = true;
  return true;
}

}  // namespace sv
