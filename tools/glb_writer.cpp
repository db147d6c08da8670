// See glb_writer.h.
#include "glb_writer.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cassert>
#include <cstring>
#include <limits>

namespace sv::tools {
namespace {

static_assert(std::endian::native == std::endian::little,
              "glTF binary data is little-endian; this writer copies host memory as is");

template <class T>
std::span<const uint8_t> as_bytes(std::span<const T> values) {
  return {reinterpret_cast<const uint8_t*>(values.data()), values.size_bytes()};
}

void append_u32_le(std::vector<uint8_t>& out, uint32_t v) {
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<uint8_t>(v >> (8 * i)));
}

void append_u32_be(std::vector<uint8_t>& out, uint32_t v) {
  for (int i = 3; i >= 0; --i) out.push_back(static_cast<uint8_t>(v >> (8 * i)));
}

void pad_to_4(std::vector<uint8_t>& out, uint8_t fill) {
  while (out.size() % 4 != 0) out.push_back(fill);
}

uint32_t crc32(std::span<const uint8_t> bytes) {
  static const std::array<uint32_t, 256> table = [] {
    std::array<uint32_t, 256> t{};
    for (uint32_t n = 0; n < 256; ++n) {
      uint32_t c = n;
      for (int k = 0; k < 8; ++k) c = (c & 1u) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
      t[n] = c;
    }
    return t;
  }();
  uint32_t c = 0xFFFFFFFFu;
  for (uint8_t b : bytes) c = table[(c ^ b) & 0xFFu] ^ (c >> 8);
  return c ^ 0xFFFFFFFFu;
}

uint32_t adler32(std::span<const uint8_t> bytes) {
  uint32_t a = 1, b = 0;
  for (uint8_t v : bytes) {
    a = (a + v) % 65521u;
    b = (b + a) % 65521u;
  }
  return (b << 16) | a;
}

void append_png_chunk(std::vector<uint8_t>& png, const char (&type)[5],
                      std::span<const uint8_t> data) {
  append_u32_be(png, static_cast<uint32_t>(data.size()));
  const std::size_t start = png.size();
  png.insert(png.end(), type, type + 4);
  png.insert(png.end(), data.begin(), data.end());
  append_u32_be(png, crc32(std::span(png).subspan(start)));
}

}  // namespace

int component_count(const char* type) noexcept {
  const std::string t = type;
  if (t == "SCALAR") return 1;
  if (t == "VEC2") return 2;
  if (t == "VEC3") return 3;
  if (t == "VEC4") return 4;
  if (t == "MAT4") return 16;
  return 0;
}

GlbWriter::GlbWriter(const std::string& generator) {
  json_["asset"] = Json{{"version", "2.0"}, {"generator", generator}};
  // Fixed key order for the top-level arrays; finish() drops the empty ones (glTF forbids
  // empty top-level arrays).
  for (const char* key :
       {"scene", "scenes", "nodes", "meshes", "skins", "materials", "textures", "images",
        "samplers", "animations", "accessors", "bufferViews", "buffers"}) {
    json_[key] = std::string(key) == "scene" ? Json(0) : Json::array();
  }
}

int GlbWriter::add_view(std::span<const uint8_t> bytes, int target) {
  pad_to_4(bin_, 0);
  Json view{{"buffer", 0}, {"byteOffset", bin_.size()}, {"byteLength", bytes.size()}};
  if (target != kNoTarget) view["target"] = target;
  bin_.insert(bin_.end(), bytes.begin(), bytes.end());
  json_["bufferViews"].push_back(std::move(view));
  return static_cast<int>(json_["bufferViews"].size()) - 1;
}

int GlbWriter::add_accessor(int view, int component_type, std::size_t count, const char* type) {
  json_["accessors"].push_back(Json{
      {"bufferView", view}, {"componentType", component_type}, {"count", count}, {"type", type}});
  return static_cast<int>(json_["accessors"].size()) - 1;
}

int GlbWriter::add_floats(std::span<const float> values, const char* type, int target,
                          bool min_max) {
  const int n = component_count(type);
  assert(n > 0 && values.size() % static_cast<std::size_t>(n) == 0 && "ragged float accessor");
  const std::size_t count = values.size() / static_cast<std::size_t>(n);
  const int index = add_accessor(add_view(as_bytes(values), target), kFloat, count, type);
  if (min_max && count > 0) {
    Json lo = Json::array(), hi = Json::array();
    for (int c = 0; c < n; ++c) {
      float a = std::numeric_limits<float>::max(), b = std::numeric_limits<float>::lowest();
      for (std::size_t i = 0; i < count; ++i) {
        a = std::min(a, values[i * static_cast<std::size_t>(n) + static_cast<std::size_t>(c)]);
        b = std::max(b, values[i * static_cast<std::size_t>(n) + static_cast<std::size_t>(c)]);
      }
      // Written as the double equal to the float, so a reader's float comparison is exact.
      lo.push_back(static_cast<double>(a));
      hi.push_back(static_cast<double>(b));
    }
    json_["accessors"][static_cast<std::size_t>(index)]["min"] = std::move(lo);
    json_["accessors"][static_cast<std::size_t>(index)]["max"] = std::move(hi);
  }
  return index;
}

int GlbWriter::add_u8(std::span<const uint8_t> values, const char* type, int target) {
  const std::size_t n = static_cast<std::size_t>(component_count(type));
  assert(n > 0 && values.size() % n == 0 && "ragged accessor");
  return add_accessor(add_view(values, target), kUnsignedByte, values.size() / n, type);
}

int GlbWriter::add_u16(std::span<const uint16_t> values, const char* type, int target) {
  const std::size_t n = static_cast<std::size_t>(component_count(type));
  assert(n > 0 && values.size() % n == 0 && "ragged accessor");
  return add_accessor(add_view(as_bytes(values), target), kUnsignedShort, values.size() / n, type);
}

int GlbWriter::add_u32(std::span<const uint32_t> values, const char* type, int target) {
  const std::size_t n = static_cast<std::size_t>(component_count(type));
  assert(n > 0 && values.size() % n == 0 && "ragged accessor");
  return add_accessor(add_view(as_bytes(values), target), kUnsignedInt, values.size() / n, type);
}

std::vector<uint8_t> GlbWriter::finish() {
  pad_to_4(bin_, 0);
  json_["buffers"] = Json::array({Json{{"byteLength", bin_.size()}}});
  Json doc;
  for (auto& [key, value] : json_.items()) {
    if (!(value.is_array() && value.empty())) doc[key] = value;
  }
  std::string text = doc.dump();
  while (text.size() % 4 != 0) text.push_back(' ');

  std::vector<uint8_t> glb;
  const std::size_t total = 12 + 8 + text.size() + 8 + bin_.size();
  append_u32_le(glb, 0x46546C67u);  // "glTF"
  append_u32_le(glb, 2u);
  append_u32_le(glb, static_cast<uint32_t>(total));
  append_u32_le(glb, static_cast<uint32_t>(text.size()));
  append_u32_le(glb, 0x4E4F534Au);  // "JSON"
  glb.insert(glb.end(), text.begin(), text.end());
  append_u32_le(glb, static_cast<uint32_t>(bin_.size()));
  append_u32_le(glb, 0x004E4942u);  // "BIN\0"
  glb.insert(glb.end(), bin_.begin(), bin_.end());
  return glb;
}

std::vector<uint8_t> encode_png_rgb(int width, int height, std::span<const uint8_t> rgb) {
  assert(width > 0 && height > 0 && "empty image");
  const std::size_t row = static_cast<std::size_t>(width) * 3;
  assert(rgb.size() == row * static_cast<std::size_t>(height) && "pixel count mismatch");

  // Filter type 0 (none) before every row.
  std::vector<uint8_t> raw;
  raw.reserve((row + 1) * static_cast<std::size_t>(height));
  for (int y = 0; y < height; ++y) {
    raw.push_back(0);
    const auto begin = rgb.begin() + static_cast<std::ptrdiff_t>(row * static_cast<std::size_t>(y));
    raw.insert(raw.end(), begin, begin + static_cast<std::ptrdiff_t>(row));
  }

  // zlib stream: CMF/FLG (deflate, 32K window, no dictionary, check bits), stored blocks of at
  // most 65535 bytes, Adler-32 of the raw data.
  std::vector<uint8_t> z = {0x78, 0x01};
  for (std::size_t at = 0; at < raw.size() || raw.empty();) {
    const std::size_t len = std::min<std::size_t>(65535, raw.size() - at);
    const bool last = at + len == raw.size();
    z.push_back(last ? 1 : 0);
    z.push_back(static_cast<uint8_t>(len & 0xFF));
    z.push_back(static_cast<uint8_t>(len >> 8));
    z.push_back(static_cast<uint8_t>(~len & 0xFF));
    z.push_back(static_cast<uint8_t>((~len >> 8) & 0xFF));
    z.insert(z.end(), raw.begin() + static_cast<std::ptrdiff_t>(at),
             raw.begin() + static_cast<std::ptrdiff_t>(at + len));
    at += len;
    if (last) break;
  }
  append_u32_be(z, adler32(raw));

  std::vector<uint8_t> png = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
  std::vector<uint8_t> ihdr;
  append_u32_be(ihdr, static_cast<uint32_t>(width));
  append_u32_be(ihdr, static_cast<uint32_t>(height));
  ihdr.insert(ihdr.end(), {8, 2, 0, 0, 0});  // 8 bits, RGB, deflate, adaptive filters, no interlace
  append_png_chunk(png, "IHDR", ihdr);
  append_png_chunk(png, "IDAT", z);
  append_png_chunk(png, "IEND", {});
  return png;
}

}  // namespace sv::tools
