// Weight statistics for the legends: every class counted on a mesh built by hand, and the
// stored sums' error measured from Mesh::source_weight_sums (empty: all exactly 1).
#include "skin/weight_stats.h"

#include <gtest/gtest.h>

#include <vector>

#include "anim/model.h"

namespace sv {
namespace {

// Six vertices on skin bones 0..3 = skeleton joints 1..4 of a 5-joint skeleton:
//   v0  1 weight                    stored sum 1
//   v1  2 weights (0.6, 0.4)        stored sum 1.0005 (within the 1e-3 tolerance)
//   v2  3 weights                   stored sum 0.94   (off by 0.06)
//   v3  4 weights, cut from 6       stored sum 1.38   (off by 0.38: the largest)
//   v4  no weight in the file: bound to the node, 1 weight, stored sum 0 (its own class)
//   v5  4 weights                   stored sum 1
Model six_vertices() {
  Model model;
  for (int j = 0; j < 5; ++j) {
    model.skeleton.names.push_back(std::string(1, static_cast<char>('a' + j)));
    model.skeleton.parents.push_back(j == 0 ? kNoParent : j - 1);
    model.skeleton.rest.emplace_back();
    model.skeleton.inverse_bind.emplace_back(1.0f);
    model.skeleton.is_bone.push_back(j > 0 ? 1 : 0);
  }
  Mesh m;
  m.skinned = true;
  m.node = 0;
  m.max_influences = 6;
  m.positions.assign(6, glm::vec3(0.0f));
  m.normals.assign(6, glm::vec3(0, 1, 0));
  m.joints = {{0, 0, 0, 0}, {0, 1, 0, 0}, {0, 1, 2, 0}, {0, 1, 2, 3}, {0, 0, 0, 0}, {0, 1, 2, 3}};
  m.weights = {{1, 0, 0, 0},          {0.6f, 0.4f, 0, 0},
               {0.5f, 0.3f, 0.2f, 0}, {0.4f, 0.3f, 0.2f, 0.1f},
               {1, 0, 0, 0},          {0.25f, 0.25f, 0.25f, 0.25f}};
  m.vertex_flags = {0,
                    kVertexRenormalised,
                    kVertexRenormalised,
                    kVertexTruncated | kVertexRenormalised,
                    kVertexUnweighted,
                    0};
  m.source_weight_sums = {1.0f, 1.0005f, 0.94f, 1.38f, 0.0f, 1.0f};
  m.indices = {0, 1, 2, 3, 4, 5};
  m.skin_joints = {1, 2, 3, 4};
  m.inverse_bind.assign(4, glm::mat4(1.0f));
  m.max_joint = 3;
  model.meshes.push_back(std::move(m));
  return model;
}

TEST(WeightStats, CountsEveryClass) {
  const Model model = six_vertices();
  ASSERT_EQ(model.validate(), "");
  const WeightStats s = compute_weight_stats(model);
  EXPECT_EQ(s.vertices, 6u);
  EXPECT_EQ(s.influences[0], 2u);  // v0, v4
  EXPECT_EQ(s.influences[1], 1u);  // v1
  EXPECT_EQ(s.influences[2], 1u);  // v2
  EXPECT_EQ(s.influences[3], 1u);  // v5 (v3 was cut: counted apart)
  EXPECT_EQ(s.truncated, 1u);
  EXPECT_EQ(s.max_influences, 6u);
  EXPECT_EQ(s.unweighted, 1u);
  EXPECT_EQ(s.sum_off, 2u);  // v2 and v3; v1 is within 1e-3, v4 is unweighted
  EXPECT_NEAR(s.largest_sum_error, 0.38f, 1e-6f);
  EXPECT_NEAR(s.largest_error_sum, 1.38f, 1e-6f);
  // Per joint (joint_influences, which the legends show beside these): joint 1 (bone 0) weighs
  // on all six, at most 1; joint 4 (bone 3) on v3 and v5, at most 0.25; joint 0 on none.
  const std::vector<JointInfluence> j = joint_influences(model);
  ASSERT_EQ(j.size(), 5u);
  EXPECT_EQ(j[0].vertices, 0u);
  EXPECT_EQ(j[1].vertices, 6u);
  EXPECT_EQ(j[2].vertices, 4u);
  EXPECT_EQ(j[3].vertices, 3u);
  EXPECT_EQ(j[4].vertices, 2u);
  EXPECT_FLOAT_EQ(j[1].max_weight, 1.0f);
  EXPECT_FLOAT_EQ(j[2].max_weight, 0.4f);
  EXPECT_FLOAT_EQ(j[4].max_weight, 0.25f);
  EXPECT_FLOAT_EQ(j[0].max_weight, 0.0f);
}

TEST(WeightStats, NoStoredSumsMeansExactlyOne) {
  Model model = six_vertices();
  model.meshes[0].source_weight_sums.clear();
  ASSERT_EQ(model.validate(), "");
  const WeightStats s = compute_weight_stats(model);
  EXPECT_EQ(s.sum_off, 0u);
  EXPECT_EQ(s.largest_sum_error, 0.0f);
  EXPECT_EQ(s.largest_error_sum, 1.0f);
}

TEST(WeightStats, SumsBelowOneCountAsWell) {
  Model model = six_vertices();
  model.meshes[0].source_weight_sums = {1.0f, 0.9985f, 1.0f, 1.0f, 0.0f, 0.5f};
  const WeightStats s = compute_weight_stats(model);
  EXPECT_EQ(s.sum_off, 2u);
  EXPECT_NEAR(s.largest_sum_error, 0.5f, 1e-6f);
  EXPECT_NEAR(s.largest_error_sum, 0.5f, 1e-6f);
}

TEST(WeightStats, StoredSumsOfTheWrongCountFailValidation) {
  Model model = six_vertices();
  model.meshes[0].source_weight_sums.pop_back();
  EXPECT_NE(model.validate(), "");
  model = six_vertices();
  model.meshes[0].source_weight_sums[2] = NAN;
  EXPECT_NE(model.validate(), "");
}

// The cut vertices' counts: more than 8 (kVertexOver8) apart, and the largest share cut.
TEST(WeightStats, CountsWhatThe4LimitCuts) {
  Model model = six_vertices();
  Mesh& m = model.meshes[0];
  m.vertex_flags[1] |= kVertexTruncated | kVertexOver8;
  m.joints2.assign(6, glm::u16vec4(0));
  m.weights2.assign(6, glm::vec4(0.0f));
  m.weights2[3] = {0.1f, 0.05f, 0, 0};
  m.weights2[1] = {0.1f, 0.1f, 0.05f, 0.05f};
  m.cut_weights = {0.0f, 0.4f, 0.0f, 0.15f, 0.0f, 0.0f};
  ASSERT_EQ(model.validate(), "");
  const WeightStats s = compute_weight_stats(model);
  EXPECT_EQ(s.truncated, 2u);         // v1 and v3
  EXPECT_EQ(s.truncated_over_8, 1u);  // v1
  EXPECT_FLOAT_EQ(s.largest_cut, 0.4f);
  EXPECT_EQ(s.influences[1], 0u);  // v1 moved to the cut class
}

TEST(WeightStats, EmptyModel) {
  const WeightStats s = compute_weight_stats(Model{});
  EXPECT_EQ(s.vertices, 0u);
  EXPECT_EQ(s.truncated, 0u);
}

}  // namespace
}  // namespace sv
