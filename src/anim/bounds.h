// Bounds: an axis-aligned box in some space (the caller says which), for framing and picking.
// Pure maths on glm; an empty box (nothing added) is not valid().
#pragma once

#include <glm/mat4x4.hpp>
#include <glm/vec3.hpp>

namespace sv {

struct Bounds {
  glm::vec3 min{1e30f};
  glm::vec3 max{-1e30f};

  bool valid() const noexcept { return min.x <= max.x && min.y <= max.y && min.z <= max.z; }
  void add(const glm::vec3& p) noexcept;
  void add(const Bounds& b) noexcept;
  glm::vec3 center() const noexcept { return 0.5f * (min + max); }
  float diagonal() const noexcept;
  // The bounds of the 8 corners after `m`.
  Bounds transformed(const glm::mat4& m) const noexcept;
};

}  // namespace sv
