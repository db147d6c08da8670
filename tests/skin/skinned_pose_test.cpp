// SkinnedPose (skin/skinned_pose.h): the skinning half of a frame over the animation runtime's
// pose. A two-bone arm bent 90 degrees at the elbow, skinned by two meshes with different skins
// (so the second mesh's bones start past the first's in the one palette), checked against
// positions worked out by hand; the morphs applied before skinning; the method palette built only
// for DQS and CoR; and the layout the crowd shares (anim/palette_layout.h).
#include "skin/skinned_pose.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include <glm/gtc/constants.hpp>
#include <glm/gtc/matrix_transform.hpp>

#include "anim/model.h"
#include "anim/palette_layout.h"
#include "test_util.h"

namespace sv {
namespace {

// Upper arm "upper" (joint 0) at the origin, forearm "fore" (joint 1) at (1,0,0), both along +X
// at rest. Clip "bend": the forearm turned 90 degrees about +Z at every time (two equal keys).
// Mesh "arm" skins {upper, fore}; mesh "hand" skins {fore} only, so its one bone is palette
// entry 2.
Model arm_model() {
  Model m;
  m.skeleton.names = {"upper", "fore"};
  m.skeleton.parents = {-1, 0};
  m.skeleton.rest = {test::trs({0, 0, 0}), test::trs({1, 0, 0})};
  m.skeleton.inverse_bind = {glm::mat4(1.0f), glm::translate(glm::mat4(1.0f), glm::vec3(-1, 0, 0))};
  m.skeleton.is_bone = {1, 1};
  Clip c;
  c.name = "bend";
  c.duration = 1.0;
  JointChannel ch;
  ch.joint = 1;
  const glm::quat rz = glm::angleAxis(glm::half_pi<float>(), glm::vec3(0, 0, 1));
  ch.rotation.times = {0.0, 1.0};
  ch.rotation.values = {rz, rz};
  c.channels.push_back(std::move(ch));
  m.clips.emplace_back();
  EXPECT_EQ(m.clips.back().build(c, m.skeleton), "");

  Mesh arm;
  arm.name = "arm";
  arm.node = 0;
  arm.skinned = true;
  // (1.5,0,0) 2/3 upper + 1/3 fore; (2,0,0) all fore; (0.5,0,0) all upper.
  arm.positions = {{1.5f, 0, 0}, {2, 0, 0}, {0.5f, 0, 0}};
  arm.normals = {{0, 1, 0}, {0, 1, 0}, {0, 1, 0}};
  arm.joints = {glm::u16vec4(0, 1, 0, 0), glm::u16vec4(1, 0, 0, 0), glm::u16vec4(0, 0, 0, 0)};
  arm.weights = {glm::vec4(2.0f / 3.0f, 1.0f / 3.0f, 0, 0), glm::vec4(1, 0, 0, 0),
                 glm::vec4(1, 0, 0, 0)};
  arm.vertex_flags.assign(3, 0);
  arm.indices = {0, 1, 2};
  arm.skin_joints = {0, 1};
  arm.inverse_bind = {m.skeleton.inverse_bind[0], m.skeleton.inverse_bind[1]};
  arm.max_joint = 1;
  m.meshes.push_back(std::move(arm));

  Mesh hand;
  hand.name = "hand";
  hand.node = 1;
  hand.skinned = true;
  hand.positions = {{2, 0, 0}, {2, 1, 0}, {3, 0, 0}};
  hand.normals = {{0, 0, 1}, {0, 0, 1}, {0, 0, 1}};
  hand.joints.assign(3, glm::u16vec4(0));
  hand.weights.assign(3, glm::vec4(1, 0, 0, 0));
  hand.vertex_flags.assign(3, 0);
  hand.indices = {0, 1, 2};
  hand.skin_joints = {1};
  hand.inverse_bind = {m.skeleton.inverse_bind[1]};
  // "lift": +1 in z on the hand's last vertex.
  MorphTarget lift;
  lift.name = "lift";
  lift.position_deltas = {{0, 0, 0}, {0, 0, 0}, {0, 0, 1}};
  lift.normal_deltas.assign(3, glm::vec3(0.0f));
  hand.morph_targets.push_back(std::move(lift));
  m.meshes.push_back(std::move(hand));
  EXPECT_EQ(m.validate(), "");
  return m;
}

TEST(PaletteLayout, ConcatenatesTheSkinsAndPosesTheBindPose) {
  const Model m = arm_model();
  const PaletteLayout layout(m);
  EXPECT_TRUE(layout.fits);
  ASSERT_EQ(layout.bones(), 3u);
  EXPECT_EQ(layout.base, (std::vector<uint32_t>{0, 2}));
  EXPECT_EQ(layout.skin_joints, (std::vector<int32_t>{0, 1, 1}));
  // In the bind pose every palette entry is the identity: the mesh exactly as stored.
  for (const glm::mat4& k : layout.bind_palette) EXPECT_NEAR_GLM(k, glm::mat4(1.0f), 1e-6f);
  EXPECT_NEAR_GLM(layout.bind_model[1], glm::translate(glm::mat4(1.0f), glm::vec3(1, 0, 0)), 1e-6f);
}

TEST(PaletteLayout, ASkinWithoutItsInverseBindsDoesNotFit) {
  Model m = arm_model();
  m.meshes[1].inverse_bind.clear();
  EXPECT_FALSE(PaletteLayout(m).fits);
  // Nothing can be posed with it.
  Animator a(m);
  a.set_clip(m, 0);
  EXPECT_FALSE(a.evaluate(m, PoseMode::Clip, 0.5));
  EXPECT_FALSE(a.evaluate(m, PoseMode::Bind, 0.0));
}

TEST(SkinnedPose, SkinsTwoMeshesFromOnePaletteAsWorkedOutByHand) {
  const Model m = arm_model();
  SkinnedPose p(m);
  p.pose.set_clip(m, 0);
  ASSERT_TRUE(p.evaluate(m, PoseMode::Clip, 0.5));
  // K1 = T(1,0,0) Rz90 T(-1,0,0): a quarter turn about the elbow (1,0,0); the hand's one bone is
  // palette entry 2, the same matrix.
  const glm::mat4 k1 = test::mat4_rows(0, -1, 0, 1,  //
                                       1, 0, 0, -1,  //
                                       0, 0, 1, 0,   //
                                       0, 0, 0, 1);
  ASSERT_EQ(p.pose.palette().size(), 3u);
  EXPECT_NEAR_GLM(p.pose.palette()[1], k1, 1e-6f);
  EXPECT_NEAR_GLM(p.pose.palette()[2], k1, 1e-6f);
  EXPECT_NEAR_GLM(p.normal_palette()[2], glm::mat3(k1), 1e-6f);
  ASSERT_TRUE(p.skin_cpu(m));
  // (1.5,0,0): 2/3 of itself + 1/3 of K1 (1.5,0,0) = (1,0.5,0) -> (4/3, 1/6, 0).
  EXPECT_NEAR_GLM(p.skinned_positions(0)[0], glm::vec3(4.0f / 3.0f, 1.0f / 6.0f, 0), 1e-6f);
  EXPECT_NEAR_GLM(p.skinned_positions(0)[1], glm::vec3(1, 1, 0), 1e-6f);
  EXPECT_NEAR_GLM(p.skinned_positions(0)[2], glm::vec3(0.5f, 0, 0), 1e-6f);
  // The normal (0,1,0) blended 2/3 (0,1,0) + 1/3 (-1,0,0), normalised.
  EXPECT_NEAR_GLM(p.skinned_normals(0)[0], glm::normalize(glm::vec3(-1.0f / 3.0f, 2.0f / 3.0f, 0)),
                  1e-6f);
  // The hand: (2,0,0) -> (1,1,0), (2,1,0) -> (0,1,0), (3,0,0) -> (1,2,0).
  EXPECT_NEAR_GLM(p.skinned_positions(1)[0], glm::vec3(1, 1, 0), 1e-6f);
  EXPECT_NEAR_GLM(p.skinned_positions(1)[1], glm::vec3(0, 1, 0), 1e-6f);
  EXPECT_NEAR_GLM(p.skinned_positions(1)[2], glm::vec3(1, 2, 0), 1e-6f);
  // The times of the stages that ran.
  EXPECT_GE(p.times().pose, 0.0);
  EXPECT_GE(p.times().cpu_skin, 0.0);
}

TEST(SkinnedPose, MorphsComeBeforeSkinning) {
  const Model m = arm_model();
  SkinnedPose p(m);
  p.pose.set_clip(m, 0);
  p.pose.set_morph_override(1, 0, 0.5f);
  ASSERT_TRUE(p.evaluate(m, PoseMode::Clip, 0.5));
  ASSERT_TRUE(p.skin_cpu(m));
  // (3,0,0.5) in bind space, then the quarter turn about the elbow: (1,2,0.5).
  EXPECT_NEAR_GLM(p.skinned_positions(1)[2], glm::vec3(1, 2, 0.5f), 1e-6f);
  // The other vertices and the other mesh are untouched by the target.
  EXPECT_NEAR_GLM(p.skinned_positions(1)[0], glm::vec3(1, 1, 0), 1e-6f);
  EXPECT_NEAR_GLM(p.skinned_positions(0)[1], glm::vec3(1, 1, 0), 1e-6f);
}

// The compact streams (compact_streams.h) where they apply: every method, 4 influences, no morph
// weight; the same hand-worked arm, its normals as octahedral codes.
TEST(SkinnedPose, SkinsFromTheCompactStreamsWhereTheyApply) {
  const Model m = arm_model();
  const std::vector<CompactStreams> compact = {encode_compact(m.meshes[0]),
                                               encode_compact(m.meshes[1])};
  SkinnedPose p(m);
  EXPECT_FALSE(p.compact(0));  // none set
  p.set_compact(m, compact);
  p.pose.set_clip(m, 0);
  ASSERT_TRUE(p.evaluate(m, PoseMode::Clip, 0.5));
  EXPECT_TRUE(p.compact(0));
  EXPECT_TRUE(p.compact(1));
  // Without asking for them, skin_cpu keeps the float streams (--dump, export, volume).
  ASSERT_TRUE(p.skin_cpu(m));
  EXPECT_FALSE(p.skinned_compact(0));
  ASSERT_TRUE(p.skin_cpu(m, nullptr, true));
  EXPECT_TRUE(p.skinned_compact(0));
  EXPECT_TRUE(p.skinned_compact(1));
  EXPECT_NEAR_GLM(p.skinned_positions(0)[0], glm::vec3(4.0f / 3.0f, 1.0f / 6.0f, 0), 1e-6f);
  EXPECT_NEAR_GLM(p.skinned_positions(1)[2], glm::vec3(1, 2, 0), 1e-6f);
  // The blended normal (-1/3, 2/3, 0) as a code: L1-normalised (-1/3, 2/3) -> (-10922, 21845).
  ASSERT_EQ(p.skinned_oct_normals(0).size(), 3u);
  EXPECT_EQ(p.skinned_oct_normals(0)[0],
            static_cast<uint32_t>(static_cast<uint16_t>(-10922)) | (21845u << 16));
  // The hand's normal (0,0,1) turned a quarter about z stays (0,0,1): code 0.
  EXPECT_EQ(p.skinned_oct_normals(1)[0], 0u);
  // A morph weight on the hand: that mesh takes the float streams (skin_lbs_compact reads the
  // stored positions), the arm stays compact.
  p.pose.set_morph_override(1, 0, 0.5f);
  ASSERT_TRUE(p.evaluate(m, PoseMode::Clip, 0.5));
  EXPECT_TRUE(p.compact(0));
  EXPECT_FALSE(p.compact(1));
  ASSERT_TRUE(p.skin_cpu(m, nullptr, true));
  EXPECT_FALSE(p.skinned_compact(1));
  EXPECT_NEAR_GLM(p.skinned_positions(1)[2], glm::vec3(1, 2, 0.5f), 1e-6f);
  p.pose.clear_morph_overrides();
  // DQS (and CoR) from the compact streams too (skin_compact). Vertex 0 blends the identity
  // (2/3) and the forearm's quarter turn about the z axis through (1,0,0) (1/3): both turns about
  // that axis, so the dual-quaternion blend is one turn about it, by theta with tan(theta/2) =
  // (sin 45 / 3) / (2/3 + cos 45 / 3) = sin 45 / (2 + cos 45). (1.5,0,0) goes to
  // (1,0,0) + 0.5 (cos theta, sin theta, 0), its normal +y to (-sin theta, cos theta, 0).
  p.set_skin(SkinChoice{SkinMethod::Dqs, {}});
  ASSERT_TRUE(p.evaluate(m, PoseMode::Clip, 0.5));
  EXPECT_TRUE(p.compact(0));
  ASSERT_TRUE(p.skin_cpu(m, nullptr, true));
  EXPECT_TRUE(p.skinned_compact(0));
  EXPECT_TRUE(p.skinned_compact(1));
  const double h = std::sqrt(0.5), t = h / (2.0 + h);
  const double cos_t = (1 - t * t) / (1 + t * t), sin_t = 2 * t / (1 + t * t);
  EXPECT_NEAR_GLM(p.skinned_positions(0)[0], glm::vec3(1.0 + 0.5 * cos_t, 0.5 * sin_t, 0.0), 1e-6f);
  EXPECT_NEAR_GLM(p.skinned_positions(0)[1], glm::vec3(1, 1, 0), 1e-6f);  // all forearm
  const glm::vec3 turned(static_cast<float>(-sin_t), static_cast<float>(cos_t), 0.0f);
  EXPECT_LT(glm::length(oct_decode(p.skinned_oct_normals(0)[0]) - turned), 1e-4f);
  // 8 influences on meshes without a second set change nothing: still compact.
  p.set_skin(SkinChoice{SkinMethod::Lbs, {}, 8});
  EXPECT_TRUE(p.compact(0));
  // Streams that do not fit a mesh (another vertex count) are not used for it.
  std::vector<CompactStreams> wrong = compact;
  wrong[1].weights.pop_back();
  p.set_compact(m, wrong);
  EXPECT_TRUE(p.compact(0));
  EXPECT_FALSE(p.compact(1));
}

TEST(SkinnedPose, TheMethodPaletteIsBuiltForDqsAndCorOnly) {
  const Model m = arm_model();
  SkinnedPose p(m);
  p.pose.set_clip(m, 0);
  ASSERT_TRUE(p.evaluate(m, PoseMode::Clip, 0.5));
  // LBS leaves it as constructed: identity rotations.
  EXPECT_NEAR(p.method_palette()[1].real.w, 1.0f, 1e-6f);
  SkinChoice dqs;
  dqs.method = SkinMethod::Dqs;
  p.set_skin(dqs);
  ASSERT_TRUE(p.evaluate(m, PoseMode::Clip, 0.5));
  // A quarter turn about +Z: q = (cos 45, 0, 0, sin 45).
  const float h = std::sqrt(0.5f);
  EXPECT_NEAR(p.method_palette()[1].real.w, h, 1e-6f);
  EXPECT_NEAR(p.method_palette()[1].real.z, h, 1e-6f);
  ASSERT_TRUE(p.skin_cpu(m));
  // A vertex on one bone is moved rigidly: DQS and LBS agree there.
  EXPECT_NEAR_GLM(p.skinned_positions(0)[1], glm::vec3(1, 1, 0), 1e-6f);
  // CoR without centres cannot skin.
  SkinChoice cor;
  cor.method = SkinMethod::Cor;
  p.set_skin(cor);
  ASSERT_TRUE(p.evaluate(m, PoseMode::Clip, 0.5));
  EXPECT_FALSE(p.skin_cpu(m));
}

}  // namespace
}  // namespace sv
