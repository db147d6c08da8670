// Whether every component of a number, vector, quaternion or matrix is finite (no NaN, no
// infinity): the check the importer applies to what it reads and Model::validate() to what it
// accepts. One definition for every layer (anim, io, the tests).
#pragma once

#include <cmath>

#include <glm/gtc/quaternion.hpp>
#include <glm/mat4x4.hpp>
#include <glm/vec4.hpp>

namespace sv {

inline bool finite(float v) noexcept { return std::isfinite(v); }
inline bool finite(double v) noexcept { return std::isfinite(v); }

template <glm::length_t N, class T, glm::qualifier Q>
bool finite(const glm::vec<N, T, Q>& v) noexcept {
  for (glm::length_t i = 0; i < N; ++i)
    if (!std::isfinite(v[i])) return false;
  return true;
}

template <class T, glm::qualifier Q>
bool finite(const glm::qua<T, Q>& q) noexcept {
  return std::isfinite(q.x) && std::isfinite(q.y) && std::isfinite(q.z) && std::isfinite(q.w);
}

template <glm::length_t C, glm::length_t R, class T, glm::qualifier Q>
bool finite(const glm::mat<C, R, T, Q>& m) noexcept {
  for (glm::length_t c = 0; c < C; ++c)
    if (!finite(m[c])) return false;
  return true;
}

}  // namespace sv
