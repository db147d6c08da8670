// Player: the one piece of animation state that changes every frame (which clip, what time,
// how fast, looping or not). Everything it plays is immutable.
#pragma once

#include <cstdint>

namespace sv {

struct Player {
  int32_t clip = -1;  // index into Model::clips; -1 shows the rest pose
  float time = 0.0f;  // seconds, always within [0, duration]
  float speed = 1.0f;
  bool loop = true;
  bool playing = true;

  // Advances time by dt * speed when playing, wrapping (loop) or clamping (no loop) into
  // [0, duration]; a clamped clip stops at its end. Allocation-free.
  void advance(float dt, float duration) noexcept;
};

}  // namespace sv
