// Clip ranges in the real window (app/clip_ranges.h): In and Out set on the timeline, Loop range
// on, Save range... with a typed name writes the sidecar beside the model and the range shows as
// a clip at once; the next window opens it with --clip.
#include <filesystem>
#include <fstream>
#include <string>

#include <gtest/gtest.h>

#include "../skinned_quad_gltf.h"
#include "../temp_dir.h"
#include "json_file.h"
#include "window_driver.h"

namespace sv::test {
namespace {

const nlohmann::json* range_landmark(const nlohmann::json& state, const std::string& name) {
  for (const auto& m : state["landmarks"])
    if (m["name"] == name) return &m;
  ADD_FAILURE() << "no landmark " << name;
  return nullptr;
}

bool has_clip(const nlohmann::json& s, const std::string& name) {
  for (const auto& c : s["clips"])
    if (c == name) return true;
  return false;
}

TEST(RangeE2E, ARangeSavedOnTheTimelineIsAClipNowAndNextTime) {
  WindowDriver w;
  if (!w.ready()) GTEST_SKIP() << w.why();
  TempDir dir;
  TinyGltf tiny;
  tiny.keys = 5;
  const std::string model = write_tiny_gltf(dir.path(), "tiny", tiny);
  ASSERT_TRUE(w.launch({model, "--no-cache", "--clip", "bend", "--time", "0.25"}));
  nlohmann::json s = w.state();
  ASSERT_TRUE(w.click_landmark(s, "button:In"));
  s = w.state();
  EXPECT_EQ(s["range"]["clip"], 0);
  EXPECT_NEAR(s["range"]["in"].get<double>(), 0.25, 1e-9);
  // Three quarters along the bar: 0.75 s, to the pixel.
  const nlohmann::json* bar = range_landmark(s, "scrub");
  ASSERT_NE(bar, nullptr);
  const nlohmann::json r = (*bar)["rect"];  // a copy: `s` is asked for again below
  const double bar_width = r[2].get<double>();
  w.click(r[0].get<double>() + 0.75 * bar_width, r[1].get<double>() + 0.5 * r[3].get<double>());
  s = w.state();
  const double out = s["time"].get<double>();
  EXPECT_NEAR(out, 0.75, 2.0 / bar_width);
  ASSERT_TRUE(w.click_landmark(s, "button:Out"));
  ASSERT_TRUE(w.click_landmark(w.state(), "check:Loop range"));
  s = w.state();
  EXPECT_EQ(s["range"]["loop"], true);
  EXPECT_NEAR(s["range"]["out"].get<double>(), out, 1e-9);

  ASSERT_TRUE(w.click_landmark(s, "button:Save range"));
  w.key("ctrl+a");
  w.type("middle");
  w.key("Return");
  s = w.wait_until([](const nlohmann::json& j) { return has_clip(j, "middle"); }, 100);
  ASSERT_TRUE(has_clip(s, "middle")) << s.dump(1);
  EXPECT_EQ(s["clipName"], "bend") << "the clip shown stays";
  EXPECT_EQ(s["range"]["loop"], true);
  EXPECT_NE(s["toast"].get<std::string>().find("Saved range 'middle'"), std::string::npos);
  const nlohmann::json saved = read_json_file(model + ".ranges.json");
  ASSERT_FALSE(saved.is_discarded());
  ASSERT_EQ(saved["ranges"].size(), 1u);
  EXPECT_EQ(saved["ranges"][0]["name"], "middle");
  EXPECT_EQ(saved["ranges"][0]["clip"], "bend");
  EXPECT_NEAR(saved["ranges"][0]["start"].get<double>(), 0.25, 1e-9);
  EXPECT_NEAR(saved["ranges"][0]["end"].get<double>(), out, 1e-9);
  EXPECT_EQ(w.quit(), 0);

  WindowDriver again;
  ASSERT_TRUE(again.ready());
  ASSERT_TRUE(again.launch({model, "--no-cache", "--clip", "middle", "--time", "0"}));
  s = again.state();
  EXPECT_EQ(s["clipName"], "middle");
  EXPECT_EQ(again.quit(), 0);
}

}  // namespace
}  // namespace sv::test
