// Orbit camera: pure maths (glm), no GL.
//
// The camera orbits `target` at `distance`, yaw about world +Y, pitch above the horizon;
// world space is Y-up. Files authored Z-up are turned upright by up_axis_matrix(), applied as
// the model's world transform, so the camera never needs to know the file's convention.
#pragma once

#include <glm/mat4x4.hpp>
#include <glm/vec3.hpp>

#include "anim/bounds.h"

namespace sv {

// Model space -> world space (Y-up): identity for Y-up files, -90 degrees about X for Z-up.
glm::mat4 up_axis_matrix(bool z_up) noexcept;

struct OrbitCamera {
  glm::vec3 target{0.0f};
  float distance = 3.0f;
  float yaw = 0.6f;       // radians about +Y; 0 looks along -Z
  float pitch = 0.25f;    // radians above the horizon
  float fov_y = 0.7854f;  // radians
  float radius = 1.0f;    // of the framed scene: the clip planes follow it and the distance

  // Looks at `world` from the current direction, far enough to see all of it.
  void frame(const Bounds& world, float aspect) noexcept;
  void orbit(float dx_radians, float dy_radians) noexcept;
  // Moves the target in the view plane by a fraction of the view height.
  void pan(float dx_fraction, float dy_fraction) noexcept;
  // Multiplies the distance (factor < 1 zooms in), kept within [kMinZoom, kMaxZoom] x radius:
  // close enough to look at one joint from inside the mesh, not so close that the near plane
  // (distance x 2e-3) cuts through it, and never so far that the model is a dot.
  void zoom(float factor) noexcept;
  static constexpr float kMinZoom = 0.05f;
  static constexpr float kMaxZoom = 50.0f;

  glm::vec3 eye() const noexcept;
  glm::mat4 view() const noexcept;
  glm::mat4 projection(float aspect) const noexcept;
};

}  // namespace sv
