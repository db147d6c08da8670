// Sampling: evaluates a clip at a time into local joint transforms.
//
// Finding the two keys around t is a binary search (O(log k)); a SamplingCursor remembers the
// key found last time for every track, so forward playback (time moves a little each frame)
// costs O(1) per track: the cursor is checked first and moved forward a step or two, and only a
// jump (seek, loop wrap, backwards scrub) falls back to the binary search. The cursor is owned
// by the caller and sized once per clip with reset(); sampling itself never allocates.
//
// Joints without a channel, and components without a track, get the skeleton's rest values.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "anim/clip.h"
#include "anim/transform.h"

namespace sv {

struct Skeleton;

struct SamplingCursor {
  // Three key indices per channel (translation, rotation, scale).
  std::vector<uint32_t> keys;
  // Sizes the cursor for `clip` and rewinds it. Allocates: call when the clip changes.
  void reset(const Clip& clip);
};

// Maps a playback time into [0, duration]: wraps when looping (t == duration maps to 0, and
// negative times wrap from the end), clamps otherwise. A zero duration gives 0.
float wrap_time(float t, float duration, bool loop) noexcept;

// Shortest-arc spherical interpolation between unit quaternions: negates b when dot(a,b) < 0,
// falls back to normalised lerp when the quaternions are nearly equal.
glm::quat slerp_shortest(const glm::quat& a, const glm::quat& b, float alpha) noexcept;

// Evaluates one track at time t (seconds). `cursor` may be null (binary search each call);
// otherwise it holds the key index found last time and is updated. The track must not be empty.
glm::vec3 sample_track(const Track<glm::vec3>& track, float t, uint32_t* cursor) noexcept;
glm::quat sample_track(const Track<glm::quat>& track, float t, uint32_t* cursor) noexcept;

// Writes the skeleton's rest pose. Returns false (writing nothing) if out.size() differs from
// the joint count.
bool rest_pose(const Skeleton& skeleton, std::span<Transform> out) noexcept;

// Samples `clip` at time t (seconds, already wrapped or clamped by the caller) into
// out_local, one Transform per skeleton joint. `cursor` may be null; if given it must have been
// reset() for this clip. Returns false, writing nothing, when out_local.size() differs from the
// joint count or the cursor does not fit the clip.
bool sample_clip(const Clip& clip, const Skeleton& skeleton, float t,
                 std::span<Transform> out_local, SamplingCursor* cursor = nullptr) noexcept;

}  // namespace sv
