// The window's layer stack, clicked as a user clicks it: the inspector's Layers section (add,
// pick a clip, weight, mode, reorder, remove, the mask ticked in the outliner's joint tree and a
// joint's own weight, the cross-fade button) and the timeline's row per layer (its own time,
// scrubbed), on the default character in a headless ImGui context, with the pose read back from
// the Animator the fixture poses through, as the window does.
#include <algorithm>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <imgui.h>

#include "anim/blend.h"
#include "ui_fixture.h"

namespace sv::test {
namespace {

// The default character's clips (tests/asset/default_asset_facts.h).
constexpr int32_t kWalk = 1, kWave = 2, kRun = 4, kBreathe = 5;

// A fixture on walk, paused at 0.3 s.
struct Walking : UiFixture {
  Walking() {
    player.clip = kWalk;
    player.time = 0.3;
    harness.frames(2);
  }
  // Picks clip `clip` from the combo `combo` (its popup lists the clips as "clip" landmarks).
  void pick(const char* combo, int32_t clip, int32_t index = -1) {
    click_mark(combo, index);
    harness.frame();
    harness.click_mark(marks(), "clip", clip);
    harness.frame();
  }
  void add_layer(int32_t clip) {
    pick("combo:Add layer clip", clip);
    click_mark("button:Add layer");
    harness.frame();
  }
  glm::vec3 origin(const char* name) const {
    return glm::vec3(animator.pose.model_matrices()[static_cast<std::size_t>(joint(name))][3]);
  }
};

TEST(LayerClicks, AddingALayerBlendsItsClipOverTheBase) {
  Walking f;
  const glm::vec3 hand = f.origin("hand_r"), foot = f.origin("foot_l");
  f.add_layer(kWave);
  ASSERT_EQ(f.stack.layers.size(), 1u);
  EXPECT_EQ(f.stack.layers[0].player.clip, kWave);
  EXPECT_EQ(f.stack.layers[0].weight, 1.0f);
  EXPECT_EQ(f.stack.layers[0].mode, BlendMode::Override);
  // Wave raises the right hand; it keys no leg, so the legs still walk.
  EXPECT_GT(f.origin("hand_r").y - hand.y, 0.5f);
  EXPECT_LT(glm::distance(f.origin("foot_l"), foot), 1e-5f);
  // The timeline shows the layer's own time on a row of its own, and asks for its room (which
  // the layout gives where the viewport's half leaves it: tests/ui/text_fit_test.cpp).
  EXPECT_NE(f.marks().find("layer:bar", 0), nullptr);
  EXPECT_GT(f.state.layout_prefs.timeline_rows, 0.0f);
  // Another clip for the layer, from its combo.
  f.pick("layer:clip", kRun, 0);
  EXPECT_EQ(f.stack.layers[0].player.clip, kRun);
}

TEST(LayerClicks, WeightSliderModeOrderAndRemoval) {
  Walking f;
  const glm::vec3 hand = f.origin("hand_r");
  f.add_layer(kWave);
  f.add_layer(kBreathe);
  ASSERT_EQ(f.stack.layers.size(), 2u);
  // Breathe is meant to be added: its Additive button. Paused at its first frame, its reference,
  // it adds nothing yet.
  f.click_mark("layer:additive", 1);
  EXPECT_EQ(f.stack.layers[1].mode, BlendMode::Additive);
  // The wave's weight slider dragged to its left end: the wave does nothing either.
  const ui::Landmark* w = f.marks().find("layer:weight", 0);
  ASSERT_NE(w, nullptr);
  f.harness.drag(w->rect.x + 0.5f * w->rect.w, w->rect.y + 0.5f * w->rect.h, w->rect.x - 20.0f,
                 w->rect.y + 0.5f * w->rect.h);
  f.harness.frame();
  EXPECT_EQ(f.stack.layers[0].weight, 0.0f);
  EXPECT_LT(glm::distance(f.origin("hand_r"), hand), 1e-4f);
  // Down moves the first below the second; Remove takes one out.
  f.click_mark("layer:down", 0);
  EXPECT_EQ(f.stack.layers[0].player.clip, kBreathe);
  EXPECT_EQ(f.stack.layers[1].player.clip, kWave);
  f.click_mark("layer:up", 1);
  EXPECT_EQ(f.stack.layers[0].player.clip, kWave);
  f.click_mark("layer:remove", 0);
  ASSERT_EQ(f.stack.layers.size(), 1u);
  EXPECT_EQ(f.stack.layers[0].player.clip, kBreathe);
  f.click_mark("layer:remove", 0);
  EXPECT_TRUE(f.stack.layers.empty());
  EXPECT_FALSE(f.stack.blends());
}

TEST(LayerClicks, TheMaskIsTickedInTheJointTree) {
  Walking f;
  const glm::vec3 hand_l = f.origin("hand_l");
  f.add_layer(kWave);
  EXPECT_EQ(f.marks().find("mask"), nullptr) << "no check boxes until a mask is edited";
  f.click_mark("layer:mask", 0);  // Edit mask
  EXPECT_EQ(f.state.layers.mask_layer, 0);
  f.harness.frame();  // the outliner, drawn before the inspector, shows the boxes from now on
  // Untick the spine (the whole upper body goes), then tick the right clavicle back.
  f.click_mark("mask", f.joint("spine_01"));
  f.click_mark("mask", f.joint("clavicle_r"));
  f.harness.frame();  // posed with the new mask
  const std::vector<int32_t>& parents = f.model.skeleton.parents;
  std::vector<float> expected(parents.size(), 1.0f);
  set_subtree(parents, static_cast<std::size_t>(f.joint("spine_01")), 0.0f, expected);
  set_subtree(parents, static_cast<std::size_t>(f.joint("clavicle_r")), 1.0f, expected);
  EXPECT_EQ(f.stack.layers[0].mask, expected);
  // The left arm walks again (masked out); the right arm waves.
  EXPECT_LT(glm::distance(f.origin("hand_l"), hand_l), 1e-5f);
  // A joint's own weight: the right upper arm at about half.
  f.state.selection.joint = f.joint("upperarm_r");
  f.harness.frames(2);
  f.click_mark("slider:Mask weight");
  const float half = f.stack.layers[0].mask[static_cast<std::size_t>(f.joint("upperarm_r"))];
  EXPECT_GT(half, 0.3f);
  EXPECT_LT(half, 0.7f);
  // Done hides the boxes; "All" drops the mask.
  f.click_mark("layer:mask", 0);
  f.harness.frame();
  EXPECT_EQ(f.state.layers.mask_layer, -1);
  EXPECT_EQ(f.marks().find("mask"), nullptr);
  f.click_mark("layer:mask all", 0);
  EXPECT_TRUE(f.stack.layers[0].mask.empty());
}

TEST(LayerClicks, TheCrossFadeButtonFadesToItsClipOverItsDuration) {
  Walking f;
  f.pick("combo:Cross-fade to", kRun);
  EXPECT_TRUE(f.state.layers.fade_sync);  // in phase by default
  f.click_mark("button:Cross-fade");
  ASSERT_TRUE(f.stack.fading());
  EXPECT_EQ(f.stack.fade_to, kRun);
  EXPECT_DOUBLE_EQ(f.stack.fade.duration, 0.5);
  EXPECT_NE(f.marks().find("fade:bar", 0), nullptr);  // the timeline shows the target's time
  // Played through (as the window advances the scene): run becomes the base, in phase.
  f.player.playing = true;
  for (int i = 0; i < 40; ++i) f.stack.advance(f.model, f.player, 1.0 / 60.0);
  EXPECT_FALSE(f.stack.fading());
  EXPECT_EQ(f.player.clip, kRun);
  // Walk was at phase 0.3 / 1.2 when the fade began; run followed from the same phase.
  EXPECT_GT(f.player.time, 0.0);
  // Without a clip under it there is nothing to fade from: the button does nothing.
  f.player.clip = kRestPose;
  f.harness.frames(2);
  f.click_mark("button:Cross-fade");
  EXPECT_FALSE(f.stack.fading());
}

TEST(LayerClicks, ALayersTimelineRowScrubsItsOwnTime) {
  Walking f;
  f.add_layer(kWave);  // 2 s
  f.player.playing = true;
  const ui::Landmark* bar = f.marks().find("layer:bar", 0);
  ASSERT_NE(bar, nullptr);
  f.harness.drag(bar->rect.x + 2.0f, bar->rect.y + 0.5f * bar->rect.h,
                 bar->rect.x + 0.75f * bar->rect.w, bar->rect.y + 0.5f * bar->rect.h);
  f.harness.frame();
  EXPECT_NEAR(f.stack.layers[0].player.time, 1.5, 0.05);
  EXPECT_FALSE(f.player.playing) << "scrubbing a layer holds everything still";
  EXPECT_DOUBLE_EQ(f.player.time, 0.3) << "the base keeps its time";
}

}  // namespace
}  // namespace sv::test
