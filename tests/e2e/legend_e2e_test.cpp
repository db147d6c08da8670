// End to end: the debug views' legends in the real window never sit over the model. For every
// view with a legend, at 1280x720 and at 800x500 (the smallest window the layout keeps whole),
// the window's state (--exit-json: "legend" and "joints", both in framebuffer pixels) says where
// the legend went; no joint the viewport shows may lie inside it. Then a click on the legend's
// title row collapses it, in the real window with the real pointer.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "window_driver.h"

namespace sv::test {
namespace {

struct ViewArgs {
  const char* view;
  std::vector<std::string> extra;
};

// Every view with a legend; the weights view with a joint selected (its legend is then longest).
const std::vector<ViewArgs> kViews = {
    {"weights", {"--bone", "upperarm_l"}},
    {"dominant", {"--bone", "upperarm_l"}},
    {"influences", {}},
    {"weight-sum", {}},
    {"cpu-gpu", {}},
    {"method-diff", {"--clip", "twist", "--time", "1"}},
};

// No joint in front of the camera and inside the viewport lies in the legend's rectangle.
void expect_legend_clear(const nlohmann::json& s) {
  ASSERT_TRUE(s["legend"].is_object()) << s.dump().substr(0, 400);
  const auto& r = s["legend"]["rect"];
  const double x = r[0].get<double>(), y = r[1].get<double>();
  const double w = r[2].get<double>(), h = r[3].get<double>();
  EXPECT_GT(w, 0.0);
  EXPECT_GT(h, 0.0);
  // Inside the viewport.
  const auto& vp = s["viewport"];
  EXPECT_GE(x, vp[0].get<double>());
  EXPECT_GE(y, vp[1].get<double>());
  EXPECT_LE(x + w, vp[0].get<double>() + vp[2].get<double>());
  EXPECT_LE(y + h, vp[1].get<double>() + vp[3].get<double>());
  EXPECT_FALSE(s["legend"]["overModel"].get<bool>()) << s["legend"].dump();
  int checked = 0;
  for (const auto& j : s["joints"]) {
    if (!j["inFront"].get<bool>()) continue;
    const double jx = j["x"].get<double>(), jy = j["y"].get<double>();
    ++checked;
    EXPECT_FALSE(jx >= x && jx <= x + w && jy >= y && jy <= y + h)
        << "joint " << j["name"] << " at (" << jx << ", " << jy << ") is under the legend "
        << s["legend"].dump();
  }
  EXPECT_GE(checked, 20);  // the character's 23 joints are on screen
}

void check_views_at(int width, int height) {
  for (const ViewArgs& v : kViews) {
    SCOPED_TRACE(std::string(v.view) + " at " + std::to_string(width) + "x" +
                 std::to_string(height));
    WindowDriver w(width, height);
    SV_REQUIRE_DRIVER(w);
    std::vector<std::string> args{kDefault, "--view", v.view};
    args.insert(args.end(), v.extra.begin(), v.extra.end());
    ASSERT_TRUE(w.launch(args));
    w.wait_frames(2);
    const nlohmann::json s = w.state();
    EXPECT_EQ(s["view"], v.view);
    expect_legend_clear(s);
    EXPECT_EQ(w.quit(), 0);
  }
}

TEST(LegendE2E, NoLegendCoversAJointAt1280x720) { check_views_at(1280, 720); }

TEST(LegendE2E, NoLegendCoversAJointAt800x500) { check_views_at(800, 500); }

// The legend's title row is a toggle: a click on a legend shown whole collapses it to that row,
// a click on a collapsed one (collapsed by the user, or to fit beside the model) opens it whole;
// the state says so and the rectangle's height changes; no click selects a joint.
TEST(LegendE2E, ClickingTheLegendsTitleCollapsesAndOpensIt) {
  WindowDriver w;
  SV_REQUIRE_DRIVER(w);
  ASSERT_TRUE(w.launch({kDefault, "--view", "weight-sum"}));
  w.wait_frames(2);
  nlohmann::json s = w.state();
  ASSERT_TRUE(s["legend"].is_object());
  EXPECT_EQ(s["legend"]["fold"], "auto");
  for (int click = 0; click < 3; ++click) {
    SCOPED_TRACE("click " + std::to_string(click));
    const bool was_collapsed = s["legend"]["collapsed"].get<bool>();
    const auto r = s["legend"]["rect"];
    const double h = r[3].get<double>();
    // Framebuffer pixels are window pixels on Xvfb (no scaling); the title row is the top 20.
    w.click(r[0].get<double>() + 0.5 * r[2].get<double>(), r[1].get<double>() + 10.0);
    s = w.state();
    ASSERT_TRUE(s["legend"].is_object());
    EXPECT_EQ(s["legend"]["collapsed"].get<bool>(), !was_collapsed);
    EXPECT_EQ(s["legend"]["fold"], was_collapsed ? "open" : "collapsed");
    if (was_collapsed) {
      EXPECT_GT(s["legend"]["rect"][3].get<double>(), 2.0 * h);
    } else {
      EXPECT_LT(s["legend"]["rect"][3].get<double>(), 0.5 * h);
    }
    EXPECT_EQ(s["selectedJoint"], -1);
  }
  EXPECT_EQ(w.quit(), 0);
}

}  // namespace
}  // namespace sv::test
