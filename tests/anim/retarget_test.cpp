// Clips from another file (anim/retarget.h): joint names matched through namespaces, prefixes and
// a joint map, and keys retargeted onto a rig whose rest pose and hip height differ. Every
// expectation below is worked out by hand in the comments.
#include <gtest/gtest.h>

#include <cmath>

#include <glm/gtc/quaternion.hpp>

#include "anim/retarget.h"
#include "test_util.h"

namespace sv {
namespace {

using test::trs;

Skeleton skeleton(std::vector<std::string> names, std::vector<int32_t> parents,
                  std::vector<Transform> rest = {}) {
  Skeleton s;
  const std::size_t n = names.size();
  s.names = std::move(names);
  s.parents = std::move(parents);
  s.rest = rest.empty() ? std::vector<Transform>(n) : std::move(rest);
  s.inverse_bind.assign(n, glm::mat4(1.0f));
  s.is_bone.assign(n, 1);
  return s;
}

std::vector<std::string> names_of(const Skeleton& s, const std::vector<int32_t>& joints) {
  std::vector<std::string> out;
  for (int32_t j : joints) out.push_back(s.names[static_cast<std::size_t>(j)]);
  return out;
}

const glm::quat kIdentity(1, 0, 0, 0);
glm::quat about(float degrees, glm::vec3 axis) {
  return glm::angleAxis(glm::radians(degrees), axis);
}

TEST(JointNames, NamespaceAndPrefixAreDroppedPerSide) {
  // Mixamo's namespace on the animation file, Blender's "Armature|" and a "Character1_" prefix:
  // the keys are what is left, lower case.
  EXPECT_EQ(joint_key("mixamorig:Hips", ""), "hips");
  EXPECT_EQ(joint_key("Armature|Spine", ""), "spine");
  EXPECT_EQ(joint_key("Character1_LeftArm", "Character1_"), "leftarm");
  EXPECT_EQ(joint_key("ns:Character1_LeftArm", "Character1_"), "leftarm");
  // The common prefix ends at a separator, is shared by every name, and never a whole name.
  EXPECT_EQ(common_joint_prefix(std::vector<std::string>{"Character1_Hips", "Character1_Spine"}),
            "Character1_");
  EXPECT_EQ(common_joint_prefix(std::vector<std::string>{"Bip01 Pelvis", "Bip01 L Thigh"}),
            "Bip01 ");
  EXPECT_EQ(common_joint_prefix(std::vector<std::string>{"LeftArm", "LeftLeg"}), "");
  EXPECT_EQ(common_joint_prefix(std::vector<std::string>{"a_", "a_b"}), "");
  EXPECT_EQ(common_joint_prefix(std::vector<std::string>{"a_b"}), "");
  EXPECT_EQ(common_joint_prefix(std::vector<std::string>{"x:a_b", "y:a_c"}), "a_");
}

TEST(JointNames, MixamoClipOntoAPlainRig) {
  // Target: Armature (a plain node), Hips, Spine, LeftArm. Source: the same three bones under
  // "mixamorig:", plus HeadTop_End. Mapped 3 by key; unmapped Armature; extra HeadTop_End.
  const Skeleton target = skeleton({"Armature", "Hips", "Spine", "LeftArm"}, {-1, 0, 1, 2});
  const Skeleton source =
      skeleton({"mixamorig:Hips", "mixamorig:Spine", "mixamorig:LeftArm", "mixamorig:HeadTop_End"},
               {-1, 0, 1, 1});
  const JointMatch m = match_joints(target, source, {});
  EXPECT_EQ(m.mapped, 3u);
  EXPECT_EQ(m.by_key, 3u);
  EXPECT_EQ(m.by_map, 0u);
  EXPECT_EQ(m.source_of, (std::vector<int32_t>{-1, 0, 1, 2}));
  EXPECT_EQ(m.target_of, (std::vector<int32_t>{1, 2, 3, -1}));
  EXPECT_EQ(names_of(target, m.unmapped), (std::vector<std::string>{"Armature"}));
  EXPECT_EQ(names_of(source, m.extra), (std::vector<std::string>{"mixamorig:HeadTop_End"}));
}

TEST(JointNames, PrefixOnOneSideNamespaceOnTheOther) {
  // "Character1_" is the target's common prefix; "Armature|" the source's namespace.
  const Skeleton target =
      skeleton({"Character1_Hips", "Character1_Spine", "Character1_Head"}, {-1, 0, 1});
  const Skeleton source = skeleton({"Armature|hips", "Armature|spine"}, {-1, 0});
  const JointMatch m = match_joints(target, source, {});
  EXPECT_EQ(m.target_prefix, "Character1_");
  EXPECT_EQ(m.source_prefix, "");
  EXPECT_EQ(m.source_of, (std::vector<int32_t>{0, 1, -1}));
  EXPECT_EQ(names_of(target, m.unmapped), (std::vector<std::string>{"Character1_Head"}));
  EXPECT_TRUE(m.extra.empty());
}

TEST(JointNames, JointMapCoversTheRestAndComesFirst) {
  // 3ds Max's Biped names: keys "pelvis", "spine", "l thigh" after the "Bip01 " prefix. Only
  // "spine" meets a target key; the map pairs the other two. Its entry naming a joint neither
  // side has is reported as unused; the exact name "Spine" would also match, but the map
  // already took source "Bip01 Spine" for "Chest".
  const Skeleton target = skeleton({"Hips", "Spine", "Chest", "LeftUpLeg"}, {-1, 0, 1, 0});
  const Skeleton source =
      skeleton({"Bip01 Pelvis", "Bip01 Spine", "Bip01 L Thigh", "Spine"}, {-1, 0, 0, 1});
  const std::vector<std::pair<std::string, std::string>> map = {
      {"Bip01 Pelvis", "Hips"},
      {"Bip01 L Thigh", "LeftUpLeg"},
      {"Bip01 Spine", "Chest"},
      {"Nope", "Hips"},
  };
  const JointMatch m = match_joints(target, source, map);
  EXPECT_EQ(m.by_map, 3u);
  EXPECT_EQ(m.source_of, (std::vector<int32_t>{0, 3, 1, 2}));  // Spine by its exact name
  EXPECT_EQ(m.by_key, 0u);
  EXPECT_EQ(m.mapped, 4u);
  EXPECT_TRUE(m.unmapped.empty());
  EXPECT_TRUE(m.extra.empty());
  EXPECT_EQ(m.map_unused, (std::vector<std::string>{"Nope -> Hips"}));
}

TEST(JointNames, AKeyTwoJointsShareMatchesNothing) {
  // Two namespaces in one file both hold "Hips": which one is meant is not guessed.
  const Skeleton target = skeleton({"Hips", "Spine"}, {-1, 0});
  const Skeleton source = skeleton({"a:Hips", "b:Hips", "a:Spine"}, {-1, -1, 0});
  const JointMatch m = match_joints(target, source, {});
  EXPECT_EQ(m.source_of, (std::vector<int32_t>{-1, 2}));
  EXPECT_EQ(m.unmapped.size(), 1u);
  EXPECT_EQ(m.extra.size(), 2u);
}

TEST(JointNames, AnExactPairDoesNotMakeAKeyAmbiguous) {
  // assimp's glTF root node "ROOT" beside the file's "root" joint: ROOT pairs with ROOT by its
  // exact name, so the key "root" is left to one joint a side.
  const Skeleton target = skeleton({"ROOT", "root", "hips"}, {-1, 0, 1});
  const Skeleton source = skeleton({"ROOT", "mixamorig:root", "mixamorig:hips"}, {-1, 0, 1});
  const JointMatch m = match_joints(target, source, {});
  EXPECT_EQ(m.source_of, (std::vector<int32_t>{0, 1, 2}));
  EXPECT_EQ(m.by_key, 2u);
}

// The two-joint rigs of the retargeting tests.
//  target: Hips at (0,1,0), no rotation; Spine 0.5 above it, no rotation.
//  source: Hips at (0,2,0) turned 90 degrees about +z (its local +x points up the world's +y);
//          Spine 1 along the hips' local +x (so also straight up, 1 long), no rotation.
Skeleton target_rig() {
  return skeleton({"Hips", "Spine"}, {-1, 0}, {trs({0, 1, 0}), trs({0, 0.5f, 0})});
}
Skeleton source_rig() {
  return skeleton({"mixamorig:Hips", "mixamorig:Spine"}, {-1, 0},
                  {trs({0, 2, 0}, about(90, {0, 0, 1})), trs({1, 0, 0})});
}

// Source clip, 1 s: the hips move 1 along +x and turn 90 degrees about world +y (local value
// qy90 * qz90); the spine turns 90 degrees about its own +x; the spine's translation is keyed at
// its rest (1,0,0) throughout.
ClipRuntime source_clip(const Skeleton& source) {
  Clip c;
  c.name = "walk";
  c.duration = 1.0;
  JointChannel hips;
  hips.joint = 0;
  hips.translation.times = {0.0, 1.0};
  hips.translation.values = {{0, 2, 0}, {1, 2, 0}};
  hips.rotation.times = {0.0, 1.0};
  hips.rotation.values = {about(90, {0, 0, 1}), about(90, {0, 1, 0}) * about(90, {0, 0, 1})};
  JointChannel spine;
  spine.joint = 1;
  spine.rotation.times = {0.0, 1.0};
  spine.rotation.values = {kIdentity, about(90, {1, 0, 0})};
  spine.translation.times = {0.0, 1.0};
  spine.translation.values = {{1, 0, 0}, {1, 0, 0}};
  c.channels.push_back(std::move(hips));
  c.channels.push_back(std::move(spine));
  ClipRuntime rt;
  EXPECT_EQ(rt.build(c, source), "");
  return rt;
}

TEST(Retarget, DifferentRestRotationAndHipHeight) {
  const Skeleton target = target_rig();
  const Skeleton source = source_rig();
  std::vector<ClipRuntime> clips;
  clips.push_back(source_clip(source));
  const JointMatch m = match_joints(target, source, {});
  ASSERT_EQ(m.mapped, 2u);
  const RetargetPlan plan = plan_retarget(target, source, m, clips);
  // Hip heights: |(0,1,0)| = 1 on the target, |(0,2,0)| = 2 on the source: k = 0.5.
  EXPECT_EQ(plan.figures.hip, 0);
  EXPECT_FLOAT_EQ(plan.figures.hip_scale, 0.5f);
  EXPECT_FLOAT_EQ(plan.figures.target_hip_height, 1.0f);
  EXPECT_FLOAT_EQ(plan.figures.source_hip_height, 2.0f);
  EXPECT_EQ(plan.figures.rest_differs, 2u);

  ClipRuntime out;
  std::vector<int32_t> dropped;
  ASSERT_EQ(retarget_clip(clips[0], plan, target, "walk", &out, &dropped), "");
  EXPECT_EQ(out.name(), "walk");
  EXPECT_DOUBLE_EQ(out.duration(), 1.0);
  // The spine's translation keys: rest lengths 1 and 0.5 differ, so they are not used.
  EXPECT_EQ(dropped, (std::vector<int32_t>{1}));

  Transform hips, spine;
  // t = 0: both at the target's rest.
  ASSERT_TRUE(sample_joint(out, 0.0, 0, hips));
  ASSERT_TRUE(sample_joint(out, 0.0, 1, spine));
  EXPECT_VEC_NEAR(hips.translation, glm::vec3(0, 1, 0), 1e-6f);
  EXPECT_SAME_ROTATION(hips.rotation, kIdentity, 1e-6f);
  EXPECT_VEC_NEAR(spine.translation, glm::vec3(0, 0.5f, 0), 1e-6f);
  EXPECT_SAME_ROTATION(spine.rotation, kIdentity, 1e-6f);
  // t = 1. Hips: root, C = identity, so local = qy90 * qz90 * inverse(qz90) * identity = qy90
  // (a quarter turn about world +y, as the source's hips turned from their rest); translation
  // 0.5 * (1,2,0) = (0.5,1,0).
  ASSERT_TRUE(sample_joint(out, 1.0, 0, hips));
  EXPECT_VEC_NEAR(hips.translation, glm::vec3(0.5f, 1, 0), 1e-6f);
  EXPECT_SAME_ROTATION(hips.rotation, about(90, {0, 1, 0}), 1e-6f);
  // Spine: C = inverse(identity) * qz90; local = qz90 * qx90 * inverse(qz90) = qy90 (a turn
  // about the source spine's own x, which points up the world's y at rest). In the world the
  // source spine turned by qy90 (its hips) times qy90 (its own): qy180; the target's hips
  // carry qy90 of it, its own local carries the other qy90. Length: the target's 0.5.
  ASSERT_TRUE(sample_joint(out, 1.0, 1, spine));
  EXPECT_VEC_NEAR(spine.translation, glm::vec3(0, 0.5f, 0), 1e-6f);
  EXPECT_SAME_ROTATION(spine.rotation, about(90, {0, 1, 0}), 1e-6f);
  // Halfway: the translation lerps to 0.5 * (0.5,2,0) = (0.25,1,0).
  ASSERT_TRUE(sample_joint(out, 0.5, 0, hips));
  EXPECT_VEC_NEAR(hips.translation, glm::vec3(0.25f, 1, 0), 1e-6f);
  EXPECT_SAME_ROTATION(hips.rotation, about(45, {0, 1, 0}), 1e-6f);
}

TEST(Retarget, SameRigCopiesKeysBitForBit) {
  // The source is the target under another namespace: every key is copied unchanged, so the
  // retargeted clip samples exactly as the original does.
  const Skeleton source = source_rig();
  Skeleton target = source_rig();
  target.names = {"Character1_Hips", "Character1_Spine"};
  std::vector<ClipRuntime> clips;
  clips.push_back(source_clip(source));
  const JointMatch m = match_joints(target, source, {});
  const RetargetPlan plan = plan_retarget(target, source, m, clips);
  EXPECT_EQ(plan.figures.rest_differs, 0u);
  EXPECT_EQ(plan.figures.hip_scale, 1.0f);
  ClipRuntime out;
  std::vector<int32_t> dropped;
  ASSERT_EQ(retarget_clip(clips[0], plan, target, "walk", &out, &dropped), "");
  EXPECT_TRUE(dropped.empty());
  for (double t : {0.0, 0.25, 0.5, 0.9, 1.0})
    for (std::size_t j = 0; j < 2; ++j) {
      Transform a, b;
      ASSERT_TRUE(sample_joint(clips[0], t, j, a));
      ASSERT_TRUE(sample_joint(out, t, j, b));
      EXPECT_EQ(a.translation, b.translation) << t << " " << j;
      EXPECT_EQ(a.rotation, b.rotation) << t << " " << j;
      EXPECT_EQ(a.scale, b.scale) << t << " " << j;
    }
}

TEST(Retarget, UnmappedJointsStayAtRestAndExtraKeysAreDropped) {
  // Target has a third joint the source lacks; the source has one the target lacks and keys it.
  const Skeleton target = skeleton({"Hips", "Spine", "Tail"}, {-1, 0, 0},
                                   {trs({0, 1, 0}), trs({0, 0.5f, 0}), trs({0, 0, -1})});
  Skeleton source = skeleton({"Hips", "Spine", "Extra"}, {-1, 0, 1},
                             {trs({0, 1, 0}), trs({0, 0.5f, 0}), trs({0, 1, 0})});
  Clip c;
  c.name = "c";
  c.duration = 1.0;
  JointChannel extra;
  extra.joint = 2;
  extra.rotation.times = {0.0};
  extra.rotation.values = {about(30, {1, 0, 0})};
  c.channels.push_back(std::move(extra));
  std::vector<ClipRuntime> clips(1);
  ASSERT_EQ(clips[0].build(c, source), "");
  const JointMatch m = match_joints(target, source, {});
  EXPECT_EQ(m.unmapped, (std::vector<int32_t>{2}));
  EXPECT_EQ(m.extra, (std::vector<int32_t>{2}));
  const RetargetPlan plan = plan_retarget(target, source, m, clips);
  EXPECT_EQ(plan.figures.hip, -1);  // nothing keys a translation
  ClipRuntime out;
  ASSERT_EQ(retarget_clip(clips[0], plan, target, "c", &out), "");
  EXPECT_EQ(out.channels(), 0u);
  Transform tail;
  ASSERT_TRUE(sample_joint(out, 0.5, 2, tail));
  EXPECT_VEC_NEAR(tail.translation, glm::vec3(0, 0, -1), 0.0f);
  EXPECT_SAME_ROTATION(tail.rotation, kIdentity, 0.0f);
}

TEST(Retarget, PlanForAnotherSkeletonIsRefused) {
  const Skeleton target = target_rig();
  const Skeleton source = source_rig();
  std::vector<ClipRuntime> clips;
  clips.push_back(source_clip(source));
  const RetargetPlan plan = plan_retarget(target, source, match_joints(target, source, {}), clips);
  const Skeleton other = skeleton({"a", "b", "c"}, {-1, 0, 1});
  ClipRuntime out;
  EXPECT_NE(retarget_clip(clips[0], plan, other, "x", &out), "");
  EXPECT_TRUE(out.empty());
}

}  // namespace
}  // namespace sv
