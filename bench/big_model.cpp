#include "big_model.h"

#include <cmath>
#include <cstdint>
#include <fstream>
#include <vector>

#include "glb_writer.h"

namespace sv::bench {

using tools::GlbWriter;
using tools::Json;

std::string write_big_model(const std::string& path, int rings, int segments) {
  constexpr int kJoints = 32;
  constexpr float kHeight = 8.0f, kRadius = 0.5f;
  const float step = kHeight / (kJoints - 1);
  GlbWriter w("skinview bench/big_model");
  Json& doc = w.json();

  std::vector<float> inverse_bind;
  for (int j = 0; j < kJoints; ++j) {
    Json node{{"name", "joint" + std::to_string(j)}};
    if (j + 1 < kJoints) node["children"] = {j + 1};
    if (j > 0) node["translation"] = {0.0f, step, 0.0f};
    doc["nodes"].push_back(std::move(node));
    const float y = static_cast<float>(j) * step;
    const float m[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, -y, 0, 1};
    inverse_bind.insert(inverse_bind.end(), m, m + 16);
  }
  doc["nodes"].push_back(Json{{"name", "tube"}, {"mesh", 0}, {"skin", 0}});
  doc["scenes"].push_back(Json{{"nodes", {0, kJoints}}});
  std::vector<int> joint_nodes;
  for (int j = 0; j < kJoints; ++j) joint_nodes.push_back(j);
  doc["skins"].push_back(
      Json{{"inverseBindMatrices", w.add_floats(inverse_bind, "MAT4", tools::kNoTarget, false)},
           {"joints", joint_nodes}});

  const std::size_t n = static_cast<std::size_t>(rings) * static_cast<std::size_t>(segments);
  std::vector<float> positions, normals, weights;
  std::vector<uint8_t> joints;
  positions.reserve(3 * n);
  normals.reserve(3 * n);
  weights.reserve(4 * n);
  joints.reserve(4 * n);
  for (int r = 0; r < rings; ++r) {
    const float y = kHeight * static_cast<float>(r) / static_cast<float>(rings - 1);
    const float along = y / step;
    const int j0 = std::min(static_cast<int>(along), kJoints - 2);
    const float t = along - static_cast<float>(j0);
    for (int s = 0; s < segments; ++s) {
      const float a = 6.2831853f * static_cast<float>(s) / static_cast<float>(segments);
      const float c = std::cos(a), sn = std::sin(a);
      positions.insert(positions.end(), {kRadius * c, y, kRadius * sn});
      normals.insert(normals.end(), {c, 0.0f, sn});
      joints.insert(joints.end(), {static_cast<uint8_t>(j0), static_cast<uint8_t>(j0 + 1), 0, 0});
      weights.insert(weights.end(), {1.0f - t, t, 0.0f, 0.0f});
    }
  }
  std::vector<uint32_t> indices;
  indices.reserve(6 * n);
  for (int r = 0; r + 1 < rings; ++r) {
    for (int s = 0; s < segments; ++s) {
      const uint32_t a = static_cast<uint32_t>(r * segments + s);
      const uint32_t b = static_cast<uint32_t>(r * segments + (s + 1) % segments);
      const uint32_t c = a + static_cast<uint32_t>(segments),
                     d = b + static_cast<uint32_t>(segments);
      indices.insert(indices.end(), {a, c, b, b, c, d});
    }
  }
  Json attributes;
  attributes["POSITION"] = w.add_floats(positions, "VEC3", tools::kArrayBuffer, true);
  attributes["NORMAL"] = w.add_floats(normals, "VEC3", tools::kArrayBuffer, false);
  attributes["JOINTS_0"] = w.add_u8(joints, "VEC4", tools::kArrayBuffer);
  attributes["WEIGHTS_0"] = w.add_floats(weights, "VEC4", tools::kArrayBuffer, false);
  doc["meshes"].push_back(
      Json{{"primitives",
            Json::array({Json{{"attributes", attributes},
                              {"indices", w.add_u32(indices, "SCALAR", tools::kElementArrayBuffer)},
                              {"mode", 4}}})}});

  // One clip: every joint bends about Z and back, 3 keys over 2 s.
  const std::vector<float> times = {0.0f, 1.0f, 2.0f};
  const int input = w.add_floats(times, "SCALAR", tools::kNoTarget, true);
  Json anim{{"name", "bend"}, {"channels", Json::array()}, {"samplers", Json::array()}};
  const float h = std::sin(0.05f), ch = std::cos(0.05f);
  const std::vector<float> rot = {0, 0, 0, 1, 0, 0, h, ch, 0, 0, 0, 1};
  const int output = w.add_floats(rot, "VEC4", tools::kNoTarget, false);
  for (int j = 0; j < kJoints; ++j) {
    anim["samplers"].push_back(
        Json{{"input", input}, {"interpolation", "LINEAR"}, {"output", output}});
    anim["channels"].push_back(
        Json{{"sampler", j}, {"target", {{"node", j}, {"path", "rotation"}}}});
  }
  doc["animations"].push_back(std::move(anim));

  const std::vector<uint8_t> glb = w.finish();
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(glb.data()), static_cast<std::streamsize>(glb.size()));
  out.close();
  if (!out) return path + ": cannot write the file";
  return {};
}

}  // namespace sv::bench
