// What the viewport and the File section say in passing, in the real UI (ui_fixture.h): the
// "F1: controls" hint, the toast under it and the weights view's "click a joint" message never
// overlap and stay inside the viewport (a long toast wraps), and a comparison in progress keeps
// its seconds whole on one line in the 260-unit outliner.
#include <string>

#include <gtest/gtest.h>
#include <imgui.h>

#include "ui/toast.h"
#include "ui/viewport_overlay.h"
#include "ui_fixture.h"

namespace sv::test {
namespace {

constexpr const char* kClickAJoint = "Weights view: click a joint (on the mesh or the skeleton)";

// Draws the weights view's message after the panels each frame, as the window does
// (app/viewport_picking.cpp: after ui::draw_ui, clear of the notes it drew).
void add_weights_message(UiFixture& f) {
  f.harness.draw = [&f, panels = f.harness.draw] {
    panels();
    const ui::Rect& v = f.state.layout.viewport;
    ui::draw_viewport_message(ImVec2(v.x, v.y), ImVec2(v.right(), v.bottom()), kClickAJoint,
                              f.state.notes, f.state.landmarks);
  };
}

bool inside(const ui::Rect& r, const ui::Rect& in) {
  return r.x >= in.x && r.y >= in.y && r.right() <= in.right() && r.bottom() <= in.bottom();
}

// The three notes are drawn, pairwise apart, each inside the viewport.
void expect_apart_inside(const UiFixture& f) {
  const char* names[] = {"note:hint", "note:toast", "note:message"};
  const ui::Landmark* m[3];
  for (int i = 0; i < 3; ++i) {
    m[i] = f.marks().find(names[i]);
    ASSERT_NE(m[i], nullptr) << names[i];
    EXPECT_TRUE(inside(m[i]->rect, f.state.layout.viewport)) << names[i];
  }
  for (int i = 0; i < 3; ++i) {
    for (int j = i + 1; j < 3; ++j)
      EXPECT_FALSE(ui::boxes_overlap(m[i]->rect, m[j]->rect)) << names[i] << " / " << names[j];
  }
}

// V's toast ("View: Weights (selected joint) (V)") reaches under the centred message in the
// default window: the message goes below it instead of over it.
TEST(ViewportNotes, TheWeightsMessageKeepsClearOfTheToast) {
  UiFixture f;
  add_weights_message(f);
  for (int i = 0; i < 10 && f.state.render.view != ViewMode::Weights; ++i) f.press(ui::kKeyV);
  ASSERT_EQ(f.state.render.view, ViewMode::Weights);
  ASSERT_TRUE(f.state.toast.visible(ImGui::GetTime()));
  expect_apart_inside(f);
  const ui::Landmark* toast = f.marks().find("note:toast");
  const ui::Landmark* message = f.marks().find("note:message");
  // It would have met the toast on its row: it is below it now.
  EXPECT_LT(message->rect.x, toast->rect.right());
  EXPECT_GE(message->rect.y, toast->rect.bottom());
}

// Where the message goes, by hand: a 600 x 400 viewport at (100, 50), the 13-unit default font
// (line 13: the box pads the text by 9.75 across and 5.2 down, and starts 1.6 lines down).
TEST(ViewportNotes, TheMessageIsCentredAndMovesBelowWhatItWouldOverlap) {
  ImGuiHarness h;
  h.draw = [] {
    ASSERT_FLOAT_EQ(ImGui::GetTextLineHeight(), 13.0f);
    const ui::Rect viewport{100.0f, 50.0f, 600.0f, 400.0f};
    ui::ViewportNotes notes;
    notes.hint = ui::Rect{102.6f, 53.9f, 80.0f, 15.6f};  // bottom 69.5
    // 200 x 13 of text: a 219.5 x 23.4 box at x = round(100 + (600 - 219.5) / 2) = 290.
    ui::Rect r = ui::place_viewport_message(viewport, ImVec2(200.0f, 13.0f), notes);
    EXPECT_FLOAT_EQ(r.x, 290.0f);
    EXPECT_FLOAT_EQ(r.y, 70.8f);  // 50 + 1.6 * 13: below the hint already
    EXPECT_FLOAT_EQ(r.w, 219.5f);
    EXPECT_FLOAT_EQ(r.h, 23.4f);
    // A toast ending left of x = 290 leaves it where it is ...
    notes.toast = ui::Rect{102.6f, 74.1f, 150.0f, 15.6f};
    EXPECT_FLOAT_EQ(ui::place_viewport_message(viewport, ImVec2(200.0f, 13.0f), notes).y, 70.8f);
    // ... one reaching past it puts it 0.2 lines below the toast: 89.7 + 2.6.
    notes.toast.w = 250.0f;
    r = ui::place_viewport_message(viewport, ImVec2(200.0f, 13.0f), notes);
    EXPECT_FLOAT_EQ(r.y, 92.3f);
    EXPECT_FLOAT_EQ(r.x, 290.0f);
  };
  h.frame();
}

// "Compared with ..." on a long path (the toast after File > Compare with...) wraps inside the
// viewport instead of running past its right edge, in the default window and a narrow one.
TEST(ViewportNotes, ALongToastWrapsInsideTheViewport) {
  const std::string path = "/home/someone/projects/characters/hero/exports/version_2026_12_03/" +
                           std::string(120, 'x') +
                           "/hero_rig_with_a_rather_long_descriptive_name_v2.glb";
  for (const float width : {1280.0f, 800.0f}) {
    UiFixture f(std::string(SKINVIEW_SOURCE_DIR) + "/assets/default.glb", width, 500.0f);
    add_weights_message(f);
    ui::show_toast(f.state.toast,
                   "Compared with %s: 812 of 4211 vertices' weights changed; joints: 2 moved, "
                   "1 renamed, 0 added, 0 removed; clips: 1 changed",
                   path.c_str());
    f.harness.frame();
    expect_apart_inside(f);
    const ui::Landmark* toast = f.marks().find("note:toast");
    ASSERT_NE(toast, nullptr);
    EXPECT_GT(toast->rect.h, 2.0f * ImGui::GetTextLineHeight()) << "not wrapped at " << width;
  }
}

// A progress line in the 260-unit outliner ("Comparing with NAME ... 0.4 s", "Loading NAME ...
// 2.5 s"): one line, the figure whole beside the name (cut to fit, with its tooltip), inside the
// panel.
void expect_progress_line(const UiFixture& f, const char* mark, const char* seconds_mark,
                          const char* figure) {
  const ui::Landmark* text = f.marks().find(mark);
  const ui::Landmark* seconds = f.marks().find(seconds_mark);
  ASSERT_NE(text, nullptr) << mark;
  ASSERT_NE(seconds, nullptr) << seconds_mark;
  const float line = ImGui::GetTextLineHeight();
  EXPECT_LE(text->rect.h, line);
  EXPECT_LE(seconds->rect.h, line);
  EXPECT_FLOAT_EQ(seconds->rect.y, text->rect.y);
  EXPECT_GT(seconds->rect.x, text->rect.right());
  EXPECT_LE(seconds->rect.right(), f.state.layout.outliner.right());
  // The figure at this font: its whole width.
  EXPECT_FLOAT_EQ(seconds->rect.w, ImGui::CalcTextSize(figure).x);
}

TEST(ViewportNotes, AComparisonInProgressKeepsItsSecondsOnTheLine) {
  UiFixture f;
  const std::string path = "/models/hero_rig_with_a_rather_long_descriptive_name_v2.glb";
  f.status.load.comparing = path;
  f.status.load.comparing_seconds = 0.4;
  f.harness.frames(2);
  expect_progress_line(f, "text:Comparing", "text:Comparing seconds", "0.4 s");
}

// The loading line is the same line: it once wrapped and cut "... 12.5 s" like the comparing
// line did. Its name is the file's (the folder left out), cut to fit.
TEST(ViewportNotes, ALoadInProgressKeepsItsSecondsOnTheLine) {
  UiFixture f;
  const std::string path =
      "/models/exports/hero_rig_with_a_rather_long_descriptive_name_and_more_v2.glb";
  f.status.load.loading = path;
  f.status.load.loading_seconds = 12.5;
  f.harness.frames(2);
  expect_progress_line(f, "text:Loading", "text:Loading seconds", "12.5 s");
  // The name is cut, not wrapped: narrower than the whole text would be.
  const ui::Landmark* text = f.marks().find("text:Loading");
  ASSERT_NE(text, nullptr);
  EXPECT_LT(text->rect.w,
            ImGui::CalcTextSize(
                "Loading hero_rig_with_a_rather_long_descriptive_name_and_more_v2.glb ...")
                .x);
}

}  // namespace
}  // namespace sv::test
