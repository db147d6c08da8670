// Morph targets (anim/morph.h) and their weights through the Animator: hand-computed samples of
// step, linear and cubic-spline weight tracks, the morph stage with wrong sizes, a zero-delta
// target that changes nothing, deltas that follow group_vertices_by_bone_set's reordering, and
// the layer stack's override/additive blending and per-target overrides.
#include <cmath>
#include <vector>

#include <gtest/gtest.h>

#include "anim/animator.h"
#include "anim/model.h"
#include "anim/morph.h"
#include "test_util.h"

namespace sv {
namespace {

// One rigid triangle on joint "j" with two targets ("up": +y on vertex 2 with a normal delta;
// "zero": all deltas 0) and a 1-s clip whose track moves "up" 0 -> 1 linearly; "zero" stays 1.
Model morph_model() {
  Model m = test::one_joint_model(JointChannel{}, "up");
  Mesh mesh;
  mesh.name = "tri";
  mesh.node = 0;
  mesh.positions = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
  mesh.normals = {{0, 0, 1}, {0, 0, 1}, {0, 0, 1}};
  mesh.joints.assign(3, glm::u16vec4(0));
  mesh.weights.assign(3, glm::vec4(1, 0, 0, 0));
  mesh.vertex_flags.assign(3, 0);
  mesh.indices = {0, 1, 2};
  mesh.skin_joints = {0};
  mesh.inverse_bind = {glm::mat4(1.0f)};
  MorphTarget up;
  up.name = "up";
  up.position_deltas = {{0, 0, 0}, {0, 0, 0}, {0, 2, 0}};
  up.normal_deltas = {{0, 0, 0}, {0, 0, 0}, {1, 0, 0}};
  MorphTarget zero;
  zero.name = "zero";
  zero.default_weight = 1.0f;
  zero.position_deltas.assign(3, glm::vec3(0.0f));
  zero.normal_deltas.assign(3, glm::vec3(0.0f));
  mesh.morph_targets.push_back(std::move(up));
  mesh.morph_targets.push_back(std::move(zero));
  m.meshes.push_back(std::move(mesh));
  MorphTrack track;
  track.times = {0.0, 1.0};
  track.weights = {0.0f, 1.0f, 1.0f, 1.0f};
  m.morph_clips.emplace_back().tracks.push_back(std::move(track));
  EXPECT_EQ(m.validate(), "");
  return m;
}

TEST(Morph, SamplesStepLinearAndCubicTracksAsGltfSays) {
  MorphTrack t;
  t.times = {1.0, 3.0};
  t.weights = {0.0f, 10.0f, 1.0f, 20.0f};  // 2 targets
  float w[2];
  ASSERT_TRUE(sample_morph_track(t, 2.5, w));
  EXPECT_FLOAT_EQ(w[0], 0.75f);
  EXPECT_FLOAT_EQ(w[1], 17.5f);
  ASSERT_TRUE(sample_morph_track(t, 0.0, w));  // before the first key: the first
  EXPECT_FLOAT_EQ(w[1], 10.0f);
  ASSERT_TRUE(sample_morph_track(t, 9.0, w));  // after the last: the last
  EXPECT_FLOAT_EQ(w[1], 20.0f);
  t.interpolation = Interpolation::Step;
  ASSERT_TRUE(sample_morph_track(t, 2.9, w));
  EXPECT_FLOAT_EQ(w[0], 0.0f);
  // Cubic, one target: keys (in 0, value 0, out 1) at 0 s and (in 1, value 1, out 0) at 2 s.
  // Hermite at s = 0.5, td = 2: h00 0.5, h10 0.125, h01 0.5, h11 -0.125:
  // 0.5*0 + 0.125*2*1 + 0.5*1 + (-0.125)*2*1 = 0.5.
  MorphTrack c;
  c.interpolation = Interpolation::CubicSpline;
  c.times = {0.0, 2.0};
  c.weights = {0.0f, 0.0f, 1.0f, 1.0f, 1.0f, 0.0f};
  float one[1];
  ASSERT_TRUE(sample_morph_track(c, 1.0, one));
  EXPECT_FLOAT_EQ(one[0], 0.5f);
  // At s = 0.25: h00 0.84375, h10 0.140625, h01 0.15625, h11 -0.046875:
  // 0.140625*2 + 0.15625 - 0.046875*2 = 0.34375.
  ASSERT_TRUE(sample_morph_track(c, 0.5, one));
  EXPECT_FLOAT_EQ(one[0], 0.34375f);
  // Wrong sizes write nothing.
  float three[3] = {7, 7, 7};
  EXPECT_FALSE(sample_morph_track(t, 1.0, three));
  EXPECT_EQ(three[0], 7.0f);
  EXPECT_FALSE(sample_morph_track(MorphTrack{}, 1.0, one));
}

TEST(Morph, AppliesWeightedDeltasAndRefusesWrongSizes) {
  const Model m = morph_model();
  const Mesh& mesh = m.meshes[0];
  std::vector<glm::vec3> p(3), n(3);
  const float w[2] = {0.5f, 1.0f};
  ASSERT_TRUE(apply_morphs(mesh.positions, mesh.normals, mesh.morph_targets, w, p, n));
  EXPECT_EQ(p[2], glm::vec3(0, 2, 0));  // (0,1,0) + 0.5 * (0,2,0)
  EXPECT_EQ(n[2], glm::vec3(0.5f, 0, 1));
  EXPECT_EQ(p[1], mesh.positions[1]);
  // A target with zero deltas at full weight changes nothing at all (bit for bit).
  const float zero_only[2] = {0.0f, 1.0f};
  ASSERT_TRUE(apply_morphs(mesh.positions, mesh.normals, mesh.morph_targets, zero_only, p, n));
  EXPECT_EQ(p, mesh.positions);
  EXPECT_EQ(n, mesh.normals);
  std::vector<glm::vec3> short_out(2);
  EXPECT_FALSE(apply_morphs(mesh.positions, mesh.normals, mesh.morph_targets, w, short_out, n));
  EXPECT_FALSE(apply_morphs(mesh.positions, mesh.normals, mesh.morph_targets,
                            std::span<const float>(w, 1), p, n));
}

TEST(Morph, DeltasFollowTheBoneSetReordering) {
  Mesh mesh;
  mesh.positions = {{0, 0, 0}, {1, 0, 0}, {2, 0, 0}};
  mesh.normals.assign(3, glm::vec3(0, 0, 1));
  mesh.joints = {{2, 0, 0, 0}, {0, 0, 0, 0}, {1, 0, 0, 0}};  // sorted: 1, 2, 0
  mesh.weights.assign(3, glm::vec4(1, 0, 0, 0));
  mesh.vertex_flags.assign(3, 0);
  MorphTarget t;
  t.position_deltas = {{0, 10, 0}, {0, 11, 0}, {0, 12, 0}};
  t.normal_deltas = {{10, 0, 0}, {11, 0, 0}, {12, 0, 0}};
  mesh.morph_targets.push_back(t);
  group_vertices_by_bone_set(mesh);
  ASSERT_EQ(mesh.source_vertex, (std::vector<uint32_t>{1, 2, 0}));
  for (std::size_t v = 0; v < 3; ++v) {
    EXPECT_EQ(mesh.morph_targets[0].position_deltas[v], t.position_deltas[mesh.source_vertex[v]]);
    EXPECT_EQ(mesh.morph_targets[0].normal_deltas[v], t.normal_deltas[mesh.source_vertex[v]]);
  }
}

TEST(Morph, TheAnimatorBlendsWeights) {
  Model m = morph_model();
  Animator a(m);
  a.set_clip(m, 0);
  ASSERT_TRUE(a.evaluate(m, PoseMode::Clip, 0.25));
  ASSERT_EQ(a.morph_weights(0).size(), 2u);
  EXPECT_FLOAT_EQ(a.morph_weights(0)[0], 0.25f);
  EXPECT_FLOAT_EQ(a.morph_weights(0)[1], 1.0f);
  // Rest and bind poses: the default weights (0 and 1).
  ASSERT_TRUE(a.evaluate(m, PoseMode::Rest, 0.0));
  EXPECT_FLOAT_EQ(a.morph_weights(0)[0], 0.0f);
  ASSERT_TRUE(a.evaluate(m, PoseMode::Bind, 0.0));
  EXPECT_FLOAT_EQ(a.morph_weights(0)[0], 0.0f);
  EXPECT_FLOAT_EQ(a.morph_weights(0)[1], 1.0f);
  // An override pins a weight; NaN hands it back to the clip.
  a.set_morph_override(0, 0, 2.0f);
  EXPECT_EQ(a.morph_override(0, 0), 2.0f);
  EXPECT_TRUE(std::isnan(a.morph_override(0, 1)));
  ASSERT_TRUE(a.evaluate(m, PoseMode::Clip, 0.25));
  EXPECT_FLOAT_EQ(a.morph_weights(0)[0], 2.0f);
  a.set_morph_override(0, 0, std::nanf(""));
  a.set_morph_override(5, 0, 1.0f);  // no such mesh: ignored
  ASSERT_TRUE(a.evaluate(m, PoseMode::Clip, 0.25));
  EXPECT_FLOAT_EQ(a.morph_weights(0)[0], 0.25f);
  // Layers: an override layer at weight 0.5 over the same clip at 0.25 s, sampled at 0.75 s,
  // lerps 0.25 -> 0.75 halfway (0.5); an additive layer adds its change since its reference
  // time (0.75 - 0.25) times 0.5.
  Layer base;
  base.clip = 0;
  base.time = 0.25;
  Layer over = base;
  over.time = 0.75;
  over.weight = 0.5f;
  std::vector<Layer> layers{base, over};
  ASSERT_EQ(a.set_layers(m, layers), "");
  ASSERT_TRUE(a.evaluate(m, layers));
  EXPECT_FLOAT_EQ(a.morph_weights(0)[0], 0.5f);
  layers[1].mode = BlendMode::Additive;
  layers[1].reference_time = 0.25;
  ASSERT_EQ(a.set_layers(m, layers), "");
  ASSERT_TRUE(a.evaluate(m, layers));
  EXPECT_FLOAT_EQ(a.morph_weights(0)[0], 0.5f);  // 0.25 + 0.5 * (0.75 - 0.25)
  // A mask weight of 0 on the mesh's node keeps the layer off the mesh's weights.
  const std::vector<float> mask{0.0f};
  layers[1].mask = mask;
  ASSERT_EQ(a.set_layers(m, layers), "");
  ASSERT_TRUE(a.evaluate(m, layers));
  EXPECT_FLOAT_EQ(a.morph_weights(0)[0], 0.25f);
}

TEST(Morph, ValidateNamesBrokenTargetsAndTracks) {
  {
    Model m = morph_model();
    m.meshes[0].morph_targets[1].normal_deltas.pop_back();
    EXPECT_NE(m.validate().find("2 normal deltas for 3 vertices"), std::string::npos);
  }
  {
    Model m = morph_model();
    m.morph_clips.emplace_back();  // two morph clips for one clip
    EXPECT_NE(m.validate().find("2 morph clips for 1 clips"), std::string::npos);
  }
  {
    Model m = morph_model();
    m.morph_clips[0].tracks[0].mesh = 1;
    EXPECT_NE(m.validate().find("mesh 1 is out of range"), std::string::npos);
  }
}

}  // namespace
}  // namespace sv
