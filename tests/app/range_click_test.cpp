// The timeline's range controls clicked as a user clicks them, in a headless ImGui context over the
// default character (tests/ui/ui_fixture.h): In and Out set the points at the time shown, Loop
// range keeps playback between them, Save range... asks for a name and hands the request to the
// app (which app/clip_ranges.h carries out: tests/e2e/watch_e2e_test.cpp saves one in the real
// window).
#include <string>

#include <gtest/gtest.h>

#include "ui/ui_fixture.h"

namespace sv::test {
namespace {

TEST(RangeClicks, InOutLoopRangeAndSaveRange) {
  UiFixture f;
  f.player.clip = 0;
  const double duration = f.model.clips[0].duration();
  ASSERT_GT(duration, 0.8);
  f.player.time = 0.25;
  f.harness.frames(1);
  ASSERT_TRUE(f.click_mark("button:In"));
  EXPECT_EQ(f.player.range_clip, 0);
  EXPECT_DOUBLE_EQ(f.player.range_in, 0.25);
  EXPECT_DOUBLE_EQ(f.player.range_out, duration) << "an In alone runs to the clip's end";
  f.player.time = 0.75;
  ASSERT_TRUE(f.click_mark("button:Out"));
  EXPECT_DOUBLE_EQ(f.player.range_in, 0.25);
  EXPECT_DOUBLE_EQ(f.player.range_out, 0.75);
  EXPECT_FALSE(f.player.loop_range);
  ASSERT_TRUE(f.click_mark("check:Loop range"));
  EXPECT_TRUE(f.player.loop_range);
  // Playing from the out point wraps to the in point's side: 0.75 + 0.1 -> 0.35.
  f.player.playing = true;
  f.player.advance(0.1, duration);
  EXPECT_NEAR(f.player.time, 0.35, 1e-12);
  f.player.playing = false;

  // Save range...: a popup with the name (typed over the default), then Save.
  ASSERT_TRUE(f.click_mark("button:Save range"));
  ASSERT_NE(f.marks().find("input:Range name"), nullptr) << "the popup did not open";
  f.state.timeline.range_name[0] = '\0';
  f.harness.frames(1);
  EXPECT_EQ(f.save_range_requests, 0);
  f.harness.type("stride");
  EXPECT_EQ(std::string(f.state.timeline.range_name), "stride");
  ASSERT_TRUE(f.click_mark("button:Save range name"));
  EXPECT_EQ(f.save_range_requests, 1);
  f.harness.frames(2);
  EXPECT_EQ(f.marks().find("input:Range name"), nullptr) << "the popup stayed open";

  // On another clip the points are not shown and Save range... is off.
  f.player.clip = 1;
  f.harness.frames(2);
  ASSERT_TRUE(f.click_mark("button:Save range"));
  EXPECT_EQ(f.marks().find("input:Range name"), nullptr);
}

}  // namespace
}  // namespace sv::test
