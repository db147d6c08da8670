// ClipRuntime: the one form a clip has after import, laid out flat for forward playback, and the
// one sampler every caller uses (the viewer's Animator, --dump, --info, the fuzzers, the tests,
// the benchmarks). This is ozz's split: a raw clip (anim/clip.h, import time only) goes through
// the builder, ClipRuntime::build, once; from then on only this form exists (Model::clips). A
// runtime clip can also come back from bytes (ClipRuntime::adopt, anim/clip_arrays.h), checked.
//
// Layout: per skeleton joint and component (T, R, S), a reference into one array of values; a
// component the clip does not key is a constant (the skeleton's rest value). Tracks with equal
// key times share one timeline, so a frame finds its segment once per timeline, not once per
// track (clips exported at a fixed rate usually have a single one). The values of the tracks
// that share a timeline are stored key-major ([key][track], joints in order), so the two keys a
// frame reads for all those tracks are two contiguous rows. The exact arrays and their contract
// are in clip_arrays.h.
//
// Per frame: locate each timeline's segment (a RuntimeCursor remembers it; forward playback
// moves it a step, a jump falls back to a binary search), then go through the joints 4 at a
// time: translation and scale are lerped per joint, the 4 rotations are slerped together in SSE
// lanes (the Eberly polynomial of slerp_shortest, nlerp for nearly equal keys, the exact
// acos/sin route per lane for keys far apart). evaluate_pose turns them into 3x4 affine local
// matrices, multiplies by the parent (parents come first) and by the inverse bind matrices, in
// one pass: the path the viewer runs and the pose benchmark measures. sample_runtime stops at
// local TRS (for blending, which works on local transforms before local->model; anim/blend.h),
// pose_from_local is evaluate_pose's second half for the blended pose, and sample_joint gives
// one joint's local TRS on demand (the UI's selected joint).
//
// Interpolation follows glTF 2.0 exactly: step holds the key at or before t; linear lerps
// vectors and slerps rotations along the shorter arc; cubic spline is the Hermite spline with
// tangents scaled by the key interval (rotations normalised after); before the first key the
// first value holds, after the last key the last. tests/anim/clip_runtime_test.cpp checks
// every path against a plain scalar reference (tests/anim/reference_sampler.h) within 1e-6.
//
// Time: seconds as double, from Player::time through wrap_time to the key search. A float
// second steps by 6.1e-5 s at 10 minutes (a 30 fps key interval is 3.3e-2 s: 0.2 % of it), and
// assimp's own keys are doubles (ticks / ticks per second). Doubles keep 1e-13 s at 10 minutes,
// need no per-clip tick rate (FBX uses 46,186,158,000 ticks per second, BVH and X their own),
// and cost nothing measurable: only the key search and one division per timeline see them;
// alpha (in [0, 1)) and the values stay float.
//
// The runtime is immutable after build()/adopt() and move-only; the cursor is owned by the
// caller, sized once per runtime by reset(); sampling never allocates.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include <glm/mat4x4.hpp>
#include <glm/vec4.hpp>

#include "anim/clip.h"
#include "anim/clip_arrays.h"
#include "anim/local_lanes.h"
#include "anim/transform.h"

namespace sv {

struct Skeleton;

// The three components a joint's local transform is keyed in (glTF's "paths").
enum class TrackPath : uint8_t { Translation = 0, Rotation = 1, Scale = 2 };

class ClipRuntime {
 public:
  using Track = RuntimeTrack;

  ClipRuntime() = default;
  ClipRuntime(ClipRuntime&&) noexcept = default;
  ClipRuntime& operator=(ClipRuntime&&) noexcept = default;
  ClipRuntime(const ClipRuntime&) = delete;
  ClipRuntime& operator=(const ClipRuntime&) = delete;

  // The builder: validates `skeleton` and `clip` against it (Skeleton::validate, Clip::validate)
  // and lays the clip out for the skeleton (its rest values fill what the clip does not key).
  // Allocates. Empty on success; otherwise the first problem, and *this is empty.
  std::string build(const Clip& clip, const Skeleton& skeleton);

  // Takes over `arrays` once check_clip_arrays accepts them (clip_arrays.h). Empty on success;
  // otherwise the first problem, and *this is empty.
  std::string adopt(ClipArrays&& arrays);

  // The arrays, for writing (valid while *this lives and is not moved from).
  ClipArraysView arrays() const noexcept;

  bool empty() const noexcept { return joints_ == 0; }
  const std::string& name() const noexcept { return name_; }
  double duration() const noexcept { return duration_; }  // seconds
  std::size_t joints() const noexcept { return joints_; }
  std::size_t timelines() const noexcept { return timeline_begin_.size() - 1; }
  std::span<const int32_t> parents() const noexcept { return parents_; }
  // Per joint, the components this clip keys (KeyedBits, clip_arrays.h); a component it does not
  // key holds the skeleton's rest value. Blending leaves such a component to the layers below.
  std::span<const uint8_t> keyed() const noexcept { return keyed_; }

  // For --info and the UI; each scans the tracks (O(joints)), not meant per frame.
  // Joints with at least one keyed component (the raw clip's channels).
  std::size_t channels() const noexcept;
  // Keys over every keyed component, a one-key component counting 1.
  std::size_t keys() const noexcept;
  // The key times (seconds) of one component of one joint: empty when the clip does not key it
  // or `joint` is out of range.
  std::span<const double> key_times(std::size_t joint, TrackPath path) const noexcept;
  // The time of the nearest key of any keyed component strictly after (direction > 0) or before
  // (direction < 0) `time`, ignoring keys within 1e-6 s of it; `time` itself when there is none.
  double adjacent_key_time(double time, int direction) const noexcept;

 private:
  friend struct RuntimeAccess;

  std::string name_;
  uint32_t joints_ = 0;
  double duration_ = 0.0;
  std::vector<double> times_{0.0};              // every timeline's key times, one after another
  std::vector<uint32_t> timeline_begin_{0, 1};  // timeline i is times_[begin[i], begin[i+1])
  std::vector<Track> tracks_;      // 3 per joint (T, R, S), joints padded to a multiple of 4
  std::vector<glm::vec4> values_;  // vec3 as (x, y, z, 0); quaternions as (x, y, z, w)
  std::vector<int32_t> parents_;   // the skeleton's
  // Per 4 joints and component: 1 when the 4 tracks share timeline, interpolation and stride
  // and sit in consecutive slots, so a frame reads them as 4 adjacent values per key.
  std::vector<uint8_t> uniform_;
  std::vector<uint8_t> keyed_;  // per joint, KeyedBits
};

// Per-caller playback state for one ClipRuntime: a key index per timeline and the scratch the
// samplers write each frame (sized by reset, so sampling allocates nothing).
struct RuntimeCursor {
  // Where this frame's t fell on a timeline: inside segment [key, key+1] at `alpha` of its
  // length `td` (seconds), or outside every segment with `key` the key whose value holds.
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
bool sample_runtime(const ClipRuntime& clip, double t, RuntimeCursor& cursor,
                    std::span<Transform> out_local) noexcept;
// The same into lanes (local_lanes.h), the form blending works on: the sampler's own lanes, no
// per-joint unpacking. False, writing nothing, when `out` is not sized for the clip's joints or
// the cursor does not fit.
bool sample_runtime(const ClipRuntime& clip, double t, RuntimeCursor& cursor,
                    LocalLanes& out) noexcept;

// One joint's local transform at time t, with a binary search per component and no cursor:
// for one joint on demand (the UI's selected joint), not for whole poses. Scalar code: equal to
// sample_runtime's result up to rounding. False, writing nothing, when `joint` is out of range.
bool sample_joint(const ClipRuntime& clip, double t, std::size_t joint, Transform& out) noexcept;

// Sample + local->model + palette in one pass: model gets one matrix per joint (as
// local_to_model), palette[b] = model[skin_joints[b]] * inverse_bind[b] (as build_palette).
// Products use fused multiply-adds where the CPU has them (chosen at run time), so results
// differ from local_to_model/build_palette by rounding only. `palette` may be empty (with
// skin_joints and inverse_bind) for model matrices alone. False, writing nothing, when a size
// does not fit, a skin joint is out of range, or the cursor does not fit.
bool evaluate_pose(const ClipRuntime& clip, double t, RuntimeCursor& cursor,
                   std::span<const int32_t> skin_joints, std::span<const glm::mat4> inverse_bind,
                   std::span<glm::mat4> model, std::span<glm::mat4> palette) noexcept;

// evaluate_pose's second half on local transforms already sampled (and blended: the Animator's
// layer stack), in lanes: the same local->model and palette products, so the same results up to
// the rounding of the local transforms. parents, local and model have the joint count
// (parents[i] < i or kNoParent); scratch has local_pose_scratch(joints) entries (the caller's,
// sized once). False, writing nothing, when a size does not fit, a parent does not precede its
// joint, or a skin joint is out of range.
bool pose_from_local(std::span<const int32_t> parents, const LocalLanes& local,
                     std::span<const int32_t> skin_joints, std::span<const glm::mat4> inverse_bind,
                     std::span<glm::mat4> model, std::span<glm::mat4> palette,
                     std::span<glm::vec4> scratch) noexcept;
// The same with a runtime clip's parents (the Animator's rest clip: any clip of the skeleton),
// which were checked when it was built or adopted, so only the sizes and skin joints are checked
// per frame.
bool pose_from_local(const ClipRuntime& skeleton, const LocalLanes& local,
                     std::span<const int32_t> skin_joints, std::span<const glm::mat4> inverse_bind,
                     std::span<glm::mat4> model, std::span<glm::mat4> palette,
                     std::span<glm::vec4> scratch) noexcept;
std::size_t local_pose_scratch(std::size_t joints) noexcept;

namespace detail {
// Tests only: caps the kernels sample_runtime and evaluate_pose may pick (0 SSE2, 1 AVX2+FMA,
// 2 AVX-512, the default: the best the CPU has, chosen at run time). Not thread-safe; set it
// before sampling. Returns the previous cap.
int clip_runtime_max_isa(int level) noexcept;
// The kernel set in use under that cap on this CPU (0, 1 or 2 as above): blend.cpp's lane blends
// follow it too.
int clip_runtime_isa() noexcept;
}  // namespace detail

}  // namespace sv
