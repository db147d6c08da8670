#include "ui/clip_info.h"

#include <algorithm>
#include <cmath>

#include "anim/model.h"

namespace sv::ui {
namespace {

const Clip* clip_at(const Model& model, int32_t clip) noexcept {
  return clip >= 0 && static_cast<std::size_t>(clip) < model.clips.size()
             ? &model.clips[static_cast<std::size_t>(clip)]
             : nullptr;
}

}  // namespace

std::size_t clip_count(const Model& model) noexcept { return model.clips.size(); }

std::string_view clip_name(const Model& model, int32_t clip) noexcept {
  const Clip* c = clip_at(model, clip);
  return c != nullptr ? std::string_view(c->name) : std::string_view();
}

float clip_duration(const Model& model, int32_t clip) noexcept {
  const Clip* c = clip_at(model, clip);
  return c != nullptr ? c->duration : 0.0f;
}

void key_times(const Model& model, int32_t clip, int32_t joint, std::vector<float>& out) {
  out.clear();
  const Clip* c = clip_at(model, clip);
  if (c == nullptr) return;
  for (const JointChannel& ch : c->channels) {
    if (joint >= 0 && ch.joint != joint) continue;
    out.insert(out.end(), ch.translation.times.begin(), ch.translation.times.end());
    out.insert(out.end(), ch.rotation.times.begin(), ch.rotation.times.end());
    out.insert(out.end(), ch.scale.times.begin(), ch.scale.times.end());
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
}

float adjacent_time(std::span<const float> sorted, float time, int direction) noexcept {
  constexpr float kSame = 1e-6f;  // a key this close to `time` is the current one
  if (direction > 0) {
    const auto it = std::upper_bound(sorted.begin(), sorted.end(), time + kSame);
    return it != sorted.end() ? *it : time;
  }
  const auto it = std::lower_bound(sorted.begin(), sorted.end(), time - kSame);
  return it != sorted.begin() ? *(it - 1) : time;
}

float step_time(float time, float duration, int frames, int frames_per_second) noexcept {
  if (duration <= 0.0f || frames_per_second <= 0) return 0.0f;
  const float dt = 1.0f / static_cast<float>(frames_per_second);
  const float frame = std::round(time / dt) + static_cast<float>(frames);
  return std::clamp(frame * dt, 0.0f, duration);
}

}  // namespace sv::ui
