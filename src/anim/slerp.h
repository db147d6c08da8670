// Shortest-arc spherical interpolation of unit quaternions, as glTF's linear rotation keys
// require: the runtime sampler's scalar route (anim/clip_runtime.cpp) and the exact route of its
// SIMD lanes. Its SIMD lanes evaluate the same polynomial (clip_runtime_kernels.inc).
#pragma once

#include <glm/gtc/quaternion.hpp>

namespace sv {

// Negates b when dot(a, b) < 0 (the shorter arc), falls back to normalised lerp when the
// quaternions are nearly equal (dot > 0.9995), uses Eberly's polynomial weights for keys up to
// ~91 degrees apart and acos/sin beyond.
glm::quat slerp_shortest(const glm::quat& a, const glm::quat& b, float alpha) noexcept;

}  // namespace sv
