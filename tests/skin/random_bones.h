// Random skinning palettes for the kernel tests (skinning_simd_test.cpp, compact_streams_test.cpp):
// each bone a rotation, a translation within 5 and a non-uniform scale in [0.5, 2], so the normal
// palette is a true inverse transpose.
#pragma once

#include <random>
#include <vector>

#include <glm/gtc/quaternion.hpp>
#include <glm/mat3x3.hpp>
#include <glm/mat4x4.hpp>

#include "anim/pose.h"

namespace sv::test {

// Appends `bones` entries to `palette` and fills `normal_palette` for it; false when the normal
// palette cannot be built.
inline bool random_bones(std::mt19937& rng, int bones, std::vector<glm::mat4>& palette,
                         std::vector<glm::mat3>& normal_palette) {
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  std::uniform_real_distribution<float> s(0.5f, 2.0f);
  for (int b = 0; b < bones; ++b) {
    Transform t;
    t.translation = 5.0f * glm::vec3(u(rng), u(rng), u(rng));
    t.rotation = glm::normalize(glm::quat(u(rng), u(rng), u(rng), u(rng) + 0.1f));
    t.scale = glm::vec3(s(rng), s(rng), s(rng));
    palette.push_back(to_matrix(t));
  }
  normal_palette.resize(palette.size());
  return build_normal_palette(palette, normal_palette);
}

}  // namespace sv::test
