#include "gfx/view_colors.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include <glm/common.hpp>

#include "anim/weight_stats.h"

namespace sv {
namespace {

std::string glsl_float(float v) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.9g", static_cast<double>(v));
  std::string s = buf;
  if (s.find_first_of(".eE") == std::string::npos) s += ".0";
  return s;
}

std::string glsl_vec3(const glm::vec3& v) {
  return "vec3(" + glsl_float(v.x) + ", " + glsl_float(v.y) + ", " + glsl_float(v.z) + ")";
}

template <std::size_t N>
std::string glsl_vec3_array(const std::array<glm::vec3, N>& values) {
  std::string s = "vec3[" + std::to_string(N) + "](";
  for (std::size_t i = 0; i < N; ++i) s += (i ? ", " : "") + glsl_vec3(values[i]);
  return s + ")";
}

float smooth01(float t) noexcept {
  t = std::clamp(t, 0.0f, 1.0f);
  return t * t * (3.0f - 2.0f * t);
}

}  // namespace

// Keep in step with heat() in shaders/common.vert (same stops, same easing).
glm::vec3 heat_color(float w) noexcept {
  w = std::clamp(std::isnan(w) ? 0.0f : w, 0.0f, 1.0f);
  const float x = w * static_cast<float>(kHeatStops.size() - 1);
  const int i = std::min(static_cast<int>(x), static_cast<int>(kHeatStops.size()) - 2);
  const float f = smooth01(x - static_cast<float>(i));
  const glm::vec3 a = kHeatStops[static_cast<std::size_t>(i)];
  const glm::vec3 b = kHeatStops[static_cast<std::size_t>(i + 1)];
  return a + (b - a) * f;
}

// Keep in step with joint_color() in shaders/common.vert.
glm::vec3 joint_color(uint32_t joint) noexcept {
  const uint32_t h = joint * 2654435761u;  // wraps, as GLSL's uint does
  const float hue = static_cast<float>(h >> 8) / 16777216.0f;
  glm::vec3 k;
  const float offsets[3] = {0.0f, 4.0f, 2.0f};
  for (int c = 0; c < 3; ++c) {
    const float x = hue * 6.0f + offsets[c];
    const float m = x - 6.0f * std::floor(x / 6.0f);  // GLSL mod()
    k[c] = std::clamp(std::abs(m - 3.0f) - 1.0f, 0.0f, 1.0f);
  }
  return glm::vec3(0.35f) + (k - glm::vec3(0.35f)) * 0.8f;
}

uint32_t weight_sum_level(float sum) noexcept {
  const float error = std::abs(sum - 1.0f);
  if (error <= kWeightSumTolerance) return 0;
  if (std::isnan(error)) return 255;
  const float decades = std::log10(error / kWeightSumTolerance) / kSumErrorRampDecades;
  return 1u + static_cast<uint32_t>(std::lround(254.0f * std::clamp(decades, 0.0f, 1.0f)));
}

// Keep in step with sum_color() in shaders/common.vert.
glm::vec3 weight_sum_color(uint32_t level) noexcept {
  if (level == 0) return kSumOkColor;
  const float f = static_cast<float>(std::min(level, 255u) - 1u) / 254.0f;
  return kSumErrorLowColor + (kSumErrorHighColor - kSumErrorLowColor) * f;
}

float weight_sum_ramp_top() noexcept {
  return kWeightSumTolerance * std::pow(10.0f, kSumErrorRampDecades);
}

glm::vec3 display_color(const glm::vec3& linear) noexcept {
  const glm::vec3 c = glm::clamp(linear, glm::vec3(0.0f), glm::vec3(1.0f));
  return glm::vec3(std::pow(c.x, 1.0f / kDisplayGamma), std::pow(c.y, 1.0f / kDisplayGamma),
                   std::pow(c.z, 1.0f / kDisplayGamma));
}

std::vector<std::string> view_color_defines() {
  return {
      "SV_HEAT_STOP_COUNT " + std::to_string(kHeatStops.size()),
      "SV_HEAT_STOPS " + glsl_vec3_array(kHeatStops),
      "SV_INFLUENCE_COLORS " + glsl_vec3_array(kInfluenceColors),
      "SV_SUM_OK_COLOR " + glsl_vec3(kSumOkColor),
      "SV_SUM_UNWEIGHTED_COLOR " + glsl_vec3(kSumUnweightedColor),
      "SV_SUM_ERROR_LOW_COLOR " + glsl_vec3(kSumErrorLowColor),
      "SV_SUM_ERROR_HIGH_COLOR " + glsl_vec3(kSumErrorHighColor),
      "SV_DISPLAY_GAMMA " + glsl_float(kDisplayGamma),
  };
}

}  // namespace sv
