// local_to_model, build_palette and build_normal_palette on a three-joint chain built in code.
#include "anim/pose.h"

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <vector>

#include <glm/gtc/constants.hpp>
#include <glm/gtc/matrix_transform.hpp>

#include "anim/skeleton.h"
#include "anim_test_constants.h"
#include "test_util.h"

namespace sv {
namespace {

using test::kZ;
const std::array<int32_t, 3> kChain = {kNoParent, 0, 1};

using test::trs;

TEST(LocalToModel, RestChainWithScaledRoot) {
  // Root at (0,1,0) scaled by 2; each child 1 along its parent's X.
  //   M0 = T(0,1,0) S(2)
  //   M1 = M0 T(1,0,0): origin (0,1,0) + 2*(1,0,0) = (2,1,0), scale 2
  //   M2 = M1 T(1,0,0): origin (2,1,0) + 2*(1,0,0) = (4,1,0), scale 2
  const std::array<Transform, 3> local = {trs({0, 1, 0}, glm::quat(1, 0, 0, 0), glm::vec3(2)),
                                          trs({1, 0, 0}), trs({1, 0, 0})};
  std::array<glm::mat4, 3> model;
  ASSERT_TRUE(local_to_model(kChain, local, model));
  EXPECT_MAT_NEAR(model[0], test::mat4_rows(2, 0, 0, 0, 0, 2, 0, 1, 0, 0, 2, 0, 0, 0, 0, 1), 1e-6f);
  EXPECT_MAT_NEAR(model[1], test::mat4_rows(2, 0, 0, 2, 0, 2, 0, 1, 0, 0, 2, 0, 0, 0, 0, 1), 1e-6f);
  EXPECT_MAT_NEAR(model[2], test::mat4_rows(2, 0, 0, 4, 0, 2, 0, 1, 0, 0, 2, 0, 0, 0, 0, 1), 1e-6f);

  // Inverse binds = inverses of the rest model matrices: the rest palette is the identity.
  // (Inverse of scale 2 at origin o: scale 1/2 and translation -o/2.)
  const std::array<glm::mat4, 3> inverse_bind = {
      test::mat4_rows(0.5f, 0, 0, 0, 0, 0.5f, 0, -0.5f, 0, 0, 0.5f, 0, 0, 0, 0, 1),
      test::mat4_rows(0.5f, 0, 0, -1, 0, 0.5f, 0, -0.5f, 0, 0, 0.5f, 0, 0, 0, 0, 1),
      test::mat4_rows(0.5f, 0, 0, -2, 0, 0.5f, 0, -0.5f, 0, 0, 0.5f, 0, 0, 0, 0, 1)};
  const std::array<int32_t, 3> skin_joints = {0, 1, 2};
  std::array<glm::mat4, 3> palette;
  ASSERT_TRUE(build_palette(model, skin_joints, inverse_bind, palette));
  for (const glm::mat4& k : palette) EXPECT_MAT_NEAR(k, glm::mat4(1.0f), 1e-6f);
}

// Rest: joints at x = 0, 1, 2, unrotated, so inverse binds are T(0), T(-1,0,0), T(-2,0,0).
// Pose: root at (0,1,0) turned 90 deg about Z, joint 1 turned another 90 deg, joint 2 straight.
//   M0 = T(0,1,0) Rz90
//   M1 = M0 T(1,0,0) Rz90: origin (0,1,0) + Rz90 (1,0,0) = (0,2,0); rotation 180 deg
//   M2 = M1 T(1,0,0):       origin (0,2,0) + Rz180 (1,0,0) = (-1,2,0); rotation 180 deg
//   K0 = M0
//   K1 = M1 T(-1,0,0): translation (0,2,0) + Rz180 (-1,0,0) = (1,2,0)
//   K2 = M2 T(-2,0,0): translation (-1,2,0) + Rz180 (-2,0,0) = (1,2,0)
TEST(LocalToModel, PosedChainAndPalette) {
  const glm::quat r90 = glm::angleAxis(glm::half_pi<float>(), kZ);
  const std::array<Transform, 3> local = {trs({0, 1, 0}, r90), trs({1, 0, 0}, r90), trs({1, 0, 0})};
  std::array<glm::mat4, 3> model;
  ASSERT_TRUE(local_to_model(kChain, local, model));
  EXPECT_MAT_NEAR(model[0], test::mat4_rows(0, -1, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 0, 0, 1),
                  1e-6f);
  EXPECT_MAT_NEAR(model[1], test::mat4_rows(-1, 0, 0, 0, 0, -1, 0, 2, 0, 0, 1, 0, 0, 0, 0, 1),
                  1e-6f);
  EXPECT_MAT_NEAR(model[2], test::mat4_rows(-1, 0, 0, -1, 0, -1, 0, 2, 0, 0, 1, 0, 0, 0, 0, 1),
                  1e-6f);

  const std::array<glm::mat4, 3> inverse_bind = {
      glm::mat4(1.0f), test::mat4_rows(1, 0, 0, -1, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1),
      test::mat4_rows(1, 0, 0, -2, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1)};
  const std::array<int32_t, 3> skin_joints = {0, 1, 2};
  std::array<glm::mat4, 3> palette;
  ASSERT_TRUE(build_palette(model, skin_joints, inverse_bind, palette));
  EXPECT_MAT_NEAR(palette[0], model[0], 1e-6f);
  const glm::mat4 k12 = test::mat4_rows(-1, 0, 0, 1, 0, -1, 0, 2, 0, 0, 1, 0, 0, 0, 0, 1);
  EXPECT_MAT_NEAR(palette[1], k12, 1e-6f);
  EXPECT_MAT_NEAR(palette[2], k12, 1e-6f);
  // The chain's tip at bind (2,0,0) lands on joint 2's posed origin (-1,2,0).
  EXPECT_VEC_NEAR(glm::vec3(palette[2] * glm::vec4(2, 0, 0, 1)), glm::vec3(-1, 2, 0), 1e-6f);

  // A skin may bind a subset of joints, in any order: skin bone 0 -> joint 2, bone 1 -> joint 0.
  const std::array<int32_t, 2> subset = {2, 0};
  const std::array<glm::mat4, 2> subset_ib = {inverse_bind[2], inverse_bind[0]};
  std::array<glm::mat4, 2> subset_palette;
  ASSERT_TRUE(build_palette(model, subset, subset_ib, subset_palette));
  EXPECT_MAT_NEAR(subset_palette[0], k12, 1e-6f);
  EXPECT_MAT_NEAR(subset_palette[1], model[0], 1e-6f);
}

const glm::mat4 kSentinel(-999.0f);

TEST(LocalToModel, RefusesBadSizesAndParents) {
  const std::array<Transform, 3> local = {trs({0, 1, 0}), trs({1, 0, 0}), trs({1, 0, 0})};
  std::vector<glm::mat4> buf(4, kSentinel);
  const std::span<glm::mat4> all(buf);
  EXPECT_FALSE(local_to_model(kChain, local, all.first(2)));  // model too short
  EXPECT_FALSE(local_to_model(kChain, local, all));           // model too long
  EXPECT_FALSE(local_to_model(kChain, std::span(local).first(2), all.first(3)));
  // Parent equal to itself, after the child, and an invalid negative: nothing written (the
  // first joint is fine, and still must not be written).
  const std::array<int32_t, 3> self = {kNoParent, 1, 1};
  const std::array<int32_t, 3> later = {kNoParent, 2, 0};
  const std::array<int32_t, 3> negative = {kNoParent, 0, -2};
  EXPECT_FALSE(local_to_model(self, local, all.first(3)));
  EXPECT_FALSE(local_to_model(later, local, all.first(3)));
  EXPECT_FALSE(local_to_model(negative, local, all.first(3)));
  for (const glm::mat4& m : buf) EXPECT_EQ(m, kSentinel);
}

TEST(BuildPalette, RefusesBadSizesAndJoints) {
  const std::array<glm::mat4, 3> model = {glm::mat4(1.0f), glm::mat4(1.0f), glm::mat4(1.0f)};
  const std::array<glm::mat4, 2> ib = {glm::mat4(1.0f), glm::mat4(1.0f)};
  std::vector<glm::mat4> buf(3, kSentinel);
  const std::span<glm::mat4> all(buf);
  const std::array<int32_t, 2> ok = {0, 2};
  EXPECT_FALSE(build_palette(model, ok, ib, all.first(1)));                      // palette short
  EXPECT_FALSE(build_palette(model, ok, ib, all));                               // palette long
  EXPECT_FALSE(build_palette(model, ok, std::span(ib).first(1), all.first(2)));  // ib short
  const std::array<int32_t, 2> past = {0, 3};                                    // joint 3 of 3
  const std::array<int32_t, 2> negative = {0, -1};
  EXPECT_FALSE(build_palette(model, past, ib, all.first(2)));
  EXPECT_FALSE(build_palette(model, negative, ib, all.first(2)));
  for (const glm::mat4& m : buf) EXPECT_EQ(m, kSentinel);

  std::vector<glm::mat3> normals(3, glm::mat3(-999.0f));
  EXPECT_FALSE(build_normal_palette(model, std::span(normals).first(2)));
  for (const glm::mat3& m : normals) EXPECT_EQ(m, glm::mat3(-999.0f));
}

TEST(NormalPalette, RotationTimesUniformScaleIsItsInverseTranspose) {
  // K = 3 Rz90 (+ a translation, ignored). Its inverse transpose is Rz90 / 3 = K3x3 / 9.
  const glm::mat4 k = test::mat4_rows(0, -3, 0, 5, 3, 0, 0, 6, 0, 0, 3, 7, 0, 0, 0, 1);
  std::array<glm::mat3, 1> n;
  ASSERT_TRUE(build_normal_palette(std::span(&k, 1), n));
  const float third = 1.0f / 3.0f;
  EXPECT_MAT_NEAR(n[0], test::mat3_rows(0, -third, 0, third, 0, 0, 0, 0, third), 1e-6f);
}

TEST(NormalPalette, NonUniformScaleUsesInverseTranspose) {
  // K = S(2,1,1): inverse transpose S(1/2,1,1), not K's own 3x3.
  const glm::mat4 k = glm::scale(glm::mat4(1.0f), glm::vec3(2, 1, 1));
  std::array<glm::mat3, 1> n;
  ASSERT_TRUE(build_normal_palette(std::span(&k, 1), n));
  EXPECT_MAT_NEAR(n[0], test::mat3_rows(0.5f, 0, 0, 0, 1, 0, 0, 0, 1), 1e-6f);

  // Rotated after the scale, K = Rz90 S(2,1,1): K^-T = Rz90^-T S^-T = Rz90 S(1/2,1,1),
  // rows (0,-1,0), (1/2,0,0), (0,0,1).
  const glm::mat4 k2 = glm::rotate(glm::mat4(1.0f), glm::half_pi<float>(), kZ) *
                       glm::scale(glm::mat4(1.0f), glm::vec3(2, 1, 1));
  ASSERT_TRUE(build_normal_palette(std::span(&k2, 1), n));
  EXPECT_MAT_NEAR(n[0], test::mat3_rows(0, -1, 0, 0.5f, 0, 0, 0, 0, 1), 1e-6f);

  // A mirror (det < 0) keeps its sign: S(-1,1,1)^-T = S(-1,1,1).
  const glm::mat4 k3 = glm::scale(glm::mat4(1.0f), glm::vec3(-1, 1, 1));
  ASSERT_TRUE(build_normal_palette(std::span(&k3, 1), n));
  EXPECT_MAT_NEAR(n[0], test::mat3_rows(-1, 0, 0, 0, 1, 0, 0, 0, 1), 1e-6f);

  // A joint scaled to zero has no inverse: finite output, no NaN.
  const glm::mat4 k4 = glm::scale(glm::mat4(1.0f), glm::vec3(0, 1, 1));
  ASSERT_TRUE(build_normal_palette(std::span(&k4, 1), n));
  for (int c = 0; c < 3; ++c)
    for (int r = 0; r < 3; ++r) EXPECT_TRUE(std::isfinite(n[0][c][r]));
}

}  // namespace
}  // namespace sv
