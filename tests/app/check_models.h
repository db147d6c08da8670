// Models written for `skinview check`'s tests, each made to break one rule (check_rules.h): a box
// one unit tall (8 corners, 12 triangles wound counter-clockwise seen from outside: a closed
// mesh, so the volume figure applies), its bottom corners skinned to "root", its top corners to
// "tip" (a child of "root" at y = 1), and one clip "turn" that turns "tip" 10 degrees about the
// vertical over one second (keys at 0 and 1 s). As written by default it breaks no rule; each field
// below breaks one. A self-contained .gltf (its buffer a data: URI).
#pragma once

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace sv::test {

struct CheckModel {
  // Joints below "tip" in a chain ("j2", "j3", ...): 2 + extra_joints joints in all, the extra
  // ones in the skin, no vertex on them (unused-bones).
  int extra_joints = 0;
  bool five_influences = false;  // corner 4 weighs on 5 joints (max-influences; adds 3 joints)
  float weight = 1.0f;           // corner 4's weight as stored (0.8: weight-sum; 0: unweighted)
  float tip_scale = 1.0f;        // "tip"'s rest scale on x (0: joint-scale)
  float key_length = 1.0f;       // the rotation keys' length (0.9: rotation-keys)
  float bind_tip_y = 1.0f;       // where tip's inverse bind matrix puts it (0.5: rest-bind)
  float drop_tip = 0.0f;         // "tip" moves down by this over the clip (0.5: volume-change)
  float turn_degrees = 10.0f;    // "tip" turns by this about the vertical over the clip
  std::string tip_name = "tip";  // (joint-names)
  std::string texture;           // a base-colour texture's uri (texture-paths)
};

namespace check_model_detail {
inline void put_f(std::string& b, std::initializer_list<float> v) {
  for (float f : v) b.append(reinterpret_cast<const char*>(&f), 4);
}
inline std::string base64(const std::string& in) {
  static const char* t = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  std::size_t i = 0;
  for (; i + 2 < in.size(); i += 3) {
    const uint32_t n =
        (uint32_t(uint8_t(in[i])) << 16) | (uint32_t(uint8_t(in[i + 1])) << 8) | uint8_t(in[i + 2]);
    for (int k = 18; k >= 0; k -= 6) out += t[(n >> k) & 63];
  }
  if (i < in.size()) {
    uint32_t n = uint32_t(uint8_t(in[i])) << 16;
    if (i + 1 < in.size()) n |= uint32_t(uint8_t(in[i + 1])) << 8;
    out += t[(n >> 18) & 63];
    out += t[(n >> 12) & 63];
    out += i + 1 < in.size() ? t[(n >> 6) & 63] : '=';
    out += '=';
  }
  return out;
}
}  // namespace check_model_detail

// The .gltf text of `m`.
inline std::string check_model_gltf(const CheckModel& m) {
  using namespace check_model_detail;
  using nlohmann::json;
  const int chain = 2 + m.extra_joints + (m.five_influences ? 3 : 0);
  std::string b;
  json views = json::array(), accessors = json::array();
  auto add = [&](const std::string& bytes, int component, int count, const char* type,
                 json extra = json::object()) {
    const std::size_t at = b.size();
    b += bytes;
    while (b.size() % 4) b += '\0';
    views.push_back({{"buffer", 0}, {"byteOffset", at}, {"byteLength", bytes.size()}});
    json a = {{"bufferView", views.size() - 1},
              {"componentType", component},
              {"count", count},
              {"type", type}};
    a.update(extra);
    accessors.push_back(a);
    return static_cast<int>(accessors.size() - 1);
  };
  // Corners: 0-3 bottom (y = 0), 4-7 top (y = 1); x, z = +-0.5.
  std::string pos;
  for (float y : {0.0f, 1.0f})
    for (auto [x, z] : {std::pair{-0.5f, -0.5f}, {0.5f, -0.5f}, {0.5f, 0.5f}, {-0.5f, 0.5f}})
      put_f(pos, {x, y, z});
  const int positions =
      add(pos, 5126, 8, "VEC3", {{"min", {-0.5, 0, -0.5}}, {"max", {0.5, 1, 0.5}}});
  std::string j0, w0, j1, w1;
  for (int v = 0; v < 8; ++v) {
    uint8_t js[8] = {static_cast<uint8_t>(v < 4 ? 0 : 1), 0, 0, 0, 0, 0, 0, 0};
    float ws[8] = {1, 0, 0, 0, 0, 0, 0, 0};
    if (v == 4) {
      ws[0] = m.weight;
      if (m.five_influences) {
        const int first = chain - 3;  // the three added joints, then root and tip
        const uint8_t five[5] = {1, 0, static_cast<uint8_t>(first), static_cast<uint8_t>(first + 1),
                                 static_cast<uint8_t>(first + 2)};
        for (int k = 0; k < 5; ++k) {
          js[k] = five[k];
          ws[k] = m.weight * (k == 0 ? 0.6f : 0.1f);
        }
      }
    }
    j0.append(reinterpret_cast<const char*>(js), 4);
    j1.append(reinterpret_cast<const char*>(js + 4), 4);
    w0.append(reinterpret_cast<const char*>(ws), 16);
    w1.append(reinterpret_cast<const char*>(ws + 4), 16);
  }
  json attributes = {{"POSITION", positions},
                     {"JOINTS_0", add(j0, 5121, 8, "VEC4")},
                     {"WEIGHTS_0", add(w0, 5126, 8, "VEC4")}};
  if (m.five_influences) {
    attributes["JOINTS_1"] = add(j1, 5121, 8, "VEC4");
    attributes["WEIGHTS_1"] = add(w1, 5126, 8, "VEC4");
  }
  if (!m.texture.empty()) {
    std::string uv;
    for (int v = 0; v < 8; ++v) put_f(uv, {v % 2 ? 1.0f : 0.0f, v < 4 ? 0.0f : 1.0f});
    attributes["TEXCOORD_0"] = add(uv, 5126, 8, "VEC2");
  }
  // Counter-clockwise seen from outside.
  const uint16_t tris[36] = {0, 1, 2, 0, 2, 3, 4, 6, 5, 4, 7, 6, 0, 4, 5, 0, 5, 1,
                             1, 5, 6, 1, 6, 2, 2, 6, 7, 2, 7, 3, 3, 7, 4, 3, 4, 0};
  const int indices = add(std::string(reinterpret_cast<const char*>(tris), 72), 5123, 36, "SCALAR");
  // Joint k of the chain sits at y = k (its parent's child at +1), the inverse binds undo it.
  std::string ibm;
  for (int k = 0; k < chain; ++k) {
    const float y = k == 1 ? m.bind_tip_y : static_cast<float>(k);
    put_f(ibm, {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, -y, 0, 1});
  }
  const int inverse_binds = add(ibm, 5126, chain, "MAT4");
  std::string times, rotations, translations;
  put_f(times, {0.0f, 1.0f});
  const float half = 0.5f * m.turn_degrees * 3.14159265f / 180.0f;
  put_f(rotations, {0, 0, 0, m.key_length});
  put_f(rotations, {0, std::sin(half) * m.key_length, 0, std::cos(half) * m.key_length});
  put_f(translations, {0, 1, 0, 0, 1 - m.drop_tip, 0});
  const int time_acc = add(times, 5126, 2, "SCALAR", {{"min", {0.0}}, {"max", {1.0}}});
  const int rot_acc = add(rotations, 5126, 2, "VEC4");
  const int tr_acc = add(translations, 5126, 2, "VEC3");

  json j;
  j["asset"] = {{"version", "2.0"}};
  j["scene"] = 0;
  json nodes = json::array();
  nodes.push_back({{"name", "box"}, {"mesh", 0}, {"skin", 0}});
  json skin_joints = json::array();
  for (int k = 0; k < chain; ++k) {
    const std::string name = k == 0 ? "root" : k == 1 ? m.tip_name : "j" + std::to_string(k);
    json node = {{"name", name}};
    if (k > 0) node["translation"] = {0, 1, 0};
    if (k == 1 && m.tip_scale != 1.0f) node["scale"] = {m.tip_scale, 1, 1};
    if (k + 1 < chain) node["children"] = {k + 2};
    nodes.push_back(node);
    skin_joints.push_back(k + 1);
  }
  j["nodes"] = nodes;
  j["scenes"] = {{{"nodes", {0, 1}}}};
  j["skins"] = {{{"joints", skin_joints}, {"inverseBindMatrices", inverse_binds}}};
  json primitive = {{"attributes", attributes}, {"indices", indices}};
  if (!m.texture.empty()) {
    primitive["material"] = 0;
    j["materials"] = {
        {{"name", "skin"}, {"pbrMetallicRoughness", {{"baseColorTexture", {{"index", 0}}}}}}};
    j["textures"] = {{{"source", 0}}};
    j["images"] = {{{"uri", m.texture}}};
  }
  j["meshes"] = {{{"name", "box"}, {"primitives", {primitive}}}};
  j["buffers"] = {
      {{"uri", "data:application/octet-stream;base64," + base64(b)}, {"byteLength", b.size()}}};
  j["bufferViews"] = views;
  j["accessors"] = accessors;
  json animation;
  animation["name"] = "turn";
  animation["samplers"] = {{{"input", time_acc}, {"output", rot_acc}},
                           {{"input", time_acc}, {"output", tr_acc}}};
  animation["channels"] = {{{"sampler", 0}, {"target", {{"node", 2}, {"path", "rotation"}}}},
                           {{"sampler", 1}, {"target", {{"node", 2}, {"path", "translation"}}}}};
  // json::array, not {animation}: a braced list of one json is a copy of it to clang and an
  // array of it to GCC.
  j["animations"] = nlohmann::json::array({animation});
  return j.dump(1);
}

}  // namespace sv::test
