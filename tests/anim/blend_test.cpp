// The blending stage (anim/blend.h) on hand-made local poses, the subtree masks, and the
// cross-fade's times and weight (anim/crossfade.h). The same rules through the Animator's layer
// stack, on clips, are in layers_test.cpp.
#include "anim/blend.h"

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include <glm/gtc/quaternion.hpp>

#include "anim/clip_arrays.h"
#include "anim/clip_runtime.h"
#include "anim/crossfade.h"
#include "anim/local_lanes.h"
#include "anim_test_constants.h"
#include "test_util.h"

namespace sv {
namespace {

using test::kNaN;
using test::kZ;
const glm::vec3 kX(1, 0, 0), kY(0, 1, 0);

glm::quat rot(float degrees, const glm::vec3& axis) {
  return glm::angleAxis(glm::radians(degrees), axis);
}

TEST(BlendWeight, ClampsIntoZeroOne) {
  EXPECT_EQ(blend_weight(0.25f), 0.25f);
  EXPECT_EQ(blend_weight(1.0f), 1.0f);
  EXPECT_EQ(blend_weight(3.0f), 1.0f);
  EXPECT_EQ(blend_weight(-0.5f), 0.0f);
  EXPECT_EQ(blend_weight(kNaN), 0.0f);
  EXPECT_EQ(blend_weight(std::numeric_limits<float>::infinity()), 1.0f);
}

TEST(BlendOverride, TwoJointsAtKnownWeights) {
  // Joint 0: translation (0,0,0) -> (0,2,0); joint 1: rotation identity -> 90 deg about Z,
  // scale 1 -> 3.
  std::array<Transform, 2> pose = {test::trs({0, 0, 0}), test::trs({1, 0, 0})};
  const std::array<Transform, 2> layer = {test::trs({0, 2, 0}),
                                          test::trs({1, 0, 0}, rot(90, kZ), glm::vec3(3))};
  ASSERT_TRUE(blend_override(pose, layer, {}, {}, 0.25f));
  EXPECT_NEAR_GLM(pose[0].translation, glm::vec3(0, 0.5f, 0), 1e-6f);
  // nlerp: normalize(0.75 (1,0,0,0) + 0.25 (cos 45, 0, 0, sin 45)), a turn of
  // 2 atan(0.25 sin 45 / (0.75 + 0.25 cos 45)) = 21.598161 degrees (slerp's 22.5 until the
  // blend went into lanes: NlerpStaysWithinItsBoundOfSlerp).
  EXPECT_SAME_ROTATION(pose[1].rotation, rot(21.598161f, kZ), 1e-6f);
  EXPECT_NEAR_GLM(pose[1].scale, glm::vec3(1.5f), 1e-6f);
  EXPECT_NEAR(glm::length(pose[1].rotation), 1.0f, 1e-6f);
}

TEST(BlendOverride, HalfWeightIsTheExactSlerpMidpoint) {
  // Rotations far apart (150 degrees) and near (20): at 0.5, nlerp gives slerp's midpoint.
  for (const float degrees : {20.0f, 150.0f}) {
    const glm::quat a = rot(10, kX) * rot(-30, kY);
    const glm::quat b = a * rot(degrees, glm::normalize(glm::vec3(1, 2, 3)));
    std::array<Transform, 1> pose = {test::trs({0, 0, 0}, a)};
    const std::array<Transform, 1> layer = {test::trs({0, 0, 0}, b)};
    ASSERT_TRUE(blend_override(pose, layer, {}, {}, 0.5f));
    const glm::quat mid = a * rot(degrees / 2, glm::normalize(glm::vec3(1, 2, 3)));
    EXPECT_SAME_ROTATION(pose[0].rotation, mid, 1e-6f) << degrees;
    // The normalised sum gives the same rotation at 0.5.
    EXPECT_SAME_ROTATION(pose[0].rotation, glm::normalize(a + b), 1e-6f) << degrees;
  }
}

// nlerp turns along slerp's arc, at a speed that is not constant: for rotations theta apart it
// turns phi(w) = 2 atan(w sin(theta/2) / ((1 - w) + w cos(theta/2))) where slerp turns w theta.
// The largest difference over w (hand-computed from phi on a 1e-4 grid of w): 0.0012 degrees at
// theta = 10, 0.033 at 30, 0.27 at 60, 0.92 at 90, 2.2 at 120, 8.1 near 180; none at w = 0,
// 0.5 and 1.
TEST(BlendOverride, NlerpStaysWithinItsBoundOfSlerp) {
  struct Case {
    float theta, w, nlerp_degrees, bound;
  };
  // phi(90, 0.25) = 21.598161, phi(90, 0.75) = 68.401839, phi(30, 0.25) = 7.467734,
  // phi(30, 0.212) = 6.326911 (the largest difference at 30: 0.033).
  for (const Case& c : {Case{90, 0.25f, 21.598161f, 0.92f}, Case{90, 0.75f, 68.401839f, 0.92f},
                        Case{30, 0.25f, 7.467734f, 0.034f}, Case{30, 0.212f, 6.326911f, 0.034f},
                        Case{90, 0.5f, 45.0f, 1e-4f}}) {
    const glm::vec3 axis = glm::normalize(glm::vec3(1, -2, 2));
    const glm::quat below = rot(25, kY);
    std::array<Transform, 1> pose = {test::trs({0, 0, 0}, below)};
    const std::array<Transform, 1> layer = {test::trs({0, 0, 0}, below * rot(c.theta, axis))};
    ASSERT_TRUE(blend_override(pose, layer, {}, {}, c.w));
    EXPECT_SAME_ROTATION(pose[0].rotation, below * rot(c.nlerp_degrees, axis), 1e-6f)
        << c.theta << " " << c.w;
    // The turn from below, measured, against slerp's w theta.
    const glm::quat turn = glm::conjugate(below) * pose[0].rotation;
    const float turned = glm::degrees(
        2.0f * std::atan2(glm::length(glm::vec3(turn.x, turn.y, turn.z)), std::abs(turn.w)));
    EXPECT_LE(std::abs(turned - c.w * c.theta), c.bound) << c.theta << " " << c.w;
  }
}

TEST(BlendOverride, FullWeightCopiesAndShorterArcIsTaken) {
  std::array<Transform, 1> pose = {test::trs({1, 2, 3}, rot(10, kZ), glm::vec3(2))};
  const std::array<Transform, 1> layer = {test::trs({4, 5, 6}, -rot(40, kZ), glm::vec3(0.5f))};
  std::array<Transform, 1> half = pose;
  ASSERT_TRUE(blend_override(half, layer, {}, {}, 0.5f));
  // -q is the same 40 degree turn: the midpoint is at 25 degrees, not the long way round.
  EXPECT_SAME_ROTATION(half[0].rotation, rot(25, kZ), 1e-6f);
  ASSERT_TRUE(blend_override(pose, layer, {}, {}, 1.0f));
  EXPECT_EQ(pose[0].translation, layer[0].translation);  // exactly: mix at w = 1 is b
  EXPECT_EQ(pose[0].scale, layer[0].scale);
  EXPECT_EQ(pose[0].rotation, layer[0].rotation);  // copied
}

TEST(BlendOverride, SparseTracksKeepThePoseBelow) {
  // The layer keys only joint 1's rotation: nothing else moves, whatever the weight.
  std::array<Transform, 2> pose = {test::trs({0, 1, 0}, rot(5, kX)),
                                   test::trs({1, 0, 0}, rot(0, kZ))};
  const std::array<Transform, 2> below = pose;
  const std::array<Transform, 2> layer = {test::trs({9, 9, 9}, rot(80, kY), glm::vec3(7)),
                                          test::trs({9, 9, 9}, rot(60, kZ), glm::vec3(7))};
  const std::array<uint8_t, 2> keyed = {0, kKeyedRotation};
  ASSERT_TRUE(blend_override(pose, layer, keyed, {}, 1.0f));
  EXPECT_EQ(pose[0].translation, below[0].translation);
  EXPECT_EQ(pose[0].rotation, below[0].rotation);
  EXPECT_EQ(pose[0].scale, below[0].scale);
  EXPECT_EQ(pose[1].translation, below[1].translation);
  EXPECT_EQ(pose[1].scale, below[1].scale);
  EXPECT_SAME_ROTATION(pose[1].rotation, rot(60, kZ), 1e-6f);
}

TEST(BlendOverride, MaskWeighsEachJoint) {
  std::array<Transform, 3> pose = {test::trs({0, 0, 0}), test::trs({0, 0, 0}),
                                   test::trs({0, 0, 0})};
  const std::array<Transform, 3> layer = {test::trs({4, 0, 0}), test::trs({4, 0, 0}),
                                          test::trs({4, 0, 0})};
  const std::array<float, 3> mask = {0.0f, 0.5f, 1.0f};
  ASSERT_TRUE(blend_override(pose, layer, {}, mask, 0.5f));  // per joint 0, 0.25, 0.5
  EXPECT_EQ(pose[0].translation, glm::vec3(0));
  EXPECT_NEAR_GLM(pose[1].translation, glm::vec3(1, 0, 0), 1e-6f);
  EXPECT_NEAR_GLM(pose[2].translation, glm::vec3(2, 0, 0), 1e-6f);
}

TEST(BlendOverride, WeightsOutsideZeroOneAreClamped) {
  const std::array<Transform, 1> start = {test::trs({0, 0, 0}, rot(0, kZ))};
  const std::array<Transform, 1> layer = {test::trs({2, 0, 0}, rot(60, kZ))};
  for (const float w : {0.0f, -1.0f, kNaN}) {
    std::array<Transform, 1> pose = start;
    ASSERT_TRUE(blend_override(pose, layer, {}, {}, w));
    EXPECT_EQ(pose[0].translation, start[0].translation) << w;
    EXPECT_EQ(pose[0].rotation, start[0].rotation) << w;
  }
  std::array<Transform, 1> pose = start;
  ASSERT_TRUE(blend_override(pose, layer, {}, {}, 2.5f));  // as 1: no overshoot
  EXPECT_EQ(pose[0].translation, glm::vec3(2, 0, 0));
  EXPECT_SAME_ROTATION(pose[0].rotation, rot(60, kZ), 1e-6f);
  // Mask weights are clamped too.
  pose = start;
  const std::array<float, 1> mask = {4.0f};
  ASSERT_TRUE(blend_override(pose, layer, {}, mask, 0.5f));
  EXPECT_NEAR_GLM(pose[0].translation, glm::vec3(1, 0, 0), 1e-6f);
}

TEST(BlendOverride, LanesAgreeWithTheScalarNlerpJointByJoint) {
  // 23 joints (five groups of 4 and a tail of 3), random rotations up to 180 degrees apart (the
  // sign fix), weights 0, 1 and between, components keyed at random; on every kernel set.
  std::mt19937 rng(5u);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  const auto random_rotation = [&] {
    return glm::normalize(glm::quat(u(rng), u(rng), u(rng), u(rng)));
  };
  const std::size_t n = 23;
  std::vector<Transform> pose(n), layer(n);
  std::vector<uint8_t> keyed(n);
  std::vector<float> mask(n);
  for (std::size_t j = 0; j < n; ++j) {
    pose[j] = test::trs({u(rng), u(rng), u(rng)}, random_rotation(), glm::vec3(1 + 0.5f * u(rng)));
    layer[j] = test::trs({u(rng), u(rng), u(rng)}, random_rotation(), glm::vec3(1 + 0.5f * u(rng)));
    if (j % 5 == 0) layer[j].rotation = pose[j].rotation * rot(170, kY);    // far apart
    if (j % 7 == 3) layer[j].rotation = pose[j].rotation * rot(0.01f, kX);  // nearly equal
    keyed[j] = static_cast<uint8_t>(rng() % 8u);
    mask[j] = j % 6 == 0 ? 0.0f : j % 6 == 1 ? 1.0f : 0.5f * (1.0f + u(rng));
  }
  for (const int isa : {0, 2})
    for (const float weight : {0.3f, 1.0f}) {
      const int previous = detail::clip_runtime_max_isa(isa);
      std::vector<Transform> lanes = pose;
      ASSERT_TRUE(blend_override(lanes, layer, keyed, mask, weight));
      detail::clip_runtime_max_isa(previous);
      for (std::size_t j = 0; j < n; ++j) {
        const float w = weight * mask[j];
        Transform expect = pose[j];
        if (w > 0.0f && (keyed[j] & kKeyedRotation))
          expect.rotation =
              w >= 1.0f ? layer[j].rotation
                        : glm::normalize(
                              pose[j].rotation * (1 - w) +
                              layer[j].rotation *
                                  (glm::dot(pose[j].rotation, layer[j].rotation) < 0 ? -w : w));
        if (w > 0.0f && (keyed[j] & kKeyedTranslation))
          expect.translation = pose[j].translation * (1 - w) + layer[j].translation * w;
        if (w > 0.0f && (keyed[j] & kKeyedScale))
          expect.scale = pose[j].scale * (1 - w) + layer[j].scale * w;
        EXPECT_SAME_ROTATION(lanes[j].rotation, expect.rotation, 1e-6f)
            << j << " " << w << " " << isa;
        EXPECT_NEAR_GLM(lanes[j].translation, expect.translation, 1e-6f) << j;
        EXPECT_NEAR_GLM(lanes[j].scale, expect.scale, 1e-6f) << j;
        if (w <= 0.0f || !(keyed[j] & kKeyedRotation)) {
          EXPECT_EQ(lanes[j].rotation, pose[j].rotation) << j;  // exactly as it was
        }
      }
    }
}

TEST(BlendOverride, WrongSizesAreRefused) {
  std::array<Transform, 2> pose = {test::trs({1, 0, 0}), test::trs({1, 0, 0})};
  const std::array<Transform, 2> layer = {test::trs({2, 0, 0}), test::trs({2, 0, 0})};
  const std::array<Transform, 1> short_layer = {test::trs({2, 0, 0})};
  const std::array<uint8_t, 1> short_keyed = {kKeyedAll};
  const std::array<float, 3> long_mask = {1, 1, 1};
  EXPECT_FALSE(blend_override(pose, short_layer, {}, {}, 1.0f));
  EXPECT_FALSE(blend_override(pose, layer, short_keyed, {}, 1.0f));
  EXPECT_FALSE(blend_override(pose, layer, {}, long_mask, 1.0f));
  EXPECT_FALSE(blend_additive(pose, layer, short_layer, {}, {}, 1.0f));
  EXPECT_EQ(pose[0].translation, glm::vec3(1, 0, 0));  // nothing written
}

TEST(BlendAdditive, AddsTheDifferenceFromTheReference) {
  // Below: translation (1,0,0), 20 deg about X, scale 2. Reference: (0,1,0), identity, scale 1.
  // Layer: (0,1.4,0), 30 deg about X, scale 1.2. At weight 0.5 the difference is halved:
  // translation + (0,0.2,0), rotation + 15 deg, scale * mix(1, 1.2, 0.5) = * 1.1.
  std::array<Transform, 1> pose = {test::trs({1, 0, 0}, rot(20, kX), glm::vec3(2))};
  const std::array<Transform, 1> reference = {test::trs({0, 1, 0})};
  const std::array<Transform, 1> layer = {test::trs({0, 1.4f, 0}, rot(30, kX), glm::vec3(1.2f))};
  ASSERT_TRUE(blend_additive(pose, layer, reference, {}, {}, 0.5f));
  EXPECT_NEAR_GLM(pose[0].translation, glm::vec3(1, 0.2f, 0), 1e-6f);
  EXPECT_SAME_ROTATION(pose[0].rotation, rot(35, kX), 1e-6f);
  EXPECT_NEAR_GLM(pose[0].scale, glm::vec3(2.2f), 1e-6f);
}

TEST(BlendAdditive, TheDifferenceIsTakenInTheJointsOwnFrame) {
  // Reference 90 deg about Y, layer = reference then 30 deg about X (in the joint's frame): the
  // difference is 30 deg about X, applied after whatever rotation is below.
  const glm::quat ref = rot(90, kY);
  std::array<Transform, 1> pose = {test::trs({0, 0, 0}, rot(45, kZ))};
  const std::array<Transform, 1> reference = {test::trs({0, 0, 0}, ref)};
  const std::array<Transform, 1> layer = {test::trs({0, 0, 0}, ref * rot(30, kX))};
  ASSERT_TRUE(blend_additive(pose, layer, reference, {}, {}, 1.0f));
  EXPECT_SAME_ROTATION(pose[0].rotation, rot(45, kZ) * rot(30, kX), 1e-6f);
  // A pose below equal to the reference gives the layer's pose at weight 1.
  std::array<Transform, 1> at_ref = reference;
  ASSERT_TRUE(blend_additive(at_ref, layer, reference, {}, {}, 1.0f));
  EXPECT_SAME_ROTATION(at_ref[0].rotation, layer[0].rotation, 1e-6f);
}

TEST(BlendAdditive, ALayerThatIsItsOwnReferenceAddsNothing) {
  std::array<Transform, 2> pose = {test::trs({1, 2, 3}, rot(33, kY), glm::vec3(1.5f)),
                                   test::trs({0, 1, 0}, rot(-70, kX))};
  const std::array<Transform, 2> below = pose;
  const std::array<Transform, 2> layer = {test::trs({5, 5, 5}, rot(80, kZ), glm::vec3(3)),
                                          test::trs({0, 0, 2}, rot(12, kX), glm::vec3(0.5f))};
  ASSERT_TRUE(blend_additive(pose, layer, layer, {}, {}, 1.0f));
  for (std::size_t j = 0; j < 2; ++j) {
    EXPECT_NEAR_GLM(pose[j].translation, below[j].translation, 1e-6f);
    EXPECT_SAME_ROTATION(pose[j].rotation, below[j].rotation, 1e-6f);
    EXPECT_NEAR_GLM(pose[j].scale, below[j].scale, 1e-6f);
  }
}

TEST(BlendAdditive, AZeroReferenceScaleChangesNothingOnThatAxis) {
  std::array<Transform, 1> pose = {test::trs({0, 0, 0}, rot(0, kX), glm::vec3(2))};
  const std::array<Transform, 1> reference = {test::trs({0, 0, 0}, rot(0, kX), glm::vec3(0, 1, 1))};
  const std::array<Transform, 1> layer = {test::trs({0, 0, 0}, rot(0, kX), glm::vec3(5, 3, 1))};
  ASSERT_TRUE(blend_additive(pose, layer, reference, {}, {}, 1.0f));
  EXPECT_NEAR_GLM(pose[0].scale, glm::vec3(2, 6, 2), 1e-6f);
}

// --- in lanes (local_lanes.h): the Animator's form ---------------------------------------------

LocalLanes lanes_of(const std::vector<Transform>& pose) {
  LocalLanes out(pose.size());
  for (std::size_t j = 0; j < pose.size(); ++j) out.set(j, pose[j]);
  return out;
}

TEST(LanesBlend, TwoLayersAtAQuarterAndThreeQuarters) {
  // 5 joints (a group of 4 and one in a padded group); joint 2 moves, the others stay the
  // identity in every layer. Layer A at 0.25: T (0,0,0) -> (4,0,0) gives (1,0,0); S 1 -> 3 gives
  // 1.5; R identity -> 80 deg about Z turns phi(80, 0.25) = 19.371790 deg (nlerp's turn,
  // NlerpStaysWithinItsBoundOfSlerp). Layer B at 0.75 over that: T -> (0,8,0) gives (0.25, 6, 0);
  // S -> 0.5 gives 0.25 * 1.5 + 0.75 * 0.5 = 0.75; R -> 100 deg turns phi(100 - 19.371790, 0.75)
  // more, to 80.486386 deg.
  std::vector<Transform> base(5), a(5), b(5);
  a[2] = test::trs({4, 0, 0}, rot(80, kZ), glm::vec3(3));
  b[2] = test::trs({0, 8, 0}, rot(100, kZ), glm::vec3(0.5f));
  LocalLanes pose = lanes_of(base);
  ASSERT_TRUE(blend_override(pose, lanes_of(a), {}, {}, 0.25f));
  ASSERT_TRUE(blend_override(pose, lanes_of(b), {}, {}, 0.75f));
  const Transform j2 = pose.get(2);
  EXPECT_NEAR_GLM(j2.translation, glm::vec3(0.25f, 6, 0), 1e-6f);
  EXPECT_SAME_ROTATION(j2.rotation, rot(80.486386f, kZ), 1e-6f);
  EXPECT_NEAR_GLM(j2.scale, glm::vec3(0.75f), 1e-6f);
  for (const std::size_t j : {0u, 1u, 3u, 4u}) {
    EXPECT_NEAR_GLM(pose.get(j).translation, glm::vec3(0), 1e-6f) << j;
    EXPECT_SAME_ROTATION(pose.get(j).rotation, glm::quat(1, 0, 0, 0), 1e-6f) << j;
    EXPECT_NEAR_GLM(pose.get(j).scale, glm::vec3(1), 1e-6f) << j;
  }
  // The Transform form gathers into the same kernels: the same bits.
  std::vector<Transform> aos = base;
  ASSERT_TRUE(blend_override(aos, a, {}, {}, 0.25f));
  ASSERT_TRUE(blend_override(aos, b, {}, {}, 0.75f));
  for (std::size_t j = 0; j < 5; ++j) {
    EXPECT_EQ(aos[j].translation, pose.get(j).translation) << j;
    EXPECT_EQ(aos[j].rotation, pose.get(j).rotation) << j;
    EXPECT_EQ(aos[j].scale, pose.get(j).scale) << j;
  }
}

TEST(LanesBlend, AMaskZeroInALaneLeavesThatJointAsItWas) {
  // Weight 0.5 with mask {1, 0, 0.5, 1, 0, NaN}: per joint 0.5, 0, 0.25, 0.5, 0, 0. Each joint
  // goes from (0,0,0) and 10 deg about X towards (4,0,0) and 70 deg about X.
  std::vector<Transform> below(6, test::trs({0, 0, 0}, rot(10, kX))), layer(6);
  for (Transform& x : layer) x = test::trs({4, 0, 0}, rot(70, kX), glm::vec3(2));
  const std::array<float, 6> mask = {1.0f, 0.0f, 0.5f, 1.0f, 0.0f, kNaN};
  LocalLanes pose = lanes_of(below);
  ASSERT_TRUE(blend_override(pose, lanes_of(layer), {}, mask, 0.5f));
  for (const std::size_t j : {1u, 4u, 5u}) {  // exactly as they were
    EXPECT_EQ(pose.get(j).translation, below[j].translation) << j;
    EXPECT_EQ(pose.get(j).rotation, below[j].rotation) << j;
    EXPECT_EQ(pose.get(j).scale, below[j].scale) << j;
  }
  for (const std::size_t j : {0u, 3u}) {  // half way: (2,0,0), 40 deg, scale 1.5
    EXPECT_NEAR_GLM(pose.get(j).translation, glm::vec3(2, 0, 0), 1e-6f) << j;
    EXPECT_SAME_ROTATION(pose.get(j).rotation, rot(40, kX), 1e-6f) << j;
    EXPECT_NEAR_GLM(pose.get(j).scale, glm::vec3(1.5f), 1e-6f) << j;
  }
  // A quarter: (1,0,0), 10 + phi(60, 0.25) = 24.738520 deg, scale 1.25.
  EXPECT_NEAR_GLM(pose.get(2).translation, glm::vec3(1, 0, 0), 1e-6f);
  EXPECT_SAME_ROTATION(pose.get(2).rotation, rot(24.738520f, kX), 1e-6f);
  EXPECT_NEAR_GLM(pose.get(2).scale, glm::vec3(1.25f), 1e-6f);
}

TEST(LanesBlend, AnAdditiveLayerInLanes) {
  // Joint 1 as BlendAdditive.AddsTheDifferenceFromTheReference: below (1,0,0), 20 deg about X,
  // scale 2; reference (0,1,0); layer (0,1.4,0), 30 deg about X, scale 1.2; at 0.5: (1,0.2,0),
  // 35 deg, 2.2. Joint 0's layer is its reference (adds nothing); joint 2 is masked out.
  std::vector<Transform> below = {test::trs({0, 0, 3}, rot(-15, kY)),
                                  test::trs({1, 0, 0}, rot(20, kX), glm::vec3(2)),
                                  test::trs({5, 0, 0}, rot(45, kZ))};
  std::vector<Transform> reference = {test::trs({2, 2, 2}, rot(60, kZ), glm::vec3(3)),
                                      test::trs({0, 1, 0}), test::trs({0, 0, 0})};
  std::vector<Transform> layer = {reference[0],
                                  test::trs({0, 1.4f, 0}, rot(30, kX), glm::vec3(1.2f)),
                                  test::trs({7, 7, 7}, rot(90, kX), glm::vec3(4))};
  const std::array<float, 3> mask = {1.0f, 1.0f, 0.0f};
  LocalLanes pose = lanes_of(below);
  ASSERT_TRUE(blend_additive(pose, lanes_of(layer), lanes_of(reference), {}, mask, 0.5f));
  EXPECT_NEAR_GLM(pose.get(1).translation, glm::vec3(1, 0.2f, 0), 1e-6f);
  EXPECT_SAME_ROTATION(pose.get(1).rotation, rot(35, kX), 1e-6f);
  EXPECT_NEAR_GLM(pose.get(1).scale, glm::vec3(2.2f), 1e-6f);
  EXPECT_NEAR_GLM(pose.get(0).translation, below[0].translation, 1e-6f);
  EXPECT_SAME_ROTATION(pose.get(0).rotation, below[0].rotation, 1e-6f);
  EXPECT_NEAR_GLM(pose.get(0).scale, below[0].scale, 1e-6f);
  EXPECT_EQ(pose.get(2).translation, below[2].translation);
  EXPECT_EQ(pose.get(2).rotation, below[2].rotation);
  EXPECT_EQ(pose.get(2).scale, below[2].scale);
}

TEST(LanesBlend, WrongSizesAreRefused) {
  LocalLanes pose(3), layer(4), reference(3);
  pose.set(0, test::trs({1, 0, 0}));
  EXPECT_FALSE(blend_override(pose, layer, {}, {}, 1.0f));
  EXPECT_FALSE(blend_additive(pose, layer, reference, {}, {}, 1.0f));
  EXPECT_FALSE(blend_additive(pose, reference, layer, {}, {}, 1.0f));
  const std::array<float, 2> short_mask = {1, 1};
  EXPECT_FALSE(blend_override(pose, reference, {}, short_mask, 1.0f));
  EXPECT_EQ(pose.get(0).translation, glm::vec3(1, 0, 0));  // nothing written
}

TEST(SubtreeMask, ARootAndEverythingBelowIt) {
  // 0 root; 1 hips; 2 spine (1); 3 arm (2); 4 leg (1); 5 hand (3); 6 foot (4).
  const std::array<int32_t, 7> parents = {-1, 0, 1, 2, 1, 3, 4};
  EXPECT_EQ(subtree_mask(parents, 2), (std::vector<float>{0, 0, 1, 1, 0, 1, 0}));
  EXPECT_EQ(subtree_mask(parents, 4, 0.5f, 1.0f), (std::vector<float>{1, 1, 1, 1, 0.5f, 1, 0.5f}));
  EXPECT_EQ(subtree_mask(parents, 0), std::vector<float>(7, 1.0f));
  EXPECT_EQ(subtree_mask(parents, 7), std::vector<float>(7, 0.0f));  // no such joint
  std::vector<float> mask = subtree_mask(parents, 2);
  ASSERT_TRUE(set_subtree(parents, 3, 0.25f, mask));  // the arm at a quarter
  EXPECT_EQ(mask, (std::vector<float>{0, 0, 1, 0.25f, 0, 0.25f, 0}));
  EXPECT_FALSE(set_subtree(parents, 9, 1.0f, mask));
  std::vector<float> short_mask(3, 0.0f);
  EXPECT_FALSE(set_subtree(parents, 0, 1.0f, short_mask));
}

// --- cross-fade ------------------------------------------------------------------------------

TEST(CrossFade, WeightRisesLinearlyOverTheFade) {
  const CrossFade f{2.0, 0.5, false};
  EXPECT_EQ(crossfade_at(f, 1.2, 0.8, 0.0).weight, 0.0f);
  EXPECT_EQ(crossfade_at(f, 1.2, 0.8, 2.0).weight, 0.0f);
  EXPECT_FLOAT_EQ(crossfade_at(f, 1.2, 0.8, 2.125).weight, 0.25f);
  EXPECT_EQ(crossfade_at(f, 1.2, 0.8, 2.5).weight, 1.0f);
  EXPECT_EQ(crossfade_at(f, 1.2, 0.8, 9.0).weight, 1.0f);
  // Without sync FROM keeps its clock and TO starts from 0 at the fade's start.
  const CrossFadeState s = crossfade_at(f, 1.2, 0.8, 2.3);
  EXPECT_DOUBLE_EQ(s.from_time, 2.3);
  EXPECT_NEAR(s.to_time, 0.3, 1e-12);
  EXPECT_EQ(crossfade_at(f, 1.2, 0.8, 1.0).to_time, 0.0);
  // Zero duration: a cut.
  const CrossFade cut{1.0, 0.0, false};
  EXPECT_EQ(crossfade_at(cut, 1.2, 0.8, 0.999).weight, 0.0f);
  EXPECT_EQ(crossfade_at(cut, 1.2, 0.8, 1.0).weight, 1.0f);
}

TEST(CrossFade, SyncKeepsOnePhaseAndBlendsTheCycleLength) {
  // Walk 1.2 s into run 0.8 s, fading from 2.4 s (phase 2 cycles) over 0.5 s.
  const double a = 1.2, b = 0.8;
  const CrossFade f{2.4, 0.5, true};
  const CrossFadeState before = crossfade_at(f, a, b, 1.8);
  EXPECT_DOUBLE_EQ(before.from_time, 1.8);        // FROM's own clock
  EXPECT_DOUBLE_EQ(before.to_time / b, 1.8 / a);  // TO at the same phase (1.5 cycles)
  // During: dp/dt = 1 / mix(a, b, w). Integral from the start to w: 0.5 / (b - a) ln(D / a).
  const double t = 2.4 + 0.25;  // w = 0.5, D = 1.0
  const double p = 2.0 + 0.5 / (b - a) * std::log(1.0 / a);
  const CrossFadeState mid = crossfade_at(f, a, b, t);
  EXPECT_NEAR(mid.from_time, p * a, 1e-12);
  EXPECT_NEAR(mid.to_time, p * b, 1e-12);
  // After: the phase runs at 1 / b from where the fade left it.
  const double p_end = 2.0 + 0.5 / (b - a) * std::log(b / a);
  const CrossFadeState after = crossfade_at(f, a, b, 3.4);
  EXPECT_NEAR(after.to_time, (p_end + (3.4 - 2.9) / b) * b, 1e-12);
  // Continuous, with the rate of each side, at both ends of the fade.
  for (const double edge : {2.4, 2.9}) {
    const double h = 1e-7;
    const double lo = crossfade_at(f, a, b, edge - h).to_time / b;
    const double at = crossfade_at(f, a, b, edge).to_time / b;
    const double hi = crossfade_at(f, a, b, edge + h).to_time / b;
    EXPECT_NEAR(at - lo, hi - at, 1e-9) << edge;  // no jump, no kink beyond O(h^2)
    EXPECT_NEAR((hi - lo) / (2 * h), edge < 2.5 ? 1 / a : 1 / b, 1e-6) << edge;
  }
}

TEST(CrossFade, SyncWithEqualLengthsIsPlainTimeAndZeroLengthsFallBack) {
  const CrossFade f{1.0, 2.0, true};
  const CrossFadeState s = crossfade_at(f, 1.5, 1.5, 2.2);
  EXPECT_NEAR(s.from_time, 2.2, 1e-12);
  EXPECT_NEAR(s.to_time, 2.2, 1e-12);
  const CrossFadeState z = crossfade_at(f, 0.0, 1.5, 2.2);  // a zero-length FROM: no phase
  EXPECT_EQ(z.from_time, 2.2);
  EXPECT_NEAR(z.to_time, 1.2, 1e-12);
}

}  // namespace
}  // namespace sv
