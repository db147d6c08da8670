// Cutting a part out of a clip (anim/clip_cut.h): the cut's pose at t is the source's at start + t
// for every interpolation (step, linear, cubic spline), keys inside the range are kept as they are,
// the ends hold what the source holds there, and bad ranges are refused. Hand-computed where the
// numbers are simple; against the source's own sampling elsewhere.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "anim/clip_cut.h"
#include "anim/clip_runtime.h"
#include "test_util.h"

namespace sv::test {
namespace {

Transform at(const ClipRuntime& clip, double t) {
  Transform out;
  EXPECT_TRUE(sample_joint(clip, t, 0, out));
  return out;
}

// Translation x = 0, 1, 3, 6 at t = 0, 1, 2, 3 (step or linear), rotation about Z by 0, 90, 180
// degrees at 0, 1.5, 3.
Model keyed_model(Interpolation interpolation) {
  Clip c;
  c.name = "move";
  c.duration = 3.0;
  JointChannel ch;
  ch.joint = 0;
  ch.translation.interpolation = interpolation;
  ch.translation.times = {0.0, 1.0, 2.0, 3.0};
  ch.translation.values = {glm::vec3(0, 0, 0), glm::vec3(1, 0, 0), glm::vec3(3, 0, 0),
                           glm::vec3(6, 0, 0)};
  ch.rotation.interpolation = interpolation;
  ch.rotation.times = {0.0, 1.5, 3.0};
  const float h = 0.70710678f;
  ch.rotation.values = {glm::quat(1, 0, 0, 0), glm::quat(h, 0, 0, h), glm::quat(0, 0, 0, 1)};
  c.channels.push_back(std::move(ch));
  return one_joint_model(std::move(c));
}

TEST(ClipCut, LinearKeysGiveTheSourcePoseFromTheStartOn) {
  const Model m = keyed_model(Interpolation::Linear);
  ClipRuntime cut;
  ASSERT_EQ(cut_clip(m.clips[0], m.skeleton, 0.5, 2.5, "part", &cut), "");
  EXPECT_EQ(cut.name(), "part");
  EXPECT_DOUBLE_EQ(cut.duration(), 2.0);
  // x: 0.5 at the start (half way from 0 to 1), the keys 1 and 3 at 0.5 and 1.5, 4.5 at the end.
  EXPECT_NEAR(at(cut, 0.0).translation.x, 0.5f, 1e-6);
  EXPECT_NEAR(at(cut, 0.5).translation.x, 1.0f, 1e-6);
  EXPECT_NEAR(at(cut, 1.0).translation.x, 2.0f, 1e-6);
  EXPECT_NEAR(at(cut, 2.0).translation.x, 4.5f, 1e-6);
  const std::vector<double> times(cut.key_times(0, TrackPath::Translation).begin(),
                                  cut.key_times(0, TrackPath::Translation).end());
  EXPECT_EQ(times, (std::vector<double>{0.0, 0.5, 1.5, 2.0}));
  // Rotation: 30 degrees at the start (0.5 s of 1.5 s to 90), 150 at the end.
  const glm::quat q0 = at(cut, 0.0).rotation, q1 = at(cut, 2.0).rotation;
  EXPECT_NEAR(2.0 * std::atan2(q0.z, q0.w), glm::radians(30.0), 1e-5);
  EXPECT_NEAR(2.0 * std::atan2(q1.z, q1.w), glm::radians(150.0), 1e-5);
  for (double t = 0.0; t <= 2.0; t += 0.0625) {
    const Transform a = at(cut, t), b = at(m.clips[0], 0.5 + t);
    EXPECT_NEAR_GLM(a.translation, b.translation, 1e-5f) << t;
    EXPECT_SAME_ROTATION(a.rotation, b.rotation, 1e-5f) << t;
  }
}

TEST(ClipCut, StepKeysHoldTheKeyAtOrBeforeEachEnd) {
  const Model m = keyed_model(Interpolation::Step);
  ClipRuntime cut;
  ASSERT_EQ(cut_clip(m.clips[0], m.skeleton, 1.5, 3.0, "step", &cut), "");
  EXPECT_NEAR(at(cut, 0.0).translation.x, 1.0f, 1e-6);  // the key at 1 holds at 1.5
  EXPECT_NEAR(at(cut, 0.49).translation.x, 1.0f, 1e-6);
  EXPECT_NEAR(at(cut, 0.5).translation.x, 3.0f, 1e-6);  // the key at 2
  EXPECT_NEAR(at(cut, 1.5).translation.x, 6.0f, 1e-6);  // the key at 3, the end
  for (double t = 0.0; t <= 1.5; t += 0.0625) {
    EXPECT_NEAR_GLM(at(cut, t).translation, at(m.clips[0], 1.5 + t).translation, 1e-6f) << t;
    EXPECT_SAME_ROTATION(at(cut, t).rotation, at(m.clips[0], 1.5 + t).rotation, 1e-6f) << t;
  }
}

TEST(ClipCut, CubicSplinesKeepTheirCurveOnThePartKept) {
  Clip c;
  c.name = "curve";
  c.duration = 2.0;
  JointChannel ch;
  ch.joint = 0;
  ch.translation.interpolation = Interpolation::CubicSpline;
  ch.translation.times = {0.0, 1.0, 2.0};
  // (in-tangent, value, out-tangent) per key, units per second.
  ch.translation.values = {glm::vec3(0),        glm::vec3(0),       glm::vec3(2, 0, 0),
                           glm::vec3(-1, 1, 0), glm::vec3(1, 2, 0), glm::vec3(3, -1, 0),
                           glm::vec3(0, 2, 0),  glm::vec3(0, 0, 1), glm::vec3(0)};
  ch.rotation.interpolation = Interpolation::CubicSpline;
  ch.rotation.times = {0.0, 2.0};
  ch.rotation.values = {glm::quat(0, 0, 0, 0),       glm::quat(1, 0, 0, 0),
                        glm::quat(0, 0, 0, 0.5f),    glm::quat(0, 0, 0.3f, 0),
                        glm::quat(0.8f, 0, 0, 0.6f), glm::quat(0, 0, 0, 0)};
  c.channels.push_back(std::move(ch));
  const Model m = one_joint_model(std::move(c));
  ClipRuntime cut;
  ASSERT_EQ(cut_clip(m.clips[0], m.skeleton, 0.25, 1.625, "part", &cut), "");
  // By hand at the start: a = 0.25 of [0, 1]: h00 = 0.84375, h10 = 0.140625, h01 = 0.15625,
  // h11 = -0.046875; x = 0.140625 * 2 + 0.15625 * 1 - 0.046875 * (-1) = 0.484375.
  EXPECT_NEAR(at(cut, 0.0).translation.x, 0.484375f, 1e-6);
  for (double t = 0.0; t <= 1.375; t += 0.03125) {
    EXPECT_NEAR_GLM(at(cut, t).translation, at(m.clips[0], 0.25 + t).translation, 1e-5f) << t;
    // Rotations: the boundary keys are made unit (sampling holds a key as stored), which moves
    // the kept part of the segment by what the source's curve strays from unit length (this one,
    // made to stray, by 0.2 %).
    EXPECT_SAME_ROTATION(at(cut, t).rotation, at(m.clips[0], 0.25 + t).rotation, 1e-3f) << t;
  }
  const glm::quat q = at(cut, 0.0).rotation;
  EXPECT_NEAR(glm::length(q), 1.0f, 1e-6f);
  EXPECT_SAME_ROTATION(q, glm::normalize(at(m.clips[0], 0.25).rotation), 1e-6f);
}

TEST(ClipCut, ComponentsTheSourceDoesNotKeyStayUnkeyedAndBadRangesAreRefused) {
  const Model m = keyed_model(Interpolation::Linear);
  ClipRuntime cut;
  ASSERT_EQ(cut_clip(m.clips[0], m.skeleton, 0.0, 3.0, "all", &cut), "");
  EXPECT_EQ(cut.keyed()[0], kKeyedTranslation | kKeyedRotation);
  EXPECT_NE(cut_clip(m.clips[0], m.skeleton, 2.0, 1.0, "x", &cut), "");
  EXPECT_TRUE(cut.empty());
  EXPECT_NE(cut_clip(m.clips[0], m.skeleton, 1.0, 1.0, "x", &cut), "");
  EXPECT_NE(cut_clip(m.clips[0], m.skeleton, -0.5, 1.0, "x", &cut), "");
  EXPECT_NE(cut_clip(m.clips[0], m.skeleton, 1.0, 3.5, "x", &cut).find("past the clip's end"),
            std::string::npos);
  EXPECT_NE(cut_clip(m.clips[0], m.skeleton, 0.0, std::nan(""), "x", &cut), "");
}

TEST(ClipCut, TheKeyRateIsTheGridTheKeysLieOn) {
  const Model m = keyed_model(Interpolation::Linear);
  // Keys at 0, 1, 2, 3 and 0, 1.5, 3: the shortest interval 1 s, but 1.5 is off that grid.
  EXPECT_EQ(clip_key_rate(m.clips[0]), 0.0);
  JointChannel ch;
  ch.translation.times = {0.0, 0.25, 0.5, 1.0};
  ch.translation.values = {glm::vec3(0), glm::vec3(1), glm::vec3(2), glm::vec3(3)};
  const Model grid = one_joint_model(std::move(ch), "grid");
  EXPECT_DOUBLE_EQ(clip_key_rate(grid.clips[0]), 4.0);
}

}  // namespace
}  // namespace sv::test
