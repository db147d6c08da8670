#include "gfx/screen_pick.h"

#include <glm/geometric.hpp>
#include <glm/matrix.hpp>
#include <glm/vec4.hpp>

namespace sv {

glm::vec2 cursor_ndc(const PixelRect& rect, const glm::vec2& cursor) noexcept {
  const float w = static_cast<float>(rect.width > 0 ? rect.width : 1);
  const float h = static_cast<float>(rect.height > 0 ? rect.height : 1);
  return {2.0f * (cursor.x - static_cast<float>(rect.x)) / w - 1.0f,
          1.0f - 2.0f * (cursor.y - static_cast<float>(rect.y)) / h};
}

Ray cursor_ray(const glm::mat4& view_proj, const PixelRect& rect,
               const glm::vec2& cursor) noexcept {
  const glm::vec2 n = cursor_ndc(rect, cursor);
  const glm::mat4 inv = glm::inverse(view_proj);
  const glm::vec4 a = inv * glm::vec4(n, -1.0f, 1.0f);
  const glm::vec4 b = inv * glm::vec4(n, 1.0f, 1.0f);
  Ray ray;
  ray.origin = glm::vec3(a) / a.w;
  ray.direction = glm::vec3(b) / b.w - ray.origin;
  return ray;
}

glm::mat4 pick_matrix(const PixelRect& rect, const glm::vec2& cursor) noexcept {
  const glm::vec2 n = cursor_ndc(rect, cursor);
  const float sx = static_cast<float>(rect.width > 0 ? rect.width : 1);
  const float sy = static_cast<float>(rect.height > 0 ? rect.height : 1);
  glm::mat4 m(1.0f);
  m[0][0] = sx;
  m[1][1] = sy;
  m[3][0] = -n.x * sx;
  m[3][1] = -n.y * sy;
  return m;
}

bool project_to_screen(const glm::mat4& view_proj, const PixelRect& rect,
                       const glm::vec3& world_point, glm::vec2* pixel, float* depth) noexcept {
  const glm::vec4 c = view_proj * glm::vec4(world_point, 1.0f);
  if (!(c.w > 0.0f)) return false;
  const glm::vec2 ndc = glm::vec2(c) / c.w;
  pixel->x = static_cast<float>(rect.x) + 0.5f * (ndc.x + 1.0f) * static_cast<float>(rect.width);
  pixel->y = static_cast<float>(rect.y) + 0.5f * (1.0f - ndc.y) * static_cast<float>(rect.height);
  *depth = c.w;
  return true;
}

JointOnScreen nearest_joint_on_screen(const glm::mat4& view_proj, const glm::mat4& world,
                                      std::span<const glm::mat4> model_matrices,
                                      const PixelRect& rect, const glm::vec2& cursor,
                                      float radius_px) noexcept {
  JointOnScreen best;
  float best_depth = 0.0f;
  const glm::mat4 to_clip = view_proj * world;
  for (std::size_t j = 0; j < model_matrices.size(); ++j) {
    glm::vec2 p;
    float depth = 0.0f;
    if (!project_to_screen(to_clip, rect, glm::vec3(model_matrices[j][3]), &p, &depth)) continue;
    if (!rect.contains(p.x, p.y)) continue;
    const float d = glm::length(p - cursor);
    if (!(d <= radius_px)) continue;
    if (best.joint < 0 || d < best.distance_px || (d == best.distance_px && depth < best_depth)) {
      best.joint = static_cast<int32_t>(j);
      best.distance_px = d;
      best_depth = depth;
    }
  }
  return best;
}

}  // namespace sv
