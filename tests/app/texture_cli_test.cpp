// Hostile texture paths through the real skinview (issue 22): a material naming /dev/zero, a
// FIFO, a PNG outside the model's folder (by `..`, by absolute path, by a symbolic link) and a
// small PNG declaring 16k x 16k. Each run ends with exit 0 (the model loads, the texture is named
// in the report) under --memory-limit 256 --time-limit 5, and an export embeds only images the
// worker loaded under the rules: never a file's bytes, never a file from outside the folder
// unless --texture-path allowed it. Every file is made in the test (tests/png_maker.h).
#include <sys/stat.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "app/cli_util.h"
#include "json_file.h"
#include "png_maker.h"
#include "temp_dir.h"

namespace sv::test {
namespace {

namespace fs = std::filesystem;

const std::string kMarker = "skinview-test-private-picture";

std::vector<std::string> bounded(std::vector<std::string> args) {
  args.insert(args.begin(), kExe);
  args.insert(args.end(), {"--no-cache", "--memory-limit", "256", "--time-limit", "5"});
  return args;
}

// `skinview MODEL --info` (bounded): expects exit 0 and returns stdout.
std::string info(const std::string& model, std::vector<std::string> extra = {}) {
  extra.insert(extra.begin(), {model, "--info"});
  const ProcessResult r = run_process(bounded(extra));
  EXPECT_TRUE(r.exited()) << "timed out or crashed";
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  return r.out;
}

// `skinview MODEL --export-pose OUT.glb` (bounded): expects exit 0; returns the file's bytes.
std::string export_glb(const TempDir& dir, const std::string& model,
                       std::vector<std::string> extra = {}) {
  const std::string out = dir / "posed.glb";
  extra.insert(extra.begin(), {model, "--export-pose", out});
  const ProcessResult r = run_process(bounded(extra));
  EXPECT_TRUE(r.exited()) << "timed out or crashed";
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return slurp(out);
}

// The JSON chunk of a .glb.
nlohmann::json glb_json(const std::string& glb) {
  uint32_t length = 0;
  if (glb.size() < 20) return {};
  std::memcpy(&length, glb.data() + 12, 4);
  return parse_json(std::string_view(glb).substr(20, length));
}

std::vector<uint8_t> pixels(uint32_t w, uint32_t h, uint8_t seed) {
  std::vector<uint8_t> rgba(std::size_t{w} * h * 4);
  for (std::size_t i = 0; i < rgba.size(); ++i) rgba[i] = static_cast<uint8_t>(seed + i * 7);
  return rgba;
}

bool contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

TEST(TextureCli, DevZeroIsNotRead) {
  TempDir dir;
  const std::string model = write_textured_obj(dir.path(), "/dev/zero");
  const std::string out = info(model);
  EXPECT_TRUE(contains(out,
                       "Texture '/dev/zero' of material 'skin' was not loaded: it resolves "
                       "to /dev/zero, outside the model's folder"))
      << out;
  const nlohmann::json doc = glb_json(export_glb(dir, model));
  EXPECT_FALSE(doc.contains("images")) << doc.dump();
  // Allowed as a folder, /dev/zero is still not a regular file.
  EXPECT_TRUE(
      contains(info(model, {"--texture-path", "/dev"}), "a character device, not a regular file"));
}

TEST(TextureCli, AFifoIsNotOpenedForReading) {
  TempDir dir;
  ASSERT_EQ(::mkfifo((dir / "skin.png").c_str(), 0600), 0);
  const std::string model = write_textured_obj(dir.path(), "skin.png");
  EXPECT_TRUE(contains(info(model), "a FIFO, not a regular file"));
  EXPECT_FALSE(glb_json(export_glb(dir, model)).contains("images"));
}

TEST(TextureCli, APictureOutsideTheFolderIsNeverEmbedded) {
  TempDir root;
  fs::create_directories(root / "model");
  fs::create_directories(root / "private");
  const std::vector<uint8_t> secret = make_png(4, 4, pixels(4, 4, 9), kMarker);
  write_bytes(root / "private/secret.png", secret);
  const std::string secret_bytes(secret.begin(), secret.end());
  fs::create_symlink(root / "private/secret.png", root / "model/innocent.png");
  for (const std::string& texture :
       {std::string("../private/secret.png"), fs::canonical(root / "private/secret.png").string(),
        std::string("innocent.png")}) {
    const std::string model = write_textured_obj(root / "model", texture);
    EXPECT_TRUE(contains(info(model), "outside the model's folder")) << texture;
    const std::string glb = export_glb(root, model);
    EXPECT_FALSE(glb_json(glb).contains("images")) << texture;
    EXPECT_FALSE(contains(glb, kMarker)) << texture;
  }
  // Allowed with --texture-path: embedded, as pixels encoded again, not as the file's bytes.
  const std::string model = write_textured_obj(root / "model", "../private/secret.png");
  const std::string glb = export_glb(root, model, {"--texture-path", root / "private"});
  const nlohmann::json doc = glb_json(glb);
  ASSERT_TRUE(doc.contains("images")) << doc.dump();
  EXPECT_EQ(doc["images"].size(), 1u);
  EXPECT_EQ(doc["images"][0]["mimeType"], "image/png");
  EXPECT_FALSE(contains(glb, kMarker));
  EXPECT_FALSE(contains(glb, secret_bytes));
}

TEST(TextureCli, ASmallPngDeclaring16kBy16kIsRefusedUnread) {
  TempDir dir;
  // 16384 x 16384 declared (1 GiB of RGBA), one row stored: a few hundred bytes.
  write_bytes(dir / "skin.png", make_png(16384, 16384, std::vector<uint8_t>(16384 * 4)));
  ASSERT_LT(fs::file_size(dir / "skin.png"), 4096u);
  const std::string model = write_textured_obj(dir.path(), "skin.png");
  const std::string out = info(model);
  EXPECT_TRUE(contains(out, "16384 x 16384 pixels, more than the limit of 16777216 per image"))
      << out;
  EXPECT_FALSE(glb_json(export_glb(dir, model)).contains("images"));
}

TEST(TextureCli, ATextureInsideTheFolderIsLoadedAndExported) {
  TempDir dir;
  write_bytes(dir / "skin.png", make_png(4, 2, pixels(4, 2, 3), kMarker));
  const std::string model = write_textured_obj(dir.path(), "skin.png");
  const std::string out = info(model);
  EXPECT_FALSE(contains(out, "was not loaded")) << out;
  const std::string glb = export_glb(dir, model);
  const nlohmann::json doc = glb_json(glb);
  ASSERT_TRUE(doc.contains("images"));
  int textured = 0;  // assimp adds a default material before the OBJ's own
  for (const auto& m : doc["materials"])
    if (m["name"] == "skin") {
      EXPECT_EQ(m["pbrMetallicRoughness"]["baseColorTexture"]["index"], 0);
      ++textured;
    }
  EXPECT_EQ(textured, 1);
  EXPECT_FALSE(contains(glb, kMarker)) << "the pixels are encoded again, the file is not copied";
}

}  // namespace
}  // namespace sv::test
