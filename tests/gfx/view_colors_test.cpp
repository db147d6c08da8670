// The debug views' colours on the C++ side (what the legends draw), computed by hand: the heat
// ramp's stops and easing, the joint hash, the weight-sum levels, the display encoding, and the
// #defines that carry them to GLSL. view_colors_gl_test.cpp checks the shaders agree.
#include "gfx/view_colors.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

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

TEST(ViewColors, JointColourHash) {
  // Joint 0: hue 0 -> pure red k = (1, 0, 0); 0.35 + 0.8 (k - 0.35).
  EXPECT_NEAR_GLM(joint_color(0), glm::vec3(0.87f, 0.07f, 0.07f), 1e-6f);
  // Joint 1: h = 2654435761, h >> 8 = 10368889, hue = 0.6180340; 6 hue = 3.708204;
  // k = clamp(|mod(3.708204 + (0, 4, 2), 6) - 3| - 1) = (0, 0.291796, 1).
  EXPECT_NEAR_GLM(joint_color(1), glm::vec3(0.07f, 0.3034368f, 0.87f), 1e-5f);
  EXPECT_NE(joint_color(2), joint_color(3));
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
