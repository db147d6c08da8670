// Constants several anim test files share, defined once so that the files can be compiled
// together in one unity batch (tests/CMakeLists.txt, SKINVIEW_TEST_UNITY). A file names the ones
// it uses with a using-declaration in its own anonymous namespace.
#pragma once

#include <limits>

#include <glm/vec3.hpp>

namespace sv::test {

inline const glm::vec3 kZ{0.0f, 0.0f, 1.0f};
inline constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
inline constexpr double kNaNd = std::numeric_limits<double>::quiet_NaN();

}  // namespace sv::test
