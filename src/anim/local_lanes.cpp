// A local pose in lanes (local_lanes.h).
#include "anim/local_lanes.h"

namespace sv {

void LocalLanes::resize(std::size_t n) {
  joints = n;
  lanes.assign(groups() * kPerGroup, glm::vec4(0.0f));
  for (std::size_t g = 0; g < groups(); ++g) {
    lanes[g * kPerGroup + kR + 3] = glm::vec4(1.0f);  // w
    for (std::size_t c = 0; c < 3; ++c) lanes[g * kPerGroup + kS + c] = glm::vec4(1.0f);
  }
}

Transform LocalLanes::get(std::size_t j) const noexcept {
  const glm::vec4* g = lanes.data() + j / 4 * kPerGroup;
  const std::size_t l = j % 4;
  Transform t;
  t.translation = glm::vec3(g[kT][l], g[kT + 1][l], g[kT + 2][l]);
  t.rotation = glm::quat(g[kR + 3][l], g[kR][l], g[kR + 1][l], g[kR + 2][l]);
  t.scale = glm::vec3(g[kS][l], g[kS + 1][l], g[kS + 2][l]);
  return t;
}

void LocalLanes::set(std::size_t j, const Transform& t) noexcept {
  glm::vec4* g = lanes.data() + j / 4 * kPerGroup;
  const std::size_t l = j % 4;
  for (int c = 0; c < 3; ++c) {
    g[kT + c][l] = t.translation[c];
    g[kS + c][l] = t.scale[c];
  }
  g[kR][l] = t.rotation.x;
  g[kR + 1][l] = t.rotation.y;
  g[kR + 2][l] = t.rotation.z;
  g[kR + 3][l] = t.rotation.w;
}

}  // namespace sv
