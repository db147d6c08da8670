// assets/default.glb read with tinygltf, not with skinview's importer: the file's structure
// (skin, weights, material, clips, interpolations) checked against what the generator promises,
// and the walk, run and twist clips posed through the anim layer (sample -> local_to_model ->
// palette -> skin_lbs) to show that limbs stay attached and the twist collapses the elbow; walk
// and run share their phase convention (for synchronised cross-fades), breathe starts at the
// rest pose (for an additive layer).
// Runs whether or not the importer builds.
#define TINYGLTF_IMPLEMENTATION
#define TINYGLTF_NO_STB_IMAGE
#define TINYGLTF_NO_STB_IMAGE_WRITE
#define TINYGLTF_NO_EXTERNAL_IMAGE
#include "gltf_read.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <map>
#include <numbers>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <glm/geometric.hpp>
#include <glm/gtc/quaternion.hpp>
#include <glm/gtc/type_precision.hpp>

#include "anim/clip.h"
#include "anim/clip_runtime.h"
#include "anim/pose.h"
#include "anim/skeleton.h"
#include "default_asset_facts.h"
#include "skin/skinning.h"
#include "test_util.h"

namespace sv {
namespace {

namespace facts = test::default_asset;

using test::gltf::keep_image;
using test::gltf::read;

class DefaultAssetGltf : public ::testing::Test {
 public:
  static void SetUpTestSuite() {
    model_ = new tinygltf::Model;
    tinygltf::TinyGLTF loader;
    loader.SetImageLoader(&keep_image, nullptr);
    std::string err, warn;
    loaded_ = loader.LoadBinaryFromFile(model_, &err, &warn, std::string(facts::kPath));
    load_error_ = err + warn;
  }
  static void TearDownTestSuite() {
    delete model_;
    model_ = nullptr;
  }
  void SetUp() override { ASSERT_TRUE(loaded_) << facts::kPath << ": " << load_error_; }

  const tinygltf::Model& m() const { return *model_; }
  const tinygltf::Primitive& primitive() const { return m().meshes.at(0).primitives.at(0); }
  int attribute(const char* name) const { return primitive().attributes.at(name); }
  const tinygltf::Animation& clip(std::string_view name) const {
    for (const auto& a : m().animations)
      if (a.name == name) return a;
    ADD_FAILURE() << "no clip " << name;
    return m().animations.at(0);
  }

  // The skin as an sv::Skeleton (joint i = node i: the generator stores joints first).
  Skeleton skeleton() const {
    Skeleton s;
    const tinygltf::Skin& skin = m().skins.at(0);
    const auto ibm = read<glm::mat4>(m(), skin.inverseBindMatrices);
    for (std::size_t i = 0; i < skin.joints.size(); ++i) {
      const tinygltf::Node& n = m().nodes.at(static_cast<std::size_t>(skin.joints[i]));
      s.names.push_back(n.name);
      s.parents.push_back(kNoParent);
      Transform t;
      if (n.translation.size() == 3)
        t.translation = glm::vec3(glm::dvec3(n.translation[0], n.translation[1], n.translation[2]));
      s.rest.push_back(t);
      s.inverse_bind.push_back(ibm[i]);
      s.is_bone.push_back(1);
    }
    for (std::size_t i = 0; i < skin.joints.size(); ++i)
      for (int c : m().nodes.at(static_cast<std::size_t>(skin.joints[i])).children)
        s.parents.at(static_cast<std::size_t>(c)) = static_cast<int32_t>(i);
    return s;
  }

  Clip to_clip(const tinygltf::Animation& a) const {
    Clip c;
    c.name = a.name;
    std::map<int, JointChannel> by_joint;
    for (const auto& ch : a.channels) {
      const auto& s = a.samplers.at(static_cast<std::size_t>(ch.sampler));
      if (ch.target_path == "weights") {  // morph weights: not a joint's track; its duration
        c.duration = std::max<double>(c.duration, read<float>(m(), s.input).back());
        continue;
      }
      JointChannel& jc = by_joint[ch.target_node];
      jc.joint = ch.target_node;
      const Interpolation interp = s.interpolation == "STEP"          ? Interpolation::Step
                                   : s.interpolation == "CUBICSPLINE" ? Interpolation::CubicSpline
                                                                      : Interpolation::Linear;
      const auto times = read<float>(m(), s.input);
      c.duration = std::max<double>(c.duration, times.back());
      if (ch.target_path == "rotation") {
        jc.rotation.interpolation = interp;
        jc.rotation.times.assign(times.begin(), times.end());
        for (const glm::vec4& q : read<glm::vec4>(m(), s.output))
          jc.rotation.values.emplace_back(q.w, q.x, q.y, q.z);
      } else {
        Track<glm::vec3>& t = ch.target_path == "translation" ? jc.translation : jc.scale;
        t.interpolation = interp;
        t.times.assign(times.begin(), times.end());
        t.values = read<glm::vec3>(m(), s.output);
      }
    }
    for (auto& [joint, channel] : by_joint) c.channels.push_back(std::move(channel));
    return c;
  }

  static tinygltf::Model* model_;
  static bool loaded_;
  static std::string load_error_;
};

tinygltf::Model* DefaultAssetGltf::model_ = nullptr;
bool DefaultAssetGltf::loaded_ = false;
std::string DefaultAssetGltf::load_error_;

TEST_F(DefaultAssetGltf, IsASmallGlb) {
  EXPECT_LE(std::filesystem::file_size(std::string(facts::kPath)), facts::kMaxBytes);
  EXPECT_EQ(m().asset.version, "2.0");
  EXPECT_EQ(m().meshes.size(), 2u);  // the body and the face
  EXPECT_EQ(m().skins.size(), 1u);
}

TEST_F(DefaultAssetGltf, SkeletonHasNamedJointsParentsFirst) {
  const Skeleton s = skeleton();
  ASSERT_EQ(s.size(), facts::kJoints.size());
  EXPECT_EQ(s.validate(), "");
  for (std::size_t i = 0; i < s.size(); ++i) {
    EXPECT_EQ(s.names[i], facts::kJoints[i]);
    EXPECT_EQ(s.parents[i], facts::kParents[i]) << s.names[i];
  }
  EXPECT_EQ(m().skins[0].skeleton, 0);
  // The mesh nodes are scene roots of their own (glTF: a skinned mesh's node transform is
  // ignored): the body's, then the face's.
  const auto& roots = m().scenes.at(0).nodes;
  ASSERT_EQ(roots.size(), 3u);
  EXPECT_EQ(m().nodes.at(static_cast<std::size_t>(roots[1])).skin, 0);
  EXPECT_EQ(m().nodes.at(static_cast<std::size_t>(roots[2])).skin, 0);
  EXPECT_EQ(m().nodes.at(static_cast<std::size_t>(roots[2])).mesh, 1);
}

TEST_F(DefaultAssetGltf, InverseBindMatricesInvertTheRestPose) {
  const Skeleton s = skeleton();
  std::vector<Transform> local(s.size());
  std::vector<glm::mat4> model(s.size());
  ASSERT_TRUE(rest_pose(s, local));
  ASSERT_TRUE(local_to_model(s.parents, local, model));
  for (std::size_t i = 0; i < s.size(); ++i)
    EXPECT_NEAR_GLM(model[i] * s.inverse_bind[i], glm::mat4(1.0f), 1e-6f) << s.names[i];
}

TEST_F(DefaultAssetGltf, MeshIsAHumanoidStandingOnTheFloor) {
  const auto& pos_acc = m().accessors.at(static_cast<std::size_t>(attribute("POSITION")));
  EXPECT_EQ(pos_acc.count, facts::kVertices);
  ASSERT_EQ(pos_acc.minValues.size(), 3u);
  EXPECT_NEAR(pos_acc.minValues[1], 0.0, 1e-4);            // feet on y = 0
  EXPECT_NEAR(pos_acc.maxValues[1], 1.8, 1e-3);            // 1.8 units tall
  EXPECT_GT(pos_acc.maxValues[2], -pos_acc.minValues[2]);  // toes and nose point to +Z
  for (const char* name : {"NORMAL", "TEXCOORD_0", "JOINTS_0", "WEIGHTS_0"})
    EXPECT_EQ(m().accessors.at(static_cast<std::size_t>(attribute(name))).count, facts::kVertices)
        << name;
  EXPECT_EQ(m().accessors.at(static_cast<std::size_t>(attribute("JOINTS_0"))).componentType,
            TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE);
  EXPECT_EQ(m().accessors.at(static_cast<std::size_t>(attribute("WEIGHTS_0"))).componentType,
            TINYGLTF_COMPONENT_TYPE_FLOAT);

  for (const glm::vec3& n : read<glm::vec3>(m(), attribute("NORMAL")))
    ASSERT_NEAR(glm::length(n), 1.0f, 1e-5f);
  const auto indices = read<uint16_t>(m(), primitive().indices);
  EXPECT_EQ(indices.size(), 3 * facts::kTriangles);
  for (uint16_t i : indices) ASSERT_LT(i, facts::kVertices);
}

TEST_F(DefaultAssetGltf, WeightsSumToExactlyOneLargestFirst) {
  const auto joints = read<glm::u8vec4>(m(), attribute("JOINTS_0"));
  const auto weights = read<glm::vec4>(m(), attribute("WEIGHTS_0"));
  ASSERT_EQ(joints.size(), weights.size());
  for (std::size_t v = 0; v < weights.size(); ++v) {
    const glm::vec4 w = weights[v];
    ASSERT_EQ(w.x + w.y + w.z + w.w, 1.0f) << "vertex " << v;  // exact, in float
    ASSERT_EQ(w.w + w.z + w.y + w.x, 1.0f) << "vertex " << v;  // in any order
    std::set<int> used;
    for (int i = 0; i < 4; ++i) {
      ASSERT_GE(w[i], 0.0f);
      if (i > 0) {
        ASSERT_LE(w[i], w[i - 1]) << "vertex " << v << ": not largest first";
      }
      if (w[i] > 0.0f) {
        ASSERT_LT(joints[v][i], facts::kJoints.size());
        ASSERT_TRUE(used.insert(joints[v][i]).second) << "vertex " << v << ": joint twice";
      } else {
        ASSERT_EQ(joints[v][i], 0) << "vertex " << v << ": unused slots name joint 0";
      }
    }
  }
}

TEST_F(DefaultAssetGltf, WeightsFallOffSmoothlyAcrossEveryLimbJoint) {
  const auto joints = read<glm::u8vec4>(m(), attribute("JOINTS_0"));
  const auto weights = read<glm::vec4>(m(), attribute("WEIGHTS_0"));
  const auto weight_of = [&](std::size_t v, int joint) {
    for (int i = 0; i < 4; ++i)
      if (joints[v][i] == joint && weights[v][i] > 0.0f) return weights[v][i];
    return 0.0f;
  };
  const auto index = [](std::string_view name) {
    return static_cast<int>(std::find(facts::kJoints.begin(), facts::kJoints.end(), name) -
                            facts::kJoints.begin());
  };
  for (const auto& [a, b] : {std::pair{"upperarm_l", "forearm_l"},
                             {"forearm_r", "hand_r"},
                             {"thigh_l", "shin_l"},
                             {"shin_r", "foot_r"},
                             {"neck", "head"}}) {
    // Distinct blend values across the joint: many rings, not a hard switch.
    std::set<float> levels;
    bool two_thirds = false;
    for (std::size_t v = 0; v < weights.size(); ++v) {
      const float wa = weight_of(v, index(a)), wb = weight_of(v, index(b));
      if (wa > 0.02f && wb > 0.02f && wa + wb > 0.999f) {
        levels.insert(wa);
        two_thirds = two_thirds || (std::abs(wa - 2.0f / 3.0f) < 0.08f);
      }
    }
    EXPECT_GE(levels.size(), 5u) << a << " -> " << b;
    levels.insert(0.0f);
    levels.insert(1.0f);
    float gap = 0.0f;
    for (auto it = std::next(levels.begin()); it != levels.end(); ++it)
      gap = std::max(gap, *it - *std::prev(it));
    EXPECT_LT(gap, 0.25f) << a << " -> " << b << ": the weight jumps across the joint";
    EXPECT_TRUE(two_thirds) << a << " -> " << b << ": no vertex near 2/3 : 1/3";
  }
}

TEST_F(DefaultAssetGltf, SpineZonesOverlapIntoThreeInfluences) {
  const auto weights = read<glm::vec4>(m(), attribute("WEIGHTS_0"));
  const auto joints = read<glm::u8vec4>(m(), attribute("JOINTS_0"));
  std::size_t three = 0;
  for (std::size_t v = 0; v < weights.size(); ++v) {
    if (weights[v].z > 0.0f) {
      ++three;
      for (int i = 0; i < 3; ++i) {  // hips .. neck
        EXPECT_GE(joints[v][i], 1) << "vertex " << v;
        EXPECT_LE(joints[v][i], 5) << "vertex " << v;
      }
    }
  }
  EXPECT_GT(three, 100u);
}

TEST_F(DefaultAssetGltf, MaterialHasABaseColourAndAnEmbeddedPng) {
  ASSERT_EQ(m().materials.size(), 2u);  // the skin, and the face's dark "eyes"
  EXPECT_EQ(m().materials[1].name, "eyes");
  const auto& pbr = m().materials[0].pbrMetallicRoughness;
  ASSERT_EQ(pbr.baseColorFactor.size(), 4u);
  EXPECT_EQ(pbr.baseColorFactor[3], 1.0);
  ASSERT_EQ(pbr.baseColorTexture.index, 0);
  ASSERT_EQ(m().images.size(), 1u);
  EXPECT_EQ(m().images[0].mimeType, "image/png");
  EXPECT_GE(m().images[0].bufferView, 0);
  EXPECT_EQ(primitive().material, 0);
}

TEST_F(DefaultAssetGltf, ClipsLoopWithCleanKeys) {
  ASSERT_EQ(m().animations.size(), facts::kClips.size());
  std::set<std::string> interpolations;
  for (std::size_t c = 0; c < facts::kClips.size(); ++c) {
    const tinygltf::Animation& a = m().animations[c];
    EXPECT_EQ(a.name, facts::kClips[c].name);
    for (const auto& ch : a.channels) {
      const auto& s = a.samplers.at(static_cast<std::size_t>(ch.sampler));
      interpolations.insert(s.interpolation);
      const auto times = read<float>(m(), s.input);
      const std::string where = a.name + " node " + std::to_string(ch.target_node) + " " +
                                ch.target_path + " (" + s.interpolation + ")";
      ASSERT_GE(times.size(), 2u) << where;
      EXPECT_EQ(times.front(), 0.0f) << where;
      EXPECT_EQ(times.back(), facts::kClips[c].duration) << where;
      const bool cubic = s.interpolation == "CUBICSPLINE";
      const std::size_t stride = cubic ? 3 : 1;  // (in-tangent, value, out-tangent) per key
      if (ch.target_path == "weights") {
        // Morph weights: both face targets per key, scalars.
        const auto w = read<float>(m(), s.output);
        ASSERT_EQ(w.size(), 2 * times.size()) << where;
        EXPECT_EQ(w[0], w[w.size() - 2]) << where << ": first key differs from last";
        EXPECT_EQ(w[1], w[w.size() - 1]) << where << ": first key differs from last";
      } else if (ch.target_path == "rotation") {
        const auto q = read<glm::vec4>(m(), s.output);
        ASSERT_EQ(q.size(), stride * times.size()) << where;
        EXPECT_EQ(q.front(), q.back()) << where << ": first key differs from last";
        for (std::size_t k = 0; k < q.size(); ++k) {
          EXPECT_NEAR(glm::length(q[k]), 1.0f, 1e-6f) << where << " key " << k;
          if (k > 0) {
            EXPECT_GE(glm::dot(q[k], q[k - 1]), 0.0f) << where << " key " << k;
          }
        }
      } else {
        const auto v = read<glm::vec3>(m(), s.output);
        ASSERT_EQ(v.size(), stride * times.size()) << where;
        for (std::size_t i = 0; i < stride; ++i)
          EXPECT_EQ(v[i], v[v.size() - stride + i]) << where << ": first key differs from last";
      }
    }
    const Clip clip = to_clip(a);
    EXPECT_EQ(clip.duration, facts::kClips[c].duration);
    EXPECT_EQ(clip.validate(skeleton()), "") << a.name;
  }
  EXPECT_EQ(interpolations, (std::set<std::string>{"CUBICSPLINE", "LINEAR", "STEP"}));
}

// `clip` laid out by the builder for the asset's skeleton, as the importer would.
ClipRuntime runtime(const Clip& clip, const Skeleton& s) {
  ClipRuntime rt;
  EXPECT_EQ(rt.build(clip, s), "") << clip.name;
  return rt;
}

// One joint's local transform at t through the runtime sampler.
Transform joint_at(const ClipRuntime& rt, double t, std::size_t joint) {
  Transform out;
  EXPECT_TRUE(sample_joint(rt, t, joint, out));
  return out;
}

TEST_F(DefaultAssetGltf, StepTrackHoldsAndCubicTrackFollowsItsTangents) {
  const Clip idle = to_clip(clip("idle"));
  const Clip walk = to_clip(clip("walk"));
  const Skeleton s = skeleton();
  const ClipRuntime idle_rt = runtime(idle, s), walk_rt = runtime(walk, s);
  const auto channel = [](const Clip& c, int joint) -> const JointChannel& {
    for (const auto& ch : c.channels)
      if (ch.joint == joint) return ch;
    throw std::runtime_error("no channel");
  };
  constexpr double kDeg = std::numbers::pi / 180.0;

  // STEP: at 1.5 s the head still holds the key of 1.0 s (20 degrees yaw).
  const Track<glm::quat>& head = channel(idle, 6).rotation;
  ASSERT_EQ(head.interpolation, Interpolation::Step);
  const glm::quat expected =
      glm::quat(glm::angleAxis(facts::kHeadStepYaw[1] * kDeg, glm::dvec3(0, 1, 0)) *
                glm::angleAxis(facts::kHeadStepPitch * kDeg, glm::dvec3(1, 0, 0)));
  EXPECT_NEAR_GLM(joint_at(idle_rt, 1.5, 6).rotation, expected, 1e-6f);
  EXPECT_NEAR_GLM(joint_at(idle_rt, 1.999, 6).rotation, expected, 1e-6f);

  // CUBICSPLINE: between keys the hips follow the bob curve the tangents describe, which a
  // straight line between the keys would miss.
  const Track<glm::vec3>& hips = channel(walk, 1).translation;
  ASSERT_EQ(hips.interpolation, Interpolation::CubicSpline);
  ASSERT_EQ(hips.values.size(), 3 * hips.times.size());
  const double T = facts::kClips[1].duration, w = 2.0 * std::numbers::pi / T;
  const auto curve = [&](double t) {
    return glm::vec3(facts::kWalkSway * std::sin(w * t),
                     facts::kHipsRestY + facts::kWalkBob * std::cos(2 * w * t) - facts::kWalkDrop,
                     0.0);
  };
  const double t = 0.5 * (hips.times[1] + hips.times[2]);
  const glm::vec3 cubic = joint_at(walk_rt, t, 1).translation;
  const glm::vec3 linear = 0.5f * (hips.values[3 * 1 + 1] + hips.values[3 * 2 + 1]);
  EXPECT_NEAR_GLM(cubic, curve(t), 2e-4f);
  EXPECT_GT(glm::length(cubic - linear), 2e-3f);
}

// Skins every vertex at `t` of `clip` through the anim layer.
std::vector<glm::vec3> pose(const Skeleton& s, const Clip& clip, double t,
                            const std::vector<glm::vec3>& positions,
                            const std::vector<glm::u16vec4>& joints,
                            const std::vector<glm::vec4>& weights) {
  std::vector<Transform> local(s.size());
  std::vector<glm::mat4> model(s.size()), palette(s.size());
  std::vector<glm::mat3> normal(s.size());
  std::vector<int32_t> skin_joints(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) skin_joints[i] = static_cast<int32_t>(i);
  std::vector<glm::vec3> out(positions.size());
  const ClipRuntime rt = runtime(clip, s);
  RuntimeCursor cursor;
  cursor.reset(rt);
  EXPECT_TRUE(sample_runtime(rt, t, cursor, local));
  EXPECT_TRUE(local_to_model(s.parents, local, model));
  EXPECT_TRUE(build_palette(model, skin_joints, s.inverse_bind, palette));
  EXPECT_TRUE(build_normal_palette(palette, normal));
  SkinInput in{positions, {}, joints, weights, -1};
  EXPECT_TRUE(skin_lbs(palette, normal, in, out, {}));
  return out;
}

// Poses `name` at 24 evenly spaced times: no vertex goes astray, no edge stretches, the head
// stays at the character's height, and the lowest point stays within [floor_low, floor_high] of
// the floor (0 for walking; a run's flight lifts both feet).
void expect_limbs_attached(const DefaultAssetGltf& f, std::string_view name, float floor_low,
                           float floor_high) {
  const Skeleton s = f.skeleton();
  const Clip clip = f.to_clip(f.clip(name));
  const auto positions = read<glm::vec3>(f.m(), f.attribute("POSITION"));
  const auto weights = read<glm::vec4>(f.m(), f.attribute("WEIGHTS_0"));
  std::vector<glm::u16vec4> joints;
  for (const auto& j : read<glm::u8vec4>(f.m(), f.attribute("JOINTS_0"))) joints.emplace_back(j);
  const auto indices = read<uint16_t>(f.m(), f.primitive().indices);

  for (int frame = 0; frame < 24; ++frame) {
    const double t = clip.duration * frame / 24.0;
    const auto p = pose(s, clip, t, positions, joints, weights);
    float lowest = 1e9f, highest = -1e9f, stretch = 0.0f;
    for (const glm::vec3& v : p) {
      ASSERT_TRUE(std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z));
      lowest = std::min(lowest, v.y);
      highest = std::max(highest, v.y);
    }
    for (std::size_t i = 0; i < indices.size(); i += 3) {
      for (int e = 0; e < 3; ++e) {
        const uint16_t a = indices[i + static_cast<std::size_t>(e)];
        const uint16_t b = indices[i + static_cast<std::size_t>((e + 1) % 3)];
        const float rest = glm::distance(positions[a], positions[b]);
        if (rest > 1e-4f) stretch = std::max(stretch, glm::distance(p[a], p[b]) / rest);
      }
    }
    EXPECT_GE(lowest, floor_low) << name << " t = " << t << ": feet through the floor";
    EXPECT_LE(lowest, floor_high) << name << " t = " << t << ": feet leave the floor";
    EXPECT_GT(highest, 1.7f) << name << " t = " << t;
    EXPECT_LT(highest, 1.85f) << name << " t = " << t;
    EXPECT_LT(stretch, 2.5f) << name << " t = " << t << ": an edge stretched (a limb came apart)";
  }
}

TEST_F(DefaultAssetGltf, WalkKeepsLimbsAttachedAndFeetOnTheFloor) {
  expect_limbs_attached(*this, "walk", -0.02f, 0.02f);
}

TEST_F(DefaultAssetGltf, RunKeepsLimbsAttachedAndLandsOnTheFloor) {
  // Both feet leave the floor in the flight phase (the lowest point rises to 0.13), never go
  // through it.
  expect_limbs_attached(*this, "run", -0.02f, 0.15f);
  // At mid-stance (p = 0 and 0.5) the stance foot is on the floor.
  const Skeleton s = skeleton();
  const ClipRuntime run = runtime(to_clip(clip("run")), s);
  for (const double p : {0.0, 0.5}) {
    std::vector<Transform> local(s.size());
    std::vector<glm::mat4> model(s.size());
    RuntimeCursor cursor;
    cursor.reset(run);
    ASSERT_TRUE(sample_runtime(run, p * run.duration(), cursor, local));
    ASSERT_TRUE(local_to_model(s.parents, local, model));
    const std::size_t stance = p == 0.0 ? 21 : 17;                 // foot_r, foot_l
    EXPECT_NEAR(model[stance][3].y, 0.09f, 0.01f) << "p = " << p;  // the foot joint's rest height
  }
}

TEST_F(DefaultAssetGltf, WalkAndRunShareThePhaseConvention) {
  // The thighs' swing at phase p is mean + swing * sin(2 pi (p + side)), as the facts say, in
  // both clips: what makes a cross-fade with sync keep the feet in phase.
  const Skeleton s = skeleton();
  constexpr double kDeg = std::numbers::pi / 180.0;
  struct Gait {
    const char* name;
    double mean, swing;
  };
  for (const Gait g : {Gait{"walk", facts::kWalkThighMean, facts::kWalkThighSwing},
                       Gait{"run", facts::kRunThighMean, facts::kRunThighSwing}}) {
    const ClipRuntime rt = runtime(to_clip(clip(g.name)), s);
    for (int k = 0; k < 16; ++k) {
      const double p = k / 16.0;
      for (const auto& [joint, side] : {std::pair{15, 0.0}, std::pair{19, 0.5}}) {  // thighs l, r
        const double forward = g.mean + g.swing * std::sin(2.0 * std::numbers::pi * (p + side));
        const glm::quat expected =
            glm::angleAxis(static_cast<float>(-forward * kDeg), glm::vec3(1.0f, 0.0f, 0.0f));
        const glm::quat q =
            joint_at(rt, p * rt.duration(), static_cast<std::size_t>(joint)).rotation;
        // Keys every 1/24 (walk) or 1/28 (run) of a cycle: a chord of the sine, within 0.3 deg.
        EXPECT_LT(glm::angle(q * glm::inverse(expected)), 0.3 * kDeg)
            << g.name << " joint " << joint << " p = " << p;
      }
    }
  }
}

TEST_F(DefaultAssetGltf, BreatheStartsAtTheRestPoseAndSwellsTheChest) {
  const Skeleton s = skeleton();
  const ClipRuntime breathe = runtime(to_clip(clip("breathe")), s);
  ASSERT_GT(breathe.channels(), 0u);
  // Its first frame is the rest pose: as an additive layer's reference, the difference from it
  // is the breath alone.
  for (std::size_t j = 0; j < s.size(); ++j) {
    const Transform t = joint_at(breathe, 0.0, j);
    EXPECT_NEAR_GLM(t.translation, s.rest[j].translation, 1e-6f) << s.names[j];
    EXPECT_NEAR_GLM(t.rotation, s.rest[j].rotation, 1e-6f) << s.names[j];
    EXPECT_NEAR_GLM(t.scale, s.rest[j].scale, 1e-6f) << s.names[j];
  }
  const Transform chest = joint_at(breathe, breathe.duration() / 2, 4);  // spine_03
  EXPECT_NEAR_GLM(chest.scale,
                  glm::vec3(facts::kBreatheChestScale[0], facts::kBreatheChestScale[1],
                            facts::kBreatheChestScale[2]),
                  1e-6f);
}

TEST_F(DefaultAssetGltf, TwistCollapsesTheElbowUnderLinearBlendSkinning) {
  const Skeleton s = skeleton();
  const Clip twist = to_clip(clip("twist"));
  const auto positions = read<glm::vec3>(m(), attribute("POSITION"));
  const auto weights = read<glm::vec4>(m(), attribute("WEIGHTS_0"));
  std::vector<glm::u16vec4> joints;
  for (const auto& j : read<glm::u8vec4>(m(), attribute("JOINTS_0"))) joints.emplace_back(j);

  // Vertices split half and half between the left upper arm (8) and forearm (9).
  std::vector<std::size_t> elbow;
  for (std::size_t v = 0; v < weights.size(); ++v) {
    if (weights[v].y > 0.4f && std::set<int>{joints[v].x, joints[v].y} == std::set<int>{8, 9})
      elbow.push_back(v);
  }
  ASSERT_GE(elbow.size(), 20u);
  const glm::vec3 joint = glm::vec3(glm::inverse(s.inverse_bind[9])[3]);
  const glm::vec3 axis = glm::normalize(glm::vec3(glm::inverse(s.inverse_bind[10])[3]) - joint);
  const auto mean_radius = [&](const std::vector<glm::vec3>& p) {
    double sum = 0.0;
    for (std::size_t v : elbow) {
      const glm::vec3 d = p[v] - joint;
      sum += glm::length(d - glm::dot(d, axis) * axis);
    }
    return sum / static_cast<double>(elbow.size());
  };
  const double rest = mean_radius(pose(s, twist, 0.0, positions, joints, weights));
  const double half = mean_radius(pose(s, twist, twist.duration / 2, positions, joints, weights));
  EXPECT_GT(rest, 0.025);
  EXPECT_LT(half, 0.25 * rest) << "the 180-degree roll should pinch the elbow to its axis";
}

}  // namespace
}  // namespace sv
