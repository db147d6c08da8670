#include "anim/player.h"

#include <cmath>

#include "anim/sample.h"

namespace sv {

void Player::advance(float dt, float duration) noexcept {
  if (!playing) return;
  const float step = dt * speed;
  const float t = std::isfinite(step) ? time + step : time;
  if (loop) {
    time = wrap_time(t, duration, true);
    return;
  }
  time = wrap_time(t, duration, false);
  // A clamped clip stops at the end it ran into (the start, when playing backwards).
  if ((step > 0.0f && t >= duration) || (step < 0.0f && t <= 0.0f)) playing = false;
}

}  // namespace sv
