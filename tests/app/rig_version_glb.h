// Another version of the default character, for the tests of --compare and "Compare with..."
// (app/compare.h): a copy of its GLB with one joint moved (its node translation and its inverse
// bind matrix, as an artist's re-export of a moved joint writes both), joints and clips renamed,
// and some vertices' weights repainted, everything else byte for byte. Also a skinned strip of
// quads whose vertex count the test chooses (vertices matched by nearest position).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <map>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <glm/mat4x4.hpp>
#include <glm/vec3.hpp>
#include <glm/vec4.hpp>
#include <nlohmann/json.hpp>

#include "anim_glb.h"
#include "json_file.h"

namespace sv::test {

struct RigEdit {
  std::string move_joint;  // a node moved by `move` (its parent's space), bind included
  glm::vec3 move{0.0f};
  std::vector<std::pair<std::string, std::string>> rename_joints;  // node name -> new name
  std::vector<std::pair<std::string, std::string>> rename_clips;   // animation name -> new name
  // Vertices (file indices) of the first mesh whose weights become 1 on their first joint.
  std::vector<uint32_t> whole_weight;
  // A clip whose first rotation key of joint `key_joint` becomes the identity ("" for none).
  std::string key_clip, key_joint;
};

// Writes `character` edited by `edit` to `path`. `changes` (when given) gets, per whole_weight
// vertex, the L1 distance of its joint->weight maps before and after, from the file's weights;
// `key_degrees` (when given) the angle between key_clip's first key and the identity.
inline void rig_version_glb(const std::string& character, const RigEdit& edit,
                            const std::string& path, std::vector<double>* changes = nullptr,
                            double* key_degrees = nullptr) {
  std::ifstream in(character, std::ios::binary);
  std::vector<char> b((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  ASSERT_GE(b.size(), 28u);
  const uint32_t json_length = read_u32(b, 12);
  nlohmann::json j = parse_json(std::string_view(b.data() + 20, json_length));
  ASSERT_FALSE(j.is_discarded());
  const std::size_t bin = 20 + json_length + 8;  // the binary chunk's data
  const auto data_at = [&](int accessor) {
    const nlohmann::json& a = j["accessors"][accessor];
    const nlohmann::json& v = j["bufferViews"][a["bufferView"].get<int>()];
    return bin + v.value("byteOffset", std::size_t{0}) + a.value("byteOffset", std::size_t{0});
  };
  auto& nodes = j["nodes"];
  for (std::size_t n = 0; n < nodes.size(); ++n) {
    for (const auto& [from, to] : edit.rename_joints)
      if (nodes[n]["name"] == from) nodes[n]["name"] = to;
    if (edit.move_joint.empty() || nodes[n]["name"] != edit.move_joint) continue;
    std::vector<float> t = nodes[n].value("translation", std::vector<float>{0, 0, 0});
    for (int c = 0; c < 3; ++c) t[static_cast<std::size_t>(c)] += edit.move[c];
    nodes[n]["translation"] = t;
    // Its bind moves with it: inverse bind' = inverse bind * T(-d), d the move in model space
    // (the default character's joints above it are not rotated at rest).
    const auto& joints = j["skins"][0]["joints"];
    for (std::size_t k = 0; k < joints.size(); ++k) {
      if (joints[k].get<std::size_t>() != n) continue;
      const std::size_t at = data_at(j["skins"][0]["inverseBindMatrices"].get<int>()) + 64 * k;
      glm::mat4 m;
      std::memcpy(&m[0][0], b.data() + at, 64);
      glm::mat4 shift(1.0f);
      shift[3] = glm::vec4(-edit.move, 1.0f);
      m = m * shift;
      std::memcpy(b.data() + at, &m[0][0], 64);
    }
  }
  for (auto& a : j["animations"]) {
    if (!edit.key_clip.empty() && a["name"] == edit.key_clip)
      for (const auto& c : a["channels"]) {
        if (c["target"]["path"] != "rotation" ||
            nodes[c["target"]["node"].get<std::size_t>()]["name"] != edit.key_joint)
          continue;
        const std::size_t at = data_at(a["samplers"][c["sampler"].get<int>()]["output"].get<int>());
        float q[4];  // x, y, z, w
        std::memcpy(q, b.data() + at, 16);
        if (key_degrees)
          *key_degrees = 2.0 *
                         std::acos(std::min(1.0, std::abs(static_cast<double>(q[3])) /
                                                     std::sqrt(q[0] * q[0] + q[1] * q[1] +
                                                               q[2] * q[2] + q[3] * q[3]))) *
                         57.29577951308232;
        const float identity[4] = {0.0f, 0.0f, 0.0f, 1.0f};
        std::memcpy(b.data() + at, identity, 16);
      }
    for (const auto& [from, to] : edit.rename_clips)
      if (a["name"] == from) a["name"] = to;
  }
  const nlohmann::json& attributes = j["meshes"][0]["primitives"][0]["attributes"];
  const std::size_t weights = data_at(attributes["WEIGHTS_0"].get<int>());
  const std::size_t joints = data_at(attributes["JOINTS_0"].get<int>());  // unsigned bytes
  for (uint32_t v : edit.whole_weight) {
    float w[4];
    std::memcpy(w, b.data() + weights + 16 * v, 16);
    const auto* jv = reinterpret_cast<const unsigned char*>(b.data() + joints + 4 * v);
    std::map<int, double> before;
    for (int k = 0; k < 4; ++k)
      if (w[k] != 0.0f) before[jv[k]] += w[k];
    double sum = 0.0;  // the importer renormalises what the file stores
    for (const auto& [joint, weight] : before) sum += weight;
    double l1 = 0.0;
    for (const auto& [joint, weight] : before)
      l1 += joint == jv[0] ? std::abs(1.0 - weight / sum) : weight / sum;
    if (!before.count(jv[0])) l1 += 1.0;
    if (changes) changes->push_back(l1);
    const float whole[4] = {1.0f, 0.0f, 0.0f, 0.0f};
    std::memcpy(b.data() + weights + 16 * v, whole, 16);
  }
  std::string text = j.dump();
  while (text.size() % 4 != 0) text += ' ';
  const std::string rest(b.begin() + static_cast<std::ptrdiff_t>(20 + json_length), b.end());
  std::string out;
  put_u32(out, 0x46546C67u);  // "glTF"
  put_u32(out, 2);
  put_u32(out, static_cast<uint32_t>(12 + 8 + text.size() + rest.size()));
  put_u32(out, static_cast<uint32_t>(text.size()));
  put_u32(out, 0x4E4F534Au);  // "JSON"
  out += text;
  out += rest;
  std::ofstream(path, std::ios::binary | std::ios::trunc) << out;
}

// The weights of the first mesh's vertices as the file stores them, in its order.
inline std::vector<glm::vec4> file_weights(const std::string& glb) {
  std::ifstream in(glb, std::ios::binary);
  const std::vector<char> b((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const uint32_t json_length = read_u32(b, 12);
  const nlohmann::json j = parse_json(std::string_view(b.data() + 20, json_length));
  const nlohmann::json& a =
      j["accessors"][j["meshes"][0]["primitives"][0]["attributes"]["WEIGHTS_0"].get<int>()];
  const nlohmann::json& view = j["bufferViews"][a["bufferView"].get<int>()];
  const std::size_t at = 20 + json_length + 8 + view.value("byteOffset", std::size_t{0}) +
                         a.value("byteOffset", std::size_t{0});
  std::vector<glm::vec4> w(a["count"].get<std::size_t>());
  std::memcpy(w.data(), b.data() + at, 16 * w.size());
  return w;
}

// A strip of `columns` quads, one unit tall and 0.4 wide, skinned to "root" (bottom row) and
// "tip" (top row, one unit up), as a text .gltf with its buffer embedded: vertices (x, 0) then
// (x, 1) for x from -0.2 to 0.2 in `columns` steps. `half` (a vertex index, or -1) weighs 0.5 on
// each joint instead.
inline void strip_gltf(int columns, int half, const std::string& path) {
  std::string b;
  const auto put_f = [&](float f) { b.append(reinterpret_cast<const char*>(&f), 4); };
  const int n = 2 * (columns + 1);
  for (int row = 0; row < 2; ++row)
    for (int c = 0; c <= columns; ++c) {
      put_f(-0.2f + 0.4f * static_cast<float>(c) / static_cast<float>(columns));
      put_f(static_cast<float>(row));
      put_f(0.0f);
    }
  const std::size_t joints_at = b.size();
  for (int v = 0; v < n; ++v) {
    const unsigned char jv[4] = {static_cast<unsigned char>(v == half ? 0 : v / (columns + 1)),
                                 static_cast<unsigned char>(v == half ? 1 : 0), 0, 0};
    b.append(reinterpret_cast<const char*>(jv), 4);
  }
  const std::size_t weights_at = b.size();
  for (int v = 0; v < n; ++v) {
    put_f(v == half ? 0.5f : 1.0f);
    put_f(v == half ? 0.5f : 0.0f);
    put_f(0.0f);
    put_f(0.0f);
  }
  const std::size_t indices_at = b.size();
  for (int c = 0; c < columns; ++c) {
    const uint16_t q[6] = {static_cast<uint16_t>(c),
                           static_cast<uint16_t>(c + 1),
                           static_cast<uint16_t>(c + columns + 1),
                           static_cast<uint16_t>(c + columns + 1),
                           static_cast<uint16_t>(c + 1),
                           static_cast<uint16_t>(c + columns + 2)};
    b.append(reinterpret_cast<const char*>(q), 12);
  }
  while (b.size() % 4 != 0) b += '\0';
  const std::size_t ibm_at = b.size();
  for (int joint = 0; joint < 2; ++joint)
    for (float f : {1.f, 0.f, 0.f, 0.f, 0.f, 1.f, 0.f, 0.f, 0.f, 0.f, 1.f, 0.f, 0.f,
                    -static_cast<float>(joint), 0.f, 1.f})
      put_f(f);
  static const char* kBase64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string encoded;
  for (std::size_t i = 0; i < b.size(); i += 3) {
    uint32_t v = static_cast<uint32_t>(static_cast<unsigned char>(b[i])) << 16;
    if (i + 1 < b.size()) v |= static_cast<uint32_t>(static_cast<unsigned char>(b[i + 1])) << 8;
    if (i + 2 < b.size()) v |= static_cast<unsigned char>(b[i + 2]);
    encoded += kBase64[(v >> 18) & 63];
    encoded += kBase64[(v >> 12) & 63];
    encoded += i + 1 < b.size() ? kBase64[(v >> 6) & 63] : '=';
    encoded += i + 2 < b.size() ? kBase64[v & 63] : '=';
  }
  using nlohmann::json;
  json j;
  j["asset"] = {{"version", "2.0"}};
  j["scene"] = 0;
  j["nodes"] = {{{"name", "strip"}, {"mesh", 0}, {"skin", 0}},
                {{"name", "root"}, {"children", {2}}},
                {{"name", "tip"}, {"translation", {0, 1, 0}}}};
  j["scenes"] = {{{"nodes", {0, 1}}}};
  j["skins"] = {{{"joints", {1, 2}}, {"inverseBindMatrices", 4}, {"skeleton", 1}}};
  j["meshes"] = {
      {{"name", "strip"},
       {"primitives",
        {{{"attributes", {{"POSITION", 0}, {"JOINTS_0", 1}, {"WEIGHTS_0", 2}}}, {"indices", 3}}}}}};
  j["buffers"] = {
      {{"uri", "data:application/octet-stream;base64," + encoded}, {"byteLength", b.size()}}};
  const auto view = [](std::size_t at, std::size_t size) {
    return json{{"buffer", 0}, {"byteOffset", at}, {"byteLength", size}};
  };
  j["bufferViews"] = {view(0, joints_at), view(joints_at, weights_at - joints_at),
                      view(weights_at, indices_at - weights_at),
                      view(indices_at, 12 * static_cast<std::size_t>(columns)), view(ibm_at, 128)};
  j["accessors"] = {
      {{"bufferView", 0},
       {"componentType", 5126},
       {"count", n},
       {"type", "VEC3"},
       {"min", {-0.2, 0, 0}},
       {"max", {0.2, 1, 0}}},
      {{"bufferView", 1}, {"componentType", 5121}, {"count", n}, {"type", "VEC4"}},
      {{"bufferView", 2}, {"componentType", 5126}, {"count", n}, {"type", "VEC4"}},
      {{"bufferView", 3}, {"componentType", 5123}, {"count", 6 * columns}, {"type", "SCALAR"}},
      {{"bufferView", 4}, {"componentType", 5126}, {"count", 2}, {"type", "MAT4"}}};
  std::ofstream(path, std::ios::trunc) << j.dump(1);
}

}  // namespace sv::test
