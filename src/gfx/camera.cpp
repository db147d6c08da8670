#include "gfx/camera.h"

#include <algorithm>
#include <cmath>

#include <glm/geometric.hpp>
#include <glm/gtc/matrix_transform.hpp>

namespace sv {

glm::mat4 up_axis_matrix(bool z_up) noexcept {
  if (!z_up) return glm::mat4(1.0f);
  return glm::rotate(glm::mat4(1.0f), -1.57079632679f, glm::vec3(1.0f, 0.0f, 0.0f));
}

void OrbitCamera::frame(const Bounds& world, float aspect) noexcept {
  if (!world.valid()) return;
  target = world.center();
  radius = std::max(0.5f * world.diagonal(), 1e-4f);
  // The nearest distance from which all 8 corners of the box are inside the frustum, seen from
  // the current direction: a corner at view-space (x, y, z) relative to the target needs
  // d >= z + |x| / tan(half_x) and d >= z + |y| / tan(half_y).
  const float tan_y = std::tan(0.5f * fov_y);
  const float tan_x = tan_y * std::max(aspect, 0.1f);
  distance = 1.0f;
  const glm::mat4 v = view();
  const glm::vec3 right(v[0][0], v[1][0], v[2][0]);
  const glm::vec3 up(v[0][1], v[1][1], v[2][1]);
  const glm::vec3 back(v[0][2], v[1][2], v[2][2]);
  float need = 1e-4f;
  for (int i = 0; i < 8; ++i) {
    const glm::vec3 c((i & 1) ? world.max.x : world.min.x, (i & 2) ? world.max.y : world.min.y,
                      (i & 4) ? world.max.z : world.min.z);
    const glm::vec3 r = c - target;
    const float z = glm::dot(r, back);
    need = std::max(need, z + std::abs(glm::dot(r, right)) / tan_x);
    need = std::max(need, z + std::abs(glm::dot(r, up)) / tan_y);
  }
  distance = need * 1.08f;
}

void OrbitCamera::orbit(float dx, float dy) noexcept {
  yaw += dx;
  pitch = std::clamp(pitch + dy, -1.55f, 1.55f);
}

void OrbitCamera::pan(float dx_fraction, float dy_fraction) noexcept {
  const glm::mat4 v = view();
  const glm::vec3 right(v[0][0], v[1][0], v[2][0]);
  const glm::vec3 up(v[0][1], v[1][1], v[2][1]);
  const float h = 2.0f * distance * std::tan(0.5f * fov_y);
  target += (-dx_fraction * right + dy_fraction * up) * h;
}

void OrbitCamera::zoom(float factor) noexcept {
  distance = std::clamp(distance * factor, kMinZoom * radius, kMaxZoom * radius);
}

glm::vec3 OrbitCamera::eye() const noexcept {
  const glm::vec3 dir(std::cos(pitch) * std::sin(yaw), std::sin(pitch),
                      std::cos(pitch) * std::cos(yaw));
  return target + distance * dir;
}

glm::mat4 OrbitCamera::view() const noexcept {
  return glm::lookAt(eye(), target, glm::vec3(0.0f, 1.0f, 0.0f));
}

glm::mat4 OrbitCamera::projection(float aspect) const noexcept {
  // The grid reaches 10 radii out; the near plane stays well in front of the model.
  const float near_plane = std::max(distance - 3.0f * radius, distance * 2e-3f);
  const float far_plane = distance + 20.0f * radius;
  return glm::perspective(fov_y, std::max(aspect, 1e-3f), near_plane, far_plane);
}

}  // namespace sv
