#include "anim/clip.h"

#include <cmath>

#include "anim/finite.h"
#include "anim/skeleton.h"

namespace sv {

namespace {

// Empty, or what is wrong with `track`.
template <class T>
std::string check_track(const Track<T>& track) {
  if (track.interpolation != Interpolation::Step && track.interpolation != Interpolation::Linear &&
      track.interpolation != Interpolation::CubicSpline)
    return "unknown interpolation";
  if (track.values.size() != track.expected_values())
    return std::to_string(track.values.size()) + " values for " +
           std::to_string(track.times.size()) + " keys (expected " +
           std::to_string(track.expected_values()) + ")";
  for (std::size_t k = 0; k < track.times.size(); ++k) {
    if (!finite(track.times[k])) return "key " + std::to_string(k) + " has a non-finite time";
    if (k > 0 && !(track.times[k] > track.times[k - 1]))
      return "key times not strictly increasing at key " + std::to_string(k);
  }
  for (std::size_t v = 0; v < track.values.size(); ++v)
    if (!finite(track.values[v])) return "value " + std::to_string(v) + " is not finite";
  return {};
}

}  // namespace

std::string Clip::validate(const Skeleton& skeleton) const {
  const std::string where = "clip '" + name + "': ";
  if (!std::isfinite(duration) || duration < 0.0)
    return where + "duration is negative or not finite";
  std::vector<uint8_t> seen(skeleton.size(), 0);
  for (std::size_t c = 0; c < channels.size(); ++c) {
    const JointChannel& ch = channels[c];
    if (ch.joint < 0 || static_cast<std::size_t>(ch.joint) >= skeleton.size())
      return where + "channel " + std::to_string(c) + " names joint " + std::to_string(ch.joint) +
             ", out of range of " + std::to_string(skeleton.size()) + " joints";
    if (seen[ch.joint]++)
      return where + "joint " + std::to_string(ch.joint) + " has more than one channel";
    const char* const kinds[3] = {"translation", "rotation", "scale"};
    const std::string problems[3] = {check_track(ch.translation), check_track(ch.rotation),
                                     check_track(ch.scale)};
    for (int k = 0; k < 3; ++k)
      if (!problems[k].empty())
        return where + "joint " + std::to_string(ch.joint) + " " + kinds[k] + ": " + problems[k];
  }
  return {};
}

}  // namespace sv
