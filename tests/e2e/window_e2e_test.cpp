// End to end: the real window on its own X server, the real pointer moved by xdotool (see
// window_driver.h), the result read from the window's state and from its frame.
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "window_driver.h"

namespace sv::test {
namespace {

int joint_index(const nlohmann::json& state, const std::string& name) {
  for (std::size_t i = 0; i < state["joints"].size(); ++i) {
    if (state["joints"][i]["name"] == name) return static_cast<int>(i);
  }
  ADD_FAILURE() << "no joint " << name;
  return -1;
}

const nlohmann::json* landmark(const nlohmann::json& state, const std::string& name,
                               int index = -1) {
  for (const auto& m : state["landmarks"]) {
    if (m["name"] == name && (index < 0 || m["index"] == index)) return &m;
  }
  return nullptr;
}

bool near_colour(const unsigned char* p, int r, int g, int b, int tolerance = 6) {
  return std::abs(p[0] - r) <= tolerance && std::abs(p[1] - g) <= tolerance &&
         std::abs(p[2] - b) <= tolerance;
}

// A user session: pick a joint in the outliner, close and reopen the view options, collapse the
// outliner, orbit, open the help, quit. After each step the window's state says what the click
// did; the last frame shows the outliner collapsed (the viewport's background where the panel
// was) and the help overlay.
TEST(WindowE2E, ClicksInTheRealWindowSelectCollapseAndOrbit) {
  WindowDriver w;
  SV_REQUIRE_DRIVER(w);
  w.keep_pictures();
  ASSERT_TRUE(w.launch({kDefault, "--clip", "walk", "--time", "0.5"}));
  nlohmann::json s = w.state();
  // --skinning auto: the GPU path, except where the driver rasterises on the CPU (llvmpipe under
  // Xvfb), whose GPU path is the slower one; the View section says so there.
  EXPECT_EQ(s["skinning"], s["softwareGl"].get<bool>() ? "cpu" : "gpu");
  EXPECT_EQ(s["clipName"], "walk");
  EXPECT_EQ(s["playing"], false);
  EXPECT_NEAR(s["time"].get<double>(), 0.5, 1e-6);
  EXPECT_EQ(s["selectedJoint"], -1);

  const int spine = joint_index(s, "spine_03");
  ASSERT_TRUE(w.click_landmark(s, "joint", spine));
  s = w.state();
  EXPECT_EQ(s["selectedJointName"], "spine_03");

  // The view options' header, with its body open, then the joint tree's header beside it.
  ASSERT_NE(landmark(s, "header:View", 1), nullptr);
  ASSERT_TRUE(w.click_landmark(s, "header:View"));
  s = w.state();
  EXPECT_NE(landmark(s, "header:View", 0), nullptr) << "the View section did not close";
  ASSERT_TRUE(w.click_landmark(s, "header:View"));
  s = w.state();
  EXPECT_NE(landmark(s, "header:View", 1), nullptr) << "the View section did not open again";
  ASSERT_TRUE(w.click_landmark(s, "check:Skeleton"));
  s = w.state();
  EXPECT_EQ(s["skeleton"], true);

  // Orbit: a drag in the viewport turns the camera; the selection stays.
  const auto& v = s["panels"]["viewport"]["rect"];
  const double cx = v[0].get<double>() + 0.5 * v[2].get<double>();
  const double cy = v[1].get<double>() + 0.5 * v[3].get<double>();
  const double yaw = s["camera"]["yaw"].get<double>();
  w.drag(cx, cy, cx + 100, cy);
  s = w.state();
  EXPECT_LT(s["camera"]["yaw"].get<double>(), yaw - 0.3);
  EXPECT_EQ(s["selectedJointName"], "spine_03");

  ASSERT_TRUE(w.click_landmark(s, "collapse:Outliner"));
  s = w.state();
  EXPECT_EQ(s["panels"]["outliner"]["collapsed"], true);
  EXPECT_EQ(s["viewport"][0], 24);
  w.move(cx, cy);
  w.key("F1");
  s = w.state();
  EXPECT_EQ(s["helpOpen"], true);
  // The frame the window showed then: the background where the outliner's list was, and the
  // help overlay's window in the middle (ImGui's window colour, not the viewport's).
  const Picture p = w.picture();
  ASSERT_EQ(p.width, 1280);
  EXPECT_TRUE(near_colour(p.at(120, 300), 46, 48, 54)) << "the outliner still covers x = 120";
  EXPECT_EQ(w.quit(), 0);
}

// "Show back faces" in the real window: --back-faces starts it on, the View section's check box
// turns it off and on with the real pointer, and the window's state says so each time.
TEST(WindowE2E, ShowBackFacesStartsFromTheFlagAndFollowsTheCheckBox) {
  WindowDriver w;
  SV_REQUIRE_DRIVER(w);
  ASSERT_TRUE(w.launch({kDefault, "--rest-pose", "--back-faces"}));
  nlohmann::json s = w.state();
  EXPECT_EQ(s["backFaces"], true);
  ASSERT_TRUE(w.click_landmark(s, "check:Back faces"));
  s = w.state();
  EXPECT_EQ(s["backFaces"], false);
  ASSERT_TRUE(w.click_landmark(s, "check:Back faces"));
  s = w.state();
  EXPECT_EQ(s["backFaces"], true);
  EXPECT_EQ(w.quit(), 0);
}

// The layer stack in the real window: wave added over walk from the inspector raises the right
// hand on screen and leaves the feet; the timeline gains the layer's row; Remove takes it away.
TEST(WindowE2E, ALayerAddedInTheInspectorMovesTheModel) {
  WindowDriver w;
  SV_REQUIRE_DRIVER(w);
  ASSERT_TRUE(w.launch({kDefault, "--clip", "walk", "--time", "0.3"}));
  nlohmann::json s = w.state();
  const int hand = joint_index(s, "hand_r"), head = joint_index(s, "head");
  const int chest = joint_index(s, "spine_03");
  // Framebuffer y grows downwards. (The timeline grows by a row with a layer, so the viewport
  // and every joint's screen position change with it: compare joints with each other.)
  const auto y = [&s](int joint) { return s["joints"][joint]["y"].get<double>(); };
  EXPECT_GT(y(hand), y(chest)) << "walking, the right hand hangs below the chest";
  ASSERT_TRUE(w.click_landmark(s, "combo:Add layer clip"));
  s = w.state();
  ASSERT_TRUE(w.click_landmark(s, "clip", 2));  // wave, in the combo's list
  s = w.state();
  ASSERT_TRUE(w.click_landmark(s, "button:Add layer"));
  s = w.state();
  ASSERT_EQ(s["layers"].size(), 1u);
  EXPECT_EQ(s["layers"][0]["clipName"], "wave");
  EXPECT_LT(y(hand), y(head)) << "waving, the right hand is raised above the head";
  EXPECT_NE(landmark(s, "layer:bar", 0), nullptr);
  ASSERT_TRUE(w.click_landmark(s, "layer:remove", 0));
  s = w.state();
  EXPECT_EQ(s["layers"].size(), 0u);
  EXPECT_GT(y(hand), y(chest));
  EXPECT_EQ(w.quit(), 0);
}

// The skinning method in the real window: --method starts it, M cycles it, the View section's
// radio buttons choose it; CoR's centres are computed in the background (LBS is drawn meanwhile)
// and CoR is drawn once they are known, on both paths.
TEST(WindowE2E, TheSkinningMethodIsChosenByOptionKeyAndRadioButton) {
  WindowDriver w;
  SV_REQUIRE_DRIVER(w);
  ASSERT_TRUE(w.launch(
      {kDefault, "--clip", "twist", "--time", "1", "--method", "dqs", "--skinning", "gpu"}));
  nlohmann::json s = w.state();
  EXPECT_EQ(s["method"], "dqs");
  EXPECT_EQ(s["methodDrawn"], "dqs");
  EXPECT_EQ(s["centers"].get<double>(), -1.0) << "no centres are computed before CoR is chosen";
  // DQS on the GPU path from the compact streams: at least the body (the face may carry a morph
  // weight, which keeps its mesh on the float streams).
  EXPECT_GE(s["compactDrawn"].get<int>(), 1);
  w.key("m");
  s = w.state();
  EXPECT_EQ(s["method"], "cor");
  // The centres are computed off the frame thread, in counts, so they end: wait for them.
  s = w.wait_until([](const nlohmann::json& j) { return j["methodDrawn"] == "cor"; });
  EXPECT_EQ(s["methodDrawn"], "cor");
  EXPECT_EQ(s["centers"].get<double>(), 1.0);
  // The compact streams serve every method: CoR draws from them too, on both paths.
  EXPECT_GE(s["compactDrawn"].get<int>(), 1);
  ASSERT_TRUE(w.click_landmark(s, "radio:CPU"));
  s = w.state();
  EXPECT_EQ(s["skinning"], "cpu");
  EXPECT_EQ(s["methodDrawn"], "cor");
  EXPECT_GE(s["compactDrawn"].get<int>(), 1);
  ASSERT_TRUE(w.click_landmark(s, "radio:LBS"));
  s = w.state();
  EXPECT_EQ(s["method"], "lbs");
  EXPECT_EQ(s["methodDrawn"], "lbs");
  // LBS on the CPU path: at least the body (the face may carry a morph weight) skinned compact.
  EXPECT_GE(s["compactDrawn"].get<int>(), 1);
  ASSERT_TRUE(w.click_landmark(s, "radio:GPU"));
  s = w.state();
  EXPECT_EQ(s["skinning"], "gpu");
  EXPECT_GE(s["compactDrawn"].get<int>(), 1);
  EXPECT_EQ(w.quit(), 0);
}

// The difference views in the real window: picked from the View combo with the pointer, each
// runs every frame and reports through the window's state what its legend shows: LBS vs DQS on
// twist's half-turn the forearm's collapse (over 1% of the model's size), CPU vs GPU agreement
// within the tests' 1e-5 of it.
TEST(WindowE2E, TheDifferenceViewsArePickedFromTheViewCombo) {
  WindowDriver w;
  SV_REQUIRE_DRIVER(w);
  ASSERT_TRUE(w.launch({kDefault, "--clip", "twist", "--time", "1"}));
  nlohmann::json s = w.state();
  EXPECT_TRUE(s["difference"].is_null()) << "no comparison runs with the view off";
  // The combo's popup lists its entries one text row (the combo's height less 2 pixels: frame
  // padding 3 above and below against item spacing 4) apart, under an 8-pixel margin.
  auto pick = [&](int entry) {
    const nlohmann::json* combo = landmark(s, "combo:View");
    ASSERT_NE(combo, nullptr);
    const auto& r = (*combo)["rect"];
    const double x = r[0].get<double>() + 20.0, bottom = r[1].get<double>() + r[3].get<double>();
    w.click(x, r[1].get<double>() + 0.5 * r[3].get<double>());
    w.click(x, bottom + 8.0 + (entry + 0.5) * (r[3].get<double>() - 2.0));
    s = w.state();
  };
  pick(6);
  ASSERT_EQ(s["view"], "method-diff");
  ASSERT_TRUE(s["difference"].is_object());
  EXPECT_EQ(s["difference"]["view"], "method-diff");
  EXPECT_EQ(s["diffMethods"][0], "lbs");
  EXPECT_EQ(s["diffMethods"][1], "dqs");
  const double size = s["difference"]["modelSize"].get<double>();
  EXPECT_GT(s["difference"]["max"].get<double>(), 0.01 * size);
  EXPECT_NE(landmark(s, "combo:Diff B"), nullptr);
  pick(5);
  ASSERT_EQ(s["view"], "cpu-gpu");
  ASSERT_TRUE(s["difference"].is_object());
  EXPECT_EQ(s["difference"]["view"], "cpu-gpu");
  EXPECT_LE(s["difference"]["max"].get<double>(), 1e-5 * size);
  EXPECT_EQ(s["difference"]["over"], 0);
  EXPECT_EQ(w.quit(), 0);
}

// Play at the end of a clip that does not loop starts it over, clicked in the real timeline.
TEST(WindowE2E, PlayAtTheEndOfAClipThatDoesNotLoopStartsItOver) {
  WindowDriver w;
  SV_REQUIRE_DRIVER(w);
  ASSERT_TRUE(w.launch({kDefault, "--clip", "wave", "--time", "100"}));
  nlohmann::json s = w.state();
  EXPECT_NEAR(s["time"].get<double>(), 2.0, 1e-6);  // clamped to wave's end
  ASSERT_TRUE(w.click_landmark(s, "check:Loop"));
  s = w.state();
  EXPECT_EQ(s["loop"], false);
  ASSERT_TRUE(w.click_landmark(s, "button:Play"));
  s = w.state();
  EXPECT_EQ(s["playing"], true);
  // Started over: no longer at wave's end (2 s), where a play that did not start over stays.
  EXPECT_LT(s["time"].get<double>(), 2.0) << "play did not start the clip over";
  EXPECT_EQ(w.quit(), 0);
}

// A file opened from the window that hangs its reader (a FIFO with no writer) leaves the window
// drawing and the model on screen while the read waits; the read is then ended by the test, not
// by a clock: a writer opens the FIFO and closes it, the reader gets an empty file and fails, and
// the previous model stays. (The give-up at --time-limit is the loader's, tested without a window
// in model_loader_test.cpp, import_process_test.cpp and cli_test.cpp.)
TEST(WindowE2E, AFileThatHangsTheReaderDoesNotFreezeTheWindow) {
  WindowDriver w;
  SV_REQUIRE_DRIVER(w);
  const std::string fifo = w.config_home() + "_hang.x";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  ASSERT_TRUE(w.launch({kDefault}));
  nlohmann::json s = w.state();
  ASSERT_TRUE(w.click_landmark(s, "input:path"));
  w.key("ctrl+a");
  w.type(fifo);
  w.key("Return");
  s = w.state();
  EXPECT_EQ(s["loading"], fifo);
  // The window keeps drawing while the read hangs: state() answers after the window's next frame,
  // so a second answer during the read, with another frame number, is a frame drawn meanwhile (a
  // frozen window would not answer at all). Counted in frames, not seconds.
  const long frame = s["frame"].get<long>();
  const nlohmann::json during = w.state();
  EXPECT_EQ(during["loading"], fifo);
  EXPECT_GT(during["frame"].get<long>(), frame) << "the window stopped drawing";
  // End the read: a non-blocking open for writing succeeds while a reader waits in its open
  // (ENXIO when none does), and closing it at once gives that reader end-of-file. The importer
  // opens the file more than once (a format check per reader), so writers open and close until
  // the load is over, one window frame apart, at most kMaxFrames of them (a count, not a clock:
  // a few frames suffice on any machine).
  constexpr int kMaxFrames = 2000;
  bool opened = false;
  for (int f = 0; f < kMaxFrames && s["loading"] != ""; ++f) {
    if (const int writer = ::open(fifo.c_str(), O_WRONLY | O_NONBLOCK); writer >= 0) {
      opened = true;
      ::close(writer);
    }
    s = w.state();
  }
  EXPECT_TRUE(opened) << "nothing opened the FIFO for reading";
  ASSERT_EQ(s["loading"], "") << "the read did not end";
  EXPECT_NE(s["loadError"], "") << "an empty file read as a model";
  EXPECT_EQ(s["model"], kDefault);  // the previous model stays
  EXPECT_EQ(w.quit(), 0);
  std::filesystem::remove(fifo);
}

// A file opened from the window whose import crashes (the worker made to crash on purpose, for
// this file only) leaves the window drawing and the model on screen, with the one-line error.
TEST(WindowE2E, AFileWhoseImportCrashesLeavesTheWindowAndItsModel) {
  WindowDriver w;
  SV_REQUIRE_DRIVER(w);
  const std::string bad = w.config_home() + "_crash_me.x";
  std::ofstream(bad) << "xof 0303txt 0032\n";
  ::setenv("SKINVIEW_IMPORT_FAULT", "segv:_crash_me", 1);
  const bool launched = w.launch({kDefault});
  ::unsetenv("SKINVIEW_IMPORT_FAULT");
  ASSERT_TRUE(launched);
  nlohmann::json s = w.state();
  ASSERT_TRUE(w.click_landmark(s, "input:path"));
  w.key("ctrl+a");
  w.type(bad);
  w.key("Return");
  s = w.wait_until([](const nlohmann::json& j) { return j["loadError"] != ""; });
  EXPECT_EQ(s["loadError"], bad + ": the importer crashed (SIGSEGV) reading it; refused");
  EXPECT_EQ(s["model"], kDefault);  // the previous model stays
  // Still drawing: it answers again, with a later frame (a stopped window would not answer).
  EXPECT_GT(w.state()["frame"].get<long>(), s["frame"].get<long>()) << "the window stopped drawing";
  EXPECT_EQ(w.quit(), 0);
  std::filesystem::remove(bad);
}

// The file browser: a click selects, Enter opens, the new file starts with a fresh camera and
// the shaded view, and Recent remembers the file in the window's XDG_CONFIG_HOME, where a second
// window finds it.
TEST(WindowE2E, TheBrowserOpensAFileAndRecentSurvivesARestart) {
  WindowDriver w;
  SV_REQUIRE_DRIVER(w);
  const std::string models = std::string(SKINVIEW_TEST_MODELS) + "/X";
  ASSERT_TRUE(w.launch({models + "/anim_test.x", "--view", "weights"}));
  nlohmann::json s = w.state();
  EXPECT_EQ(s["view"], "weights");
  const double opening_yaw = s["camera"]["yaw"].get<double>();
  {
    const auto& v = s["panels"]["viewport"]["rect"];
    const double cx = v[0].get<double>() + 0.5 * v[2].get<double>();
    const double cy = v[1].get<double>() + 0.5 * v[3].get<double>();
    w.drag(cx, cy, cx + 120, cy + 40);
  }
  s = w.state();
  EXPECT_GT(std::abs(s["camera"]["yaw"].get<double>() - opening_yaw), 0.3);
  ASSERT_TRUE(w.click_landmark(s, "node:Browse"));
  s = w.state();
  // The browser starts in the model's folder and lists its .x/.X files sorted without regard to
  // case (the .txt, .tga and .png files are not models): Testwuson.X comes last.
  std::vector<std::string> expected;
  for (const auto& e : std::filesystem::directory_iterator(models)) {
    const std::string ext = e.path().extension().string();
    if (ext == ".x" || ext == ".X") expected.push_back(e.path().filename().string());
  }
  auto lower = [](std::string t) {
    for (char& c : t) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return t;
  };
  std::sort(expected.begin(), expected.end(),
            [&](const std::string& a, const std::string& b) { return lower(a) < lower(b); });
  ASSERT_EQ(expected.back(), "Testwuson.X");
  const int index = static_cast<int>(expected.size()) - 1;
  const nlohmann::json* entry = landmark(s, "entry", index);
  ASSERT_NE(entry, nullptr) << "the browser lists fewer than " << expected.size() << " files";
  EXPECT_EQ(landmark(s, "entry", index + 1), nullptr) << "the browser lists files it cannot read";
  // A copy: `s` is replaced below.
  const double ex = (*entry)["rect"][0].get<double>() + 10;
  const double ey = (*entry)["rect"][1].get<double>() + 0.5 * (*entry)["rect"][3].get<double>();
  w.click(ex, ey);
  s = w.state();
  EXPECT_EQ(s["model"], models + "/anim_test.x") << "a single click must only select";
  // Enter opens the selected entry. (A double click opens too: tests/ui drives that headless,
  // where frames come at a fixed rate; here, on a loaded machine, a frame can take longer than
  // ImGui 1.86's double-click time and the two clicks would arrive as one.)
  w.key("Return");
  // Read by the import worker: bounded by its time limit, so only the watchdog bounds this.
  s = w.wait_until([&](const nlohmann::json& j) {
    return j["model"] != models + "/anim_test.x" || j["loadError"] != "";
  });
  const std::string opened = s["model"];
  EXPECT_EQ(opened, models + "/Testwuson.X") << "Enter did not open the file";
  EXPECT_EQ(s["view"], "shaded");
  EXPECT_NEAR(s["camera"]["yaw"].get<double>(), opening_yaw, 1e-6) << "the camera carried over";
  EXPECT_EQ(s["recent"][0], opened);
  EXPECT_EQ(w.quit(), 0);
  // A second window on the same config folder lists it in Recent.
  ASSERT_TRUE(w.launch({models + "/anim_test.x"}));
  s = w.state();
  ASSERT_GE(s["recent"].size(), 2u);
  EXPECT_EQ(s["recent"][0], models + "/anim_test.x");
  EXPECT_EQ(s["recent"][1], opened);
  EXPECT_EQ(w.quit(), 0);
}

}  // namespace
}  // namespace sv::test
