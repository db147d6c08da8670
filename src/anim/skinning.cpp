#include "anim/skinning.h"

#include <algorithm>
#include <cmath>

namespace sv {

// Normals need the normal palette only when there are normals to skin; a positions-only call
// may pass an empty normal palette.
bool skin_lbs(std::span<const glm::mat4> palette, std::span<const glm::mat3> normal_palette,
              const SkinInput& in, std::span<glm::vec3> out_positions,
              std::span<glm::vec3> out_normals) noexcept {
  const std::size_t n = in.positions.size();
  const bool with_normals = !in.normals.empty();
  if (in.joints.size() != n || in.weights.size() != n || out_positions.size() != n) return false;
  if (with_normals && (in.normals.size() != n || out_normals.size() != n ||
                       normal_palette.size() != palette.size()))
    return false;
  if (n == 0) return true;

  int32_t max_joint = in.max_joint;
  if (max_joint < 0) {
    uint16_t m = 0;
    for (const glm::u16vec4& j : in.joints) m = std::max({m, j.x, j.y, j.z, j.w});
    max_joint = m;
  }
  if (static_cast<std::size_t>(max_joint) >= palette.size()) return false;

  const glm::mat4* const k = palette.data();
  const glm::mat3* const nk = normal_palette.data();
  for (std::size_t v = 0; v < n; ++v) {
    const glm::u16vec4 j = in.joints[v];
    const glm::vec4 w = in.weights[v];
    // Blend the affine part (3 columns + translation; the bottom row is always 0,0,0,1).
    const glm::vec4 c0 = k[j.x][0] * w.x + k[j.y][0] * w.y + k[j.z][0] * w.z + k[j.w][0] * w.w;
    const glm::vec4 c1 = k[j.x][1] * w.x + k[j.y][1] * w.y + k[j.z][1] * w.z + k[j.w][1] * w.w;
    const glm::vec4 c2 = k[j.x][2] * w.x + k[j.y][2] * w.y + k[j.z][2] * w.z + k[j.w][2] * w.w;
    const glm::vec4 c3 = k[j.x][3] * w.x + k[j.y][3] * w.y + k[j.z][3] * w.z + k[j.w][3] * w.w;
    const glm::vec3 p = in.positions[v];
    out_positions[v] = glm::vec3(c0 * p.x + c1 * p.y + c2 * p.z + c3);
    if (!with_normals) continue;
    const glm::mat3 m = nk[j.x] * w.x + nk[j.y] * w.y + nk[j.z] * w.z + nk[j.w] * w.w;
    const glm::vec3 r = m * in.normals[v];
    const float len2 = glm::dot(r, r);
    // A degenerate blend (opposite normals, zero-scaled joints) has no direction: write zero
    // rather than NaN.
    out_normals[v] = len2 > 0.0f ? r * (1.0f / std::sqrt(len2)) : glm::vec3(0.0f);
  }
  return true;
}

}  // namespace sv
