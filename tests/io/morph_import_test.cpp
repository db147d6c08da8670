// Morph targets from a real file written by others, against a reference computed here from the
// glTF itself: glTF-Sample-Models' AnimatedMorphCube (assimp-testmodels), one rigid mesh of 24
// vertices with two targets ("thin", "angle": position, normal and tangent deltas), default
// weights [0, 0], and one clip, "Square", whose LINEAR weights channel keys both targets 127
// times over 4.2 s. The JSON is read with nlohmann-json and the accessors from the .bin by hand
// (no importer code): the deltas the importer stores, the track it builds and the vertices
// --dump's pose path gives (node transform * (base + sum w_i(t) * delta_i)) must all match.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/quaternion.hpp>
#include <glm/mat3x3.hpp>
#include <nlohmann/json.hpp>

#include "io/dump.h"
#include "io/import.h"
#include "json_file.h"
#include "test_util.h"

namespace sv {
namespace {

const std::string kDir =
    std::string(SKINVIEW_TEST_MODELS) + "/glTF2/glTF-Sample-Models/AnimatedMorphCube-glTF/";

// The glTF file read by hand: float accessors only (all this file's data but its indices).
struct Gltf {
  nlohmann::json json;
  std::vector<uint8_t> bin;

  static Gltf load() {
    Gltf g;
    g.json = test::read_json_file(kDir + "AnimatedMorphCube.gltf");
    EXPECT_FALSE(g.json.is_discarded());
    std::ifstream b(kDir + g.json["buffers"][0]["uri"].get<std::string>(), std::ios::binary);
    g.bin.assign(std::istreambuf_iterator<char>(b), std::istreambuf_iterator<char>());
    return g;
  }
  // Accessor `index` as floats, `comps` per element (tightly packed or with the view's stride).
  std::vector<float> floats(int index, int comps) const {
    const nlohmann::json& a = json["accessors"][index];
    EXPECT_EQ(a["componentType"].get<int>(), 5126);  // FLOAT
    const nlohmann::json& v = json["bufferViews"][a["bufferView"].get<int>()];
    const std::size_t count = a["count"].get<std::size_t>();
    const std::size_t stride = v.value("byteStride", std::size_t{4} * comps);
    const std::size_t at = v.value("byteOffset", std::size_t{0}) + a.value("byteOffset", 0);
    std::vector<float> out(count * comps);
    for (std::size_t e = 0; e < count; ++e)
      std::memcpy(out.data() + e * comps, bin.data() + at + e * stride, 4 * comps);
    return out;
  }
  std::vector<glm::vec3> vec3s(int index) const {
    const std::vector<float> f = floats(index, 3);
    std::vector<glm::vec3> out(f.size() / 3);
    for (std::size_t i = 0; i < out.size(); ++i) out[i] = {f[3 * i], f[3 * i + 1], f[3 * i + 2]};
    return out;
  }
};

// The weights of both targets at time t, linearly interpolated between the file's keys.
glm::vec2 reference_weights(const std::vector<float>& times, const std::vector<float>& w,
                            double t) {
  if (t <= times.front()) return {w[0], w[1]};
  for (std::size_t k = 0; k + 1 < times.size(); ++k)
    if (t < times[k + 1]) {
      const double s = (t - times[k]) / (times[k + 1] - times[k]);
      return {w[2 * k] + s * (w[2 * k + 2] - w[2 * k]),
              w[2 * k + 1] + s * (w[2 * k + 3] - w[2 * k + 1])};
    }
  return {w[w.size() - 2], w[w.size() - 1]};
}

TEST(MorphImport, AnimatedMorphCubeMatchesTheGltfData) {
  const Gltf g = Gltf::load();
  const nlohmann::json& prim = g.json["meshes"][0]["primitives"][0];
  const std::vector<glm::vec3> base = g.vec3s(prim["attributes"]["POSITION"].get<int>());
  const std::vector<glm::vec3> base_n = g.vec3s(prim["attributes"]["NORMAL"].get<int>());
  const nlohmann::json& targets = prim["targets"];
  ASSERT_EQ(targets.size(), 2u);

  const ImportResult r = import_model(kDir + "AnimatedMorphCube.gltf");
  ASSERT_TRUE(r.ok()) << r.error;
  const Model& m = *r.model;
  ASSERT_EQ(m.meshes.size(), 1u);
  const Mesh& mesh = m.meshes[0];
  ASSERT_EQ(mesh.vertex_count(), base.size());
  ASSERT_EQ(mesh.morph_targets.size(), 2u);
  for (std::size_t t = 0; t < 2; ++t) {
    SCOPED_TRACE("target " + std::to_string(t));
    const std::vector<glm::vec3> dp = g.vec3s(targets[t]["POSITION"].get<int>());
    const std::vector<glm::vec3> dn = g.vec3s(targets[t]["NORMAL"].get<int>());
    const MorphTarget& target = mesh.morph_targets[t];
    EXPECT_EQ(target.default_weight, g.json["meshes"][0]["weights"][t].get<float>());
    ASSERT_EQ(target.normal_deltas.size(), base.size());
    for (uint32_t k = 0; k < base.size(); ++k) {
      const std::size_t v = test::file_vertex(mesh, k);
      // The importer subtracts the base again from assimp's base + delta: float rounding of
      // numbers about 0.01 (1e-9), nothing more.
      EXPECT_NEAR_GLM(target.position_deltas[v], dp[k], 1e-8f) << "vertex " << k;
      EXPECT_NEAR_GLM(target.normal_deltas[v], dn[k], 1e-6f) << "vertex " << k;
    }
  }
  // Some delta is not zero (else the comparison above says little).
  EXPECT_GT(glm::length(mesh.morph_targets[0].position_deltas[test::file_vertex(mesh, 2)]), 0.005f);

  // The clip's track: the file's key times and weights.
  const nlohmann::json& sampler = g.json["animations"][0]["samplers"][0];
  const std::vector<float> times = g.floats(sampler["input"].get<int>(), 1);
  const std::vector<float> weights = g.floats(sampler["output"].get<int>(), 1);
  ASSERT_EQ(m.clips.size(), 1u);
  ASSERT_EQ(m.morph_clips.size(), 1u);
  ASSERT_EQ(m.morph_clips[0].tracks.size(), 1u);
  const MorphTrack& track = m.morph_clips[0].tracks[0];
  EXPECT_EQ(track.mesh, 0u);
  EXPECT_EQ(track.interpolation, Interpolation::Linear);
  ASSERT_EQ(track.times.size(), times.size());
  ASSERT_EQ(track.weights.size(), weights.size());
  for (std::size_t k = 0; k < times.size(); ++k) EXPECT_EQ(track.times[k], double(times[k]));
  // Exactly the file's, its one negative weight (-1.5e-7, rounding in the exporter) included:
  // the importer reads glTF weights channels itself (assimp 5.2.5 clamps negatives to 0).
  for (std::size_t k = 0; k < weights.size(); ++k) EXPECT_EQ(track.weights[k], weights[k]) << k;
  EXPECT_LT(*std::min_element(weights.begin(), weights.end()), 0.0f);
  EXPECT_NEAR(m.clips[0].duration(), times.back(), 1e-6);

  // Posed through --dump's path (Animator, morphs, then skinning): the node's TRS applied to the
  // morphed vertex, at times between keys and on them.
  const nlohmann::json& node = g.json["nodes"][0];
  const glm::quat q(node["rotation"][3].get<float>(), node["rotation"][0].get<float>(),
                    node["rotation"][1].get<float>(), node["rotation"][2].get<float>());
  const glm::vec3 scale(node["scale"][0].get<float>(), node["scale"][1].get<float>(),
                        node["scale"][2].get<float>());
  const glm::mat3 node_m =
      glm::mat3_cast(glm::normalize(q)) * glm::mat3(glm::scale(glm::mat4(1.0f), scale));
  const std::vector<glm::vec3> d0 = g.vec3s(targets[0]["POSITION"].get<int>());
  const std::vector<glm::vec3> d1 = g.vec3s(targets[1]["POSITION"].get<int>());
  const std::vector<glm::vec3> n0 = g.vec3s(targets[0]["NORMAL"].get<int>());
  const std::vector<glm::vec3> n1 = g.vec3s(targets[1]["NORMAL"].get<int>());
  const float size = 2.0f;  // 0.02 x 100
  for (const double t : {0.0, 0.7, 1.45, 2.1, 2.95, 3.9, 4.2}) {
    SCOPED_TRACE("t " + std::to_string(t));
    PosedModel pose;
    ASSERT_EQ(pose_model(m, 0, t, pose), "");
    const glm::vec2 w = reference_weights(times, weights, t);
    for (uint32_t k = 0; k < base.size(); ++k) {
      const std::size_t v = test::file_vertex(mesh, k);
      const glm::vec3 want = node_m * (base[k] + w.x * d0[k] + w.y * d1[k]);
      EXPECT_NEAR_GLM(pose.positions[0][v], want, 1e-5f * size) << "vertex " << k;
      const glm::vec3 want_n = glm::normalize(glm::inverse(glm::transpose(node_m)) *
                                              (base_n[k] + w.x * n0[k] + w.y * n1[k]));
      EXPECT_NEAR_GLM(pose.normals[0][v], want_n, 1e-4f) << "vertex " << k;
    }
  }
  // At 2.1 s both targets weigh (0.72, 0.28 in the file): the top face moved.
  const glm::vec2 mid = reference_weights(times, weights, 2.1);
  EXPECT_GT(mid.x, 0.1f);
  EXPECT_GT(mid.y, 0.1f);
}

}  // namespace
}  // namespace sv
