// Picking end to end: the real window on its own X server, the real pointer (xdotool, through
// window_driver.h) clicking the model in the viewport, then the window's state (which joint is
// selected) and its frame (the weights view now paints that joint's heat map where the click
// landed) read back.
#include <string>

#include <gtest/gtest.h>

#include "window_driver.h"

namespace sv::test {
namespace {

struct Point {
  double x = 0.0, y = 0.0;
};

// Where joint `name` is drawn now (framebuffer pixels: window units on Xvfb, no scaling).
Point joint_on_screen(const nlohmann::json& state, const std::string& name) {
  for (const auto& j : state["joints"]) {
    if (j["name"] != name) continue;
    EXPECT_TRUE(j["inFront"].get<bool>()) << name << " is behind the camera";
    return {j["x"].get<double>(), j["y"].get<double>()};
  }
  ADD_FAILURE() << "no joint " << name << " in the window's state";
  return {};
}

// The weights view's ramp as the window shows it: blue at 0, red at 1 (shaded, so not exact).
bool bluish(const unsigned char* p) { return p[2] > 120 && p[2] > p[0] + 80 && p[2] > p[1] + 40; }
bool reddish(const unsigned char* p) { return p[0] > 120 && p[0] > p[1] + 80 && p[0] > p[2] + 80; }

std::string rgb(const unsigned char* p) {
  return "(" + std::to_string(p[0]) + ", " + std::to_string(p[1]) + ", " + std::to_string(p[2]) +
         ")";
}

class PickingE2E : public ::testing::TestWithParam<const char*> {};

// In the weights view with nothing selected the mesh is blue; a click inside the head (above
// the head joint, away from the neck) selects `head`, and the frame turns red where the click
// landed and stays blue on the hips.
TEST_P(PickingE2E, AClickOnTheModelShowsThePickedJointsHeatMap) {
  WindowDriver w;
  SV_REQUIRE_DRIVER(w);
  w.keep_pictures();
  ASSERT_TRUE(w.launch({kDefault, "--view", "weights", "--clip", "walk", "--time", "0.5",
                        "--skinning", GetParam()}));
  nlohmann::json s = w.state();
  ASSERT_EQ(s["selectedJoint"], -1);
  const Point head = joint_on_screen(s, "head"), neck = joint_on_screen(s, "neck");
  const Point in_head{head.x + 0.6 * (head.x - neck.x), head.y + 0.6 * (head.y - neck.y)};
  const Point hips = joint_on_screen(s, "hips");
  Picture before = w.picture();
  ASSERT_GT(before.width, 0);
  // Colours are read 5 px beside the points: the selected joint's axes run through them.
  const auto hx = static_cast<int>(in_head.x) + 5, hy = static_cast<int>(in_head.y);
  EXPECT_TRUE(bluish(before.at(hx, hy))) << "before: " << rgb(before.at(hx, hy));

  w.click(in_head.x, in_head.y);
  s = w.state();
  EXPECT_EQ(s["selectedJointName"], "head");
  EXPECT_EQ(s["hoveredJoint"], s["selectedJoint"]);  // the pointer rests where it clicked
  const Picture after = w.picture();
  ASSERT_GT(after.width, 0);
  EXPECT_TRUE(reddish(after.at(hx, hy))) << "after: " << rgb(after.at(hx, hy));
  const auto px = static_cast<int>(hips.x) + 5, py = static_cast<int>(hips.y);
  EXPECT_TRUE(bluish(after.at(px, py))) << "hips: " << rgb(after.at(px, py));
  EXPECT_EQ(w.quit(), 0);
}

INSTANTIATE_TEST_SUITE_P(BothPaths, PickingE2E, ::testing::Values("gpu", "cpu"));

// With the skeleton drawn, a click a few pixels from a joint selects that joint rather than the
// mesh behind it; a click on the empty background clears the selection.
TEST(PickingE2E, OverlayJointsAndTheBackground) {
  WindowDriver w;
  SV_REQUIRE_DRIVER(w);
  ASSERT_TRUE(
      w.launch({kDefault, "--view", "weights", "--skeleton", "--clip", "walk", "--time", "0.5"}));
  nlohmann::json s = w.state();
  const Point elbow = joint_on_screen(s, "forearm_l");
  w.click(elbow.x + 3, elbow.y - 2);
  s = w.state();
  EXPECT_EQ(s["selectedJointName"], "forearm_l");
  const auto& v = s["viewport"];  // framebuffer pixels: [x, y, w, h]
  w.click(v[0].get<double>() + 12, v[1].get<double>() + 12);
  s = w.state();
  EXPECT_EQ(s["selectedJoint"], -1);
  EXPECT_EQ(w.quit(), 0);
}

}  // namespace
}  // namespace sv::test
