// The debug views' colours, defined once: the shaders get them as injected #defines
// (view_color_defines(), prepended by the shader loader) and the legends (ui/legend.h) draw
// with the same numbers through the C++ functions below, so a legend cannot drift from what the
// mesh shows. No GL here: the UI includes this.
//
// - Weights of the selected joint: Blender's weight-paint ramp, blue (0) -> cyan (0.25) ->
//   green (0.5) -> yellow (0.75) -> red (1), smoothstep-eased within each quarter, which is what
//   riggers read at a glance.
// - Dominant joint: a colour per skeleton joint from a hash of its index spread over hue (the
//   same joint always gets the same colour, neighbours rarely close ones).
// - Influences: 1 grey, 2 green, 3 yellow, 4 orange; vertices that had more than 4 in the file
//   (cut at import) magenta.
// - Weight sum: within kWeightSumTolerance of 1 grey; no weight at all yellow; off by more, a
//   ramp from orange (just over the tolerance) to red (off by kSumErrorRampDecades decades more,
//   e.g. 0.1), on a log scale. The error reaches the shader as a level 0..255 per vertex
//   (weight_sum_level), packed at upload beside the vertex flags.
//
// Colours are linear RGB, as the vertex shader outputs them. mesh.frag shades debug views by
// 0.55..1 and encodes with 1/kDisplayGamma; display_color() gives the fully lit result, which is
// what a legend swatch shows.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include <glm/vec3.hpp>

namespace sv {

inline constexpr std::array<glm::vec3, 5> kHeatStops = {
    glm::vec3(0.0f, 0.0f, 1.0f), glm::vec3(0.0f, 1.0f, 1.0f), glm::vec3(0.0f, 1.0f, 0.0f),
    glm::vec3(1.0f, 1.0f, 0.0f), glm::vec3(1.0f, 0.0f, 0.0f)};

// Influence classes: [0..3] keep 1..4 weights, [4] had more than 4 in the file (cut at import).
inline constexpr std::array<glm::vec3, 5> kInfluenceColors = {
    glm::vec3(0.6f, 0.6f, 0.6f), glm::vec3(0.2f, 0.8f, 0.2f), glm::vec3(0.95f, 0.9f, 0.2f),
    glm::vec3(1.0f, 0.5f, 0.1f), glm::vec3(1.0f, 0.0f, 1.0f)};

inline constexpr glm::vec3 kSumOkColor{0.55f, 0.55f, 0.55f};
inline constexpr glm::vec3 kSumUnweightedColor{1.0f, 0.9f, 0.1f};
inline constexpr glm::vec3 kSumErrorLowColor{1.0f, 0.6f, 0.1f};   // just over the tolerance
inline constexpr glm::vec3 kSumErrorHighColor{1.0f, 0.0f, 0.0f};  // the ramp's top and beyond
inline constexpr float kSumErrorRampDecades = 2.0f;               // tolerance 1e-3 -> red at 1e-1

inline constexpr float kDisplayGamma = 2.2f;

// The heat ramp at weight w (clamped to [0, 1]).
glm::vec3 heat_color(float w) noexcept;

// The dominant-joint view's colour of skeleton joint j.
glm::vec3 joint_color(uint32_t joint) noexcept;

// 0 when |sum - 1| <= kWeightSumTolerance; otherwise 1..255 along the log-scale error ramp
// (255 from tolerance * 10^kSumErrorRampDecades up; NaN gives 255).
uint32_t weight_sum_level(float sum) noexcept;
// The weight-sum view's colour of a weighted vertex at `level` (weight_sum_level).
glm::vec3 weight_sum_color(uint32_t level) noexcept;
// The error |sum - 1| where the ramp reaches level 255.
float weight_sum_ramp_top() noexcept;

// What mesh.frag writes for a debug-view colour on a surface facing the light (shade 1).
glm::vec3 display_color(const glm::vec3& linear) noexcept;

// "NAME VALUE" lines for gl::ProgramDesc::defines: every constant above that the shaders use.
// Every program built from common.vert needs them.
std::vector<std::string> view_color_defines();

}  // namespace sv
