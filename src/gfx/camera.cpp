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

const char* view_axis_name(ViewAxis axis) noexcept {
  switch (axis) {
    case ViewAxis::Front:
      return "Front";
    case ViewAxis::Back:
      return "Back";
    case ViewAxis::Right:
      return "Right";
    case ViewAxis::Left:
      return "Left";
    case ViewAxis::Top:
      return "Top";
    case ViewAxis::Bottom:
      return "Bottom";
  }
  return "?";
}

bool parse_view_axis(const std::string& text, ViewAxis* axis) noexcept {
  static constexpr const char* kNames[] = {"front", "back", "right", "left", "top", "bottom"};
  for (int i = 0; i < 6; ++i) {
    if (text == kNames[i]) {
      *axis = static_cast<ViewAxis>(i);
      return true;
    }
  }
  return false;
}

namespace {

// The distance from which all 8 corners of `world` are inside the view around `camera.target`,
// seen from the camera's direction. Perspective: a corner at view-space (x, y, z) relative to
// the target needs d >= z + |x| / tan(half_x) and d >= z + |y| / tan(half_y); orthographic: the
// box's half sizes d tan(half_x), d tan(half_y) must hold |x| and |y| (z does not matter).
float fit_distance(const OrbitCamera& camera, const Bounds& world, float aspect) noexcept {
  const float tan_y = std::tan(0.5f * camera.fov_y);
  const float tan_x = tan_y * std::max(aspect, 0.1f);
  const glm::mat4 v = camera.view();
  const glm::vec3 right(v[0][0], v[1][0], v[2][0]);
  const glm::vec3 up(v[0][1], v[1][1], v[2][1]);
  const glm::vec3 back(v[0][2], v[1][2], v[2][2]);
  float need = 1e-4f;
  for (int i = 0; i < 8; ++i) {
    const glm::vec3 c((i & 1) ? world.max.x : world.min.x, (i & 2) ? world.max.y : world.min.y,
                      (i & 4) ? world.max.z : world.min.z);
    const glm::vec3 r = c - camera.target;
    const float z = camera.ortho ? 0.0f : glm::dot(r, back);
    need = std::max(need, z + std::abs(glm::dot(r, right)) / tan_x);
    need = std::max(need, z + std::abs(glm::dot(r, up)) / tan_y);
  }
  return need * 1.08f;
}

}  // namespace

void OrbitCamera::frame(const Bounds& world, float aspect) noexcept {
  if (!world.valid()) return;
  target = world.center();
  radius = std::max(0.5f * world.diagonal(), 1e-4f);
  distance = fit_distance(*this, world, aspect);
}

void OrbitCamera::frame_part(const Bounds& world, float aspect) noexcept {
  if (!world.valid()) return;
  target = world.center();
  distance = fit_distance(*this, world, aspect);
}

void OrbitCamera::orbit(float dx, float dy) noexcept {
  if (dx == 0.0f && dy == 0.0f) return;
  yaw += dx;
  pitch = std::clamp(pitch + dy, -kMaxPitch, kMaxPitch);
  if (ortho_from_view) {
    ortho = false;
    ortho_from_view = false;
  }
}

void OrbitCamera::pan(float dx_fraction, float dy_fraction) noexcept {
  const glm::mat4 v = view();
  const glm::vec3 right(v[0][0], v[1][0], v[2][0]);
  const glm::vec3 up(v[0][1], v[1][1], v[2][1]);
  const float h = 2.0f * half_height();
  target += (-dx_fraction * right + dy_fraction * up) * h;
}

void OrbitCamera::zoom(float factor) noexcept {
  const float lo = std::min(kMinZoom * radius, distance);
  const float hi = std::max(kMaxZoom * radius, distance);
  distance = std::clamp(distance * factor, lo, hi);
}

float OrbitCamera::zoom_toward(float factor, const glm::vec2& ndc, float aspect) noexcept {
  // The point under `ndc` at the target's depth is target + d (n.x tan_x right + n.y tan_y up)
  // in both projections; after the distance becomes f d, moving the target by (1 - f) of that
  // offset puts the point back under ndc.
  const glm::mat4 v = view();
  const glm::vec3 right(v[0][0], v[1][0], v[2][0]);
  const glm::vec3 up(v[0][1], v[1][1], v[2][1]);
  const float tan_y = std::tan(0.5f * fov_y);
  const float tan_x = tan_y * std::max(aspect, 1e-3f);
  const glm::vec3 offset = distance * (ndc.x * tan_x * right + ndc.y * tan_y * up);
  const float before = distance;
  zoom(factor);
  const float f = distance / before;
  target += (1.0f - f) * offset;
  return f;
}

void OrbitCamera::set_view(ViewAxis axis) noexcept {
  constexpr float kQuarter = 1.57079632679f;
  switch (axis) {
    case ViewAxis::Front:
      yaw = 0.0f, pitch = 0.0f;
      break;
    case ViewAxis::Back:
      yaw = 2.0f * kQuarter, pitch = 0.0f;
      break;
    case ViewAxis::Right:
      yaw = kQuarter, pitch = 0.0f;
      break;
    case ViewAxis::Left:
      yaw = -kQuarter, pitch = 0.0f;
      break;
    case ViewAxis::Top:
      yaw = 0.0f, pitch = kMaxPitch;
      break;
    case ViewAxis::Bottom:
      yaw = 0.0f, pitch = -kMaxPitch;
      break;
  }
  if (!ortho) {
    ortho = true;
    ortho_from_view = true;
  }
}

void OrbitCamera::toggle_ortho() noexcept {
  ortho = !ortho;
  ortho_from_view = false;
}

glm::vec3 OrbitCamera::eye() const noexcept {
  const glm::vec3 dir(std::cos(pitch) * std::sin(yaw), std::sin(pitch),
                      std::cos(pitch) * std::cos(yaw));
  return target + distance * dir;
}

glm::vec3 OrbitCamera::up() const noexcept {
  // d(eye direction)/d(pitch): perpendicular to the view direction, in the vertical plane
  // through it; (0, 1, 0) at pitch 0.
  return glm::vec3(-std::sin(pitch) * std::sin(yaw), std::cos(pitch),
                   -std::sin(pitch) * std::cos(yaw));
}

glm::mat4 OrbitCamera::view() const noexcept { return glm::lookAt(eye(), target, up()); }

float OrbitCamera::half_height() const noexcept { return distance * std::tan(0.5f * fov_y); }

glm::mat4 OrbitCamera::projection(float aspect) const noexcept {
  aspect = std::max(aspect, 1e-3f);
  const float far_plane = distance + 20.0f * radius;
  if (ortho) {
    // Depth costs nothing in a box: the near plane may lie behind the eye, and holds the grid
    // (10 radii out) as the far plane does.
    const float h = half_height();
    return glm::ortho(-h * aspect, h * aspect, -h, h, distance - 20.0f * radius, far_plane);
  }
  // The grid reaches 10 radii out; the near plane stays well in front of the model.
  const float near_plane = std::max(distance - 3.0f * radius, distance * 2e-3f);
  return glm::perspective(fov_y, aspect, near_plane, far_plane);
}

bool same_view(const OrbitCamera& a, const OrbitCamera& b) noexcept {
  return a.target == b.target && a.distance == b.distance && a.yaw == b.yaw && a.pitch == b.pitch &&
         a.fov_y == b.fov_y && a.radius == b.radius && a.ortho == b.ortho &&
         a.ortho_from_view == b.ortho_from_view;
}

namespace {

// Pushes onto a bounded stack; when full the oldest entry (index 0) falls off.
void push_bounded(std::array<OrbitCamera, CameraHistory::kSize>& stack, int& count,
                  const OrbitCamera& view) noexcept {
  if (count == CameraHistory::kSize) {
    std::move(stack.begin() + 1, stack.end(), stack.begin());
    --count;
  }
  stack[static_cast<std::size_t>(count++)] = view;
}

}  // namespace

void CameraHistory::push(const OrbitCamera& before) noexcept {
  redo_count_ = 0;
  if (undo_count_ > 0 && same_view(undo_[static_cast<std::size_t>(undo_count_ - 1)], before))
    return;
  push_bounded(undo_, undo_count_, before);
}

bool CameraHistory::undo(OrbitCamera& camera) noexcept {
  if (undo_count_ == 0) return false;
  push_bounded(redo_, redo_count_, camera);
  camera = undo_[static_cast<std::size_t>(--undo_count_)];
  return true;
}

bool CameraHistory::redo(OrbitCamera& camera) noexcept {
  if (redo_count_ == 0) return false;
  push_bounded(undo_, undo_count_, camera);
  camera = redo_[static_cast<std::size_t>(--redo_count_)];
  return true;
}

}  // namespace sv
