// The difference views' numbers (skin/skin_difference.h): per-vertex distances and their figures
// computed by hand, and the method-vs-method comparison on a two-bone half-turn twist where LBS
// and DQS differ by amounts worked out below.
#include <cmath>
#include <limits>
#include <vector>

#include <gtest/gtest.h>

#include <glm/gtc/quaternion.hpp>

#include "anim/model.h"
#include "anim/morph.h"
#include "anim/worker_pool.h"
#include "skin/skin_difference.h"
#include "skin/skinned_pose.h"
#include "test_util.h"

namespace sv {
namespace {

TEST(VertexDistances, AreEuclideanAndNonFiniteIsInfinite) {
  const std::vector<glm::vec3> a = {{0, 0, 0}, {1, 0, 0}, {5, 5, 5}, {0, 0, 0}};
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const std::vector<glm::vec3> b = {{0, 0, 0}, {1, 3, 4}, {5, 5, 5.5f}, {nan, 0, 0}};
  std::vector<float> d(4, -1.0f);
  ASSERT_TRUE(vertex_distances(a, b, d));
  EXPECT_EQ(d[0], 0.0f);
  EXPECT_FLOAT_EQ(d[1], 5.0f);  // a 3-4-5 triangle
  EXPECT_FLOAT_EQ(d[2], 0.5f);
  EXPECT_TRUE(std::isinf(d[3]));
  // Sizes that disagree: nothing written.
  std::vector<float> short_out(3, -1.0f);
  EXPECT_FALSE(vertex_distances(a, b, short_out));
  EXPECT_EQ(short_out[0], -1.0f);
  EXPECT_FALSE(vertex_distances(a, std::span<const glm::vec3>(b).first(3), d));
}

TEST(VertexDistances, SmallDifferencesFarFromTheOriginSurvive) {
  // 1e-5 next to coordinates of 1000: float subtraction keeps it to ~6e-5 relative error.
  const std::vector<glm::vec3> a = {{1000.0f, 0, 0}};
  const std::vector<glm::vec3> b = {{std::nextafter(1000.0f, 2000.0f), 0, 0}};
  std::vector<float> d(1);
  ASSERT_TRUE(vertex_distances(a, b, d));
  EXPECT_FLOAT_EQ(d[0], std::nextafter(1000.0f, 2000.0f) - 1000.0f);
  EXPECT_GT(d[0], 0.0f);
}

TEST(DifferenceStats, AccumulateFindsTheLargestAndCountsOverTheThreshold) {
  DifferenceStats s;
  s.model_size = 10.0;
  s.threshold = 0.5;
  const std::vector<float> m0 = {0.0f, 0.25f, 0.75f};
  const std::vector<float> m1 = {2.0f, 0.5f};
  accumulate(s, 0, m0);
  accumulate(s, 1, m1);
  EXPECT_EQ(s.vertices, 5u);
  EXPECT_EQ(s.over, 2u);  // 0.75 and 2; 0.5 is not over 0.5
  EXPECT_DOUBLE_EQ(s.max, 2.0);
  EXPECT_EQ(s.mesh, 1u);
  EXPECT_EQ(s.vertex, 0u);
  EXPECT_DOUBLE_EQ(s.relative(), 0.2);
  const std::vector<float> inf = {std::numeric_limits<float>::infinity()};
  accumulate(s, 2, inf);
  EXPECT_TRUE(std::isinf(s.max));
  EXPECT_EQ(s.mesh, 2u);
  EXPECT_EQ(s.over, 3u);
}

// Two joints at the origin: "root" (identity) and "twist", its child, resting half a turn about
// x; inverse binds are the identity, so the rest pose's palette is {I, R_x(180)}. Vertices:
//   0: (0.3, 1, 0), 0.5/0.5.  LBS: the average of (0.3, 1, 0) and (0.3, -1, 0) = (0.3, 0, 0),
//      the candy wrapper's collapse to the axis. DQS: the blend of the unit quaternions 1 and i
//      (dot 0: no flip), normalised, is a quarter turn about x: (0.3, 0, 1). Apart by 1.
//   1: (0.3, 1, 0) on "twist" alone: (0.3, -1, 0) under both. Apart by 0.
//   2: (2, 0, 0), on the axis, 0.5/0.5: (2, 0, 0) under both. Apart by 0.
//   3: (1, 1, 0), 0.75/0.25. LBS: 0.75 (1, 1, 0) + 0.25 (1, -1, 0) = (1, 0.5, 0). DQS: the
//      blend 0.75 + 0.25 i is a turn of 2 atan(1/3) (cos 0.8, sin 0.6): (1, 0.8, 0.6).
//      Apart by sqrt(0.3^2 + 0.6^2) = sqrt(0.45).
// The stored positions span (0.3, 0, 0)..(2, 1, 0): stored_size is sqrt(1.7^2 + 1) = sqrt(3.89).
// Skinned at the rest pose (LBS, as clip_bounds skins one pose): (0.3, 0, 0), (0.3, -1, 0),
// (2, 0, 0), (1, 0.5, 0), which span (0.3, -1, 0)..(2, 0.5, 0): model_size is
// sqrt(1.7^2 + 1.5^2) = sqrt(5.14).
Model twist_model() {
  Model m;
  m.skeleton.names = {"root", "twist"};
  m.skeleton.parents = {kNoParent, 0};
  m.skeleton.rest = {test::trs(glm::vec3(0)),
                     test::trs(glm::vec3(0), glm::angleAxis(glm::pi<float>(), glm::vec3(1, 0, 0)))};
  m.skeleton.inverse_bind = {glm::mat4(1.0f), glm::mat4(1.0f)};
  m.skeleton.is_bone = {1, 1};
  Mesh mesh;
  mesh.name = "arm";
  mesh.skinned = true;
  mesh.node = 0;
  mesh.positions = {{0.3f, 1, 0}, {0.3f, 1, 0}, {2, 0, 0}, {1, 1, 0}};
  mesh.normals.assign(4, glm::vec3(0, 1, 0));
  mesh.joints = {{0, 1, 0, 0}, {1, 0, 0, 0}, {0, 1, 0, 0}, {0, 1, 0, 0}};
  mesh.weights = {{0.5f, 0.5f, 0, 0}, {1, 0, 0, 0}, {0.5f, 0.5f, 0, 0}, {0.75f, 0.25f, 0, 0}};
  mesh.vertex_flags.assign(4, 0);
  mesh.indices = {0, 2, 3};
  mesh.skin_joints = {0, 1};
  mesh.inverse_bind = {glm::mat4(1.0f), glm::mat4(1.0f)};
  mesh.max_joint = 1;
  m.meshes.push_back(std::move(mesh));
  return m;
}

TEST(ModelSize, IsTheRestPosesSkinnedDiagonal) {
  EXPECT_NEAR(model_size(twist_model()), std::sqrt(5.14), 1e-6);
  EXPECT_NEAR(stored_size(twist_model()), std::sqrt(3.89), 1e-6);
  EXPECT_EQ(model_size(Model{}), 0.0);
  EXPECT_EQ(stored_size(Model{}), 0.0);
}

// A mesh stored at 1/100 of the scale skinning writes (FBX/huesitos.fbx's case: its armature
// scaled by 100, its inverse binds not): the size is the skinned one, 100 times the stored one,
// so a difference in the skinned space is a fraction of a size in that same space.
TEST(ModelSize, IsMeasuredInTheSpaceSkinningWrites) {
  Model m = twist_model();
  m.skeleton.rest[0] = test::trs(glm::vec3(0), glm::quat(1, 0, 0, 0), glm::vec3(100.0f));
  EXPECT_NEAR(model_size(m), 100.0 * std::sqrt(5.14), 1e-4);
  EXPECT_NEAR(stored_size(m), std::sqrt(3.89), 1e-6);
  // Every joint scaled to nothing: the rest pose is a point, and the stored size stands in.
  m.skeleton.rest[0] = test::trs(glm::vec3(0), glm::quat(1, 0, 0, 0), glm::vec3(0.0f));
  EXPECT_NEAR(model_size(m), std::sqrt(3.89), 1e-6);
}

TEST(MethodDifference, HalfTurnTwistLbsAgainstDqsByHand) {
  const Model model = twist_model();
  SkinnedPose animator(model);
  animator.pose.set_clip(model, -1);
  ASSERT_TRUE(animator.evaluate(model, PoseMode::Rest, 0.0));
  MethodDifference diff(model);
  WorkerPool pool(2);
  for (WorkerPool* p : {static_cast<WorkerPool*>(nullptr), &pool}) {
    SCOPED_TRACE(p != nullptr ? "threaded" : "one thread");
    ASSERT_TRUE(diff.run(model, animator, SkinMethod::Lbs, SkinMethod::Dqs, {}, p));
    EXPECT_NEAR_GLM(diff.positions(0, 0)[0], glm::vec3(0.3f, 0, 0), 1e-6f);
    EXPECT_NEAR_GLM(glm::abs(diff.positions(1, 0)[0]), glm::vec3(0.3f, 0, 1), 1e-6f);
    const std::span<const float> d = diff.distances();
    ASSERT_EQ(d.size(), 4u);
    EXPECT_NEAR(d[0], 1.0f, 1e-6f);
    EXPECT_NEAR(d[1], 0.0f, 1e-6f);
    EXPECT_NEAR(d[2], 0.0f, 1e-6f);
    EXPECT_NEAR(d[3], std::sqrt(0.45f), 1e-6f);
    const DifferenceStats& s = diff.stats();
    EXPECT_TRUE(s.valid);
    EXPECT_NEAR(s.max, 1.0, 1e-6);
    EXPECT_EQ(s.mesh, 0u);
    EXPECT_EQ(s.vertex, 0u);
    EXPECT_EQ(s.vertices, 4u);
    EXPECT_EQ(s.over, 2u);  // vertices 0 and 3 (over 1e-3 of the size)
    EXPECT_NEAR(s.relative(), 1.0 / std::sqrt(5.14), 1e-6);
  }
  // Order does not matter; a method against itself is 0 everywhere.
  ASSERT_TRUE(diff.run(model, animator, SkinMethod::Dqs, SkinMethod::Lbs, {}));
  EXPECT_NEAR(diff.stats().max, 1.0, 1e-6);
  ASSERT_TRUE(diff.run(model, animator, SkinMethod::Dqs, SkinMethod::Dqs, {}));
  EXPECT_EQ(diff.stats().max, 0.0);
  EXPECT_EQ(diff.stats().over, 0u);
}

TEST(MethodDifference, BindPoseAgreesAndCorNeedsItsCentres) {
  const Model model = twist_model();
  SkinnedPose animator(model);
  ASSERT_TRUE(animator.evaluate(model, PoseMode::Bind, 0.0));
  MethodDifference diff(model);
  ASSERT_TRUE(diff.run(model, animator, SkinMethod::Lbs, SkinMethod::Dqs, {}));
  EXPECT_LT(diff.stats().max, 1e-6);
  // CoR without centres cannot skin: invalid figures, not zeros.
  EXPECT_FALSE(diff.run(model, animator, SkinMethod::Lbs, SkinMethod::Cor, {}));
  EXPECT_FALSE(diff.stats().valid);
  // With centres on the axis (where the paper's centre of a two-bone twist lies), CoR keeps the
  // radius as DQS does: 1 from LBS at vertex 0.
  const std::vector<std::vector<glm::vec3>> centers = {
      {{0.3f, 0, 0}, {0.3f, 0, 0}, {2, 0, 0}, {1, 0, 0}}};
  ASSERT_TRUE(animator.evaluate(model, PoseMode::Rest, 0.0));
  ASSERT_TRUE(diff.run(model, animator, SkinMethod::Lbs, SkinMethod::Cor, centers));
  EXPECT_NEAR(diff.distances()[0], 1.0f, 1e-6f);
  // A model the buffers were not sized for.
  Model other = twist_model();
  other.meshes.push_back(Mesh{});
  EXPECT_FALSE(diff.run(other, animator, SkinMethod::Lbs, SkinMethod::Dqs, {}));
}

TEST(MethodDifference, BothMethodsSkinTheMorphedMesh) {
  // A target that lifts vertex 0 from (0.3, 1, 0) by (0, 1, 0): at weight w its radius about
  // the twist axis is 1 + w, so LBS still collapses it to (0.3, 0, 0) while DQS keeps it at
  // (0.3, 0, 1 + w): the methods are 1 + w apart (1 unmorphed, see twist_model).
  Model model = twist_model();
  MorphTarget lift;
  lift.name = "lift";
  lift.default_weight = 1.0f;
  lift.position_deltas.assign(4, glm::vec3(0));
  lift.position_deltas[0] = glm::vec3(0, 1, 0);
  model.meshes[0].morph_targets.push_back(std::move(lift));
  SkinnedPose animator(model);
  animator.pose.set_clip(model, -1);
  ASSERT_TRUE(animator.evaluate(model, PoseMode::Rest, 0.0));
  MethodDifference diff(model);
  ASSERT_TRUE(diff.run(model, animator, SkinMethod::Lbs, SkinMethod::Dqs, {}));
  EXPECT_NEAR_GLM(glm::abs(diff.positions(1, 0)[0]), glm::vec3(0.3f, 0, 2), 1e-6f);
  EXPECT_NEAR(diff.distances()[0], 2.0f, 1e-6f);
  EXPECT_NEAR(diff.distances()[3], std::sqrt(0.45f), 1e-6f);  // not moved by the target
  animator.pose.set_morph_override(0, 0, 0.5f);
  ASSERT_TRUE(animator.evaluate(model, PoseMode::Rest, 0.0));
  ASSERT_TRUE(diff.run(model, animator, SkinMethod::Lbs, SkinMethod::Dqs, {}));
  EXPECT_NEAR(diff.distances()[0], 1.5f, 1e-6f);
  animator.pose.set_morph_override(0, 0, 0.0f);
  ASSERT_TRUE(animator.evaluate(model, PoseMode::Rest, 0.0));
  ASSERT_TRUE(diff.run(model, animator, SkinMethod::Lbs, SkinMethod::Dqs, {}));
  EXPECT_NEAR(diff.distances()[0], 1.0f, 1e-6f);
}

}  // namespace
}  // namespace sv
