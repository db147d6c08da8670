// --range NAME:CLIP:START:END (app/clip_ranges.h) through the real executable, on the tiny glTF
// the tests write (tests/skinned_quad_gltf.h: "tip" turns a quarter turn about Z over "bend"'s 1 s,
// keys every 0.25 s, so frames count 4 a second), on the default character, and on Minetest's
// character.b3d where Debian's minetest-data is installed. A range is a clip for --clip, --layer
// and --dump; ranges saved beside the model come back with every load; bad ranges exit 2.
#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <glm/vec2.hpp>

#include "app/clip_ranges.h"
#include "cli_util.h"
#include "skinned_quad_gltf.h"
#include "temp_dir.h"

namespace sv::test {
namespace {

const std::string kRangeCharacter = std::string(SKINVIEW_SOURCE_DIR) + "/assets/default.glb";
const std::string kCharacterB3d =
    "/usr/share/games/minetest/games/minetest_game/mods/player_api/models/character.b3d";

// The quad's top-right vertex (index 3) in a --dump.
glm::vec2 top_right(const nlohmann::json& dump) {
  const auto& p = dump["meshes"][0]["positions"];
  return {p[9].get<float>(), p[10].get<float>()};
}

// The top-right vertex, 0.2 to the right of "tip" (at y = 1), with tip turned `degrees` about Z.
glm::vec2 turned(double degrees) {
  const double a = degrees * M_PI / 180.0;
  return {static_cast<float>(0.2 * std::cos(a)), static_cast<float>(1.0 + 0.2 * std::sin(a))};
}

std::string tiny(const TempDir& dir) {
  TinyGltf m;
  m.keys = 5;
  return write_tiny_gltf(dir.path(), "tiny", m);
}

TEST(RangeCli, ARangeIsTheClipFromItsStartInSecondsOrFrames) {
  TempDir dir;
  const std::string model = tiny(dir);
  // 0.25 s to 0.75 s of a 90-degree turn over 1 s: 22.5 degrees at its 0, 45 at 0.25, 67.5 at 0.5.
  for (const std::string spec : {"half:bend:0.25:0.75", "half:bend:1f:3f", "half:0:1F:3F"}) {
    SCOPED_TRACE(spec);
    for (const auto& [t, degrees] :
         std::vector<std::pair<std::string, double>>{{"0", 22.5}, {"0.25", 45.0}, {"0.5", 67.5}}) {
      const nlohmann::json d = dump({"--range", spec, "--clip", "half", "--time", t}, model);
      const glm::vec2 v = top_right(d), want = turned(degrees);
      EXPECT_NEAR(v.x, want.x, 1e-5) << t;
      EXPECT_NEAR(v.y, want.y, 1e-5) << t;
    }
  }
  // Past its end the range holds its last pose (it loops in the window, as clips do).
  const glm::vec2 end =
      top_right(dump({"--range", "half:bend:0.25:0.75", "--clip", "half", "--time", "5"}, model));
  EXPECT_NEAR(end.y, turned(67.5).y, 1e-5);
}

TEST(RangeCli, ARangeIsALayerLikeAnyClip) {
  TempDir dir;
  const std::string model = tiny(dir);
  // bend at 0.25 s (22.5 degrees) under the range at its 0.25 s (45), at full weight: 45.
  const nlohmann::json d = dump(
      {"--range", "half:bend:0.25:0.75", "--clip", "bend", "--time", "0.25", "--layer", "half"},
      model);
  EXPECT_NEAR(top_right(d).x, turned(45.0).x, 1e-5);
  EXPECT_NEAR(top_right(d).y, turned(45.0).y, 1e-5);
  // --info lists it among the clips and says where it came from.
  ProcessResult r = run_process({kExe, "--info", model, "--range", "half:bend:1f:3f"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("[1] 'half': 0.5 s"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("--range half:bend:1f:3f: added, 0.5 s"), std::string::npos) << r.out;
}

TEST(RangeCli, ARangeOfTheDefaultCharacterPosesAsItsClipDoes) {
  // walk's 0.2 s to 0.7 s: every vertex where walk puts it at 0.2 s + t.
  for (const std::string t : {"0", "0.13", "0.5"}) {
    const nlohmann::json part =
        dump({"--range", "step:walk:0.2:0.7", "--clip", "step", "--time", t}, kRangeCharacter);
    const nlohmann::json whole =
        dump({"--clip", "walk", "--time", std::to_string(0.2 + std::stod(t))}, kRangeCharacter);
    ASSERT_EQ(part["meshes"].size(), whole["meshes"].size());
    double worst = 0.0;
    for (std::size_t m = 0; m < part["meshes"].size(); ++m) {
      const auto& a = part["meshes"][m]["positions"];
      const auto& b = whole["meshes"][m]["positions"];
      ASSERT_EQ(a.size(), b.size());
      for (std::size_t i = 0; i < a.size(); ++i)
        worst = std::max(worst, std::abs(a[i].get<double>() - b[i].get<double>()));
    }
    EXPECT_LT(worst, 1e-5) << "at " << t;
  }
}

TEST(RangeCli, SavedRangesComeBackWithEveryLoad) {
  TempDir dir;
  const std::string model = tiny(dir);
  std::vector<ClipRange> saved(2);
  saved[0] = {"late", "bend", 2, 4, true};  // 0.5 s to 1 s
  saved[1] = {"gone", "nope", 0, 1, false};
  ASSERT_EQ(write_ranges_sidecar(ranges_sidecar_path(model), saved), "");
  const nlohmann::json d = dump({"--clip", "late", "--time", "0"}, model);
  EXPECT_NEAR(top_right(d).y, turned(45.0).y, 1e-5);
  ProcessResult r = run_process({kExe, "--info", model});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("'late': 0.5 s"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("tiny.gltf.ranges.json: range 'gone:nope:0:1': no clip 'nope'; left out"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("added 1 saved clip range"), std::string::npos) << r.out;
  // A --range of the same name replaces the saved one.
  const nlohmann::json e =
      dump({"--range", "late:bend:0:0.5", "--clip", "late", "--time", "0"}, model);
  EXPECT_NEAR(top_right(e).y, turned(0.0).y, 1e-5);
  // A sidecar that is not one: the model still loads, the report says why.
  ASSERT_TRUE(write_file(ranges_sidecar_path(model), "{\"ranges\": 3}"));
  r = run_process({kExe, "--info", model});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("not a ranges file"), std::string::npos) << r.out;
}

TEST(RangeCli, BadRangesAreOneLineErrors) {
  TempDir dir;
  const std::string model = tiny(dir);
  const auto bad = [&](const std::string& spec, const std::string& says) {
    SCOPED_TRACE(spec);
    expect_bad_input({kExe, "--dump", model, "--range", spec, "-o", "/dev/null"}, says);
  };
  bad("nope:bend:0.5", "want NAME:CLIP:START:END");
  bad("x:bend:0.5:0.25", "END must come after START");
  bad("x:bend:1f:0.5", "same unit");
  bad("x:bend:-1:0.5", "want NAME:CLIP:START:END");
  bad("x:walk:0:0.5", "no clip 'walk'");
  bad("x:bend:0:2", "past the clip's end");
  bad("bend:bend:0:0.5", "the model has a clip named 'bend'");
}

// Minetest's player keeps stand (frames 0-79), walk (168-187) and mine (189-198) in one clip of
// 221 frames at 60 keys a second: each range is that many frames long.
TEST(RangeCli, MinetestsCharacterSplitsIntoItsAnimations) {
  if (!std::filesystem::exists(kCharacterB3d))
    GTEST_SKIP() << kCharacterB3d << " is not installed (Debian's minetest-data)";
  ProcessResult r =
      run_process({kExe, "--info", kCharacterB3d, "--range", "stand:0:0f:79f", "--range",
                   "walk:clip 0:168f:187f", "--range", "mine:0:189f:198f"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("'stand': 1.317 s"), std::string::npos) << r.out;  // 79 / 60
  EXPECT_NE(r.out.find("'walk': 0.3167 s"), std::string::npos) << r.out;  // 19 / 60
  EXPECT_NE(r.out.find("'mine': 0.15 s"), std::string::npos) << r.out;    // 9 / 60
  // walk at its 0.1 s is clip 0 at 168 / 60 + 0.1 s.
  const nlohmann::json part =
      dump({"--range", "walk:0:168f:187f", "--clip", "walk", "--time", "0.1"}, kCharacterB3d);
  const nlohmann::json whole = dump({"--clip", "0", "--time", "2.9"}, kCharacterB3d);
  const auto& a = part["meshes"][0]["positions"];
  const auto& b = whole["meshes"][0]["positions"];
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t i = 0; i < a.size(); ++i)
    ASSERT_NEAR(a[i].get<double>(), b[i].get<double>(), 1e-4) << i;
}

}  // namespace
}  // namespace sv::test
