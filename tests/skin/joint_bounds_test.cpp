// joint_bounds: the box "frame selected" frames, computed by hand on the 3-joint chain of
// tests/gfx/synthetic_models.h in its rest pose (= its bind pose: every vertex where stored).
#include <gtest/gtest.h>

#include "anim/animator.h"
#include "gfx/synthetic_models.h"
#include "skin/joint_bounds.h"

namespace sv {
namespace {

// Joint j sits at (0, j, 0); ring j's four vertices at y = j + 0.3, radius 0.2 in x and z,
// weighted 0.7 on joint j and 0.3 on j + 1 (the last ring 1.0 on its joint).
TEST(JointBounds, TheJointItsChildAndEveryVertexItWeighsOn) {
  const Model m = test::make_chain_model(3);
  Animator pose(m);
  ASSERT_TRUE(pose.evaluate(m, PoseMode::Rest, 0.0));
  // Joint 1: itself (y 1), its child (y 2), ring 0 (0.3 on it, y 0.3), ring 1 (y 1.3).
  const Bounds b = joint_bounds(m, pose, 1);
  ASSERT_TRUE(b.valid());
  EXPECT_NEAR(b.min.y, 0.3f, 1e-5f);
  EXPECT_NEAR(b.max.y, 2.0f, 1e-5f);
  EXPECT_NEAR(b.min.x, -0.2f, 1e-5f);
  EXPECT_NEAR(b.max.x, 0.2f, 1e-5f);
  EXPECT_NEAR(b.min.z, -0.2f, 1e-5f);
  EXPECT_NEAR(b.max.z, 0.2f, 1e-5f);
  // The leaf: itself (y 2), ring 1 (0.3 on it, y 1.3) and ring 2 (y 2.3).
  const Bounds leaf = joint_bounds(m, pose, 2);
  EXPECT_NEAR(leaf.min.y, 1.3f, 1e-5f);
  EXPECT_NEAR(leaf.max.y, 2.3f, 1e-5f);
  EXPECT_FALSE(joint_bounds(m, pose, 3).valid());
  EXPECT_FALSE(joint_bounds(m, pose, -1).valid());
}

// Posed, the vertices go where skinning puts them: the whole chain moved 5 up by its root.
TEST(JointBounds, FollowsThePose) {
  Model m = test::make_chain_model(3);
  m.skeleton.rest[0].translation = glm::vec3(0.0f, 5.0f, 0.0f);
  Animator pose(m);
  ASSERT_TRUE(pose.evaluate(m, PoseMode::Rest, 0.0));
  const Bounds b = joint_bounds(m, pose, 1);
  EXPECT_NEAR(b.min.y, 5.3f, 1e-4f);
  EXPECT_NEAR(b.max.y, 7.0f, 1e-4f);
}

}  // namespace
}  // namespace sv
