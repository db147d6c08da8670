// CPU linear blend skinning: the elbow of a two-bone arm, normals under non-uniform scale, and
// refusal of inputs that do not fit (outputs untouched, never written past).
#include "skin/skinning.h"

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <vector>

#include <glm/gtc/constants.hpp>
#include <glm/gtc/matrix_transform.hpp>

#include "anim/pose.h"
#include "anim/skeleton.h"
#include "test_util.h"

namespace sv {
namespace {

// Two-bone arm. Bind: upper arm (joint 0) at the origin along +X, length 1; forearm (joint 1)
// at (1,0,0). Inverse binds: identity and T(-1,0,0). Pose: forearm bent 90 deg about Z.
//   K0 = I
//   K1 = T(1,0,0) Rz90 T(-1,0,0): rotates about the elbow (1,0,0).
struct Arm {
  std::array<glm::mat4, 2> palette;
  std::array<glm::mat3, 2> normals;
};

Arm bent_arm() {
  const std::array<int32_t, 2> parents = {kNoParent, 0};
  std::array<Transform, 2> local;
  local[1].translation = {1, 0, 0};
  local[1].rotation = glm::angleAxis(glm::half_pi<float>(), glm::vec3(0, 0, 1));
  std::array<glm::mat4, 2> model;
  EXPECT_TRUE(local_to_model(parents, local, model));
  const std::array<int32_t, 2> skin = {0, 1};
  const std::array<glm::mat4, 2> ib = {glm::mat4(1.0f),
                                       glm::translate(glm::mat4(1.0f), glm::vec3(-1, 0, 0))};
  Arm arm;
  EXPECT_TRUE(build_palette(model, skin, ib, arm.palette));
  EXPECT_TRUE(build_normal_palette(arm.palette, arm.normals));
  return arm;
}

TEST(SkinLbs, ElbowOfTwoBoneArm) {
  const Arm arm = bent_arm();
  // Three vertices weighted 2/3 upper arm, 1/3 forearm (slots z, w unused with weight 0).
  const std::array<glm::vec3, 3> pos = {glm::vec3(1.5f, 0, 0), glm::vec3(1.5f, 0.2f, 0),
                                        glm::vec3(1, 0, 0)};
  const std::array<glm::vec3, 3> nrm = {glm::vec3(0, 1, 0), glm::vec3(0, 1, 0), glm::vec3(0, 1, 0)};
  const glm::u16vec4 j(0, 1, 0, 0);
  const glm::vec4 w(2.0f / 3.0f, 1.0f / 3.0f, 0, 0);
  const std::array<glm::u16vec4, 3> joints = {j, j, j};
  const std::array<glm::vec4, 3> weights = {w, w, w};
  SkinInput in{pos, nrm, joints, weights, -1};
  std::array<glm::vec3, 3> out_p, out_n;
  ASSERT_TRUE(skin_lbs(arm.palette, arm.normals, in, out_p, out_n));

  // (1.5,0,0): K0 p = (1.5,0,0); K1 p: -(1,0,0) -> (0.5,0,0) -Rz90-> (0,0.5,0) -> (1,0.5,0).
  //   2/3 (1.5,0,0) + 1/3 (1,0.5,0) = (1 + 1/3, 1/6, 0).
  EXPECT_VEC_NEAR(out_p[0], glm::vec3(4.0f / 3.0f, 1.0f / 6.0f, 0), 1e-6f);
  // (1.5,0.2,0): K1 p: (0.5,0.2,0) -Rz90-> (-0.2,0.5,0) -> (0.8,0.5,0).
  //   2/3 (1.5,0.2,0) + 1/3 (0.8,0.5,0) = (3.8/3, 0.9/3, 0) = (1.2666667, 0.3, 0).
  EXPECT_VEC_NEAR(out_p[1], glm::vec3(3.8f / 3.0f, 0.3f, 0), 1e-6f);
  // The elbow itself is the pivot: K1 (1,0,0) = (1,0,0), so it stays.
  EXPECT_VEC_NEAR(out_p[2], glm::vec3(1, 0, 0), 1e-6f);
  // Normal (0,1,0): N0 n = (0,1,0), N1 n = Rz90 (0,1,0) = (-1,0,0).
  //   2/3 (0,1,0) + 1/3 (-1,0,0) = (-1/3, 2/3, 0), length sqrt(5)/3 -> (-1, 2, 0)/sqrt(5).
  const float r5 = std::sqrt(5.0f);
  for (const glm::vec3& n : out_n) EXPECT_VEC_NEAR(n, glm::vec3(-1.0f / r5, 2.0f / r5, 0), 1e-6f);

  // The caller's max_joint gives the same result without the scan.
  in.max_joint = 1;
  std::array<glm::vec3, 3> out_p2, out_n2;
  ASSERT_TRUE(skin_lbs(arm.palette, arm.normals, in, out_p2, out_n2));
  EXPECT_EQ(out_p, out_p2);
  EXPECT_EQ(out_n, out_n2);
}

TEST(SkinLbs, PositionsOnlyWithoutNormals) {
  const Arm arm = bent_arm();
  const std::array<glm::vec3, 1> pos = {glm::vec3(1.5f, 0, 0)};
  const std::array<glm::u16vec4, 1> joints = {glm::u16vec4(1, 0, 0, 0)};
  const std::array<glm::vec4, 1> weights = {glm::vec4(1, 0, 0, 0)};
  SkinInput in{pos, {}, joints, weights, -1};
  std::array<glm::vec3, 1> out_p;
  // Fully on the forearm: (1.5,0,0) -> (1,0.5,0). No normals: no normal palette needed.
  ASSERT_TRUE(skin_lbs(arm.palette, {}, in, out_p, {}));
  EXPECT_VEC_NEAR(out_p[0], glm::vec3(1, 0.5f, 0), 1e-6f);
}

TEST(SkinLbs, NormalUnderNonUniformScale) {
  // K = S(2,1,1). A surface x + y = c with normal (1,1,0)/sqrt2 becomes X/2 + Y = c, normal
  // (1/2, 1, 0) ~ (1,2,0)/sqrt5 -- the inverse transpose S(1/2,1,1) applied to n. K's own 3x3
  // would give (2,1,0)/sqrt5, which is not perpendicular to the stretched surface.
  const std::array<glm::mat4, 1> palette = {glm::scale(glm::mat4(1.0f), glm::vec3(2, 1, 1))};
  std::array<glm::mat3, 1> normals;
  ASSERT_TRUE(build_normal_palette(palette, normals));
  const float h = std::sqrt(0.5f);
  const std::array<glm::vec3, 1> pos = {glm::vec3(1, 1, 0)};
  const std::array<glm::vec3, 1> nrm = {glm::vec3(h, h, 0)};
  const std::array<glm::u16vec4, 1> joints = {glm::u16vec4(0)};
  const std::array<glm::vec4, 1> weights = {glm::vec4(1, 0, 0, 0)};
  std::array<glm::vec3, 1> out_p, out_n;
  ASSERT_TRUE(skin_lbs(palette, normals, SkinInput{pos, nrm, joints, weights, 0}, out_p, out_n));
  EXPECT_VEC_NEAR(out_p[0], glm::vec3(2, 1, 0), 1e-6f);
  const float r5 = std::sqrt(5.0f);
  EXPECT_VEC_NEAR(out_n[0], glm::vec3(1.0f / r5, 2.0f / r5, 0), 1e-6f);
  // Still perpendicular to the stretched tangent (1,-1,0) -> (2,-1,0).
  EXPECT_NEAR(glm::dot(out_n[0], glm::vec3(2, -1, 0)), 0.0f, 1e-6f);
}

const glm::vec3 kSentinel(-999.0f);

// Three vertices, skin of two bones; every case below has one thing wrong.
struct Bad {
  std::array<glm::mat4, 2> palette = {glm::mat4(1.0f), glm::mat4(1.0f)};
  std::array<glm::mat3, 2> normals = {glm::mat3(1.0f), glm::mat3(1.0f)};
  std::array<glm::vec3, 3> pos = {glm::vec3(1), glm::vec3(2), glm::vec3(3)};
  std::array<glm::vec3, 3> nrm = {glm::vec3(0, 1, 0), glm::vec3(0, 1, 0), glm::vec3(0, 1, 0)};
  std::array<glm::u16vec4, 3> joints = {glm::u16vec4(0), glm::u16vec4(1, 0, 0, 0), glm::u16vec4(0)};
  std::array<glm::vec4, 3> weights = {glm::vec4(1, 0, 0, 0), glm::vec4(1, 0, 0, 0),
                                      glm::vec4(1, 0, 0, 0)};
  // Outputs inside larger buffers with a guard element after the span.
  std::vector<glm::vec3> out_p = std::vector<glm::vec3>(4, kSentinel);
  std::vector<glm::vec3> out_n = std::vector<glm::vec3>(4, kSentinel);

  SkinInput input() const { return SkinInput{pos, nrm, joints, weights, -1}; }
  std::span<glm::vec3> p(std::size_t n = 3) { return std::span(out_p).first(n); }
  std::span<glm::vec3> n(std::size_t n = 3) { return std::span(out_n).first(n); }
  bool untouched() const {
    for (const glm::vec3& v : out_p)
      if (v != kSentinel) return false;
    for (const glm::vec3& v : out_n)
      if (v != kSentinel) return false;
    return true;
  }
};

TEST(SkinLbs, RefusesWrongSizesWritingNothing) {
  Bad b;
  SkinInput in = b.input();
  EXPECT_FALSE(skin_lbs(b.palette, b.normals, in, b.p(2), b.n()));  // positions out short
  EXPECT_FALSE(skin_lbs(b.palette, b.normals, in, b.p(4), b.n()));  // positions out long
  EXPECT_FALSE(skin_lbs(b.palette, b.normals, in, b.p(), b.n(2)));  // normals out short
  EXPECT_FALSE(skin_lbs(b.palette, std::span(b.normals).first(1), in, b.p(), b.n()));
  in.joints = std::span(b.joints).first(2);
  EXPECT_FALSE(skin_lbs(b.palette, b.normals, in, b.p(), b.n()));  // joints short
  in = b.input();
  in.weights = std::span(b.weights).first(2);
  EXPECT_FALSE(skin_lbs(b.palette, b.normals, in, b.p(), b.n()));  // weights short
  in = b.input();
  in.normals = std::span(b.nrm).first(2);
  EXPECT_FALSE(skin_lbs(b.palette, b.normals, in, b.p(), b.n()));  // normals short
  EXPECT_FALSE(skin_lbs({}, {}, b.input(), b.p(), b.n()));         // empty palette
  EXPECT_TRUE(b.untouched());
}

TEST(SkinLbs, RefusesJointOutOfRangeWritingNothing) {
  Bad b;
  b.joints[2] = glm::u16vec4(0, 0, 0, 2);  // the last slot of the last vertex: bone 2 of 2
  SkinInput in = b.input();                // max_joint -1: found by the scan
  EXPECT_FALSE(skin_lbs(b.palette, b.normals, in, b.p(), b.n()));
  in.max_joint = 2;  // the caller says so
  EXPECT_FALSE(skin_lbs(b.palette, b.normals, in, b.p(), b.n()));
  EXPECT_TRUE(b.untouched());
  // A zero weight does not excuse an out-of-range index: it would still be read.
  b.joints[2] = glm::u16vec4(0, 65535, 0, 0);
  EXPECT_FALSE(skin_lbs(b.palette, b.normals, b.input(), b.p(), b.n()));
  EXPECT_TRUE(b.untouched());
}

}  // namespace
}  // namespace sv
