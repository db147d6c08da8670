// Player::advance: looping wraps, non-looping clamps and stops, negative speed plays backwards.
#include "anim/player.h"

#include <gtest/gtest.h>

#include <limits>

namespace sv {
namespace {

TEST(Player, LoopWrapsForwardAndBackward) {
  Player p;
  p.time = 1.5f;
  p.advance(1.0f, 2.0f);  // 1.5 + 1 = 2.5 -> 0.5
  EXPECT_DOUBLE_EQ(p.time, 0.5);
  EXPECT_TRUE(p.playing);
  p.speed = -1.0f;
  p.advance(1.0f, 2.0f);  // 0.5 - 1 = -0.5 -> 1.5 from the end
  EXPECT_DOUBLE_EQ(p.time, 1.5);
  p.advance(0.5f, 2.0f);  // 1.5 - 0.5 = 1.0
  EXPECT_DOUBLE_EQ(p.time, 1.0);
  p.speed = 2.0f;
  p.advance(0.5f, 2.0f);  // 1.0 + 2*0.5 = 2.0 == duration -> 0
  EXPECT_DOUBLE_EQ(p.time, 0.0);
  EXPECT_TRUE(p.playing);
}

TEST(Player, NoLoopClampsAndStops) {
  Player p;
  p.loop = false;
  p.time = 1.5f;
  p.advance(0.25f, 2.0f);  // 1.75, still inside
  EXPECT_DOUBLE_EQ(p.time, 1.75);
  EXPECT_TRUE(p.playing);
  p.advance(1.0f, 2.0f);  // 2.75 -> clamped to 2, stopped
  EXPECT_DOUBLE_EQ(p.time, 2.0);
  EXPECT_FALSE(p.playing);
  p.advance(1.0f, 2.0f);  // stopped: no change
  EXPECT_DOUBLE_EQ(p.time, 2.0);
}

TEST(Player, NegativeSpeedNoLoopStopsAtStart) {
  Player p;
  p.loop = false;
  p.speed = -2.0f;
  p.time = 0.5f;
  p.advance(0.125f, 2.0f);  // 0.5 - 0.25 = 0.25
  EXPECT_DOUBLE_EQ(p.time, 0.25);
  EXPECT_TRUE(p.playing);
  p.advance(0.5f, 2.0f);  // 0.25 - 1 -> clamped to 0, stopped
  EXPECT_DOUBLE_EQ(p.time, 0.0);
  EXPECT_FALSE(p.playing);
}

TEST(Player, PausedZeroDurationAndNonFiniteStep) {
  Player p;
  p.time = 1.0f;
  p.playing = false;
  p.advance(0.5f, 2.0f);
  EXPECT_DOUBLE_EQ(p.time, 1.0);
  p.playing = true;
  p.speed = 0.5f;
  p.advance(1.0f, 2.0f);  // 1 + 0.5
  EXPECT_DOUBLE_EQ(p.time, 1.5);
  p.advance(std::numeric_limits<float>::quiet_NaN(), 2.0f);  // ignored
  EXPECT_DOUBLE_EQ(p.time, 1.5);
  p.advance(1.0f, 0.0f);  // a zero-length clip (e.g. a bind-pose clip) stays at 0
  EXPECT_DOUBLE_EQ(p.time, 0.0);
}

TEST(Player, PlayAtTheEndOfAClipThatDoesNotLoopStartsItOver) {
  Player p;
  p.loop = false;
  p.time = 1.9;
  p.advance(0.5f, 2.0f);  // runs into the end and stops there
  EXPECT_FALSE(p.playing);
  EXPECT_DOUBLE_EQ(p.time, 2.0);
  p.toggle(2.0f);
  EXPECT_TRUE(p.playing);
  EXPECT_DOUBLE_EQ(p.time, 0.0);
  p.advance(0.25f, 2.0f);
  EXPECT_DOUBLE_EQ(p.time, 0.25);
  p.toggle(2.0f);  // pauses where it is
  EXPECT_FALSE(p.playing);
  EXPECT_DOUBLE_EQ(p.time, 0.25);
  p.play(2.0f);  // mid-clip: resumes, no jump
  EXPECT_DOUBLE_EQ(p.time, 0.25);
  // Backwards: the start is the end it runs into, so play starts over from the duration.
  p.speed = -1.0f;
  p.time = 0.0;
  p.playing = false;
  p.play(2.0f);
  EXPECT_DOUBLE_EQ(p.time, 2.0);
  // A looping clip never restarts on play.
  Player q;
  q.time = 2.0;
  q.playing = false;
  q.play(2.0f);
  EXPECT_DOUBLE_EQ(q.time, 2.0);
  EXPECT_TRUE(q.playing);
}

}  // namespace
}  // namespace sv

namespace sv {
namespace {

// The timeline's in and out points (Player::loop_range) on a 4-s clip, in at 1, out at 2.5.
Player ranged() {
  Player p;
  p.clip = 0;
  p.range_clip = 0;
  p.range_in = 1.0;
  p.range_out = 2.5;
  p.loop_range = true;
  p.time = 1.0;
  return p;
}

TEST(PlayerRange, LoopingStaysBetweenTheInAndOutPoints) {
  Player p = ranged();
  p.advance(1.0, 4.0);
  EXPECT_DOUBLE_EQ(p.time, 2.0);
  p.advance(1.0, 4.0);  // 3.0 wraps to 1 + 0.5
  EXPECT_DOUBLE_EQ(p.time, 1.5);
  p.speed = -1.0f;
  p.advance(1.0, 4.0);  // 0.5 wraps back to 2.5 - 0.5
  EXPECT_DOUBLE_EQ(p.time, 2.0);
  // A time outside the range (scrubbed there) starts again at the in point.
  p.speed = 1.0f;
  p.time = 3.5;
  p.advance(0.25, 4.0);
  EXPECT_DOUBLE_EQ(p.time, 1.0);
}

TEST(PlayerRange, WithoutLoopItStopsAtTheOutPointAndPlayStartsAtTheIn) {
  Player p = ranged();
  p.loop = false;
  p.advance(2.0, 4.0);
  EXPECT_DOUBLE_EQ(p.time, 2.5);
  EXPECT_FALSE(p.playing);
  p.play(4.0);
  EXPECT_DOUBLE_EQ(p.time, 1.0);
  EXPECT_TRUE(p.playing);
}

TEST(PlayerRange, OffOnAnotherClipOrAnEmptyRangeTheWholeClipPlays) {
  Player p = ranged();
  p.clip = 1;  // the points were set on clip 0
  p.time = 3.0;
  p.advance(0.5, 4.0);
  EXPECT_DOUBLE_EQ(p.time, 3.5);
  p = ranged();
  p.loop_range = false;
  p.time = 3.0;
  p.advance(0.5, 4.0);
  EXPECT_DOUBLE_EQ(p.time, 3.5);
  p = ranged();
  p.range_out = p.range_in;
  p.time = 3.0;
  p.advance(0.5, 4.0);
  EXPECT_DOUBLE_EQ(p.time, 3.5);
  // An out point past the clip's end is the end.
  p = ranged();
  p.range_out = 10.0;
  p.time = 3.5;
  p.advance(1.0, 4.0);
  EXPECT_DOUBLE_EQ(p.time, 1.5);
}

}  // namespace
}  // namespace sv
