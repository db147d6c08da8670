// The import worker's texture rules (import/images.h), in the test's own process: which paths
// resolve, which files are opened, what is decoded and within which sizes. Every input is made
// here (tests/png_maker.h); the hostile ones are a FIFO, /dev/zero, a symbolic link out of the
// model's folder, a PNG outside it and a small PNG declaring 16k x 16k.
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "import/images.h"
#include "import/worker_import.h"
#include "png_maker.h"
#include "temp_dir.h"

namespace sv {
namespace {

namespace fs = std::filesystem;
using test::TempDir;

std::vector<uint8_t> checker(uint32_t w, uint32_t h) {
  std::vector<uint8_t> rgba;
  for (uint32_t y = 0; y < h; ++y)
    for (uint32_t x = 0; x < w; ++x)
      rgba.insert(rgba.end(), {static_cast<uint8_t>(x * 40), static_cast<uint8_t>(y * 40),
                               static_cast<uint8_t>((x + y) % 2 ? 255 : 0), 200});
  return rgba;
}

TEST(Images, APngDecodesToItsPixels) {
  const std::vector<uint8_t> want = checker(3, 2);
  Image im;
  ASSERT_EQ(decode_image(test::make_png(3, 2, want), "png", kMaxImagePixelsTotal, im), "");
  EXPECT_EQ(im.width, 3u);
  EXPECT_EQ(im.height, 2u);
  EXPECT_EQ(im.rgba, want);
}

TEST(Images, ASizePastTheLimitsIsRefusedFromTheHeaderAlone) {
  // 16k x 16k declared, one row stored: a few hundred bytes that would decode to 1 GiB.
  const std::vector<uint8_t> huge = test::make_png(16384, 16384, std::vector<uint8_t>(16384 * 4));
  ASSERT_LT(huge.size(), 4096u);
  Image im;
  const std::string e = decode_image(huge, "png", kMaxImagePixelsTotal, im);
  EXPECT_NE(e.find("16384 x 16384 pixels, more than the limit of 16777216 per image"),
            std::string::npos)
      << e;
  EXPECT_TRUE(im.rgba.empty());
  // Past a side: 20000 x 1.
  EXPECT_NE(
      decode_image(test::make_png(20000, 1, {}), "png", kMaxImagePixelsTotal, im).find("on a side"),
      std::string::npos);
  // Within the per-image limit, past the budget left.
  const std::string b = decode_image(test::make_png(100, 100, {}), "png", 9999, im);
  EXPECT_NE(b.find("more than the 9999 pixels left"), std::string::npos) << b;
}

TEST(Images, OnlyKnownSignaturesReachTheDecoder) {
  Image im;
  const std::vector<uint8_t> text = {
      'P', '6', '\n', '1',  ' ', '1', '\n',
      '2', '5', '5',  '\n', 1,   2,   3};  // a valid PPM: not offered to stb
  EXPECT_EQ(decode_image(text, "ppm", kMaxImagePixelsTotal, im),
            "not a PNG, JPEG, BMP, GIF or TGA image");
  EXPECT_EQ(decode_image(text, "tga", kMaxImagePixelsTotal, im),
            "not a PNG, JPEG, BMP, GIF or TGA image");
  EXPECT_EQ(decode_image({}, "png", kMaxImagePixelsTotal, im), "an empty image");
  std::vector<uint8_t> cut = test::make_png(4, 4, checker(4, 4));
  cut.resize(cut.size() / 2);
  EXPECT_NE(decode_image(cut, "png", kMaxImagePixelsTotal, im), "");
}

TEST(Images, OnlyRegularFilesAreRead) {
  TempDir dir;
  std::vector<uint8_t> bytes;
  // A FIFO with no writer: opening it must not wait, reading it must not start.
  ASSERT_EQ(::mkfifo((dir / "fifo.png").c_str(), 0600), 0);
  EXPECT_EQ(read_regular_file(dir / "fifo.png", kMaxImageFileBytes, bytes),
            "a FIFO, not a regular file");
  EXPECT_EQ(read_regular_file("/dev/zero", kMaxImageFileBytes, bytes),
            "a character device, not a regular file");
  EXPECT_TRUE(bytes.empty());
  EXPECT_EQ(read_regular_file(dir.path(), kMaxImageFileBytes, bytes),
            "a folder, not a regular file");
  // A symbolic link is not followed at the open (the resolver follows links before it).
  test::write_bytes(dir / "a.png", {1, 2, 3});
  fs::create_symlink(dir / "a.png", dir / "link.png");
  EXPECT_NE(read_regular_file(dir / "link.png", kMaxImageFileBytes, bytes).find("symbolic link"),
            std::string::npos);
  // The size is checked before a byte is read.
  EXPECT_EQ(read_regular_file(dir / "a.png", 2, bytes), "3 bytes, more than the limit of 2");
  EXPECT_EQ(read_regular_file(dir / "a.png", 3, bytes), "");
  EXPECT_EQ(bytes, (std::vector<uint8_t>{1, 2, 3}));
}

TEST(Images, TexturesResolveOnlyInsideTheModelsFolderOrAnAllowedOne) {
  TempDir root;
  fs::create_directories(root / "model/textures");
  fs::create_directories(root / "private");
  test::write_bytes(root / "model/textures/skin.png", {1});
  test::write_bytes(root / "private/secret.png", {2});
  fs::create_symlink(root / "private/secret.png", root / "model/textures/innocent.png");
  ImageRules rules;
  rules.model_dir = root / "model";
  std::string why;
  const std::string skin = fs::canonical(root / "model/textures/skin.png").string();
  EXPECT_EQ(resolve_texture("textures/skin.png", rules, &why), skin);
  EXPECT_EQ(resolve_texture("textures\\skin.png", rules, &why), skin);  // written on Windows
  EXPECT_EQ(resolve_texture(skin, rules, &why), skin);                  // absolute, but inside
  for (const std::string& out :
       {std::string("../private/secret.png"), fs::canonical(root / "private/secret.png").string(),
        std::string("textures/innocent.png"), std::string("textures/../../private/secret.png")}) {
    why.clear();
    EXPECT_EQ(resolve_texture(out, rules, &why), "") << out;
    EXPECT_NE(why.find("outside the model's folder"), std::string::npos) << why;
  }
  EXPECT_EQ(resolve_texture("textures/none.png", rules, &why), "");
  EXPECT_EQ(why, "no such file");
  // A folder named like the model's, as a prefix of the path only, is not inside it.
  fs::create_directories(root / "model2");
  test::write_bytes(root / "model2/x.png", {3});
  EXPECT_EQ(resolve_texture("../model2/x.png", rules, &why), "");
  // --texture-path allows another tree.
  rules.allowed_dirs = {root / "private"};
  EXPECT_EQ(resolve_texture("textures/innocent.png", rules, &why),
            fs::canonical(root / "private/secret.png").string());
  // A model held in memory opens nothing.
  EXPECT_EQ(resolve_texture("textures/skin.png", ImageRules{}, &why), "");
}

bool lists(const std::vector<std::string>& files, const std::string& name) {
  return std::any_of(files.begin(), files.end(),
                     [&](const std::string& f) { return fs::path(f).filename() == name; });
}

TEST(Images, AnObjsTexturesAreDecodedOrNamedInTheReport) {
  TempDir root;
  fs::create_directories(root / "model");
  fs::create_directories(root / "private");
  test::write_bytes(root / "model/skin.png", test::make_png(2, 2, checker(2, 2)));
  test::write_bytes(root / "private/secret.png", test::make_png(2, 2, checker(2, 2)));

  const ImportResult good = import_file_here(test::write_textured_obj(root / "model", "skin.png"));
  ASSERT_TRUE(good.ok()) << good.error;
  ASSERT_EQ(good.model->images.size(), 1u);
  EXPECT_EQ(good.model->images[0].rgba, checker(2, 2));
  EXPECT_EQ(good.report.textures_not_loaded, 0u);
  EXPECT_TRUE(lists(good.provenance.read_files, "skin.png")) << "a cache must know the texture";

  for (const std::string& texture :
       {std::string("../private/secret.png"), fs::canonical(root / "private/secret.png").string(),
        std::string("/dev/zero")}) {
    const ImportResult r = import_file_here(test::write_textured_obj(root / "model", texture));
    ASSERT_TRUE(r.ok()) << r.error;
    EXPECT_TRUE(r.model->images.empty()) << texture;
    EXPECT_EQ(r.model->materials.at(0).image, -1);
    EXPECT_EQ(r.report.textures_not_loaded, 1u);
    EXPECT_FALSE(lists(r.provenance.read_files, "secret.png"));
    const bool noted = std::any_of(r.report.notes.begin(), r.report.notes.end(), [&](auto& n) {
      return n.find("Texture '" + texture + "' of material 'skin' was not loaded") == 0 &&
             n.find("outside the model's folder") != std::string::npos;
    });
    EXPECT_TRUE(noted) << texture;
  }
  // Allowed: decoded.
  ImageRules allow;
  allow.allowed_dirs = {root / "private"};
  const ImportResult allowed =
      import_file_here(test::write_textured_obj(root / "model", "../private/secret.png"), allow);
  ASSERT_TRUE(allowed.ok()) << allowed.error;
  EXPECT_EQ(allowed.model->images.size(), 1u);
  // Allowed, but a device: not a regular file.
  allow.allowed_dirs = {"/dev"};
  const ImportResult dev =
      import_file_here(test::write_textured_obj(root / "model", "/dev/zero"), allow);
  ASSERT_TRUE(dev.ok()) << dev.error;
  EXPECT_TRUE(dev.model->images.empty());
  ASSERT_FALSE(dev.report.notes.empty());
  EXPECT_NE(dev.report.notes[0].find("a character device, not a regular file"), std::string::npos)
      << dev.report.notes[0];
  // The pixel budget: 4 pixels are more than 3.
  ImageRules small;
  small.pixel_budget = 3;
  const ImportResult over =
      import_file_here(test::write_textured_obj(root / "model", "skin.png"), small);
  ASSERT_TRUE(over.ok()) << over.error;
  EXPECT_TRUE(over.model->images.empty());
  EXPECT_EQ(over.report.textures_not_loaded, 1u);
}

}  // namespace
}  // namespace sv
