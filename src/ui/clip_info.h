// The few facts the panels read from a model's clips (runtime clips, anim/clip_runtime.h):
// count, name, duration, key times. Every read of Model::clips in src/ui/ goes through these
// functions, so a change of the clip type touches this file only.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

namespace sv {
struct Model;
}

namespace sv::ui {

std::size_t clip_count(const Model& model) noexcept;
// The clip's name; "" for the rest pose (clip < 0) or an index past the end.
std::string_view clip_name(const Model& model, int32_t clip) noexcept;
// Seconds; 0 for the rest pose (clip < 0) or an index past the end.
double clip_duration(const Model& model, int32_t clip) noexcept;

// The key times of `joint`'s tracks in `clip` (translation, rotation and scale merged), or of
// every joint's when joint < 0: sorted, repeats removed, into `out` (cleared first). Allocates:
// call when the clip or the joint changes, not per frame.
void key_times(const Model& model, int32_t clip, int32_t joint, std::vector<double>& out);

// The nearest time of `sorted` strictly after (direction > 0) or before (direction < 0) `time`;
// `time` itself when there is none. Binary search: allocation-free.
double adjacent_time(std::span<const double> sorted, double time, int direction) noexcept;

// One-frame step for the arrow keys and the step buttons, within [0, duration].
double step_time(double time, double duration, int frames, int frames_per_second) noexcept;

}  // namespace sv::ui
