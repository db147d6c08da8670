// The debug views' colours on the C++ side (what the legends draw), computed by hand: the heat
// ramp's stops and easing, the dominant joint colours (golden-ratio slots, tree neighbours
// apart), the weight-sum levels, the display encoding, and the
// #defines that carry them to GLSL. view_colors_gl_test.cpp checks the shaders agree.
#include "gfx/view_colors.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "asset/default_asset_facts.h"
#include "skin/weight_stats.h"
#include "test_util.h"

namespace sv {
namespace {

TEST(ViewColors, HeatRampIsBlendersBlueToRed) {
  EXPECT_NEAR_GLM(heat_color(0.0f), glm::vec3(0, 0, 1), 0.0f);
  EXPECT_NEAR_GLM(heat_color(0.25f), glm::vec3(0, 1, 1), 1e-6f);
  EXPECT_NEAR_GLM(heat_color(0.5f), glm::vec3(0, 1, 0), 1e-6f);
  EXPECT_NEAR_GLM(heat_color(0.75f), glm::vec3(1, 1, 0), 1e-6f);
  EXPECT_NEAR_GLM(heat_color(1.0f), glm::vec3(1, 0, 0), 1e-6f);
  // Half-way through a quarter the smoothstep is 0.5; a quarter of the way, 0.15625.
  EXPECT_NEAR_GLM(heat_color(0.125f), glm::vec3(0, 0.5f, 1), 1e-6f);
  EXPECT_NEAR_GLM(heat_color(0.5625f), glm::vec3(0.15625f, 1, 0), 1e-6f);
  EXPECT_NEAR_GLM(heat_color(-1.0f), glm::vec3(0, 0, 1), 0.0f);
  EXPECT_NEAR_GLM(heat_color(7.0f), glm::vec3(1, 0, 0), 1e-6f);
  EXPECT_NEAR_GLM(heat_color(NAN), glm::vec3(0, 0, 1), 0.0f);
}

TEST(ViewColors, PackedColoursRoundTrip) {
  EXPECT_EQ(pack_rgb8(glm::vec3(1.0f, 0.0f, 0.5f)), 255u | 0u << 8 | 128u << 16);
  EXPECT_EQ(pack_rgb8(glm::vec3(-1.0f, 2.0f, NAN)), 0u | 255u << 8 | 0u << 16);
  EXPECT_NEAR_GLM(unpack_rgb8(255u | 51u << 8 | 0u << 16), glm::vec3(1.0f, 0.2f, 0.0f), 1e-7f);
  for (uint32_t k = 0; k < kJointColorSlots; ++k)
    EXPECT_EQ(unpack_rgb8(pack_rgb8(joint_slot_color(k))), joint_slot_color(k)) << k;
}

TEST(ViewColors, JointSlotsStepTheHueByTheGoldenRatio) {
  // Slot 0: hue 0 -> pure red k = (1, 0, 0), plain level 0.3 + 0.85 (k - 0.3) = (0.895, 0.045,
  // 0.045) -> 8 bits (228, 11, 11).
  EXPECT_NEAR_GLM(joint_slot_color(0), glm::vec3(228, 11, 11) / 255.0f, 1e-7f);
  // Slot 1: hue 0.618034, 6 hue = 3.708204; k = clamp(|mod(3.708204 + (0, 4, 2), 6) - 3| - 1) =
  // (0, 0.291796, 1); dark level 0.22 k = (0, 0.0642, 0.22) -> (0, 16, 56).
  EXPECT_NEAR_GLM(joint_slot_color(1), glm::vec3(0, 16, 56) / 255.0f, 1e-7f);
  // Slot 2: hue 0.236068, 6 hue = 1.416408; k = (0.583592, 1, 0); pale 1 + 0.55 (k - 1) =
  // (0.770976, 1, 0.45) -> (197, 255, 115).
  EXPECT_NEAR_GLM(joint_slot_color(2), glm::vec3(197, 255, 115) / 255.0f, 1e-7f);
}

TEST(ViewColors, AChainTakesTheSlotsInOrder) {
  // Each joint's own slot is far from its parent's and grandparent's: no detour.
  const std::vector<int32_t> chain = {-1, 0, 1, 2, 3, 4};
  const std::vector<glm::vec3> c = joint_colors(chain);
  ASSERT_EQ(c.size(), chain.size());
  for (uint32_t j = 0; j < chain.size(); ++j) EXPECT_EQ(c[j], joint_slot_color(j)) << j;
  EXPECT_EQ(joint_color_in(c, 9), kNoValueColor);
  EXPECT_EQ(joint_color_in(c, -1), kNoValueColor);
}

// Every pair of tree neighbours (parent and child, grandparent and grandchild, siblings within
// 8 of each other, a joint and its parent's nearest 3 earlier siblings) at least
// kJointColorSeparation apart on screen.
void expect_neighbours_apart(const std::vector<int32_t>& parents, float at_least) {
  const std::vector<glm::vec3> c = joint_colors(parents);
  ASSERT_EQ(c.size(), parents.size());
  std::vector<std::vector<int32_t>> children(parents.size());
  for (std::size_t j = 0; j < parents.size(); ++j)
    if (parents[j] >= 0) children[static_cast<std::size_t>(parents[j])].push_back(int32_t(j));
  float closest = 1e9f;
  auto check = [&](std::size_t a, std::size_t b) {
    const float d = display_distance(c[a], c[b]);
    closest = std::min(closest, d);
    EXPECT_GE(d, at_least) << "joints " << a << " and " << b;
  };
  for (std::size_t j = 0; j < parents.size(); ++j) {
    if (parents[j] < 0) continue;
    const auto p = static_cast<std::size_t>(parents[j]);
    check(j, p);
    if (parents[p] >= 0) check(j, static_cast<std::size_t>(parents[p]));
  }
  for (const std::vector<int32_t>& sibs : children)
    for (std::size_t a = 0; a < sibs.size(); ++a)
      for (std::size_t b = a + 1; b < sibs.size() && b <= a + 8; ++b)
        check(static_cast<std::size_t>(sibs[a]), static_cast<std::size_t>(sibs[b]));
  EXPECT_GE(closest, at_least);
}

TEST(ViewColors, TreeNeighboursNeverShareAColour) {
  // The default character (assets/default.glb): spine_01 and thigh_l, both under the hips, had
  // the same magenta under the old per-index hash.
  const std::vector<int32_t> character(test::default_asset::kParents.begin(),
                                       test::default_asset::kParents.end());
  expect_neighbours_apart(character, kJointColorSeparation);
  const std::vector<glm::vec3> c = joint_colors(character);
  EXPECT_GE(display_distance(c[2], c[15]), kJointColorSeparation);  // spine_01, thigh_l
  // A hand: 5 fingers of 3 joints under one wrist, depth first.
  std::vector<int32_t> hand = {-1};
  for (int f = 0; f < 5; ++f) {
    hand.push_back(0);
    hand.push_back(static_cast<int32_t>(hand.size()) - 1);
    hand.push_back(static_cast<int32_t>(hand.size()) - 1);
  }
  expect_neighbours_apart(hand, kJointColorSeparation);
  // A star of 64 children and a long chain.
  std::vector<int32_t> star(65, 0);
  star[0] = -1;
  expect_neighbours_apart(star, kJointColorSeparation);
  std::vector<int32_t> chain(300);
  for (std::size_t j = 0; j < chain.size(); ++j) chain[j] = static_cast<int32_t>(j) - 1;
  expect_neighbours_apart(chain, kJointColorSeparation);
  // Random trees (parents first), seeded: each joint under one of the 6 before it.
  uint32_t seed = 12345u;
  std::vector<int32_t> random(2000);
  random[0] = -1;
  for (std::size_t j = 1; j < random.size(); ++j) {
    seed = seed * 1664525u + 1013904223u;
    random[j] = static_cast<int32_t>(j) - 1 -
                static_cast<int32_t>((seed >> 16) % std::min<std::size_t>(j, 6));
  }
  expect_neighbours_apart(random, kJointColorSeparation);
}

TEST(ViewColors, WeightSumLevelsOnALogScale) {
  EXPECT_EQ(weight_sum_level(1.0f), 0u);
  EXPECT_EQ(weight_sum_level(1.0009f), 0u);
  EXPECT_EQ(weight_sum_level(0.9991f), 0u);
  // 1e-3 * 10^(2 f): f = log10(error / 1e-3) / 2, level 1 + round(254 f).
  EXPECT_EQ(weight_sum_level(1.0011f), 6u);  // f = 0.0207
  EXPECT_EQ(weight_sum_level(1.01f), 128u);  // f = 0.5
  EXPECT_EQ(weight_sum_level(0.99f), 128u);
  EXPECT_EQ(weight_sum_level(1.1f), 255u);  // f = 1
  EXPECT_EQ(weight_sum_level(1.38f), 255u);
  EXPECT_EQ(weight_sum_level(0.0f), 255u);
  EXPECT_EQ(weight_sum_level(NAN), 255u);
  EXPECT_NEAR(weight_sum_ramp_top(), 0.1f, 1e-7f);
  EXPECT_NEAR_GLM(weight_sum_color(0), kSumOkColor, 0.0f);
  EXPECT_NEAR_GLM(weight_sum_color(1), kSumErrorLowColor, 0.0f);
  EXPECT_NEAR_GLM(weight_sum_color(255), kSumErrorHighColor, 1e-6f);
  EXPECT_NEAR_GLM(weight_sum_color(128), 0.5f * (kSumErrorLowColor + kSumErrorHighColor), 1e-6f);
}

TEST(ViewColors, CutWeightLevelsAndRamp) {
  EXPECT_EQ(cut_weight_level(0.0f), 0u);  // nothing cut: the influence-count colours
  EXPECT_EQ(cut_weight_level(-0.5f), 0u);
  EXPECT_EQ(cut_weight_level(1e-7f), 1u);  // a sliver: the ramp's pale end
  EXPECT_EQ(cut_weight_level(kCutRampTop / 2.0f), 128u);
  EXPECT_EQ(cut_weight_level(kCutRampTop), 255u);
  EXPECT_EQ(cut_weight_level(0.9f), 255u);
  EXPECT_EQ(cut_weight_level(NAN), 255u);
  EXPECT_NEAR_GLM(cut_weight_color(1), kCutStops[0], 0.0f);
  EXPECT_NEAR_GLM(cut_weight_color(128), kCutStops[1], 1e-6f);
  EXPECT_NEAR_GLM(cut_weight_color(255), kCutStops[2], 1e-6f);
  // Level 64 is 63/127 of the way from the first stop to the second (linear).
  EXPECT_NEAR_GLM(cut_weight_color(64),
                  kCutStops[0] + (kCutStops[1] - kCutStops[0]) * (63.0f / 127.0f), 1e-6f);
  EXPECT_NEAR_GLM(cut_weight_color(0), kCutStops[0], 0.0f);  // clamped
}

TEST(ViewColors, DisplayColourIsTheShadersGammaAtFullShade) {
  EXPECT_NEAR_GLM(display_color(glm::vec3(0, 1, 0.5f)), glm::vec3(0, 1, 0.7297400f), 1e-6f);
  EXPECT_NEAR_GLM(display_color(glm::vec3(2, -1, 0)), glm::vec3(1, 0, 0), 0.0f);
}

// The difference views' ramps: CPU vs GPU log from 1e-7 (blue) to 1e-3 (red) of the model's
// size, the tolerance 1e-5 in the middle (green); method vs method linear to 2% (red).
TEST(ViewColors, DifferenceRampsEndWhereTheLegendsSay) {
  EXPECT_EQ(cpu_gpu_ramp(0.0f), 0.0f);
  EXPECT_EQ(cpu_gpu_ramp(-1.0f), 0.0f);
  EXPECT_EQ(cpu_gpu_ramp(1e-7f), 0.0f);
  EXPECT_NEAR(cpu_gpu_ramp(1e-6f), 0.25f, 1e-6f);
  EXPECT_NEAR(cpu_gpu_ramp(1e-5f), 0.5f, 1e-6f);
  EXPECT_NEAR(cpu_gpu_ramp(1e-4f), 0.75f, 1e-6f);
  EXPECT_NEAR(cpu_gpu_ramp(1e-3f), 1.0f, 1e-6f);
  EXPECT_EQ(cpu_gpu_ramp(0.5f), 1.0f);
  EXPECT_EQ(cpu_gpu_ramp(std::nanf("")), 1.0f);  // a NaN on the GPU is a difference: red
  EXPECT_EQ(cpu_gpu_ramp(INFINITY), 1.0f);
  EXPECT_NEAR_GLM(heat_color(cpu_gpu_ramp(0.0f)), glm::vec3(0, 0, 1), 0.0f);
  EXPECT_NEAR_GLM(heat_color(cpu_gpu_ramp(kCpuGpuTolerance)), glm::vec3(0, 1, 0), 1e-5f);
  EXPECT_NEAR_GLM(heat_color(cpu_gpu_ramp(1.0f)), glm::vec3(1, 0, 0), 0.0f);

  EXPECT_EQ(method_ramp(0.0f), 0.0f);
  EXPECT_NEAR(method_ramp(0.01f), 0.5f, 1e-6f);
  EXPECT_EQ(method_ramp(kMethodRampTop), 1.0f);
  EXPECT_EQ(method_ramp(0.3f), 1.0f);
  EXPECT_EQ(method_ramp(std::nanf("")), 1.0f);
  EXPECT_NEAR_GLM(heat_color(method_ramp(0.0f)), glm::vec3(0, 0, 1), 0.0f);
  EXPECT_NEAR_GLM(heat_color(method_ramp(0.01f)), glm::vec3(0, 1, 0), 1e-5f);
  EXPECT_NEAR_GLM(heat_color(method_ramp(0.02f)), glm::vec3(1, 0, 0), 0.0f);
}

// The weight-change ramp: log from the comparison's tolerance 1e-4 (blue) to an L1 change of 1
// (red), a decade a quarter; "not compared" stays negative (grey).
TEST(ViewColors, WeightChangeRampEndsWhereItsLegendSays) {
  EXPECT_EQ(weight_change_ramp(0.0f), 0.0f);
  EXPECT_EQ(weight_change_ramp(1e-4f), 0.0f);
  EXPECT_NEAR(weight_change_ramp(1e-3f), 0.25f, 1e-6f);
  EXPECT_NEAR(weight_change_ramp(1e-2f), 0.5f, 1e-6f);
  EXPECT_NEAR(weight_change_ramp(0.1f), 0.75f, 1e-6f);
  EXPECT_NEAR(weight_change_ramp(1.0f), 1.0f, 1e-6f);
  EXPECT_EQ(weight_change_ramp(2.0f), 1.0f);
  EXPECT_EQ(weight_change_ramp(std::nanf("")), 1.0f);
  EXPECT_LT(weight_change_ramp(-1.0f), 0.0f);
}

TEST(ViewColors, DefinesCarryTheSameNumbers) {
  std::string all;
  for (const std::string& d : view_color_defines()) all += d + "\n";
  EXPECT_NE(all.find("SV_HEAT_STOP_COUNT 5\n"), std::string::npos) << all;
  EXPECT_NE(all.find("SV_HEAT_STOPS vec3[5](vec3(0.0, 0.0, 1.0), vec3(0.0, 1.0, 1.0), "
                     "vec3(0.0, 1.0, 0.0), vec3(1.0, 1.0, 0.0), vec3(1.0, 0.0, 0.0))\n"),
            std::string::npos)
      << all;
  EXPECT_NE(all.find("SV_SUM_ERROR_HIGH_COLOR vec3(1.0, 0.0, 0.0)\n"), std::string::npos) << all;
  EXPECT_NE(all.find("SV_DISPLAY_GAMMA 2.20000005\n"), std::string::npos) << all;
  EXPECT_NE(all.find("SV_NO_VALUE_COLOR vec3(0.5, 0.5, 0.5)\n"), std::string::npos) << all;
}

}  // namespace
}  // namespace sv
