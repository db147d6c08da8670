// The debug views' colours, defined once: the shaders get them as injected #defines
// (view_color_defines(), prepended by the shader loader) and the legends (ui/legend.h) draw
// with the same numbers through the C++ functions below, so a legend cannot drift from what the
// mesh shows. No GL here: the UI includes this.
//
// - Weights of the selected joint: Blender's weight-paint ramp, blue (0) -> cyan (0.25) ->
//   green (0.5) -> yellow (0.75) -> red (1), smoothstep-eased within each quarter, which is what
//   riggers read at a glance.
// - Dominant joint: a colour per skeleton joint from a table made once per model from its tree
//   (joint_colors): joint j takes the j-th of kJointColorSlots candidates (golden-ratio hue
//   steps, 137.5 degrees apart, at three brightness levels), unless that colour is within
//   kJointColorSeparation of a tree neighbour's (parent, grandparent, the nearest earlier
//   siblings, the parent's nearest earlier siblings); then the next candidate that is not, or
//   failing that the one farthest from them. So joints that meet on the mesh never share a
//   colour (spine_01 and thigh_l, both children of the pelvis, did under the old hash). The GPU
//   gets each vertex's dominant colour packed as RGB8 at upload (gfx/gpu_model.cpp); the table
//   holds exactly those 8-bit values, so the legends' swatches are the mesh's colours.
// - Influences: 1 grey, 2 green, 3 yellow, 4 orange; vertices that had more than 4 in the file
//   by the share of their weight the 4-limit cuts (Mesh::cut_weights), a ramp from pale pink (a
//   sliver) through magenta to deep violet (kCutRampTop, a tenth of the weight, and beyond): the
//   places where --influences 8 changes the result most. A tenth, not more: real files cut a few
//   percent (FBX/animation_with_skeleton at most 7%), and a cut past a tenth is already gross. The
//   share reaches the shader as a level 1..255 (cut_weight_level), packed at upload beside the
//   weight-sum level.
// - Weight sum: within kWeightSumTolerance of 1 grey; no weight at all yellow; off by more, a
//   ramp from orange (just over the tolerance) to red (off by kSumErrorRampDecades decades more,
//   e.g. 0.1), on a log scale. The error reaches the shader as a level 0..255 per vertex
//   (weight_sum_level), packed at upload beside the vertex flags.
// - Difference views (app/difference_view.h): the heat ramp above of a per-vertex value in 0..1
//   that the CPU computes from a distance (cpu_gpu_ramp, method_ramp) and uploads, one float per
//   vertex. CPU vs GPU on a log scale of the distance over the model's size, from 1e-7 (float
//   rounding of the model's coordinates: blue) to 1e-3 (red), so rounding noise reads as blue to
//   cyan and the test suite's tolerance (1e-5) sits at the middle, green; a fixed scale, because
//   an automatic one would paint rounding noise red on a correct GPU. Method vs method linear,
//   0 to 2% of the model's size (red: a limb's radius collapsing, the candy wrapper); fixed too,
//   so colours keep their meaning while the clip plays and between methods and models, and a
//   pose where the methods agree stays blue instead of showing its noise. A non-finite distance
//   is red on both. Where no comparison could be made the mesh is grey (kNoValueColor).
//
// Colours are linear RGB, as the vertex shader outputs them. mesh.frag lights debug views with
// the shaded view's light (its luminance, at most 1: RenderOptions::flat_colors turns that off)
// and encodes with 1/kDisplayGamma; display_color() gives the fully lit (or flat) result, which
// is what a legend swatch shows.
//
// Header-only, so the UI layer uses it without linking the GL layer.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include <glm/common.hpp>
#include <glm/vec3.hpp>

#include "skin/weight_stats.h"

namespace sv {

inline constexpr std::array<glm::vec3, 5> kHeatStops = {
    glm::vec3(0.0f, 0.0f, 1.0f), glm::vec3(0.0f, 1.0f, 1.0f), glm::vec3(0.0f, 1.0f, 0.0f),
    glm::vec3(1.0f, 1.0f, 0.0f), glm::vec3(1.0f, 0.0f, 0.0f)};

// Influence classes: [0..3] keep 1..4 weights and had no more in the file. Vertices that had
// more are on the cut-weight ramp (kCutStops).
inline constexpr std::array<glm::vec3, 4> kInfluenceColors = {
    glm::vec3(0.6f, 0.6f, 0.6f), glm::vec3(0.2f, 0.8f, 0.2f), glm::vec3(0.95f, 0.9f, 0.2f),
    glm::vec3(1.0f, 0.5f, 0.1f)};

// The cut-weight ramp (influences view): pale pink -> magenta -> deep violet.
inline constexpr std::array<glm::vec3, 3> kCutStops = {
    glm::vec3(1.0f, 0.75f, 0.95f), glm::vec3(1.0f, 0.0f, 1.0f), glm::vec3(0.35f, 0.0f, 0.6f)};
inline constexpr float kCutRampTop = 0.1f;  // the share of the weight at the ramp's top

inline constexpr glm::vec3 kSumOkColor{0.55f, 0.55f, 0.55f};
inline constexpr glm::vec3 kSumUnweightedColor{1.0f, 0.9f, 0.1f};
inline constexpr glm::vec3 kSumErrorLowColor{1.0f, 0.6f, 0.1f};   // just over the tolerance
inline constexpr glm::vec3 kSumErrorHighColor{1.0f, 0.0f, 0.0f};  // the ramp's top and beyond
inline constexpr float kSumErrorRampDecades = 2.0f;               // tolerance 1e-3 -> red at 1e-1

// Difference views, where no comparison could be made (e.g. CoR's centres not known yet).
inline constexpr glm::vec3 kNoValueColor{0.5f, 0.5f, 0.5f};

inline constexpr float kDisplayGamma = 2.2f;

namespace view_colors_detail {

inline std::string glsl_float(float v) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.9g", static_cast<double>(v));
  std::string s = buf;
  if (s.find_first_of(".eE") == std::string::npos) s += ".0";
  return s;
}

inline std::string glsl_vec3(const glm::vec3& v) {
  return "vec3(" + glsl_float(v.x) + ", " + glsl_float(v.y) + ", " + glsl_float(v.z) + ")";
}

template <std::size_t N>
std::string glsl_vec3_array(const std::array<glm::vec3, N>& values) {
  std::string s = "vec3[" + std::to_string(N) + "](";
  for (std::size_t i = 0; i < N; ++i)
    s += (i ? ", " : "") + view_colors_detail::glsl_vec3(values[i]);
  return s + ")";
}

inline float smooth01(float t) noexcept {
  t = std::clamp(t, 0.0f, 1.0f);
  return t * t * (3.0f - 2.0f * t);
}

}  // namespace view_colors_detail

// The heat ramp at weight w (clamped to [0, 1]). Keep in step with heat() in shaders/common.vert
// (same stops, same easing).
inline glm::vec3 heat_color(float w) noexcept {
  w = std::clamp(std::isnan(w) ? 0.0f : w, 0.0f, 1.0f);
  const float x = w * static_cast<float>(kHeatStops.size() - 1);
  const int i = std::min(static_cast<int>(x), static_cast<int>(kHeatStops.size()) - 2);
  const float f = view_colors_detail::smooth01(x - static_cast<float>(i));
  const glm::vec3 a = kHeatStops[static_cast<std::size_t>(i)];
  const glm::vec3 b = kHeatStops[static_cast<std::size_t>(i + 1)];
  return a + (b - a) * f;
}

// Dominant-joint colours (joint_colors): the candidates and how far apart tree neighbours must
// be, as a Euclidean distance between display colours (display_color, 0..1 per channel).
inline constexpr uint32_t kJointColorSlots = 48;
inline constexpr float kJointColorSeparation = 0.35f;
inline constexpr float kGoldenHueStep = 0.6180339887f;  // of a turn: 1/phi

// An RGB8 colour packed as r | g << 8 | b << 16 (a vertex's dominant colour on the GPU), and
// back; unpack_rgb8 divides as common.vert does, so both sides hold the same floats.
inline uint32_t pack_rgb8(const glm::vec3& c) noexcept {
  uint32_t bits = 0;
  for (int i = 0; i < 3; ++i) {
    const float v = std::clamp(std::isnan(c[i]) ? 0.0f : c[i], 0.0f, 1.0f);
    bits |= static_cast<uint32_t>(std::lround(v * 255.0f)) << (8 * i);
  }
  return bits;
}
inline glm::vec3 unpack_rgb8(uint32_t bits) noexcept {
  return glm::vec3(static_cast<float>(bits & 255u), static_cast<float>((bits >> 8) & 255u),
                   static_cast<float>((bits >> 16) & 255u)) /
         255.0f;
}

// Candidate `slot` of the dominant-joint colours (linear RGB, 8-bit values): hue slot * 1/phi
// turns; brightness cycles over three levels (plain, dark, pale), so consecutive slots differ
// in both.
inline glm::vec3 joint_slot_color(uint32_t slot) noexcept {
  const float turn = static_cast<float>(slot) * kGoldenHueStep;
  const float hue = turn - std::floor(turn);
  glm::vec3 k;
  const float offsets[3] = {0.0f, 4.0f, 2.0f};
  for (int c = 0; c < 3; ++c) {
    const float x = hue * 6.0f + offsets[c];
    const float m = x - 6.0f * std::floor(x / 6.0f);
    k[c] = std::clamp(std::abs(m - 3.0f) - 1.0f, 0.0f, 1.0f);
  }
  glm::vec3 c;
  switch (slot % 3) {
    case 0:
      c = glm::vec3(0.3f) + (k - glm::vec3(0.3f)) * 0.85f;  // plain
      break;
    case 1:
      c = k * 0.22f;  // dark (linear: about half as bright on screen)
      break;
    default:
      c = glm::vec3(1.0f) + (k - glm::vec3(1.0f)) * 0.55f;  // pale
      break;
  }
  return unpack_rgb8(pack_rgb8(c));
}

// How far apart two view colours look: the distance between their display colours.
inline float display_distance(const glm::vec3& a, const glm::vec3& b) noexcept;

// The dominant-joint colour of every joint of a skeleton given by its parents (parents-first,
// -1 for a root), as the header's opening describes. Allocates (call once per model).
inline std::vector<glm::vec3> joint_colors(const std::vector<int32_t>& parents);

// 0 when |sum - 1| <= kWeightSumTolerance; otherwise 1..255 along the log-scale error ramp
// (255 from tolerance * 10^kSumErrorRampDecades up; NaN gives 255).
inline uint32_t weight_sum_level(float sum) noexcept {
  const float error = std::abs(sum - 1.0f);
  if (error <= kWeightSumTolerance) return 0;
  if (std::isnan(error)) return 255;
  const float decades = std::log10(error / kWeightSumTolerance) / kSumErrorRampDecades;
  return 1u + static_cast<uint32_t>(std::lround(254.0f * std::clamp(decades, 0.0f, 1.0f)));
}

// The weight-sum view's colour of a weighted vertex at `level` (weight_sum_level). Keep in step
// with sum_color() in shaders/common.vert.
inline glm::vec3 weight_sum_color(uint32_t level) noexcept {
  if (level == 0) return kSumOkColor;
  const float f = static_cast<float>(std::min(level, 255u) - 1u) / 254.0f;
  return kSumErrorLowColor + (kSumErrorHighColor - kSumErrorLowColor) * f;
}

// The error |sum - 1| where the ramp reaches level 255.
inline float weight_sum_ramp_top() noexcept {
  return kWeightSumTolerance * std::pow(10.0f, kSumErrorRampDecades);
}

// The CPU vs GPU ramp's ends, as fractions of the model's size (log scale between them), and
// the GPU tests' tolerance, marked on its legend.
inline constexpr float kCpuGpuRampLow = 1e-7f;
inline constexpr float kCpuGpuRampHigh = 1e-3f;
inline constexpr float kCpuGpuTolerance = 1e-5f;
// The method-vs-method ramp's top (red), as a fraction of the model's size (linear from 0).
inline constexpr float kMethodRampTop = 0.02f;

// The heat-ramp value (0..1) of a CPU vs GPU distance of `relative` of the model's size: 0 up to
// kCpuGpuRampLow, 1 from kCpuGpuRampHigh, log10 between; NaN and infinity give 1.
inline float cpu_gpu_ramp(float relative) noexcept {
  if (!std::isfinite(relative)) return 1.0f;
  if (relative <= kCpuGpuRampLow) return 0.0f;
  const float decades = std::log10(kCpuGpuRampHigh / kCpuGpuRampLow);
  return std::clamp(std::log10(relative / kCpuGpuRampLow) / decades, 0.0f, 1.0f);
}

// The heat-ramp value (0..1) of a method-vs-method distance of `relative` of the model's size:
// linear to kMethodRampTop; NaN and infinity give 1.
inline float method_ramp(float relative) noexcept {
  if (!std::isfinite(relative)) return 1.0f;
  return std::clamp(relative / kMethodRampTop, 0.0f, 1.0f);
}

// The weight-change ramp's ends (an L1 distance of a vertex's joint->weight maps, 0..2; log scale
// between): blue up to the comparison's tolerance (skin/rig_compare.h, 1e-4), red from 1 (half
// of the vertex's weight moved to other joints) up. Log, so a change of a hundredth still shows.
inline constexpr float kWeightChangeRampLow = 1e-4f;
inline constexpr float kWeightChangeRampHigh = 1.0f;

// The heat-ramp value (0..1) of a weight change `l1`: 0 up to kWeightChangeRampLow, 1 from
// kWeightChangeRampHigh, log10 between; NaN gives 1; a negative value (no counterpart in the
// other model) stays negative (grey).
inline float weight_change_ramp(float l1) noexcept {
  if (l1 < 0.0f) return -1.0f;
  if (!(l1 == l1)) return 1.0f;
  if (l1 <= kWeightChangeRampLow) return 0.0f;
  const float decades = std::log10(kWeightChangeRampHigh / kWeightChangeRampLow);
  return std::clamp(std::log10(l1 / kWeightChangeRampLow) / decades, 0.0f, 1.0f);
}

// 0 for a vertex the 4-limit cuts nothing from; otherwise 1..255 along the cut-weight ramp
// (255 from kCutRampTop up; NaN gives 255).
inline uint32_t cut_weight_level(float cut) noexcept {
  if (!(cut > 0.0f) && !std::isnan(cut)) return 0;
  if (std::isnan(cut)) return 255;
  return 1u +
         static_cast<uint32_t>(std::lround(254.0f * std::clamp(cut / kCutRampTop, 0.0f, 1.0f)));
}

// The influences view's colour of a cut vertex at `level` (cut_weight_level, 1..255). Keep in
// step with cut_color() in shaders/common.vert.
inline glm::vec3 cut_weight_color(uint32_t level) noexcept {
  const float x = static_cast<float>(std::clamp(level, 1u, 255u) - 1u) / 254.0f * 2.0f;
  const int i = std::min(static_cast<int>(x), 1);
  const glm::vec3 a = kCutStops[static_cast<std::size_t>(i)];
  const glm::vec3 b = kCutStops[static_cast<std::size_t>(i + 1)];
  return a + (b - a) * (x - static_cast<float>(i));
}

// What mesh.frag writes for a debug-view colour on a surface facing the light (shade 1).
inline glm::vec3 display_color(const glm::vec3& linear) noexcept {
  const glm::vec3 c = glm::clamp(linear, glm::vec3(0.0f), glm::vec3(1.0f));
  return glm::vec3(std::pow(c.x, 1.0f / kDisplayGamma), std::pow(c.y, 1.0f / kDisplayGamma),
                   std::pow(c.z, 1.0f / kDisplayGamma));
}

inline float display_distance(const glm::vec3& a, const glm::vec3& b) noexcept {
  const glm::vec3 d = display_color(a) - display_color(b);
  return std::sqrt(d.x * d.x + d.y * d.y + d.z * d.z);
}

inline std::vector<glm::vec3> joint_colors(const std::vector<int32_t>& parents) {
  const std::size_t n = parents.size();
  std::vector<glm::vec3> colors(n);
  std::vector<glm::vec3> display(n);
  std::vector<int32_t> prev_sibling(n, -1), last_child(n, -1);
  int32_t last_root = -1;
  constexpr int kSiblings = 8, kUncles = 3;
  std::array<glm::vec3, 2 + kSiblings + kUncles> near{};
  std::array<glm::vec3, kJointColorSlots> slots{}, slot_display{};
  for (uint32_t k = 0; k < kJointColorSlots; ++k) {
    slots[k] = joint_slot_color(k);
    slot_display[k] = display_color(slots[k]);
  }
  for (std::size_t j = 0; j < n; ++j) {
    const int32_t p = parents[j] >= 0 && static_cast<std::size_t>(parents[j]) < j ? parents[j] : -1;
    // The tree neighbours coloured already: parent, grandparent, earlier siblings, uncles.
    std::size_t count = 0;
    int32_t& last = p >= 0 ? last_child[static_cast<std::size_t>(p)] : last_root;
    prev_sibling[j] = last;
    last = static_cast<int32_t>(j);
    if (p >= 0) {
      near[count++] = display[static_cast<std::size_t>(p)];
      const int32_t g = parents[static_cast<std::size_t>(p)];
      if (g >= 0 && g < p) near[count++] = display[static_cast<std::size_t>(g)];
      int32_t u = prev_sibling[static_cast<std::size_t>(p)];
      for (int i = 0; i < kUncles && u >= 0; ++i, u = prev_sibling[static_cast<std::size_t>(u)])
        near[count++] = display[static_cast<std::size_t>(u)];
    }
    int32_t s = prev_sibling[j];
    for (int i = 0; i < kSiblings && s >= 0; ++i, s = prev_sibling[static_cast<std::size_t>(s)])
      near[count++] = display[static_cast<std::size_t>(s)];
    // The first candidate from slot j on that is far enough from all of them, else the farthest.
    uint32_t best = static_cast<uint32_t>(j % kJointColorSlots);
    float best_gap = -1.0f;
    for (uint32_t i = 0; i < kJointColorSlots; ++i) {
      const uint32_t k = static_cast<uint32_t>((j + i) % kJointColorSlots);
      float gap = 1e9f;
      for (std::size_t c = 0; c < count; ++c) {
        const glm::vec3 d = slot_display[k] - near[c];
        gap = std::min(gap, std::sqrt(d.x * d.x + d.y * d.y + d.z * d.z));
      }
      if (gap > best_gap) {
        best = k;
        best_gap = gap;
      }
      if (gap >= kJointColorSeparation) break;
    }
    colors[j] = slots[best];
    display[j] = slot_display[best];
  }
  return colors;
}

// The colour of joint j in a table from joint_colors (grey when j is not in it).
inline glm::vec3 joint_color_in(const std::vector<glm::vec3>& colors, int32_t j) noexcept {
  return j >= 0 && static_cast<std::size_t>(j) < colors.size() ? colors[static_cast<std::size_t>(j)]
                                                               : kNoValueColor;
}

// "NAME VALUE" lines for gl::ProgramDesc::defines: every constant above that the shaders use.
// Every program built from common.vert needs them.
inline std::vector<std::string> view_color_defines() {
  return {
      "SV_HEAT_STOP_COUNT " + std::to_string(kHeatStops.size()),
      "SV_HEAT_STOPS " + view_colors_detail::glsl_vec3_array(kHeatStops),
      "SV_INFLUENCE_COLORS " + view_colors_detail::glsl_vec3_array(kInfluenceColors),
      "SV_CUT_STOPS " + view_colors_detail::glsl_vec3_array(kCutStops),
      "SV_SUM_OK_COLOR " + view_colors_detail::glsl_vec3(kSumOkColor),
      "SV_SUM_UNWEIGHTED_COLOR " + view_colors_detail::glsl_vec3(kSumUnweightedColor),
      "SV_SUM_ERROR_LOW_COLOR " + view_colors_detail::glsl_vec3(kSumErrorLowColor),
      "SV_SUM_ERROR_HIGH_COLOR " + view_colors_detail::glsl_vec3(kSumErrorHighColor),
      "SV_NO_VALUE_COLOR " + view_colors_detail::glsl_vec3(kNoValueColor),
      "SV_DISPLAY_GAMMA " + view_colors_detail::glsl_float(kDisplayGamma),
  };
}

}  // namespace sv
