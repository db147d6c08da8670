// An animation-only glTF made from the default character, for the tests of --anim and "Add
// animations..." (app/animation_files.h).
#pragma once

#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include "json_file.h"

namespace sv::test {

inline uint32_t read_u32(const std::vector<char>& b, std::size_t at) {
  uint32_t v = 0;
  std::memcpy(&v, b.data() + at, 4);
  return v;
}
inline void put_u32(std::string& out, uint32_t v) {
  out.append(reinterpret_cast<const char*>(&v), 4);
}

// `character`'s GLB (assets/default.glb) as an animation-only file: every node renamed PREFIX +
// name, no mesh, skin, material or image, and no morph-weight channel (they need a mesh); the
// clips' keys, the accessors and the binary chunk as they were.
inline std::string animation_only_glb(const std::string& character, const std::string& prefix,
                                      const std::string& path) {
  std::ifstream in(character, std::ios::binary);
  const std::vector<char> b((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_GE(b.size(), 28u);
  const uint32_t json_length = read_u32(b, 12);
  nlohmann::json j = parse_json(std::string_view(b.data() + 20, json_length));
  EXPECT_FALSE(j.is_discarded());
  for (auto& node : j["nodes"]) {
    node["name"] = prefix + node["name"].get<std::string>();
    node.erase("mesh");
    node.erase("skin");
  }
  for (const char* key : {"meshes", "skins", "materials", "textures", "images", "samplers"})
    j.erase(key);
  nlohmann::json animations = nlohmann::json::array();
  for (auto& a : j["animations"]) {
    nlohmann::json channels = nlohmann::json::array();
    for (auto& c : a["channels"])
      if (c["target"]["path"] != "weights") channels.push_back(c);
    if (channels.empty()) continue;
    a["channels"] = channels;
    animations.push_back(a);
  }
  j["animations"] = animations;
  std::string text = j.dump();
  while (text.size() % 4 != 0) text += ' ';
  const std::size_t bin_at = 20 + json_length;
  const std::string bin(b.begin() + static_cast<std::ptrdiff_t>(bin_at), b.end());  // header + data
  std::string out;
  put_u32(out, 0x46546C67u);  // "glTF"
  put_u32(out, 2);
  put_u32(out, static_cast<uint32_t>(12 + 8 + text.size() + bin.size()));
  put_u32(out, static_cast<uint32_t>(text.size()));
  put_u32(out, 0x4E4F534Au);  // "JSON"
  out += text;
  out += bin;
  std::ofstream(path, std::ios::binary | std::ios::trunc) << out;
  return path;
}

}  // namespace sv::test
