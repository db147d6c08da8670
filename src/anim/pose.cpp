#include "anim/pose.h"

#include <cmath>

#include "anim/skeleton.h"

namespace sv {

bool local_to_model(std::span<const int32_t> parents, std::span<const Transform> local,
                    std::span<glm::mat4> model) noexcept {
  const std::size_t n = parents.size();
  if (local.size() != n || model.size() != n) return false;
  // Check the hierarchy before writing, so a bad parent leaves `model` untouched.
  for (std::size_t i = 0; i < n; ++i) {
    const int32_t p = parents[i];
    if (p != kNoParent && (p < 0 || static_cast<std::size_t>(p) >= i)) return false;
  }
  for (std::size_t i = 0; i < n; ++i) {
    const int32_t p = parents[i];
    const glm::mat4 m = to_matrix(local[i]);
    model[i] = p == kNoParent ? m : model[static_cast<std::size_t>(p)] * m;
  }
  return true;
}

bool build_palette(std::span<const glm::mat4> model, std::span<const int32_t> skin_joints,
                   std::span<const glm::mat4> inverse_bind, std::span<glm::mat4> palette) noexcept {
  const std::size_t n = skin_joints.size();
  if (inverse_bind.size() != n || palette.size() != n) return false;
  for (const int32_t j : skin_joints)
    if (j < 0 || static_cast<std::size_t>(j) >= model.size()) return false;
  for (std::size_t b = 0; b < n; ++b)
    palette[b] = model[static_cast<std::size_t>(skin_joints[b])] * inverse_bind[b];
  return true;
}

// Both branches give the exact inverse transpose of the upper 3x3 (so blending normals of
// differently scaled joints weighs them consistently). For a rotation times a uniform scale s,
// M = sR and M^-T = R/s = M/s^2: no inverse needed. Otherwise M^-T = cofactor(M)/det(M), whose
// columns are cross products of M's columns. A singular M (a joint scaled to zero) has no
// inverse; its upper 3x3 is used as is.
bool build_normal_palette(std::span<const glm::mat4> palette,
                          std::span<glm::mat3> normal) noexcept {
  if (normal.size() != palette.size()) return false;
  constexpr float kTolerance = 1e-4f;  // relative, on squared lengths and dot products
  for (std::size_t b = 0; b < palette.size(); ++b) {
    const glm::mat3 m(palette[b]);
    const float l0 = glm::dot(m[0], m[0]);
    const float l1 = glm::dot(m[1], m[1]);
    const float l2 = glm::dot(m[2], m[2]);
    const float tol = kTolerance * l0;
    const bool similarity = l0 > 0.0f && std::abs(l1 - l0) <= tol && std::abs(l2 - l0) <= tol &&
                            std::abs(glm::dot(m[0], m[1])) <= tol &&
                            std::abs(glm::dot(m[0], m[2])) <= tol &&
                            std::abs(glm::dot(m[1], m[2])) <= tol;
    if (similarity) {
      normal[b] = m * (1.0f / l0);
      continue;
    }
    const glm::mat3 cofactor(glm::cross(m[1], m[2]), glm::cross(m[2], m[0]),
                             glm::cross(m[0], m[1]));
    const float det = glm::dot(m[0], cofactor[0]);
    const float inv_det = 1.0f / det;
    normal[b] = std::isfinite(inv_det) && det != 0.0f ? cofactor * inv_det : m;
  }
  return true;
}

}  // namespace sv
