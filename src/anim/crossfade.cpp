// Cross-fade times and weight (crossfade.h).
#include "anim/crossfade.h"

#include <algorithm>
#include <cmath>

namespace sv {

namespace {

// Phase (cycles) gained from the fade's start to weight w in [0, 1]: the integral of
// 1 / mix(a, b, w(t)) dt with dt = duration dw, i.e. duration / (b - a) * ln(1 + (b - a) / a w).
double phase_during(double a, double b, double duration, double w) noexcept {
  const double d = b - a;
  if (std::abs(d) <= 1e-12 * a) return duration * w / a;  // equal lengths: a constant rate
  return duration * std::log1p(d / a * w) / d;
}

}  // namespace

CrossFadeState crossfade_at(const CrossFade& fade, double from_duration, double to_duration,
                            double t) noexcept {
  CrossFadeState s;
  const double end = fade.start + fade.duration;
  if (t >= end)
    s.weight = 1.0f;
  else if (t > fade.start)  // duration > 0 here
    s.weight = static_cast<float>((t - fade.start) / fade.duration);
  if (!fade.sync || !(from_duration > 0.0) || !(to_duration > 0.0)) {
    s.from_time = t;
    s.to_time = std::max(0.0, t - fade.start);
    return s;
  }
  const double a = from_duration, b = to_duration;
  double p = std::min(t, fade.start) / a;
  if (t > fade.start) {
    // The weight in double, not the float above: the phase must not step with its rounding.
    const double w = t >= end ? 1.0 : (t - fade.start) / fade.duration;
    p += phase_during(a, b, fade.duration, w);
  }
  if (t > end) p += (t - end) / b;
  s.from_time = p * a;
  s.to_time = p * b;
  return s;
}

}  // namespace sv
