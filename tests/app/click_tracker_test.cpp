// Click versus drag in the viewport (src/app/viewport_picking.h): a press and release within a
// few pixels is a click, reported on the release; a press that travels further is a drag (the
// orbit) and never clicks; a press that starts over a panel never clicks either.
#include <gtest/gtest.h>

#include "app/viewport_picking.h"

namespace sv {
namespace {

TEST(ClickTracker, PressAndReleaseInPlaceIsAClickOnTheRelease) {
  ClickTracker c;
  EXPECT_FALSE(c.update(false, {100, 100}, true));
  EXPECT_FALSE(c.update(true, {100, 100}, true));  // the press
  EXPECT_TRUE(c.held());
  EXPECT_FALSE(c.update(true, {102, 101}, true));  // 2.2 px: still a click
  EXPECT_TRUE(c.update(false, {103, 101}, true));  // the release, 3.2 px from the press
  EXPECT_FALSE(c.held());
  EXPECT_FALSE(c.update(false, {103, 101}, true));  // once only
}

TEST(ClickTracker, ADragIsNotAClickEvenIfItComesBack) {
  ClickTracker c;
  c.update(false, {0, 0}, true);
  c.update(true, {0, 0}, true);
  c.update(true, {5, 0}, true);  // 5 px > 4: a drag
  c.update(true, {0, 0}, true);  // back where it started
  EXPECT_FALSE(c.update(false, {0, 0}, true));
}

TEST(ClickTracker, AReleaseFarFromThePressIsNotAClick) {
  // The frame loop may see only the press and the release (a quick move in between).
  ClickTracker c;
  c.update(false, {0, 0}, true);
  c.update(true, {0, 0}, true);
  EXPECT_FALSE(c.update(false, {4.5f, 0}, true));
}

TEST(ClickTracker, APressOverAPanelNeverClicks) {
  ClickTracker c;
  c.update(false, {0, 0}, false);
  c.update(true, {0, 0}, false);  // pressed on a panel
  EXPECT_FALSE(c.update(false, {0, 0}, true));
  // The next press in the viewport clicks again.
  c.update(true, {0, 0}, true);
  EXPECT_TRUE(c.update(false, {0, 0}, true));
}

}  // namespace
}  // namespace sv
