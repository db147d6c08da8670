#include "anim/player.h"

#include <algorithm>
#include <cmath>

namespace sv {

double wrap_time(double t, double duration, bool loop) noexcept {
  if (std::isnan(t) || !(duration > 0.0) || !std::isfinite(duration)) return 0.0;
  if (!loop) return std::clamp(t, 0.0, duration);
  if (!std::isfinite(t)) return 0.0;
  double r = std::fmod(t, duration);  // exact, in (-duration, duration)
  if (r < 0.0) r += duration;         // may round up to duration for tiny negative r
  return r < duration ? r : 0.0;
}

void Player::advance(double dt, double duration) noexcept {
  if (!playing) return;
  const double step = dt * speed;
  const double t = std::isfinite(step) ? time + step : time;
  if (in_range_mode()) {
    const double lo = std::clamp(range_in, 0.0, duration),
                 hi = std::clamp(range_out, 0.0, duration);
    if (hi > lo) {
      const double from = time < lo || time > hi ? lo : t;
      if (loop) {
        time = lo + wrap_time(from - lo, hi - lo, true);
        return;
      }
      time = std::clamp(from, lo, hi);
      if ((step > 0.0 && from >= hi) || (step < 0.0 && from <= lo)) playing = false;
      return;
    }
  }
  if (loop) {
    time = wrap_time(t, duration, true);
    return;
  }
  time = wrap_time(t, duration, false);
  // A clamped clip stops at the end it ran into (the start, when playing backwards).
  if ((step > 0.0 && t >= duration) || (step < 0.0 && t <= 0.0)) playing = false;
}

void Player::play(double duration) noexcept {
  if (!loop && in_range_mode() && duration > 0.0) {
    const double lo = std::clamp(range_in, 0.0, duration),
                 hi = std::clamp(range_out, 0.0, duration);
    if (speed >= 0.0f && time >= hi) time = lo;
    if (speed < 0.0f && time <= lo) time = hi;
  } else if (!loop && duration > 0.0) {
    if (speed >= 0.0f && time >= duration) time = 0.0;
    if (speed < 0.0f && time <= 0.0) time = duration;
  }
  playing = true;
}

void Player::toggle(double duration) noexcept {
  if (playing) {
    playing = false;
  } else {
    play(duration);
  }
}

}  // namespace sv
