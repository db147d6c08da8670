// PNG files made in the test, byte by byte (zlib for the CRCs and the deflate stream), so a
// test can hand the import worker a valid image, or one whose header lies about its size,
// without any file from elsewhere.
#pragma once

#include <zlib.h>

#include <cstdint>
#include <fstream>
#include <string>
#include <string_view>
#include <vector>

namespace sv::test {

inline void png_put32(std::vector<uint8_t>& out, uint32_t v) {
  for (int s = 24; s >= 0; s -= 8) out.push_back(static_cast<uint8_t>(v >> s));
}

inline void png_chunk(std::vector<uint8_t>& out, std::string_view type,
                      const std::vector<uint8_t>& data) {
  png_put32(out, static_cast<uint32_t>(data.size()));
  const std::size_t start = out.size();
  out.insert(out.end(), type.begin(), type.end());
  out.insert(out.end(), data.begin(), data.end());
  const uLong crc = crc32(0L, out.data() + start, static_cast<uInt>(out.size() - start));
  png_put32(out, static_cast<uint32_t>(crc));
}

// An 8-bit RGBA PNG: its header declares `width` x `height`; its pixel data is `rgba` (rows
// top-down, width * 4 bytes each) for as many rows as `rgba` holds, so a test can declare more
// than it stores. `text` adds a tEXt chunk (a marker a test can look for in other files).
inline std::vector<uint8_t> make_png(uint32_t width, uint32_t height,
                                     const std::vector<uint8_t>& rgba,
                                     const std::string& text = {}) {
  std::vector<uint8_t> out = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
  std::vector<uint8_t> ihdr;
  png_put32(ihdr, width);
  png_put32(ihdr, height);
  ihdr.insert(ihdr.end(), {8, 6, 0, 0, 0});  // 8 bits, RGBA, deflate, no filter, no interlace
  png_chunk(out, "IHDR", ihdr);
  if (!text.empty()) {
    std::vector<uint8_t> t = {'C', 'o', 'm', 'm', 'e', 'n', 't', 0};
    t.insert(t.end(), text.begin(), text.end());
    png_chunk(out, "tEXt", t);
  }
  std::vector<uint8_t> raw;
  const std::size_t row = std::size_t{width} * 4;
  for (std::size_t at = 0; row > 0 && at + row <= rgba.size(); at += row) {
    raw.push_back(0);  // filter: none
    raw.insert(raw.end(), rgba.begin() + static_cast<std::ptrdiff_t>(at),
               rgba.begin() + static_cast<std::ptrdiff_t>(at + row));
  }
  uLongf size = compressBound(static_cast<uLong>(raw.size()));
  std::vector<uint8_t> z(size);
  compress(z.data(), &size, raw.data(), static_cast<uLong>(raw.size()));
  z.resize(size);
  png_chunk(out, "IDAT", z);
  png_chunk(out, "IEND", {});
  return out;
}

inline void write_bytes(const std::string& path, const std::vector<uint8_t>& bytes) {
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  f.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
}

inline void write_text(const std::string& path, const std::string& text) {
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  f << text;
}

// A one-triangle OBJ with UVs whose material `skin` names `texture` as its map_Kd, written as
// DIR/model.obj and DIR/model.mtl; returns the OBJ's path.
inline std::string write_textured_obj(const std::string& dir, const std::string& texture) {
  write_text(dir + "/model.obj",
             "mtllib model.mtl\n"
             "v 0 0 0\nv 1 0 0\nv 0 1 0\n"
             "vt 0 0\nvt 1 0\nvt 0 1\n"
             "vn 0 0 1\n"
             "usemtl skin\n"
             "f 1/1/1 2/2/1 3/3/1\n");
  write_text(dir + "/model.mtl", "newmtl skin\nKd 1 1 1\nmap_Kd " + texture + "\n");
  return dir + "/model.obj";
}

}  // namespace sv::test
