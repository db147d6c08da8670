// Text that fits (ui/widgets.h) and panels sized from their content (ui/layout.h): a line cut
// with "..." and its tooltip, rows of check boxes that flow instead of running past the edge, the
// side panels widening toward what their content asks at 1920x1080 (and not past the viewport's
// half), the edges' grab zones, and Recent's file name first. Headless ImGui, the real panels.
#include <string>

#include <gtest/gtest.h>
#include <imgui.h>
#include <imgui_internal.h>

#include "ui/files.h"
#include "ui/widgets.h"
#include "ui_fixture.h"

namespace sv::test {
namespace {

// One ImGui window at (0, 0), `width` wide, drawing `text` with fit_text.
struct FitWindow {
  explicit FitWindow(float width) {
    h.draw = [this, width] {
      ImGui::SetNextWindowPos(ImVec2(0, 0));
      ImGui::SetNextWindowSize(ImVec2(width, 100));
      ImGui::Begin("fit", nullptr, ImGuiWindowFlags_NoDecoration);
      fit = ui::fit_text(text);
      rect_min = ImGui::GetItemRectMin();
      rect_max = ImGui::GetItemRectMax();
      ImGui::End();
    };
  }
  ImGuiHarness h;
  std::string text;
  ui::Fit fit = ui::Fit::Whole;
  ImVec2 rect_min, rect_max;
};

// Dear ImGui's default font (ProggyClean, 13 px) advances every glyph of Latin-1 by 7 units.
TEST(TextFit, ThePrefixIsWholeCharactersBeforeTheEllipsis) {
  FitWindow w(200.0f);
  w.h.frame();
  ImGui::NewFrame();
  // "..." is 21 units: 56.5 leaves 35.5, five characters of 7 (a sixth would pass it).
  EXPECT_EQ(ui::fit_prefix("abcdefghij", 56.5f), 5u);
  EXPECT_EQ(ui::fit_prefix("abcdefghij", 70.0f), 10u) << "the whole text fits in 70";
  EXPECT_EQ(ui::fit_prefix("abcdefghij", 10.0f), 0u);
  // Two bytes a character in UTF-8: five characters are ten bytes, never half of one.
  EXPECT_EQ(ui::fit_prefix("\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9"
                           "\xC3\xA9\xC3\xA9\xC3\xA9",
                           56.5f),
            10u);
  ImGui::EndFrame();
}

TEST(TextFit, ALongLineIsCutAndItsTooltipHoldsTheWholeText) {
  FitWindow w(120.0f);
  w.text = "choose one in the outliner, or click a joint in the viewport";
  w.h.frames(2);
  EXPECT_EQ(w.fit, ui::Fit::Cut);
  // The line stays inside the window: 120 wide less the 8-unit padding each side.
  EXPECT_LE(w.rect_max.x, 112.0f);
  EXPECT_FALSE(tooltip_shown());
  w.h.move(0.5f * (w.rect_min.x + w.rect_max.x), 0.5f * (w.rect_min.y + w.rect_max.y));
  w.h.frame();
  EXPECT_EQ(w.fit, ui::Fit::CutHovered);
  EXPECT_TRUE(tooltip_shown());
  // A short line is drawn whole, with no tooltip.
  w.text = "Axes";
  w.h.frames(2);
  EXPECT_EQ(w.fit, ui::Fit::Whole);
  EXPECT_FALSE(tooltip_shown());
}

TEST(TextFit, CheckBoxesFlowOntoTheNextRowInANarrowPanel) {
  // 800x500: the inspector is narrow, "Axes" goes below "Skeleton" and is whole.
  UiFixture narrow(std::string(SKINVIEW_SOURCE_DIR) + "/assets/default.glb", 800.0f, 500.0f);
  const ui::Landmark* skeleton = narrow.marks().find("check:Skeleton");
  const ui::Landmark* axes = narrow.marks().find("check:Axes");
  ASSERT_NE(skeleton, nullptr);
  ASSERT_NE(axes, nullptr);
  EXPECT_GT(axes->rect.y, skeleton->rect.y);
  EXPECT_LE(axes->rect.right(), narrow.state.layout.inspector.right());
  // 1920x1080: one row.
  UiFixture wide(std::string(SKINVIEW_SOURCE_DIR) + "/assets/default.glb", 1920.0f, 1080.0f);
  skeleton = wide.marks().find("check:Skeleton");
  axes = wide.marks().find("check:Axes");
  ASSERT_NE(skeleton, nullptr);
  ASSERT_NE(axes, nullptr);
  EXPECT_EQ(axes->rect.y, skeleton->rect.y);
}

// At 800x500 "Flat colours (unlit)" does not fit beside its box: the label is cut, and a click on
// the box or on the cut label still toggles it.
TEST(TextFit, ACutCheckBoxLabelStillToggles) {
  UiFixture f(std::string(SKINVIEW_SOURCE_DIR) + "/assets/default.glb", 800.0f, 500.0f);
  f.state.render.view = ViewMode::Weights;  // the toggle is live in the debug views
  f.harness.frames(2);
  ASSERT_FALSE(f.state.render.flat_colors);
  ASSERT_TRUE(f.click_mark("check:Flat colours"));
  EXPECT_TRUE(f.state.render.flat_colors);
  const ui::Landmark* box = f.marks().find("check:Flat colours");
  ASSERT_NE(box, nullptr);
  EXPECT_LE(box->rect.w, ImGui::GetFrameHeight() + 0.5f) << "the box alone: the label was cut";
  // The label's text starts just right of the box.
  f.harness.click(box->rect.right() + 12.0f, box->rect.y + 0.5f * box->rect.h);
  EXPECT_FALSE(f.state.render.flat_colors);
}

// A report note longer than any panel: the inspector widens toward it at 1920x1080, to a quarter
// of the window (480), and at 1280x720 keeps the viewport's half; the note is cut, and hovering it
// shows it whole.
TEST(TextFit, SidePanelsWidenTowardTheirContentOnAWideWindow) {
  const std::string path = std::string(SKINVIEW_SOURCE_DIR) + "/assets/default.glb";
  const std::string note(300, 'x');
  UiFixture wide(path, 1920.0f, 1080.0f);
  // Already wider than its preference: the view options' rows and the figures want more.
  EXPECT_GT(wide.state.layout.inspector.w, ui::LayoutPrefs{}.inspector_width);
  wide.report.push_back(note);
  wide.click_mark("header:Import report");
  wide.harness.frames(2);
  EXPECT_EQ(wide.state.layout.inspector.w, 480.0f);
  EXPECT_GE(wide.state.layout.viewport.area(), 0.5f * 1920.0f * 1080.0f);

  UiFixture f(path, 1280.0f, 720.0f);
  f.report.push_back(note);
  f.click_mark("header:Import report");
  f.harness.frames(2);
  EXPECT_LE(f.state.layout.inspector.w, 320.0f);
  EXPECT_GE(f.state.layout.viewport.area(), 0.5f * 1280.0f * 720.0f);
  const ui::Landmark* line = f.marks().find("text:Report", 0);
  ASSERT_NE(line, nullptr);
  EXPECT_LE(line->rect.right(), f.state.layout.inspector.right());
  f.harness.move(line->rect.x + 0.5f * line->rect.w, line->rect.y + 0.5f * line->rect.h);
  f.harness.frame();
  EXPECT_TRUE(tooltip_shown());
  // A new model measures afresh.
  f.state.new_model(f.model);
  EXPECT_EQ(f.state.layout_prefs.inspector_content, 0.0f);
}

TEST(TextFit, ThePanelsWidthsFollowTheirContentUntilAnEdgeIsDragged) {
  ui::LayoutPrefs p;
  p.inspector_content = 400.0f;
  p.outliner_content = 100.0f;  // less than the preference: the preference stays
  ui::Layout l = ui::compute_layout(1920.0f, 1080.0f, p);
  EXPECT_EQ(l.inspector.w, 400.0f);
  EXPECT_EQ(l.outliner.w, 260.0f);
  p.inspector_content = 5000.0f;  // capped at a quarter of the window
  l = ui::compute_layout(1920.0f, 1080.0f, p);
  EXPECT_EQ(l.inspector.w, 480.0f);
  p.inspector_fit = false;  // dragged: the preference alone
  l = ui::compute_layout(1920.0f, 1080.0f, p);
  EXPECT_EQ(l.inspector.w, 310.0f);
}

TEST(TextFit, APanelsEdgeIsAGrabZoneEightUnitsWide) {
  UiFixture f;
  const ui::Rect out = f.state.layout.outliner;
  const ui::Landmark* edge = f.marks().find("edge:Outliner");
  ASSERT_NE(edge, nullptr);
  EXPECT_EQ(edge->rect.w, ui::kGrab);
  EXPECT_EQ(edge->rect.x, out.right() - 0.5f * ui::kGrab);
  // Grabbed 3 units into the viewport (the old edge took 2 inside the panel only).
  const float y = out.y + 0.5f * out.h;
  f.harness.drag(out.right() + 3.0f, y, out.right() + 33.0f, y);
  f.harness.frame();
  EXPECT_NEAR(f.state.layout_prefs.outliner_width, out.w + 30.0f, 1.0f);
  EXPECT_FALSE(f.state.layout_prefs.outliner_fit);
  EXPECT_EQ(f.state.input.orbit_yaw, 0.0f);  // the drag was the edge's, not the camera's
  for (const char* mark : {"edge:Inspector", "edge:Timeline"}) {
    EXPECT_NE(f.marks().find(mark), nullptr) << mark;
  }
}

// Adding layers makes the inspector scroll and adds rows to the timeline; the side panels keep
// their widths (the rows take only the room the viewport's half leaves, and the scroll bar's room
// is kept from the start), at 1280x720 and at 1920x1080, where the timeline does grow.
void layers_do_not_move_the_side_panels(float width, float height) {
  SCOPED_TRACE(width);
  UiFixture f(std::string(SKINVIEW_SOURCE_DIR) + "/assets/default.glb", width, height);
  f.player.clip = 1;
  f.harness.frames(2);
  const ui::Landmark* combo = f.marks().find("combo:View");
  ASSERT_NE(combo, nullptr);
  const float combo_width = combo->rect.w;
  const ui::Rect panel = f.state.layout.inspector;
  const ui::Rect outliner = f.state.layout.outliner;
  const ui::Rect timeline = f.state.layout.timeline;
  for (int i = 0; i < 4; ++i) {
    f.click_mark("button:Add layer");
    f.harness.frame();
  }
  ASSERT_EQ(f.stack.layers.size(), 4u);
  combo = f.marks().find("combo:View");
  ASSERT_NE(combo, nullptr);
  EXPECT_EQ(combo->rect.w, combo_width);
  EXPECT_EQ(f.state.layout.inspector.w, panel.w);
  EXPECT_EQ(f.state.layout.outliner.w, outliner.w);
  EXPECT_GE(f.state.layout.viewport.area(), 0.5f * width * height);
  if (width > 1900.0f) EXPECT_GT(f.state.layout.timeline.h, timeline.h);
}

TEST(TextFit, ThePanelsDoNotJumpWhenALayerRowIsAdded) {
  layers_do_not_move_the_side_panels(1280.0f, 720.0f);
  layers_do_not_move_the_side_panels(1920.0f, 1080.0f);
}

TEST(TextFit, RecentShowsTheFileNameFirstAndOpensOnAClick) {
  const ui::RecentLabel a = ui::recent_label("/home/ana/models/robot.glb");
  EXPECT_EQ(a.name, "robot.glb");
  EXPECT_EQ(a.folder, "/home/ana/models");
  EXPECT_EQ(ui::recent_label("robot.glb").name, "robot.glb");
  EXPECT_EQ(ui::recent_label("robot.glb").folder, "");
  EXPECT_EQ(ui::recent_label("/robot.glb").folder, "/");

  UiFixture f;
  f.state.files.recent[0] = "/a/very/long/folder/name/that/will/not/fit/in/the/panel/robot.glb";
  f.state.files.recent[1] = "/b/dancer.fbx";
  f.harness.frame();
  f.click_mark("node:Recent");
  f.harness.frame();
  const ui::Landmark* row = f.marks().find("recent", 0);
  ASSERT_NE(row, nullptr);
  // The row's tooltip is the whole path.
  f.harness.move(row->rect.x + 20.0f, row->rect.y + 0.5f * row->rect.h);
  f.harness.frame();
  EXPECT_TRUE(tooltip_shown());
  f.click_mark("recent", 1);
  EXPECT_EQ(f.open_requests, 1);
  EXPECT_EQ(std::string(f.state.files.open_path), "/b/dancer.fbx");
}

// The timeline's controls at 800x500: the range's (In, Out, Loop range, Save range...) do not fit
// after the transport's and start the bar's row; every control, the bar included, lies inside the
// panel, and Loop range still toggles. At 1280x720 they stay on the transport's row.
void timeline_inside(float width, float height, bool range_below) {
  SCOPED_TRACE(width);
  UiFixture f(std::string(SKINVIEW_SOURCE_DIR) + "/assets/default.glb", width, height);
  f.state.selection.joint = f.joint("spine_01");  // the key ticks' note takes the row's rest
  f.harness.frames(2);
  const ui::Rect panel = f.state.layout.timeline;
  for (const char* mark : {"button:Play", "button:Stop", "combo:Clip", "check:Loop", "button:In",
                           "button:Out", "check:Loop range", "button:Save range", "scrub"}) {
    const ui::Landmark* m = f.marks().find(mark);
    ASSERT_NE(m, nullptr) << mark;
    EXPECT_GE(m->rect.x, panel.x) << mark;
    EXPECT_LE(m->rect.right(), panel.right()) << mark;
    EXPECT_LE(m->rect.bottom(), panel.bottom()) << mark;
  }
  const ui::Landmark* play = f.marks().find("button:Play");
  const ui::Landmark* in = f.marks().find("button:In");
  const ui::Landmark* scrub = f.marks().find("scrub");
  ASSERT_TRUE(play != nullptr && in != nullptr && scrub != nullptr);
  if (range_below) {
    EXPECT_GT(in->rect.y, play->rect.bottom());
    // The bar shares the range's row: two rows, as the panel's height was made for.
    EXPECT_NEAR(scrub->rect.y + 0.5f * scrub->rect.h, in->rect.y + 0.5f * in->rect.h, 3.0f);
  } else {
    EXPECT_LT(in->rect.y, play->rect.bottom());
    EXPECT_GT(scrub->rect.y, play->rect.bottom());
  }
  ASSERT_FALSE(f.player.loop_range);
  ASSERT_TRUE(f.click_mark("check:Loop range"));
  EXPECT_TRUE(f.player.loop_range);
}

TEST(TextFit, TheTimelinesRangeControlsFlowInANarrowWindow) {
  timeline_inside(800.0f, 500.0f, true);
  timeline_inside(1280.0f, 720.0f, false);
}

// A joint name longer than the tree is wide is cut with "..." inside the tree, and hovering it
// shows it whole; a short one is whole, with no tooltip. At 800x500 the deepest joint of the
// default character (hand_l, ten levels down) still shows its whole name: the levels indent less
// and the vertex count makes way.
TEST(TextFit, AJointNameTooLongForTheTreeIsCutWithItsTooltip) {
  UiFixture f;
  const int32_t spine = f.joint("spine_01");
  ASSERT_GE(spine, 0);
  f.model.skeleton.names[static_cast<std::size_t>(spine)] =
      "spine_01_with_a_name_far_too_long_for_any_outliner_that_leaves_room_for_the_viewport";
  f.harness.frames(2);
  const ui::Landmark* name = f.marks().find("joint name", spine);
  ASSERT_NE(name, nullptr);
  EXPECT_LE(name->rect.right(), name->window.right());
  EXPECT_LT(name->rect.w, ImGui::CalcTextSize(f.model.skeleton.names[spine].c_str()).x);
  f.harness.move(name->rect.x + 10.0f, name->rect.y + 0.5f * name->rect.h);
  f.harness.frame();
  EXPECT_TRUE(tooltip_shown());
  const ui::Landmark* root = f.marks().find("joint name", f.joint("root"));
  ASSERT_NE(root, nullptr);
  EXPECT_EQ(root->rect.w, ImGui::CalcTextSize("root").x);
  f.harness.move(root->rect.x + 10.0f, root->rect.y + 0.5f * root->rect.h);
  f.harness.frame();
  EXPECT_FALSE(tooltip_shown());
  // A click on the cut name selects its joint, as a click on the row does.
  ASSERT_TRUE(f.click_mark("joint name", spine));
  EXPECT_EQ(f.state.selection.joint, spine);

  UiFixture narrow(std::string(SKINVIEW_SOURCE_DIR) + "/assets/default.glb", 800.0f, 500.0f);
  narrow.state.selection.joint = narrow.joint("hand_l");
  narrow.harness.frames(3);
  const ui::Landmark* hand = narrow.marks().find("joint name", narrow.joint("hand_l"));
  ASSERT_NE(hand, nullptr);
  EXPECT_EQ(hand->rect.w, ImGui::CalcTextSize("hand_l").x);
  EXPECT_LE(hand->rect.right(), hand->window.right());
}

// The help overlay (F1) at 800x500: within the window, its longest lines wrapped in their column
// rather than run past the edge (the list scrolls); at 1920x1080 every line fits whole.
TEST(TextFit, TheHelpOverlayWrapsItsLinesInANarrowWindow) {
  for (const float width : {800.0f, 1920.0f}) {
    SCOPED_TRACE(width);
    UiFixture f(std::string(SKINVIEW_SOURCE_DIR) + "/assets/default.glb", width,
                width > 1000.0f ? 1080.0f : 500.0f);
    f.press(ui::kKeyF1);
    f.harness.frames(3);
    ImGuiWindow* help = ImGui::FindWindowByName("###help");
    ASSERT_NE(help, nullptr);
    EXPECT_GE(help->Pos.x, 0.0f);
    EXPECT_LE(help->Pos.x + help->Size.x, width);
    // What the lines would need whole: no more than the window gives them at 1920, more at 800.
    const float inner = help->Size.x - 2.0f * ImGui::GetStyle().WindowPadding.x;
    EXPECT_LE(help->ContentSizeIdeal.x, inner + 1.0f);
  }
}

}  // namespace
}  // namespace sv::test
