// assets/default.glb through skinview's importer (assimp, plus the glTF STEP/CUBICSPLINE
// re-read): the joints, clips, vertex counts and weights the generator wrote come back, nothing
// needs repairing, and the step and cubic-spline tracks are sampled as glTF defines them.
#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <glm/gtc/quaternion.hpp>

#include "anim/clip_runtime.h"
#include "anim/pose.h"
#include "default_asset_facts.h"
#include "io/import.h"
#include "skin/skinning.h"
#include "test_util.h"
#include "usable_model.h"

namespace sv {
namespace {

namespace facts = test::default_asset;

class DefaultAssetImport : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    result_ = new ImportResult(import_model(std::string(facts::kPath)));
  }
  static void TearDownTestSuite() {
    delete result_;
    result_ = nullptr;
  }
  void SetUp() override { ASSERT_TRUE(result_->ok()) << result_->error; }

  const Model& model() const { return *result_->model; }
  const ImportReport& report() const { return result_->report; }
  const ClipRuntime& clip(std::string_view name) const {
    for (const ClipRuntime& c : model().clips)
      if (c.name() == name) return c;
    ADD_FAILURE() << "no clip " << name;
    return model().clips.at(0);
  }
  int32_t joint(std::string_view name) const {
    const int32_t j = model().skeleton.find(name);
    EXPECT_GE(j, 0) << name;
    return j;
  }
  // How the runtime clip interpolates one component of joint `name` (from its arrays).
  Interpolation interpolation(const ClipRuntime& c, std::string_view name, TrackPath path) const {
    const auto j = static_cast<std::size_t>(joint(name));
    return c.arrays().tracks[3 * j + static_cast<std::size_t>(path)].interpolation;
  }
  // Every joint's local transform at t, through the viewer's sampler.
  std::vector<Transform> local_at(const ClipRuntime& c, double t) const {
    std::vector<Transform> local(model().skeleton.size());
    RuntimeCursor cursor;
    cursor.reset(c);
    EXPECT_TRUE(sample_runtime(c, t, cursor, local));
    return local;
  }

  static ImportResult* result_;
};

ImportResult* DefaultAssetImport::result_ = nullptr;

TEST_F(DefaultAssetImport, LoadsCleanly) {
  test::expect_usable(model(), std::string(facts::kPath));
  EXPECT_EQ(report().vertices_over_4_influences, 0u);
  EXPECT_EQ(report().vertices_renormalised, 0u);
  EXPECT_EQ(report().vertices_unweighted, 0u);
  EXPECT_EQ(report().bones_without_node, 0u);
  EXPECT_EQ(report().channels_without_node, 0u);
  EXPECT_EQ(report().non_finite_values, 0u);
  EXPECT_EQ(report().keys_out_of_order, 0u);
  EXPECT_EQ(report().rotations_normalised, 0u);
}

TEST_F(DefaultAssetImport, HasEveryJointWithItsParent) {
  const Skeleton& s = model().skeleton;
  EXPECT_GE(s.size(), facts::kJoints.size());  // the importer may add the scene's root node
  for (std::size_t i = 0; i < facts::kJoints.size(); ++i) {
    const int32_t j = joint(facts::kJoints[i]);
    if (j < 0) continue;
    if (facts::kParents[i] >= 0) {
      EXPECT_EQ(s.parents[static_cast<std::size_t>(j)],
                joint(facts::kJoints[static_cast<std::size_t>(facts::kParents[i])]))
          << facts::kJoints[i];
    }
  }
  ASSERT_EQ(model().meshes.size(), 2u);  // the body and the face
  EXPECT_EQ(model().meshes[0].skin_joints.size(), facts::kJoints.size());
}

TEST_F(DefaultAssetImport, ClipsHaveTheirNamesAndDurations) {
  ASSERT_EQ(model().clips.size(), facts::kClips.size());
  for (std::size_t c = 0; c < facts::kClips.size(); ++c) {
    EXPECT_EQ(model().clips[c].name(), facts::kClips[c].name);
    EXPECT_NEAR(model().clips[c].duration(), facts::kClips[c].duration, 1e-5f)
        << facts::kClips[c].name;
  }
}

TEST_F(DefaultAssetImport, MeshKeepsItsVerticesAndWeights) {
  const Mesh& mesh = model().meshes.at(0);
  EXPECT_TRUE(mesh.skinned);
  EXPECT_EQ(mesh.vertex_count(), facts::kVertices);
  EXPECT_EQ(mesh.triangle_count(), facts::kTriangles);
  EXPECT_EQ(mesh.uvs.size(), facts::kVertices);
  EXPECT_LE(mesh.max_influences, 4u);
  EXPECT_GE(mesh.max_influences, 2u);
  for (std::size_t v = 0; v < mesh.weights.size(); ++v) {
    const glm::vec4 w = mesh.weights[v];
    ASSERT_NEAR(w.x + w.y + w.z + w.w, 1.0f, 1e-6f) << "vertex " << v;
  }
  // The rest pose is the bind pose: skinning at rest gives the stored vertices back.
  const Skeleton& s = model().skeleton;
  std::vector<Transform> local(s.size());
  std::vector<glm::mat4> global(s.size());
  std::vector<glm::mat4> palette(mesh.skin_joints.size());
  std::vector<glm::mat3> normal(mesh.skin_joints.size());
  std::vector<glm::vec3> out(mesh.vertex_count()), out_n(mesh.vertex_count());
  ASSERT_TRUE(rest_pose(s, local));
  ASSERT_TRUE(local_to_model(s.parents, local, global));
  ASSERT_TRUE(build_palette(global, mesh.skin_joints, mesh.inverse_bind, palette));
  ASSERT_TRUE(build_normal_palette(palette, normal));
  SkinInput in{mesh.positions, mesh.normals, mesh.joints, mesh.weights, mesh.max_joint};
  ASSERT_TRUE(skin_lbs(palette, normal, in, out, out_n));
  for (std::size_t v = 0; v < out.size(); ++v) ASSERT_NEAR_GLM(out[v], mesh.positions[v], 1e-5f);
}

TEST_F(DefaultAssetImport, StepTrackHoldsThePreviousKey) {
  const ClipRuntime& idle = clip("idle");
  ASSERT_EQ(idle.key_times(static_cast<std::size_t>(joint("head")), TrackPath::Rotation).size(),
            std::size(facts::kHeadStepYaw));
  ASSERT_EQ(interpolation(idle, "head", TrackPath::Rotation), Interpolation::Step);
  constexpr double kDeg = std::numbers::pi / 180.0;
  const auto key = [&](int k) {
    return glm::quat(glm::angleAxis(facts::kHeadStepYaw[k] * kDeg, glm::dvec3(0, 1, 0)) *
                     glm::angleAxis(facts::kHeadStepPitch * kDeg, glm::dvec3(1, 0, 0)));
  };
  const auto head_at = [&](double t) {
    return local_at(idle, t)[static_cast<std::size_t>(joint("head"))].rotation;
  };
  EXPECT_NEAR_GLM(head_at(0.5), key(0), 1e-6f);
  EXPECT_NEAR_GLM(head_at(1.5), key(1), 1e-6f);  // a linear track would be halfway to key 2
  EXPECT_NEAR_GLM(head_at(2.9), key(2), 1e-6f);
  EXPECT_NEAR_GLM(head_at(3.5), key(3), 1e-6f);
}

TEST_F(DefaultAssetImport, CubicSplineTrackFollowsItsTangents) {
  const ClipRuntime& walk = clip("walk");
  const std::size_t j = static_cast<std::size_t>(joint("hips"));
  const std::span<const double> times = walk.key_times(j, TrackPath::Translation);
  ASSERT_EQ(interpolation(walk, "hips", TrackPath::Translation), Interpolation::CubicSpline);
  ASSERT_EQ(times.size(), 9u);

  // The bob-and-sway curve the keys and tangents were made from (default_asset_facts.h).
  const double T = facts::kClips[1].duration, w = 2.0 * std::numbers::pi / T;
  const auto curve = [&](double t) {
    return glm::vec3(facts::kWalkSway * std::sin(w * t),
                     facts::kHipsRestY + facts::kWalkBob * std::cos(2 * w * t) - facts::kWalkDrop,
                     0.0);
  };
  for (int k = 0; k < 8; ++k) {
    const double t0 = times[static_cast<std::size_t>(k)];
    const double t1 = times[static_cast<std::size_t>(k) + 1];
    const double t = t0 + 0.3 * (t1 - t0);
    const std::vector<Transform> local = local_at(walk, t);
    const glm::vec3 linear = glm::mix(curve(t0), curve(t1), 0.3f);
    EXPECT_NEAR_GLM(local[j].translation, curve(t), 2e-4f) << "t = " << t;
    EXPECT_GT(glm::length(local[j].translation - linear), 1e-3f) << "t = " << t << ": linear?";
  }
}

TEST_F(DefaultAssetImport, TwistRollsTheForearmHalfATurn) {
  const ClipRuntime& twist = clip("twist");
  const std::vector<Transform> local = local_at(twist, twist.duration() / 2);
  const glm::quat q = local[static_cast<std::size_t>(joint("forearm_l"))].rotation;
  // 180 degrees about the forearm's own axis (45 degrees below +X, in the x-y plane).
  EXPECT_NEAR(std::abs(q.w), 0.0f, 1e-5f);
  const glm::vec3 axis = glm::normalize(glm::vec3(q.x, q.y, q.z)) * (q.x < 0 ? -1.0f : 1.0f);
  EXPECT_NEAR_GLM(axis, glm::normalize(glm::vec3(1, -1, 0)), 1e-5f);
}

}  // namespace
}  // namespace sv
