// "Compare with..." clicked in a headless ImGui context over the default character
// (tests/ui/ui_fixture.h): the browser picks the file to compare with (not to open), then the
// file is read as the window reads it (a ModelLoader of its own) and compared; the weight-change
// view's legend has that comparison to show. The real window: tests/e2e/compare_e2e_test.cpp.
#include <chrono>
#include <optional>
#include <string>
#include <thread>

#include <gtest/gtest.h>

#include "app/model_loader.h"
#include "rig_version_glb.h"
#include "skin/rig_compare.h"
#include "temp_dir.h"
#include "ui/ui_fixture.h"
#include "ui/viewport_overlay.h"

namespace sv::test {
namespace {

const std::string kCompared = std::string(SKINVIEW_SOURCE_DIR) + "/assets/default.glb";

TEST(CompareClicks, PickingAFileComparesWithItInsteadOfOpeningIt) {
  const TempDir temp;
  ASSERT_FALSE(temp.path().empty());
  RigEdit edit;
  edit.rename_joints = {{"hand_l", "Hand_L"}};
  edit.whole_weight = {0};
  std::vector<double> changes;
  rig_version_glb(kCompared, edit, temp.path() + "/version2.glb", &changes);
  ASSERT_EQ(changes.size(), 1u);

  UiFixture f(kCompared);
  f.state.files.extensions = {"glb"};
  ASSERT_TRUE(f.click_mark("button:Compare with"));
  EXPECT_TRUE(f.state.files.comparing);
  f.state.files.browse_dir = temp.path();
  f.harness.frames(2);
  EXPECT_NE(f.marks().find("button:Cancel comparing"), nullptr);
  ASSERT_EQ(f.state.files.entries.size(), 1u);
  const ui::Landmark* entry = f.marks().find("entry", 0);
  ASSERT_NE(entry, nullptr);
  f.harness.double_click(entry->rect.x + 10.0f, entry->rect.y + 0.5f * entry->rect.h);
  EXPECT_EQ(f.compare_requests, 1);
  EXPECT_EQ(f.open_requests, 0);
  EXPECT_EQ(f.add_requests, 0);
  EXPECT_FALSE(f.state.files.comparing) << "one pick, then the browser opens files again";

  // What the window does with the request.
  ModelLoader loader;
  ASSERT_EQ(loader.start(f.state.files.open_path), "");
  std::optional<ModelLoader::Finished> done;
  while (!(done = loader.poll())) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  ASSERT_TRUE(done->result.ok()) << done->result.error;
  const RigComparison c = compare_rigs(f.model, *done->result.model);
  ASSERT_EQ(c.renamed.size(), 1u);
  EXPECT_EQ(f.model.skeleton.names[static_cast<std::size_t>(c.renamed[0].a)], "hand_l");
  EXPECT_EQ(c.vertices_changed, changes[0] > c.tolerances.weight ? 1u : 0u);

  // The weight-change view's legend: taller with the comparison than without (its counts).
  ui::LegendInput none;
  none.view = ViewMode::WeightChange;
  none.model = &f.model;
  ui::LegendInput with = none;
  with.comparison = &c;
  with.compared_with = done->path;
  f.harness.draw = [&] {
    const ImVec2 a = ui::legend_size(none);
    const ImVec2 b = ui::legend_size(with);
    EXPECT_GT(a.y, 0.0f);
    EXPECT_GT(b.y, a.y);
  };
  f.harness.frame();
}

TEST(CompareClicks, CancelGoesBackToOpeningFiles) {
  UiFixture f(kCompared);
  ASSERT_TRUE(f.click_mark("button:Compare with"));
  ASSERT_TRUE(f.click_mark("button:Cancel comparing"));
  EXPECT_FALSE(f.state.files.comparing);
  f.harness.frame();
  EXPECT_NE(f.marks().find("button:Compare with"), nullptr);
}

}  // namespace
}  // namespace sv::test
