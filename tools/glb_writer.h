// GlbWriter: a minimal, deterministic glTF 2.0 binary (.glb) writer, and a stored-deflate PNG
// encoder for small procedural textures.
//
// Why not tinygltf's writer: the default asset is checked in and a test rebuilds it byte for
// byte, so every byte must be under our control. Here the JSON is an nlohmann::ordered_json
// (keys stay in insertion order; doubles print as the shortest round-trip text, independent of
// the locale), every binary block is 4-byte aligned and zero-padded, and nothing depends on the
// time, the host or a library's compression level. The PNG uses stored (uncompressed) deflate
// blocks for the same reason: no zlib version can change its bytes.
//
// Layout: one buffer (the GLB BIN chunk), one bufferView per accessor or image, accessors that
// span their whole view (no interleaving, no byteStride). Little-endian hosts only, as glTF is.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace sv::tools {

using Json = nlohmann::ordered_json;

// glTF enums used by the generator.
inline constexpr int kUnsignedByte = 5121;
inline constexpr int kUnsignedShort = 5123;
inline constexpr int kUnsignedInt = 5125;
inline constexpr int kFloat = 5126;
inline constexpr int kArrayBuffer = 34962;
inline constexpr int kElementArrayBuffer = 34963;
inline constexpr int kNoTarget = 0;

class GlbWriter {
 public:
  // Starts a document with "asset" (version 2.0, the given generator string) and the top-level
  // arrays in a fixed order; arrays that stay empty are dropped by finish().
  explicit GlbWriter(const std::string& generator);

  Json& json() noexcept { return json_; }

  // Appends raw bytes as a new bufferView (target kNoTarget for none); returns its index.
  int add_view(std::span<const uint8_t> bytes, int target);

  // Float accessor of `type` ("SCALAR", "VEC2", "VEC3", "VEC4", "MAT4") over `values`
  // (components per element times count). With min_max, per-component min and max are written
  // (glTF requires them for POSITION and animation inputs).
  int add_floats(std::span<const float> values, const char* type, int target, bool min_max);
  // Unsigned byte / short / int accessors (JOINTS_0, indices).
  int add_u8(std::span<const uint8_t> values, const char* type, int target);
  int add_u16(std::span<const uint16_t> values, const char* type, int target);
  int add_u32(std::span<const uint32_t> values, const char* type, int target);

  // The whole .glb: header, JSON chunk (space padded), BIN chunk (zero padded).
  std::vector<uint8_t> finish();

 private:
  int add_accessor(int view, int component_type, std::size_t count, const char* type);

  Json json_;
  std::vector<uint8_t> bin_;
};

// Number of components of a glTF accessor type ("VEC3" -> 3); 0 for an unknown type.
int component_count(const char* type) noexcept;

// An 8-bit RGB PNG (colour type 2) of width x height pixels, rgb row-major, top row first,
// with stored deflate blocks: bigger than a compressed PNG, identical on every machine.
std::vector<uint8_t> encode_png_rgb(int width, int height, std::span<const uint8_t> rgb);

}  // namespace sv::tools
