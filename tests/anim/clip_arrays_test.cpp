// A runtime clip's arrays (anim/clip_arrays.h): build -> arrays -> adopt gives back a clip that
// samples bit-identically, and every check of the layout contract refuses its own kind of
// corruption with a message, leaving the clip empty (one test per check). The real models'
// round trip is in tests/io/runtime_clip_test.cpp.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include <glm/gtc/quaternion.hpp>

#include "anim/clip_arrays.h"
#include "anim/clip_runtime.h"
#include "anim/pose.h"
#include "anim/skeleton.h"

namespace sv {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

Skeleton chain(int n) {
  Skeleton s;
  for (int i = 0; i < n; ++i) {
    s.names.push_back(std::to_string(i).insert(0, 1, 'j'));
    s.parents.push_back(i - 1);
    Transform t;
    t.translation = glm::vec3(0.0f, 1.0f, 0.1f * static_cast<float>(i));
    s.rest.push_back(t);
    s.inverse_bind.emplace_back(1.0f);
    s.is_bone.push_back(1);
  }
  return s;
}

// Six joints (padded to 8: two groups of 4) keyed every way the layout knows: joints 0-3 share
// a linear translation timeline (a uniform group), joint 4 a cubic rotation on its own times,
// joint 1 a step scale, joint 5 a one-key translation; everything else is a rest constant.
Clip mixed_clip() {
  Clip c;
  c.name = "mixed";
  c.duration = 2.0;
  for (int j = 0; j < 6; ++j) {
    JointChannel ch;
    ch.joint = j;
    if (j < 4) {
      ch.translation.times = {0.0, 0.5, 1.0, 2.0};
      for (int k = 0; k < 4; ++k)
        ch.translation.values.emplace_back(static_cast<float>(j), static_cast<float>(k), 0.5f);
    }
    if (j == 1) {
      ch.scale.interpolation = Interpolation::Step;
      ch.scale.times = {0.25, 1.25};
      ch.scale.values = {glm::vec3(1.0f), glm::vec3(2.0f)};
    }
    if (j == 4) {
      ch.rotation.interpolation = Interpolation::CubicSpline;
      ch.rotation.times = {0.1, 1.9};
      const glm::quat z(0.0f, 0.0f, 0.0f, 0.0f);
      ch.rotation.values = {z, glm::quat(1, 0, 0, 0), z, z, glm::normalize(glm::quat(1, 0, 0, 1)),
                            z};
    }
    if (j == 5) {
      ch.translation.times = {0.75};
      ch.translation.values = {glm::vec3(3.0f)};
    }
    c.channels.push_back(std::move(ch));
  }
  return c;
}

ClipArrays mixed_arrays() {
  ClipRuntime rt;
  EXPECT_EQ(rt.build(mixed_clip(), chain(6)), "");
  return ClipArrays::copy_of(rt.arrays());
}

// Adopts `a`, which must be refused: returns the message (the clip is left empty).
std::string refused(ClipArrays a) {
  ClipRuntime rt;
  const std::string e = rt.adopt(std::move(a));
  EXPECT_NE(e, "");
  EXPECT_TRUE(rt.empty());
  EXPECT_EQ(e.find('\n'), std::string::npos) << e;
  return e;
}

#define EXPECT_REFUSED(arrays, words) EXPECT_NE(refused(arrays).find(words), std::string::npos)

// The track index of joint j's component c.
std::size_t track(std::size_t j, TrackPath c) { return 3 * j + static_cast<std::size_t>(c); }

// --- the round trip ------------------------------------------------------------------------

template <class T>
bool same_bytes(const std::vector<T>& a, const std::vector<T>& b) {
  // memcmp must not see the null data() of an empty vector (UBSan).
  return a.size() == b.size() &&
         (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}

TEST(ClipArrays, BuildThenAdoptSamplesBitIdentically) {
  const Skeleton s = chain(6);
  ClipRuntime built;
  ASSERT_EQ(built.build(mixed_clip(), s), "");
  ClipRuntime adopted;
  ASSERT_EQ(adopted.adopt(ClipArrays::copy_of(built.arrays())), "");
  EXPECT_EQ(adopted.name(), "mixed");
  EXPECT_EQ(adopted.duration(), 2.0);
  EXPECT_EQ(adopted.joints(), 6u);
  EXPECT_EQ(adopted.channels(), built.channels());
  EXPECT_EQ(adopted.keys(), built.keys());
  // 4 + 4 + 4 + 4 translation keys, 2 step scale keys, 2 cubic rotation keys, 1 one-key.
  EXPECT_EQ(built.keys(), 16u + 2u + 2u + 1u);
  EXPECT_EQ(built.channels(), 6u);

  RuntimeCursor cb, ca;
  cb.reset(built);
  ca.reset(adopted);
  std::vector<Transform> lb(6), la(6);
  std::vector<glm::mat4> mb(6), ma(6), pb(6), pa(6);
  const std::vector<int32_t> skin{0, 1, 2, 3, 4, 5};
  for (double t = -0.25; t < 2.5; t += 1.0 / 60.0) {
    ASSERT_TRUE(sample_runtime(built, t, cb, lb));
    ASSERT_TRUE(sample_runtime(adopted, t, ca, la));
    ASSERT_TRUE(std::memcmp(lb.data(), la.data(), sizeof(Transform) * lb.size()) == 0) << t;
    ASSERT_TRUE(evaluate_pose(built, t, cb, skin, s.inverse_bind, mb, pb));
    ASSERT_TRUE(evaluate_pose(adopted, t, ca, skin, s.inverse_bind, ma, pa));
    ASSERT_TRUE(same_bytes(mb, ma)) << t;
    ASSERT_TRUE(same_bytes(pb, pa)) << t;
  }
}

TEST(ClipArrays, TheBuildersArraysMeetTheContract) {
  // Every random layout the builder makes passes the checks that adopt applies.
  std::mt19937 rng(3u);
  for (int joints : {0, 1, 3, 4, 5, 9, 64}) {
    const Skeleton s = chain(joints);
    Clip c;
    c.duration = 1.0;
    for (int j = 0; j < joints; ++j) {
      if (rng() % 3 == 0) continue;
      JointChannel ch;
      ch.joint = j;
      const int keys = 1 + static_cast<int>(rng() % 4);
      ch.rotation.interpolation = static_cast<Interpolation>(rng() % 3);
      for (int k = 0; k < keys; ++k) {
        ch.rotation.times.push_back(0.1 * k + (rng() % 2 ? 0.0 : 0.05));
        for (int e = 0; e < (ch.rotation.interpolation == Interpolation::CubicSpline ? 3 : 1); ++e)
          ch.rotation.values.emplace_back(1.0f, 0.0f, 0.0f, 0.0f);
      }
      c.channels.push_back(std::move(ch));
    }
    ClipRuntime rt;
    ASSERT_EQ(rt.build(c, s), "") << joints;
    EXPECT_EQ(check_clip_arrays(rt.arrays()), "") << joints;
  }
}

// --- one test per check --------------------------------------------------------------------

TEST(ClipArraysRefuse, DurationNegativeOrNotFinite) {
  ClipArrays a = mixed_arrays();
  a.duration = -1.0;
  EXPECT_REFUSED(a, "duration");
  a = mixed_arrays();
  a.duration = kNaN;
  EXPECT_REFUSED(a, "duration");
}

TEST(ClipArraysRefuse, TooManyJoints) {
  ClipArrays a = mixed_arrays();
  a.joints = static_cast<uint32_t>(kMaxRuntimeJoints + 1);
  EXPECT_REFUSED(a, "joints, more than");
}

TEST(ClipArraysRefuse, TimelineBeginTooShort) {
  ClipArrays a = mixed_arrays();
  a.timeline_begin = {0};
  EXPECT_REFUSED(a, "fewer than 2");
}

TEST(ClipArraysRefuse, ConstantTimelineNotFirst) {
  ClipArrays a = mixed_arrays();
  a.timeline_begin[1] = 2;
  EXPECT_REFUSED(a, "timeline 0");
}

TEST(ClipArraysRefuse, TimelineWithoutKeys) {
  ClipArrays a = mixed_arrays();
  a.timeline_begin[2] = a.timeline_begin[1];
  EXPECT_REFUSED(a, "has no key");
}

TEST(ClipArraysRefuse, TimelinesEndBeforeOrAfterTheTimes) {
  ClipArrays a = mixed_arrays();
  a.times.push_back(9.0);
  EXPECT_REFUSED(a, "timelines end");
  a = mixed_arrays();
  a.timeline_begin.back() += 1000;  // past the end of the times
  EXPECT_REFUSED(a, "timelines end");
}

TEST(ClipArraysRefuse, ConstantTimelineTimeNotZero) {
  ClipArrays a = mixed_arrays();
  a.times[0] = 1.0;
  EXPECT_REFUSED(a, "time other than 0");
}

TEST(ClipArraysRefuse, TimeNotFinite) {
  ClipArrays a = mixed_arrays();
  a.times[2] = kNaN;
  EXPECT_REFUSED(a, "non-finite time");
  a = mixed_arrays();
  a.times[2] = std::numeric_limits<double>::infinity();
  EXPECT_REFUSED(a, "non-finite time");
}

TEST(ClipArraysRefuse, TimesNotStrictlyIncreasing) {
  ClipArrays a = mixed_arrays();
  std::swap(a.times[1], a.times[2]);  // timeline 1's first two keys
  EXPECT_REFUSED(a, "not strictly increasing");
  a = mixed_arrays();
  a.times[2] = a.times[1];  // a repeated time: a zero-length segment would divide by zero
  EXPECT_REFUSED(a, "not strictly increasing");
}

TEST(ClipArraysRefuse, WrongTrackCount) {
  ClipArrays a = mixed_arrays();
  a.tracks.pop_back();
  EXPECT_REFUSED(a, "tracks for 6 joints");
}

TEST(ClipArraysRefuse, InterpolationOutOfRange) {
  ClipArrays a = mixed_arrays();
  a.tracks[track(0, TrackPath::Translation)].interpolation = static_cast<Interpolation>(3);
  EXPECT_REFUSED(a, "interpolation 3");
}

TEST(ClipArraysRefuse, TrackTimelineOutOfRange) {
  ClipArrays a = mixed_arrays();
  a.tracks[track(2, TrackPath::Translation)].timeline =
      static_cast<uint32_t>(a.timeline_begin.size() - 1);
  EXPECT_REFUSED(a, "names timeline");
}

TEST(ClipArraysRefuse, StrideZero) {
  ClipArrays a = mixed_arrays();
  a.tracks[track(0, TrackPath::Translation)].stride = 0;
  EXPECT_REFUSED(a, "stride 0");
}

TEST(ClipArraysRefuse, ConstantThatIsNotStep) {
  ClipArrays a = mixed_arrays();
  RuntimeTrack& rest = a.tracks[track(0, TrackPath::Scale)];  // joint 0's scale: not keyed
  ASSERT_EQ(rest.timeline, 0u);
  rest.interpolation = Interpolation::CubicSpline;  // would read base + stride
  EXPECT_REFUSED(a, "constant");
}

TEST(ClipArraysRefuse, PaddingTrackThatIsNotConstant) {
  ClipArrays a = mixed_arrays();
  a.tracks[track(7, TrackPath::Translation)] = a.tracks[track(0, TrackPath::Translation)];
  EXPECT_REFUSED(a, "pads the last 4 joints");
}

TEST(ClipArraysRefuse, TrackReadsPastTheValues) {
  ClipArrays a = mixed_arrays();
  a.tracks[track(4, TrackPath::Translation)].base = static_cast<uint32_t>(a.values.size());
  EXPECT_REFUSED(a, "reads past");
  a = mixed_arrays();
  // Linear, 4 keys: base + stride * 3 must stay inside; a huge stride must not wrap around.
  a.tracks[track(0, TrackPath::Translation)].stride = 0xFFFFFFFFu;
  EXPECT_REFUSED(a, "reads past");
  a = mixed_arrays();
  a.values.pop_back();  // the last block's last entry
  EXPECT_REFUSED(a, "reads past");
}

TEST(ClipArraysRefuse, CubicTrackWithoutThreeEntriesPerKey) {
  ClipArrays a = mixed_arrays();
  // Joint 0's linear translation: 4 keys, one entry each, the last one near the values' end.
  // Marked cubic it would read 12 entries: (in-tangent, value, out-tangent) per key.
  a.tracks[track(0, TrackPath::Translation)].interpolation = Interpolation::CubicSpline;
  EXPECT_REFUSED(a, "12 entries");
}

TEST(ClipArraysRefuse, TimelineNoTrackUses) {
  ClipArrays a = mixed_arrays();
  a.times.insert(a.times.end(), {0.0, 1.0});
  a.timeline_begin.push_back(static_cast<uint32_t>(a.times.size()));
  EXPECT_REFUSED(a, "used by no track");
}

TEST(ClipArraysRefuse, ValueNotFinite) {
  ClipArrays a = mixed_arrays();
  a.values[3].y = std::numeric_limits<float>::quiet_NaN();
  EXPECT_REFUSED(a, "value 3 is not finite");
  a = mixed_arrays();
  a.values.back().w = std::numeric_limits<float>::infinity();
  EXPECT_REFUSED(a, "is not finite");
}

TEST(ClipArraysRefuse, WrongParentCount) {
  ClipArrays a = mixed_arrays();
  a.parents.push_back(0);
  EXPECT_REFUSED(a, "parents for 6 joints");
}

TEST(ClipArraysRefuse, ParentThatDoesNotPrecede) {
  ClipArrays a = mixed_arrays();
  a.parents[3] = 3;
  EXPECT_REFUSED(a, "does not precede");
  a = mixed_arrays();
  a.parents[3] = 5;
  EXPECT_REFUSED(a, "does not precede");
  a = mixed_arrays();
  a.parents[3] = -2;
  EXPECT_REFUSED(a, "does not precede");
}

TEST(ClipArraysRefuse, WrongUniformFlagCount) {
  ClipArrays a = mixed_arrays();
  a.uniform.pop_back();
  EXPECT_REFUSED(a, "uniform flags for 6 joints");
}

TEST(ClipArraysRefuse, UniformFlagThatDisagreesWithItsTracks) {
  ClipArrays a = mixed_arrays();
  ASSERT_EQ(a.uniform[0], 1u);  // joints 0-3 translation: one block, consecutive slots
  a.uniform[0] = 0;
  EXPECT_REFUSED(a, "uniform flag 0");
  a = mixed_arrays();
  ASSERT_EQ(a.uniform[3 + 1], 0u);  // joints 4-7 rotation: a cubic and three constants
  a.uniform[3 + 1] = 1;             // would read 4 adjacent cubic rows
  EXPECT_REFUSED(a, "uniform flag 4");
  a = mixed_arrays();
  a.uniform[1] = 7;
  EXPECT_REFUSED(a, "uniform flag 1");
}

TEST(ClipArrays, KeyedSaysWhichComponentsTheClipKeys) {
  const ClipArrays a = mixed_arrays();
  // Joints 0-3 translation (joint 1 also a step scale), joint 4 a rotation, joint 5 a one-key
  // translation: a one-key component is keyed too.
  const std::vector<uint8_t> expected = {kKeyedTranslation, kKeyedTranslation | kKeyedScale,
                                         kKeyedTranslation, kKeyedTranslation,
                                         kKeyedRotation,    kKeyedTranslation};
  EXPECT_EQ(a.keyed, expected);
  ClipRuntime rt;
  ASSERT_EQ(rt.build(Clip{}, chain(3)), "");  // no channel: nothing keyed
  EXPECT_EQ(std::vector<uint8_t>(rt.keyed().begin(), rt.keyed().end()), std::vector<uint8_t>(3, 0));
}

TEST(ClipArraysRefuse, WrongKeyedCount) {
  ClipArrays a = mixed_arrays();
  a.keyed.pop_back();
  EXPECT_REFUSED(a, "5 keyed entries for 6 joints");
  a = mixed_arrays();
  a.keyed.push_back(0);  // padding joints have no entry
  EXPECT_REFUSED(a, "7 keyed entries for 6 joints");
}

TEST(ClipArraysRefuse, KeyedEntryThatDisagreesWithItsTracks) {
  ClipArrays a = mixed_arrays();
  a.keyed[4] = kKeyedRotation | kKeyedScale;  // claims a scale the clip does not key
  EXPECT_REFUSED(a, "keyed entry 4");
  a = mixed_arrays();
  a.keyed[1] = kKeyedTranslation;  // hides the step scale
  EXPECT_REFUSED(a, "keyed entry 1");
  a = mixed_arrays();
  a.keyed[0] = 0x80 | kKeyedTranslation;  // a bit no component has
  EXPECT_REFUSED(a, "keyed entry 0");
}

TEST(ClipArraysRefuse, AnEmptyClipIsFineAndSoIsItsContract) {
  ClipArrays a;  // no joints: one constant timeline, nothing else
  a.times = {0.0};
  a.timeline_begin = {0, 1};
  ClipRuntime rt;
  EXPECT_EQ(rt.adopt(std::move(a)), "");
  EXPECT_TRUE(rt.empty());
}

}  // namespace
}  // namespace sv
