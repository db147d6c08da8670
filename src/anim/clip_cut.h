// Cutting a part out of a clip (clip ranges: `--range NAME:CLIP:START:END`, the timeline's in and
// out points). Minetest's character.b3d keeps stand, sit, lay, walk, mine and walk-while-mining
// in one 221-frame clip; a range names one of them, and the cut makes it a clip like any other
// (Model::clips), so the player, layers, cross-fades, --clip, --dump and --record take it with no
// change of theirs.
//
// The cut is exact, not a resampling: its pose at time t is the source clip's at start + t, for
// every t in [0, end - start], up to the rounding of the boundary keys (and, for cubic-spline
// rotations, see below). Per keyed component: the
// source's keys strictly inside (start, end) are copied (times moved by -start, values and
// tangents as they are), and a key is added at each end holding the source's value there:
//   Step         the key at or before the time (as sampling holds it);
//   Linear       lerp, or slerp along the shorter arc: the segment from the boundary key to the
//                next source key is the rest of the source's segment, which lerp and slerp
//                follow at the same rate;
//   CubicSpline  the Hermite curve's value at the cut and its derivative (per second) as both
//                tangents: a cubic cut at a point is the same cubic on the part kept, and glTF's
//                tangents are per second, so the kept part of the segment is reproduced. For
//                rotations the boundary value is made unit (sampling holds a key as stored, and a
//                quaternion off unit length would scale the joint) and its tangents are the
//                normalised curve's derivative: the kept part of that one segment then differs
//                from the source by about what the source's curve strays from unit length
//                between its keys (3e-4 in the test's curve, made to stray by 0.2 %).
// Before a component's first key or after its last one the source holds the end value: so does
// the cut (tangents 0). Components the source does not key stay unkeyed (the rest value).
#pragma once

#include <string>

#include "anim/clip_runtime.h"

namespace sv {

struct Skeleton;

// `clip` (built for `skeleton`) between `start` and `end` seconds, 0 <= start < end <=
// clip.duration(), as a new clip named `name` of duration end - start. "" or the one-line reason
// (the times out of order or outside the clip).
std::string cut_clip(const ClipRuntime& clip, const Skeleton& skeleton, double start, double end,
                     const std::string& name, ClipRuntime* out);

// The rate of the clip's keys, keys per second, for frames given as numbers: 1 / the shortest
// interval between two keys of any keyed component, when every key time is a whole multiple of it
// (within a thousandth of it); 0 when the keys lie on no such grid or there are fewer than two.
// A clip exported at 30 frames per second with a key every frame has 30 (character.b3d: 60).
double clip_key_rate(const ClipRuntime& clip) noexcept;

}  // namespace sv
