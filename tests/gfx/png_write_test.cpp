// gl::write_png (gfx/capture.h): what it writes reads back to the same pixels, and a failure is
// a message and no file.
#include <gtest/gtest.h>
#include <stb_image.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "gfx/capture.h"
#include "temp_dir.h"

namespace sv {
namespace {

std::vector<uint8_t> file_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// 3 x 2 pixels, every channel different, alpha included (0, 1, 128, 255 among them).
std::vector<uint8_t> pixels() {
  return {255, 0,  0,  255, 0,   255, 0,   128, 0, 0, 255, 1,
          10,  20, 30, 0,   200, 201, 202, 255, 7, 8, 9,   254};
}

TEST(PngWrite, ReadsBackToTheSamePixelsAsRgba) {
  const test::TempDir dir;
  const std::string path = dir / "p.png";
  std::string error;
  ASSERT_TRUE(gl::write_png(path, 3, 2, pixels(), &error)) << error;
  const std::vector<uint8_t> bytes = file_bytes(path);
  ASSERT_GT(bytes.size(), 33u);
  // The signature, then IHDR: width 3, height 2, depth 8, colour type 6 (RGBA), not interlaced.
  const std::vector<uint8_t> signature = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
  EXPECT_TRUE(std::equal(signature.begin(), signature.end(), bytes.begin()));
  EXPECT_EQ(std::string(bytes.begin() + 12, bytes.begin() + 16), "IHDR");
  EXPECT_EQ(bytes[19], 3);
  EXPECT_EQ(bytes[23], 2);
  EXPECT_EQ(bytes[24], 8);
  EXPECT_EQ(bytes[25], 6);
  EXPECT_EQ(bytes[28], 0);
  int w = 0, h = 0, channels = 0;
  stbi_uc* back = stbi_load(path.c_str(), &w, &h, &channels, 4);
  ASSERT_NE(back, nullptr);
  EXPECT_EQ(w, 3);
  EXPECT_EQ(h, 2);
  EXPECT_EQ(channels, 4);
  EXPECT_EQ(std::vector<uint8_t>(back, back + 24), pixels());
  stbi_image_free(back);
}

TEST(PngWrite, AFailureIsAMessageAndNoFile) {
  const test::TempDir dir;
  std::string error;
  const std::string nowhere = dir / "no such folder/p.png";
  EXPECT_FALSE(gl::write_png(nowhere, 3, 2, pixels(), &error));
  EXPECT_NE(error.find("cannot write " + nowhere), std::string::npos) << error;
  EXPECT_FALSE(std::filesystem::exists(nowhere));

  error.clear();
  const std::string wrong = dir / "wrong.png";
  EXPECT_FALSE(gl::write_png(wrong, 4, 2, pixels(), &error));  // 24 bytes are not 4 x 2 pixels
  EXPECT_NE(error.find("does not match 4x2"), std::string::npos) << error;
  EXPECT_FALSE(std::filesystem::exists(wrong));

  // A device that takes no bytes (a full disk): libpng's failure, and the file removed.
  if (std::filesystem::exists("/dev/full")) {
    error.clear();
    EXPECT_FALSE(gl::write_png("/dev/full", 3, 2, pixels(), &error));
    EXPECT_NE(error.find("cannot write /dev/full"), std::string::npos) << error;
  }
}

}  // namespace
}  // namespace sv
