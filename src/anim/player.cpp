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

void Player::play(float duration) noexcept {
  if (!loop && duration > 0.0f) {
    if (speed >= 0.0f && time >= duration) time = 0.0f;
    if (speed < 0.0f && time <= 0.0f) time = duration;
  }
  playing = true;
}

void Player::toggle(float duration) noexcept {
  if (playing) {
    playing = false;
  } else {
    play(duration);
  }
}

}  // namespace sv
