// A layer sampled and blended in one pass (anim/blend.h's sample_blend), the base and a layer in
// one pass (sample_base_blend) and the additive reference made ready once (AdditiveReference), on
// a 5-joint skeleton (a group of 4 and one in a padded group) with clips built in code, against
// hand-computed poses; and against the two-step paths (sample_runtime into lanes, then
// blend_override / blend_additive or sample_blend) on random clips.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include <glm/gtc/quaternion.hpp>

#include "anim/blend.h"
#include "anim/clip.h"
#include "anim/clip_runtime.h"
#include "anim/local_lanes.h"
#include "anim/skeleton.h"
#include "test_util.h"

namespace sv {
namespace sample_blend_test {

const glm::vec3 kAxisX(1, 0, 0), kAxisZ(0, 0, 1);

glm::quat turn(float degrees, const glm::vec3& axis) {
  return glm::angleAxis(glm::radians(degrees), axis);
}

// 5 joints in a chain, rest: the identity.
Skeleton chain5() {
  Skeleton s;
  for (int j = 0; j < 5; ++j) {
    s.names.push_back("j" + std::to_string(j));
    s.parents.push_back(j - 1);
    s.rest.emplace_back();
    s.inverse_bind.emplace_back(1.0f);
    s.is_bone.push_back(1);
  }
  return s;
}

// A channel holding joint `joint` at (t, r, sc) over 1 s (two equal keys).
JointChannel held_channel(int32_t joint, glm::vec3 t, glm::quat r, glm::vec3 sc) {
  JointChannel ch;
  ch.joint = joint;
  ch.translation.times = ch.rotation.times = ch.scale.times = {0.0, 1.0};
  ch.translation.values = {t, t};
  ch.rotation.values = {r, r};
  ch.scale.values = {sc, sc};
  return ch;
}

// Joint `joint` held at (t, r, s) over 1 s; the other joints not keyed.
ClipRuntime held(const Skeleton& s, int32_t joint, glm::vec3 t, glm::quat r, glm::vec3 sc) {
  Clip c;
  c.name = "held";
  c.duration = 1.0;
  c.channels.push_back(held_channel(joint, t, r, sc));
  ClipRuntime rt;
  EXPECT_EQ(rt.build(c, s), "");
  return rt;
}

TEST(SampleBlend, TwoLayersOnATinySkeletonAtKnownWeights) {
  // Base: joint 2 at (4,0,0), 80 deg about Z, scale 3. Layer at 0.25: joint 2 at (0,8,0), 100 deg
  // about Z, scale 0.5: T (3, 2, 0), S 0.75 * 3 + 0.25 * 0.5 = 2.375, R 80 deg + phi(20, 0.25)
  // with phi(theta, w) = 2 atan(w sin(theta/2) / ((1 - w) + w cos(theta/2))) = 4.990463 deg
  // (blend.h's nlerp turn): 84.990463 deg. The other joints are keyed by neither clip: rest.
  const Skeleton s = chain5();
  const ClipRuntime base = held(s, 2, {4, 0, 0}, turn(80, kAxisZ), glm::vec3(3));
  const ClipRuntime over = held(s, 2, {0, 8, 0}, turn(100, kAxisZ), glm::vec3(0.5f));
  RuntimeCursor cb, co;
  cb.reset(base);
  co.reset(over);
  LocalLanes pose(5);
  ASSERT_TRUE(sample_runtime(base, 0.4, cb, pose));
  LayerBlend how;
  how.weight = 0.25f;
  how.keyed = over.keyed();
  ASSERT_TRUE(sample_blend(over, 0.7, co, how, pose));
  const Transform j2 = pose.get(2);
  EXPECT_NEAR_GLM(j2.translation, glm::vec3(3, 2, 0), 1e-6f);
  EXPECT_NEAR_GLM(j2.scale, glm::vec3(2.375f), 1e-6f);
  EXPECT_SAME_ROTATION(j2.rotation, turn(84.990463f, kAxisZ), 1e-6f);
  for (const std::size_t j : {0u, 1u, 3u, 4u}) {  // exactly the rest pose
    EXPECT_EQ(pose.get(j).translation, glm::vec3(0)) << j;
    EXPECT_EQ(pose.get(j).rotation, glm::quat(1, 0, 0, 0)) << j;
    EXPECT_EQ(pose.get(j).scale, glm::vec3(1)) << j;
  }
  // The mask as per-lane weights: joint 2 at 0 leaves the pose as it was, bit for bit.
  const std::array<float, 5> mask = {1, 1, 0, 1, 1};
  how.mask = mask;
  LocalLanes kept = pose;
  ASSERT_TRUE(sample_blend(over, 0.7, co, how, kept));
  EXPECT_EQ(kept.lanes, pose.lanes);
}

TEST(SampleBlend, AnAdditiveLayerAgainstItsPreparedReference) {
  // Below: joint 1 at (1,0,0), 20 deg about X, scale 2 (the base clip). The additive clip holds
  // joint 1 at (0,1.4,0), 30 deg about X, scale 1.2; its reference (another pose of the same
  // joint) at (0,1,0), unturned, scale 1 but 0 on Y. At 0.5: T (1,0.2,0), R 20 + 15 = 35 deg,
  // S x and z 2 * mix(1, 1.2, 0.5) = 2.2, y 2 (a reference scale of 0 counts as 1).
  const Skeleton s = chain5();
  const ClipRuntime base = held(s, 1, {1, 0, 0}, turn(20, kAxisX), glm::vec3(2));
  const ClipRuntime add = held(s, 1, {0, 1.4f, 0}, turn(30, kAxisX), glm::vec3(1.2f));
  LocalLanes reference(5);
  reference.set(1, test::trs({0, 1, 0}, glm::quat(1, 0, 0, 0), glm::vec3(1, 0, 1)));
  AdditiveReference ready;
  ready.prepare(reference);
  RuntimeCursor cb, ca;
  cb.reset(base);
  ca.reset(add);
  LocalLanes pose(5);
  ASSERT_TRUE(sample_runtime(base, 0.0, cb, pose));
  LayerBlend how;
  how.mode = BlendMode::Additive;
  how.weight = 0.5f;
  how.keyed = add.keyed();
  how.reference = &ready;
  ASSERT_TRUE(sample_blend(add, 0.5, ca, how, pose));
  const Transform j1 = pose.get(1);
  EXPECT_NEAR_GLM(j1.translation, glm::vec3(1, 0.2f, 0), 1e-6f);
  EXPECT_SAME_ROTATION(j1.rotation, turn(35, kAxisX), 1e-6f);
  EXPECT_NEAR_GLM(j1.scale, glm::vec3(2.2f, 2, 2.2f), 1e-6f);
  // No reference: refused, nothing written.
  how.reference = nullptr;
  const LocalLanes before = pose;
  EXPECT_FALSE(sample_blend(add, 0.5, ca, how, pose));
  EXPECT_EQ(pose.lanes, before.lanes);
}

TEST(SampleBlend, PreparedReferenceHoldsConjugatesAndReciprocals) {
  LocalLanes reference(2);
  reference.set(0, test::trs({1, 2, 3}, turn(40, kAxisZ), glm::vec3(2, 0.5f, 4)));
  const float inf = std::numeric_limits<float>::infinity();
  reference.set(1, test::trs({0, 0, 0}, turn(-10, kAxisX), glm::vec3(0, inf, 1e-39f)));
  AdditiveReference r;
  r.prepare(reference);
  ASSERT_TRUE(r.fits(2));
  EXPECT_EQ(r.pose.lanes, reference.lanes);
  EXPECT_EQ(r.ready.get(0).translation, glm::vec3(1, 2, 3));
  EXPECT_EQ(r.ready.get(0).rotation, glm::conjugate(turn(40, kAxisZ)));
  EXPECT_EQ(r.ready.get(0).scale, glm::vec3(0.5f, 2, 0.25f));
  // 1/0 and 1/1e-39 overflow, 1/inf is 0: no reciprocal in any (each axis then counts as 1).
  EXPECT_EQ(r.ready.get(1).scale, glm::vec3(0));
  EXPECT_EQ(r.ready.get(1).rotation, glm::conjugate(turn(-10, kAxisX)));
}

// 23 joints (5 full groups and one of 3), random parents.
Skeleton random_skeleton(std::mt19937& rng) {
  Skeleton s;
  for (int j = 0; j < 23; ++j) {
    s.names.push_back("j" + std::to_string(j));
    s.parents.push_back(j == 0 ? -1 : static_cast<int32_t>(rng() % static_cast<uint32_t>(j)));
    s.rest.emplace_back();
    s.inverse_bind.emplace_back(1.0f);
    s.is_bone.push_back(1);
  }
  return s;
}

// A clip keying every joint of `s` with 11 random keys.
ClipRuntime random_clip(const Skeleton& s, std::mt19937& rng, double duration) {
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  Clip c;
  c.name = "random";
  c.duration = duration;
  for (int j = 0; j < static_cast<int>(s.size()); ++j) {
    JointChannel ch;
    ch.joint = j;
    for (int k = 0; k <= 10; ++k) {
      const double t = duration * k / 10.0;
      ch.translation.times.push_back(t);
      ch.rotation.times.push_back(t);
      ch.scale.times.push_back(t);
      ch.translation.values.emplace_back(u(rng), u(rng), u(rng));
      ch.rotation.values.push_back(glm::normalize(glm::quat(u(rng), u(rng), u(rng), u(rng))));
      ch.scale.values.emplace_back(1 + 0.3f * u(rng), 1 + 0.3f * u(rng), 1 + 0.3f * u(rng));
    }
    c.channels.push_back(ch);
  }
  ClipRuntime rt;
  EXPECT_EQ(rt.build(c, s), "");
  return rt;
}

TEST(SampleBlend, AgreesWithSamplingThenBlendingOnRandomClips) {
  // 23 joints, two random clips keying every joint, a random mask; override and additive, on
  // every kernel set: one pass against sample_runtime into lanes then the blend.
  std::mt19937 rng(9u);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  const Skeleton s = random_skeleton(rng);
  const auto random_clip = [&](double duration) {
    return sample_blend_test::random_clip(s, rng, duration);
  };
  const ClipRuntime a = random_clip(1.0), b = random_clip(1.7);
  std::vector<float> mask(23);
  for (float& m : mask) m = 0.5f * (1.0f + u(rng));
  mask[5] = 0.0f;
  RuntimeCursor ca, cb, cr;
  ca.reset(a);
  cb.reset(b);
  cr.reset(b);
  LocalLanes raw(23);
  ASSERT_TRUE(sample_runtime(b, 0.3, cr, raw));
  AdditiveReference ready;
  ready.prepare(raw);
  for (const int isa : {0, 2})
    for (const BlendMode mode : {BlendMode::Override, BlendMode::Additive})
      for (const double t : {0.05, 0.61, 1.3}) {
        const int previous = detail::clip_runtime_max_isa(isa);
        LocalLanes two(23), one(23), layer(23);
        ASSERT_TRUE(sample_runtime(a, t, ca, two));
        one = two;
        ASSERT_TRUE(sample_runtime(b, t, cb, layer));
        ASSERT_TRUE(mode == BlendMode::Override
                        ? blend_override(two, layer, b.keyed(), mask, 0.6f)
                        : blend_additive(two, layer, raw, b.keyed(), mask, 0.6f));
        LayerBlend how;
        how.mode = mode;
        how.weight = 0.6f;
        how.keyed = b.keyed();
        how.mask = mask;
        how.reference = &ready;
        ASSERT_TRUE(sample_blend(b, t, cb, how, one));
        detail::clip_runtime_max_isa(previous);
        for (std::size_t j = 0; j < 23; ++j) {
          EXPECT_NEAR_GLM(one.get(j).translation, two.get(j).translation, 1e-6f) << j;
          EXPECT_SAME_ROTATION(one.get(j).rotation, two.get(j).rotation, 1e-6f) << j;
          EXPECT_NEAR_GLM(one.get(j).scale, two.get(j).scale, 1e-6f) << j;
        }
        EXPECT_EQ(one.get(5).rotation, two.get(5).rotation);  // masked out: the base's bits
      }
}

TEST(SampleBlend, WrongSizesAreRefused) {
  const Skeleton s = chain5();
  const ClipRuntime c = held(s, 0, {1, 0, 0}, glm::quat(1, 0, 0, 0), glm::vec3(1));
  RuntimeCursor cursor;
  cursor.reset(c);
  LocalLanes pose(5), wrong(4);
  LayerBlend how;
  EXPECT_FALSE(sample_blend(c, 0.5, cursor, how, wrong));
  const std::array<float, 4> short_mask = {1, 1, 1, 1};
  how.mask = short_mask;
  EXPECT_FALSE(sample_blend(c, 0.5, cursor, how, pose));
  how.mask = {};
  const std::array<uint8_t, 6> long_keyed = {};
  how.keyed = long_keyed;
  EXPECT_FALSE(sample_blend(c, 0.5, cursor, how, pose));
  how.keyed = {};
  RuntimeCursor unset;
  EXPECT_FALSE(sample_blend(c, 0.5, unset, how, pose));
  EXPECT_EQ(pose.get(0).translation, glm::vec3(0));  // nothing written
  ASSERT_TRUE(sample_blend(c, 0.5, cursor, how, pose));
  EXPECT_EQ(pose.get(0).translation, glm::vec3(1, 0, 0));
}

// The base at full weight and the first layer in one pass (sample_base_blend), on every kernel
// set (0 SSE2, 1 AVX2+FMA, 2 AVX-512 where the CPU has it; the samplers run the AVX2 blends).
constexpr std::array<int, 3> kIsas = {0, 1, 2};

TEST(SampleBaseBlend, AnOverrideLayerOnTheBaseAtKnownWeights) {
  // TwoLayersOnATinySkeletonAtKnownWeights' clips and weight, the base sampled in the same pass:
  // joint 2 at T (3, 2, 0), S 2.375, R 84.990463 deg about Z; the other joints at rest.
  const Skeleton s = chain5();
  const ClipRuntime base = held(s, 2, {4, 0, 0}, turn(80, kAxisZ), glm::vec3(3));
  const ClipRuntime over = held(s, 2, {0, 8, 0}, turn(100, kAxisZ), glm::vec3(0.5f));
  for (const int isa : kIsas) {
    const int previous = detail::clip_runtime_max_isa(isa);
    RuntimeCursor cb, co;
    cb.reset(base);
    co.reset(over);
    LocalLanes pose(5);
    pose.set(2, test::trs({9, 9, 9}, turn(5, kAxisX), glm::vec3(7)));  // replaced by the base
    LayerBlend how;
    how.weight = 0.25f;
    how.keyed = over.keyed();
    ASSERT_TRUE(sample_base_blend(base, 0.4, cb, over, 0.7, co, how, pose));
    detail::clip_runtime_max_isa(previous);
    const Transform j2 = pose.get(2);
    EXPECT_NEAR_GLM(j2.translation, glm::vec3(3, 2, 0), 1e-6f) << isa;
    EXPECT_NEAR_GLM(j2.scale, glm::vec3(2.375f), 1e-6f) << isa;
    EXPECT_SAME_ROTATION(j2.rotation, turn(84.990463f, kAxisZ), 1e-6f) << isa;
    for (const std::size_t j : {0u, 1u, 3u, 4u}) {  // exactly the rest pose
      EXPECT_EQ(pose.get(j).translation, glm::vec3(0)) << j;
      EXPECT_EQ(pose.get(j).rotation, glm::quat(1, 0, 0, 0)) << j;
      EXPECT_EQ(pose.get(j).scale, glm::vec3(1)) << j;
    }
  }
}

TEST(SampleBaseBlend, AnAdditiveLayerAtFullWeightOnTheBase) {
  // Base: joint 1 at (1,0,0), 20 deg about X, scale 2; joint 4 (the padded group) at (0,0,3),
  // 90 deg about Y, scale 1. The additive clip: joint 1 at (0,1.4,0), rotation
  // turn(10, Z) * turn(30, X), scale 1.2; joint 4 at (1,1,1), turn(40, Y), scale 3. Its
  // reference: joint 1 at (0,1,0), turn(10, Z), scale (1, 0, 1); joint 4 at (1,0,1), identity,
  // scale 2. At weight 1:
  //   joint 1: T (1,0,0) + (0,0.4,0) = (1,0.4,0); R turn(20, X) * conj(turn(10, Z)) * turn(10, Z)
  //            * turn(30, X) = 50 deg about X (the reference's conjugate on the left: on the right
  //            it would give turn(20, X) * turn(10, Z) * turn(30, X) * turn(-10, Z), not about X);
  //            S x and z 2 * 1.2 = 2.4, y 2 (a reference scale of 0 counts as 1).
  //   joint 4: T (0,0,3) + (0,1,0) = (0,1,3); R 90 + 40 = 130 deg about Y; S 1 * 3 / 2 = 1.5.
  const Skeleton s = chain5();
  Clip bc, ac;
  bc.name = ac.name = "two joints";
  bc.duration = ac.duration = 1.0;
  const auto hold = [](Clip& c, int32_t joint, glm::vec3 t, glm::quat r, glm::vec3 sc) {
    c.channels.push_back(held_channel(joint, t, r, sc));
  };
  hold(bc, 1, {1, 0, 0}, turn(20, kAxisX), glm::vec3(2));
  hold(bc, 4, {0, 0, 3}, turn(90, glm::vec3(0, 1, 0)), glm::vec3(1));
  hold(ac, 1, {0, 1.4f, 0}, turn(10, kAxisZ) * turn(30, kAxisX), glm::vec3(1.2f));
  hold(ac, 4, {1, 1, 1}, turn(40, glm::vec3(0, 1, 0)), glm::vec3(3));
  ClipRuntime base, add;
  ASSERT_EQ(base.build(bc, s), "");
  ASSERT_EQ(add.build(ac, s), "");
  LocalLanes reference(5);
  reference.set(1, test::trs({0, 1, 0}, turn(10, kAxisZ), glm::vec3(1, 0, 1)));
  reference.set(4, test::trs({1, 0, 1}, glm::quat(1, 0, 0, 0), glm::vec3(2)));
  AdditiveReference ready;
  ready.prepare(reference);
  for (const int isa : kIsas) {
    const int previous = detail::clip_runtime_max_isa(isa);
    RuntimeCursor cb, ca;
    cb.reset(base);
    ca.reset(add);
    LocalLanes pose(5);
    LayerBlend how;
    how.mode = BlendMode::Additive;
    how.weight = 1.0f;
    how.keyed = add.keyed();
    how.reference = &ready;
    ASSERT_TRUE(sample_base_blend(base, 0.25, cb, add, 0.5, ca, how, pose));
    detail::clip_runtime_max_isa(previous);
    const Transform j1 = pose.get(1), j4 = pose.get(4);
    EXPECT_NEAR_GLM(j1.translation, glm::vec3(1, 0.4f, 0), 1e-6f) << isa;
    EXPECT_SAME_ROTATION(j1.rotation, turn(50, kAxisX), 1e-6f) << isa;
    EXPECT_NEAR_GLM(j1.scale, glm::vec3(2.4f, 2, 2.4f), 1e-6f) << isa;
    EXPECT_NEAR_GLM(j4.translation, glm::vec3(0, 1, 3), 1e-6f) << isa;
    EXPECT_SAME_ROTATION(j4.rotation, turn(130, glm::vec3(0, 1, 0)), 1e-6f) << isa;
    EXPECT_NEAR_GLM(j4.scale, glm::vec3(1.5f), 1e-6f) << isa;
    for (const std::size_t j : {0u, 2u, 3u}) {  // keyed by neither clip: exactly the rest pose
      EXPECT_EQ(pose.get(j).translation, glm::vec3(0)) << j;
      EXPECT_EQ(pose.get(j).rotation, glm::quat(1, 0, 0, 0)) << j;
      EXPECT_EQ(pose.get(j).scale, glm::vec3(1)) << j;
    }
  }
}

TEST(SampleBaseBlend, AgreesWithTheTwoStepsOnRandomClips) {
  // sample_base_blend against sample_runtime(base) then sample_blend(layer), override and
  // additive, with and without a mask, at weights 0.6 and 1, on every kernel set. A joint the
  // mask leaves out (5) and a whole group of them (12..15) keep the base's sample bit for bit.
  std::mt19937 rng(31u);
  std::uniform_real_distribution<float> u(0.0f, 1.0f);
  const Skeleton s = random_skeleton(rng);
  const ClipRuntime a = random_clip(s, rng, 1.0), b = random_clip(s, rng, 1.7);
  std::vector<float> mask(23);
  for (float& m : mask) m = u(rng);
  mask[5] = 0.0f;
  for (std::size_t j = 12; j < 16; ++j) mask[j] = 0.0f;
  RuntimeCursor cr;
  cr.reset(b);
  LocalLanes raw(23);
  ASSERT_TRUE(sample_runtime(b, 0.3, cr, raw));
  AdditiveReference ready;
  ready.prepare(raw);
  for (const int isa : kIsas)
    for (const BlendMode mode : {BlendMode::Override, BlendMode::Additive})
      for (const bool masked : {false, true})
        for (const float weight : {0.6f, 1.0f})
          for (const double t : {0.05, 0.61, 1.3}) {
            const int previous = detail::clip_runtime_max_isa(isa);
            RuntimeCursor ca1, cb1, ca2, cb2;
            ca1.reset(a);
            cb1.reset(b);
            ca2.reset(a);
            cb2.reset(b);
            LayerBlend how;
            how.mode = mode;
            how.weight = weight;
            how.keyed = b.keyed();
            if (masked) how.mask = mask;
            how.reference = &ready;
            LocalLanes two(23), one(23), base_only(23);
            ASSERT_TRUE(sample_runtime(a, t, ca2, two));
            base_only = two;
            ASSERT_TRUE(sample_blend(b, t + 0.2, cb2, how, two));
            ASSERT_TRUE(sample_base_blend(a, t, ca1, b, t + 0.2, cb1, how, one));
            detail::clip_runtime_max_isa(previous);
            for (std::size_t j = 0; j < 23; ++j) {
              EXPECT_NEAR_GLM(one.get(j).translation, two.get(j).translation, 1e-6f) << j;
              EXPECT_SAME_ROTATION(one.get(j).rotation, two.get(j).rotation, 1e-6f) << j;
              EXPECT_NEAR_GLM(one.get(j).scale, two.get(j).scale, 1e-6f) << j;
            }
            if (masked)
              for (const std::size_t j : {5u, 12u, 13u, 14u, 15u}) {
                EXPECT_EQ(one.get(j).translation, base_only.get(j).translation) << j;
                EXPECT_EQ(one.get(j).rotation, base_only.get(j).rotation) << j;
                EXPECT_EQ(one.get(j).scale, base_only.get(j).scale) << j;
              }
            // The cursors moved the same way.
            EXPECT_EQ(ca1.keys, ca2.keys);
            EXPECT_EQ(cb1.keys, cb2.keys);
          }
}

TEST(SampleBaseBlend, AWeightOfZeroIsTheBaseAlone) {
  std::mt19937 rng(5u);
  const Skeleton s = random_skeleton(rng);
  const ClipRuntime a = random_clip(s, rng, 1.0), b = random_clip(s, rng, 1.7);
  RuntimeCursor ca, cb, cs;
  ca.reset(a);
  cb.reset(b);
  cs.reset(a);
  LocalLanes pose(23), alone(23);
  LayerBlend how;
  how.weight = 0.0f;
  ASSERT_TRUE(sample_base_blend(a, 0.4, ca, b, 0.9, cb, how, pose));
  ASSERT_TRUE(sample_runtime(a, 0.4, cs, alone));
  EXPECT_EQ(pose.lanes, alone.lanes);
}

TEST(SampleBaseBlend, WrongSizesAreRefused) {
  const Skeleton s = chain5();
  const ClipRuntime base = held(s, 0, {1, 0, 0}, glm::quat(1, 0, 0, 0), glm::vec3(1));
  const ClipRuntime c = held(s, 0, {0, 2, 0}, glm::quat(1, 0, 0, 0), glm::vec3(1));
  Skeleton four = chain5();
  four.names.pop_back();
  four.parents.pop_back();
  four.rest.pop_back();
  four.inverse_bind.pop_back();
  four.is_bone.pop_back();
  const ClipRuntime short_clip = held(four, 0, {0, 2, 0}, glm::quat(1, 0, 0, 0), glm::vec3(1));
  RuntimeCursor cb, cc, cs, unset;
  cb.reset(base);
  cc.reset(c);
  cs.reset(short_clip);
  LocalLanes pose(5), wrong(4);
  LayerBlend how;
  how.weight = 0.5f;
  EXPECT_FALSE(sample_base_blend(base, 0.5, cb, c, 0.5, cc, how, wrong));
  EXPECT_FALSE(sample_base_blend(base, 0.5, cb, short_clip, 0.5, cs, how, pose));  // 4 joints
  EXPECT_FALSE(sample_base_blend(base, 0.5, unset, c, 0.5, cc, how, pose));
  EXPECT_FALSE(sample_base_blend(base, 0.5, cb, c, 0.5, unset, how, pose));
  RuntimeCursor both;  // one cursor for two clips of one layout: refused
  both.reset(c);
  EXPECT_FALSE(sample_base_blend(c, 0.5, both, c, 0.5, both, how, pose));
  const std::array<float, 4> short_mask = {1, 1, 1, 1};
  how.mask = short_mask;
  EXPECT_FALSE(sample_base_blend(base, 0.5, cb, c, 0.5, cc, how, pose));
  how.mask = {};
  const std::array<uint8_t, 6> long_keyed = {};
  how.keyed = long_keyed;
  EXPECT_FALSE(sample_base_blend(base, 0.5, cb, c, 0.5, cc, how, pose));
  how.keyed = {};
  how.mode = BlendMode::Additive;  // no reference
  EXPECT_FALSE(sample_base_blend(base, 0.5, cb, c, 0.5, cc, how, pose));
  EXPECT_EQ(pose.get(0).translation, glm::vec3(0));  // nothing written
  how.mode = BlendMode::Override;
  ASSERT_TRUE(sample_base_blend(base, 0.5, cb, c, 0.5, cc, how, pose));
  EXPECT_EQ(pose.get(0).translation, glm::vec3(0.5f, 1, 0));
}

}  // namespace sample_blend_test
}  // namespace sv
