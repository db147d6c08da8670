// "Add animations..." clicked as a user clicks it, in a headless ImGui context over the default
// character (tests/ui/ui_fixture.h), then carried out as the window does (app/viewer.cpp): the
// model read again by the ModelLoader with the picked file among its animations. The added clips
// then show in the clip combo and play like the character's own.
#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <thread>

#include <gtest/gtest.h>

#include "anim_glb.h"
#include "app/model_loader.h"
#include "temp_dir.h"
#include "ui/ui_fixture.h"

namespace sv::test {
namespace {

const std::string kCharacter = std::string(SKINVIEW_SOURCE_DIR) + "/assets/default.glb";

// Polls as the window does once a frame; the loader gives up after its own time limit, so this
// ends.
ModelLoader::Finished wait_for(ModelLoader& loader) {
  for (;;) {
    if (std::optional<ModelLoader::Finished> done = loader.poll()) return std::move(*done);
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
}

TEST(AddAnimationsClicks, PickingAFileInTheBrowserAddsItsClips) {
  const TempDir temp;
  ASSERT_FALSE(temp.path().empty());
  const std::string moves = temp.path() + "/moves.glb";
  animation_only_glb(kCharacter, "mixamorig:", moves);

  UiFixture f(kCharacter);
  ASSERT_EQ(f.model.clips.size(), 7u);
  f.state.files.extensions = {"glb"};
  // "Add animations..." turns the browser to picking; it opens the Browse list.
  ASSERT_NE(f.marks().find("button:Add animations"), nullptr);
  ASSERT_TRUE(f.click_mark("button:Add animations"));
  EXPECT_TRUE(f.state.files.adding_animations);
  f.state.files.browse_dir = temp.path();
  f.harness.frames(2);
  ASSERT_EQ(f.state.files.entries.size(), 1u);
  EXPECT_NE(f.marks().find("button:Cancel adding"), nullptr);
  // A double click on the file asks to add it, not to open it.
  const ui::Landmark* entry = f.marks().find("entry", 0);
  ASSERT_NE(entry, nullptr);
  f.harness.double_click(entry->rect.x + 10.0f, entry->rect.y + 0.5f * entry->rect.h);
  EXPECT_EQ(f.add_requests, 1);
  EXPECT_EQ(f.open_requests, 0);
  EXPECT_EQ(std::string(f.state.files.open_path), moves);
  EXPECT_FALSE(f.state.files.adding_animations) << "one pick, then the browser opens files again";

  // What the window does with the request: the character again, with the file added.
  ModelLoader loader;
  AnimationSources sources;
  sources.files.push_back(f.state.files.open_path);
  loader.set_animations(sources);
  ASSERT_EQ(loader.start(kCharacter), "");
  ModelLoader::Finished done = wait_for(loader);
  ASSERT_TRUE(done.result.ok()) << done.result.error;
  EXPECT_EQ(done.path, kCharacter);
  Model& added = *done.result.model;
  ASSERT_EQ(added.clips.size(), 13u);
  EXPECT_EQ(added.clips[9].name(), "moves/wave");
  bool reported = false;
  for (const std::string& note : done.result.report.notes)
    reported |= note.find("moves.glb: joints: 21 mapped") != std::string::npos;
  EXPECT_TRUE(reported);

  // The new model in the panels: the combo offers the added clip and picks it.
  f.model = std::move(added);
  f.animator = SkinnedPose(f.model);
  f.state.new_model(f.model);
  f.harness.frames(2);
  ASSERT_TRUE(f.click_mark("combo:Clip"));
  f.harness.frame();
  ASSERT_TRUE(f.click_mark("clip", 9));
  EXPECT_EQ(f.player.clip, 9);
  // It poses as the character's own wave does.
  f.player.time = 0.7;
  f.pose();
  const std::vector<glm::mat4> added_pose(f.animator.pose.model_matrices().begin(),
                                          f.animator.pose.model_matrices().end());
  f.player.clip = 2;  // 'wave'
  f.pose();
  const std::span<const glm::mat4> own = f.animator.pose.model_matrices();
  ASSERT_EQ(own.size(), added_pose.size());
  for (std::size_t j = 0; j < own.size(); ++j) EXPECT_EQ(own[j], added_pose[j]) << j;
}

TEST(AddAnimationsClicks, CancelGoesBackToOpeningFiles) {
  const TempDir temp;
  ASSERT_FALSE(temp.path().empty());
  std::ofstream(temp.path() + "/other.glb");
  UiFixture f(kCharacter);
  f.state.files.extensions = {"glb"};
  ASSERT_TRUE(f.click_mark("button:Add animations"));
  ASSERT_TRUE(f.click_mark("button:Cancel adding"));
  EXPECT_FALSE(f.state.files.adding_animations);
  f.state.files.browse_dir = temp.path();
  f.harness.frames(2);
  const ui::Landmark* entry = f.marks().find("entry", 0);
  ASSERT_NE(entry, nullptr);
  f.harness.double_click(entry->rect.x + 10.0f, entry->rect.y + 0.5f * entry->rect.h);
  EXPECT_EQ(f.open_requests, 1);
  EXPECT_EQ(f.add_requests, 0);
}

}  // namespace
}  // namespace sv::test
