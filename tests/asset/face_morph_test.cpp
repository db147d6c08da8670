// The default character's face through skinview's importer and pose path, against a reference
// built from the file (read here with tinygltf, not the importer) and the generator's weight
// curves written down in default_asset_facts.h: at any time of the "face" clip, each face vertex
// sits at base + w_blink(t) * d_blink + w_smile(t) * d_smile (the clip keys no joint, every rest
// rotation is the identity and the inverse binds are the rest translations' inverses, so
// skinning leaves it there), w(t) the linear interpolation of the curves between the keys
// (every 1/30 s). Also: the targets' names and default weights, the track, a blink that really
// closes the eyes, and the body's pose unchanged by the face clip's weights.
#define TINYGLTF_IMPLEMENTATION
#define TINYGLTF_NO_STB_IMAGE
#define TINYGLTF_NO_STB_IMAGE_WRITE
#define TINYGLTF_NO_EXTERNAL_IMAGE
#include "gltf_read.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "default_asset_facts.h"
#include "io/dump.h"
#include "io/import.h"
#include "test_util.h"

namespace sv {
namespace {

namespace facts = test::default_asset;

std::vector<glm::vec3> read_vec3(const tinygltf::Model& m, int accessor) {
  return test::gltf::read<glm::vec3>(m, accessor);
}

double smoothstep(double a, double b, double x) {
  const double t = std::clamp((x - a) / (b - a), 0.0, 1.0);
  return t * t * (3.0 - 2.0 * t);
}
double blink_curve(double t) {
  double w = 0.0;
  for (const double c : facts::kBlinkAt)
    w = std::max(w, 1.0 - std::abs(t - c) / facts::kBlinkHalfWidth);
  return w;
}
double smile_curve(double t) {
  return smoothstep(facts::kSmileIn[0], facts::kSmileIn[1], t) *
         (1.0 - smoothstep(facts::kSmileOut[0], facts::kSmileOut[1], t));
}
// The curves keyed every 1/30 s of the 3-s clip and interpolated linearly, as a LINEAR sampler.
double keyed(double (*curve)(double), double t) {
  const double k = std::floor(t * 30.0);
  const double t0 = k / 30.0, t1 = (k + 1.0) / 30.0;
  const double a = static_cast<float>(curve(t0)), b = static_cast<float>(curve(t1));
  return a + (b - a) * (t - t0) * 30.0;
}

TEST(DefaultFace, MorphsMatchTheFileAndTheCurves) {
  tinygltf::Model gltf;
  tinygltf::TinyGLTF loader;
  loader.SetImageLoader(&test::gltf::keep_image, nullptr);
  std::string err, warn;
  ASSERT_TRUE(loader.LoadBinaryFromFile(&gltf, &err, &warn, std::string(facts::kPath))) << err;
  ASSERT_EQ(gltf.meshes.size(), 2u);
  const tinygltf::Primitive& prim = gltf.meshes[1].primitives.at(0);
  const std::vector<glm::vec3> base = read_vec3(gltf, prim.attributes.at("POSITION"));
  ASSERT_EQ(prim.targets.size(), 2u);
  const std::vector<glm::vec3> blink = read_vec3(gltf, prim.targets[0].at("POSITION"));
  const std::vector<glm::vec3> smile = read_vec3(gltf, prim.targets[1].at("POSITION"));
  ASSERT_EQ(base.size(), facts::kFaceVertices);

  const ImportResult r = import_model(std::string(facts::kPath));
  ASSERT_TRUE(r.ok()) << r.error;
  const Model& m = *r.model;
  ASSERT_EQ(m.meshes.size(), 2u);
  const Mesh& face = m.meshes[1];
  EXPECT_EQ(face.name, "face");
  ASSERT_EQ(face.vertex_count(), facts::kFaceVertices);
  ASSERT_EQ(face.morph_targets.size(), 2u);
  EXPECT_EQ(face.morph_targets[0].name, "blink");
  EXPECT_EQ(face.morph_targets[1].name, "smile");
  EXPECT_EQ(face.morph_targets[0].default_weight, 0.0f);
  EXPECT_TRUE(m.meshes[0].morph_targets.empty());
  const std::size_t face_clip = facts::kClips.size() - 1;
  ASSERT_EQ(m.clips[face_clip].name(), "face");
  ASSERT_EQ(m.morph_clips.size(), m.clips.size());
  ASSERT_EQ(m.morph_clips[face_clip].tracks.size(), 1u);
  EXPECT_EQ(m.morph_clips[face_clip].tracks[0].mesh, 1u);
  EXPECT_EQ(m.morph_clips[face_clip].tracks[0].times.size(), 91u);
  for (std::size_t c = 0; c < face_clip; ++c) EXPECT_TRUE(m.morph_clips[c].tracks.empty()) << c;

  PosedModel rest;
  ASSERT_EQ(pose_model(m, -1, 0.0, rest), "");
  for (const double t : {0.0, 0.55, 0.6, 1.1, 1.7, 2.25, 2.95}) {
    SCOPED_TRACE("t " + std::to_string(t));
    PosedModel pose;
    ASSERT_EQ(pose_model(m, static_cast<int>(face_clip), t, pose), "");
    const double wb = keyed(blink_curve, t), ws = keyed(smile_curve, t);
    ASSERT_EQ(pose.morph_weights[1].size(), 2u);
    EXPECT_NEAR(pose.morph_weights[1][0], wb, 1e-6);
    EXPECT_NEAR(pose.morph_weights[1][1], ws, 1e-6);
    for (uint32_t k = 0; k < base.size(); ++k) {
      const glm::vec3 want =
          base[k] + static_cast<float>(wb) * blink[k] + static_cast<float>(ws) * smile[k];
      EXPECT_NEAR_GLM(pose.positions[1][test::file_vertex(face, k)], want, 2e-6f) << "vertex " << k;
    }
    // The face clip keys no joint: the body stays in its rest pose, vertex for vertex.
    EXPECT_EQ(pose.positions[0], rest.positions[0]);
  }
  // At 0.6 s the eyes are shut: every eye vertex within 15 % of its radius of the centre line.
  PosedModel shut;
  ASSERT_EQ(pose_model(m, static_cast<int>(face_clip), 0.6, shut), "");
  float eye_height = 0.0f;
  for (uint32_t k = 0; k < base.size(); ++k) {
    if (blink[k] == glm::vec3(0.0f)) continue;  // the mouth
    const glm::vec3 p = shut.positions[1][test::file_vertex(face, k)];
    eye_height = std::max(eye_height, std::abs(p.y - static_cast<float>(facts::kEyeCentreY)));
  }
  EXPECT_GT(eye_height, 0.0f);
  EXPECT_LT(eye_height, 0.014f * (1.0 - facts::kBlinkSquash) + 1e-5f);
}

}  // namespace
}  // namespace sv
