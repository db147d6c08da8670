// The pure layout function: rectangles tile the window, the viewport keeps half the window's
// area at any size, collapsing a panel gives its room to the viewport, and framebuffer pixels
// keep shared edges.
#include <cmath>
#include <limits>

#include <gtest/gtest.h>

#include "ui/layout.h"

namespace sv::ui {
namespace {

void expect_tiles(const Layout& l, float w, float h) {
  // Outliner | viewport | inspector above, timeline below, edge to edge.
  EXPECT_FLOAT_EQ(l.outliner.x, 0.0f);
  EXPECT_FLOAT_EQ(l.outliner.y, 0.0f);
  EXPECT_FLOAT_EQ(l.viewport.x, l.outliner.right());
  EXPECT_FLOAT_EQ(l.inspector.x, l.viewport.right());
  EXPECT_FLOAT_EQ(l.inspector.right(), w);
  for (const Rect& r : {l.outliner, l.viewport, l.inspector}) {
    EXPECT_FLOAT_EQ(r.y, 0.0f);
    EXPECT_FLOAT_EQ(r.bottom(), l.timeline.y);
    EXPECT_GE(r.w, 0.0f);
  }
  EXPECT_FLOAT_EQ(l.timeline.x, 0.0f);
  EXPECT_FLOAT_EQ(l.timeline.w, w);
  EXPECT_FLOAT_EQ(l.timeline.bottom(), h);
  const float total =
      l.outliner.area() + l.viewport.area() + l.inspector.area() + l.timeline.area();
  EXPECT_NEAR(total, w * h, 1e-3f * w * h);
}

TEST(Layout, DefaultWindowKeepsThePreferredSizes) {
  const LayoutPrefs prefs;
  const Layout l = compute_layout(1280, 720, prefs);
  expect_tiles(l, 1280, 720);
  EXPECT_FLOAT_EQ(l.outliner.w, 260.0f);
  EXPECT_FLOAT_EQ(l.inspector.w, 310.0f);
  EXPECT_FLOAT_EQ(l.timeline.h, 66.0f);
  // 1280 - 260 - 310 = 710 wide, 720 - 66 = 654 tall.
  EXPECT_FLOAT_EQ(l.viewport.x, 260.0f);
  EXPECT_FLOAT_EQ(l.viewport.w, 710.0f);
  EXPECT_FLOAT_EQ(l.viewport.h, 654.0f);
}

TEST(Layout, At800x500TheViewportKeepsHalfTheWindow) {
  const Layout l = compute_layout(800, 500, LayoutPrefs{});
  expect_tiles(l, 800, 500);
  EXPECT_GE(l.viewport.area(), 0.5f * 800 * 500);
  // Both side panels shrank in proportion to their preferences (260 : 310), and stay open.
  EXPECT_GT(l.outliner.w, kMinSidePanel * 0.5f);
  EXPECT_NEAR(l.outliner.w / l.inspector.w, 260.0f / 310.0f, 0.02f);
}

TEST(Layout, HalfTheAreaAtEverySizeAndPreference) {
  for (float w : {200.0f, 320.0f, 640.0f, 800.0f, 1024.0f, 1920.0f, 3840.0f}) {
    for (float h : {150.0f, 240.0f, 500.0f, 720.0f, 2160.0f}) {
      for (float pref : {0.0f, 100.0f, 300.0f, 5000.0f}) {
        for (int collapsed = 0; collapsed < 8; ++collapsed) {
          LayoutPrefs p;
          p.outliner_width = p.inspector_width = pref;
          p.timeline_height = pref;
          p.outliner_collapsed = collapsed & 1;
          p.inspector_collapsed = collapsed & 2;
          p.timeline_collapsed = collapsed & 4;
          const Layout l = compute_layout(w, h, p);
          SCOPED_TRACE(testing::Message()
                       << w << "x" << h << " pref " << pref << " collapsed " << collapsed);
          expect_tiles(l, w, h);
          EXPECT_GE(l.viewport.area(), 0.5f * w * h - 1.0f);
        }
      }
    }
  }
}

TEST(Layout, CollapsingAPanelGivesItsRoomToTheViewport) {
  LayoutPrefs p;
  const Layout open = compute_layout(1280, 720, p);
  p.outliner_collapsed = true;
  const Layout left = compute_layout(1280, 720, p);
  EXPECT_FLOAT_EQ(left.outliner.w, kStrip);
  EXPECT_FLOAT_EQ(left.viewport.x, kStrip);
  EXPECT_FLOAT_EQ(left.viewport.w, open.viewport.w + open.outliner.w - kStrip);
  p.inspector_collapsed = true;
  p.timeline_collapsed = true;
  const Layout all = compute_layout(1280, 720, p);
  EXPECT_FLOAT_EQ(all.viewport.w, 1280.0f - 2 * kStrip);
  EXPECT_FLOAT_EQ(all.viewport.h, 720.0f - kStrip);
  // At 800x500 collapsing the outliner gives the inspector back its preferred width.
  LayoutPrefs q;
  q.outliner_collapsed = true;
  const Layout small = compute_layout(800, 500, q);
  EXPECT_FLOAT_EQ(small.inspector.w, 310.0f);
}

TEST(Layout, PreferencesAreClampedAndScaled) {
  LayoutPrefs p;
  p.outliner_width = 1.0f;  // below the minimum
  const Layout l = compute_layout(1280, 720, p);
  EXPECT_FLOAT_EQ(l.outliner.w, kMinSidePanel);
  p.timeline_height = 10000.0f;
  const Layout tall = compute_layout(1280, 720, p);
  EXPECT_FLOAT_EQ(tall.timeline.h, kMaxTimelineShare * 720.0f);
  // 540 units tall, the viewport needs 0.5 * 1280 * 720 / 540 = 853.3 wide: the panels' 120 + 310
  // shrink to 426.7 in proportion.
  EXPECT_FLOAT_EQ(tall.outliner.w,
                  std::floor(120.0f * (1280.0f - 1280.0f * 720.0f / 1080.0f) / 430.0f));
  const Layout hi = compute_layout(2560, 1440, LayoutPrefs{}, 2.0f);
  p = LayoutPrefs{};
  p.outliner_collapsed = true;
  const Layout hi_collapsed = compute_layout(2560, 1440, p, 2.0f);
  EXPECT_FLOAT_EQ(hi_collapsed.outliner.w, 2 * kStrip);
  EXPECT_FLOAT_EQ(hi.outliner.w, 260.0f);  // preferences are already in display units
}

TEST(Layout, EmptyOrNonFiniteInputGivesEmptyOrClampedRectangles) {
  const Layout none = compute_layout(0, 720, LayoutPrefs{});
  EXPECT_FLOAT_EQ(none.viewport.area(), 0.0f);
  LayoutPrefs p;
  p.outliner_width = std::numeric_limits<float>::quiet_NaN();
  p.timeline_height = std::numeric_limits<float>::infinity();
  const Layout l = compute_layout(1280, 720, p);
  expect_tiles(l, 1280, 720);
  EXPECT_FLOAT_EQ(l.outliner.w, kMinSidePanel);
}

TEST(Layout, PixelsKeepSharedEdges) {
  const Layout l = compute_layout(1280, 720, LayoutPrefs{});
  const PixelRect a = to_pixels(l.outliner, 1.5f, 1.5f);
  const PixelRect v = to_pixels(l.viewport, 1.5f, 1.5f);
  const PixelRect t = to_pixels(l.timeline, 1.5f, 1.5f);
  EXPECT_EQ(a.x + a.width, v.x);
  EXPECT_EQ(v.y + v.height, t.y);
  EXPECT_EQ(v.x, 390);
  EXPECT_EQ(v.width, 1065);  // 710 * 1.5
  EXPECT_EQ(t.y + t.height, 1080);
  EXPECT_FLOAT_EQ(v.aspect(), 1065.0f / 981.0f);
  EXPECT_TRUE(v.contains(390, 0));
  EXPECT_FALSE(v.contains(389.9, 0));
}

}  // namespace
}  // namespace sv::ui
