// ClipRuntime: a clip converted once, at load, into a flat layout for forward playback.
//
// sample_clip (sample.h) works on the editable Clip: 3 std::vectors of keys per channel, checked
// every call. A ClipRuntime is built from a Clip and its Skeleton once (validated there, never
// again) and holds, per skeleton joint and component (T, R, S), a reference into one array of
// values; a component without a track, or with one key, is a constant (the rest value or that
// key). Tracks with equal key times share one timeline, so a frame finds its segment once per
// timeline, not once per track (clips exported at a fixed rate usually have a single one). The
// values of the tracks that share a timeline are stored key-major ([key][track], joints in
// order), so the two keys a frame reads for all those tracks are two contiguous rows.
//
// Per frame: locate each timeline's segment (a RuntimeCursor remembers it; forward playback
// moves it a step), then go through the joints 4 at a time: translation and scale are lerped per
// joint, the 4 rotations are slerped together in SSE lanes (the Eberly polynomial of
// slerp_shortest, nlerp for nearly equal keys, the exact acos/sin route per lane for keys far
// apart), and evaluate_pose turns them into 3x4 affine local matrices, multiplies by the parent
// (parents come first) and by the inverse bind matrices, in one pass. Interpolation follows
// glTF exactly as sample_clip does (step, linear with shortest-arc slerp, cubic spline, the first
// value before the first key and the last after the last key); results agree with sample_clip
// within 1e-6 (tests/anim/clip_runtime_test.cpp).
//
// The runtime is immutable after build() and move-only; the cursor is owned by the caller,
// sized once per runtime by reset(); sampling never allocates.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include <glm/mat4x4.hpp>
#include <glm/vec4.hpp>

#include "anim/clip.h"
#include "anim/transform.h"

namespace sv {

struct Skeleton;

class ClipRuntime {
 public:
  ClipRuntime() = default;
  ClipRuntime(ClipRuntime&&) noexcept = default;
  ClipRuntime& operator=(ClipRuntime&&) noexcept = default;
  ClipRuntime(const ClipRuntime&) = delete;
  ClipRuntime& operator=(const ClipRuntime&) = delete;

  // Validates `skeleton` and `clip` against it (Skeleton::validate, Clip::validate) and builds
  // the layout. Allocates. Empty on success; otherwise the first problem, and *this is empty.
  std::string build(const Clip& clip, const Skeleton& skeleton);

  bool empty() const noexcept { return joints_ == 0; }
  std::size_t joints() const noexcept { return joints_; }
  float duration() const noexcept { return duration_; }
  std::size_t timelines() const noexcept { return timeline_begin_.size() - 1; }

  // Where one component of one joint is: value of key k, entry e (0 for step and linear; 0..2 =
  // in-tangent, value, out-tangent for cubic) is values[base + (per_key * k + e) * stride].
  struct Track {
    uint32_t timeline;  // 0: the constant timeline (one key, value at base)
    uint32_t base;
    uint32_t stride;
    Interpolation interpolation;
  };

 private:
  friend struct RuntimeCursor;
  friend struct RuntimeAccess;

  uint32_t joints_ = 0;
  float duration_ = 0.0f;
  std::vector<float> times_;                    // every timeline's key times, one after the other
  std::vector<uint32_t> timeline_begin_{0, 1};  // timeline i is times_[begin[i], begin[i+1])
  std::vector<Track> tracks_;      // 3 per joint (T, R, S), joints padded to a multiple of 4
  std::vector<glm::vec4> values_;  // vec3 as (x, y, z, 0); quaternions as (x, y, z, w)
  std::vector<int32_t> parents_;   // the skeleton's, checked at build
  // Per 4 joints and component: 1 when the 4 tracks share timeline, interpolation and stride
  // and sit in consecutive slots, so a frame reads them as 4 adjacent values per key.
  std::vector<uint8_t> uniform_;
};

// Per-caller playback state for one ClipRuntime: a key index per timeline and the scratch the
// samplers write each frame (sized by reset, so sampling allocates nothing).
struct RuntimeCursor {
  // Where this frame's t fell on a timeline: inside segment [key, key+1] at `alpha` of its
  // length `td`, or outside every segment with `key` the key whose value holds.
  struct Segment {
    uint32_t key;
    uint32_t inside;
    float alpha;
    float td;
  };
  std::vector<uint32_t> keys;      // one per timeline, kept from frame to frame
  std::vector<Segment> segments;   // one per timeline, this frame's
  std::vector<glm::vec4> scratch;  // per joint T and S, then per 4 joints the 3x3 in lanes
  // Sizes for `clip` and rewinds. Allocates: call when the clip changes.
  void reset(const ClipRuntime& clip);
  bool fits(const ClipRuntime& clip) const noexcept;
};

// Samples at time t (seconds, wrapped or clamped by the caller, see wrap_time) into one local
// Transform per joint. False, writing nothing, when out_local's size differs from the joint count
// or the cursor was not reset for this runtime.
bool sample_runtime(const ClipRuntime& clip, float t, RuntimeCursor& cursor,
                    std::span<Transform> out_local) noexcept;

// Sample + local->model + palette in one pass: model gets one matrix per joint (as
// local_to_model), palette[b] = model[skin_joints[b]] * inverse_bind[b] (as build_palette).
// Products use fused multiply-adds where the CPU has them (chosen at run time), so results
// differ from local_to_model/build_palette by rounding only. `palette` may be empty (with
// skin_joints and inverse_bind) for model matrices alone. False, writing nothing, when a size
// does not fit, a skin joint is out of range, or the cursor does not fit.
bool evaluate_pose(const ClipRuntime& clip, float t, RuntimeCursor& cursor,
                   std::span<const int32_t> skin_joints, std::span<const glm::mat4> inverse_bind,
                   std::span<glm::mat4> model, std::span<glm::mat4> palette) noexcept;

namespace detail {
// Tests only: caps the kernels sample_runtime and evaluate_pose may pick (0 SSE2, 1 AVX2+FMA,
// 2 AVX-512, the default: the best the CPU has, chosen at run time). Not thread-safe; set it
// before sampling. Returns the previous cap.
int clip_runtime_max_isa(int level) noexcept;
}  // namespace detail

}  // namespace sv
