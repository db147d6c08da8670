// ClipRuntime against the scalar reference (reference_sampler.h) on random clips that mix step,
// linear and cubic tracks, shared and separate key times, empty and one-key tracks, joints
// without channels, keys starting after 0 and rotations far apart: forward playback with loop
// wraps, random seeks, times on the keys and outside them, through sample_runtime, sample_joint
// and evaluate_pose (against local_to_model + build_palette of the reference). Refusals.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include <glm/gtc/quaternion.hpp>

#include "anim/clip_runtime.h"
#include "anim/player.h"
#include "anim/pose.h"
#include "anim/skeleton.h"
#include "reference_sampler.h"

namespace sv {
namespace {

Skeleton random_skeleton(int joints, std::mt19937& rng) {
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  Skeleton s;
  for (int i = 0; i < joints; ++i) {
    s.names.push_back(
        std::to_string(i).insert(0, 1, 'j'));  // GCC 12 -Wrestrict false positive on "j" + ...
    s.parents.push_back(i == 0 ? kNoParent
                               : static_cast<int32_t>(rng() % static_cast<uint32_t>(i)));
    Transform t;
    t.translation = glm::vec3(u(rng), u(rng), u(rng));
    t.rotation = glm::normalize(glm::quat(u(rng) + 2.0f, u(rng), u(rng), u(rng)));
    t.scale = glm::vec3(1.0f + 0.2f * u(rng), 1.0f + 0.2f * u(rng), 1.0f + 0.2f * u(rng));
    s.rest.push_back(t);
    s.is_bone.push_back(1);
  }
  std::vector<glm::mat4> model(s.size());
  local_to_model(s.parents, s.rest, model);
  for (const glm::mat4& m : model) s.inverse_bind.push_back(glm::inverse(m));
  return s;
}

// Key times: the shared 30 fps grid, or an irregular one of its own starting after 0.
std::vector<double> key_times(std::mt19937& rng, double duration, bool shared) {
  std::vector<double> times;
  if (shared) {
    for (int k = 0; k <= static_cast<int>(duration * 30.0); ++k) times.push_back(k / 30.0);
    return times;
  }
  std::uniform_real_distribution<double> step(0.01, 0.3);
  const int keys = 1 + static_cast<int>(rng() % 12u);
  double t = 0.5 * step(rng);
  for (int k = 0; k < keys && t < duration; ++k, t += step(rng)) times.push_back(t);
  return times;
}

Interpolation random_interpolation(std::mt19937& rng) {
  const uint32_t r = rng() % 6u;
  return r == 0 ? Interpolation::Step : r == 1 ? Interpolation::CubicSpline : Interpolation::Linear;
}

template <class T, class Make>
void fill(Track<T>& track, std::mt19937& rng, double duration, Make make) {
  const uint32_t kind = rng() % 10u;
  if (kind == 0) return;  // empty: rest value
  track.interpolation = random_interpolation(rng);
  track.times = key_times(rng, duration, kind < 7);
  if (kind == 9) track.times.resize(1);  // one key
  const std::size_t values =
      track.times.size() * (track.interpolation == Interpolation::CubicSpline ? 3 : 1);
  for (std::size_t v = 0; v < values; ++v) track.values.push_back(make());
}

Clip random_clip(const Skeleton& s, std::mt19937& rng, double duration) {
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  Clip clip;
  clip.name = "random";
  clip.duration = duration;
  for (std::size_t j = 0; j < s.size(); ++j) {
    if (rng() % 8u == 0) continue;  // joint without a channel
    JointChannel ch;
    ch.joint = static_cast<int32_t>(j);
    fill(ch.translation, rng, duration, [&] { return glm::vec3(u(rng), u(rng), u(rng)); });
    // Mostly close keys (Eberly's range), some far apart and some nearly equal, some with
    // opposite signs (the shorter arc).
    glm::quat prev = s.rest[j].rotation;
    fill(ch.rotation, rng, duration, [&] {
      const uint32_t r = rng() % 10u;
      glm::quat q = r == 0 ? glm::normalize(glm::quat(u(rng), u(rng), u(rng), u(rng)))
                    : r == 1
                        ? glm::normalize(prev + 0.001f * glm::quat(u(rng), u(rng), u(rng), u(rng)))
                        : glm::normalize(prev + 0.3f * glm::quat(u(rng), u(rng), u(rng), u(rng)));
      if (r == 2) q = -q;
      prev = q;
      return q;
    });
    fill(ch.scale, rng, duration, [&] {
      return glm::vec3(1.0f + 0.3f * u(rng), 1.0f + 0.3f * u(rng), 1.0f + 0.3f * u(rng));
    });
    clip.channels.push_back(std::move(ch));
  }
  std::shuffle(clip.channels.begin(), clip.channels.end(), rng);  // any channel order
  return clip;
}

// Within 1e-6; a cubic rotation's within 1e-6 / its length before normalisation (random
// tangents can make that sum short, e.g. 0.3, and normalising scales float rounding up by as
// much; `raw_length` from reference_pose, empty for all 1).
void expect_transforms_near(const std::vector<Transform>& got, const std::vector<Transform>& want,
                            double t, const char* what,
                            const std::vector<double>& raw_length = {}) {
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t j = 0; j < want.size(); ++j) {
    const double rtol = 1e-6 / std::min(1.0, raw_length.empty() ? 1.0 : raw_length[j]);
    for (int c = 0; c < 3; ++c) {
      ASSERT_NEAR(got[j].translation[c], want[j].translation[c], 1e-6f)
          << what << " t=" << t << " joint " << j << " translation " << c;
      ASSERT_NEAR(got[j].scale[c], want[j].scale[c], 1e-6f)
          << what << " t=" << t << " joint " << j << " scale " << c;
    }
    for (int c = 0; c < 4; ++c)
      ASSERT_NEAR(got[j].rotation[c], want[j].rotation[c], rtol)
          << what << " t=" << t << " joint " << j << " rotation " << c;
  }
}

// Relative to the matrix's magnitude (products of a chain of joints round in either order).
void expect_matrices_near(const std::vector<glm::mat4>& got, const std::vector<glm::mat4>& want,
                          double t, const char* what) {
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t i = 0; i < want.size(); ++i) {
    float scale = 1.0f;
    for (int c = 0; c < 4; ++c) scale = std::max(scale, glm::length(want[i][c]));
    for (int c = 0; c < 4; ++c)
      for (int r = 0; r < 4; ++r)
        ASSERT_NEAR(got[i][c][r], want[i][c][r], 2e-6f * scale)
            << what << " t=" << t << " matrix " << i << " [" << c << "][" << r << "]";
  }
}

struct Fixture {
  Skeleton skeleton;
  Clip clip;
  ClipRuntime runtime;
  RuntimeCursor cursor;
  std::vector<Transform> got, want;

  Fixture(int joints, uint32_t seed) {
    std::mt19937 rng(seed);
    skeleton = random_skeleton(joints, rng);
    clip = random_clip(skeleton, rng, 2.0f);
    const std::string error = runtime.build(clip, skeleton);
    EXPECT_TRUE(error.empty()) << error;
    cursor.reset(runtime);
    got.resize(skeleton.size());
  }

  // sample_runtime, and sample_joint joint by joint, against the reference.
  void check(double t, const char* what) {
    std::vector<double> raw_length;
    want = test::reference_pose(clip, skeleton, t, &raw_length);
    ASSERT_TRUE(sample_runtime(runtime, t, cursor, got));
    expect_transforms_near(got, want, t, what, raw_length);
    // Into lanes (what blending reads): the same kernels, so the same bits.
    LocalLanes lanes(skeleton.size());
    ASSERT_TRUE(sample_runtime(runtime, t, cursor, lanes));
    for (std::size_t j = 0; j < got.size(); ++j) {
      const Transform x = lanes.get(j);
      ASSERT_EQ(x.translation, got[j].translation) << what << " t=" << t << " joint " << j;
      ASSERT_EQ(x.rotation, got[j].rotation) << what << " t=" << t << " joint " << j;
      ASSERT_EQ(x.scale, got[j].scale) << what << " t=" << t << " joint " << j;
    }
    std::vector<Transform> one(skeleton.size());
    for (std::size_t j = 0; j < one.size(); ++j) ASSERT_TRUE(sample_joint(runtime, t, j, one[j]));
    expect_transforms_near(one, want, t, what, raw_length);
  }
};

TEST(ClipRuntime, MatchesTheReferenceDuringPlaybackWithLoops) {
  for (uint32_t seed = 1; seed <= 20; ++seed) {
    Fixture f(1 + static_cast<int>(seed * 7 % 70), seed);
    double t = 0.0;
    for (int frame = 0; frame < 400; ++frame) {  // 3 loops of a 2 s clip at 60 fps
      t = wrap_time(t + 1.0 / 60.0, f.clip.duration, true);
      f.check(t, "playback");
    }
    for (int frame = 0; frame < 100; ++frame) {  // backwards
      t = wrap_time(t - 1.0 / 45.0, f.clip.duration, true);
      f.check(t, "reverse");
    }
  }
}

// Random clips per test: the sanitizer pass (SV_SANITIZER_BUILD, tests/CMakeLists.txt) runs the
// same code paths on fewer of them; it looks for memory and undefined-behaviour errors, which the
// first clips already reach, while the Release pass checks the numbers on all of them. At -O0
// under ASan this test cost 18 s of CPU with all ten.
#ifdef SV_SANITIZER_BUILD
constexpr uint32_t kSeekClips = 3;
#else
constexpr uint32_t kSeekClips = 10;
#endif

TEST(ClipRuntime, MatchesTheReferenceOnSeeksKeysAndOutside) {
  for (uint32_t seed = 100; seed < 100 + kSeekClips; ++seed) {
    Fixture f(61, seed);
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> u(-0.5, 2.5);
    for (int i = 0; i < 300; ++i) f.check(u(rng), "seek");
    for (int k = 0; k <= 60; ++k) f.check(k / 30.0, "on a key");
    for (const double t : {-1.0, 0.0, 2.0, 5.0, std::nan("")}) f.check(t, "outside");
    // Every irregular key time of the clip too.
    for (const JointChannel& ch : f.clip.channels)
      for (const double t : ch.rotation.times) f.check(t, "rotation key");
  }
}

TEST(ClipRuntime, EvaluatePoseMatchesLocalToModelAndPalette) {
  for (uint32_t seed = 200; seed < 210; ++seed) {
    Fixture f(1 + static_cast<int>(seed % 64), seed);
    const std::size_t n = f.skeleton.size();
    std::vector<int32_t> skin;
    std::vector<glm::mat4> inverse_bind;
    std::mt19937 rng(seed);
    for (std::size_t b = 0; b < n; b += 1 + rng() % 2u) {  // a skin on some joints, any order
      skin.push_back(static_cast<int32_t>(rng() % n));
      inverse_bind.push_back(f.skeleton.inverse_bind[static_cast<std::size_t>(skin.back())]);
    }
    std::vector<glm::mat4> model(n), want_model(n), palette(skin.size()), want_palette(skin.size());
    LocalLanes lanes(n);
    std::vector<glm::vec4> scratch(local_pose_scratch(n));
    double t = 0.0;
    for (int frame = 0; frame < 150; ++frame) {
      t = wrap_time(t + 1.0 / 60.0, f.clip.duration, true);
      f.want = test::reference_pose(f.clip, f.skeleton, t);
      ASSERT_TRUE(local_to_model(f.skeleton.parents, f.want, want_model));
      ASSERT_TRUE(build_palette(want_model, skin, inverse_bind, want_palette));
      ASSERT_TRUE(evaluate_pose(f.runtime, t, f.cursor, skin, inverse_bind, model, palette));
      expect_matrices_near(model, want_model, t, "model");
      expect_matrices_near(palette, want_palette, t, "palette");
      // The blend path's second half: sampled into lanes, then matrices once.
      ASSERT_TRUE(sample_runtime(f.runtime, t, f.cursor, lanes));
      ASSERT_TRUE(
          pose_from_local(f.skeleton.parents, lanes, skin, inverse_bind, model, palette, scratch));
      expect_matrices_near(model, want_model, t, "lanes model");
      expect_matrices_near(palette, want_palette, t, "lanes palette");
      // With the runtime clip's parents (checked at build): the same products, bit for bit.
      std::vector<glm::mat4> model2(n), palette2(skin.size());
      ASSERT_TRUE(pose_from_local(f.runtime, lanes, skin, inverse_bind, model2, palette2, scratch));
      EXPECT_EQ(model2, model);
      EXPECT_EQ(palette2, palette);
    }
  }
}

// Every joint keyed on the same grid with linear tracks: the 4-joint fast path, with keys far
// apart (the exact route per lane), nearly equal (nlerp) and of opposite signs in its lanes.
TEST(ClipRuntime, SharedLinearTracksWithFarAndNearKeys) {
  std::mt19937 rng(11u);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  const Skeleton s = random_skeleton(13, rng);
  Clip clip;
  clip.duration = 1.0f;
  for (int j = 0; j < 13; ++j) {
    JointChannel ch;
    ch.joint = j;
    glm::quat prev(1.0f, 0.0f, 0.0f, 0.0f);
    for (int k = 0; k <= 30; ++k) {
      const double t = k / 30.0;
      ch.translation.times.push_back(t);
      ch.rotation.times.push_back(t);
      ch.scale.times.push_back(t);
      ch.translation.values.push_back(glm::vec3(u(rng), u(rng), u(rng)));
      ch.scale.values.push_back(glm::vec3(1.0f + 0.1f * u(rng)));
      const uint32_t r = rng() % 8u;
      glm::quat q = r == 0 ? glm::normalize(glm::quat(u(rng), u(rng), u(rng), u(rng)))
                    : r == 1
                        ? glm::normalize(prev + 1e-4f * glm::quat(u(rng), u(rng), u(rng), u(rng)))
                        : glm::normalize(prev + 0.2f * glm::quat(u(rng), u(rng), u(rng), u(rng)));
      if (r == 2) q = -q;
      ch.rotation.values.push_back(q);
      prev = q;
    }
    clip.channels.push_back(std::move(ch));
  }
  ClipRuntime rt;
  ASSERT_EQ(rt.build(clip, s), "");
  EXPECT_EQ(rt.timelines(), 2u);
  RuntimeCursor cursor;
  cursor.reset(rt);
  std::vector<Transform> got(s.size()), want;
  std::vector<int32_t> skin(s.size());
  for (std::size_t i = 0; i < skin.size(); ++i) skin[i] = static_cast<int32_t>(i);
  std::vector<glm::mat4> model(s.size()), want_model(s.size()), palette(s.size()),
      want_palette(s.size());
  double t = 0.0;
  for (int frame = 0; frame < 200; ++frame) {
    t = wrap_time(t + 1.0 / 97.0, clip.duration, true);
    want = test::reference_pose(clip, s, t);
    ASSERT_TRUE(sample_runtime(rt, t, cursor, got));
    expect_transforms_near(got, want, t, "shared linear");
    ASSERT_TRUE(local_to_model(s.parents, want, want_model));
    ASSERT_TRUE(build_palette(want_model, skin, s.inverse_bind, want_palette));
    ASSERT_TRUE(evaluate_pose(rt, t, cursor, skin, s.inverse_bind, model, palette));
    expect_matrices_near(model, want_model, t, "shared linear model");
    expect_matrices_near(palette, want_palette, t, "shared linear palette");
  }
}

// Every kernel set below the best one too: SSE2 (the x86-64 baseline) and AVX2+FMA, where the
// CPU would pick a wider one (each set falls back to the one below when the CPU lacks it).
TEST(ClipRuntime, NarrowerKernelsMatchToo) {
  for (const int level : {0, 1}) {
    const int previous = detail::clip_runtime_max_isa(level);
    for (uint32_t seed = 300; seed < 306; ++seed) {
      Fixture f(1 + static_cast<int>(seed * 11 % 70), seed);
      std::vector<int32_t> skin(f.skeleton.size());
      for (std::size_t i = 0; i < skin.size(); ++i) skin[i] = static_cast<int32_t>(i);
      std::vector<glm::mat4> model(skin.size()), want_model(skin.size()), palette(skin.size()),
          want_palette(skin.size());
      double t = 0.0;
      for (int frame = 0; frame < 150; ++frame) {
        t = wrap_time(t + 1.0 / 60.0, f.clip.duration, true);
        f.check(t, level == 0 ? "sse2" : "avx2");
        ASSERT_TRUE(local_to_model(f.skeleton.parents, f.want, want_model));
        ASSERT_TRUE(build_palette(want_model, skin, f.skeleton.inverse_bind, want_palette));
        ASSERT_TRUE(
            evaluate_pose(f.runtime, t, f.cursor, skin, f.skeleton.inverse_bind, model, palette));
        expect_matrices_near(model, want_model, t, level == 0 ? "sse2 model" : "avx2 model");
        expect_matrices_near(palette, want_palette, t,
                             level == 0 ? "sse2 palette" : "avx2 palette");
      }
    }
    detail::clip_runtime_max_isa(previous);
  }
}

TEST(ClipRuntime, EmptyClipIsTheRestPose) {
  std::mt19937 rng(5u);
  const Skeleton s = random_skeleton(9, rng);
  Clip clip;
  clip.duration = 1.0f;
  ClipRuntime rt;
  ASSERT_EQ(rt.build(clip, s), "");
  EXPECT_EQ(rt.timelines(), 1u);
  RuntimeCursor cursor;
  cursor.reset(rt);
  std::vector<Transform> got(s.size());
  ASSERT_TRUE(sample_runtime(rt, 0.5, cursor, got));
  expect_transforms_near(got, s.rest, 0.5, "rest");
  EXPECT_EQ(rt.channels(), 0u);
  EXPECT_EQ(rt.keys(), 0u);
}

TEST(ClipRuntime, SharedKeyTimesShareOneTimeline) {
  std::mt19937 rng(6u);
  const Skeleton s = random_skeleton(10, rng);
  Clip clip;
  clip.duration = 1.0f;
  for (int j = 0; j < 10; ++j) {
    JointChannel ch;
    ch.joint = j;
    ch.rotation.times = {0.0f, 0.5f, 1.0f};
    ch.rotation.values.assign(3, glm::quat(1.0f, 0.0f, 0.0f, 0.0f));
    ch.translation.times = {0.0f, 0.5f, 1.0f};
    ch.translation.values.assign(3, glm::vec3(1.0f));
    clip.channels.push_back(std::move(ch));
  }
  ClipRuntime rt;
  ASSERT_EQ(rt.build(clip, s), "");
  EXPECT_EQ(rt.timelines(), 2u);  // the constant one and the shared one
}

// What --info and the UI read without the raw clip: name, duration, channels, keys, one
// component's key times and the nearest key before or after a time (the timeline's markers and
// the key buttons).
TEST(ClipRuntime, KeyTimesAndCountsForTheUi) {
  std::mt19937 rng(9u);
  const Skeleton s = random_skeleton(3, rng);
  Clip clip;
  clip.name = "keys";
  clip.duration = 2.0;
  JointChannel a;
  a.joint = 0;
  a.translation.times = {0.0, 1.0, 2.0};
  a.translation.values.resize(3);
  a.scale.times = {1.0, 2.0};  // not the translation's: a timeline of its own
  a.scale.values.assign(2, glm::vec3(1.0f));
  JointChannel b;
  b.joint = 2;
  b.rotation.times = {0.25, 1.5};
  b.rotation.values.assign(2, glm::quat(1.0f, 0.0f, 0.0f, 0.0f));
  clip.channels.push_back(std::move(a));
  clip.channels.push_back(std::move(b));
  ClipRuntime rt;
  ASSERT_EQ(rt.build(clip, s), "");
  EXPECT_EQ(rt.name(), "keys");
  EXPECT_EQ(rt.duration(), 2.0);
  EXPECT_EQ(rt.channels(), 2u);  // joints 0 and 2; joint 1 is not keyed
  EXPECT_EQ(rt.keys(), 7u);      // 3 + 2 + 2
  const auto times = [&](std::size_t j, TrackPath p) {
    const std::span<const double> k = rt.key_times(j, p);
    return std::vector<double>(k.begin(), k.end());
  };
  EXPECT_EQ(times(0, TrackPath::Translation), (std::vector<double>{0.0, 1.0, 2.0}));
  EXPECT_EQ(times(0, TrackPath::Scale), (std::vector<double>{1.0, 2.0}));
  EXPECT_TRUE(times(0, TrackPath::Rotation).empty());  // the rest value: no keys
  EXPECT_TRUE(times(1, TrackPath::Translation).empty());
  EXPECT_EQ(times(2, TrackPath::Rotation), (std::vector<double>{0.25, 1.5}));
  EXPECT_TRUE(times(3, TrackPath::Rotation).empty());  // out of range
  EXPECT_EQ(rt.adjacent_key_time(0.0, 1), 0.25);
  EXPECT_EQ(rt.adjacent_key_time(0.25, 1), 1.0);
  EXPECT_EQ(rt.adjacent_key_time(1.2, -1), 1.0);
  EXPECT_EQ(rt.adjacent_key_time(1.0 + 1e-7, -1), 0.25);  // within 1e-6 s of a key: that key
  EXPECT_EQ(rt.adjacent_key_time(2.0, 1), 2.0);           // none after the last key
  EXPECT_EQ(rt.adjacent_key_time(0.0, -1), 0.0);          // none before the first
  EXPECT_EQ(rt.adjacent_key_time(1.6, 1), 2.0);
}

TEST(ClipRuntime, RefusesInvalidClipsAndWrongSizes) {
  std::mt19937 rng(8u);
  const Skeleton s = random_skeleton(5, rng);
  Clip bad;
  bad.duration = 1.0f;
  JointChannel ch;
  ch.joint = 7;  // out of range
  bad.channels.push_back(std::move(ch));
  ClipRuntime rt;
  EXPECT_NE(rt.build(bad, s), "");
  EXPECT_TRUE(rt.empty());

  Clip clip = random_clip(s, rng, 1.0f);
  ASSERT_EQ(rt.build(clip, s), "");
  RuntimeCursor cursor;  // not reset
  std::vector<Transform> local(s.size());
  EXPECT_FALSE(sample_runtime(rt, 0.1f, cursor, local));
  cursor.reset(rt);
  std::vector<Transform> short_local(s.size() - 1);
  EXPECT_FALSE(sample_runtime(rt, 0.1f, cursor, short_local));
  std::vector<glm::mat4> model(s.size()), palette(1);
  const std::vector<int32_t> skin_bad{5};
  const std::vector<glm::mat4> ib(1, glm::mat4(1.0f));
  const glm::mat4 sentinel(7.0f);
  palette[0] = sentinel;
  EXPECT_FALSE(evaluate_pose(rt, 0.1f, cursor, skin_bad, ib, model, palette));
  EXPECT_EQ(palette[0], sentinel);
  const std::vector<int32_t> skin{4};
  EXPECT_FALSE(
      evaluate_pose(rt, 0.1f, cursor, skin, ib, std::span<glm::mat4>(model).first(4), palette));
  EXPECT_TRUE(evaluate_pose(rt, 0.1f, cursor, skin, ib, model, palette));
  EXPECT_TRUE(evaluate_pose(rt, 0.1f, cursor, {}, {}, model, {}));  // model matrices alone
}

}  // namespace
}  // namespace sv
