// clip_bounds: the bounds of a whole clip, for framing. A spike at one key is inside the box
// (key times are sampled), the sample count keeps within its work budget, a skeleton-only model
// is bounded by its joints, and the default character's wave reaches higher than its idle.
#include "skin/clip_bounds.h"

#include <gtest/gtest.h>
#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/quaternion.hpp>

#include "anim/model.h"
#include "anim/worker_pool.h"
#include "gfx/synthetic_models.h"
#include "skin/skinned_pose.h"
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
// the cap, so the spike is found to within one step's motion. A cancel before the first pose gives
// no bounds.
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

// A clip's box is its bones' boxes posed: a rod of two vertices at x = 1 and 2 on one joint that
// turns 90 degrees about z over the clip sweeps the quarter disc's box [0, 2] x [0, 2] x [0, 0],
// which is also the box of the rod's corners at 0 and 90 degrees, exactly.
TEST(ClipBounds, AClipIsBoundedByItsBonesBoxesPosed) {
  JointChannel ch;
  ch.rotation.times = {0.0f, 1.0f};
  ch.rotation.values = {glm::quat(1, 0, 0, 0), glm::angleAxis(1.5707963f, glm::vec3(0, 0, 1))};
  Model m = test::one_joint_model(std::move(ch), "turn");
  Mesh rod;
  rod.name = "rod";
  rod.node = 0;
  rod.skinned = true;
  rod.positions = {glm::vec3(1, 0, 0), glm::vec3(2, 0, 0)};
  rod.normals = {glm::vec3(0, 1, 0), glm::vec3(0, 1, 0)};
  rod.joints = {glm::u16vec4(0), glm::u16vec4(0)};
  rod.weights = {glm::vec4(1, 0, 0, 0), glm::vec4(1, 0, 0, 0)};
  rod.vertex_flags = {0, 0};
  rod.skin_joints = {0};
  rod.inverse_bind = {glm::mat4(1.0f)};
  m.meshes.push_back(std::move(rod));
  const Bounds b = clip_bounds(m, 0, PoseMode::Clip);
  ASSERT_TRUE(b.valid());
  EXPECT_NEAR(b.min.x, 0.0f, 1e-6f);
  EXPECT_NEAR(b.max.x, 2.0f, 1e-6f);
  EXPECT_NEAR(b.min.y, 0.0f, 1e-6f);
  EXPECT_NEAR(b.max.y, 2.0f, 1e-6f);
  EXPECT_NEAR(b.min.z, 0.0f, 1e-6f);
  EXPECT_NEAR(b.max.z, 0.0f, 1e-6f);
}

// The box is taken in each bone's own space: a joint resting at y = 1 (inverse bind: down by 1)
// with a vertex 2 above it, moved up by 3 over the clip, puts the vertex at y = 3 and 6 at the
// clip's ends and nowhere else; a rotation of 90 degrees about z then swings it to x = -2.
TEST(ClipBounds, ABonesBoxTurnsAboutItsJoint) {
  JointChannel ch;
  ch.translation.times = {0.0f, 1.0f};
  ch.translation.values = {glm::vec3(0, 1, 0), glm::vec3(0, 4, 0)};
  ch.rotation.times = {0.0f, 1.0f};
  ch.rotation.values = {glm::quat(1, 0, 0, 0), glm::angleAxis(1.5707963f, glm::vec3(0, 0, 1))};
  Model m = test::one_joint_model(std::move(ch), "lift");
  m.skeleton.rest[0].translation = glm::vec3(0, 1, 0);
  Mesh dot;
  dot.name = "dot";
  dot.node = 0;
  dot.skinned = true;
  dot.positions = {glm::vec3(0, 3, 0)};
  dot.normals = {glm::vec3(0, 1, 0)};
  dot.joints = {glm::u16vec4(0)};
  dot.weights = {glm::vec4(1, 0, 0, 0)};
  dot.vertex_flags = {0};
  dot.skin_joints = {0};
  dot.inverse_bind = {glm::translate(glm::mat4(1.0f), glm::vec3(0, -1, 0))};
  m.meshes.push_back(std::move(dot));
  const Bounds b = clip_bounds(m, 0, PoseMode::Clip);
  ASSERT_TRUE(b.valid());
  EXPECT_NEAR(b.min.x, -2.0f, 1e-5f);  // at the end: joint (0, 4, 0), the vertex 2 along -x
  EXPECT_NEAR(b.max.x, 0.0f, 1e-5f);
  EXPECT_NEAR(b.min.y, 3.0f, 1e-5f);  // at the start: where it is stored
  EXPECT_LE(b.max.y, 4.0f + 2.0f + 1e-5f);
  EXPECT_GT(b.max.y, 4.0f);
}

// Every vertex of a bending chain (two joints a vertex) skinned by linear blending at the times the
// bounds sample (1/30 s apart over its 1-s clip, its keys among them) lies in the box; the box is a
// bound, not far from the exact one (within a fifth of its size here).
TEST(ClipBounds, EverySkinnedVertexLiesInTheClipsBox) {
  const Model m = test::make_chain_model(6);
  const Bounds b = clip_bounds(m, 0, PoseMode::Clip);
  ASSERT_TRUE(b.valid());
  const float eps = 1e-5f * b.diagonal();
  Bounds exact;
  SkinnedPose pose(m);
  pose.pose.set_clip(m, 0);
  for (int i = 0; i <= 30; ++i) {
    ASSERT_TRUE(pose.evaluate(m, PoseMode::Clip, i / 30.0));
    ASSERT_TRUE(pose.skin_cpu(m));
    for (const glm::vec3& p : pose.skinned_positions(0)) {
      exact.add(p);
      for (int a = 0; a < 3; ++a) {
        EXPECT_GE(p[a], b.min[a] - eps) << "t " << i / 30.0;
        EXPECT_LE(p[a], b.max[a] + eps) << "t " << i / 30.0;
      }
    }
  }
  EXPECT_LT(b.diagonal(), 1.2f * exact.diagonal());
}

// The rest and bind poses' boxes are exact: the box of every vertex skinned whole by a
// SkinnedPose, to the float, on a chain of 20,000 vertices (more than one block of the box's
// skinning: 16,384) bent at its rest pose at joints 4200 and 4600 (vertices 16,800 on, in the
// second block: the box's -x side comes from there), through a pool and without one.
TEST(ClipBounds, TheRestPosesBoxIsTheSkinnedVerticesBox) {
  Model m = test::make_chain_model(5000, 0.01f);
  for (const std::size_t j : {4200u, 4600u})
    m.skeleton.rest[j].rotation = glm::angleAxis(0.3f, glm::vec3(0, 0, 1));
  WorkerPool pool(2);
  for (const PoseMode mode : {PoseMode::Rest, PoseMode::Bind}) {
    SkinnedPose pose(m);
    ASSERT_TRUE(pose.evaluate(m, mode, 0.0));
    ASSERT_TRUE(pose.skin_cpu(m));
    Bounds exact;
    for (const glm::vec3& p : pose.skinned_positions(0)) exact.add(p);
    for (WorkerPool* with : {static_cast<WorkerPool*>(nullptr), &pool}) {
      const Bounds b = clip_bounds(m, -1, mode, with);
      ASSERT_TRUE(b.valid());
      EXPECT_EQ(b.min, exact.min);
      EXPECT_EQ(b.max, exact.max);
    }
    if (mode == PoseMode::Rest) {
      // Bent: the last 8 units lean off +y, by more than 8 sin 0.3 (guards against a straight
      // chain's trivial box, and against a box of the first block alone).
      EXPECT_LT(exact.min.x, -2.3f);
    } else {
      // The bind pose is where the vertices are stored: 0.2 x 0.01 around the y axis.
      EXPECT_NEAR(exact.min.x, -0.002f, 1e-6f);
    }
  }
}

}  // namespace
}  // namespace sv
