// The viewport legends in a headless Dear ImGui context (imgui_harness.h): each
// draws inside the rectangle legend_size() announces, with the colours gfx/view_colors.h gives
// the shaders (so what the legend shows is what the mesh shows).
#include "ui/viewport_overlay.h"

#include <gtest/gtest.h>

#include <cmath>
#include <set>
#include <string>
#include <vector>

#include <imgui.h>

#include "anim/model.h"
#include "gfx/view_colors.h"
#include "imgui_harness.h"
#include "skin/skin_difference.h"
#include "skin/weight_stats.h"

namespace sv {
namespace {

ImU32 shown(const glm::vec3& linear) {
  const glm::vec3 c = display_color(linear);
  return IM_COL32(std::lround(c.r * 255.0f), std::lround(c.g * 255.0f), std::lround(c.b * 255.0f),
                  255);
}

struct Drawn {
  ImVec2 size;
  ImVec2 lo{1e9f, 1e9f}, hi{-1e9f, -1e9f};  // extent of every vertex drawn
  std::set<ImU32> colors;
  int vertices = 0;
};

Drawn draw(const ui::LegendInput& in, const ImVec2& at) {
  test::ImGuiHarness imgui;
  ImGui::GetStyle().AntiAliasedLines = false;  // no fringe outside the shapes
  ImGui::GetStyle().AntiAliasedFill = false;
  Drawn d;
  imgui.draw = [&] {
    d.size = ui::legend_size(in);
    ImDrawList* list = ImGui::GetBackgroundDrawList();
    const int before = list->VtxBuffer.Size;
    ui::draw_legend(list, at, in);
    for (int i = before; i < list->VtxBuffer.Size; ++i) {
      const ImDrawVert& v = list->VtxBuffer[i];
      d.lo = ImVec2(std::min(d.lo.x, v.pos.x), std::min(d.lo.y, v.pos.y));
      d.hi = ImVec2(std::max(d.hi.x, v.pos.x), std::max(d.hi.y, v.pos.y));
      d.colors.insert(v.col);
      ++d.vertices;
    }
  };
  imgui.frame();
  return d;
}

// Rounded corners are built from arcs: vertices may stray by float rounding (~0.01 px).
constexpr float kSlack = 0.05f;

void expect_inside(const Drawn& d, const ImVec2& at) {
  ASSERT_GT(d.vertices, 0);
  EXPECT_GE(d.lo.x, at.x - kSlack);
  EXPECT_GE(d.lo.y, at.y - kSlack);
  EXPECT_LE(d.hi.x, at.x + d.size.x + kSlack);
  EXPECT_LE(d.hi.y, at.y + d.size.y + kSlack);
  // The box is the legend's own background: the extent is the announced size.
  EXPECT_NEAR(d.hi.x - d.lo.x, d.size.x, 2 * kSlack);
  EXPECT_NEAR(d.hi.y - d.lo.y, d.size.y, 2 * kSlack);
}

WeightStats stats() {
  WeightStats s;
  s.vertices = 100;
  s.influences = {40, 30, 20, 5};
  s.truncated = 5;
  s.truncated_over_8 = 1;
  s.largest_cut = 0.3f;
  s.max_influences = 6;
  s.unweighted = 2;
  s.sum_off = 7;
  s.largest_sum_error = 0.38f;
  s.largest_error_sum = 1.38f;
  return s;
}

const std::vector<std::string> kNames = {"root", "spine", "arm"};
const std::vector<JointInfluence> kJoints = {{0, 0.0f}, {60, 1.0f}, {50, 0.5f}};

// A legend input over kJoints and kNames; the fields after hovered_joint keep their defaults
// (set one by one: a braced list that stops early draws clang's missing-field warning).
ui::LegendInput legend_input(ViewMode view, const WeightStats* stats, int32_t selected,
                             int32_t hovered) {
  ui::LegendInput in;
  in.view = view;
  in.stats = stats;
  in.joints = kJoints;
  in.names = kNames;
  in.selected_joint = selected;
  in.hovered_joint = hovered;
  return in;
}

TEST(Legend, ShadedHasNone) {
  ui::LegendInput in;
  const Drawn d = draw(in, ImVec2(10, 10));
  EXPECT_EQ(d.size.x, 0.0f);
  EXPECT_EQ(d.vertices, 0);
}

TEST(Legend, WeightsRampFromBlueToRed) {
  const WeightStats s = stats();
  ui::LegendInput in = legend_input(ViewMode::Weights, &s, 1, -1);
  const ImVec2 at(500, 300);
  const Drawn d = draw(in, at);
  expect_inside(d, at);
  for (float w : {0.0f, 0.25f, 0.5f, 0.75f, 1.0f}) {
    EXPECT_TRUE(d.colors.count(shown(heat_color(w)))) << "weight " << w;
  }
}

TEST(Legend, InfluenceClassesHaveTheViewsColours) {
  const WeightStats s = stats();
  ui::LegendInput in = legend_input(ViewMode::Influences, &s, -1, -1);
  const ImVec2 at(0, 0);
  const Drawn d = draw(in, at);
  expect_inside(d, at);
  for (const glm::vec3& c : kInfluenceColors) EXPECT_TRUE(d.colors.count(shown(c)));
  // The cut-weight ramp, both ends (the ramp draws its segment ends exactly).
  EXPECT_TRUE(d.colors.count(shown(cut_weight_color(1))));
  EXPECT_TRUE(d.colors.count(shown(cut_weight_color(255))));
}

TEST(Legend, WeightSumClassesAndErrorRamp) {
  const WeightStats s = stats();
  ui::LegendInput in = legend_input(ViewMode::WeightSum, &s, -1, -1);
  const ImVec2 at(20, 40);
  const Drawn d = draw(in, at);
  expect_inside(d, at);
  EXPECT_TRUE(d.colors.count(shown(kSumOkColor)));
  EXPECT_TRUE(d.colors.count(shown(kSumUnweightedColor)));
  EXPECT_TRUE(d.colors.count(shown(weight_sum_color(1))));
  EXPECT_TRUE(d.colors.count(shown(weight_sum_color(255))));
}

TEST(Legend, DominantNamesTheSelectedAndHoveredJoints) {
  const WeightStats s = stats();
  ui::LegendInput in = legend_input(ViewMode::Dominant, &s, 1, 2);
  const std::vector<glm::vec3> colors = joint_colors({-1, 0, 0});
  in.joint_colors = colors;
  const ImVec2 at(0, 0);
  const Drawn both = draw(in, at);
  expect_inside(both, at);
  EXPECT_TRUE(both.colors.count(shown(colors[1])));
  EXPECT_TRUE(both.colors.count(shown(colors[2])));
  in.selected_joint = -1;
  in.hovered_joint = -1;
  const Drawn none = draw(in, at);
  EXPECT_FALSE(none.colors.count(shown(colors[1])));
  EXPECT_LT(none.size.y, both.size.y);  // a hint line instead of two swatch rows
}

// The hover read-out's swatches are the view's colours: the heat map's in the weights view (the
// colour of that joint's weight at the vertex), the dominant table's otherwise.
TEST(Legend, HoverSwatchesTakeTheViewsColours) {
  const std::vector<glm::vec3> colors = joint_colors({-1, 0, 0});
  EXPECT_EQ(ui::hover_swatch_color(ViewMode::Weights, colors, 1, 0.25f), heat_color(0.25f));
  EXPECT_EQ(ui::hover_swatch_color(ViewMode::Weights, colors, 2, 1.0f), glm::vec3(1, 0, 0));
  EXPECT_EQ(ui::hover_swatch_color(ViewMode::Dominant, colors, 2, 1.0f), colors[2]);
  EXPECT_EQ(ui::hover_swatch_color(ViewMode::Shaded, colors, 1, 0.5f), colors[1]);
  EXPECT_EQ(ui::hover_swatch_color(ViewMode::Dominant, colors, 7, 0.5f), kNoValueColor);
}

// Collapsed, a legend is its title row alone (with the disclosure arrow), inside the size it
// announces, and shorter than the whole legend; legend_title_size is that size.
TEST(Legend, CollapsedIsTheTitleRow) {
  const WeightStats s = stats();
  ui::LegendInput in = legend_input(ViewMode::WeightSum, &s, -1, -1);
  const Drawn open = draw(in, ImVec2(0, 0));
  in.collapsed = true;
  const Drawn closed = draw(in, ImVec2(0, 0));
  expect_inside(closed, ImVec2(0, 0));
  EXPECT_LT(closed.size.y, 0.5f * open.size.y);
  EXPECT_FALSE(closed.colors.count(shown(kSumUnweightedColor)));  // no swatch rows
  in.collapsed = false;
  test::ImGuiHarness imgui;
  ImVec2 title;
  imgui.draw = [&] { title = ui::legend_title_size(in); };
  imgui.frame();
  EXPECT_EQ(title.x, closed.size.x);
  EXPECT_EQ(title.y, closed.size.y);
}

// The legend window's title row toggles it: a click there returns true once (the caller flips
// its state), a click on the legend's body does not, and the pointer over the legend belongs to
// ImGui (the viewport neither orbits nor picks under it).
TEST(Legend, ClickingTheTitleRowCollapsesIt) {
  const WeightStats s = stats();
  ui::LegendInput in = legend_input(ViewMode::WeightSum, &s, -1, -1);
  test::ImGuiHarness imgui;
  const ImVec2 at(600, 300);
  int toggles = 0;
  bool over_ui = false;
  ImVec2 size;
  imgui.draw = [&] {
    size = ui::legend_size(in);
    if (ui::legend_window(at, in)) {
      ++toggles;
      in.collapsed = !in.collapsed;
    }
  };
  imgui.frames(2);
  const float line = ImGui::GetTextLineHeight();
  const ImVec2 open = size;
  imgui.click(at.x + 0.5f * size.x, at.y + size.y - line);  // the body
  EXPECT_EQ(toggles, 0);
  imgui.move(at.x + 0.5f * size.x, at.y + 0.8f * line);
  over_ui = ImGui::GetIO().WantCaptureMouse;
  EXPECT_TRUE(over_ui);
  imgui.click(at.x + 0.5f * size.x, at.y + 0.8f * line);  // the title row
  EXPECT_EQ(toggles, 1);
  EXPECT_TRUE(in.collapsed);
  imgui.frame();
  EXPECT_LT(size.y, 0.5f * open.y);  // the title row and its padding
  EXPECT_LT(size.x, open.x);         // its short title ("Weight sum")
  imgui.click(at.x + 0.5f * size.x, at.y + 0.8f * line);
  EXPECT_EQ(toggles, 2);
  EXPECT_FALSE(in.collapsed);
}

// The difference views: the heat ramp from blue to red, and the frame's figures; without a
// comparison (CoR's centres pending) the reason in one line instead of the figures' three.
TEST(Legend, DifferenceViewsRampAndFigures) {
  const WeightStats s = stats();
  DifferenceStats diff;
  diff.valid = true;
  diff.model_size = 2.0;
  diff.max = 0.03;
  diff.vertex = 7;
  diff.vertices = 100;
  diff.over = 12;
  for (ViewMode view : {ViewMode::CpuGpu, ViewMode::MethodDiff}) {
    SCOPED_TRACE(static_cast<int>(view));
    ui::LegendInput in = legend_input(ViewMode::Shaded, &s, -1, -1);
    in.view = view;
    in.difference = &diff;
    in.diff_a = SkinMethod::Lbs;
    in.diff_b = SkinMethod::Dqs;
    const ImVec2 at(30, 20);
    const Drawn d = draw(in, at);
    expect_inside(d, at);
    EXPECT_TRUE(d.colors.count(shown(heat_color(0.0f))));
    EXPECT_TRUE(d.colors.count(shown(heat_color(1.0f))));
    DifferenceStats pending;
    in.difference = &pending;
    in.problem = "waiting for the centres of rotation";
    const Drawn waiting = draw(in, at);
    expect_inside(waiting, at);
    EXPECT_LT(waiting.size.y, d.size.y);
  }
}

TEST(Legend, WithoutStatsItStillDraws) {
  ui::LegendInput in = legend_input(ViewMode::Influences, nullptr, -1, -1);
  const Drawn d = draw(in, ImVec2(0, 0));
  expect_inside(d, ImVec2(0, 0));
}

}  // namespace
}  // namespace sv
