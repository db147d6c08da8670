// The bounds of a clip over its whole duration, for framing: "F frames the clip" must keep a
// pose late in the clip (wave's raised hand) in view, not only the first frame.
//
// What the box is, for a clip: a bound on the skinned meshes, not their exact extent. Each skin
// bone gets, once, the box of the bind positions of the vertices it weighs (weight > 0, in either
// set of 4 influences), taken in the bone's own space (inverse bind matrix x position); at each
// sampled pose the bone's box is carried by its palette matrix (through bone space back to bind
// space), and the clip's box holds every carried box's 8 corners. A vertex skinned by linear
// blending (4 or 8 influences) is a weighted mean of its bones' transforms of it, so it lies in the
// box at every sampled time; the box is larger than the skinned mesh by what the bones' boxes'
// corners stick out (a box turned with its bone: a few percent for limbs, up to a fifth of the
// size on a coarse chain; tests/skin/clip_bounds_test.cpp). DQS and CoR keep volume where LBS
// loses it and may reach past it by that difference. One pass over the vertices, then per pose
// only the bones: a 1M-vertex mesh costs what its bones cost, where posing and skinning 32 poses of
// it took ~0.4 s of CPU (BENCHMARKS.md round 20b). A model with morph targets (whose deltas the
// boxes do not hold) is skinned on the CPU at each sampled pose and every vertex added, as are the
// rest and the bind pose (one pose each, exact: the inspector shows the rest pose's size).
//
// The poses: at every key time of the clip and at evenly spaced times covering [0, duration] (one
// per 1/30 s, both ends included); a pose between two samples can leave the box by what a joint
// moves in 1/30 s. The number of samples is capped so that samples x work stays under kBoundsWork
// (the work of a pose: 8 per bone box and 1 per joint, or the vertices where they are skinned; a
// 1M-vertex mesh skinned gets 32 samples) and at kMaxBoundsSamples (when there are more key times,
// evenly chosen ones), and is at least 2; a clip longer than the cap allows at 30 Hz is sampled at
// that many evenly spread times (the grid is never built whole: an 8.5e7-s clip costs what a
// 137-s one does). A model without meshes (BVH, CSM: skeleton only) is bounded by its joints'
// positions.
// The viewer computes this once per clip and caches it (app/viewer_scene.h).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>

#include "anim/animator.h"  // PoseMode
#include "anim/bounds.h"

namespace sv {

struct Model;
class WorkerPool;

inline constexpr double kBoundsRate = 30.0;                       // samples per second of clip
inline constexpr std::size_t kBoundsWork = std::size_t{1} << 25;  // samples x work
inline constexpr int kMaxBoundsSamples = 4096;

// How many poses clip_bounds() samples at most for a clip of `duration` seconds with `keys`
// distinct key times, a pose costing `work` (see above: bone boxes' corners and joints, or
// skinned vertices).
int bounds_samples(double duration, std::size_t keys, std::size_t work) noexcept;

// Model-space bounds of `model` posed by `mode` (PoseMode::Clip plays clip `clip`), over the whole
// clip: the bound above for a clip, the skinned vertices' box for one pose. `pool` (may be null)
// splits the CPU skinning. Invalid Bounds when nothing could be posed,
// or when `cancel` (may be null; polled before every pose) was set.
Bounds clip_bounds(const Model& model, int32_t clip, PoseMode mode, WorkerPool* pool = nullptr,
                   const std::atomic<bool>* cancel = nullptr);

}  // namespace sv
