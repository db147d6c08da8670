#include "ui/clip_info.h"

#include <algorithm>
#include <cmath>

#include "anim/model.h"

namespace sv::ui {
namespace {

const ClipRuntime* clip_at(const Model& model, int32_t clip) noexcept {
  return clip >= 0 && static_cast<std::size_t>(clip) < model.clips.size()
             ? &model.clips[static_cast<std::size_t>(clip)]
             : nullptr;
}

}  // namespace

std::size_t clip_count(const Model& model) noexcept { return model.clips.size(); }

std::string_view clip_name(const Model& model, int32_t clip) noexcept {
  const ClipRuntime* c = clip_at(model, clip);
  return c != nullptr ? std::string_view(c->name()) : std::string_view();
}

double clip_duration(const Model& model, int32_t clip) noexcept {
  const ClipRuntime* c = clip_at(model, clip);
  return c != nullptr ? c->duration() : 0.0;
}

void key_times(const Model& model, int32_t clip, int32_t joint, std::vector<double>& out) {
  out.clear();
  const ClipRuntime* c = clip_at(model, clip);
  if (c == nullptr) return;
  const std::size_t first = joint >= 0 ? static_cast<std::size_t>(joint) : 0;
  const std::size_t last = joint >= 0 ? first + 1 : c->joints();
  for (std::size_t j = first; j < last; ++j) {
    for (TrackPath path : {TrackPath::Translation, TrackPath::Rotation, TrackPath::Scale}) {
      const std::span<const double> t = c->key_times(j, path);
      out.insert(out.end(), t.begin(), t.end());
    }
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
}

double adjacent_time(std::span<const double> sorted, double time, int direction) noexcept {
  constexpr double kSame = 1e-6;  // a key this close to `time` is the current one
  if (direction > 0) {
    const auto it = std::upper_bound(sorted.begin(), sorted.end(), time + kSame);
    return it != sorted.end() ? *it : time;
  }
  const auto it = std::lower_bound(sorted.begin(), sorted.end(), time - kSame);
  return it != sorted.begin() ? *(it - 1) : time;
}

double step_time(double time, double duration, int frames, int frames_per_second) noexcept {
  if (duration <= 0.0 || frames_per_second <= 0) return 0.0;
  const double dt = 1.0 / frames_per_second;
  const double frame = std::round(time / dt) + frames;
  return std::clamp(frame * dt, 0.0, duration);
}

}  // namespace sv::ui
