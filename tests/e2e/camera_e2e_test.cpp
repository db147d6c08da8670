// End to end: the camera's keys in the real window (Xvfb, xdotool; window_driver.h), read back
// from --exit-json: the orthographic side and top views and perspective again, frame selected
// and frame all, zoom toward the cursor, the view history, F12's picture, and a crowd turned on
// and off reframing.
#include <cmath>
#include <filesystem>
#include <string>

#include <gtest/gtest.h>

#include "window_driver.h"

namespace sv::test {
namespace {

constexpr double kQuarter = 1.5707963267948966;

const nlohmann::json& joint(const nlohmann::json& s, const std::string& name) {
  for (const auto& j : s["joints"]) {
    if (j["name"] == name) return j;
  }
  ADD_FAILURE() << "no joint " << name;
  static const nlohmann::json none = {{"x", 0.0}, {"y", 0.0}};
  return none;
}

double x_of(const nlohmann::json& s, const std::string& name) {
  return joint(s, name)["x"].get<double>();
}
double y_of(const nlohmann::json& s, const std::string& name) {
  return joint(s, name)["y"].get<double>();
}

// Puts the pointer in the middle of the viewport (the keyboard follows it: no window manager).
void point_at_viewport(WindowDriver& w, const nlohmann::json& s) {
  const auto& v = s["panels"]["viewport"]["rect"];
  w.move(v[0].get<double>() + 0.5 * v[2].get<double>(),
         v[1].get<double>() + 0.5 * v[3].get<double>());
}

// Numpad 3 looks from the right, orthographic: the default character's left and right shoulders
// (mirror images across x, the view's depth) fall on the same pixel, and so do its feet, which
// perspective pulls apart (the near one further from the centre). Numpad 5 goes to perspective,
// Ctrl+7 looks from below, [ undoes back to the side view, ] redoes.
TEST(CameraE2E, TheOrthographicViewsFromTheNumpad) {
  WindowDriver w;
  SV_REQUIRE_DRIVER(w);
  ASSERT_TRUE(w.launch({kDefault, "--rest-pose"}));
  nlohmann::json s = w.state();
  EXPECT_EQ(s["camera"]["ortho"], false);
  point_at_viewport(w, s);
  w.key("KP_3");
  w.wait_frames(2);
  s = w.state();
  EXPECT_EQ(s["camera"]["ortho"], true);
  EXPECT_NEAR(s["camera"]["yaw"].get<double>(), kQuarter, 1e-5);
  EXPECT_NEAR(s["camera"]["pitch"].get<double>(), 0.0, 1e-6);
  EXPECT_EQ(s["toast"], "Right view (orthographic)");
  EXPECT_NEAR(x_of(s, "upperarm_l"), x_of(s, "upperarm_r"), 1.0);
  EXPECT_NEAR(y_of(s, "upperarm_l"), y_of(s, "upperarm_r"), 1.0);
  EXPECT_NEAR(x_of(s, "hand_l"), x_of(s, "hand_r"), 1.0);
  EXPECT_NEAR(y_of(s, "toe_l"), y_of(s, "toe_r"), 1.0);
  w.key("KP_5");
  w.wait_frames(2);
  s = w.state();
  EXPECT_EQ(s["camera"]["ortho"], false);
  EXPECT_EQ(s["toast"], "Perspective (Numpad 5)");
  // The feet, far below the view's centre: the nearer one lower on screen.
  EXPECT_GT(std::abs(y_of(s, "toe_l") - y_of(s, "toe_r")), 4.0);
  w.key("ctrl+KP_7");
  w.wait_frames(2);
  s = w.state();
  EXPECT_NEAR(s["camera"]["pitch"].get<double>(), -kQuarter, 1e-5);
  EXPECT_EQ(s["camera"]["ortho"], true);
  EXPECT_EQ(s["toast"], "Bottom view (orthographic)");
  const int undo = s["camera"]["undo"].get<int>();
  EXPECT_GE(undo, 3);
  w.key("bracketleft");
  w.wait_frames(2);
  s = w.state();
  EXPECT_NEAR(s["camera"]["pitch"].get<double>(), 0.0, 1e-6);
  EXPECT_NEAR(s["camera"]["yaw"].get<double>(), kQuarter, 1e-5);
  EXPECT_EQ(s["camera"]["ortho"], false);
  EXPECT_EQ(s["camera"]["redo"], 1);
  w.key("bracketright");
  w.wait_frames(2);
  s = w.state();
  EXPECT_NEAR(s["camera"]["pitch"].get<double>(), -kQuarter, 1e-5);
  EXPECT_EQ(s["camera"]["undo"], undo);
  EXPECT_EQ(w.quit(), 0);

  // --camera-view: the window opens in that view, framed, with no history yet.
  WindowDriver top;
  ASSERT_TRUE(top.launch({kDefault, "--rest-pose", "--camera-view", "top"}));
  s = top.state();
  EXPECT_EQ(s["camera"]["ortho"], true);
  EXPECT_NEAR(s["camera"]["pitch"].get<double>(), kQuarter, 1e-5);
  EXPECT_EQ(s["camera"]["undo"], 0);
  EXPECT_EQ(top.quit(), 0);
}

// Numpad . frames the selected joint and what it skins: the hand fills the view (the camera
// comes close, the hand is near the viewport's centre); A frames the whole clip again; Ctrl+Z
// undoes that. In the front view (orthographic), the wheel zooms toward the pointer: the joint
// under it stays under it.
TEST(CameraE2E, FrameSelectedAndZoomTowardTheCursor) {
  WindowDriver w;
  SV_REQUIRE_DRIVER(w);
  ASSERT_TRUE(w.launch({kDefault, "--rest-pose", "--bone", "hand_r"}));
  nlohmann::json s = w.state();
  const double whole = s["camera"]["distance"].get<double>();
  point_at_viewport(w, s);
  w.key("KP_Decimal");
  w.wait_frames(2);
  s = w.state();
  const double framed = s["camera"]["distance"].get<double>();
  EXPECT_LT(framed, 0.3 * whole);
  EXPECT_NE(s["toast"].get<std::string>().find("Framed hand_r"), std::string::npos) << s["toast"];
  const auto& v = s["viewport"];  // framebuffer pixels: [x, y, w, h]
  const double cx = v[0].get<double>() + 0.5 * v[2].get<double>();
  const double cy = v[1].get<double>() + 0.5 * v[3].get<double>();
  EXPECT_LT(std::abs(x_of(s, "hand_r") - cx), 0.25 * v[2].get<double>());
  EXPECT_LT(std::abs(y_of(s, "hand_r") - cy), 0.25 * v[3].get<double>());
  w.key("a");
  w.wait_frames(2);
  s = w.state();
  EXPECT_NEAR(s["camera"]["distance"].get<double>(), whole, 0.02 * whole);
  w.key("ctrl+z");
  w.wait_frames(2);
  s = w.state();
  EXPECT_NEAR(s["camera"]["distance"].get<double>(), framed, 1e-4 * framed);

  // Front, orthographic, framed whole; the pointer on the left hand, three wheel notches in.
  w.key("a");
  w.key("KP_1");
  w.wait_frames(2);
  s = w.state();
  ASSERT_EQ(s["camera"]["ortho"], true);
  const double hx = x_of(s, "hand_l"), hy = y_of(s, "hand_l");
  const double before = s["camera"]["distance"].get<double>();
  w.move(hx, hy);  // window units = framebuffer pixels on Xvfb
  for (int i = 0; i < 3; ++i) {
    w.click(hx, hy, 4);  // wheel up
  }
  w.wait_frames(2);
  s = w.state();
  EXPECT_LT(s["camera"]["distance"].get<double>(), 0.8 * before);
  EXPECT_NEAR(x_of(s, "hand_l"), hx, 1.5);
  EXPECT_NEAR(y_of(s, "hand_l"), hy, 1.5);
  EXPECT_EQ(w.quit(), 0);
}

// F12 writes the viewport (only: its size) next to the model, a new name each time, and says
// where in the viewport; a crowd of 100 turned on is framed whole, turned off the view before
// it comes back.
TEST(CameraE2E, ScreenshotKeyAndCrowdFraming) {
  WindowDriver w;
  SV_REQUIRE_DRIVER(w);
  const std::filesystem::path folder = std::filesystem::path(w.json_path()).parent_path() / "m";
  std::filesystem::create_directories(folder);
  const std::filesystem::path model = folder / "walker.glb";
  std::filesystem::copy_file(kDefault, model);
  ASSERT_TRUE(w.launch({model.string()}));
  nlohmann::json s = w.state();
  point_at_viewport(w, s);
  w.key("F12");
  w.wait_frames(2);
  s = w.state();
  const std::string first = (folder / "walker_001.png").string();
  EXPECT_EQ(s["screenshot"], first);
  EXPECT_EQ(s["toast"], "Saved " + first);
  w.key("F12");
  w.wait_frames(2);
  s = w.state();
  EXPECT_EQ(s["screenshot"], (folder / "walker_002.png").string());
  int pw = 0, ph = 0, n = 0;
  unsigned char* pixels = stbi_load(first.c_str(), &pw, &ph, &n, 4);
  ASSERT_NE(pixels, nullptr);
  stbi_image_free(pixels);
  EXPECT_EQ(pw, s["viewport"][2].get<int>());
  EXPECT_EQ(ph, s["viewport"][3].get<int>());

  const double alone = s["camera"]["distance"].get<double>();
  ASSERT_TRUE(w.click_landmark(s, "header:View"));  // closed: the Crowd section moves up
  s = w.state();
  ASSERT_TRUE(w.click_landmark(s, "header:Crowd"));
  s = w.state();
  ASSERT_TRUE(w.click_landmark(s, "check:Crowd"));
  s = w.state();
  ASSERT_TRUE(w.click_landmark(s, "button:Crowd 100"));
  w.wait_frames(3);
  s = w.state();
  EXPECT_GT(s["camera"]["distance"].get<double>(), 3.0 * alone);
  ASSERT_TRUE(w.click_landmark(s, "check:Crowd"));
  w.wait_frames(3);
  s = w.state();
  EXPECT_NEAR(s["camera"]["distance"].get<double>(), alone, 1e-4 * alone);
  EXPECT_EQ(w.quit(), 0);
}

}  // namespace
}  // namespace sv::test
