// A runtime clip (ClipRuntime, anim/clip_runtime.h) as plain arrays: what a serialised model
// writes and what a reader hands back. ClipRuntime::arrays() lends a view of a clip's arrays
// for writing; ClipRuntime::adopt() takes arrays read from untrusted bytes (the import child's
// stream, a cache file) and checks every size, index and number against the contract below
// before accepting them, so that no stream, however hostile, can make sampling read out of
// bounds, loop, or divide by zero. A refusal is a one-line message naming the first problem.
//
// Layout contract (J joints, P = J rounded up to a multiple of 4, G = P / 4, U timelines):
//
//   name            any bytes (shown in the UI and by --info).
//   duration        seconds, finite, >= 0.
//   joints          J <= kMaxRuntimeJoints.
//   times           seconds (double), U timelines one after the other: timeline u is
//                   times[timeline_begin[u], timeline_begin[u+1]); every time finite, strictly
//                   increasing within its timeline. Timeline 0 is the constant timeline: one
//                   time, 0, never read. Every other timeline has >= 1 key and is used by at
//                   least one track.
//   timeline_begin  U + 1 entries, U >= 1: 0, 1, then strictly increasing, the last one
//                   times.size().
//   tracks          3 * P entries: joint j's translation, rotation and scale at 3j, 3j+1, 3j+2;
//                   the tracks of padding joints (J <= j < P) are constants. A track reads
//                   value e (0 for step and linear; 0, 1, 2 = in-tangent, value, out-tangent for
//                   cubic) of key k at values[base + (per_key * k + e) * stride], per_key 3 for
//                   CubicSpline and 1 otherwise, k < K = the key count of its timeline: so
//                   base + stride * (K * per_key - 1) < values.size(). interpolation is one of
//                   the Interpolation values; stride >= 1; timeline < U. A constant (timeline 0,
//                   K = 1) is Step: the joint's rest value (a component the clip does not key).
//                   A component the clip keys is on a timeline >= 1, a one-key one included.
//   values          vec4s, every component finite: translations and scales as (x, y, z, 0),
//                   rotations as (x, y, z, w) quaternions.
//   parents         J entries, parents[i] == kNoParent (-1) or 0 <= parents[i] < i: the
//                   skeleton's (Model::validate checks they are the model's).
//   uniform         3 * G bytes, uniform[3g + c] for joints 4g..4g+3 and component c: 1 exactly
//                   when those 4 tracks share timeline, interpolation and stride and their bases
//                   are base, base+1, base+2, base+3 (the samplers then read the 4 as adjacent
//                   values), else 0. Derived from `tracks`; checked to agree with them.
//   keyed           J bytes, keyed[j] = which components of joint j the clip keys, as KeyedBits
//                   (translation 1, rotation 2, scale 4): bit c set exactly when track 3j + c is
//                   on a timeline >= 1, every other bit clear. Derived from `tracks`; checked to
//                   agree with them. What blending reads (anim/blend.h): a component a layer's
//                   clip does not key leaves the pose below it as it is (sparse tracks).
//
// RuntimeTrack has padding bytes: write its four fields, not its bytes. Endianness, versions
// and framing are the writer's business (io/model_format.*); these checks cover meaning.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <glm/vec4.hpp>

#include "anim/clip.h"

namespace sv {

// At most 2^24 joints in a runtime clip (the builder's and the checks' bound; the importer's
// own limit is lower).
inline constexpr std::size_t kMaxRuntimeJoints = std::size_t{1} << 24;

// ClipArrays::keyed's bits: the components of a joint a clip keys.
enum KeyedBits : uint8_t {
  kKeyedTranslation = 1u << 0,
  kKeyedRotation = 1u << 1,
  kKeyedScale = 1u << 2,
  kKeyedAll = kKeyedTranslation | kKeyedRotation | kKeyedScale,
};

// Where one component of one joint is (see the contract above).
struct RuntimeTrack {
  uint32_t timeline;  // 0: the constant timeline (one key, value at base)
  uint32_t base;
  uint32_t stride;
  Interpolation interpolation;
};

// A clip's arrays, borrowed from a ClipRuntime (valid while it lives and is not moved from).
struct ClipArraysView {
  std::string_view name;
  double duration = 0.0;
  uint32_t joints = 0;
  std::span<const double> times;
  std::span<const uint32_t> timeline_begin;
  std::span<const RuntimeTrack> tracks;
  std::span<const glm::vec4> values;
  std::span<const int32_t> parents;
  std::span<const uint8_t> uniform;
  std::span<const uint8_t> keyed;
};

// The same arrays, owned: what a reader fills and ClipRuntime::adopt takes over.
struct ClipArrays {
  std::string name;
  double duration = 0.0;
  uint32_t joints = 0;
  std::vector<double> times;
  std::vector<uint32_t> timeline_begin;
  std::vector<RuntimeTrack> tracks;
  std::vector<glm::vec4> values;
  std::vector<int32_t> parents;
  std::vector<uint8_t> uniform;
  std::vector<uint8_t> keyed;

  ClipArraysView view() const noexcept;
  static ClipArrays copy_of(const ClipArraysView& view);
};

// The uniform flag the contract requires for joints 4g..4g+3 (g = group), component c: whether
// their 4 tracks share timeline, interpolation and stride and have consecutive bases.
// tracks.size() must be at least 3 * 4 * (group + 1).
bool uniform_flag(std::span<const RuntimeTrack> tracks, std::size_t group,
                  std::size_t component) noexcept;

// The keyed byte the contract requires for `joint`: bit c set when track 3 * joint + c is on a
// timeline other than the constant one. tracks.size() must be at least 3 * (joint + 1).
uint8_t keyed_bits(std::span<const RuntimeTrack> tracks, std::size_t joint) noexcept;

// Empty when `a` meets the contract above; otherwise the first problem, as one line. Reads
// every element once (O(size)); allocates a byte per timeline, and the message.
std::string check_clip_arrays(const ClipArraysView& a);

}  // namespace sv
