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

struct Player {
  int32_t clip = -1;  // index into Model::clips; -1 shows the rest pose
  double time = 0.0;  // seconds, always within [0, duration]
  float speed = 1.0f;
  bool loop = true;
  bool playing = true;

  // Advances time by dt * speed when playing, wrapping (loop) or clamping (no loop) into
  // [0, duration]; a clamped clip stops at its end. Allocation-free.
  void advance(double dt, double duration) noexcept;
};

}  // namespace sv
