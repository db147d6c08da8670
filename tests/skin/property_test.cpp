// Property tests on synthetic skeletons (1 to 1,000 joints, random parents-first hierarchies,
// long chains too), random clips of every interpolation, and random skins with zero weights,
// more than 4 influences and bad values. Fixed seeds, so a failure reproduces.
//   - sampling the runtime clip (sample_runtime, evaluate_pose) gives finite transforms and
//     unit rotations at any time;
//   - the rest pose with inverse binds that match it leaves every vertex where it is;
//   - CPU skinning gives finite output for any model that Model::validate accepts, and
//     Model::validate refuses weights that are NaN, negative, huge or do not sum to 1.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <glm/gtc/matrix_inverse.hpp>
#include <glm/gtc/quaternion.hpp>

#include "anim/clip.h"
#include "anim/clip_runtime.h"
#include "anim/finite.h"
#include "anim/model.h"
#include "anim/pose.h"
#include "anim/skeleton.h"
#include "anim/transform.h"
#include "skin/skinning.h"

namespace sv {
namespace {

using Rng = std::mt19937;

float uniform(Rng& rng, float lo, float hi) {
  return std::uniform_real_distribution<float>(lo, hi)(rng);
}

glm::vec3 random_vec(Rng& rng, float lo, float hi) {
  return {uniform(rng, lo, hi), uniform(rng, lo, hi), uniform(rng, lo, hi)};
}

glm::quat random_rotation(Rng& rng) {
  glm::quat q(uniform(rng, -1, 1), uniform(rng, -1, 1), uniform(rng, -1, 1), uniform(rng, -1, 1));
  const float len = glm::length(q);
  return len > 1e-3f ? q / len : glm::quat(1, 0, 0, 0);
}

enum class Shape { Tree, Chain };

// Parents first: a random tree (each joint's parent any earlier joint, a few extra roots) or a
// single chain. Chains keep unit scale: a scale of 1.1 compounded over 1,000 joints overflows.
Skeleton random_skeleton(Rng& rng, std::size_t joints, Shape shape) {
  Skeleton sk;
  for (std::size_t i = 0; i < joints; ++i) {
    int32_t parent = kNoParent;
    if (i > 0) {
      if (shape == Shape::Chain)
        parent = static_cast<int32_t>(i - 1);
      else if (rng() % 50 != 0)
        parent = static_cast<int32_t>(rng() % i);
    }
    sk.names.push_back("j" + std::to_string(i));
    sk.parents.push_back(parent);
    Transform t;
    t.translation = random_vec(rng, -1, 1);
    t.rotation = random_rotation(rng);
    t.scale = shape == Shape::Chain ? glm::vec3(1.0f) : random_vec(rng, 0.7f, 1.3f);
    sk.rest.push_back(t);
    sk.is_bone.push_back(1);
  }
  // Inverse binds that match the rest pose.
  std::vector<glm::mat4> model(joints);
  EXPECT_TRUE(local_to_model(sk.parents, sk.rest, model));
  for (const glm::mat4& m : model) sk.inverse_bind.push_back(glm::inverse(m));
  return sk;
}

template <class T>
T random_value(Rng& rng);
template <>
glm::vec3 random_value<glm::vec3>(Rng& rng) {
  return random_vec(rng, -2, 2);
}
template <>
glm::quat random_value<glm::quat>(Rng& rng) {
  return random_rotation(rng);
}

template <class T>
Track<T> random_track(Rng& rng, float duration) {
  Track<T> track;
  track.interpolation = static_cast<Interpolation>(rng() % 3);
  const std::size_t keys = 1 + rng() % 8;
  // Strictly increasing times in [0, duration] (sometimes starting after 0).
  std::vector<float> times;
  for (std::size_t k = 0; k < keys; ++k) times.push_back(uniform(rng, 0, duration));
  std::sort(times.begin(), times.end());
  times.erase(std::unique(times.begin(), times.end()), times.end());
  track.times.assign(times.begin(), times.end());
  for (std::size_t k = 0; k < times.size(); ++k) {
    if (track.interpolation == Interpolation::CubicSpline) {
      track.values.push_back(uniform(rng, -1, 1) * random_value<T>(rng));  // in-tangent
      track.values.push_back(random_value<T>(rng));
      track.values.push_back(uniform(rng, -1, 1) * random_value<T>(rng));  // out-tangent
    } else {
      track.values.push_back(random_value<T>(rng));
    }
  }
  return track;
}

Clip random_clip(Rng& rng, const Skeleton& sk) {
  Clip clip;
  clip.name = "random";
  clip.duration = uniform(rng, 0.0f, 10.0f);
  if (rng() % 10 == 0) clip.duration = 0.0f;  // a single pose, as Testwuson's Wuson_Bind
  for (std::size_t j = 0; j < sk.size(); ++j) {
    if (rng() % 3 == 0) continue;  // some joints keep their rest pose
    JointChannel ch;
    ch.joint = static_cast<int32_t>(j);
    if (rng() % 4 != 0) ch.translation = random_track<glm::vec3>(rng, clip.duration);
    if (rng() % 4 != 0) ch.rotation = random_track<glm::quat>(rng, clip.duration);
    // Keep scale near 1 so 1,000 compounded joints stay in float range.
    if (rng() % 4 == 0) {
      ch.scale = random_track<glm::vec3>(rng, clip.duration);
      for (glm::vec3& v : ch.scale.values) v = glm::vec3(1.0f) + 0.05f * v;
    }
    clip.channels.push_back(std::move(ch));
  }
  return clip;
}

// The runtime form of a random clip (the builder refuses nothing random_clip makes).
ClipRuntime random_runtime(Rng& rng, const Skeleton& sk) {
  ClipRuntime rt;
  EXPECT_EQ(rt.build(random_clip(rng, sk), sk), "");
  return rt;
}

// Local transforms at time t, through a fresh cursor.
bool sample_at(const ClipRuntime& clip, double t, std::vector<Transform>& local) {
  RuntimeCursor cursor;
  cursor.reset(clip);
  return sample_runtime(clip, t, cursor, local);
}

struct PropertyCase {
  std::size_t joints;
  Shape shape;
  uint32_t seed;
};

std::vector<PropertyCase> cases() {
  std::vector<PropertyCase> out;
  for (std::size_t joints : {1, 2, 3, 10, 100, 1000})
    for (uint32_t seed : {1u, 2u, 3u}) {
      out.push_back({joints, Shape::Tree, seed});
      if (joints > 2) out.push_back({joints, Shape::Chain, seed});
    }
  return out;
}

std::string describe(const PropertyCase& c) {
  return std::to_string(c.joints) + " joints, " + (c.shape == Shape::Tree ? "tree" : "chain") +
         ", seed " + std::to_string(c.seed);
}

TEST(Property, SamplingGivesFiniteTransformsAndUnitRotations) {
  for (const PropertyCase& c : cases()) {
    Rng rng(c.seed * 7919u + static_cast<uint32_t>(c.joints));
    const Skeleton sk = random_skeleton(rng, c.joints, c.shape);
    ASSERT_EQ(sk.validate(), "") << describe(c);
    const Clip raw = random_clip(rng, sk);
    ASSERT_EQ(raw.validate(sk), "") << describe(c);
    ClipRuntime clip;
    ASSERT_EQ(clip.build(raw, sk), "") << describe(c);
    RuntimeCursor cursor;
    cursor.reset(clip);
    std::vector<Transform> local(sk.size());
    std::vector<glm::mat4> model(sk.size()), fused(sk.size());
    // Forward in time (the cursor's common case), then random jumps, then the ends.
    const double duration = clip.duration();
    std::vector<double> times;
    for (int i = 0; i <= 20; ++i) times.push_back(duration * i / 20.0);
    for (int i = 0; i < 20; ++i) times.push_back(uniform(rng, 0.0f, static_cast<float>(duration)));
    times.insert(times.end(), {0.0, duration});
    for (double t : times) {
      ASSERT_TRUE(sample_runtime(clip, t, cursor, local)) << describe(c);
      for (std::size_t j = 0; j < sk.size(); ++j) {
        ASSERT_TRUE(finite(local[j].translation) && finite(local[j].scale))
            << describe(c) << " joint " << j << " t " << t;
        const glm::quat q = local[j].rotation;
        ASSERT_NEAR(glm::length(q), 1.0f, 1e-3f) << describe(c) << " joint " << j << " t " << t;
      }
      ASSERT_TRUE(local_to_model(sk.parents, local, model));
      ASSERT_TRUE(evaluate_pose(clip, t, cursor, {}, {}, fused, {}));
      for (std::size_t j = 0; j < sk.size(); ++j) {
        ASSERT_TRUE(finite(model[j])) << describe(c) << " joint " << j << " t " << t;
        ASSERT_TRUE(finite(fused[j])) << describe(c) << " joint " << j << " t " << t;
      }
    }
  }
}

// A skin over random joints of `sk`: `bones` skin bones (joint, inverse bind from the skeleton),
// each vertex with 1 to 4 influences of which some may be zero; weights sum to 1.
Mesh random_mesh(Rng& rng, const Skeleton& sk, std::size_t vertices, std::size_t bones) {
  Mesh mesh;
  mesh.name = "random";
  mesh.node = 0;
  mesh.skinned = true;
  for (std::size_t b = 0; b < bones; ++b) {
    const auto joint = static_cast<int32_t>(rng() % sk.size());
    mesh.skin_joints.push_back(joint);
    mesh.inverse_bind.push_back(sk.inverse_bind[static_cast<std::size_t>(joint)]);
  }
  // Most vertices bind one of a few bone sets (as in real meshes: the importer then stores each
  // set's vertices together and skin_lbs skins those runs 16 at a time); the rest bind any.
  std::vector<glm::u16vec4> sets(8);
  for (glm::u16vec4& set : sets)
    for (int k = 0; k < 4; ++k) set[k] = static_cast<uint16_t>(rng() % bones);
  for (std::size_t v = 0; v < vertices; ++v) {
    mesh.positions.push_back(random_vec(rng, -3, 3));
    mesh.normals.push_back(glm::normalize(random_vec(rng, 0.1f, 1.0f)));
    glm::u16vec4 j(0);
    glm::vec4 w(0.0f);
    const bool from_set = rng() % 3 != 0;
    const glm::u16vec4& set = sets[rng() % sets.size()];
    const int influences = from_set ? 4 : 1 + static_cast<int>(rng() % 4);
    float sum = 0.0f;
    for (int k = 0; k < influences; ++k) {
      j[k] = from_set ? set[k] : static_cast<uint16_t>(rng() % bones);
      w[k] = !from_set && rng() % 5 == 0 ? 0.0f : uniform(rng, 0.01f, 1.0f);
      sum += w[k];
    }
    if (sum == 0.0f) {
      w = glm::vec4(1, 0, 0, 0);
      sum = 1.0f;
    }
    mesh.joints.push_back(j);
    mesh.weights.push_back(w / sum);
    mesh.vertex_flags.push_back(0);
  }
  group_vertices_by_bone_set(mesh);  // the importer's layout; also sets max_joint
  return mesh;
}

// One frame: local pose -> model -> palette -> CPU skinning (both the fast path and the
// reference loop). Returns false if a stage refused its inputs.
bool skin_frame(const Skeleton& sk, const Mesh& mesh, const std::vector<Transform>& local,
                std::vector<glm::vec3>& positions, std::vector<glm::vec3>& reference) {
  std::vector<glm::mat4> model(sk.size());
  std::vector<glm::mat4> palette(mesh.skin_joints.size());
  std::vector<glm::mat3> normal_palette(mesh.skin_joints.size());
  if (!local_to_model(sk.parents, local, model)) return false;
  if (!build_palette(model, mesh.skin_joints, mesh.inverse_bind, palette)) return false;
  if (!build_normal_palette(palette, normal_palette)) return false;
  SkinInput in;
  in.positions = mesh.positions;
  in.normals = mesh.normals;
  in.joints = mesh.joints;
  in.weights = mesh.weights;
  in.max_joint = mesh.max_joint;
  positions.assign(mesh.vertex_count(), glm::vec3(0.0f));
  reference.assign(mesh.vertex_count(), glm::vec3(0.0f));
  std::vector<glm::vec3> normals(mesh.vertex_count()), ref_normals(mesh.vertex_count());
  return skin_lbs(palette, normal_palette, in, positions, normals) &&
         skin_lbs_reference(palette, normal_palette, in, reference, ref_normals);
}

TEST(Property, RestPoseWithMatchingInverseBindsLeavesVerticesInPlace) {
  for (const PropertyCase& c : cases()) {
    if (c.shape == Shape::Chain && c.joints > 100) continue;  // float error grows with depth
    Rng rng(c.seed * 104729u + static_cast<uint32_t>(c.joints));
    const Skeleton sk = random_skeleton(rng, c.joints, c.shape);
    const Mesh mesh = random_mesh(rng, sk, 300, std::min<std::size_t>(c.joints, 64));
    std::vector<Transform> local(sk.size());
    ASSERT_TRUE(rest_pose(sk, local));
    std::vector<glm::vec3> positions, reference;
    ASSERT_TRUE(skin_frame(sk, mesh, local, positions, reference)) << describe(c);
    for (std::size_t v = 0; v < mesh.vertex_count(); ++v) {
      // K = B * B^-1 is the identity up to rounding, which grows with the joint's depth and
      // the size of its transform: 1e-3 of the vertex's distance plus one unit.
      const float tol = 1e-3f * (1.0f + glm::length(mesh.positions[v]));
      EXPECT_LE(glm::length(positions[v] - mesh.positions[v]), tol) << describe(c) << " v " << v;
      EXPECT_LE(glm::length(reference[v] - mesh.positions[v]), tol) << describe(c) << " v " << v;
    }
  }
}

TEST(Property, SkinningAnAnimatedFrameGivesFiniteOutput) {
  for (const PropertyCase& c : cases()) {
    Rng rng(c.seed * 15485863u + static_cast<uint32_t>(c.joints));
    Model m;
    m.skeleton = random_skeleton(rng, c.joints, c.shape);
    m.clips.push_back(random_runtime(rng, m.skeleton));
    m.meshes.push_back(random_mesh(rng, m.skeleton, 500, std::min<std::size_t>(c.joints, 200)));
    ASSERT_EQ(m.validate(), "") << describe(c);
    std::vector<Transform> local(m.skeleton.size());
    std::vector<glm::vec3> positions, reference;
    for (double t : {0.0, 0.37 * m.clips[0].duration(), m.clips[0].duration()}) {
      ASSERT_TRUE(sample_at(m.clips[0], t, local));
      ASSERT_TRUE(skin_frame(m.skeleton, m.meshes[0], local, positions, reference)) << describe(c);
      for (std::size_t v = 0; v < positions.size(); ++v) {
        ASSERT_TRUE(finite(positions[v])) << describe(c) << " t " << t << " v " << v;
        ASSERT_TRUE(finite(reference[v])) << describe(c) << " t " << t << " v " << v;
        // The fast path (runs of shared bones, per-vertex SIMD) agrees with the plain loop.
        const float scale =
            std::max({1.0f, glm::length(reference[v]), glm::length(m.meshes[0].positions[v])});
        ASSERT_LE(glm::length(positions[v] - reference[v]), 1e-5f * scale)
            << describe(c) << " t " << t << " v " << v;
      }
    }
  }
}

// Raw influences as a file might hold them: 1 to 8 per vertex, with zeros, NaN, infinities,
// negative and huge weights mixed in.
struct Influence {
  float weight;
  uint16_t bone;
};

float raw_weight(Rng& rng) {
  switch (rng() % 12) {
    case 0:
      return 0.0f;
    case 1:
      return std::nanf("");
    case 2:
      return -uniform(rng, 0.0f, 1.0f);
    case 3:
      return 1e30f;
    case 4:
      return std::numeric_limits<float>::infinity();
    default:
      return uniform(rng, 0.0f, 1.0f);
  }
}

// The importer's rules (DESIGN.md): drop weights that are not finite, negative or above 1e6;
// keep the 4 largest; renormalise; a vertex left with nothing is bound rigidly (bone 0).
void repair(std::vector<Influence> inf, glm::u16vec4& joints, glm::vec4& weights) {
  std::erase_if(inf, [](const Influence& i) {
    return !std::isfinite(i.weight) || i.weight <= 0.0f || i.weight > 1e6f;
  });
  std::stable_sort(inf.begin(), inf.end(),
                   [](const Influence& a, const Influence& b) { return a.weight > b.weight; });
  if (inf.size() > 4) inf.resize(4);
  joints = glm::u16vec4(0);
  weights = glm::vec4(1, 0, 0, 0);
  double sum = 0.0;
  for (const Influence& i : inf) sum += i.weight;
  if (inf.empty()) return;
  weights = glm::vec4(0.0f);
  for (std::size_t k = 0; k < inf.size(); ++k) {
    joints[static_cast<int>(k)] = inf[k].bone;
    weights[static_cast<int>(k)] = static_cast<float>(inf[k].weight / sum);
  }
}

TEST(Property, BadWeightsAreRefusedByValidateAndRepairedOnesSkinFinitely) {
  for (const PropertyCase& c : cases()) {
    Rng rng(c.seed * 32452843u + static_cast<uint32_t>(c.joints));
    Model m;
    m.skeleton = random_skeleton(rng, c.joints, c.shape);
    m.clips.push_back(random_runtime(rng, m.skeleton));
    const std::size_t bones = std::min<std::size_t>(c.joints, 200);
    m.meshes.push_back(random_mesh(rng, m.skeleton, 400, bones));
    Mesh& mesh = m.meshes[0];
    std::vector<std::vector<Influence>> raw(mesh.vertex_count());
    bool any_bad = false;
    for (std::size_t v = 0; v < raw.size(); ++v) {
      const std::size_t n = 1 + rng() % 8;
      for (std::size_t k = 0; k < n; ++k)
        raw[v].push_back({raw_weight(rng), static_cast<uint16_t>(rng() % bones)});
      // Unrepaired: the first 4 stored as they are.
      glm::vec4 w(0.0f);
      for (std::size_t k = 0; k < std::min<std::size_t>(n, 4); ++k) {
        w[static_cast<int>(k)] = raw[v][k].weight;
        mesh.joints[v][static_cast<int>(k)] = raw[v][k].bone;
      }
      mesh.weights[v] = w;
      const float sum = w.x + w.y + w.z + w.w;
      any_bad = any_bad || !std::isfinite(sum) || w.x < 0 || w.y < 0 || w.z < 0 || w.w < 0 ||
                std::abs(sum - 1.0f) > 1e-3f;
    }
    ASSERT_TRUE(any_bad) << describe(c);  // 400 vertices: bad values are certain
    EXPECT_NE(m.validate(), "") << describe(c) << ": unrepaired weights were accepted";

    for (std::size_t v = 0; v < raw.size(); ++v) repair(raw[v], mesh.joints[v], mesh.weights[v]);
    mesh.max_joint = 0;
    for (const glm::u16vec4& j : mesh.joints)
      for (int k = 0; k < 4; ++k) mesh.max_joint = std::max<int32_t>(mesh.max_joint, j[k]);
    ASSERT_EQ(m.validate(), "") << describe(c);
    std::vector<Transform> local(m.skeleton.size());
    std::vector<glm::vec3> positions, reference;
    ASSERT_TRUE(sample_at(m.clips[0], 0.5 * m.clips[0].duration(), local));
    ASSERT_TRUE(skin_frame(m.skeleton, mesh, local, positions, reference)) << describe(c);
    for (std::size_t v = 0; v < positions.size(); ++v)
      ASSERT_TRUE(finite(positions[v]) && finite(reference[v])) << describe(c) << " v " << v;
  }
}

}  // namespace
}  // namespace sv
