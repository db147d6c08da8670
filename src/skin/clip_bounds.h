// The bounds of a clip over its whole duration, for framing: "F frames the clip" must keep a
// pose late in the clip (wave's raised hand) in view, not only the first frame.
//
// The skinned meshes are posed at every key time of the clip and at evenly spaced times covering
// [0, duration] (one per 1/30 s, both ends included), and every skinned vertex is added, so the
// box is exact at those times (a joint's linear translation peaks at a key); a pose between two
// samples can leave it by what a joint moves in 1/30 s. The number of samples is capped so that
// samples x vertices stays under kBoundsWork (a 1M-vertex mesh gets 32 samples, about 0.1 s of
// CPU skinning on one core) and at kMaxBoundsSamples (when there are more key times, evenly chosen
// ones), and is at least 2; a clip longer than the cap allows at 30 Hz is sampled at that many
// evenly spread times (the grid is never built whole: an 8.5e7-s clip costs what a 137-s one does). A model without meshes (BVH, CSM: skeleton only) is bounded by its
// joints' positions.
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
inline constexpr std::size_t kBoundsWork = std::size_t{1} << 25;  // samples x vertices
inline constexpr int kMaxBoundsSamples = 4096;

// How many poses clip_bounds() samples at most for a clip of `duration` seconds with `keys`
// distinct key times over `vertices` vertices.
int bounds_samples(double duration, std::size_t keys, std::size_t vertices) noexcept;

// Model-space bounds of `model` posed by `mode` (PoseMode::Clip plays clip `clip`), over the whole
// clip. `pool` (may be null) splits the CPU skinning. Invalid Bounds when nothing could be posed,
// or when `cancel` (may be null; polled before every pose) was set.
Bounds clip_bounds(const Model& model, int32_t clip, PoseMode mode, WorkerPool* pool = nullptr,
                   const std::atomic<bool>* cancel = nullptr);

}  // namespace sv
