// clip_bounds: the bounds of a whole clip, for framing. A spike at one key is inside the box
// (key times are sampled), the sample count keeps within its work budget, a skeleton-only model
// is bounded by its joints, and the default character's wave reaches higher than its idle.
#include "skin/clip_bounds.h"

#include <gtest/gtest.h>

#include "anim/model.h"
#include "test_util.h"

namespace sv {
namespace {

// One joint moving up along y to `peak` at t = 0.52 only (keys 0, 0.5, 0.52, 0.54, 1), with a
// one-vertex mesh at the joint when `mesh`.
Model spike(float peak, bool mesh) {
  JointChannel ch;
  ch.translation.times = {0.0f, 0.5f, 0.52f, 0.54f, 1.0f};
  ch.translation.values = {glm::vec3(0), glm::vec3(0), glm::vec3(0, peak, 0), glm::vec3(0),
                           glm::vec3(0)};
  Model m = test::one_joint_model(std::move(ch), "spike");
  if (mesh) {
    Mesh me;
    me.name = "dot";
    me.node = 0;
    me.skinned = true;
    me.positions = {glm::vec3(1, 0, 0)};
    me.normals = {glm::vec3(0, 1, 0)};
    me.joints = {glm::u16vec4(0)};
    me.weights = {glm::vec4(1, 0, 0, 0)};
    me.vertex_flags = {0};
    me.skin_joints = {0};
    me.inverse_bind = {glm::mat4(1.0f)};
    m.meshes.push_back(std::move(me));
  }
  return m;
}

TEST(ClipBounds, APeakAtOneKeyIsInside) {
  for (bool mesh : {true, false}) {
    const Model m = spike(5.0f, mesh);
    const Bounds b = clip_bounds(m, 0, PoseMode::Clip);
    ASSERT_TRUE(b.valid());
    EXPECT_FLOAT_EQ(b.max.y, 5.0f) << (mesh ? "mesh" : "joints");
    EXPECT_FLOAT_EQ(b.min.y, 0.0f);
    EXPECT_FLOAT_EQ(b.min.x, mesh ? 1.0f : 0.0f);
    // The rest pose is one pose: the vertex (or the joint) where it rests.
    const Bounds rest = clip_bounds(m, -1, PoseMode::Rest);
    EXPECT_FLOAT_EQ(rest.max.y, 0.0f);
  }
}

TEST(ClipBounds, SampleCountFollowsTheClipAndTheWorkBudget) {
  EXPECT_EQ(bounds_samples(0.0f, 3, 100), 1);   // a single pose
  EXPECT_EQ(bounds_samples(1.0f, 0, 100), 31);  // 0, 1/30, ..., 30/30
  EXPECT_EQ(bounds_samples(1.0f, 5, 100), 31 + 5);
  // 1M vertices: 2^25 / 2^20 = 32 poses, whatever the clip's length.
  EXPECT_EQ(bounds_samples(10.0f, 300, std::size_t{1} << 20), 32);
  EXPECT_EQ(bounds_samples(1000.0f, 0, 10), kMaxBoundsSamples);
  EXPECT_EQ(bounds_samples(1.0f, 0, std::size_t{1} << 30), 2);  // at least both ends
}

// A clip of 8.5e7 s (a mutated 3DS file): the 30 Hz grid would be 2.5e9 times, built whole
// before thinning (20 GB); now the cap's worth of evenly spread times and the keys, thinned to
// the cap, so the spike is found to within one step's motion. A cancel before the first pose gives no bounds.
TEST(ClipBounds, AVeryLongClipIsSampledAtTheCap) {
  const double duration = 8.5e7;
  JointChannel ch;
  ch.joint = 0;
  for (float t : {0.0f, 0.5f, 0.52f, 0.54f, 1.0f}) ch.translation.times.push_back(t * 8.5e7f);
  ch.translation.values = {glm::vec3(0), glm::vec3(0), glm::vec3(0, 5, 0), glm::vec3(0),
                           glm::vec3(0)};
  Model m = spike(5.0f, true);
  Clip c;
  c.name = "long";
  c.duration = duration;
  c.channels.push_back(std::move(ch));
  m.clips.clear();
  m.clips.emplace_back();
  ASSERT_EQ(m.clips.back().build(c, m.skeleton), "");
  ASSERT_EQ(m.validate(), "");
  const Bounds b = clip_bounds(m, 0, PoseMode::Clip);
  ASSERT_TRUE(b.valid());
  // Thinned to 4096 poses, 20,757 s apart, on a spike 1.7e6 s wide: within 5 x 2.1e4 / 1.7e6.
  EXPECT_NEAR(b.max.y, 5.0f, 0.07f);
  EXPECT_GT(b.max.y, 4.9f);
  std::atomic<bool> cancel{true};
  EXPECT_FALSE(clip_bounds(m, 0, PoseMode::Clip, nullptr, &cancel).valid());
}

}  // namespace
}  // namespace sv
