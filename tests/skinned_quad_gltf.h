// A small skinned glTF written by the tests (text .gltf beside its .bin): a quad one unit tall
// skinned to a chain of joints "root" -> "tip" (-> "extra" when asked), and one clip "bend" that
// turns "tip" a quarter turn about Z over `duration` seconds. The live reload and clip range
// tests rewrite it under a running window or command; every figure is small enough to check by
// hand: the quad's top vertices (y = 1) follow "tip", the bottom ones "root".
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace sv::test {

struct TinyGltf {
  bool extra_joint = false;  // a third joint, "extra", child of "tip" (no vertex weighs on it)
  double duration = 1.0;     // of "bend"
  float width = 0.4f;        // of the quad (x from -width/2 to width/2)
  int keys = 2;              // of "bend": evenly spaced, the angle linear in time
};

namespace tiny_gltf_detail {
inline void put(std::string& b, const void* p, std::size_t n) {
  b.append(static_cast<const char*>(p), n);
}
inline void put_f(std::string& b, std::initializer_list<float> v) {
  for (float f : v) put(b, &f, 4);
}
}  // namespace tiny_gltf_detail

// The .bin's bytes and the .gltf's text for `m`, the .gltf naming `bin_name` as its buffer.
inline void tiny_gltf(const TinyGltf& m, const std::string& bin_name, std::string* gltf,
                      std::string* bin) {
  using namespace tiny_gltf_detail;
  std::string b;
  const float h = m.width / 2;
  put_f(b, {-h, 0, 0, h, 0, 0, -h, 1, 0, h, 1, 0});  // 0: positions, 48 bytes
  const uint8_t joints[16] = {0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0};
  put(b, joints, 16);                                          // 48: joints
  put_f(b, {1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0});  // 64: weights
  const uint16_t indices[6] = {0, 1, 2, 2, 1, 3};              // 128: indices (12)
  put(b, indices, 12);
  const int joint_count = m.extra_joint ? 3 : 2;  // 140: inverse binds
  for (int j = 0; j < joint_count; ++j)
    put_f(b, {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, -static_cast<float>(j), 0, 1});
  const std::size_t times_at = b.size();
  for (int k = 0; k < m.keys; ++k) put_f(b, {static_cast<float>(m.duration * k / (m.keys - 1))});
  const std::size_t rot_at = b.size();
  for (int k = 0; k < m.keys; ++k) {
    const float a = 0.5f * 1.5707963f * static_cast<float>(k) / static_cast<float>(m.keys - 1);
    put_f(b, {0, 0, std::sin(a), std::cos(a)});
  }
  using nlohmann::json;
  json j;
  j["asset"] = {{"version", "2.0"}};
  j["scene"] = 0;
  json nodes = json::array();
  nodes.push_back({{"name", "body"}, {"mesh", 0}, {"skin", 0}});
  nodes.push_back({{"name", "root"}, {"children", {2}}});
  nodes.push_back({{"name", "tip"}, {"translation", {0, 1, 0}}});
  if (m.extra_joint) {
    nodes[2]["children"] = {3};
    nodes.push_back({{"name", "extra"}, {"translation", {0, 1, 0}}});
  }
  j["nodes"] = nodes;
  j["scenes"] = {{{"nodes", {0, 1}}}};
  json skin_joints = {1, 2};
  if (m.extra_joint) skin_joints.push_back(3);
  j["skins"] = {{{"joints", skin_joints}, {"inverseBindMatrices", 4}, {"skeleton", 1}}};
  json primitive;
  primitive["attributes"] = {{"POSITION", 0}, {"JOINTS_0", 1}, {"WEIGHTS_0", 2}};
  primitive["indices"] = 3;
  json mesh;
  mesh["primitives"] = json::array({primitive});
  j["meshes"] = json::array({mesh});
  j["buffers"] = {{{"uri", bin_name}, {"byteLength", b.size()}}};
  auto view = [](std::size_t at, std::size_t n) {
    return json{{"buffer", 0}, {"byteOffset", at}, {"byteLength", n}};
  };
  j["bufferViews"] = {view(0, 48),
                      view(48, 16),
                      view(64, 64),
                      view(128, 12),
                      view(140, 64 * joint_count),
                      view(times_at, 4 * m.keys),
                      view(rot_at, 16 * m.keys)};
  j["accessors"] = {
      {{"bufferView", 0},
       {"componentType", 5126},
       {"count", 4},
       {"type", "VEC3"},
       {"min", {-h, 0, 0}},
       {"max", {h, 1, 0}}},
      {{"bufferView", 1}, {"componentType", 5121}, {"count", 4}, {"type", "VEC4"}},
      {{"bufferView", 2}, {"componentType", 5126}, {"count", 4}, {"type", "VEC4"}},
      {{"bufferView", 3}, {"componentType", 5123}, {"count", 6}, {"type", "SCALAR"}},
      {{"bufferView", 4}, {"componentType", 5126}, {"count", joint_count}, {"type", "MAT4"}},
      {{"bufferView", 5},
       {"componentType", 5126},
       {"count", m.keys},
       {"type", "SCALAR"},
       {"min", {0.0}},
       {"max", {m.duration}}},
      {{"bufferView", 6}, {"componentType", 5126}, {"count", m.keys}, {"type", "VEC4"}}};
  json animation;
  animation["name"] = "bend";
  animation["samplers"] =
      json::array({json{{"input", 5}, {"output", 6}, {"interpolation", "LINEAR"}}});
  animation["channels"] =
      json::array({json{{"sampler", 0}, {"target", {{"node", 2}, {"path", "rotation"}}}}});
  j["animations"] = json::array({animation});
  *gltf = j.dump(1);
  *bin = std::move(b);
}

inline bool write_file(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  return static_cast<bool>(out.flush());
}

// Writes `dir`/NAME.gltf and `dir`/NAME.bin; returns the .gltf's path.
inline std::string write_tiny_gltf(const std::string& dir, const std::string& name,
                                   const TinyGltf& m) {
  std::string gltf, bin;
  tiny_gltf(m, name + ".bin", &gltf, &bin);
  write_file(dir + "/" + name + ".bin", bin);
  write_file(dir + "/" + name + ".gltf", gltf);
  return dir + "/" + name + ".gltf";
}

}  // namespace sv::test
