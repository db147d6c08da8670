// A layer stack that plays (stack_player.h).
#include "anim/stack_player.h"

#include <algorithm>

#include "anim/model.h"

namespace sv {
namespace {

bool is_clip(const Model& model, int32_t clip) noexcept {
  return clip >= 0 && static_cast<std::size_t>(clip) < model.clips.size();
}

double duration_of(const Model& model, int32_t clip) noexcept {
  return is_clip(model, clip) ? model.clips[static_cast<std::size_t>(clip)].duration() : 0.0;
}

}  // namespace

bool StackPlayer::start_fade(const Model& model, const Player& base, int32_t to, double duration,
                             bool sync) {
  if (!is_clip(model, base.clip) || !is_clip(model, to)) return false;
  fade_from = base.clip;
  fade_to = to;
  // The fade's clock is the base's own time, so it begins now, in phase with the base.
  fade_clock = base.time;
  fade = CrossFade{base.time, std::max(duration, 0.0), sync};
  return true;
}

void StackPlayer::advance(const Model& model, Player& base, double dt) noexcept {
  if (fading() && (base.clip != fade_from || !is_clip(model, fade_to))) fade_to = -1;
  if (fading()) {
    if (base.playing) fade_clock += dt * base.speed;
    fade_clock = std::max(fade_clock, 0.0);
    const double from = duration_of(model, fade_from), to = duration_of(model, fade_to);
    const CrossFadeState s = crossfade_at(fade, from, to, fade_clock);
    base.time = wrap_time(s.from_time, from, true);
    if (fade_clock >= fade.start + fade.duration) {  // the target takes over
      base.clip = fade_to;
      base.time = wrap_time(s.to_time, to, true);
      fade_to = -1;
    }
  } else {
    base.advance(dt, duration_of(model, base.clip));
  }
  if (!base.playing) return;
  for (PlayedLayer& l : layers) {
    l.player.playing = true;
    l.player.advance(dt, duration_of(model, l.player.clip));
  }
}

bool StackPlayer::frame(const Model& model, const Player& base,
                        std::span<Layer> out) const noexcept {
  if (out.size() < size() || !is_clip(model, base.clip)) return false;
  if (fading() && !is_clip(model, fade_to)) return false;
  for (const PlayedLayer& l : layers)
    if (!is_clip(model, l.player.clip)) return false;
  std::size_t n = 0;
  Layer& b = out[n++];
  b = Layer{};
  b.clip = base.clip;
  b.time = base.time;
  if (fading()) {
    const double to = duration_of(model, fade_to);
    const CrossFadeState s = crossfade_at(fade, duration_of(model, fade_from), to, fade_clock);
    Layer& x = out[n++];
    x = Layer{};
    x.clip = fade_to;
    x.time = wrap_time(s.to_time, to, true);
    x.weight = s.weight;
    x.every_channel = true;
  }
  for (const PlayedLayer& l : layers) {
    Layer& x = out[n++];
    x = Layer{};
    x.clip = l.player.clip;
    x.time = l.player.time;
    x.weight = l.weight;
    x.mode = l.mode;
    x.mask = l.mask;
    x.reference_time = l.reference_time;
  }
  return true;
}

StackPlayer from_stack(const Model& model, const LayerStack& stack, double t, Player& base) {
  StackPlayer s;
  if (!is_clip(model, stack.base)) return s;
  base.clip = stack.base;
  base.time = wrap_time(t, duration_of(model, stack.base), true);
  if (is_clip(model, stack.fade_to)) {
    s.fade_from = stack.base;
    s.fade_to = stack.fade_to;
    s.fade = stack.fade;
    s.fade_clock = t;
  }
  for (const StackLayer& l : stack.layers) {
    if (!is_clip(model, l.clip)) continue;
    PlayedLayer p;
    p.player.clip = l.clip;
    p.player.time = wrap_time(t + l.time_offset, duration_of(model, l.clip), true);
    p.player.playing = base.playing;
    p.weight = l.weight;
    p.mode = l.mode;
    p.mask = l.mask;
    p.reference_time = l.reference_time;
    s.layers.push_back(std::move(p));
  }
  return s;
}

}  // namespace sv
