// Sampling: wrap_time, slerp_shortest, sample_track (step / linear / cubic spline, glTF 2.0),
// the sampling cursor, rest_pose and sample_clip. Every expectation is worked out by hand in the
// comment beside it.
#include "anim/sample.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include <glm/gtc/constants.hpp>

#include "anim/skeleton.h"
#include "test_util.h"

namespace sv {
namespace {

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
const glm::vec3 kZ{0.0f, 0.0f, 1.0f};

glm::quat rot_z(float degrees) { return glm::angleAxis(glm::radians(degrees), kZ); }

Track<glm::vec3> vec_track(Interpolation interp, std::vector<float> times,
                           std::vector<glm::vec3> values) {
  Track<glm::vec3> t;
  t.interpolation = interp;
  t.times = std::move(times);
  t.values = std::move(values);
  return t;
}

Track<glm::quat> quat_track(Interpolation interp, std::vector<float> times,
                            std::vector<glm::quat> values) {
  Track<glm::quat> t;
  t.interpolation = interp;
  t.times = std::move(times);
  t.values = std::move(values);
  return t;
}

// --- wrap_time -----------------------------------------------------------------------------

TEST(WrapTime, LoopWrapsIntoHalfOpenRange) {
  EXPECT_EQ(wrap_time(0.0f, 4.0f, true), 0.0f);
  EXPECT_EQ(wrap_time(2.5f, 4.0f, true), 2.5f);
  EXPECT_EQ(wrap_time(4.0f, 4.0f, true), 0.0f);  // t == duration is the start again
  EXPECT_EQ(wrap_time(5.0f, 4.0f, true), 1.0f);  // 5 - 4
  EXPECT_EQ(wrap_time(9.0f, 4.0f, true), 1.0f);  // 9 - 2*4
  EXPECT_EQ(wrap_time(8.0f, 4.0f, true), 0.0f);
}

TEST(WrapTime, NegativeTimeWrapsFromTheEnd) {
  EXPECT_EQ(wrap_time(-1.0f, 4.0f, true), 3.0f);  // 4 - 1
  EXPECT_EQ(wrap_time(-4.0f, 4.0f, true), 0.0f);
  EXPECT_EQ(wrap_time(-9.0f, 4.0f, true), 3.0f);  // fmod(-9,4) = -1 -> 3
  // fmod gives -1e-9, and -1e-9 + 4 rounds to 4.0f: must still land in [0, 4).
  const float tiny = wrap_time(-1e-9f, 4.0f, true);
  EXPECT_GE(tiny, 0.0f);
  EXPECT_LT(tiny, 4.0f);
}

TEST(WrapTime, NoLoopClamps) {
  EXPECT_EQ(wrap_time(5.0f, 4.0f, false), 4.0f);
  EXPECT_EQ(wrap_time(4.0f, 4.0f, false), 4.0f);  // the end is reachable without looping
  EXPECT_EQ(wrap_time(-1.0f, 4.0f, false), 0.0f);
  EXPECT_EQ(wrap_time(2.5f, 4.0f, false), 2.5f);
  EXPECT_EQ(wrap_time(std::numeric_limits<float>::infinity(), 4.0f, false), 4.0f);
}

TEST(WrapTime, DegenerateInputsGiveZero) {
  EXPECT_EQ(wrap_time(kNaN, 4.0f, true), 0.0f);
  EXPECT_EQ(wrap_time(kNaN, 4.0f, false), 0.0f);
  EXPECT_EQ(wrap_time(3.0f, 0.0f, true), 0.0f);
  EXPECT_EQ(wrap_time(3.0f, 0.0f, false), 0.0f);
  EXPECT_EQ(wrap_time(3.0f, kNaN, true), 0.0f);
  EXPECT_EQ(wrap_time(std::numeric_limits<float>::infinity(), 4.0f, true), 0.0f);
}

// --- slerp_shortest ------------------------------------------------------------------------

TEST(Slerp, EndpointsAndMidpoint) {
  const glm::quat a(1.0f, 0.0f, 0.0f, 0.0f);  // identity
  const glm::quat b = rot_z(90.0f);           // (w cos45, z sin45)
  EXPECT_NEAR_GLM(slerp_shortest(a, b, 0.0f), a, 1e-6f);
  EXPECT_NEAR_GLM(slerp_shortest(a, b, 1.0f), b, 1e-6f);
  // Half of 90 deg about Z is 45 deg: (cos 22.5, 0, 0, sin 22.5) = (0.9238795, 0, 0, 0.3826834).
  EXPECT_NEAR_GLM(slerp_shortest(a, b, 0.5f), glm::quat(0.9238795f, 0.0f, 0.0f, 0.3826834f), 1e-6f);
  // Constant speed: a quarter of the way is 22.5 deg, (cos 11.25, sin 11.25).
  EXPECT_NEAR_GLM(slerp_shortest(a, b, 0.25f), glm::quat(0.9807853f, 0.0f, 0.0f, 0.1950903f),
                  1e-6f);
}

TEST(Slerp, TakesTheShortArcAcrossTheHemisphere) {
  // -q is the same rotation as q. From identity to -(90 deg about Z) the short way is still
  // +45 deg at the midpoint; the long way (no negation) would give (0.3827, 0, 0, -0.9239),
  // a -135 deg turn.
  const glm::quat a(1.0f, 0.0f, 0.0f, 0.0f);
  const glm::quat b = -rot_z(90.0f);
  EXPECT_NEAR_GLM(slerp_shortest(a, b, 0.5f), glm::quat(0.9238795f, 0.0f, 0.0f, 0.3826834f), 1e-6f);

  // 170 deg and -170 deg about Z are 20 deg apart through 180 deg: dot = cos(170 deg) < 0.
  // Midpoint of the short arc: 180 deg about Z, taking +X to -X. The long arc passes through
  // identity and would leave +X where it is.
  const glm::quat c = rot_z(170.0f);
  const glm::quat d = rot_z(-170.0f);
  ASSERT_LT(glm::dot(c, d), 0.0f);
  const glm::quat mid = slerp_shortest(c, d, 0.5f);
  EXPECT_NEAR(glm::length(mid), 1.0f, 1e-6f);
  EXPECT_VEC_NEAR(mid * glm::vec3(1, 0, 0), glm::vec3(-1, 0, 0), 1e-6f);
}

TEST(Slerp, NearlyEqualFallsBackToNormalisedLerp) {
  // 0.01 rad apart: dot = cos(0.005) > 0.9995, the nlerp path. Halfway is 0.005 rad.
  const glm::quat a = glm::angleAxis(0.0f, kZ);
  const glm::quat b = glm::angleAxis(0.01f, kZ);
  const glm::quat m = slerp_shortest(a, b, 0.5f);
  EXPECT_NEAR(glm::length(m), 1.0f, 1e-6f);
  EXPECT_NEAR_GLM(m, glm::angleAxis(0.005f, kZ), 1e-6f);
  EXPECT_NEAR_GLM(slerp_shortest(a, a, 0.3f), a, 0.0f);
}

// --- linear vec3 tracks --------------------------------------------------------------------

// Keys at t = 1, 2, 4 with values (0,0,0), (10,0,0), (10,20,0).
Track<glm::vec3> linear_track() {
  return vec_track(Interpolation::Linear, {1.0f, 2.0f, 4.0f}, {{0, 0, 0}, {10, 0, 0}, {10, 20, 0}});
}

TEST(SampleVec3, ExactlyOnKeys) {
  const auto tr = linear_track();
  EXPECT_VEC_NEAR(sample_track(tr, 1.0f, nullptr), glm::vec3(0, 0, 0), 0.0f);
  EXPECT_VEC_NEAR(sample_track(tr, 2.0f, nullptr), glm::vec3(10, 0, 0), 0.0f);
  EXPECT_VEC_NEAR(sample_track(tr, 4.0f, nullptr), glm::vec3(10, 20, 0), 0.0f);
}

TEST(SampleVec3, BeforeFirstAndAfterLastHold) {
  const auto tr = linear_track();
  EXPECT_VEC_NEAR(sample_track(tr, 0.5f, nullptr), glm::vec3(0, 0, 0), 0.0f);    // first value
  EXPECT_VEC_NEAR(sample_track(tr, -3.0f, nullptr), glm::vec3(0, 0, 0), 0.0f);   // first value
  EXPECT_VEC_NEAR(sample_track(tr, 5.0f, nullptr), glm::vec3(10, 20, 0), 0.0f);  // last value
  EXPECT_VEC_NEAR(sample_track(tr, kNaN, nullptr), glm::vec3(0, 0, 0), 0.0f);    // NaN: first
}

TEST(SampleVec3, LerpBetweenKeys) {
  const auto tr = linear_track();
  // t = 1.25: alpha = (1.25-1)/(2-1) = 0.25 -> 0.25 * (10,0,0) = (2.5,0,0).
  EXPECT_VEC_NEAR(sample_track(tr, 1.25f, nullptr), glm::vec3(2.5f, 0, 0), 1e-6f);
  // t = 3: alpha = (3-2)/(4-2) = 0.5 -> (10,0,0) + 0.5 * (0,20,0) = (10,10,0).
  EXPECT_VEC_NEAR(sample_track(tr, 3.0f, nullptr), glm::vec3(10, 10, 0), 1e-6f);
}

TEST(SampleVec3, LoopWrapAtDurationReturnsToStart) {
  const auto tr = linear_track();
  // A looping clip of duration 4 at t = 4 plays time 0, before the first key: (0,0,0), not the
  // last key's (10,20,0).
  EXPECT_VEC_NEAR(sample_track(tr, wrap_time(4.0f, 4.0f, true), nullptr), glm::vec3(0), 0.0f);
  // t = 7 wraps to 3: (10,10,0) as above. t = -1 wraps to 3 too.
  EXPECT_VEC_NEAR(sample_track(tr, wrap_time(7.0f, 4.0f, true), nullptr), glm::vec3(10, 10, 0),
                  1e-6f);
  EXPECT_VEC_NEAR(sample_track(tr, wrap_time(-1.0f, 4.0f, true), nullptr), glm::vec3(10, 10, 0),
                  1e-6f);
  // Not looping, t = 7 clamps to 4: the last value.
  EXPECT_VEC_NEAR(sample_track(tr, wrap_time(7.0f, 4.0f, false), nullptr), glm::vec3(10, 20, 0),
                  0.0f);
}

TEST(SampleVec3, StepHoldsTheKeyAtOrBefore) {
  const auto tr =
      vec_track(Interpolation::Step, {0.0f, 1.0f, 2.0f}, {{1, 0, 0}, {2, 0, 0}, {3, 0, 0}});
  EXPECT_VEC_NEAR(sample_track(tr, 0.0f, nullptr), glm::vec3(1, 0, 0), 0.0f);
  EXPECT_VEC_NEAR(sample_track(tr, 0.99f, nullptr), glm::vec3(1, 0, 0), 0.0f);
  EXPECT_VEC_NEAR(sample_track(tr, 1.0f, nullptr), glm::vec3(2, 0, 0), 0.0f);  // on key 1
  EXPECT_VEC_NEAR(sample_track(tr, 1.5f, nullptr), glm::vec3(2, 0, 0), 0.0f);
  EXPECT_VEC_NEAR(sample_track(tr, 2.0f, nullptr), glm::vec3(3, 0, 0), 0.0f);
  EXPECT_VEC_NEAR(sample_track(tr, 3.0f, nullptr), glm::vec3(3, 0, 0), 0.0f);
}

// Two cubic keys at t = 0 and t = 2 (td = 2), stored (in-tangent, value, out-tangent) per key.
// The first key's in-tangent and the last key's out-tangent are never used: 99s catch misuse.
Track<glm::vec3> cubic_track() {
  return vec_track(Interpolation::CubicSpline, {0.0f, 2.0f},
                   {{99, 99, 99},
                    {0, 2, 0},
                    {1, 0, -2},  // key 0: a0, v0, b0
                    {3, 0, 4},
                    {4, 2, 0},
                    {99, 99, 99}});  // key 1: a1, v1, b1
}

TEST(SampleVec3, CubicSplineHermite) {
  const auto tr = cubic_track();
  // p(s) = h00 v0 + h10 td b0 + h01 v1 + h11 td a1, s = (t - t0)/td.
  // t = 1: s = 0.5; h00 = 2/8 - 3/4 + 1 = 0.5, h10 = 1/8 - 2/4 + 1/2 = 0.125, h01 = 0.5,
  // h11 = 1/8 - 1/4 = -0.125. With td = 2: weights 0.5, 0.25, 0.5, -0.25.
  //   x = 0.25*1 + 0.5*4 - 0.25*3 = 1.5; y = 0.5*2 + 0.5*2 = 2; z = 0.25*(-2) - 0.25*4 = -1.5.
  EXPECT_VEC_NEAR(sample_track(tr, 1.0f, nullptr), glm::vec3(1.5f, 2.0f, -1.5f), 1e-6f);
  // t = 0.5: s = 0.25, s^2 = 0.0625, s^3 = 0.015625; h00 = 0.84375, h10 = 0.140625,
  // h01 = 0.15625, h11 = -0.046875; times td: 0.28125 and -0.09375.
  //   x = 0.28125*1 + 0.15625*4 - 0.09375*3 = 0.625; y = (0.84375 + 0.15625)*2 = 2;
  //   z = 0.28125*(-2) - 0.09375*4 = -0.9375.
  EXPECT_VEC_NEAR(sample_track(tr, 0.5f, nullptr), glm::vec3(0.625f, 2.0f, -0.9375f), 1e-6f);
  // On, before and after the keys: the middle (value) entries.
  EXPECT_VEC_NEAR(sample_track(tr, 0.0f, nullptr), glm::vec3(0, 2, 0), 0.0f);
  EXPECT_VEC_NEAR(sample_track(tr, -1.0f, nullptr), glm::vec3(0, 2, 0), 0.0f);
  EXPECT_VEC_NEAR(sample_track(tr, 2.0f, nullptr), glm::vec3(4, 2, 0), 0.0f);
  EXPECT_VEC_NEAR(sample_track(tr, 3.0f, nullptr), glm::vec3(4, 2, 0), 0.0f);
}

TEST(SampleVec3, OneKeyTrackHoldsItsValue) {
  const auto lin = vec_track(Interpolation::Linear, {3.0f}, {{1, 2, 3}});
  const auto cub = vec_track(Interpolation::CubicSpline, {3.0f}, {{9, 9, 9}, {1, 2, 3}, {9, 9, 9}});
  for (float t : {0.0f, 3.0f, 10.0f}) {
    EXPECT_VEC_NEAR(sample_track(lin, t, nullptr), glm::vec3(1, 2, 3), 0.0f);
    EXPECT_VEC_NEAR(sample_track(cub, t, nullptr), glm::vec3(1, 2, 3), 0.0f);
  }
}

// --- quaternion tracks ---------------------------------------------------------------------

TEST(SampleQuat, LinearSlerpsTheShortArc) {
  // Keys 0 deg at t=0 and -(90 deg) at t=1 (stored with the opposite sign): t = 0.5 is +45 deg.
  const auto tr = quat_track(Interpolation::Linear, {0.0f, 1.0f}, {rot_z(0.0f), -rot_z(90.0f)});
  EXPECT_NEAR_GLM(sample_track(tr, 0.5f, nullptr), glm::quat(0.9238795f, 0, 0, 0.3826834f), 1e-6f);
}

TEST(SampleQuat, StepHolds) {
  const auto tr = quat_track(Interpolation::Step, {0.0f, 1.0f}, {rot_z(0.0f), rot_z(90.0f)});
  EXPECT_NEAR_GLM(sample_track(tr, 0.999f, nullptr), rot_z(0.0f), 0.0f);
  EXPECT_NEAR_GLM(sample_track(tr, 1.0f, nullptr), rot_z(90.0f), 0.0f);
}

TEST(SampleQuat, CubicIsNormalised) {
  // Keys at t = 0 and 1 (td = 1): v0 = identity (w=1), v1 = 180 deg about Z (z=1),
  // out-tangent b0 = (w 0, z 2), in-tangent a1 = 0. At s = 0.5 the weights are h00 = h01 = 0.5,
  // h10 = 0.125, h11 = -0.125: raw = 0.5*(1,0,0,0) + 0.125*(0,0,0,2) + 0.5*(0,0,0,1)
  // = (w 0.5, z 0.75), length sqrt(0.25 + 0.5625) = 0.9013878 -> (w 0.5547002, z 0.8320503).
  const glm::quat zero(0.0f, 0.0f, 0.0f, 0.0f);
  const auto tr = quat_track(Interpolation::CubicSpline, {0.0f, 1.0f},
                             {zero, glm::quat(1, 0, 0, 0), glm::quat(0, 0, 0, 2),  //
                              zero, glm::quat(0, 0, 0, 1), zero});
  const glm::quat q = sample_track(tr, 0.5f, nullptr);
  EXPECT_NEAR(glm::length(q), 1.0f, 1e-6f);
  EXPECT_NEAR_GLM(q, glm::quat(0.5547002f, 0, 0, 0.8320503f), 1e-6f);
}

// --- the cursor ----------------------------------------------------------------------------

std::vector<float> random_times(std::mt19937& rng, int n) {
  std::uniform_real_distribution<float> gap(0.01f, 0.2f);
  std::vector<float> t(static_cast<std::size_t>(n));
  float acc = 0.3f;
  for (float& x : t) x = acc += gap(rng);
  return t;
}

TEST(SamplingCursor, SameResultsAsBinarySearch) {
  std::mt19937 rng(12345);
  std::uniform_real_distribution<float> unit(-1.0f, 1.0f);
  const std::vector<float> times = random_times(rng, 64);
  std::vector<glm::vec3> vals;
  std::vector<glm::quat> quats;
  for (std::size_t i = 0; i < 3 * times.size(); ++i) {
    vals.emplace_back(unit(rng), unit(rng), unit(rng));
    quats.push_back(glm::normalize(glm::quat(unit(rng), unit(rng), unit(rng), unit(rng))));
  }
  const float end = times.back() + 0.5f;

  for (Interpolation interp :
       {Interpolation::Step, Interpolation::Linear, Interpolation::CubicSpline}) {
    Track<glm::vec3> tv = vec_track(interp, times, vals);
    Track<glm::quat> tq = quat_track(interp, times, quats);
    tv.values.resize(tv.expected_values());
    tq.values.resize(tq.expected_values());

    std::vector<float> ts;
    for (float t = 0.0f; t < end; t += 1.0f / 60.0f) ts.push_back(t);  // forward
    for (float t = end; t > 0.0f; t -= 0.37f) ts.push_back(t);         // backward jumps
    std::uniform_real_distribution<float> seek(-0.5f, end + 0.5f);
    for (int i = 0; i < 500; ++i) ts.push_back(seek(rng));  // random seeks
    for (float t : times) ts.push_back(t);                  // on keys

    uint32_t cv = 0, cq = 0;
    for (float t : ts) {
      const glm::vec3 a = sample_track(tv, t, &cv);
      const glm::vec3 b = sample_track(tv, t, nullptr);
      ASSERT_EQ(a, b) << "t=" << t;
      const glm::quat qa = sample_track(tq, t, &cq);
      const glm::quat qb = sample_track(tq, t, nullptr);
      ASSERT_EQ(qa, qb) << "t=" << t;
      ASSERT_LE(cv, times.size() - 2);
    }
  }
}

TEST(SamplingCursor, RemembersTheSegmentAndSurvivesGarbage) {
  const auto tr = linear_track();  // keys 1, 2, 4: segments [1,2) = 0 and [2,4) = 1
  uint32_t c = 0;
  EXPECT_VEC_NEAR(sample_track(tr, 3.0f, &c), glm::vec3(10, 10, 0), 1e-6f);
  EXPECT_EQ(c, 1u);
  EXPECT_VEC_NEAR(sample_track(tr, 1.5f, &c), glm::vec3(5, 0, 0), 1e-6f);  // backwards
  EXPECT_EQ(c, 0u);
  c = 1000000;  // a stale cursor from another clip must not be trusted
  EXPECT_VEC_NEAR(sample_track(tr, 3.0f, &c), glm::vec3(10, 10, 0), 1e-6f);
  EXPECT_EQ(c, 1u);
}

// --- rest_pose and sample_clip -------------------------------------------------------------

// Two joints with distinctive rest transforms.
Skeleton two_joint_skeleton() {
  Skeleton s;
  s.names = {"root", "child"};
  s.parents = {kNoParent, 0};
  Transform r0, r1;
  r0.translation = {5, 0, 0};
  r0.scale = {2, 2, 2};
  r1.translation = {0, 3, 0};
  r1.rotation = rot_z(30.0f);
  r1.scale = {1, 4, 1};
  s.rest = {r0, r1};
  s.inverse_bind = {glm::mat4(1.0f), glm::mat4(1.0f)};
  s.is_bone = {1, 1};
  return s;
}

bool same(const Transform& a, const Transform& b) {
  return a.translation == b.translation && a.rotation == b.rotation && a.scale == b.scale;
}

TEST(SampleClip, ChannelsOverwriteOnlyAnimatedComponents) {
  const Skeleton s = two_joint_skeleton();
  Clip clip;
  clip.name = "turn";
  clip.duration = 1.0f;
  JointChannel ch;
  ch.joint = 1;  // rotation only: translation and scale stay at rest; joint 0 has no channel
  ch.rotation = quat_track(Interpolation::Linear, {0.0f, 1.0f}, {rot_z(0.0f), rot_z(90.0f)});
  clip.channels.push_back(std::move(ch));

  std::vector<Transform> out(2);
  ASSERT_TRUE(sample_clip(clip, s, 0.5f, out));
  EXPECT_TRUE(same(out[0], s.rest[0]));
  EXPECT_EQ(out[1].translation, s.rest[1].translation);
  EXPECT_EQ(out[1].scale, s.rest[1].scale);
  EXPECT_NEAR_GLM(out[1].rotation, rot_z(45.0f), 1e-6f);  // half of 0 -> 90

  // With a cursor: same answer.
  SamplingCursor cursor;
  cursor.reset(clip);
  EXPECT_EQ(cursor.keys.size(), 3u);
  std::vector<Transform> out2(2);
  ASSERT_TRUE(sample_clip(clip, s, 0.5f, out2, &cursor));
  EXPECT_TRUE(same(out[1], out2[1]));
}

TEST(SampleClip, RestPoseCopiesRest) {
  const Skeleton s = two_joint_skeleton();
  std::vector<Transform> out(2);
  ASSERT_TRUE(rest_pose(s, out));
  EXPECT_TRUE(same(out[0], s.rest[0]));
  EXPECT_TRUE(same(out[1], s.rest[1]));
}

// Fills with a recognisable transform that no code path produces.
Transform sentinel() {
  Transform t;
  t.translation = glm::vec3(-777.0f);
  t.scale = glm::vec3(-555.0f);
  return t;
}

TEST(SampleClip, RefusesWhatDoesNotFitAndWritesNothing) {
  const Skeleton s = two_joint_skeleton();
  Clip clip;
  clip.duration = 1.0f;
  JointChannel ch;
  ch.joint = 1;
  ch.translation = vec_track(Interpolation::Linear, {0.0f, 1.0f}, {{0, 0, 0}, {1, 0, 0}});
  clip.channels.push_back(std::move(ch));

  // Output one joint short, inside a larger buffer: nothing written, even past the span.
  std::vector<Transform> buf(3, sentinel());
  EXPECT_FALSE(sample_clip(clip, s, 0.5f, std::span<Transform>(buf).first(1)));
  EXPECT_FALSE(sample_clip(clip, s, 0.5f, std::span<Transform>(buf)));  // one too many
  EXPECT_FALSE(rest_pose(s, std::span<Transform>(buf).first(1)));
  for (const Transform& t : buf) EXPECT_TRUE(same(t, sentinel()));

  // A cursor reset for another clip (two channels) does not fit this one.
  Clip other;
  other.channels.resize(2);
  SamplingCursor cursor;
  cursor.reset(other);
  std::vector<Transform> out(2, sentinel());
  EXPECT_FALSE(sample_clip(clip, s, 0.5f, out, &cursor));
  SamplingCursor empty_cursor;  // never reset
  EXPECT_FALSE(sample_clip(clip, s, 0.5f, out, &empty_cursor));

  // A channel naming a joint out of range (an unvalidated clip).
  clip.channels[0].joint = 2;
  EXPECT_FALSE(sample_clip(clip, s, 0.5f, out));
  clip.channels[0].joint = -1;
  EXPECT_FALSE(sample_clip(clip, s, 0.5f, out));
  // A cubic track with the value count of a linear one.
  clip.channels[0].joint = 1;
  clip.channels[0].translation.interpolation = Interpolation::CubicSpline;
  EXPECT_FALSE(sample_clip(clip, s, 0.5f, out));
  for (const Transform& t : out) EXPECT_TRUE(same(t, sentinel()));
}

}  // namespace
}  // namespace sv
