// Crowd (skin/crowd.h): every instance's palette is the single model's (the Animator's) at that
// instance's clip and time; shared palettes cost one palette per group of instances in step;
// bad settings are refused with a reason; evaluate() allocates nothing.
#include <cmath>
#include <set>
#include <utility>

#include <gtest/gtest.h>
#include <glm/gtc/quaternion.hpp>

#include "allocation_counter.h"
#include "anim/model.h"
#include "anim/worker_pool.h"
#include "gfx/synthetic_models.h"
#include "skin/crowd.h"
#include "skin/skinned_pose.h"
#include "test_util.h"

namespace sv {
namespace {

// The 5-joint chain (clip 0 "bend", 1 s) and a second clip "twist" of 2.5 s.
Model two_clip_chain() {
  Model m = test::make_chain_model(5);
  Clip clip;
  clip.name = "twist";
  clip.duration = 2.5f;
  for (int j = 0; j < 5; ++j) {
    JointChannel c;
    c.joint = j;
    c.rotation.times = {0.0, 1.25, 2.5};
    c.rotation.values = {glm::quat(1, 0, 0, 0), glm::angleAxis(0.4f, glm::vec3(0, 1, 0)),
                         glm::angleAxis(-0.3f, glm::vec3(1, 0, 0))};
    clip.channels.push_back(std::move(c));
  }
  m.clips.emplace_back();
  EXPECT_EQ(m.clips.back().build(clip, m.skeleton), "");
  return m;
}

// The crowd's palette of instance i against the Animator's single-model pose at `time` of `clip`.
void expect_instance_is_single_model(const Model& model, const Crowd& crowd, std::size_t i,
                                     int32_t clip, double time) {
  SkinnedPose single(model);
  single.pose.set_clip(model, clip);
  ASSERT_TRUE(single.evaluate(model, PoseMode::Clip, time));
  const std::size_t g = crowd.instance_groups()[i];
  const std::size_t bones = crowd.bones();
  ASSERT_EQ(single.pose.palette().size(), bones);
  for (std::size_t b = 0; b < bones; ++b) {
    EXPECT_NEAR_GLM(crowd.palettes()[g * bones + b], single.pose.palette()[b], 1e-6f)
        << "instance " << i << " bone " << b;
    EXPECT_NEAR_GLM(crowd.normal_palettes()[g * bones + b], single.normal_palette()[b], 1e-6f)
        << "instance " << i << " bone " << b;
  }
}

TEST(Crowd, EachInstanceIsTheSingleModelAtItsTime) {
  const Model model = two_clip_chain();
  CrowdSettings s;
  s.count = 70;          // enough groups to split over the pool
  s.cycle_clips = true;  // instances alternate bend (base) and twist
  s.random_phases = true;
  s.seed = 7;
  Crowd crowd;
  WorkerPool pool(3);
  ASSERT_EQ(crowd.configure(model, s, 0, pool.size()), "");
  EXPECT_EQ(crowd.groups(), 70u);
  crowd.set_clock(0.0);
  // Several frames: the cursors move forward, wrap, and the other clip follows the clock.
  double clock = 0.0;
  for (double base : {0.1, 0.55, 0.9, 0.2}) {
    crowd.set_clock(clock);
    ASSERT_TRUE(crowd.evaluate(model, base, SkinMethod::Lbs, &pool));
    EXPECT_EQ(crowd.palettes_computed(), 70u);
    for (std::size_t i = 0; i < crowd.instances(); ++i) {
      const int32_t clip = static_cast<int32_t>(i % 2);
      EXPECT_EQ(crowd.instance_clip(i), clip);
      const double offset = crowd.instance_offset(i);
      const double duration = clip == 0 ? 1.0 : 2.5;
      EXPECT_GE(offset, 0.0);
      EXPECT_LT(offset, duration);
      if (i == 0) {
        EXPECT_EQ(offset, 0.0) << "instance 0 is the single model";
      }
      // Hand-computed: the base clip on the player's time, the other on the clock, wrapped.
      double t = std::fmod((clip == 0 ? base : clock) + offset, duration);
      if (i == 0) t = base;
      EXPECT_NEAR(crowd.group_time(crowd.instance_groups()[i]), t, 1e-12) << "instance " << i;
      expect_instance_is_single_model(model, crowd, i, clip, t);
    }
    clock += 0.7;
  }
  // Instance 0 stands at the origin, the others on the grid, `spacing` apart.
  EXPECT_EQ(crowd.placements()[0], glm::vec3(0.0f));
  EXPECT_EQ(crowd.placements()[1], glm::vec3(-1.0f, 0.0f, 1.0f));
}

TEST(Crowd, RandomPhasesDifferAndInStepWithoutThem) {
  const Model model = two_clip_chain();
  CrowdSettings s;
  s.count = 6;
  s.random_phases = false;
  Crowd crowd;
  ASSERT_EQ(crowd.configure(model, s, 1), "");
  ASSERT_TRUE(crowd.evaluate(model, 1.0, SkinMethod::Lbs));
  for (std::size_t i = 0; i < 6; ++i) {
    EXPECT_EQ(crowd.instance_offset(i), 0.0);
    expect_instance_is_single_model(model, crowd, i, 1, 1.0);
  }
  s.random_phases = true;
  ASSERT_EQ(crowd.configure(model, s, 1), "");
  std::set<double> offsets;
  for (std::size_t i = 0; i < 6; ++i) offsets.insert(crowd.instance_offset(i));
  EXPECT_EQ(offsets.size(), 6u) << "out of phase";
}

// Shared palettes: one palette per group of instances in step, counted; without sharing one per
// instance.
TEST(Crowd, SharedPalettesCostOnePerGroup) {
  const Model model = two_clip_chain();
  CrowdSettings s;
  s.count = 100;
  s.shared = true;
  s.random_phases = true;
  s.phase_groups = 4;
  Crowd crowd;
  ASSERT_EQ(crowd.configure(model, s, 0), "");
  ASSERT_TRUE(crowd.evaluate(model, 0.3, SkinMethod::Lbs));
  // The groups counted independently: distinct (clip, offset) pairs over the instances.
  std::set<std::pair<int32_t, double>> in_step;
  for (std::size_t i = 0; i < crowd.instances(); ++i)
    in_step.insert({crowd.instance_clip(i), crowd.instance_offset(i)});
  EXPECT_EQ(in_step.size(), 4u) << "99 random draws of 4 phases hit every one";
  EXPECT_EQ(crowd.groups(), in_step.size());
  EXPECT_EQ(crowd.palettes_computed(), in_step.size());
  EXPECT_EQ(crowd.palettes().size(), in_step.size() * crowd.bones());
  for (std::size_t i = 0; i < crowd.instances(); ++i) {
    // Offsets are quarter phases of the 1-s clip.
    const double q = crowd.instance_offset(i) * 4.0;
    EXPECT_EQ(q, std::floor(q));
    expect_instance_is_single_model(model, crowd, i, 0, std::fmod(0.3 + q / 4.0, 1.0));
  }
  // In step without random phases: one palette per clip.
  s.random_phases = false;
  ASSERT_EQ(crowd.configure(model, s, 0), "");
  ASSERT_TRUE(crowd.evaluate(model, 0.3, SkinMethod::Lbs));
  EXPECT_EQ(crowd.palettes_computed(), 1u);
  s.cycle_clips = true;
  ASSERT_EQ(crowd.configure(model, s, 0), "");
  ASSERT_TRUE(crowd.evaluate(model, 0.3, SkinMethod::Lbs));
  EXPECT_EQ(crowd.palettes_computed(), 2u);
  // Not shared: one per instance, even in step.
  s.shared = false;
  ASSERT_EQ(crowd.configure(model, s, 0), "");
  ASSERT_TRUE(crowd.evaluate(model, 0.3, SkinMethod::Lbs));
  EXPECT_EQ(crowd.palettes_computed(), 100u);
}

TEST(Crowd, MethodPalettesForDqs) {
  const Model model = two_clip_chain();
  CrowdSettings s;
  s.count = 3;
  Crowd crowd;
  ASSERT_EQ(crowd.configure(model, s, 0), "");
  ASSERT_TRUE(crowd.evaluate(model, 0.4, SkinMethod::Dqs));
  SkinnedPose single(model);
  single.set_skin(SkinChoice{SkinMethod::Dqs, {}, 4});
  single.pose.set_clip(model, 0);
  ASSERT_TRUE(single.evaluate(model, PoseMode::Clip, 0.4));
  for (std::size_t b = 0; b < crowd.bones(); ++b) {
    EXPECT_NEAR_GLM(crowd.method_palettes()[b].real, single.method_palette()[b].real, 1e-6f);
    EXPECT_NEAR_GLM(crowd.method_palettes()[b].dual, single.method_palette()[b].dual, 1e-6f);
  }
}

TEST(Crowd, RestAndBindPoses) {
  const Model model = two_clip_chain();
  CrowdSettings s;
  s.count = 2;
  Crowd crowd;
  ASSERT_EQ(crowd.configure(model, s, kBindPose), "");
  ASSERT_TRUE(crowd.evaluate(model, 0.0, SkinMethod::Lbs));
  // The chain's rest pose is its bind pose: identity palettes either way.
  for (const glm::mat4& k : crowd.palettes()) EXPECT_NEAR_GLM(k, glm::mat4(1.0f), 1e-6f);
  ASSERT_EQ(crowd.configure(model, s, kRestPose), "");
  ASSERT_TRUE(crowd.evaluate(model, 0.0, SkinMethod::Lbs));
  for (const glm::mat4& k : crowd.palettes()) EXPECT_NEAR_GLM(k, glm::mat4(1.0f), 1e-6f);
}

TEST(Crowd, BadSettingsAreRefused) {
  const Model model = two_clip_chain();
  Crowd crowd;
  for (int32_t n : {0, -1, kMaxCrowd + 1, 2000000000}) {
    CrowdSettings s;
    s.count = n;
    const std::string e = crowd.configure(model, s, 0);
    EXPECT_NE(e.find("1 to 10000 instances"), std::string::npos) << e;
    EXPECT_TRUE(crowd.empty());
    EXPECT_FALSE(crowd.evaluate(model, 0.0, SkinMethod::Lbs));
  }
  CrowdSettings s;
  s.spacing = std::nanf("");
  EXPECT_NE(check_crowd(s), "");
  s.spacing = 0.0f;
  EXPECT_NE(check_crowd(s), "");
  s = CrowdSettings{};
  s.phase_groups = 0;
  EXPECT_NE(check_crowd(s), "");
  EXPECT_NE(crowd.configure(model, CrowdSettings{}, 2), "") << "no clip 2";
  // A crowd configured for another model is refused.
  ASSERT_EQ(crowd.configure(model, CrowdSettings{}, 0), "");
  const Model other = test::make_chain_model(3);
  EXPECT_FALSE(crowd.evaluate(other, 0.0, SkinMethod::Lbs));
}

TEST(Crowd, EvaluateAllocatesNothing) {
  if (!SV_COUNT_ALLOCATIONS) GTEST_SKIP() << "allocations are not counted under ASan";
  const Model model = two_clip_chain();
  CrowdSettings s;
  s.count = 100;  // split over the pool
  s.cycle_clips = true;
  WorkerPool pool(2);
  Crowd crowd;
  ASSERT_EQ(crowd.configure(model, s, 0, pool.size()), "");
  ASSERT_TRUE(crowd.evaluate(model, 0.0, SkinMethod::Dqs, &pool));
  const long before = test::g_allocations.load();
  for (int f = 0; f < 20; ++f) {
    crowd.advance(1.0 / 60.0);
    ASSERT_TRUE(crowd.evaluate(model, f / 60.0, SkinMethod::Dqs, &pool));
  }
  EXPECT_EQ(test::g_allocations.load(), before);
}

}  // namespace
}  // namespace sv
