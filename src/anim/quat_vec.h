// A rotation as the glm::vec4 (x, y, z, w) that key arrays store, and back: glm::quat's
// constructor takes w first, which is easy to get wrong at each call site.
#pragma once

#include <glm/gtc/quaternion.hpp>
#include <glm/vec4.hpp>

namespace sv {

inline glm::vec4 quat_vec(const glm::quat& q) noexcept { return glm::vec4(q.x, q.y, q.z, q.w); }
inline glm::quat vec_quat(const glm::vec4& v) noexcept { return glm::quat(v.w, v.x, v.y, v.z); }

}  // namespace sv
