// Where the debug view's legend goes (ui/legend_place.h), by hand: the model's box projected
// through a known matrix, the corner rectangles, and the first free corner in the fixed order,
// collapsing to the title row when only that fits.
#include "ui/legend_place.h"

#include <gtest/gtest.h>

#include <glm/gtc/matrix_transform.hpp>

namespace sv::ui {
namespace {

constexpr Rect kViewport{0, 0, 800, 500};
constexpr float kMargin = 10.0f;
const glm::vec2 kFull(200, 100), kTitle(200, 20);
const Rect kGizmo[] = {Rect{6, 423, 71, 71}};

ScreenBox box(float x0, float y0, float x1, float y1) {
  ScreenBox b;
  b.x0 = x0;
  b.y0 = y0;
  b.x1 = x1;
  b.y1 = y1;
  return b;
}

void expect_rect(const Rect& r, float x, float y, float w, float h) {
  EXPECT_FLOAT_EQ(r.x, x);
  EXPECT_FLOAT_EQ(r.y, y);
  EXPECT_FLOAT_EQ(r.w, w);
  EXPECT_FLOAT_EQ(r.h, h);
}

TEST(LegendPlace, ProjectsThroughTheMatrixIntoViewportPixels) {
  // Identity: NDC (0, 0) is the viewport's centre, (1, 1) its top-right corner (y down).
  const Rect vp{100, 50, 800, 500};
  ScreenBox b;
  screen_box_add(b, glm::vec3(0, 0, 0), glm::mat4(1.0f), vp);
  EXPECT_FLOAT_EQ(b.x0, 500.0f);
  EXPECT_FLOAT_EQ(b.y0, 300.0f);
  screen_box_add(b, glm::vec3(1, 1, 0), glm::mat4(1.0f), vp);
  EXPECT_FLOAT_EQ(b.x1, 900.0f);
  EXPECT_FLOAT_EQ(b.y0, 50.0f);
  EXPECT_FALSE(b.everywhere);
  // A perspective divide: w = 2 halves the offset from the centre.
  glm::mat4 half(1.0f);
  half[3][3] = 2.0f;
  ScreenBox h;
  screen_box_add(h, glm::vec3(1, -1, 0), half, vp);
  EXPECT_FLOAT_EQ(h.x0, 700.0f);  // 100 + (0.5 + 0.25) * 800
  EXPECT_FLOAT_EQ(h.y0, 425.0f);  // 50 + (0.5 + 0.25) * 500
  // Behind the camera (w <= 0): the model may be anywhere on screen.
  glm::mat4 behind(1.0f);
  behind[3][3] = -1.0f;
  ScreenBox e;
  screen_box_add(e, glm::vec3(0), behind, vp);
  EXPECT_TRUE(e.everywhere);
  EXPECT_TRUE(e.overlaps(Rect{0, 0, 1, 1}));
  // The 8 corners of a box through a real camera: symmetric about the centre.
  const glm::mat4 vpm = glm::perspective(glm::radians(60.0f), 1.6f, 0.1f, 100.0f) *
                        glm::lookAt(glm::vec3(0, 0, 5), glm::vec3(0), glm::vec3(0, 1, 0));
  ScreenBox c;
  screen_box_add_box(c, glm::vec3(-1), glm::vec3(1), vpm, kViewport);
  EXPECT_NEAR(c.x0 + c.x1, 800.0f, 1e-3f);
  EXPECT_NEAR(c.y0 + c.y1, 500.0f, 1e-3f);
  // The near face (z = 1, 4 units away) bounds it: half-height 1 / (4 tan 30deg) of NDC.
  EXPECT_NEAR(c.y1 - 250.0f, 250.0f / (4.0f * std::tan(glm::radians(30.0f))), 1e-2f);
}

TEST(LegendPlace, CornerRectangles) {
  expect_rect(corner_rect(kViewport, Corner::BottomRight, kFull, kMargin), 590, 390, 200, 100);
  expect_rect(corner_rect(kViewport, Corner::TopRight, kFull, kMargin), 590, 10, 200, 100);
  expect_rect(corner_rect(kViewport, Corner::BottomLeft, kFull, kMargin), 10, 390, 200, 100);
  expect_rect(corner_rect(kViewport, Corner::TopLeft, kFull, kMargin), 10, 10, 200, 100);
}

TEST(LegendPlace, TheFirstFreeCornerInOrder) {
  // A standing character in the middle (x 300..500): the bottom-right is free.
  LegendPlace p =
      place_legend(kViewport, box(300, 50, 500, 450), {}, kFull, kTitle, LegendFold::Auto, kMargin);
  EXPECT_EQ(p.corner, Corner::BottomRight);
  expect_rect(p.rect, 590, 390, 200, 100);
  EXPECT_FALSE(p.collapsed);
  EXPECT_FALSE(p.over_model);
  // Wider (x 300..700): both right corners meet it; the bottom-left is free.
  p = place_legend(kViewport, box(300, 50, 700, 450), {}, kFull, kTitle, LegendFold::Auto, kMargin);
  EXPECT_EQ(p.corner, Corner::BottomLeft);
  expect_rect(p.rect, 10, 390, 200, 100);
  // ... unless the axis gizmo is there (6, 423, 71, 71 at 800x500): the top-left.
  p = place_legend(kViewport, box(300, 50, 700, 450), kGizmo, kFull, kTitle, LegendFold::Auto,
                   kMargin);
  EXPECT_EQ(p.corner, Corner::TopLeft);
  expect_rect(p.rect, 10, 10, 200, 100);
  // A box that only touches the legend's edge counts as under it (x1 = 590).
  p = place_legend(kViewport, box(300, 50, 590, 450), {}, kFull, kTitle, LegendFold::Auto, kMargin);
  EXPECT_EQ(p.corner, Corner::BottomLeft);
}

TEST(LegendPlace, CollapsesWhenOnlyTheTitleFits) {
  // The model fills all but the top 60 pixels: no corner holds 200x100, the title row (20 high,
  // y 10..30) fits at the top-right.
  LegendPlace p =
      place_legend(kViewport, box(100, 60, 700, 500), {}, kFull, kTitle, LegendFold::Auto, kMargin);
  EXPECT_TRUE(p.collapsed);
  EXPECT_TRUE(p.collapsed_to_fit);
  EXPECT_FALSE(p.over_model);
  EXPECT_EQ(p.corner, Corner::TopRight);
  expect_rect(p.rect, 590, 10, 200, 20);
  // Collapsed by the user: the title row, in the first free corner, not "to fit".
  p = place_legend(kViewport, box(300, 50, 500, 450), {}, kFull, kTitle, LegendFold::Collapsed,
                   kMargin);
  EXPECT_TRUE(p.collapsed);
  EXPECT_FALSE(p.collapsed_to_fit);
  expect_rect(p.rect, 590, 470, 200, 20);
  // Opened by the user where it does not fit: whole, in the corner it covers least of (the
  // bottom corners cover 110 x 100 of the model, the top ones 110 x 50, y 60..110: top-right
  // comes first), over the model.
  p = place_legend(kViewport, box(100, 60, 700, 500), {}, kFull, kTitle, LegendFold::Open, kMargin);
  EXPECT_FALSE(p.collapsed);
  EXPECT_TRUE(p.over_model);
  EXPECT_EQ(p.corner, Corner::TopRight);
  expect_rect(p.rect, 590, 10, 200, 100);
  EXPECT_EQ(toggled(true), LegendFold::Open);
  EXPECT_EQ(toggled(false), LegendFold::Collapsed);
}

TEST(LegendPlace, NowhereFreeTakesTheLeastCoveredCorner) {
  // The model covers all but the left 100 pixels: every corner meets it; the left corners'
  // title rows (x 10..210) cover 110 x 20 of it, the right ones 200 x 20: bottom-left comes
  // first of the two.
  LegendPlace p =
      place_legend(kViewport, box(100, 0, 800, 500), {}, kFull, kTitle, LegendFold::Auto, kMargin);
  EXPECT_TRUE(p.over_model);
  EXPECT_TRUE(p.collapsed);
  EXPECT_EQ(p.corner, Corner::BottomLeft);
  // Behind the camera: the first corner, over the model.
  ScreenBox all;
  all.everywhere = true;
  p = place_legend(kViewport, all, {}, kFull, kTitle, LegendFold::Auto, kMargin);
  EXPECT_TRUE(p.over_model);
  EXPECT_EQ(p.corner, Corner::BottomRight);
  // An empty box (nothing projected) meets nothing.
  p = place_legend(kViewport, ScreenBox{}, {}, kFull, kTitle, LegendFold::Auto, kMargin);
  EXPECT_EQ(p.corner, Corner::BottomRight);
  EXPECT_FALSE(p.collapsed);
}

}  // namespace
}  // namespace sv::ui
