// Sampling through the runtime clip, the one sampler (anim/clip_runtime.h): wrap_time,
// slerp_shortest, each glTF 2.0 interpolation (step / linear / cubic spline) before, on, between
// and after the keys, the cursor, rest_pose, components a clip does not key, and a 10-minute
// clip sampled as exactly as a 1-second one. Every expectation is worked out by hand in the
// comment beside it. Each track is laid out in a one- or two-joint runtime clip and read back
// through sample_runtime (SIMD lanes), sample_joint (scalar) and evaluate_pose (matrices).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include <glm/gtc/constants.hpp>

#include "anim/clip_runtime.h"
#include "anim/player.h"
#include "anim/pose.h"
#include "anim/skeleton.h"
#include "anim/slerp.h"
#include "anim_test_constants.h"
#include "test_util.h"

namespace sv {
namespace {

using test::kNaNd;
using test::kZ;

glm::quat rot_z(float degrees) { return glm::angleAxis(glm::radians(degrees), kZ); }

Track<glm::vec3> vec_track(Interpolation interp, std::vector<double> times,
                           std::vector<glm::vec3> values) {
  Track<glm::vec3> t;
  t.interpolation = interp;
  t.times = std::move(times);
  t.values = std::move(values);
  return t;
}

Track<glm::quat> quat_track(Interpolation interp, std::vector<double> times,
                            std::vector<glm::quat> values) {
  Track<glm::quat> t;
  t.interpolation = interp;
  t.times = std::move(times);
  t.values = std::move(values);
  return t;
}

// One joint at the origin (rest: identity), keyed by one track, laid out as a runtime clip.
// at() samples it at t through sample_runtime with a cursor kept from call to call (as playback
// does), and checks that sample_joint and evaluate_pose agree with it.
struct OneTrack {
  Skeleton skeleton;
  ClipRuntime clip;
  RuntimeCursor cursor;

  explicit OneTrack(Track<glm::vec3> translation, Track<glm::quat> rotation = {}) {
    skeleton.names = {"j"};
    skeleton.parents = {kNoParent};
    skeleton.rest = {Transform{}};
    skeleton.inverse_bind = {glm::mat4(1.0f)};
    skeleton.is_bone = {1};
    Clip raw;
    raw.duration = 10.0;
    JointChannel ch;
    ch.joint = 0;
    ch.translation = std::move(translation);
    ch.rotation = std::move(rotation);
    raw.channels.push_back(std::move(ch));
    EXPECT_EQ(clip.build(raw, skeleton), "");
    cursor.reset(clip);
  }
  explicit OneTrack(Track<glm::quat> rotation)
      : OneTrack(Track<glm::vec3>{}, std::move(rotation)) {}

  Transform at(double t) {
    Transform out[1];
    EXPECT_TRUE(sample_runtime(clip, t, cursor, out));
    Transform one;
    EXPECT_TRUE(sample_joint(clip, t, 0, one));
    EXPECT_NEAR_GLM(one.translation, out[0].translation, 1e-6f) << "sample_joint, t " << t;
    EXPECT_NEAR_GLM(one.rotation, out[0].rotation, 1e-6f) << "sample_joint, t " << t;
    glm::mat4 model[1];
    EXPECT_TRUE(evaluate_pose(clip, t, cursor, {}, {}, model, {}));
    EXPECT_NEAR_GLM(model[0], to_matrix(out[0]), 1e-6f) << "evaluate_pose, t " << t;
    return out[0];
  }
  glm::vec3 translation(double t) { return at(t).translation; }
  glm::quat rotation(double t) { return at(t).rotation; }
};

// --- wrap_time -----------------------------------------------------------------------------

TEST(WrapTime, LoopWrapsIntoHalfOpenRange) {
  EXPECT_EQ(wrap_time(0.0, 4.0, true), 0.0);
  EXPECT_EQ(wrap_time(2.5, 4.0, true), 2.5);
  EXPECT_EQ(wrap_time(4.0, 4.0, true), 0.0);  // t == duration is the start again
  EXPECT_EQ(wrap_time(5.0, 4.0, true), 1.0);  // 5 - 4
  EXPECT_EQ(wrap_time(9.0, 4.0, true), 1.0);  // 9 - 2*4
  EXPECT_EQ(wrap_time(8.0, 4.0, true), 0.0);
}

TEST(WrapTime, NegativeTimeWrapsFromTheEnd) {
  EXPECT_EQ(wrap_time(-1.0, 4.0, true), 3.0);  // 4 - 1
  EXPECT_EQ(wrap_time(-4.0, 4.0, true), 0.0);
  EXPECT_EQ(wrap_time(-9.0, 4.0, true), 3.0);  // fmod(-9,4) = -1 -> 3
  // fmod gives -1e-9, and -1e-9 + 4 rounds to 4.0: must still land in [0, 4).
  const double tiny = wrap_time(-1e-17, 4.0, true);
  EXPECT_GE(tiny, 0.0);
  EXPECT_LT(tiny, 4.0);
}

TEST(WrapTime, NoLoopClamps) {
  EXPECT_EQ(wrap_time(5.0, 4.0, false), 4.0);
  EXPECT_EQ(wrap_time(4.0, 4.0, false), 4.0);  // the end is reachable without looping
  EXPECT_EQ(wrap_time(-1.0, 4.0, false), 0.0);
  EXPECT_EQ(wrap_time(2.5, 4.0, false), 2.5);
  EXPECT_EQ(wrap_time(std::numeric_limits<double>::infinity(), 4.0, false), 4.0);
}

TEST(WrapTime, DegenerateInputsGiveZero) {
  EXPECT_EQ(wrap_time(kNaNd, 4.0, true), 0.0);
  EXPECT_EQ(wrap_time(kNaNd, 4.0, false), 0.0);
  EXPECT_EQ(wrap_time(3.0, 0.0, true), 0.0);
  EXPECT_EQ(wrap_time(3.0, 0.0, false), 0.0);
  EXPECT_EQ(wrap_time(3.0, kNaNd, true), 0.0);
  EXPECT_EQ(wrap_time(std::numeric_limits<double>::infinity(), 4.0, true), 0.0);
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
  return vec_track(Interpolation::Linear, {1.0, 2.0, 4.0}, {{0, 0, 0}, {10, 0, 0}, {10, 20, 0}});
}

TEST(SampleVec3, ExactlyOnKeys) {
  OneTrack tr(linear_track());
  EXPECT_VEC_NEAR(tr.translation(1.0), glm::vec3(0, 0, 0), 0.0f);
  EXPECT_VEC_NEAR(tr.translation(2.0), glm::vec3(10, 0, 0), 0.0f);
  EXPECT_VEC_NEAR(tr.translation(4.0), glm::vec3(10, 20, 0), 0.0f);
}

TEST(SampleVec3, BeforeFirstAndAfterLastHold) {
  OneTrack tr(linear_track());
  EXPECT_VEC_NEAR(tr.translation(0.5), glm::vec3(0, 0, 0), 0.0f);    // first value
  EXPECT_VEC_NEAR(tr.translation(-3.0), glm::vec3(0, 0, 0), 0.0f);   // first value
  EXPECT_VEC_NEAR(tr.translation(5.0), glm::vec3(10, 20, 0), 0.0f);  // last value
  EXPECT_VEC_NEAR(tr.translation(kNaNd), glm::vec3(0, 0, 0), 0.0f);  // NaN: first
}

TEST(SampleVec3, LerpBetweenKeys) {
  OneTrack tr(linear_track());
  // t = 1.25: alpha = (1.25-1)/(2-1) = 0.25 -> 0.25 * (10,0,0) = (2.5,0,0).
  EXPECT_VEC_NEAR(tr.translation(1.25), glm::vec3(2.5f, 0, 0), 1e-6f);
  // t = 3: alpha = (3-2)/(4-2) = 0.5 -> (10,0,0) + 0.5 * (0,20,0) = (10,10,0).
  EXPECT_VEC_NEAR(tr.translation(3.0), glm::vec3(10, 10, 0), 1e-6f);
}

TEST(SampleVec3, LoopWrapAtDurationReturnsToStart) {
  OneTrack tr(linear_track());
  // A looping clip of duration 4 at t = 4 plays time 0, before the first key: (0,0,0), not the
  // last key's (10,20,0).
  EXPECT_VEC_NEAR(tr.translation(wrap_time(4.0, 4.0, true)), glm::vec3(0), 0.0f);
  // t = 7 wraps to 3: (10,10,0) as above. t = -1 wraps to 3 too.
  EXPECT_VEC_NEAR(tr.translation(wrap_time(7.0, 4.0, true)), glm::vec3(10, 10, 0), 1e-6f);
  EXPECT_VEC_NEAR(tr.translation(wrap_time(-1.0, 4.0, true)), glm::vec3(10, 10, 0), 1e-6f);
  // Not looping, t = 7 clamps to 4: the last value.
  EXPECT_VEC_NEAR(tr.translation(wrap_time(7.0, 4.0, false)), glm::vec3(10, 20, 0), 0.0f);
}

TEST(SampleVec3, StepHoldsTheKeyAtOrBefore) {
  OneTrack tr(vec_track(Interpolation::Step, {0.0, 1.0, 2.0}, {{1, 0, 0}, {2, 0, 0}, {3, 0, 0}}));
  EXPECT_VEC_NEAR(tr.translation(0.0), glm::vec3(1, 0, 0), 0.0f);
  EXPECT_VEC_NEAR(tr.translation(0.99), glm::vec3(1, 0, 0), 0.0f);
  EXPECT_VEC_NEAR(tr.translation(1.0), glm::vec3(2, 0, 0), 0.0f);  // on key 1
  EXPECT_VEC_NEAR(tr.translation(1.5), glm::vec3(2, 0, 0), 0.0f);
  EXPECT_VEC_NEAR(tr.translation(2.0), glm::vec3(3, 0, 0), 0.0f);
  EXPECT_VEC_NEAR(tr.translation(3.0), glm::vec3(3, 0, 0), 0.0f);
}

// Two cubic keys at t = 0 and t = 2 (td = 2), stored (in-tangent, value, out-tangent) per key.
// The first key's in-tangent and the last key's out-tangent are never used: 99s catch misuse.
Track<glm::vec3> cubic_track() {
  return vec_track(Interpolation::CubicSpline, {0.0, 2.0},
                   {{99, 99, 99},
                    {0, 2, 0},
                    {1, 0, -2},  // key 0: a0, v0, b0
                    {3, 0, 4},
                    {4, 2, 0},
                    {99, 99, 99}});  // key 1: a1, v1, b1
}

TEST(SampleVec3, CubicSplineHermite) {
  OneTrack tr(cubic_track());
  // p(s) = h00 v0 + h10 td b0 + h01 v1 + h11 td a1, s = (t - t0)/td.
  // t = 1: s = 0.5; h00 = 2/8 - 3/4 + 1 = 0.5, h10 = 1/8 - 2/4 + 1/2 = 0.125, h01 = 0.5,
  // h11 = 1/8 - 1/4 = -0.125. With td = 2: weights 0.5, 0.25, 0.5, -0.25.
  //   x = 0.25*1 + 0.5*4 - 0.25*3 = 1.5; y = 0.5*2 + 0.5*2 = 2; z = 0.25*(-2) - 0.25*4 = -1.5.
  EXPECT_VEC_NEAR(tr.translation(1.0), glm::vec3(1.5f, 2.0f, -1.5f), 1e-6f);
  // t = 0.5: s = 0.25, s^2 = 0.0625, s^3 = 0.015625; h00 = 0.84375, h10 = 0.140625,
  // h01 = 0.15625, h11 = -0.046875; times td: 0.28125 and -0.09375.
  //   x = 0.28125*1 + 0.15625*4 - 0.09375*3 = 0.625; y = (0.84375 + 0.15625)*2 = 2;
  //   z = 0.28125*(-2) - 0.09375*4 = -0.9375.
  EXPECT_VEC_NEAR(tr.translation(0.5), glm::vec3(0.625f, 2.0f, -0.9375f), 1e-6f);
  // On, before and after the keys: the middle (value) entries.
  EXPECT_VEC_NEAR(tr.translation(0.0), glm::vec3(0, 2, 0), 0.0f);
  EXPECT_VEC_NEAR(tr.translation(-1.0), glm::vec3(0, 2, 0), 0.0f);
  EXPECT_VEC_NEAR(tr.translation(2.0), glm::vec3(4, 2, 0), 0.0f);
  EXPECT_VEC_NEAR(tr.translation(3.0), glm::vec3(4, 2, 0), 0.0f);
}

TEST(SampleVec3, OneKeyTrackHoldsItsValue) {
  OneTrack lin(vec_track(Interpolation::Linear, {3.0}, {{1, 2, 3}}));
  OneTrack cub(vec_track(Interpolation::CubicSpline, {3.0}, {{9, 9, 9}, {1, 2, 3}, {9, 9, 9}}));
  for (double t : {0.0, 3.0, 10.0}) {
    EXPECT_VEC_NEAR(lin.translation(t), glm::vec3(1, 2, 3), 0.0f);
    EXPECT_VEC_NEAR(cub.translation(t), glm::vec3(1, 2, 3), 0.0f);
  }
  // Still a keyed component: its one key time is listed and counted.
  ASSERT_EQ(cub.clip.key_times(0, TrackPath::Translation).size(), 1u);
  EXPECT_EQ(cub.clip.key_times(0, TrackPath::Translation)[0], 3.0);
  EXPECT_EQ(cub.clip.keys(), 1u);
}

// --- quaternion tracks ---------------------------------------------------------------------

TEST(SampleQuat, LinearSlerpsTheShortArc) {
  // Keys 0 deg at t=0 and -(90 deg) at t=1 (stored with the opposite sign): t = 0.5 is +45 deg.
  OneTrack tr(quat_track(Interpolation::Linear, {0.0, 1.0}, {rot_z(0.0f), -rot_z(90.0f)}));
  EXPECT_NEAR_GLM(tr.rotation(0.5), glm::quat(0.9238795f, 0, 0, 0.3826834f), 1e-6f);
  // A quarter of the way: 22.5 deg, (cos 11.25, sin 11.25) (constant angular speed).
  EXPECT_NEAR_GLM(tr.rotation(0.25), glm::quat(0.9807853f, 0, 0, 0.1950903f), 1e-6f);
}

TEST(SampleQuat, StepHolds) {
  OneTrack tr(quat_track(Interpolation::Step, {0.0, 1.0}, {rot_z(0.0f), rot_z(90.0f)}));
  EXPECT_NEAR_GLM(tr.rotation(0.999), rot_z(0.0f), 0.0f);
  EXPECT_NEAR_GLM(tr.rotation(1.0), rot_z(90.0f), 0.0f);
}

TEST(SampleQuat, CubicIsNormalised) {
  // Keys at t = 0 and 1 (td = 1): v0 = identity (w=1), v1 = 180 deg about Z (z=1),
  // out-tangent b0 = (w 0, z 2), in-tangent a1 = 0. At s = 0.5 the weights are h00 = h01 = 0.5,
  // h10 = 0.125, h11 = -0.125: raw = 0.5*(1,0,0,0) + 0.125*(0,0,0,2) + 0.5*(0,0,0,1)
  // = (w 0.5, z 0.75), length sqrt(0.25 + 0.5625) = 0.9013878 -> (w 0.5547002, z 0.8320503).
  const glm::quat zero(0.0f, 0.0f, 0.0f, 0.0f);
  OneTrack tr(quat_track(Interpolation::CubicSpline, {0.0, 1.0},
                         {zero, glm::quat(1, 0, 0, 0), glm::quat(0, 0, 0, 2),  //
                          zero, glm::quat(0, 0, 0, 1), zero}));
  const glm::quat q = tr.rotation(0.5);
  EXPECT_NEAR(glm::length(q), 1.0f, 1e-6f);
  EXPECT_NEAR_GLM(q, glm::quat(0.5547002f, 0, 0, 0.8320503f), 1e-6f);
}

// --- the cursor ----------------------------------------------------------------------------

std::vector<double> random_times(std::mt19937& rng, int n) {
  std::uniform_real_distribution<double> gap(0.01, 0.2);
  std::vector<double> t(static_cast<std::size_t>(n));
  double acc = 0.3;
  for (double& x : t) x = acc += gap(rng);
  return t;
}

// Forward playback, backward jumps, seeks and key times: a cursor kept from call to call gives
// exactly what a fresh one (a binary search every time) gives.
TEST(RuntimeCursor, SameResultsAsAFreshCursor) {
  std::mt19937 rng(12345);
  std::uniform_real_distribution<float> unit(-1.0f, 1.0f);
  const std::vector<double> times = random_times(rng, 64);
  std::vector<glm::vec3> vals;
  std::vector<glm::quat> quats;
  for (std::size_t i = 0; i < 3 * times.size(); ++i) {
    vals.emplace_back(unit(rng), unit(rng), unit(rng));
    quats.push_back(glm::normalize(glm::quat(unit(rng), unit(rng), unit(rng), unit(rng))));
  }
  const double end = times.back() + 0.5;

  for (Interpolation interp :
       {Interpolation::Step, Interpolation::Linear, Interpolation::CubicSpline}) {
    Track<glm::vec3> tv = vec_track(interp, times, vals);
    Track<glm::quat> tq = quat_track(interp, times, quats);
    tv.values.resize(tv.expected_values());
    tq.values.resize(tq.expected_values());
    OneTrack kept(std::move(tv), std::move(tq));

    std::vector<double> ts;
    for (double t = 0.0; t < end; t += 1.0 / 60.0) ts.push_back(t);  // forward
    for (double t = end; t > 0.0; t -= 0.37) ts.push_back(t);        // backward jumps
    std::uniform_real_distribution<double> seek(-0.5, end + 0.5);
    for (int i = 0; i < 500; ++i) ts.push_back(seek(rng));  // random seeks
    for (double t : times) ts.push_back(t);                 // on keys

    for (double t : ts) {
      const Transform a = kept.at(t);
      ASSERT_LE(kept.cursor.keys[1], times.size() - 2);
      RuntimeCursor fresh;
      fresh.reset(kept.clip);
      Transform b[1];
      ASSERT_TRUE(sample_runtime(kept.clip, t, fresh, b));
      ASSERT_EQ(a.translation, b[0].translation) << "t=" << t;
      ASSERT_EQ(a.rotation, b[0].rotation) << "t=" << t;
    }
  }
}

TEST(RuntimeCursor, RemembersTheSegmentAndSurvivesGarbage) {
  OneTrack tr(linear_track());  // keys 1, 2, 4: segments [1,2) = 0 and [2,4) = 1, timeline 1
  ASSERT_EQ(tr.clip.timelines(), 2u);
  EXPECT_VEC_NEAR(tr.translation(3.0), glm::vec3(10, 10, 0), 1e-6f);
  EXPECT_EQ(tr.cursor.keys[1], 1u);
  EXPECT_VEC_NEAR(tr.translation(1.5), glm::vec3(5, 0, 0), 1e-6f);  // backwards
  EXPECT_EQ(tr.cursor.keys[1], 0u);
  tr.cursor.keys[1] = 1000000;  // a stale cursor from another clip must not be trusted
  EXPECT_VEC_NEAR(tr.translation(3.0), glm::vec3(10, 10, 0), 1e-6f);
  EXPECT_EQ(tr.cursor.keys[1], 1u);
}

// --- rest values, rest_pose, refusals ------------------------------------------------------

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

TEST(SampleRuntime, ComponentsTheClipDoesNotKeyKeepTheirRestValues) {
  const Skeleton s = two_joint_skeleton();
  Clip clip;
  clip.name = "turn";
  clip.duration = 1.0;
  JointChannel ch;
  ch.joint = 1;  // rotation only: translation and scale stay at rest; joint 0 has no channel
  ch.rotation = quat_track(Interpolation::Linear, {0.0, 1.0}, {rot_z(0.0f), rot_z(90.0f)});
  clip.channels.push_back(std::move(ch));
  ClipRuntime rt;
  ASSERT_EQ(rt.build(clip, s), "");
  EXPECT_EQ(rt.name(), "turn");
  EXPECT_EQ(rt.duration(), 1.0);
  EXPECT_EQ(rt.channels(), 1u);
  EXPECT_EQ(rt.keys(), 2u);

  RuntimeCursor cursor;
  cursor.reset(rt);
  std::vector<Transform> out(2);
  ASSERT_TRUE(sample_runtime(rt, 0.5, cursor, out));
  EXPECT_TRUE(same(out[0], s.rest[0]));
  EXPECT_EQ(out[1].translation, s.rest[1].translation);
  EXPECT_EQ(out[1].scale, s.rest[1].scale);
  EXPECT_NEAR_GLM(out[1].rotation, rot_z(45.0f), 1e-6f);  // half of 0 -> 90
  Transform one;
  ASSERT_TRUE(sample_joint(rt, 0.5, 0, one));
  EXPECT_TRUE(same(one, s.rest[0]));
}

TEST(SampleRuntime, RestPoseCopiesRest) {
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

TEST(SampleRuntime, RefusesWhatDoesNotFitAndWritesNothing) {
  const Skeleton s = two_joint_skeleton();
  Clip clip;
  clip.duration = 1.0;
  JointChannel ch;
  ch.joint = 1;
  ch.translation = vec_track(Interpolation::Linear, {0.0, 1.0}, {{0, 0, 0}, {1, 0, 0}});
  clip.channels.push_back(std::move(ch));
  ClipRuntime rt;
  ASSERT_EQ(rt.build(clip, s), "");
  RuntimeCursor cursor;
  cursor.reset(rt);

  // Output one joint short, inside a larger buffer: nothing written, even past the span.
  std::vector<Transform> buf(3, sentinel());
  EXPECT_FALSE(sample_runtime(rt, 0.5, cursor, std::span<Transform>(buf).first(1)));
  EXPECT_FALSE(sample_runtime(rt, 0.5, cursor, std::span<Transform>(buf)));  // one too many
  EXPECT_FALSE(rest_pose(s, std::span<Transform>(buf).first(1)));
  Transform one = sentinel();
  EXPECT_FALSE(sample_joint(rt, 0.5, 2, one));  // joint out of range
  EXPECT_TRUE(same(one, sentinel()));
  for (const Transform& t : buf) EXPECT_TRUE(same(t, sentinel()));

  // A cursor reset for another runtime (two timelines more) does not fit this one.
  Clip other_raw;
  other_raw.duration = 1.0;
  JointChannel a;
  a.joint = 0;
  a.translation = vec_track(Interpolation::Linear, {0.0, 0.5}, {{0, 0, 0}, {1, 0, 0}});
  a.scale = vec_track(Interpolation::Linear, {0.0, 0.7}, {{1, 1, 1}, {2, 2, 2}});
  other_raw.channels.push_back(std::move(a));
  ClipRuntime other;
  ASSERT_EQ(other.build(other_raw, s), "");
  RuntimeCursor other_cursor;
  other_cursor.reset(other);
  std::vector<Transform> out(2, sentinel());
  EXPECT_FALSE(sample_runtime(rt, 0.5, other_cursor, out));
  RuntimeCursor empty_cursor;  // never reset
  EXPECT_FALSE(sample_runtime(rt, 0.5, empty_cursor, out));
  for (const Transform& t : out) EXPECT_TRUE(same(t, sentinel()));
}

// --- long clips: time in double ------------------------------------------------------------

// A 10-minute clip samples as exactly as a 1-second one. Keys 1/20 s apart end each clip; the
// same offsets from the end give the same expectations. In float seconds 599.95 is stored as
// 599.950012 and 599.9625 as 599.962524 (a step of 6.1e-5 s): alpha would be 0.25024 instead of
// 0.25, 1e-3 relative off; in double it is exact to ~1e-12.
TEST(LongClip, TenMinutesSampleAsExactlyAsOneSecond) {
  for (const double end : {1.0, 600.0}) {
    SCOPED_TRACE(end);
    const double k1 = end - 0.05;  // the last segment [k1, end]
    Track<glm::vec3> tr =
        vec_track(Interpolation::Linear, {0.0, k1, end}, {{0, 0, 0}, {2, 4, 8}, {6, 0, -8}});
    // 90 deg about Z at k1, 180 deg at the end.
    Track<glm::quat> rot = quat_track(Interpolation::Linear, {0.0, k1, end},
                                      {rot_z(0.0f), rot_z(90.0f), rot_z(180.0f)});
    OneTrack one(std::move(tr), std::move(rot));
    // alpha = 0.25: (2,4,8) + 0.25 * ((6,0,-8) - (2,4,8)) = (3, 3, 4); 90 + 22.5 = 112.5 deg.
    const Transform q = one.at(k1 + 0.0125);
    const glm::vec3 want(3.0f, 3.0f, 4.0f);
    for (int c = 0; c < 3; ++c)
      EXPECT_NEAR(q.translation[c], want[c], 1e-6 * glm::length(want)) << "component " << c;
    EXPECT_NEAR_GLM(q.rotation, rot_z(112.5f), 1e-6f);
    // alpha = 0.9 (0.005 s before the end): (2,4,8) + 0.9 * (4,-4,-16) = (5.6, 0.4, -6.4).
    const glm::vec3 late = one.translation(end - 0.005);
    const glm::vec3 want_late(5.6f, 0.4f, -6.4f);
    for (int c = 0; c < 3; ++c)
      EXPECT_NEAR(late[c], want_late[c], 1e-6 * glm::length(want_late)) << "component " << c;
    // Playback reaches the last segment one 60 Hz step at a time and lands on the same values:
    // 36,000 steps of 1/60 s add up to 600 s within 1e-10 s in double (float: ~1e-2 s off).
    Player p;
    p.loop = false;
    const int steps = static_cast<int>(std::lround((k1 + 0.0125) * 240.0));  // 1/240 s steps
    for (int i = 0; i < steps; ++i) p.advance(1.0 / 240.0, end);
    EXPECT_NEAR(p.time, k1 + 0.0125, 1e-9);
    EXPECT_NEAR_GLM(one.translation(p.time), want, 1e-5f);
  }
}

}  // namespace
}  // namespace sv
