// seconds_since: the steady clock's seconds since t0, the unit of every stage time in a frame's
// figures (Animator, SkinnedPose, the crowd, the frame record).
#pragma once

#include <chrono>

namespace sv {

inline double seconds_since(std::chrono::steady_clock::time_point t0) noexcept {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace sv
