// A plain scalar sampler over the raw Clip (anim/clip.h), for tests only: what the runtime clip
// (anim/clip_runtime.h) must agree with. Written to be obviously right rather than fast and to
// share no code with the runtime: a linear scan for the key, every formula in double, the exact
// slerp (acos and sin, no polynomial, no nlerp shortcut) and glTF 2.0's rules read straight off
// the specification (Appendix C):
//   before the first key the first value holds, after the last key the last (NaN: the first);
//   Step: the value of the key at or before t;
//   Linear: lerp for vectors, slerp along the shorter arc for rotations;
//   CubicSpline: v0 h00 + b0 td h10 + v1 h01 + a1 td h11 with s = (t - t0) / td, values stored
//     (in-tangent a, value v, out-tangent b) per key; rotations normalised after.
// Joints without a channel, and components without a track, keep the skeleton's rest values.
#pragma once

#include <cmath>
#include <cstddef>
#include <vector>

#include <glm/gtc/quaternion.hpp>
#include <glm/vec3.hpp>

#include "anim/clip.h"
#include "anim/skeleton.h"
#include "anim/transform.h"

namespace sv::test {

// Where t falls: `inside` with keys k, k+1 and s in [0, 1), or the key `k` that holds.
struct RefPos {
  std::size_t k = 0;
  bool inside = false;
  double s = 0.0;
  double td = 0.0;
};

inline RefPos reference_locate(const std::vector<double>& times, double t) {
  RefPos p;
  const std::size_t n = times.size();
  if (std::isnan(t) || t <= times.front()) return p;
  if (t >= times.back()) {
    p.k = n - 1;
    return p;
  }
  while (p.k + 1 < n && times[p.k + 1] <= t) ++p.k;
  p.inside = true;
  p.td = times[p.k + 1] - times[p.k];
  p.s = (t - times[p.k]) / p.td;
  return p;
}

inline glm::dvec4 to_d(const glm::vec3& v) { return glm::dvec4(v, 0.0); }
inline glm::dvec4 to_d(const glm::quat& q) { return glm::dvec4(q.x, q.y, q.z, q.w); }

// Keyed value k (the middle entry of a cubic key).
template <class T>
glm::dvec4 reference_key(const Track<T>& tr, std::size_t k) {
  return to_d(tr.values[tr.interpolation == Interpolation::CubicSpline ? 3 * k + 1 : k]);
}

// Exact slerp along the shorter arc, in double; plain lerp where the keys are equal to ~1e-12.
inline glm::dvec4 reference_slerp(glm::dvec4 a, glm::dvec4 b, double s) {
  double d = glm::dot(a, b);
  if (d < 0.0) {
    d = -d;
    b = -b;
  }
  const double theta = std::acos(std::min(d, 1.0));
  if (std::sin(theta) < 1e-12) return glm::normalize(a * (1.0 - s) + b * s);
  return (a * std::sin((1.0 - s) * theta) + b * std::sin(s * theta)) / std::sin(theta);
}

// One track at time t, as (x, y, z, w) in double; `rotation` selects slerp and normalisation.
// `raw_length`, when given, receives the length of a cubic rotation before it was normalised
// (1 otherwise): float rounding in a sampler is divided by it when it normalises.
template <class T>
glm::dvec4 reference_sample(const Track<T>& tr, double t, bool rotation,
                            double* raw_length = nullptr) {
  if (raw_length != nullptr) *raw_length = 1.0;
  const RefPos p = reference_locate(tr.times, t);
  if (!p.inside) return reference_key(tr, p.k);
  switch (tr.interpolation) {
    case Interpolation::Step:
      return reference_key(tr, p.k);
    case Interpolation::Linear: {
      const glm::dvec4 a = reference_key(tr, p.k), b = reference_key(tr, p.k + 1);
      return rotation ? reference_slerp(a, b, p.s) : a + (b - a) * p.s;
    }
    case Interpolation::CubicSpline: {
      const double s = p.s, s2 = s * s, s3 = s2 * s;
      const double h00 = 2 * s3 - 3 * s2 + 1, h10 = s3 - 2 * s2 + s;
      const double h01 = -2 * s3 + 3 * s2, h11 = s3 - s2;
      const std::size_t k = p.k;
      const glm::dvec4 r =
          to_d(tr.values[3 * k + 1]) * h00 + to_d(tr.values[3 * k + 2]) * (h10 * p.td) +
          to_d(tr.values[3 * k + 4]) * h01 + to_d(tr.values[3 * k + 3]) * (h11 * p.td);
      if (rotation && raw_length != nullptr) *raw_length = glm::length(r);
      return rotation ? glm::normalize(r) : r;
    }
  }
  return reference_key(tr, p.k);
}

// Every joint's local transform at time t (seconds). `rotation_raw_length`, when given, gets
// each joint's reference_sample raw_length (1 for joints without a rotation track).
inline std::vector<Transform> reference_pose(const Clip& clip, const Skeleton& skeleton, double t,
                                             std::vector<double>* rotation_raw_length = nullptr) {
  std::vector<Transform> out(skeleton.rest.begin(), skeleton.rest.end());
  if (rotation_raw_length != nullptr) rotation_raw_length->assign(out.size(), 1.0);
  for (const JointChannel& ch : clip.channels) {
    Transform& o = out[static_cast<std::size_t>(ch.joint)];
    if (!ch.translation.empty())
      o.translation = glm::vec3(reference_sample(ch.translation, t, false));
    if (!ch.rotation.empty()) {
      double raw = 1.0;
      const glm::dvec4 q = reference_sample(ch.rotation, t, true, &raw);
      if (rotation_raw_length != nullptr)
        (*rotation_raw_length)[static_cast<std::size_t>(ch.joint)] = raw;
      o.rotation = glm::quat(static_cast<float>(q.w), static_cast<float>(q.x),
                             static_cast<float>(q.y), static_cast<float>(q.z));
    }
    if (!ch.scale.empty()) o.scale = glm::vec3(reference_sample(ch.scale, t, false));
  }
  return out;
}

}  // namespace sv::test
