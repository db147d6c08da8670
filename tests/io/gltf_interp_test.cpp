// glTF STEP and CUBICSPLINE samplers, which assimp 5.2 reads as linear keys, must come back
// with their own interpolation. The test writes a tiny .gltf (one triangle on one node, a STEP
// translation and a CUBICSPLINE scale) and checks the imported tracks and the posed node.
#include <unistd.h>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "io/dump.h"
#include "io/import.h"

namespace sv {
namespace {

std::string base64(const std::vector<uint8_t>& in) {
  static const char* abc = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  for (std::size_t i = 0; i < in.size(); i += 3) {
    uint32_t n = in[i] << 16;
    if (i + 1 < in.size()) n |= in[i + 1] << 8;
    if (i + 2 < in.size()) n |= in[i + 2];
    out += abc[(n >> 18) & 63];
    out += abc[(n >> 12) & 63];
    out += i + 1 < in.size() ? abc[(n >> 6) & 63] : '=';
    out += i + 2 < in.size() ? abc[n & 63] : '=';
  }
  return out;
}

void put(std::vector<uint8_t>& buf, std::initializer_list<float> values) {
  for (float v : values) {
    uint8_t b[4];
    std::memcpy(b, &v, 4);
    buf.insert(buf.end(), b, b + 4);
  }
}

std::string write_test_gltf() {
  std::vector<uint8_t> buf;
  put(buf, {0, 0, 0, 1, 0, 0, 0, 1, 0});  // positions, 36 bytes at 0
  put(buf, {0, 1});                       // key times, 8 bytes at 36
  put(buf, {0, 0, 0, 2, 0, 0});           // STEP translation, 24 bytes at 44
  put(buf, {0, 0, 0, 1, 1, 1, 0, 0, 0,    // CUBICSPLINE scale: in, value, out per key
            0, 0, 0, 3, 3, 3, 0, 0, 0});  // 72 bytes at 68
  const std::string json = R"({
  "asset": {"version": "2.0"},
  "scene": 0, "scenes": [{"nodes": [0]}],
  "nodes": [{"name": "mover", "mesh": 0}],
  "meshes": [{"name": "tri", "primitives": [{"attributes": {"POSITION": 0}}]}],
  "buffers": [{"byteLength": 140, "uri": "data:application/octet-stream;base64,)" +
                           base64(buf) + R"("}],
  "bufferViews": [{"buffer": 0, "byteOffset": 0, "byteLength": 36},
                  {"buffer": 0, "byteOffset": 36, "byteLength": 8},
                  {"buffer": 0, "byteOffset": 44, "byteLength": 24},
                  {"buffer": 0, "byteOffset": 68, "byteLength": 72}],
  "accessors": [
    {"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3", "min": [0,0,0], "max": [1,1,0]},
    {"bufferView": 1, "componentType": 5126, "count": 2, "type": "SCALAR", "min": [0], "max": [1]},
    {"bufferView": 2, "componentType": 5126, "count": 2, "type": "VEC3"},
    {"bufferView": 3, "componentType": 5126, "count": 6, "type": "VEC3"}],
  "animations": [{"name": "steps",
    "samplers": [{"input": 1, "output": 2, "interpolation": "STEP"},
                 {"input": 1, "output": 3, "interpolation": "CUBICSPLINE"}],
    "channels": [{"sampler": 0, "target": {"node": 0, "path": "translation"}},
                 {"sampler": 1, "target": {"node": 0, "path": "scale"}}]}]
})";
  const std::filesystem::path path = std::filesystem::temp_directory_path() /
                                     ("skinview_interp_" + std::to_string(::getpid()) + ".gltf");
  std::ofstream(path) << json;
  return path.string();
}

TEST(GltfInterpolation, StepAndCubicSplineTracksAreHonoured) {
  const std::string path = write_test_gltf();
  ImportResult r = import_model(path);
  std::filesystem::remove(path);
  ASSERT_TRUE(r.ok()) << r.error;
  const Model& m = *r.model;
  ASSERT_EQ(m.clips.size(), 1u);
  const ClipRuntime& clip = m.clips[0];
  EXPECT_EQ(clip.name(), "steps");
  EXPECT_DOUBLE_EQ(clip.duration(), 1.0);
  const int32_t joint = [&] {
    for (std::size_t j = 0; j < m.skeleton.size(); ++j)
      if (m.skeleton.names[j] == "mover") return static_cast<int32_t>(j);
    return -1;
  }();
  ASSERT_GE(joint, 0);
  const auto j = static_cast<std::size_t>(joint);
  const std::span<const RuntimeTrack> tracks = clip.arrays().tracks;
  EXPECT_EQ(tracks[3 * j + 0].interpolation, Interpolation::Step);
  EXPECT_EQ(clip.key_times(j, TrackPath::Translation).size(), 2u);
  EXPECT_EQ(tracks[3 * j + 2].interpolation, Interpolation::CubicSpline);
  ASSERT_EQ(clip.key_times(j, TrackPath::Scale).size(), 2u);
  Transform last;
  ASSERT_TRUE(sample_joint(clip, 1.0, j, last));
  EXPECT_FLOAT_EQ(last.scale.x, 3.0f);  // key 1's value, between its tangents

  // t = 0.25: the step holds (0,0,0) where linear would give 0.5; the spline with zero tangents
  // gives 1 + 2 * (3s^2 - 2s^3) = 1.3125 where linear would give 1.5.
  PosedModel pose;
  ASSERT_EQ(pose_model(m, 0, 0.25, pose), "");
  const glm::mat4& g = pose.joint_model[static_cast<std::size_t>(joint)];
  EXPECT_NEAR(g[3][0], 0.0f, 1e-6f);
  EXPECT_NEAR(g[0][0], 1.3125f, 1e-5f);
  ASSERT_EQ(pose_model(m, 0, 1.0, pose), "");
  EXPECT_NEAR(pose.joint_model[static_cast<std::size_t>(joint)][3][0], 2.0f, 1e-6f);
}

}  // namespace
}  // namespace sv
