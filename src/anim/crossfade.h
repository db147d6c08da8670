// Cross-fade: the transition from one clip (FROM) to another (TO) over a time span, as the
// times and the weight of two layers. The pose is FROM's full pose moved towards TO's full pose
// by the weight (an override layer that blends every component, keyed or not: at weight 1 it is
// exactly TO's pose, rest-valued components included; see blend.h), so the fade starts at FROM
// and ends at TO with no jump at either end.
//
// Clock: `t` is seconds on FROM's own timeline, unwrapped (FROM's time before the fade, growing
// through it); the caller wraps the times it gets into each clip (wrap_time) when the clips loop.
// The weight rises linearly from 0 at `start` to 1 at `start + duration` (a linear ramp keeps
// the synchronised phase below in closed form; the pose is continuous at both ends either way).
//
// Without sync, TO starts from its beginning when the fade starts: to_time = t - start.
// With sync, both clips follow one normalised phase p (cycles of each clip; walk and run keyed
// with the same phase convention keep their feet in phase): before the fade p advances by
// 1 / D_from per second, after it by 1 / D_to, and during it by 1 / D(t) where the cycle length
// D(t) = mix(D_from, D_to, weight(t)) follows the weight, as engines blend the lengths of
// synchronised cycles. p is the integral of that rate, continuous at both ends:
//
//   t <= start:   p = t / D_from
//   during:       p = start / D_from + duration / (D_to - D_from) * ln(D(t) / D_from)
//                 (= start / D_from + (t - start) / D_from when the lengths are equal)
//   after:        p = p(start + duration) + (t - start - duration) / D_to
//
// from_time = p D_from, to_time = p D_to. Sync needs both lengths > 0; with a zero-length clip
// the times are those without sync.
#pragma once

namespace sv {

struct CrossFade {
  double start = 0.0;     // seconds on the clock when the fade begins, >= 0
  double duration = 0.0;  // seconds, >= 0; 0 is a cut at `start`
  bool sync = false;      // keep both clips at one normalised phase (see above)
};

struct CrossFadeState {
  double from_time = 0.0;  // seconds into FROM, unwrapped
  double to_time = 0.0;    // seconds into TO, unwrapped, >= 0
  float weight = 0.0f;     // of TO over FROM, in [0, 1]
};

// The fade at clock time t (seconds, >= 0); from_duration and to_duration are the clips'
// lengths in seconds. Allocation-free.
CrossFadeState crossfade_at(const CrossFade& fade, double from_duration, double to_duration,
                            double t) noexcept;

}  // namespace sv
