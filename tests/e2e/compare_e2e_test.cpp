// "Compare with..." in the real window (app/compare.h, skin/rig_compare.h): the button, the path
// box typed into and Enter read another version of the default character (one joint moved, the
// blended vertices repainted wholly onto their first joint) beside the model shown; the window
// then shows the weight-change view: the changed vertices in warm colours, the rest blue, with its
// legend, and the counts in its state.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "../app/rig_version_glb.h"
#include "window_driver.h"

namespace sv::test {
namespace {

TEST(CompareE2E, CompareWithPaintsTheModelByWeightChange) {
  WindowDriver w;
  SV_REQUIRE_DRIVER(w);
  w.keep_pictures();
  // Every vertex of the body that blends joints, repainted: a region large enough to see.
  RigEdit edit;
  edit.move_joint = "forearm_l";
  edit.move = glm::vec3(0.0f, 0.03f, 0.04f);
  const std::vector<glm::vec4> weights = file_weights(kDefault);
  for (uint32_t v = 0; v < weights.size(); ++v)
    if (weights[v].x > 0.0f && weights[v].x < 0.9f) edit.whole_weight.push_back(v);
  ASSERT_GT(edit.whole_weight.size(), 100u);
  const std::string b = w.config_home() + "_version2.glb";
  rig_version_glb(kDefault, edit, b);

  ASSERT_TRUE(w.launch({kDefault, "--clip", "idle", "--time", "0"}));
  nlohmann::json s = w.state();
  EXPECT_TRUE(s["comparison"].is_null());
  ASSERT_TRUE(w.click_landmark(s, "button:Compare with"));
  s = w.state();
  bool cancel_shown = false;
  for (const auto& m : s["landmarks"]) cancel_shown |= m["name"] == "button:Cancel comparing";
  EXPECT_TRUE(cancel_shown) << "the File section asks for the file to compare with";
  ASSERT_TRUE(w.click_landmark(s, "input:path"));
  w.key("ctrl+a");
  w.type(b);
  w.key("Return");
  // The file is read, then compared off the frame thread ("pending" until adopted). Waited for in
  // the window's frames (each state is written after one), not in seconds: the read is bounded by
  // the import's time limit and the comparison by its budget in counts, so it ends.
  s = w.state();
  EXPECT_FALSE(s["comparison"].is_null()) << "in progress from the frame after Enter";
  s = w.wait_until([](const nlohmann::json& j) {
    return !j["comparison"].is_object() || j["comparison"]["pending"] != true;
  });
  ASSERT_TRUE(s["comparison"].is_object()) << s["loadError"] << "\n" << w.log();
  ASSERT_EQ(s["comparison"]["pending"], false) << s.dump(1);
  EXPECT_EQ(s["comparison"]["comparing"], "");
  EXPECT_EQ(s["model"], kDefault) << "the model shown stays";
  EXPECT_EQ(s["loadError"], "");
  EXPECT_EQ(s["view"], "weight-change");
  EXPECT_EQ(s["comparison"]["with"], b);
  EXPECT_EQ(s["comparison"]["changed"].get<std::size_t>(), edit.whole_weight.size());
  EXPECT_EQ(s["comparison"]["compared"], 10611 + 673);
  EXPECT_EQ(s["comparison"]["moved"], 1);
  EXPECT_EQ(s["comparison"]["renamed"], 0);
  EXPECT_TRUE(s["legend"].is_object()) << "the view has its legend";
  EXPECT_NE(s["toast"].get<std::string>().find("Compared with"), std::string::npos) << s["toast"];
  // The File section names the file compared with; its path box names the open model again.
  bool compared_shown = false;
  for (const auto& m : s["landmarks"]) compared_shown |= m["name"] == "text:Compared with";
  EXPECT_TRUE(compared_shown) << "File: \"Compared with: NAME\"";
  EXPECT_EQ(s["pathBox"], kDefault) << "the path box names the model open, not the one compared";

  // The frame: the unchanged skin blue, the repainted joints' seams warm (the heat ramp's top
  // half: red to yellow), counted in the viewport.
  const Picture p = w.picture();
  ASSERT_GT(p.width, 0);
  long blue = 0, warm = 0;
  for (int y = 0; y < p.height; ++y)
    for (int x = p.width / 4; x < 3 * p.width / 4; ++x) {
      const unsigned char* c = p.at(x, y);
      if (c[2] > 120 && c[0] < 40 && c[1] < 40) ++blue;
      if (c[0] > 120 && c[2] < 50 && c[1] < c[0]) ++warm;
    }
  EXPECT_GT(blue, 2000);
  EXPECT_GT(warm, 100);
  EXPECT_EQ(w.quit(), 0);
  std::filesystem::remove(b);
}

}  // namespace
}  // namespace sv::test
