// The panels' pure helpers: frame steps, model-file filter, recent list. (Keyframe jumps are
// ClipRuntime::adjacent_key_time: tests/anim/clip_runtime_test.cpp.)
#include <gtest/gtest.h>

#include "ui/panels.h"

namespace sv {
namespace {

TEST(Panels, StepTimeMovesOneFrameAndClamps) {
  EXPECT_DOUBLE_EQ(ui::step_time(0.0, 1.0, 1, 30), 1.0 / 30.0);
  EXPECT_DOUBLE_EQ(ui::step_time(0.5, 1.0, -1, 10), 0.4);
  EXPECT_DOUBLE_EQ(ui::step_time(0.99, 1.0, 1, 30), 1.0);
  EXPECT_DOUBLE_EQ(ui::step_time(0.0, 1.0, -1, 30), 0.0);
  EXPECT_DOUBLE_EQ(ui::step_time(0.3, 0.0, 1, 30), 0.0);  // the rest pose has no frames
}

TEST(Panels, ModelFileFilter) {
  EXPECT_TRUE(ui::is_model_file("a.glb"));
  EXPECT_TRUE(ui::is_model_file("BCN_Epileptic.X"));
  EXPECT_TRUE(ui::is_model_file("x.MD5MESH"));
  EXPECT_FALSE(ui::is_model_file("notes.txt"));
  EXPECT_FALSE(ui::is_model_file("noextension"));
  EXPECT_FALSE(ui::is_model_file("a.verylongextension"));
}

TEST(Panels, RecentFilesMostRecentFirstWithoutDuplicates) {
  ui::PanelState s;
  ui::remember_recent(s, "a");
  ui::remember_recent(s, "b");
  ui::remember_recent(s, "a");
  EXPECT_EQ(s.recent[0], "a");
  EXPECT_EQ(s.recent[1], "b");
  EXPECT_EQ(s.recent[2], "");
  for (int i = 0; i < 20; ++i) ui::remember_recent(s, std::to_string(i));
  EXPECT_EQ(s.recent[0], "19");
  EXPECT_EQ(s.recent[7], "12");
}

}  // namespace
}  // namespace sv
