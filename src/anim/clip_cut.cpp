#include "anim/clip_cut.h"

#include <algorithm>
#include <cmath>

#include <glm/geometric.hpp>

#include "anim/clip.h"
#include "anim/quat_vec.h"
#include "anim/skeleton.h"
#include "anim/slerp.h"

namespace sv {
namespace {

// One component's keys, as the arrays hold them.
struct Keys {
  std::span<const double> times;
  const glm::vec4* values = nullptr;
  uint32_t stride = 1;
  std::size_t per_key = 1;
  Interpolation interpolation = Interpolation::Linear;
  // Element e (0 in-tangent, 1 value, 2 out-tangent for cubic; 0 otherwise) of key k.
  glm::vec4 at(std::size_t k, std::size_t e) const { return values[(per_key * k + e) * stride]; }
  glm::vec4 value(std::size_t k) const { return at(k, per_key == 3 ? 1 : 0); }
};

struct Sample {
  glm::vec4 value;
  glm::vec4 slope{0.0f};  // per second (cubic only)
};

// The component at time t. `left`: at a key time, the segment that ends there (the end of a cut:
// the in-tangent it needs), else the one that starts there. Step holds the key at or before t.
Sample sample(const Keys& k, double t, bool rotation, bool left) {
  const std::size_t n = k.times.size();
  if (t <= k.times[0]) return {k.value(0)};
  if (t >= k.times[n - 1]) return {k.value(n - 1)};
  // The segment [i, i + 1] holding t.
  std::size_t i = static_cast<std::size_t>(std::upper_bound(k.times.begin(), k.times.end(), t) -
                                           k.times.begin() - 1);
  if (left && k.times[i] == t && i > 0 && k.interpolation == Interpolation::CubicSpline) --i;
  const double td = k.times[i + 1] - k.times[i];
  const float a = static_cast<float>((t - k.times[i]) / td);
  switch (k.interpolation) {
    case Interpolation::Step:
      return {k.value(i)};
    case Interpolation::Linear:
      if (rotation)
        return {quat_vec(slerp_shortest(vec_quat(k.value(i)), vec_quat(k.value(i + 1)), a))};
      return {k.value(i) + (k.value(i + 1) - k.value(i)) * a};
    case Interpolation::CubicSpline:
    default: {
      const glm::vec4 v0 = k.at(i, 1), m0 = k.at(i, 2) * static_cast<float>(td);
      const glm::vec4 v1 = k.at(i + 1, 1), m1 = k.at(i + 1, 0) * static_cast<float>(td);
      const float a2 = a * a, a3 = a2 * a;
      Sample s;
      s.value = (2 * a3 - 3 * a2 + 1) * v0 + (a3 - 2 * a2 + a) * m0 + (-2 * a3 + 3 * a2) * v1 +
                (a3 - a2) * m1;
      s.slope = ((6 * a2 - 6 * a) * v0 + (3 * a2 - 4 * a + 1) * m0 + (-6 * a2 + 6 * a) * v1 +
                 (3 * a2 - 2 * a) * m1) /
                static_cast<float>(td);
      return s;
    }
  }
}

template <class T>
T as(const glm::vec4& v);
template <>
glm::vec3 as<glm::vec3>(const glm::vec4& v) {
  return glm::vec3(v);
}
template <>
glm::quat as<glm::quat>(const glm::vec4& v) {
  return vec_quat(v);
}

template <class T>
void cut_track(const Keys& k, double start, double end, bool rotation, Track<T>& out) {
  out.interpolation = k.interpolation;
  const bool cubic = k.interpolation == Interpolation::CubicSpline;
  auto push = [&](double t, Sample s) {
    // Sampling holds a key's rotation as stored: a cubic's boundary value is made unit, its
    // tangent the derivative of the normalised curve there.
    if (rotation && cubic && glm::length(s.value) > 0.0f) {
      const float len = glm::length(s.value);
      const glm::vec4 n = s.value / len;
      s.slope = (s.slope - n * glm::dot(n, s.slope)) / len;
      s.value = n;
    }
    out.times.push_back(t);
    if (cubic) {
      out.values.push_back(as<T>(s.slope));
      out.values.push_back(as<T>(s.value));
      out.values.push_back(as<T>(s.slope));
    } else {
      out.values.push_back(as<T>(s.value));
    }
  };
  push(0.0, sample(k, start, rotation, false));
  // Keys closer than this to an end are that end's key (the times stay strictly increasing).
  const double eps = 1e-9 * std::max(1.0, end);
  for (std::size_t i = 0; i < k.times.size(); ++i) {
    const double t = k.times[i];
    if (t <= start + eps || t >= end - eps) continue;
    out.times.push_back(t - start);
    for (std::size_t e = 0; e < k.per_key; ++e) out.values.push_back(as<T>(k.at(i, e)));
  }
  push(end - start, sample(k, end, rotation, true));
}

}  // namespace

std::string cut_clip(const ClipRuntime& clip, const Skeleton& skeleton, double start, double end,
                     const std::string& name, ClipRuntime* out) {
  *out = ClipRuntime();
  if (!(start >= 0.0) || !(end > start) || !std::isfinite(end))
    return "the range must run forwards from 0 or later (start " + std::to_string(start) +
           " s, end " + std::to_string(end) + " s)";
  if (end > clip.duration() + 1e-9)
    return "the range ends at " + std::to_string(end) + " s, past the clip's end (" +
           std::to_string(clip.duration()) + " s)";
  end = std::min(end, clip.duration());
  const ClipArraysView a = clip.arrays();
  Clip raw;
  raw.name = name;
  raw.duration = end - start;
  for (std::size_t j = 0; j < a.joints; ++j) {
    JointChannel ch;
    ch.joint = static_cast<int32_t>(j);
    for (std::size_t c = 0; c < 3; ++c) {
      const RuntimeTrack& rt = a.tracks[3 * j + c];
      if (rt.timeline == 0) continue;
      Keys k;
      const uint32_t b = a.timeline_begin[rt.timeline], e = a.timeline_begin[rt.timeline + 1];
      k.times = a.times.subspan(b, e - b);
      k.values = a.values.data() + rt.base;
      k.stride = rt.stride;
      k.interpolation = rt.interpolation;
      k.per_key = rt.interpolation == Interpolation::CubicSpline ? 3 : 1;
      if (c == 0) cut_track(k, start, end, false, ch.translation);
      if (c == 1) cut_track(k, start, end, true, ch.rotation);
      if (c == 2) cut_track(k, start, end, false, ch.scale);
    }
    if (!ch.translation.empty() || !ch.rotation.empty() || !ch.scale.empty())
      raw.channels.push_back(std::move(ch));
  }
  return out->build(raw, skeleton);
}

double clip_key_rate(const ClipRuntime& clip) noexcept {
  const ClipArraysView a = clip.arrays();
  double step = 0.0;
  for (std::size_t u = 1; u + 1 < a.timeline_begin.size(); ++u)
    for (uint32_t i = a.timeline_begin[u] + 1; i < a.timeline_begin[u + 1]; ++i) {
      const double d = a.times[i] - a.times[i - 1];
      if (d > 0.0 && (step == 0.0 || d < step)) step = d;
    }
  if (step <= 0.0) return 0.0;
  for (std::size_t i = a.timeline_begin.size() > 1 ? a.timeline_begin[1] : 0; i < a.times.size();
       ++i) {
    const double r = a.times[i] / step;
    if (std::abs(r - std::round(r)) > 1e-3) return 0.0;
  }
  return 1.0 / step;
}

}  // namespace sv
