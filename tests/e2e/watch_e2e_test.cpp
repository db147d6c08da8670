// Live reload (app/file_watch.h) in the real window: a file rewritten under a window started with
// --watch is shown again with the clip and its time kept; a half-written file is refused with the
// previous model kept and the reason shown, and the whole file, once written, is shown. The test
// waits on the window's own state (its reload count, its error line; WindowDriver::wait_until),
// never on a clock of its own: the window settles each change for half a second of its clock.
#include <filesystem>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "../skinned_quad_gltf.h"
#include "../temp_dir.h"
#include "window_driver.h"

namespace sv::test {
namespace {

std::vector<std::string> joint_names(const nlohmann::json& s) {
  std::vector<std::string> names;
  for (const auto& j : s["joints"]) names.push_back(j["name"]);
  return names;
}

// The window's own cache and config stay inside the test's folder.
std::vector<std::string> watch_args(const std::string& model) {
  return {model, "--watch", "--no-cache", "--clip", "bend", "--time", "0.25"};
}

TEST(WatchE2E, ARewrittenFileIsShownWithTheClipAndTimeKept) {
  WindowDriver w;
  SV_REQUIRE_DRIVER(w);
  TempDir dir;
  const std::string model = write_tiny_gltf(dir.path(), "tiny", TinyGltf{});
  ASSERT_TRUE(w.launch(watch_args(model)));
  nlohmann::json s = w.state();
  EXPECT_EQ(s["watch"]["on"], true);
  EXPECT_EQ(s["watch"]["files"], 2);  // the .gltf and its .bin
  EXPECT_EQ(s["watch"]["reloads"], 0);
  EXPECT_EQ(joint_names(s), (std::vector<std::string>{"ROOT", "body", "root", "tip"}));

  // A new joint and a clip twice as long: the joint shows, "bend" stays at 0.25 s, paused.
  TinyGltf changed;
  changed.extra_joint = true;
  changed.duration = 2.0;
  write_tiny_gltf(dir.path(), "tiny", changed);
  s = w.wait_until([](const nlohmann::json& j) { return j["watch"]["reloads"] == 1; });
  EXPECT_EQ(joint_names(s), (std::vector<std::string>{"ROOT", "body", "root", "tip", "extra"}));
  EXPECT_EQ(s["clipName"], "bend");
  EXPECT_NEAR(s["time"].get<double>(), 0.25, 1e-9);
  EXPECT_EQ(s["playing"], false);
  EXPECT_EQ(s["loadError"], "");
  EXPECT_EQ(s["watch"]["files"], 2);

  // Only the .bin changes (a wider quad, same size in bytes): a side file is watched too.
  TinyGltf wider = changed;
  wider.width = 0.8f;
  std::string gltf, bin;
  tiny_gltf(wider, "tiny.bin", &gltf, &bin);
  ASSERT_TRUE(write_file(dir / "tiny.bin", bin));
  s = w.wait_until([](const nlohmann::json& j) { return j["watch"]["reloads"] == 2; });
  EXPECT_EQ(s["clipName"], "bend");
  EXPECT_NEAR(s["time"].get<double>(), 0.25, 1e-9);
  EXPECT_EQ(w.quit(), 0);
}

TEST(WatchE2E, AHalfWrittenFileKeepsThePreviousModelAndSaysWhy) {
  WindowDriver w;
  SV_REQUIRE_DRIVER(w);
  TempDir dir;
  const std::string model = write_tiny_gltf(dir.path(), "tiny", TinyGltf{});
  ASSERT_TRUE(w.launch(watch_args(model)));
  ASSERT_EQ(w.state()["watch"]["on"], true);

  // The first half of the new .gltf, as an exporter stopped mid-write leaves it.
  TinyGltf changed;
  changed.extra_joint = true;
  std::string gltf, bin;
  tiny_gltf(changed, "tiny.bin", &gltf, &bin);
  ASSERT_TRUE(write_file(dir / "tiny.bin", bin));
  ASSERT_TRUE(write_file(model, gltf.substr(0, gltf.size() / 2)));
  nlohmann::json s = w.wait_until([](const nlohmann::json& j) {
    return j["loadError"].get<std::string>().find("Reload failed") != std::string::npos;
  });
  EXPECT_NE(s["loadError"].get<std::string>().find("not a valid glTF"), std::string::npos)
      << s["loadError"];
  EXPECT_EQ(s["watch"]["reloads"], 0);
  EXPECT_EQ(joint_names(s), (std::vector<std::string>{"ROOT", "body", "root", "tip"}))
      << "the previous model is no longer shown";
  EXPECT_EQ(s["clipName"], "bend");
  EXPECT_NEAR(s["time"].get<double>(), 0.25, 1e-9);

  // The rest of the file: the new model, and the error gone.
  ASSERT_TRUE(write_file(model, gltf));
  s = w.wait_until([](const nlohmann::json& j) { return j["watch"]["reloads"] == 1; });
  EXPECT_EQ(joint_names(s), (std::vector<std::string>{"ROOT", "body", "root", "tip", "extra"}));
  EXPECT_EQ(s["loadError"], "");
  EXPECT_EQ(s["clipName"], "bend");
  EXPECT_NEAR(s["time"].get<double>(), 0.25, 1e-9);
  EXPECT_EQ(w.quit(), 0);
}

// The File section's "Watch files", clicked: off, a rewrite is not read; on, it is.
TEST(WatchE2E, TheWatchToggleTurnsLiveReloadOnAndOff) {
  WindowDriver w;
  SV_REQUIRE_DRIVER(w);
  TempDir dir;
  const std::string model = write_tiny_gltf(dir.path(), "tiny", TinyGltf{});
  ASSERT_TRUE(w.launch({model, "--no-cache", "--clip", "bend", "--time", "0.25"}));
  nlohmann::json s = w.state();
  EXPECT_EQ(s["watch"]["on"], false);
  ASSERT_TRUE(w.click_landmark(s, "check:Watch files"));
  s = w.wait_until([](const nlohmann::json& j) { return j["watch"]["on"] == true; });
  EXPECT_EQ(s["watch"]["files"], 2);
  TinyGltf changed;
  changed.extra_joint = true;
  write_tiny_gltf(dir.path(), "tiny", changed);
  s = w.wait_until([](const nlohmann::json& j) { return j["watch"]["reloads"] == 1; });
  EXPECT_EQ(s["joints"].size(), 5u);
  ASSERT_TRUE(w.click_landmark(s, "check:Watch files"));
  s = w.wait_until([](const nlohmann::json& j) { return j["watch"]["on"] == false; });
  EXPECT_EQ(w.quit(), 0);
}

}  // namespace
}  // namespace sv::test
