// The pose fast paths against plain formulas: slerp_shortest's polynomial weights against a
// double-precision slerp over the whole hemisphere, and local_to_model / build_palette
// (SIMD products) against glm's operator*, bit for bit.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include <glm/gtc/quaternion.hpp>

#include "anim/pose.h"
#include "anim/skeleton.h"
#include "anim/slerp.h"

namespace sv {
namespace {

TEST(SlerpFast, MatchesDoublePrecisionSlerpEverywhere) {
  std::mt19937 rng(3u);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  double worst = 0.0;
  for (int i = 0; i < 100000; ++i) {
    const glm::quat a = glm::normalize(glm::quat(u(rng), u(rng), u(rng), u(rng)));
    // Half the pairs close together (keys of a real clip), half anywhere.
    glm::quat b = glm::normalize(glm::quat(u(rng), u(rng), u(rng), u(rng)));
    if (i % 2 == 0) b = glm::normalize(a + 0.2f * b);
    const float t = 0.5f * (u(rng) + 1.0f);
    const glm::quat got = slerp_shortest(a, b, t);
    glm::dquat da(a.w, a.x, a.y, a.z), db(b.w, b.x, b.y, b.z);
    double d = glm::dot(da, db);
    if (d < 0.0) {
      db = -db;
      d = -d;
    }
    glm::dquat want;
    if (d > 0.9995) {
      want = glm::normalize(da * (1.0 - t) + db * double(t));
    } else {
      const double th = std::acos(d);
      want =
          da * (std::sin((1.0 - t) * th) / std::sin(th)) + db * (std::sin(t * th) / std::sin(th));
    }
    for (int k = 0; k < 4; ++k) worst = std::max(worst, std::abs(double(got[k]) - want[k]));
  }
  EXPECT_LT(worst, 1e-6);
}

TEST(PoseFast, ProductsAreBitIdenticalToGlm) {
  std::mt19937 rng(5u);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  const std::size_t n = 37;
  std::vector<int32_t> parents;
  std::vector<Transform> local(n);
  for (std::size_t i = 0; i < n; ++i) {
    parents.push_back(i == 0 ? kNoParent : static_cast<int32_t>(rng() % i));
    local[i].translation = glm::vec3(u(rng), u(rng), u(rng));
    local[i].rotation = glm::normalize(glm::quat(u(rng), u(rng), u(rng), u(rng)));
    local[i].scale = glm::vec3(1.0f + 0.5f * u(rng), 1.0f, 1.0f + 0.5f * u(rng));
  }
  std::vector<glm::mat4> model(n);
  ASSERT_TRUE(local_to_model(parents, local, model));
  for (std::size_t i = 0; i < n; ++i) {
    const glm::mat4 m = to_matrix(local[i]);
    const glm::mat4 want =
        parents[i] == kNoParent ? m : model[static_cast<std::size_t>(parents[i])] * m;
    EXPECT_EQ(model[i], want) << "joint " << i;
  }
  std::vector<int32_t> skin = {3, 0, 36, 7};
  std::vector<glm::mat4> ib(skin.size()), palette(skin.size());
  for (glm::mat4& m : ib)
    for (int c = 0; c < 4; ++c)
      for (int r = 0; r < 4; ++r) m[c][r] = u(rng);  // any matrix, projective rows included
  ASSERT_TRUE(build_palette(model, skin, ib, palette));
  for (std::size_t b = 0; b < skin.size(); ++b)
    EXPECT_EQ(palette[b], model[static_cast<std::size_t>(skin[b])] * ib[b]) << "bone " << b;
}

}  // namespace
}  // namespace sv
