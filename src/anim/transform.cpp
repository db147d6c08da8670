#include "anim/transform.h"

#include <glm/gtc/quaternion.hpp>

namespace sv {

glm::mat4 to_matrix(const Transform& t) noexcept {
  // Columns of R scaled by S, then T in the last column: the product T*R*S without
  // multiplying three 4x4 matrices.
  const glm::mat3 r = glm::mat3_cast(t.rotation);
  return glm::mat4(glm::vec4(r[0] * t.scale.x, 0.0f), glm::vec4(r[1] * t.scale.y, 0.0f),
                   glm::vec4(r[2] * t.scale.z, 0.0f), glm::vec4(t.translation, 1.0f));
}

}  // namespace sv
