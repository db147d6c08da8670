// The runtime clip on real files from Debian's assimp-testmodels package:
//  - build -> arrays -> adopt (the model format's hooks, anim/clip_arrays.h) gives back clips
//    that pose bit-identically, for every clip of every animated test model;
//  - late in a long clip, --dump's pose (pose_model: the viewer's Animator) matches assimp's own
//    keys, composed here in double along assimp's node tree: key times are doubles all the way,
//    so a 30-s BVH clip no longer drifts (it did by up to 4e-6 of the size with float times).
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include <assimp/scene.h>
#include <gtest/gtest.h>
#include <assimp/Importer.hpp>
#include <glm/gtc/quaternion.hpp>
#include <glm/mat4x4.hpp>

#include "anim/clip_runtime.h"
#include "io/dump.h"
#include "io/import.h"

namespace sv {
namespace {

std::string clip_model_path(const std::string& rel) {
  return std::string(SKINVIEW_TEST_MODELS) + "/" + rel;
}

template <class T>
bool same_bytes(const std::vector<T>& a, const std::vector<T>& b) {
  // memcmp must not see the null data() of an empty vector (UBSan).
  return a.size() == b.size() &&
         (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}

TEST(RuntimeClipArrays, AdoptedClipsOfTheTestModelsPoseBitIdentically) {
  for (const char* file :
       {"X/BCN_Epileptic.X", "X/Testwuson.X", "X/anim_test.x", "FBX/animation_with_skeleton.fbx",
        "FBX/huesitos.fbx", "glTF2/simple_skin/simple_skin.gltf", "SMD/WusonSMD.smd",
        "BVH/01_01.bvh", "Collada/anims_with_full_rotations_between_keys.DAE"}) {
    SCOPED_TRACE(file);
    ImportResult r = import_model(clip_model_path(file));
    ASSERT_TRUE(r.ok()) << r.error;
    const Model& m = *r.model;
    ASSERT_FALSE(m.clips.empty());
    std::vector<int32_t> skin;
    std::vector<glm::mat4> inverse_bind;
    for (const Mesh& mesh : m.meshes) {
      skin.insert(skin.end(), mesh.skin_joints.begin(), mesh.skin_joints.end());
      inverse_bind.insert(inverse_bind.end(), mesh.inverse_bind.begin(), mesh.inverse_bind.end());
    }
    const std::size_t n = m.skeleton.size();
    for (const ClipRuntime& built : m.clips) {
      ClipRuntime adopted;
      ASSERT_EQ(adopted.adopt(ClipArrays::copy_of(built.arrays())), "") << built.name();
      EXPECT_EQ(adopted.name(), built.name());
      EXPECT_EQ(adopted.duration(), built.duration());
      EXPECT_EQ(adopted.keys(), built.keys());
      RuntimeCursor cb, ca;
      cb.reset(built);
      ca.reset(adopted);
      std::vector<Transform> lb(n), la(n);
      std::vector<glm::mat4> mb(n), ma(n), pb(skin.size()), pa(skin.size());
      for (int i = 0; i <= 40; ++i) {
        const double t = built.duration() * i / 40.0;
        ASSERT_TRUE(sample_runtime(built, t, cb, lb));
        ASSERT_TRUE(sample_runtime(adopted, t, ca, la));
        ASSERT_EQ(std::memcmp(lb.data(), la.data(), n * sizeof(Transform)), 0) << t;
        ASSERT_TRUE(evaluate_pose(built, t, cb, skin, inverse_bind, mb, pb));
        ASSERT_TRUE(evaluate_pose(adopted, t, ca, skin, inverse_bind, ma, pa));
        ASSERT_TRUE(same_bytes(mb, ma)) << t;
        ASSERT_TRUE(same_bytes(pb, pa)) << t;
      }
    }
  }
}

// assimp's own pose of node `node` at `ticks`, in double: its keys interpolated as glTF
// defines (assimp's BVH keys are linear; the rotation slerped exactly), its parents' poses
// composed above it, nodes without a channel at their mTransformation.
glm::dmat4 assimp_global(const aiNode* node, const aiAnimation& anim, double ticks) {
  glm::dmat4 local(1.0);
  const aiMatrix4x4& t = node->mTransformation;
  for (int r = 0; r < 4; ++r)
    for (int c = 0; c < 4; ++c) local[c][r] = t[r][c];
  for (unsigned i = 0; i < anim.mNumChannels; ++i) {
    const aiNodeAnim& ch = *anim.mChannels[i];
    if (std::string(ch.mNodeName.C_Str()) != node->mName.C_Str()) continue;
    // The segment [k, k+1] around `ticks` in a key list, with s in [0, 1].
    const auto at = [ticks](const auto* keys, unsigned count, unsigned& k, double& s) {
      k = 0;
      s = 0.0;
      if (count < 2 || ticks <= keys[0].mTime) return;
      while (k + 2 < count && keys[k + 1].mTime <= ticks) ++k;
      s = std::min(1.0, (ticks - keys[k].mTime) / (keys[k + 1].mTime - keys[k].mTime));
    };
    glm::dvec3 pos(0.0), scale(1.0);
    glm::dquat rot(1.0, 0.0, 0.0, 0.0);
    unsigned k;
    double s;
    if (ch.mNumPositionKeys > 0) {
      at(ch.mPositionKeys, ch.mNumPositionKeys, k, s);
      const aiVector3D& a = ch.mPositionKeys[k].mValue;
      const aiVector3D& b = ch.mPositionKeys[std::min(k + 1, ch.mNumPositionKeys - 1)].mValue;
      pos = glm::dvec3(a.x, a.y, a.z) + s * glm::dvec3(b.x - a.x, b.y - a.y, b.z - a.z);
    }
    if (ch.mNumRotationKeys > 0) {
      at(ch.mRotationKeys, ch.mNumRotationKeys, k, s);
      const aiQuaternion& a = ch.mRotationKeys[k].mValue;
      const aiQuaternion& b = ch.mRotationKeys[std::min(k + 1, ch.mNumRotationKeys - 1)].mValue;
      glm::dquat qa(a.w, a.x, a.y, a.z), qb(b.w, b.x, b.y, b.z);
      qa = glm::normalize(qa);
      qb = glm::normalize(qb);
      if (glm::dot(qa, qb) < 0.0) qb = -qb;
      const double theta = std::acos(std::min(1.0, glm::dot(qa, qb)));
      rot = std::sin(theta) < 1e-12
                ? qa
                : (qa * std::sin((1.0 - s) * theta) + qb * std::sin(s * theta)) / std::sin(theta);
    }
    if (ch.mNumScalingKeys > 0) {
      at(ch.mScalingKeys, ch.mNumScalingKeys, k, s);
      const aiVector3D& a = ch.mScalingKeys[k].mValue;
      const aiVector3D& b = ch.mScalingKeys[std::min(k + 1, ch.mNumScalingKeys - 1)].mValue;
      scale = glm::dvec3(a.x, a.y, a.z) + s * glm::dvec3(b.x - a.x, b.y - a.y, b.z - a.z);
    }
    local = glm::dmat4(1.0);
    local[3] = glm::dvec4(pos, 1.0);
    const glm::dmat3 rs = glm::mat3_cast(rot);
    for (int c = 0; c < 3; ++c) local[c] = glm::dvec4(rs[c] * scale[c], 0.0);
  }
  return node->mParent != nullptr ? assimp_global(node->mParent, anim, ticks) * local : local;
}

// Late in each BVH clip (the last segments of 01_01's 22.9 s, 01_03's and Boxing_Toes'), on a
// key and between two keys, every joint of --dump's pose is where assimp's own keys put it,
// within 1e-6 of the skeleton's size: float rounding of the pose alone (2.5e-7 to 3.4e-7 here).
// With key times in float seconds (before the runtime clip held doubles) the same poses were
// off by up to 4.0e-6 of the size on 01_03 and 1.9e-6 on Boxing_Toes: a time near 37.57 s is
// stored to 2e-6 s, a quarter of a percent of the 1/120 s key interval.
TEST(RuntimeClipTime, LateBvhPosesMatchAssimpsKeys) {
  for (const char* file : {"BVH/01_01.bvh", "BVH/01_03.bvh", "BVH/Boxing_Toes.bvh"}) {
    SCOPED_TRACE(file);
    Assimp::Importer importer;
    const aiScene* scene = importer.ReadFile(clip_model_path(file), 0);
    ASSERT_NE(scene, nullptr) << importer.GetErrorString();
    ASSERT_GE(scene->mNumAnimations, 1u);
    const aiAnimation& anim = *scene->mAnimations[0];
    ASSERT_GT(anim.mTicksPerSecond, 0.0);
    ImportResult r = import_model(clip_model_path(file));
    ASSERT_TRUE(r.ok()) << r.error;
    const Model& m = *r.model;

    // The key grid of the first channel's rotation (every BVH channel is keyed per frame).
    const aiNodeAnim& first = *anim.mChannels[0];
    const unsigned keys = first.mNumRotationKeys;
    ASSERT_GE(keys, 4u);
    const double last = first.mRotationKeys[keys - 2].mTime;
    const double before = first.mRotationKeys[keys - 3].mTime;
    for (const double ticks : {last, 0.5 * (before + last), before + 0.25 * (last - before)}) {
      const double seconds = ticks / anim.mTicksPerSecond;
      PosedModel pose;
      ASSERT_EQ(pose_model(m, 0, seconds, pose), "");
      std::vector<glm::dvec3> want(m.skeleton.size());
      glm::dvec3 lo(1e300), hi(-1e300);
      for (std::size_t j = 0; j < m.skeleton.size(); ++j) {
        const aiNode* node = scene->mRootNode->FindNode(m.skeleton.names[j].c_str());
        ASSERT_NE(node, nullptr) << m.skeleton.names[j];
        want[j] = glm::dvec3(assimp_global(node, anim, ticks)[3]);
        lo = glm::min(lo, want[j]);
        hi = glm::max(hi, want[j]);
      }
      const double size = glm::length(hi - lo);
      ASSERT_GT(size, 1.0);
      double worst = 0.0;
      for (std::size_t j = 0; j < m.skeleton.size(); ++j)
        worst = std::max(worst, glm::length(glm::dvec3(pose.joint_model[j][3]) - want[j]));
      EXPECT_LT(worst / size, 1e-6) << "t = " << seconds << " s of " << m.clips[0].duration();
    }
  }
}

}  // namespace
}  // namespace sv
