// The window's panels, clicked as a user clicks them: the real ui::draw_ui in a headless ImGui
// context (imgui_harness.h) with the default character loaded, synthetic mouse and keys, and the
// result read back from the state the panels edit.
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <imgui.h>
#include <imgui_internal.h>

#include "temp_dir.h"
#include "ui/widgets.h"
#include "ui_fixture.h"

namespace sv::test {
namespace {

std::vector<std::string> header_names(const ui::Landmarks& marks) {
  std::vector<std::string> out;
  for (const ui::Landmark& m : marks) {
    if (std::string_view(m.name).rfind("header:", 0) == 0) out.emplace_back(m.name);
  }
  return out;
}

int header_state(const ui::Landmarks& marks, const std::string& name) {
  const ui::Landmark* m = marks.find(name);
  return m != nullptr ? m->index : -1;
}

// Every section of every panel opens and closes from its header, whatever else is open: with
// every section open first (the view options among them, which is where the "Skeleton" header
// once collided with the "Skeleton" checkbox), then with each closed in turn. Headers below a
// panel's fold are scrolled to first, as a user would.
TEST(Clicks, EverySectionHeaderOpensAndClosesItsSection) {
  UiFixture f;
  f.state.selection.joint = f.joint("spine_03");  // so the Joint section has its body
  f.harness.frames(2);
  // Open every section.
  for (const std::string& h : header_names(f.marks())) {
    if (header_state(f.marks(), h) == 0) f.click_mark(h);
  }
  const std::vector<std::string> headers = header_names(f.marks());
  for (const char* expected :
       {"header:File", "header:Meshes", "header:Joints", "header:Joint", "header:Layers",
        "header:View", "header:Import report", "header:Performance"}) {
    EXPECT_NE(std::find(headers.begin(), headers.end(), expected), headers.end()) << expected;
    EXPECT_EQ(header_state(f.marks(), expected), 1) << expected << " did not open";
  }
  for (const std::string& h : headers) {
    SCOPED_TRACE(h);
    f.click_mark(h);
    EXPECT_EQ(header_state(f.marks(), h), 0) << "did not close";
    f.click_mark(h);
    EXPECT_EQ(header_state(f.marks(), h), 1) << "did not open again";
  }
}

// The test that would have caught the collision: a section whose body holds a widget labelled
// like another section's header. With ui::Section the header still opens; the old way (plain
// CollapsingHeader, bodies in the window's own ID scope) fails the same clicks, which shows the
// harness sees the bug.
TEST(Clicks, AWidgetLabelledLikeAHeaderDoesNotStealItsClicks) {
  for (bool scoped : {true, false}) {
    SCOPED_TRACE(scoped ? "ui::Section" : "plain CollapsingHeader");
    ImGuiHarness h;
    ui::Landmarks marks;
    bool overlay = false;
    bool skeleton_open = false;
    h.draw = [&] {
      marks.clear();
      ImGui::SetNextWindowPos(ImVec2(0, 0));
      ImGui::SetNextWindowSize(ImVec2(300, 400));
      ImGui::Begin("panel");
      if (scoped) {
        {
          ui::Section view("View###view", "view", "header:View", marks);
          if (view) ImGui::Checkbox("Skeleton", &overlay);
        }
        ui::Section skeleton("Skeleton###skeleton", "skeleton", "header:Skeleton", marks, false);
        skeleton_open = static_cast<bool>(skeleton);
      } else {
        if (ImGui::CollapsingHeader("View", ImGuiTreeNodeFlags_DefaultOpen)) {
          ImGui::Checkbox("Skeleton", &overlay);
        }
        skeleton_open = ImGui::CollapsingHeader("Skeleton");
        marks.add_last_item("header:Skeleton");
      }
      ImGui::End();
    };
    h.frames(2);
    ASSERT_FALSE(skeleton_open);
    h.click_mark(marks, "header:Skeleton");
    h.frame();
    if (scoped) {
      EXPECT_TRUE(skeleton_open);
      EXPECT_FALSE(overlay);  // and the checkbox did not take the click either
    } else {
      EXPECT_FALSE(skeleton_open) << "the harness no longer reproduces the collision";
    }
  }
}

// No two widgets share an ID anywhere in the window: the pointer visits every 8 units of every
// panel (every section open, a joint selected) and each hovered ID must cover one connected
// region. Two widgets with one ID would show up as one ID in two places.
// Sweeps the pointer over every panel of `f` (every section opened first) and expects each
// hovered ID to cover one connected region.
void expect_unique_ids(UiFixture& f) {
  for (const std::string& h : header_names(f.marks())) {
    if (header_state(f.marks(), h) == 0) f.harness.click_mark(f.marks(), h);
  }
  constexpr float kStep = 8.0f;
  struct Cell {
    int x, y;
    bool operator<(const Cell& o) const { return x != o.x ? x < o.x : y < o.y; }
  };
  std::map<ImGuiID, std::set<Cell>> cells;
  const ui::Layout l = f.state.layout;
  for (const ui::Rect& r : {l.outliner, l.inspector, l.timeline}) {
    for (float y = r.y + 1; y < r.bottom(); y += kStep) {
      for (float x = r.x + 1; x < r.right(); x += kStep) {
        f.harness.move(x, y);
        const ImGuiID id = ImGui::GetCurrentContext()->HoveredId;
        if (id != 0) {
          cells[id].insert(
              {static_cast<int>(std::lround(x / kStep)), static_cast<int>(std::lround(y / kStep))});
        }
      }
    }
  }
  EXPECT_GT(cells.size(), 30u);  // the sweep found the widgets
  for (auto& [id, set] : cells) {
    // Flood-fill from one cell; every cell of the ID must be reached.
    std::set<Cell> seen{*set.begin()};
    std::vector<Cell> todo{*set.begin()};
    while (!todo.empty()) {
      const Cell c = todo.back();
      todo.pop_back();
      for (const Cell n :
           {Cell{c.x + 1, c.y}, Cell{c.x - 1, c.y}, Cell{c.x, c.y + 1}, Cell{c.x, c.y - 1}}) {
        if (set.count(n) != 0 && seen.insert(n).second) todo.push_back(n);
      }
    }
    EXPECT_EQ(seen.size(), set.size())
        << "ID " << id << " is hovered in separate places, e.g. (" << set.begin()->x * kStep << ", "
        << set.begin()->y * kStep << ") and (" << set.rbegin()->x * kStep << ", "
        << set.rbegin()->y * kStep << ")";
  }
}

TEST(Clicks, NoTwoWidgetsShareAnId) {
  UiFixture f;
  f.state.selection.joint = f.joint("hand_l");
  f.harness.frames(2);
  expect_unique_ids(f);
}

// The same with the layer stack filled: two layers (each row's widgets repeat per layer), a
// cross-fade running (its timeline row) and a mask being edited (a check box on every joint row).
TEST(Clicks, NoTwoWidgetsShareAnIdWithLayers) {
  UiFixture f;
  f.player.clip = 1;  // walk
  for (const int32_t clip : {2, 5}) {
    PlayedLayer l;
    l.player.clip = clip;
    f.stack.layers.push_back(l);
  }
  f.stack.layers[1].mode = BlendMode::Additive;
  ASSERT_TRUE(f.stack.start_fade(f.model, f.player, 4, 1.0, true));
  f.state.layers.mask_layer = 0;
  f.state.selection.joint = f.joint("hand_l");
  f.harness.frames(3);
  ASSERT_NE(f.marks().find("mask", f.joint("hand_l")), nullptr);
  ASSERT_NE(f.marks().find("layer:bar", 1), nullptr);
  expect_unique_ids(f);
}

TEST(Clicks, ChoosingAJointInTheTreeSelectsItAndTheInspectorShowsIt) {
  UiFixture f;
  const int32_t spine = f.joint("spine_03");
  ASSERT_GE(spine, 0);
  EXPECT_EQ(f.state.selection.joint, -1);
  EXPECT_EQ(f.marks().find("button:Clear selection"), nullptr);
  f.harness.click_mark(f.marks(), "joint", spine);
  EXPECT_EQ(f.state.selection.joint, spine);
  EXPECT_NE(f.marks().find("button:Clear selection"), nullptr);
  // The parent button selects the parent, and the tree follows.
  f.harness.click_mark(f.marks(), "button:Parent");
  EXPECT_EQ(f.state.selection.joint, f.model.skeleton.parents[spine]);
  f.harness.click_mark(f.marks(), "button:Clear selection");
  EXPECT_EQ(f.state.selection.joint, -1);
}

TEST(Clicks, TheTreeArrowClosesAJointWithoutSelectingIt) {
  UiFixture f;
  const int32_t thigh = f.joint("thigh_l"), foot = f.joint("foot_l");
  ASSERT_NE(f.marks().find("joint", foot), nullptr);
  const ui::Landmark* row = f.marks().find("joint", thigh);
  ASSERT_NE(row, nullptr);
  // The arrow is the first thing in the row's rectangle (which starts at its indentation).
  f.harness.click(row->rect.x + ImGui::GetFontSize() * 0.5f + ImGui::GetStyle().FramePadding.x,
                  row->rect.y + 0.5f * row->rect.h);
  f.harness.frame();
  EXPECT_EQ(f.state.selection.joint, -1);
  EXPECT_EQ(f.marks().find("joint", foot), nullptr) << "foot_l still shown under a closed thigh";
  EXPECT_NE(f.marks().find("joint", thigh), nullptr);
}

TEST(Clicks, TheNameFilterFilters) {
  UiFixture f;
  f.harness.click_mark(f.marks(), "input:filter");
  f.harness.type("FOOT");  // case does not matter
  f.harness.frame();
  EXPECT_EQ(f.state.tree.matches, 2u);
  EXPECT_NE(f.marks().find("joint", f.joint("foot_l")), nullptr);
  EXPECT_NE(f.marks().find("joint", f.joint("foot_r")), nullptr);
  EXPECT_NE(f.marks().find("joint", f.joint("thigh_l")), nullptr);  // on the path
  EXPECT_EQ(f.marks().find("joint", f.joint("head")), nullptr);
  EXPECT_EQ(f.marks().find("joint", f.joint("toe_l")), nullptr);
  // Typing in the filter is not a shortcut: 'W' and 'S' go into the text, not to the view (the
  // window queues both the key presses and the characters, as here).
  f.keys.push_back({ui::kKeyW, 0, 0});
  f.keys.push_back({ui::kKeyS, 0, 0});
  f.harness.type("ws");
  EXPECT_EQ(std::string(f.state.tree.filter), "FOOTws");
  EXPECT_FALSE(f.state.render.wireframe);
  EXPECT_FALSE(f.state.render.skeleton);
}

TEST(Clicks, TheClipComboSwitchesClips) {
  UiFixture f;
  ASSERT_GE(f.model.clips.size(), 3u);
  f.player.time = 1.0;
  f.harness.click_mark(f.marks(), "combo:Clip");
  f.harness.frame();
  f.harness.click_mark(f.marks(), "clip", 2);
  EXPECT_EQ(f.player.clip, 2);
  EXPECT_EQ(f.model.clips[2].name(), "wave");
  EXPECT_DOUBLE_EQ(f.player.time, 0.0);
  f.harness.click_mark(f.marks(), "combo:Clip");
  f.harness.frame();
  f.harness.click_mark(f.marks(), "clip", -1);
  EXPECT_EQ(f.player.clip, kRestPose);
}

TEST(Clicks, PlayAtTheEndOfAClipThatDoesNotLoopStartsItOver) {
  UiFixture f;
  f.harness.click_mark(f.marks(), "check:Loop");
  EXPECT_FALSE(f.player.loop);
  f.player.time = f.duration();
  f.player.playing = false;
  f.harness.click_mark(f.marks(), "button:Play");
  EXPECT_TRUE(f.player.playing);
  EXPECT_DOUBLE_EQ(f.player.time, 0.0);
  // Space does the same.
  f.player.time = f.duration();
  f.player.playing = false;
  f.press(ui::kKeySpace);
  EXPECT_TRUE(f.player.playing);
  EXPECT_DOUBLE_EQ(f.player.time, 0.0);
  f.press(ui::kKeySpace);
  EXPECT_FALSE(f.player.playing);
}

// A model without clips (box.obj) has nothing to play: the button reads "Play" though the player
// starts playing, takes no click, and says why on hover; the default character's rest pose too.
TEST(Clicks, PlayIsDisabledWithNothingToPlay) {
  UiFixture f(std::string(SKINVIEW_TEST_MODELS) + "/OBJ/box.obj");
  ASSERT_TRUE(f.model.clips.empty());
  f.player.playing = true;
  f.harness.frame();
  const ui::Landmark* play = f.marks().find("button:Play");
  ASSERT_NE(play, nullptr);
  EXPECT_STREQ(play->label, "Play");
  EXPECT_TRUE(play->disabled);
  EXPECT_FALSE(tooltip_shown());
  f.harness.hover_mark(f.marks(), "button:Play");
  EXPECT_TRUE(tooltip_shown());  // why it is disabled
  f.harness.click_mark(f.marks(), "button:Play");
  EXPECT_TRUE(f.player.playing);  // the click did nothing: still as it was

  UiFixture g;
  g.player.playing = true;
  g.harness.frame();
  play = g.marks().find("button:Play");
  ASSERT_NE(play, nullptr);
  EXPECT_STREQ(play->label, "Pause");
  EXPECT_FALSE(play->disabled);
  g.harness.click_mark(g.marks(), "combo:Clip");
  g.harness.frame();
  g.harness.click_mark(g.marks(), "clip", -1);  // (rest pose)
  ASSERT_EQ(g.player.clip, kRestPose);
  g.harness.frame();  // the button is drawn before the combo
  play = g.marks().find("button:Play");
  EXPECT_STREQ(play->label, "Play");
  EXPECT_TRUE(play->disabled);
}

TEST(Clicks, TheScrubBarSeeksAndPauses) {
  UiFixture f;
  f.player.playing = true;
  const ui::Landmark* bar = f.marks().find("scrub");
  ASSERT_NE(bar, nullptr);
  const ui::Rect r = bar->rect;
  f.harness.click(r.x + 0.25f * r.w, r.y + 0.5f * r.h);
  EXPECT_NEAR(f.player.time, 0.25 * f.duration(), f.duration() / r.w);
  EXPECT_FALSE(f.player.playing);
  f.harness.drag(r.x + 0.25f * r.w, r.y + 0.5f * r.h, r.x + 0.75f * r.w, r.y + 0.5f * r.h);
  EXPECT_NEAR(f.player.time, 0.75 * f.duration(), f.duration() / r.w);
  // Dragging past the end clamps.
  f.harness.drag(r.x + 0.5f * r.w, r.y + 0.5f * r.h, r.right() + 200.0f, r.y + 0.5f * r.h);
  EXPECT_DOUBLE_EQ(f.player.time, f.duration());
}

TEST(Clicks, TheKeyButtonsJumpBetweenTheSelectedJointsKeys) {
  UiFixture f;
  const int32_t head = f.joint("head");
  f.state.selection.joint = head;
  f.harness.frame();
  std::vector<double> keys;
  for (TrackPath path : {TrackPath::Translation, TrackPath::Rotation, TrackPath::Scale}) {
    const std::span<const double> t =
        f.model.clips[0].key_times(static_cast<std::size_t>(head), path);
    keys.insert(keys.end(), t.begin(), t.end());
  }
  std::sort(keys.begin(), keys.end());
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  ASSERT_GE(keys.size(), 3u);
  f.player.time = 0.5 * (keys[0] + keys[1]);
  f.press(ui::kKeyPageDown);
  EXPECT_DOUBLE_EQ(f.player.time, keys[1]);
  f.press(ui::kKeyPageDown);
  EXPECT_DOUBLE_EQ(f.player.time, keys[2]);
  f.press(ui::kKeyPageUp);
  EXPECT_DOUBLE_EQ(f.player.time, keys[1]);
}

TEST(Clicks, CollapsingAPanelGrowsTheViewport) {
  UiFixture f;
  const ui::Rect before = f.state.layout.viewport;
  f.harness.click_mark(f.marks(), "collapse:Outliner");
  f.harness.frame();
  EXPECT_TRUE(f.state.layout_prefs.outliner_collapsed);
  EXPECT_FLOAT_EQ(f.state.layout.viewport.x, ui::kStrip);
  EXPECT_GT(f.state.layout.viewport.w, before.w + 200.0f);
  f.harness.click_mark(f.marks(), "collapse:Inspector");
  f.harness.click_mark(f.marks(), "collapse:Timeline");
  f.harness.frame();
  EXPECT_FLOAT_EQ(f.state.layout.viewport.w, 1280.0f - 2 * ui::kStrip);
  EXPECT_FLOAT_EQ(f.state.layout.viewport.h, 720.0f - ui::kStrip);
  EXPECT_EQ(f.state.viewport.width, 1280 - 2 * static_cast<int>(ui::kStrip));
  for (const char* expand : {"expand:Outliner", "expand:Inspector", "expand:Timeline"}) {
    f.harness.click_mark(f.marks(), expand);
  }
  f.harness.frame();
  EXPECT_FLOAT_EQ(f.state.layout.viewport.w, before.w);
  EXPECT_FLOAT_EQ(f.state.layout.viewport.h, before.h);
}

TEST(Clicks, DraggingAPanelsInnerEdgeResizesIt) {
  UiFixture f;
  const ui::Rect out = f.state.layout.outliner;
  const float y = out.y + 0.5f * out.h;
  f.harness.drag(out.right() - 1.0f, y, out.right() + 39.0f, y);
  f.harness.frame();
  EXPECT_NEAR(f.state.layout_prefs.outliner_width, out.w + 40.0f, 1.0f);
  // At 1280x720 the default panels already use the room the viewport can spare, so both side
  // panels give way in proportion (layout.h): the outliner grows, the inspector shrinks.
  EXPECT_GT(f.state.layout.outliner.w, out.w + 10.0f);
  EXPECT_LT(f.state.layout.inspector.w, 310.0f);
  EXPECT_GE(f.state.layout.viewport.area(), 0.5f * 1280.0f * 720.0f);
  EXPECT_EQ(f.state.input.orbit_yaw, 0.0f);  // the drag was the panel's, not the camera's
  // The timeline's top edge, 30 units up: the timeline grows, the viewport gives way.
  const ui::Rect t = f.state.layout.timeline;
  const float vh = f.state.layout.viewport.h;
  f.harness.drag(t.x + 0.5f * t.w, t.y + 1.0f, t.x + 0.5f * t.w, t.y - 29.0f);
  f.harness.frame();
  EXPECT_NEAR(f.state.layout.timeline.h, t.h + 30.0f, 1.0f);
  EXPECT_NEAR(f.state.layout.viewport.h, vh - 30.0f, 1.0f);
  EXPECT_FLOAT_EQ(f.state.layout.timeline.w, 1280.0f);
}

TEST(Clicks, TheViewportOrbitsPansZoomsAndClicks) {
  UiFixture f;
  const ui::Rect v = f.state.layout.viewport;
  const float cx = v.x + 0.5f * v.w, cy = v.y + 0.5f * v.h;
  f.harness.move(cx, cy);
  EXPECT_TRUE(f.state.input.hovered);
  f.harness.io().MouseDown[0] = true;
  f.harness.frame();
  f.harness.io().MousePos = ImVec2(cx + 10.0f, cy - 5.0f);
  f.harness.frame();
  EXPECT_FLOAT_EQ(f.state.input.orbit_yaw, -10.0f * ui::kOrbitPerUnit);
  EXPECT_FLOAT_EQ(f.state.input.orbit_pitch, -5.0f * ui::kOrbitPerUnit);
  f.harness.io().MouseDown[0] = false;
  f.harness.frame();
  EXPECT_FALSE(f.state.input.clicked) << "a drag is not a click";
  f.harness.drag(cx, cy, cx, cy + 0.1f * v.h, 1);
  f.harness.io().MouseDown[1] = true;
  f.harness.frame();
  f.harness.io().MousePos = ImVec2(cx, cy + 0.1f * v.h + 0.1f * v.h);
  f.harness.frame();
  // ImGui floors the pointer to whole units.
  EXPECT_NEAR(f.state.input.pan_y, 0.1f, 1.0f / v.h);
  f.harness.io().MouseDown[1] = false;
  f.harness.io().MouseWheel = 2.0f;
  f.harness.frame();
  EXPECT_FLOAT_EQ(f.state.input.zoom, ui::kZoomPerNotch * ui::kZoomPerNotch);
  // A click: pressed and released in place.
  f.harness.move(cx, cy);
  f.harness.io().MouseDown[0] = true;
  f.harness.frame();
  f.harness.io().MouseDown[0] = false;
  f.harness.frame();
  EXPECT_TRUE(f.state.input.clicked);
  EXPECT_FLOAT_EQ(f.state.input.mouse_x, cx);
  // A pointer that jumps and presses within one frame: the jump is not a drag.
  f.harness.move(cx + 300.0f, cy + 100.0f);
  f.harness.io().MousePos = ImVec2(cx, cy);
  f.harness.io().MouseDown[0] = true;
  f.harness.frame();
  EXPECT_EQ(f.state.input.orbit_yaw, 0.0f);
  EXPECT_EQ(f.state.input.orbit_pitch, 0.0f);
  f.harness.io().MouseDown[0] = false;
  f.harness.frame();
  // A press on a panel dragged into the viewport moves no camera.
  const ui::Rect o = f.state.layout.outliner;
  f.harness.move(o.x + 0.5f * o.w, o.bottom() - 4.0f);
  f.harness.io().MouseDown[0] = true;
  f.harness.frame();
  f.harness.io().MousePos = ImVec2(cx, cy);
  f.harness.frame();
  EXPECT_EQ(f.state.input.orbit_yaw, 0.0f);
  f.harness.io().MouseDown[0] = false;
  f.harness.frame();
  EXPECT_FALSE(f.state.input.clicked);
}

TEST(Clicks, KeysDoWhatTheHelpSays) {
  UiFixture f;
  f.press(ui::kKeyF);
  EXPECT_EQ(f.edits.view, ui::Action::FrameSelected);
  f.press(ui::kKeyA);
  EXPECT_TRUE(f.edits.frame);
  f.press(ui::kKeyHome);
  EXPECT_TRUE(f.edits.reset_view);
  f.press(ui::kKeyW);
  EXPECT_TRUE(f.state.render.wireframe);
  f.press(ui::kKeyS);
  EXPECT_TRUE(f.state.render.skeleton);
  const bool gpu = f.state.render.gpu_skinning;
  f.press(ui::kKeyG);
  EXPECT_NE(f.state.render.gpu_skinning, gpu);
  EXPECT_EQ(f.state.render.method, SkinMethod::Lbs);
  f.press(ui::kKeyM);
  EXPECT_EQ(f.state.render.method, SkinMethod::Dqs);
  f.press(ui::kKeyM);
  EXPECT_EQ(f.state.render.method, SkinMethod::Cor);
  f.press(ui::kKeyM);
  EXPECT_EQ(f.state.render.method, SkinMethod::Lbs);
  EXPECT_EQ(f.state.render.influences, 4);
  f.press(ui::kKeyI);
  EXPECT_EQ(f.state.render.influences, 8);
  f.press(ui::kKeyI);
  EXPECT_EQ(f.state.render.influences, 4);
  f.typed('?');
  EXPECT_TRUE(f.state.help_open);
  EXPECT_NE(ImGui::FindWindowByName("###help"), nullptr);
  f.press(ui::kKeyEscape);
  EXPECT_FALSE(f.state.help_open);
  f.press(ui::kKeyF1);
  EXPECT_TRUE(f.state.help_open);
  f.press(ui::kKeyF1);
  EXPECT_FALSE(f.state.help_open);
  f.press(ui::kKeyQ);  // Q alone is not quit
  EXPECT_FALSE(f.edits.quit);
  f.press(ui::kKeyQ, ui::kModControl);
  EXPECT_TRUE(f.edits.quit);
  f.player.playing = false;
  f.player.time = 0.0f;
  f.press(ui::kKeyRight);
  EXPECT_DOUBLE_EQ(f.player.time, 1.0 / 30.0);
  f.press(ui::kKeyLeft);
  EXPECT_DOUBLE_EQ(f.player.time, 0.0);
}

TEST(Clicks, TheViewButtonsAndTheViewComboEditTheOptions) {
  UiFixture f;
  f.harness.click_mark(f.marks(), "button:Frame");
  EXPECT_TRUE(f.edits.frame);
  f.harness.click_mark(f.marks(), "check:Skeleton");
  EXPECT_TRUE(f.state.render.skeleton);
  f.harness.click_mark(f.marks(), "radio:CPU");
  EXPECT_FALSE(f.state.render.gpu_skinning);
  // On a software rasteriser the section says why the CPU path is the default (--skinning auto);
  // the GPU radio still chooses the GPU path there.
  EXPECT_EQ(f.marks().find("text:SoftwareGl"), nullptr);
  f.state.software_gl = true;
  f.harness.frame();
  EXPECT_NE(f.marks().find("text:SoftwareGl"), nullptr);
  f.harness.click_mark(f.marks(), "radio:GPU");
  EXPECT_TRUE(f.state.render.gpu_skinning);
  f.harness.click_mark(f.marks(), "radio:CPU");
  EXPECT_FALSE(f.state.render.gpu_skinning);
  f.state.software_gl = false;
  f.harness.frame();
  EXPECT_EQ(f.marks().find("text:SoftwareGl"), nullptr);
  f.harness.click_mark(f.marks(), "radio:DQS");
  EXPECT_EQ(f.state.render.method, SkinMethod::Dqs);
  EXPECT_EQ(f.marks().find("progress:Centres"), nullptr);
  // CoR while its centres are computed: the View section shows how far they are.
  f.centers_progress = 0.4f;
  f.harness.click_mark(f.marks(), "radio:CoR");
  EXPECT_EQ(f.state.render.method, SkinMethod::Cor);
  f.harness.frame();
  EXPECT_NE(f.marks().find("progress:Centres"), nullptr);
  f.centers_progress = 1.0f;
  f.harness.frame();
  EXPECT_EQ(f.marks().find("progress:Centres"), nullptr);
  f.harness.click_mark(f.marks(), "radio:LBS");
  EXPECT_EQ(f.state.render.method, SkinMethod::Lbs);
  // The clip's volume figure (skin/volume.h) sits under the methods when there is one.
  EXPECT_EQ(f.marks().find("text:Volume"), nullptr);
  VolumeFigures volume;
  volume.meshes.push_back({"body", MeshShape::Closed, true, 1.0, -0.0031, 1.0, 0.0, 0.0});
  volume.poses = volume.poses_at_rate = 61;
  f.volume = &volume;
  f.harness.frame();
  const ui::Landmark* figure = f.marks().find("text:Volume");
  ASSERT_NE(figure, nullptr);
  EXPECT_GT(figure->rect.y, f.marks().find("radio:LBS")->rect.y);
  f.volume = nullptr;
  f.harness.frame();
  EXPECT_EQ(f.marks().find("text:Volume"), nullptr);
  // The combo's second entry: the weights view.
  const ui::Landmark* combo = f.marks().find("combo:View");
  ASSERT_NE(combo, nullptr);
  f.harness.click_mark(f.marks(), "combo:View");
  f.harness.click(combo->rect.x + 20.0f, combo->rect.bottom() + 1.5f * ImGui::GetFrameHeight());
  EXPECT_EQ(f.state.render.view, ViewMode::Weights);
}

// "Flat colours (unlit)": greyed out in the shaded view (a click changes nothing), a toggle in
// the debug views; the Background colour shows its value beside the swatch (a lone swatch read as
// a check box); Performance counts the skeleton's joints, not the palette's entries.
TEST(Clicks, FlatColoursToggleInTheDebugViews) {
  UiFixture f;
  ASSERT_EQ(f.state.render.view, ViewMode::Shaded);
  ASSERT_TRUE(f.click_mark("check:Flat colours"));
  EXPECT_FALSE(f.state.render.flat_colors);
  f.state.render.view = ViewMode::Weights;
  ASSERT_TRUE(f.click_mark("check:Flat colours"));
  EXPECT_TRUE(f.state.render.flat_colors);
  ASSERT_TRUE(f.click_mark("check:Flat colours"));
  EXPECT_FALSE(f.state.render.flat_colors);
  f.state.render.view = ViewMode::Dominant;
  ASSERT_TRUE(f.click_mark("check:Flat colours"));
  EXPECT_TRUE(f.state.render.flat_colors);
  // The background colour's widget is wider than a check box: swatch plus its hex value.
  const ui::Landmark* bg = f.marks().find("color:Background");
  ASSERT_NE(bg, nullptr);
  EXPECT_GT(bg->rect.w, 4.0f * ImGui::GetFrameHeight());
}

// "Show back faces": off by default (glTF's single-sided materials culled), each click toggles
// RenderOptions::show_back_faces, in the shaded view and a debug view alike.
TEST(Clicks, ShowBackFacesToggles) {
  UiFixture f;
  ASSERT_FALSE(f.state.render.show_back_faces);
  ASSERT_TRUE(f.click_mark("check:Back faces"));
  EXPECT_TRUE(f.state.render.show_back_faces);
  ASSERT_TRUE(f.click_mark("check:Back faces"));
  EXPECT_FALSE(f.state.render.show_back_faces);
  f.state.render.view = ViewMode::Weights;
  ASSERT_TRUE(f.click_mark("check:Back faces"));
  EXPECT_TRUE(f.state.render.show_back_faces);
}

// The Meshes section says which meshes are single-sided (glTF's doubleSided false): both of the
// default character's, neither once their materials are double-sided.
TEST(Clicks, TheMeshesSectionNamesSingleSidedMeshes) {
  UiFixture f;
  ASSERT_TRUE(f.click_mark("header:Meshes"));
  f.harness.frame();
  ASSERT_EQ(f.model.meshes.size(), 2u);
  EXPECT_NE(f.marks().find("text:Single-sided", 0), nullptr);
  EXPECT_NE(f.marks().find("text:Single-sided", 1), nullptr);
  for (Material& m : f.model.materials) m.double_sided = true;
  f.harness.frame();
  EXPECT_EQ(f.marks().find("text:Single-sided"), nullptr);
}

// Picks entry `i` of the combo at landmark `mark`: opens it, then clicks the entry's row in the
// popup (ImGui 1.86 lays a combo's entries one text line plus item spacing apart, under a
// window padding's top margin).
void pick_combo(UiFixture& f, const char* mark, int i) {
  ASSERT_TRUE(f.click_mark(mark)) << mark;
  const ui::Landmark* combo = f.marks().find(mark);
  ASSERT_NE(combo, nullptr) << mark;
  const ImGuiStyle& style = ImGui::GetStyle();
  const float row = ImGui::GetTextLineHeightWithSpacing();
  f.harness.click(combo->rect.x + 10.0f, combo->rect.bottom() + style.WindowPadding.y +
                                             (static_cast<float>(i) + 0.4f) * row);
}

// The difference views from the View combo: its last two entries; the method pair's combos show
// with the method-difference view only, and choose each side.
TEST(Clicks, TheViewComboReachesTheDifferenceViewsAndTheirMethodPair) {
  UiFixture f;
  EXPECT_EQ(f.marks().find("combo:Diff A"), nullptr);
  pick_combo(f, "combo:View", 5);
  EXPECT_EQ(f.state.render.view, ViewMode::CpuGpu);
  EXPECT_EQ(f.marks().find("combo:Diff A"), nullptr);
  pick_combo(f, "combo:View", 6);
  ASSERT_EQ(f.state.render.view, ViewMode::MethodDiff);
  f.harness.frame();
  ASSERT_NE(f.marks().find("combo:Diff A"), nullptr);
  ASSERT_NE(f.marks().find("combo:Diff B"), nullptr);
  EXPECT_EQ(f.state.render.diff_a, SkinMethod::Lbs);  // the default pair
  EXPECT_EQ(f.state.render.diff_b, SkinMethod::Dqs);
  pick_combo(f, "combo:Diff B", 2);
  EXPECT_EQ(f.state.render.diff_b, SkinMethod::Cor);
  pick_combo(f, "combo:Diff A", 1);
  EXPECT_EQ(f.state.render.diff_a, SkinMethod::Dqs);
  // The drawn method is a separate choice: untouched.
  EXPECT_EQ(f.state.render.method, SkinMethod::Lbs);
  pick_combo(f, "combo:View", 0);
  EXPECT_EQ(f.state.render.view, ViewMode::Shaded);
  EXPECT_EQ(f.marks().find("combo:Diff A"), nullptr);
}

// The View section's influence buttons sit by the method buttons and switch 4 / 8 live; the
// default character has at most 4, which the section says.
TEST(Clicks, TheInfluenceButtonsSwitchFourAndEight) {
  UiFixture f;
  EXPECT_EQ(f.state.render.influences, 4);
  const ui::Landmark* eight = f.marks().find("radio:Influences 8");
  ASSERT_NE(eight, nullptr);
  EXPECT_GT(eight->rect.y, f.marks().find("radio:LBS")->rect.y);
  f.harness.click_mark(f.marks(), "radio:Influences 8");
  EXPECT_EQ(f.state.render.influences, 8);
  f.harness.click_mark(f.marks(), "radio:Influences 4");
  EXPECT_EQ(f.state.render.influences, 4);
  f.harness.click_mark(f.marks(), "radio:Influences 8");
  EXPECT_EQ(f.state.render.influences, 8);
  f.harness.click_mark(f.marks(), "radio:LBS");  // the method buttons leave it alone
  EXPECT_EQ(f.state.render.influences, 8);
}

// The browser: folders first, then files, case-insensitive; a click selects, a double click or
// Enter opens (a folder is entered).
// Opening the import report shows its notes, and, for a model read from the model cache, the
// line saying the importer did not run.
TEST(Clicks, TheImportReportSaysWhenTheModelCameFromTheCache) {
  UiFixture f;
  ASSERT_TRUE(f.click_mark("header:Import report"));
  ASSERT_NE(f.marks().find("header:Import report", 1), nullptr) << "the report did not open";
  EXPECT_EQ(f.marks().find("text:From cache"), nullptr);
  f.from_cache = true;
  f.harness.frame();
  const ui::Landmark* line = f.marks().find("text:From cache");
  ASSERT_NE(line, nullptr);
  EXPECT_GT(line->rect.y, f.marks().find("header:Import report")->rect.y);
}

TEST(Clicks, TheBrowserSelectsOnAClickAndOpensOnADoubleClickOrEnter) {
  const TempDir temp;
  const std::string& dir = temp.path();
  ASSERT_FALSE(dir.empty());
  std::filesystem::create_directory(dir + "/sub");
  for (const char* f : {"b.glb", "A.glb", "notes.txt", "sub/c.glb"}) std::ofstream(dir + "/" + f);
  UiFixture f;
  f.state.files.extensions = {"glb"};
  f.state.files.browse_dir = dir;
  f.harness.click_mark(f.marks(), "node:Browse");
  f.harness.frame();
  ASSERT_EQ(f.state.files.entries.size(), 3u);
  EXPECT_EQ(f.state.files.entries[0].name, "sub");
  EXPECT_EQ(f.state.files.entries[1].name, "A.glb");
  EXPECT_EQ(f.state.files.entries[2].name, "b.glb");
  f.harness.click_mark(f.marks(), "entry", 1);
  EXPECT_EQ(f.state.files.selected, 1);
  EXPECT_EQ(f.open_requests, 0) << "a single click opened the file";
  const ui::Landmark* a = f.marks().find("entry", 1);
  ASSERT_NE(a, nullptr);
  f.harness.double_click(a->rect.x + 10.0f, a->rect.y + 0.5f * a->rect.h);
  EXPECT_EQ(f.open_requests, 1);
  EXPECT_EQ(std::string(f.state.files.open_path), dir + "/A.glb");
  f.harness.click_mark(f.marks(), "entry", 2);
  EXPECT_EQ(f.open_requests, 1);
  f.harness.key(ui::kKeyEnter);
  EXPECT_EQ(f.open_requests, 2);
  EXPECT_EQ(std::string(f.state.files.open_path), dir + "/b.glb");
  f.harness.frame();
  const ui::Landmark* sub = f.marks().find("entry", 0);
  ASSERT_NE(sub, nullptr);
  f.harness.double_click(sub->rect.x + 10.0f, sub->rect.y + 0.5f * sub->rect.h);
  f.harness.frame();
  EXPECT_EQ(f.state.files.browse_dir, dir + "/sub");
  ASSERT_EQ(f.state.files.entries.size(), 1u);
  EXPECT_EQ(f.state.files.entries[0].name, "c.glb");
}

TEST(Clicks, AFolderTypedInThePathBoxOpensInTheBrowser) {
  const TempDir temp;
  std::ofstream(temp / "a.glb");
  UiFixture f;
  f.state.files.extensions = {"glb"};
  ASSERT_TRUE(f.harness.click_mark(f.marks(), "input:path"));
  f.harness.type(temp.path() + "/");
  f.harness.key(ui::kKeyEnter);
  f.harness.frame();
  EXPECT_EQ(f.open_requests, 0) << "a folder was opened as a file";
  EXPECT_EQ(f.state.files.browse_dir, temp.path());
  ASSERT_EQ(f.state.files.entries.size(), 1u) << "the browser is open on the folder";
  EXPECT_EQ(f.state.files.entries[0].name, "a.glb");
  EXPECT_NE(f.marks().find("entry", 0), nullptr);
}

TEST(Clicks, ANewModelStartsShadedWithNothingSelected) {
  UiFixture f;
  f.state.selection.joint = 3;
  f.state.render.view = ViewMode::Dominant;
  f.state.new_model(f.model);
  EXPECT_EQ(f.state.selection.joint, -1);
  EXPECT_EQ(f.state.render.view, ViewMode::Shaded);
  EXPECT_FALSE(f.state.render.skeleton);
  Model bones_only;
  bones_only.skeleton.names = {"root"};
  bones_only.skeleton.parents = {-1};
  bones_only.skeleton.rest.emplace_back();
  bones_only.skeleton.inverse_bind.emplace_back(1.0f);
  bones_only.skeleton.is_bone = {0};
  f.state.new_model(bones_only);
  EXPECT_TRUE(f.state.render.skeleton) << "a skeleton-only model shows its skeleton";
}

TEST(Clicks, AtEightHundredByFiveHundredTheViewportKeepsHalfTheWindow) {
  UiFixture f(std::string(SKINVIEW_SOURCE_DIR) + "/assets/default.glb", 800.0f, 500.0f);
  EXPECT_GE(f.state.layout.viewport.area(), 0.5f * 800.0f * 500.0f);
  EXPECT_NE(f.marks().find("button:Play"), nullptr);
  EXPECT_NE(f.marks().find("header:View"), nullptr);
}

}  // namespace
}  // namespace sv::test
