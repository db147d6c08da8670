// A joint's local transform as translation, rotation, scale (TRS), the form clips are keyed in.
// The matrix is T * R * S in glm's column-vector convention: scale first, then rotate, then
// translate. Shear cannot be expressed; importers decompose node matrices into TRS once at load.
#pragma once

#include <glm/gtc/quaternion.hpp>
#include <glm/mat4x4.hpp>
#include <glm/vec3.hpp>

namespace sv {

struct Transform {
  glm::vec3 translation{0.0f};
  glm::quat rotation{1.0f, 0.0f, 0.0f, 0.0f};  // w, x, y, z; unit length
  glm::vec3 scale{1.0f};
};

// T * R * S.
glm::mat4 to_matrix(const Transform& t) noexcept;

}  // namespace sv
