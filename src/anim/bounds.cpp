#include "anim/bounds.h"

#include <glm/geometric.hpp>

namespace sv {

void Bounds::add(const glm::vec3& p) noexcept {
  min = glm::min(min, p);
  max = glm::max(max, p);
}

void Bounds::add(const Bounds& b) noexcept {
  if (!b.valid()) return;
  add(b.min);
  add(b.max);
}

float Bounds::diagonal() const noexcept { return valid() ? glm::length(max - min) : 0.0f; }

Bounds Bounds::transformed(const glm::mat4& m) const noexcept {
  Bounds out;
  if (!valid()) return out;
  for (int i = 0; i < 8; ++i) {
    const glm::vec3 c((i & 1) ? max.x : min.x, (i & 2) ? max.y : min.y, (i & 4) ? max.z : min.z);
    out.add(glm::vec3(m * glm::vec4(c, 1.0f)));
  }
  return out;
}

}  // namespace sv
