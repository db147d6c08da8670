// Player: the one piece of animation state that changes every frame (which clip, what time,
// how fast, looping or not). Everything it plays is immutable. Time is in seconds as a double,
// as every runtime clip's key times are (see clip_runtime.h): a float would step by 6e-5 s ten
// minutes into a clip.
#pragma once

#include <cstdint>

namespace sv {

// Maps a playback time into [0, duration]: wraps when looping (t == duration maps to 0, and
// negative times wrap from the end), clamps otherwise. A zero duration gives 0.
double wrap_time(double t, double duration, bool loop) noexcept;

// Player::clip values that are poses, not clips.
inline constexpr int32_t kRestPose = -1;  // every joint at its rest (node) transform
inline constexpr int32_t kBindPose = -2;  // every joint where the inverse bind matrices put it

struct Player {
  int32_t clip = kRestPose;  // index into Model::clips, or kRestPose / kBindPose
  double time = 0.0;         // seconds, always within [0, duration]
  float speed = 1.0f;
  bool loop = true;
  bool playing = true;
  // The timeline's in and out points (seconds), set on clip `range_clip`: with `loop_range`, and
  // while the player plays that clip, playback stays within [range_in, range_out] (clamped to the
  // clip): a time outside it starts at range_in; it wraps at range_out when looping, stops there
  // otherwise. Clip ranges (app/clip_ranges.h) are saved from them.
  double range_in = 0.0, range_out = 0.0;
  int32_t range_clip = kRestPose;
  bool loop_range = false;
  bool in_range_mode() const noexcept {
    return loop_range && range_clip == clip && clip >= 0 && range_out > range_in;
  }

  // Advances time by dt * speed when playing, wrapping (loop) or clamping (no loop) into
  // [0, duration]; a clamped clip stops at its end. Allocation-free.
  void advance(double dt, double duration) noexcept;

  // Starts playing. A clip that does not loop and has run into the end it plays towards (the
  // end for speed >= 0, the start for negative speed) starts over from the other end, so Play
  // after a clip finished plays it again instead of doing nothing.
  void play(double duration) noexcept;
  // Pauses when playing, otherwise play(duration): the Play/Pause button and the Space key.
  void toggle(double duration) noexcept;
};

}  // namespace sv
