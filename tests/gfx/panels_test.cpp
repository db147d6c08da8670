// The panels' pure helpers: frame steps, keyframe jumps, model-file filter, recent list.
#include <gtest/gtest.h>

#include "anim/clip.h"
#include "ui/panels.h"

namespace sv {
namespace {

TEST(Panels, StepTimeMovesOneFrameAndClamps) {
  EXPECT_FLOAT_EQ(ui::step_time(0.0f, 1.0f, 1, 30), 1.0f / 30.0f);
  EXPECT_FLOAT_EQ(ui::step_time(0.5f, 1.0f, -1, 10), 0.4f);
  EXPECT_FLOAT_EQ(ui::step_time(0.99f, 1.0f, 1, 30), 1.0f);
  EXPECT_FLOAT_EQ(ui::step_time(0.0f, 1.0f, -1, 30), 0.0f);
  EXPECT_FLOAT_EQ(ui::step_time(0.3f, 0.0f, 1, 30), 0.0f);  // the rest pose has no frames
}

TEST(Panels, AdjacentKeyTimeFindsTheNearestKeyOfAnyTrack) {
  Clip clip;
  clip.duration = 2.0f;
  JointChannel a;
  a.joint = 0;
  a.translation.times = {0.0f, 1.0f, 2.0f};
  a.translation.values.resize(3);
  JointChannel b;
  b.joint = 1;
  b.rotation.times = {0.25f, 1.5f};
  b.rotation.values.resize(2);
  clip.channels.push_back(std::move(a));
  clip.channels.push_back(std::move(b));
  EXPECT_FLOAT_EQ(ui::adjacent_key_time(clip, 0.0f, 1), 0.25f);
  EXPECT_FLOAT_EQ(ui::adjacent_key_time(clip, 0.25f, 1), 1.0f);
  EXPECT_FLOAT_EQ(ui::adjacent_key_time(clip, 1.2f, -1), 1.0f);
  EXPECT_FLOAT_EQ(ui::adjacent_key_time(clip, 2.0f, 1), 2.0f);  // none after the last key
  EXPECT_FLOAT_EQ(ui::adjacent_key_time(clip, 0.0f, -1), 0.0f);
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
