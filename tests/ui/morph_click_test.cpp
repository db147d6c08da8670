// The inspector's Morph targets section, clicked as a user clicks it, on a model with targets
// (AnimatedMorphCube, paused mid-clip): each target's row shows the animated weight; ticking its
// box pins the weight where it was, dragging its slider moves the pinned weight (the Animator's
// weights and the morphed vertices follow), unticking hands it back to the clip, and a model
// without targets has no such section.
#include <cmath>
#include <string>

#include <gtest/gtest.h>
#include <imgui.h>

#include "ui_fixture.h"

namespace sv::test {
namespace {

const std::string kCube = std::string(SKINVIEW_TEST_MODELS) +
                          "/glTF2/glTF-Sample-Models/AnimatedMorphCube-glTF/AnimatedMorphCube.gltf";

TEST(MorphClicks, ASliderOverridesTheAnimatedWeight) {
  UiFixture f(kCube);
  f.player.clip = 0;
  f.player.time = 1.45;  // 'target 0' near 1, 'target 1' at 0
  f.harness.frames(2);
  ASSERT_EQ(f.state.morph_overrides.size(), 2u);
  ASSERT_NE(f.marks().find("header:Morph targets", 1), nullptr);
  const float animated = f.animator.pose.morph_weights(0)[0];
  EXPECT_GT(animated, 0.9f);
  // Unticked, dragging the slider changes nothing (it follows the clip).
  const ui::Landmark* s = f.marks().find("morph:weight", 1);
  ASSERT_NE(s, nullptr);
  f.harness.drag(s->rect.x + 0.5f * s->rect.w, s->rect.y + 0.5f * s->rect.h,
                 s->rect.x + s->rect.w + 20.0f, s->rect.y + 0.5f * s->rect.h);
  f.harness.frames(2);
  EXPECT_TRUE(std::isnan(f.state.morph_overrides[1]));
  EXPECT_EQ(f.animator.pose.morph_weights(0)[1], 0.0f);
  // Tick 'target 1': pinned at its animated weight (0).
  ASSERT_TRUE(f.click_mark("morph:override", 1));
  f.harness.frames(2);
  EXPECT_EQ(f.state.morph_overrides[1], 0.0f);
  // Drag its slider to the right end: weight 1, in the Animator too, and the vertices moved.
  f.animator.skin_cpu(f.model);
  const std::vector<glm::vec3> before(f.animator.skinned_positions(0).begin(),
                                      f.animator.skinned_positions(0).end());
  s = f.marks().find("morph:weight", 1);
  ASSERT_NE(s, nullptr);
  f.harness.drag(s->rect.x + 0.5f * s->rect.w, s->rect.y + 0.5f * s->rect.h,
                 s->rect.x + s->rect.w + 20.0f, s->rect.y + 0.5f * s->rect.h);
  f.harness.frames(2);
  EXPECT_EQ(f.state.morph_overrides[1], 1.0f);
  EXPECT_EQ(f.animator.pose.morph_weights(0)[1], 1.0f);
  EXPECT_FLOAT_EQ(f.animator.pose.morph_weights(0)[0],
                  animated);  // the other target still animates
  f.animator.skin_cpu(f.model);
  float moved = 0.0f;
  for (std::size_t v = 0; v < before.size(); ++v)
    moved = std::max(moved, glm::length(f.animator.skinned_positions(0)[v] - before[v]));
  EXPECT_GT(moved, 1.0f);  // 'angle' lifts a corner by ~2 units (0.0199 x 100)
  // Untick: back to the clip's weight.
  ASSERT_TRUE(f.click_mark("morph:override", 1));
  f.harness.frames(2);
  EXPECT_TRUE(std::isnan(f.state.morph_overrides[1]));
  EXPECT_EQ(f.animator.pose.morph_weights(0)[1], 0.0f);
}

TEST(MorphClicks, AModelWithoutTargetsHasNoSection) {
  UiFixture f(std::string(SKINVIEW_TEST_MODELS) + "/X/anim_test.x");
  EXPECT_TRUE(f.state.morph_overrides.empty());
  EXPECT_NE(f.marks().find("header:Layers"), nullptr);  // the inspector was drawn
  EXPECT_EQ(f.marks().find("header:Morph targets"), nullptr);
}

}  // namespace
}  // namespace sv::test
