// "Compare with..." clicked in a headless ImGui context over the default character
// (tests/ui/ui_fixture.h): the browser picks the file to compare with (not to open), then the
// file is read as the window reads it (a ModelLoader of its own) and compared as the window
// compares it, by the scene's comparison job (app/viewer_scene.h) polled once a frame while the
// panels keep drawing; the weight-change view's legend says a comparison is in progress, then has
// it to show. A job stopped while it runs leaves nothing to adopt. The real window:
// tests/e2e/compare_e2e_test.cpp.
#include <chrono>
#include <optional>
#include <string>
#include <thread>

#include <gtest/gtest.h>

#include "app/model_loader.h"
#include "app/viewer_scene.h"
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
  // Compared off the frame thread: the panels draw a frame at a time until the job has ended.
  SceneJobs::CompareJob job;
  start_comparison(job, f.model, std::make_shared<const Model>(std::move(*done->result.model)),
                   done->path);
  std::optional<RigComparison> ended;
  while (!(ended = collect_comparison(job))) {
    ASSERT_TRUE(job.running()) << "a job started and not collected runs";
    f.harness.frame();
  }
  EXPECT_FALSE(job.running());
  ASSERT_EQ(ended->status, CompareStatus::Done) << ended->problem;
  const RigComparison& c = *ended;
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
  // While one runs, the legend says so: a line more than with the comparison alone.
  ui::LegendInput running = with;
  running.comparing = done->path;
  f.harness.draw = [&] {
    const ImVec2 a = ui::legend_size(none);
    const ImVec2 b = ui::legend_size(with);
    EXPECT_GT(a.y, 0.0f);
    EXPECT_GT(b.y, a.y);
    EXPECT_GT(ui::legend_size(running).y, b.y);
  };
  f.harness.frame();
}

// The window stops a comparison when another starts or another model opens: whether the thread
// was still comparing or had just finished, nothing is left to adopt, and the next run compares.
TEST(CompareClicks, AComparisonStoppedWhileItRunsLeavesNothingToAdopt) {
  UiFixture f(kCompared);
  ModelLoader loader;
  ASSERT_EQ(loader.start(kCompared), "");
  std::optional<ModelLoader::Finished> done;
  while (!(done = loader.poll())) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  ASSERT_TRUE(done->result.ok()) << done->result.error;
  const auto b = std::make_shared<const Model>(std::move(*done->result.model));

  SceneJobs::CompareJob job;
  start_comparison(job, f.model, b, kCompared);
  job.stop();
  EXPECT_FALSE(job.running());
  EXPECT_FALSE(collect_comparison(job).has_value()) << "a stopped run is not adopted";

  // The flag the stop sets, set while the run may be anywhere: a run that saw it ends cancelled
  // with no figures; one that finished first is whole.
  start_comparison(job, f.model, b, kCompared);
  job.cancel = true;
  std::optional<RigComparison> ended;
  while (!(ended = collect_comparison(job))) f.harness.frame();
  if (ended->status == CompareStatus::Cancelled) {
    EXPECT_EQ(ended->problem, "comparison cancelled");
    EXPECT_TRUE(ended->change.empty());
    EXPECT_EQ(ended->vertices_compared, 0u);
  } else {
    EXPECT_EQ(ended->status, CompareStatus::Done);
    EXPECT_EQ(ended->vertices_compared, 10611u + 673u);
  }

  // The next start clears the flag.
  start_comparison(job, f.model, b, kCompared);
  while (!(ended = collect_comparison(job))) f.harness.frame();
  ASSERT_EQ(ended->status, CompareStatus::Done) << ended->problem;
  EXPECT_EQ(ended->vertices_compared, 10611u + 673u);
  EXPECT_FALSE(ended->any_difference());
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
