// "No allocation per frame" for the window's UI: once the panels have drawn a few frames, frames
// with the pointer moving over every panel, a joint selected, the timeline playing and the help
// open perform no C++ heap allocation. Counted by replacing the global operator new in this test
// program. (ImGui's own buffers use malloc through its allocator hooks and settle after the
// first frames; they are not counted.)
#include <gtest/gtest.h>

#include "allocation_counter.h"
#include "anim/blend.h"
#include "skin/weight_stats.h"
#include "ui/legend_place.h"
#include "ui/viewport_overlay.h"
#include "ui_fixture.h"

namespace sv::test {
namespace {

TEST(UiFrame, NoHeapAllocationPerFrame) {
  if (!SV_COUNT_ALLOCATIONS) GTEST_SKIP() << "allocation counting is off under AddressSanitizer";
  UiFixture f;
  f.state.selection.joint = f.joint("hand_r");
  f.state.help_open = true;
  f.player.playing = true;
  f.keys.reserve(8);
  auto sweep = [&] {
    for (float y = 5.0f; y < 720.0f; y += 37.0f) {
      for (float x = 5.0f; x < 1280.0f; x += 97.0f) {
        f.player.advance(1.0f / 60.0f, f.duration());
        f.harness.move(x, y);
      }
    }
  };
  sweep();  // first use: ImGui windows, the tree's rows, the key cache, tooltips
  const long before = g_allocations.load();
  sweep();
  EXPECT_EQ(g_allocations.load() - before, 0)
      << "allocations in " << (720 / 37 + 1) * 14 << " frames";
}

// The same with the layer stack in use: two layers (one additive, one masked), a cross-fade in
// progress, the mask being edited in the joint tree, everything playing and posed through the
// Animator's layer stack each frame, as the window does.
TEST(UiFrame, NoHeapAllocationPerFrameWithLayers) {
  if (!SV_COUNT_ALLOCATIONS) GTEST_SKIP() << "allocation counting is off under AddressSanitizer";
  UiFixture f;
  f.player.clip = 1;  // walk
  f.player.playing = true;
  for (const int32_t clip : {2, 5}) {
    PlayedLayer l;
    l.player.clip = clip;
    f.stack.layers.push_back(l);
  }
  f.stack.layers[0].mask =
      subtree_mask(f.model.skeleton.parents, static_cast<std::size_t>(f.joint("clavicle_r")));
  f.stack.layers[1].mode = BlendMode::Additive;
  ASSERT_TRUE(f.stack.start_fade(f.model, f.player, 4, 100.0, true));  // runs through the test
  f.state.layers.mask_layer = 0;
  f.state.selection.joint = f.joint("hand_r");
  f.keys.reserve(8);
  auto sweep = [&] {
    for (float y = 5.0f; y < 720.0f; y += 37.0f) {
      for (float x = 5.0f; x < 1280.0f; x += 97.0f) {
        f.stack.advance(f.model, f.player, 1.0 / 60.0);
        f.harness.move(x, y);
      }
    }
  };
  sweep();
  const long before = g_allocations.load();
  sweep();
  EXPECT_EQ(g_allocations.load() - before, 0)
      << "allocations in " << (720 / 37 + 1) * 14 << " frames";
  EXPECT_TRUE(f.stack.fading());
  EXPECT_EQ(f.animator.pose.clip(), 1);  // posed through the stack
}

// The viewport's legend each frame: placed clear of a moving model box (ui/legend_place.h), drawn
// as its window, its title clicked now and then (collapsed, opened), with the hover read-out:
// no allocation once the legend's window exists.
TEST(UiFrame, NoHeapAllocationPerFrameForTheLegend) {
  if (!SV_COUNT_ALLOCATIONS) GTEST_SKIP() << "allocation counting is off under AddressSanitizer";
  UiFixture f;
  const WeightStats stats = compute_weight_stats(f.model);
  ui::LegendInput in;
  in.view = ViewMode::WeightSum;
  in.stats = &stats;
  in.joints = f.influence;
  in.names = f.model.skeleton.names;
  in.joint_colors = f.state.joint_colors;
  ui::LegendFold fold = ui::LegendFold::Auto;
  const ui::Rect avoid[] = {ui::Rect{6, 586, 128, 128}, ui::Rect{0, 0, 100, 26}};
  float shift = 0.0f;
  f.harness.draw = [&] {
    ui::ScreenBox box;
    box.x0 = 500.0f + shift;
    box.x1 = 700.0f + shift;
    box.y0 = 100.0f;
    box.y1 = 600.0f;
    in.collapsed = false;
    const ImVec2 full = ui::legend_size(in), title = ui::legend_title_size(in);
    const ui::LegendPlace place =
        ui::place_legend(ui::Rect{0, 0, 1280, 720}, box, avoid, glm::vec2(full.x, full.y),
                         glm::vec2(title.x, title.y), fold, 10.0f);
    in.collapsed = place.collapsed;
    if (ui::legend_window(ImVec2(place.rect.x, place.rect.y), in))
      fold = ui::toggled(place.collapsed);
    ui::HoverInput h;
    h.kind = ui::HoverInput::Kind::Surface;
    h.names = f.model.skeleton.names;
    h.joint = 3;
    h.view = ViewMode::Weights;
    h.joint_colors = f.state.joint_colors;
    h.influences = vertex_influences(f.model.meshes[0], 0);
    ui::hover_tooltip(h);
  };
  auto sweep = [&] {
    for (int i = 0; i < 40; ++i) {
      shift = static_cast<float>(i % 8) * 60.0f;  // the box crosses the corners
      f.harness.move(20.0f + static_cast<float>(i) * 30.0f, 20.0f + static_cast<float>(i) * 15.0f);
    }
    f.harness.click(1200.0f, 20.0f);  // a title row, if the legend is there
  };
  sweep();
  const long before = g_allocations.load();
  sweep();
  EXPECT_EQ(g_allocations.load() - before, 0);
}

}  // namespace
}  // namespace sv::test
