// Track evaluation follows glTF 2.0, Appendix C (interpolation): Step holds the key at or before
// t; Linear lerps vectors and slerps rotations along the shorter arc; CubicSpline is the Hermite
// spline whose tangents are scaled by the key interval td = t1 - t0.
#include "anim/sample.h"

#include <algorithm>
#include <cmath>

#include "anim/skeleton.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace sv {

namespace {

// Where t falls in a track: strictly inside the segment [times[key], times[key+1]) with
// `alpha` in [0,1) and `td` its length, or outside all segments (before the first key, after
// the last, or a one-key track) with `key` the key whose value holds.
struct KeyPos {
  uint32_t key;
  bool inside;
  float alpha;
  float td;
};

// Requires times.size() >= 2 and times.front() < t < times.back(); returns i with
// times[i] <= t < times[i+1]. The cursor is tried first, then the next two segments, and only
// then a binary search.
inline uint32_t find_segment(const std::vector<float>& times, float t, uint32_t* cursor) noexcept {
  const uint32_t last = static_cast<uint32_t>(times.size()) - 2;  // last segment index
  if (cursor != nullptr) {
    const uint32_t i = *cursor;
    if (i <= last && times[i] <= t) {
      const uint32_t end = std::min(i + 2, last);
      for (uint32_t k = i; k <= end; ++k)
        if (t < times[k + 1]) return *cursor = k;
    }
  }
  const auto it = std::upper_bound(times.begin(), times.end(), t);
  const uint32_t i = static_cast<uint32_t>(it - times.begin()) - 1;
  if (cursor != nullptr) *cursor = i;
  return i;
}

// Inlined into the per-channel loop: this and the interpolation are the whole per-track cost.
[[gnu::always_inline]] inline KeyPos locate(const std::vector<float>& times, float t,
                                            uint32_t* cursor) noexcept {
  const uint32_t n = static_cast<uint32_t>(times.size());
  // `!(t > first)` also catches NaN.
  if (n == 1 || !(t > times.front())) {
    if (cursor != nullptr) *cursor = 0;
    return {0, false, 0.0f, 0.0f};
  }
  if (t >= times.back()) {
    if (cursor != nullptr) *cursor = n - 2;
    return {n - 1, false, 0.0f, 0.0f};
  }
  const uint32_t i = find_segment(times, t, cursor);
  const float t0 = times[i];
  const float td = times[i + 1] - t0;
  return {i, true, (t - t0) / td, td};
}

// glTF cubic spline between keys k and k+1; values are (in-tangent, value, out-tangent) per key.
template <class T>
T hermite(const std::vector<T>& values, uint32_t k, float s, float td) noexcept {
  const float s2 = s * s;
  const float s3 = s2 * s;
  const float h00 = 2.0f * s3 - 3.0f * s2 + 1.0f;
  const float h10 = (s3 - 2.0f * s2 + s) * td;
  const float h01 = -2.0f * s3 + 3.0f * s2;
  const float h11 = (s3 - s2) * td;
  const T& v0 = values[3 * k + 1];
  const T& out0 = values[3 * k + 2];
  const T& in1 = values[3 * k + 3];
  const T& v1 = values[3 * k + 4];
  return v0 * h00 + out0 * h10 + v1 * h01 + in1 * h11;
}

// Value stored at key k (the middle of the three cubic-spline entries).
template <class T>
const T& key_value(const Track<T>& track, uint32_t k) noexcept {
  return track.interpolation == Interpolation::CubicSpline ? track.values[3 * k + 1]
                                                           : track.values[k];
}

}  // namespace

void SamplingCursor::reset(const Clip& clip) { keys.assign(3 * clip.channels.size(), 0u); }

float wrap_time(float t, float duration, bool loop) noexcept {
  if (std::isnan(t) || !(duration > 0.0f) || !std::isfinite(duration)) return 0.0f;
  if (!loop) return std::clamp(t, 0.0f, duration);
  if (!std::isfinite(t)) return 0.0f;
  float r = std::fmod(t, duration);  // exact, in (-duration, duration)
  if (r < 0.0f) r += duration;       // may round up to duration for tiny negative r
  return r < duration ? r : 0.0f;
}

// For keys up to ~91 degrees apart (cos(theta) >= 0.7, every key pair of an ordinary clip),
// slerp's weights sin((1-alpha) theta)/sin(theta) and sin(alpha theta)/sin(theta) come from
// Eberly's polynomial ("A Fast and Accurate Algorithm for Computing SLERP", J. Graphics, GPU &
// Game Tools 15(3), 2011): 8 terms of a series in cos(theta) - 1, no acos or sin. Its own error
// there is below 2e-8 (it grows to 2e-5 towards cos(theta) = 0, where acos/sin are used).
// acos and two sines were most of what sampling a pose cost.
namespace {

inline glm::quat slerp_impl(const glm::quat& a, const glm::quat& b, float alpha) noexcept {
  float d = glm::dot(a, b);
  glm::quat b2 = b;
  if (d < 0.0f) {
    d = -d;
    b2 = -b;
  }
  // Nearly equal: nlerp is as exact there, and keeps slerp(a, a, t) == a.
  if (d > 0.9995f) return glm::normalize(a * (1.0f - alpha) + b2 * alpha);
  if (d < 0.7f) {
    const float theta = std::acos(d);
    const float inv_sin = 1.0f / std::sin(theta);
    return a * (std::sin((1.0f - alpha) * theta) * inv_sin) +
           b2 * (std::sin(alpha * theta) * inv_sin);
  }
  static constexpr float kMu = 1.85298109240830f;
  static constexpr float kU[8] = {1.0f / (1 * 3),  1.0f / (2 * 5),  1.0f / (3 * 7),
                                  1.0f / (4 * 9),  1.0f / (5 * 11), 1.0f / (6 * 13),
                                  1.0f / (7 * 15), kMu / (8 * 17)};
  static constexpr float kV[8] = {1.0f / 3,  2.0f / 5,  3.0f / 7,  4.0f / 9,
                                  5.0f / 11, 6.0f / 13, 7.0f / 15, kMu * 8 / 17};
  // c(x) = 1 + b1 (1 + b2 (1 + ... (1 + b8))) with b_i = (u_i w^2 - v_i)(x - 1), regrouped
  // (Estrin) so each chain is 6 operations deep instead of 16; the two weights w = alpha and
  // w = 1 - alpha are computed side by side (the lanes of an SSE register where there is one).
#if defined(__SSE2__)
  const __m128 w = _mm_setr_ps(alpha, 1.0f - alpha, 0.0f, 0.0f);
  const __m128 w2 = _mm_mul_ps(w, w);
  const __m128 xm1 = _mm_set1_ps(d - 1.0f);
  const __m128 one = _mm_set1_ps(1.0f);
  __m128 bi[8];
  for (int i = 0; i < 8; ++i)
    bi[i] = _mm_mul_ps(_mm_sub_ps(_mm_mul_ps(_mm_set1_ps(kU[i]), w2), _mm_set1_ps(kV[i])), xm1);
  const __m128 p12 = _mm_mul_ps(bi[0], bi[1]);
  const __m128 p34 = _mm_mul_ps(bi[2], bi[3]);
  const __m128 p56 = _mm_mul_ps(bi[4], bi[5]);
  const __m128 p78 = _mm_mul_ps(bi[6], bi[7]);
  const __m128 first = _mm_add_ps(_mm_add_ps(one, bi[0]), _mm_mul_ps(p12, _mm_add_ps(one, bi[2])));
  const __m128 second =
      _mm_add_ps(_mm_add_ps(one, bi[4]), _mm_mul_ps(p56, _mm_add_ps(_mm_add_ps(one, bi[6]), p78)));
  const __m128 c = _mm_mul_ps(w, _mm_add_ps(first, _mm_mul_ps(_mm_mul_ps(p12, p34), second)));
  // glm stores a quaternion as x, y, z, w: 16 contiguous bytes.
  const __m128 r = _mm_add_ps(_mm_mul_ps(_mm_loadu_ps(&a.x), _mm_shuffle_ps(c, c, 0x55)),
                              _mm_mul_ps(_mm_loadu_ps(&b2.x), _mm_shuffle_ps(c, c, 0x00)));
  glm::quat out;
  _mm_storeu_ps(&out.x, r);
  return out;
#else
  const float xm1 = d - 1.0f;
  const auto weight = [xm1](float w) noexcept {
    const float w2 = w * w;
    float b[8];
    for (int i = 0; i < 8; ++i) b[i] = (kU[i] * w2 - kV[i]) * xm1;
    const float p12 = b[0] * b[1];
    const float p34 = b[2] * b[3];
    const float p56 = b[4] * b[5];
    const float p78 = b[6] * b[7];
    const float first = (1.0f + b[0]) + p12 * (1.0f + b[2]);
    const float second = (1.0f + b[4]) + p56 * ((1.0f + b[6]) + p78);
    return w * (first + (p12 * p34) * second);
  };
  return a * weight(1.0f - alpha) + b2 * weight(alpha);
#endif
}

}  // namespace

glm::quat slerp_shortest(const glm::quat& a, const glm::quat& b, float alpha) noexcept {
  return slerp_impl(a, b, alpha);
}

namespace {

[[gnu::always_inline]] inline glm::vec3 sample_vec3(const Track<glm::vec3>& track, float t,
                                                    uint32_t* cursor) noexcept {
  const KeyPos p = locate(track.times, t, cursor);
  if (!p.inside) return key_value(track, p.key);
  switch (track.interpolation) {
    case Interpolation::Step:
      return track.values[p.key];
    case Interpolation::Linear: {
      const glm::vec3& a = track.values[p.key];
      const glm::vec3& b = track.values[p.key + 1];
      return a + (b - a) * p.alpha;
    }
    case Interpolation::CubicSpline:
      return hermite(track.values, p.key, p.alpha, p.td);
  }
  return key_value(track, p.key);
}

[[gnu::always_inline]] inline glm::quat sample_quat(const Track<glm::quat>& track, float t,
                                                    uint32_t* cursor) noexcept {
  const KeyPos p = locate(track.times, t, cursor);
  if (!p.inside) return key_value(track, p.key);
  switch (track.interpolation) {
    case Interpolation::Step:
      return track.values[p.key];
    case Interpolation::Linear:
      return slerp_impl(track.values[p.key], track.values[p.key + 1], p.alpha);
    case Interpolation::CubicSpline:
      return glm::normalize(hermite(track.values, p.key, p.alpha, p.td));
  }
  return key_value(track, p.key);
}

}  // namespace

glm::vec3 sample_track(const Track<glm::vec3>& track, float t, uint32_t* cursor) noexcept {
  return sample_vec3(track, t, cursor);
}

glm::quat sample_track(const Track<glm::quat>& track, float t, uint32_t* cursor) noexcept {
  return sample_quat(track, t, cursor);
}

bool rest_pose(const Skeleton& skeleton, std::span<Transform> out) noexcept {
  if (out.size() != skeleton.size() || skeleton.rest.size() != skeleton.size()) return false;
  std::copy(skeleton.rest.begin(), skeleton.rest.end(), out.begin());
  return true;
}

bool sample_clip(const Clip& clip, const Skeleton& skeleton, float t,
                 std::span<Transform> out_local, SamplingCursor* cursor) noexcept {
  const std::size_t joints = skeleton.size();
  if (out_local.size() != joints || skeleton.rest.size() != joints) return false;
  if (cursor != nullptr && cursor->keys.size() != 3 * clip.channels.size()) return false;
  // A clip that was never validated must not make us write or read out of range: a few integer
  // compares per channel, cheap next to the interpolation.
  for (const JointChannel& ch : clip.channels) {
    if (ch.joint < 0 || static_cast<std::size_t>(ch.joint) >= joints) return false;
    if (ch.translation.values.size() != ch.translation.expected_values() ||
        ch.rotation.values.size() != ch.rotation.expected_values() ||
        ch.scale.values.size() != ch.scale.expected_values())
      return false;
  }

  std::copy(skeleton.rest.begin(), skeleton.rest.end(), out_local.begin());
  uint32_t* keys = cursor != nullptr ? cursor->keys.data() : nullptr;
  for (std::size_t c = 0; c < clip.channels.size(); ++c) {
    const JointChannel& ch = clip.channels[c];
    Transform& out = out_local[static_cast<std::size_t>(ch.joint)];
    uint32_t* k = keys != nullptr ? keys + 3 * c : nullptr;
    if (!ch.translation.empty())
      out.translation = sample_vec3(ch.translation, t, k != nullptr ? k + 0 : nullptr);
    if (!ch.rotation.empty())
      out.rotation = sample_quat(ch.rotation, t, k != nullptr ? k + 1 : nullptr);
    if (!ch.scale.empty()) out.scale = sample_vec3(ch.scale, t, k != nullptr ? k + 2 : nullptr);
  }
  return true;
}

}  // namespace sv
