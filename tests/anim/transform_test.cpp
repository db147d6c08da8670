// to_matrix: T * R * S, scale first.
#include "anim/transform.h"

#include <gtest/gtest.h>

#include <glm/gtc/constants.hpp>

#include "anim_test_constants.h"
#include "test_util.h"

namespace sv {
namespace {

using test::kZ;

TEST(Transform, IdentityIsIdentity) {
  EXPECT_MAT_NEAR(to_matrix(Transform{}), glm::mat4(1.0f), 0.0f);
}

TEST(Transform, ScaleThenRotateThenTranslate) {
  Transform t;
  t.translation = {1.0f, 2.0f, 3.0f};
  t.rotation = glm::angleAxis(glm::half_pi<float>(), kZ);
  t.scale = {2.0f, 3.0f, 4.0f};
  // (1,1,1) -S-> (2,3,4) -Rz90: (x,y)->(-y,x)-> (-3,2,4) -T-> (-2,4,7).
  const glm::vec4 p = to_matrix(t) * glm::vec4(1.0f, 1.0f, 1.0f, 1.0f);
  EXPECT_VEC_NEAR(p, glm::vec4(-2.0f, 4.0f, 7.0f, 1.0f), 1e-6f);
  // Column by column: R's columns (0,1,0),(-1,0,0),(0,0,1) times sx, sy, sz; T last.
  const glm::mat4 expected = test::mat4_rows(0, -3, 0, 1,  //
                                             2, 0, 0, 2,   //
                                             0, 0, 4, 3,   //
                                             0, 0, 0, 1);
  EXPECT_MAT_NEAR(to_matrix(t), expected, 1e-6f);
}

}  // namespace
}  // namespace sv
