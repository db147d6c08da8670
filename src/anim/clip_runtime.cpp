// The runtime clip layout and its samplers (see clip_runtime.h). Formulas and their operation
// order follow sample.cpp (and glm, which sample.cpp uses), so the SSE lanes round as the
// scalar code does; only the products in evaluate_pose may use fused multiply-adds.
#include "anim/clip_runtime.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

#include <glm/gtc/quaternion.hpp>

#include "anim/sample.h"
#include "anim/skeleton.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#include <xmmintrin.h>
#endif
#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define SV_RUNTIME_X86 1
#endif

namespace sv {

using Segment = RuntimeCursor::Segment;

// Raw pointers into a ClipRuntime, for the samplers.
struct RuntimeView {
  uint32_t joints;
  uint32_t groups;  // joints padded to a multiple of 4, divided by 4
  uint32_t timelines;
  const float* times;
  const uint32_t* timeline_begin;
  const ClipRuntime::Track* tracks;
  const glm::vec4* values;
  const int32_t* parents;
  const uint8_t* uniform;
};

struct RuntimeAccess {
  static RuntimeView view(const ClipRuntime& c) noexcept {
    return {c.joints_,
            (c.joints_ + 3) / 4,
            static_cast<uint32_t>(c.timeline_begin_.size() - 1),
            c.times_.data(),
            c.timeline_begin_.data(),
            c.tracks_.data(),
            c.values_.data(),
            c.parents_.data(),
            c.uniform_.data()};
  }
};

namespace {

constexpr std::size_t kT = 0, kR = 1, kS = 2;

glm::vec4 to_vec4(const glm::vec3& v) { return glm::vec4(v, 0.0f); }
glm::vec4 to_vec4(const glm::quat& q) { return glm::vec4(q.x, q.y, q.z, q.w); }

// Scratch layout in RuntimeCursor::scratch: T of joint j at [j], S at [padded + j], then per 4
// joints the 3x3 rotation-scale matrix as 9 lane vectors (column c, row r at 3c + r).
std::size_t scratch_size(std::size_t groups) { return 4 * groups * 2 + 9 * groups; }

}  // namespace

std::string ClipRuntime::build(const Clip& clip, const Skeleton& skeleton) {
  *this = ClipRuntime();
  if (std::string e = skeleton.validate(); !e.empty()) return "skeleton: " + e;
  if (std::string e = clip.validate(skeleton); !e.empty()) return e;
  const std::size_t n = skeleton.size();
  if (n == 0) return {};
  if (n > (1u << 24)) return "clip '" + clip.name + "': too many joints for the runtime layout";
  const std::size_t padded = (n + 3) & ~std::size_t{3};
  std::vector<const JointChannel*> channel(n, nullptr);
  for (const JointChannel& ch : clip.channels) channel[static_cast<std::size_t>(ch.joint)] = &ch;

  ClipRuntime rt;
  rt.duration_ = clip.duration;
  rt.times_ = {0.0f};  // timeline 0: the constant one
  std::map<std::vector<float>, uint32_t> timeline_of;
  // What each track becomes, before the values are laid out block by block.
  struct Pending {
    uint32_t timeline = 0;
    uint32_t per_key = 1;
    Interpolation interpolation = Interpolation::Step;
    std::vector<glm::vec4> values;
  };
  std::vector<Pending> pending(3 * padded);
  const auto add = [&](Pending& p, const auto& track, const glm::vec4& rest) {
    if (track.empty()) {
      p.values = {rest};
      return;
    }
    const bool cubic = track.interpolation == Interpolation::CubicSpline;
    if (track.times.size() == 1) {  // one key holds everywhere
      p.values = {to_vec4(track.values[cubic ? 1 : 0])};
      return;
    }
    auto [it, fresh] = timeline_of.try_emplace(track.times, 0u);
    if (fresh) {
      it->second = static_cast<uint32_t>(rt.timeline_begin_.size() - 1);
      rt.times_.insert(rt.times_.end(), track.times.begin(), track.times.end());
      rt.timeline_begin_.push_back(static_cast<uint32_t>(rt.times_.size()));
    }
    p.timeline = it->second;
    p.per_key = cubic ? 3 : 1;
    p.interpolation = track.interpolation;
    for (const auto& v : track.values) p.values.push_back(to_vec4(v));
  };
  for (std::size_t j = 0; j < padded; ++j) {
    const JointChannel* ch = j < n ? channel[j] : nullptr;
    const Transform rest = j < n ? skeleton.rest[j] : Transform{};
    static const sv::Track<glm::vec3> kNoVec3{};
    static const sv::Track<glm::quat> kNoQuat{};
    add(pending[3 * j + kT], ch != nullptr ? ch->translation : kNoVec3, to_vec4(rest.translation));
    add(pending[3 * j + kR], ch != nullptr ? ch->rotation : kNoQuat, to_vec4(rest.rotation));
    add(pending[3 * j + kS], ch != nullptr ? ch->scale : kNoVec3, to_vec4(rest.scale));
  }

  // Blocks: tracks of one component sharing timeline and entries per key, joints in order.
  std::map<std::tuple<uint32_t, uint32_t, uint32_t, uint8_t>, std::vector<uint32_t>> blocks;
  for (uint32_t i = 0; i < pending.size(); ++i)
    blocks[{pending[i].timeline, pending[i].per_key, i % 3,
            static_cast<uint8_t>(pending[i].interpolation)}]
        .push_back(i);
  rt.tracks_.resize(pending.size());
  for (const auto& [key, members] : blocks) {
    const uint32_t stride = static_cast<uint32_t>(members.size());
    const std::size_t entries = pending[members[0]].values.size();
    const std::size_t base = rt.values_.size();
    if (base + entries * stride > (std::size_t{1} << 31))
      return "clip '" + clip.name + "': too many keys for the runtime layout";
    rt.values_.resize(base + entries * stride);
    for (uint32_t slot = 0; slot < stride; ++slot) {
      const Pending& p = pending[members[slot]];
      rt.tracks_[members[slot]] = {p.timeline, static_cast<uint32_t>(base + slot), stride,
                                   p.interpolation};
      for (std::size_t e = 0; e < entries; ++e) rt.values_[base + e * stride + slot] = p.values[e];
    }
  }
  rt.uniform_.assign(3 * (padded / 4), 0);
  for (std::size_t g = 0; g < padded / 4; ++g)
    for (std::size_t k = 0; k < 3; ++k) {
      const Track& first = rt.tracks_[3 * (4 * g) + k];
      bool same = true;
      for (std::size_t l = 1; l < 4; ++l) {
        const Track& tr = rt.tracks_[3 * (4 * g + l) + k];
        same = same && tr.timeline == first.timeline && tr.stride == first.stride &&
               tr.interpolation == first.interpolation && tr.base == first.base + l;
      }
      rt.uniform_[3 * g + k] = same ? 1 : 0;
    }
  rt.parents_ = skeleton.parents;
  rt.joints_ = static_cast<uint32_t>(n);
  *this = std::move(rt);
  return {};
}

void RuntimeCursor::reset(const ClipRuntime& clip) {
  const std::size_t timelines = clip.timelines();
  keys.assign(timelines, 0u);
  segments.assign(timelines, Segment{0, 0, 0.0f, 0.0f});
  scratch.assign(scratch_size((clip.joints() + 3) / 4), glm::vec4(0.0f));
}

bool RuntimeCursor::fits(const ClipRuntime& clip) const noexcept {
  const std::size_t timelines = clip.timelines();
  return keys.size() == timelines && segments.size() == timelines &&
         scratch.size() == scratch_size((clip.joints() + 3) / 4);
}

namespace {

// sample.cpp's locate for every timeline at once: the cursor is tried first, then the next two
// segments, then a binary search. Timeline 0 (constants) is always "key 0, outside".
void locate_all(const RuntimeView& v, float t, RuntimeCursor& c) noexcept {
  Segment* seg = c.segments.data();
  uint32_t* keys = c.keys.data();
  seg[0] = {0, 0, 0.0f, 0.0f};
  for (uint32_t u = 1; u < v.timelines; ++u) {
    const float* times = v.times + v.timeline_begin[u];
    const uint32_t n = v.timeline_begin[u + 1] - v.timeline_begin[u];  // >= 2
    const uint32_t last = n - 2;
    if (!(t > times[0])) {  // also NaN
      keys[u] = 0;
      seg[u] = {0, 0, 0.0f, 0.0f};
      continue;
    }
    if (t >= times[n - 1]) {
      keys[u] = last;
      seg[u] = {n - 1, 0, 0.0f, 0.0f};
      continue;
    }
    uint32_t i = keys[u];
    bool found = false;
    if (i <= last && times[i] <= t) {
      const uint32_t end = std::min(i + 2, last);
      for (uint32_t k = i; k <= end; ++k)
        if (t < times[k + 1]) {
          i = k;
          found = true;
          break;
        }
    }
    if (!found) i = static_cast<uint32_t>(std::upper_bound(times, times + n, t) - times) - 1;
    keys[u] = i;
    const float t0 = times[i];
    const float td = times[i + 1] - t0;
    seg[u] = {i, 1, (t - t0) / td, td};
  }
}

// glTF cubic-spline weights, as sample.cpp's hermite.
struct HermiteWeights {
  float h00, h10, h01, h11;
};
inline HermiteWeights hermite_weights(float s, float td) noexcept {
  const float s2 = s * s;
  const float s3 = s2 * s;
  return {2.0f * s3 - 3.0f * s2 + 1.0f, (s3 - 2.0f * s2 + s) * td, -2.0f * s3 + 3.0f * s2,
          (s3 - s2) * td};
}

// One track's value at this frame, in scalar code (the general route: any interpolation,
// outside the keys, constants). Rotations come back normalised for cubic splines and unchanged
// otherwise; linear rotations must go through slerp (see rotation_lane).
inline glm::vec4 value_at(const RuntimeView& v, const Segment* segs, const ClipRuntime::Track& tr,
                          bool rotation) noexcept {
  const Segment& s = segs[tr.timeline];
  const glm::vec4* val = v.values + tr.base;
  const std::size_t st = tr.stride;
  const std::size_t k = s.key;
  if (s.inside == 0)
    return val[(tr.interpolation == Interpolation::CubicSpline ? 3 * k + 1 : k) * st];
  switch (tr.interpolation) {
    case Interpolation::Step:
      return val[k * st];
    case Interpolation::Linear: {
      const glm::vec4& a = val[k * st];
      const glm::vec4& b = val[(k + 1) * st];
      return a + (b - a) * s.alpha;
    }
    case Interpolation::CubicSpline: {
      const HermiteWeights h = hermite_weights(s.alpha, s.td);
      const glm::vec4 r = val[(3 * k + 1) * st] * h.h00 + val[(3 * k + 2) * st] * h.h10 +
                          val[(3 * k + 4) * st] * h.h01 + val[(3 * k + 3) * st] * h.h11;
      if (!rotation) return r;
      return to_vec4(glm::normalize(glm::quat(r.w, r.x, r.y, r.z)));
    }
  }
  return val[k * st];
}

inline glm::quat to_quat(const float* xyzw) noexcept {
  return glm::quat(xyzw[3], xyzw[0], xyzw[1], xyzw[2]);
}

// One joint's local transform in scalar code: the route where SSE2 is missing.
[[maybe_unused]] inline Transform joint_scalar(const RuntimeView& v, const Segment* segs,
                                               std::size_t j) noexcept {
  const ClipRuntime::Track* tr = v.tracks + 3 * j;
  Transform out;
  out.translation = glm::vec3(value_at(v, segs, tr[kT], false));
  out.scale = glm::vec3(value_at(v, segs, tr[kS], false));
  const Segment& s = segs[tr[kR].timeline];
  if (s.inside != 0 && tr[kR].interpolation == Interpolation::Linear) {
    const glm::vec4* val = v.values + tr[kR].base;
    out.rotation = slerp_shortest(to_quat(&val[s.key * tr[kR].stride].x),
                                  to_quat(&val[(s.key + 1) * tr[kR].stride].x), s.alpha);
  } else {
    const glm::vec4 q = value_at(v, segs, tr[kR], true);
    out.rotation = glm::quat(q.w, q.x, q.y, q.z);
  }
  return out;
}

#if defined(__SSE2__)

inline __m128 load(const glm::vec4& v) noexcept { return _mm_loadu_ps(&v.x); }

// Translation or scale of one joint.
inline __m128 vec_lane(const RuntimeView& v, const Segment* segs,
                       const ClipRuntime::Track& tr) noexcept {
  const Segment& s = segs[tr.timeline];
  if (s.inside != 0 && tr.interpolation == Interpolation::Linear) {
    const glm::vec4* val = v.values + tr.base;
    const __m128 a = load(val[s.key * tr.stride]);
    const __m128 b = load(val[(s.key + 1) * tr.stride]);
    return _mm_add_ps(a, _mm_mul_ps(_mm_sub_ps(b, a), _mm_set1_ps(s.alpha)));
  }
  return load(value_at(v, segs, tr, false));
}

// Translations or scales of joints 4g..4g+3 (component k) into out[4].
inline void vec_group(const RuntimeView& v, const Segment* segs, std::size_t g, std::size_t k,
                      __m128 out[4]) noexcept {
  const ClipRuntime::Track* tr = v.tracks + 3 * (4 * g) + k;
  const Segment& s = segs[tr[0].timeline];
  if (v.uniform[3 * g + k] != 0 && s.inside != 0 && tr[0].interpolation == Interpolation::Linear) {
    const glm::vec4* a = v.values + tr[0].base + s.key * tr[0].stride;
    const glm::vec4* b = a + tr[0].stride;
    const __m128 alpha = _mm_set1_ps(s.alpha);
    for (int l = 0; l < 4; ++l) {
      const __m128 al = load(a[l]);
      out[l] = _mm_add_ps(al, _mm_mul_ps(_mm_sub_ps(load(b[l]), al), alpha));
    }
    return;
  }
  for (int l = 0; l < 4; ++l) out[l] = vec_lane(v, segs, tr[3 * l]);
}

// Eberly's coefficients, as slerp_impl in sample.cpp.
constexpr float kMu = 1.85298109240830f;
constexpr float kU[8] = {1.0f / (1 * 3),  1.0f / (2 * 5),  1.0f / (3 * 7),  1.0f / (4 * 9),
                         1.0f / (5 * 11), 1.0f / (6 * 13), 1.0f / (7 * 15), kMu / (8 * 17)};
constexpr float kV[8] = {1.0f / 3,  2.0f / 5,  3.0f / 7,  4.0f / 9,
                         5.0f / 11, 6.0f / 13, 7.0f / 15, kMu * 8 / 17};

// Slerp weight for interpolation parameter w at xm1 = cos(theta) - 1, 4 lanes.
inline __m128 eberly(__m128 w, __m128 xm1) noexcept {
  const __m128 one = _mm_set1_ps(1.0f);
  const __m128 w2 = _mm_mul_ps(w, w);
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
  return _mm_mul_ps(w, _mm_add_ps(first, _mm_mul_ps(_mm_mul_ps(p12, p34), second)));
}

// Shortest-arc slerp of 4 quaternion pairs in lanes (a[0..3] = x, y, z, w of the 4 lanes),
// as slerp_shortest: nlerp where the keys are nearly equal, Eberly's weights otherwise. Lanes
// whose keys are more than ~91 degrees apart are flagged in *far (bit per lane) for the exact
// scalar route.
inline void slerp4(const __m128 a[4], __m128 b[4], __m128 alpha, __m128 out[4], int* far) noexcept {
  __m128 d = _mm_add_ps(_mm_add_ps(_mm_mul_ps(a[3], b[3]), _mm_mul_ps(a[0], b[0])),
                        _mm_add_ps(_mm_mul_ps(a[1], b[1]), _mm_mul_ps(a[2], b[2])));
  const __m128 flip = _mm_and_ps(_mm_cmplt_ps(d, _mm_setzero_ps()), _mm_set1_ps(-0.0f));
  d = _mm_xor_ps(d, flip);
  for (int c = 0; c < 4; ++c) b[c] = _mm_xor_ps(b[c], flip);
  *far = _mm_movemask_ps(_mm_cmplt_ps(d, _mm_set1_ps(0.7f)));
  const __m128 one_minus = _mm_sub_ps(_mm_set1_ps(1.0f), alpha);
  // nlerp: glm::normalize(a * (1 - alpha) + b * alpha).
  __m128 nl[4];
  for (int c = 0; c < 4; ++c)
    nl[c] = _mm_add_ps(_mm_mul_ps(a[c], one_minus), _mm_mul_ps(b[c], alpha));
  const __m128 len2 = _mm_add_ps(_mm_add_ps(_mm_mul_ps(nl[3], nl[3]), _mm_mul_ps(nl[0], nl[0])),
                                 _mm_add_ps(_mm_mul_ps(nl[1], nl[1]), _mm_mul_ps(nl[2], nl[2])));
  const __m128 inv = _mm_div_ps(_mm_set1_ps(1.0f), _mm_sqrt_ps(len2));
  const __m128 near = _mm_cmpgt_ps(d, _mm_set1_ps(0.9995f));
  const __m128 xm1 = _mm_sub_ps(d, _mm_set1_ps(1.0f));
  const __m128 ca = eberly(one_minus, xm1);
  const __m128 cb = eberly(alpha, xm1);
  for (int c = 0; c < 4; ++c) {
    const __m128 e = _mm_add_ps(_mm_mul_ps(a[c], ca), _mm_mul_ps(b[c], cb));
    const __m128 n = _mm_mul_ps(nl[c], inv);
    out[c] = _mm_or_ps(_mm_and_ps(near, n), _mm_andnot_ps(near, e));
  }
}

// The rotations of joints 4g..4g+3 as lanes: q[0..3] = x, y, z, w.
inline void rotation_group(const RuntimeView& v, const Segment* segs, std::size_t g,
                           __m128 q[4]) noexcept {
  const ClipRuntime::Track* tr = v.tracks + 3 * (4 * g) + kR;
  __m128 a[4], b[4], alpha;
  int slerp_lanes = 0;
  alignas(16) float fixed[4][4];  // lanes that need no slerp: their final value
  const Segment& s0 = segs[tr[0].timeline];
  if (v.uniform[3 * g + kR] != 0 && s0.inside != 0 &&
      tr[0].interpolation == Interpolation::Linear) {
    const glm::vec4* pa = v.values + tr[0].base + s0.key * tr[0].stride;
    const glm::vec4* pb = pa + tr[0].stride;
    for (int l = 0; l < 4; ++l) {
      a[l] = load(pa[l]);
      b[l] = load(pb[l]);
    }
    alpha = _mm_set1_ps(s0.alpha);
    slerp_lanes = 0xF;
  } else {
    alignas(16) float al[4];
    for (int l = 0; l < 4; ++l) {
      const ClipRuntime::Track& t = tr[3 * l];
      const Segment& s = segs[t.timeline];
      if (s.inside != 0 && t.interpolation == Interpolation::Linear) {
        const glm::vec4* val = v.values + t.base;
        a[l] = load(val[s.key * t.stride]);
        b[l] = load(val[(s.key + 1) * t.stride]);
        al[l] = s.alpha;
        slerp_lanes |= 1 << l;
      } else {
        a[l] = b[l] = load(value_at(v, segs, t, true));
        al[l] = 0.0f;
      }
      _mm_store_ps(fixed[l], a[l]);
    }
    alpha = _mm_load_ps(al);
  }
  if (slerp_lanes == 0) {
    for (int c = 0; c < 4; ++c) q[c] = a[c];
    _MM_TRANSPOSE4_PS(q[0], q[1], q[2], q[3]);
    return;
  }
  alignas(16) float lane_a[4][4], lane_b[4][4], lane_alpha[4];
  for (int l = 0; l < 4; ++l) {
    _mm_store_ps(lane_a[l], a[l]);
    _mm_store_ps(lane_b[l], b[l]);
  }
  _mm_store_ps(lane_alpha, alpha);
  _MM_TRANSPOSE4_PS(a[0], a[1], a[2], a[3]);
  _MM_TRANSPOSE4_PS(b[0], b[1], b[2], b[3]);
  int far = 0;
  slerp4(a, b, alpha, q, &far);
  const int exact = far & slerp_lanes;
  if (slerp_lanes == 0xF && exact == 0) return;
  // Rare lanes: the exact acos/sin route, and lanes that were not slerped at all.
  alignas(16) float out[4][4];
  for (int c = 0; c < 4; ++c) _mm_store_ps(out[c], q[c]);
  for (int l = 0; l < 4; ++l) {
    float r[4];
    if ((slerp_lanes >> l & 1) == 0) {
      std::copy(fixed[l], fixed[l] + 4, r);
    } else if ((exact >> l & 1) != 0) {
      const glm::quat s = slerp_shortest(to_quat(lane_a[l]), to_quat(lane_b[l]), lane_alpha[l]);
      r[0] = s.x, r[1] = s.y, r[2] = s.z, r[3] = s.w;
    } else {
      continue;
    }
    for (int c = 0; c < 4; ++c) out[c][l] = r[c];
  }
  for (int c = 0; c < 4; ++c) q[c] = _mm_load_ps(out[c]);
}

// Phase 1 of evaluate_pose: every joint's translation (scratch[j]) and rotation-scale 3x3
// (per 4 joints, 9 lane vectors after the 8 * groups T and S entries), glm's mat3_cast formula
// with each column scaled, in lanes.
inline void local_matrices(const RuntimeView& v, const Segment* segs, glm::vec4* scratch) noexcept {
  float* rs = &scratch[8 * v.groups].x;
  for (std::size_t g = 0; g < v.groups; ++g) {
    __m128 tr[4], sc[4], q[4];
    vec_group(v, segs, g, kT, tr);
    for (int l = 0; l < 4; ++l) _mm_storeu_ps(&scratch[4 * g + l].x, tr[l]);
    vec_group(v, segs, g, kS, sc);
    _MM_TRANSPOSE4_PS(sc[0], sc[1], sc[2], sc[3]);
    rotation_group(v, segs, g, q);
    const __m128 one = _mm_set1_ps(1.0f);
    const __m128 two = _mm_set1_ps(2.0f);
    const __m128 qxx = _mm_mul_ps(q[0], q[0]);
    const __m128 qyy = _mm_mul_ps(q[1], q[1]);
    const __m128 qzz = _mm_mul_ps(q[2], q[2]);
    const __m128 qxz = _mm_mul_ps(q[0], q[2]);
    const __m128 qxy = _mm_mul_ps(q[0], q[1]);
    const __m128 qyz = _mm_mul_ps(q[1], q[2]);
    const __m128 qwx = _mm_mul_ps(q[3], q[0]);
    const __m128 qwy = _mm_mul_ps(q[3], q[1]);
    const __m128 qwz = _mm_mul_ps(q[3], q[2]);
    float* m = rs + 36 * g;
    const auto put = [m](int c, int r, __m128 x, __m128 s) noexcept {
      _mm_storeu_ps(m + 4 * (3 * c + r), _mm_mul_ps(x, s));
    };
    put(0, 0, _mm_sub_ps(one, _mm_mul_ps(two, _mm_add_ps(qyy, qzz))), sc[0]);
    put(0, 1, _mm_mul_ps(two, _mm_add_ps(qxy, qwz)), sc[0]);
    put(0, 2, _mm_mul_ps(two, _mm_sub_ps(qxz, qwy)), sc[0]);
    put(1, 0, _mm_mul_ps(two, _mm_sub_ps(qxy, qwz)), sc[1]);
    put(1, 1, _mm_sub_ps(one, _mm_mul_ps(two, _mm_add_ps(qxx, qzz))), sc[1]);
    put(1, 2, _mm_mul_ps(two, _mm_add_ps(qyz, qwx)), sc[1]);
    put(2, 0, _mm_mul_ps(two, _mm_add_ps(qxz, qwy)), sc[2]);
    put(2, 1, _mm_mul_ps(two, _mm_sub_ps(qyz, qwx)), sc[2]);
    put(2, 2, _mm_sub_ps(one, _mm_mul_ps(two, _mm_add_ps(qxx, qyy))), sc[2]);
  }
}

// Phases 2 and 3: model[j] = model[parent] * local[j] and palette[b] = model[skin[b]] *
// inverse_bind[b]. Written twice, SSE2 and AVX2+FMA (broadcast loads instead of shuffles, fused
// multiply-adds); the local matrix is affine, so its columns' 4th terms are skipped.
#define SV_PRODUCTS(NAME, ATTR, BCAST, MADD)                                                      \
  ATTR void NAME(const RuntimeView& v, const glm::vec4* scratch, glm::mat4* model,                \
                 std::span<const int32_t> skin, const glm::mat4* inverse_bind,                    \
                 glm::mat4* palette) noexcept {                                                   \
    const float* rs = &scratch[8 * v.groups].x;                                                   \
    for (std::size_t j = 0; j < v.joints; ++j) {                                                  \
      const float* l = rs + 36 * (j / 4) + (j % 4); /* (c, r) at l[12 c + 4 r] */                 \
      const float* t = &scratch[j].x;                                                             \
      float* out = &model[j][0][0];                                                               \
      const int32_t p = v.parents[j];                                                             \
      if (p == kNoParent) {                                                                       \
        for (int c = 0; c < 3; ++c)                                                               \
          _mm_storeu_ps(out + 4 * c, _mm_setr_ps(l[12 * c], l[12 * c + 4], l[12 * c + 8], 0.0f)); \
        _mm_storeu_ps(out + 12, _mm_setr_ps(t[0], t[1], t[2], 1.0f));                             \
        continue;                                                                                 \
      }                                                                                           \
      const float* pm = &model[p][0][0];                                                          \
      const __m128 p0 = _mm_loadu_ps(pm), p1 = _mm_loadu_ps(pm + 4);                              \
      const __m128 p2 = _mm_loadu_ps(pm + 8), p3 = _mm_loadu_ps(pm + 12);                         \
      for (int c = 0; c < 3; ++c) {                                                               \
        const __m128 x = MADD(p1, BCAST(l + 12 * c + 4), _mm_mul_ps(p0, BCAST(l + 12 * c)));      \
        _mm_storeu_ps(out + 4 * c, MADD(p2, BCAST(l + 12 * c + 8), x));                           \
      }                                                                                           \
      const __m128 x = MADD(p1, BCAST(t + 1), _mm_mul_ps(p0, BCAST(t)));                          \
      _mm_storeu_ps(out + 12, _mm_add_ps(MADD(p2, BCAST(t + 2), x), p3));                         \
    }                                                                                             \
    for (std::size_t b = 0; b < skin.size(); ++b) {                                               \
      const float* m = &model[skin[b]][0][0];                                                     \
      const float* ib = &inverse_bind[b][0][0];                                                   \
      float* out = &palette[b][0][0];                                                             \
      const __m128 m0 = _mm_loadu_ps(m), m1 = _mm_loadu_ps(m + 4);                                \
      const __m128 m2 = _mm_loadu_ps(m + 8), m3 = _mm_loadu_ps(m + 12);                           \
      for (int c = 0; c < 4; ++c) {                                                               \
        const float* k = ib + 4 * c;                                                              \
        const __m128 x = MADD(m1, BCAST(k + 1), _mm_mul_ps(m0, BCAST(k)));                        \
        _mm_storeu_ps(out + 4 * c, MADD(m3, BCAST(k + 3), MADD(m2, BCAST(k + 2), x)));            \
      }                                                                                           \
    }                                                                                             \
  }

inline __m128 bcast_sse2(const float* p) noexcept { return _mm_set1_ps(*p); }
inline __m128 madd_sse2(__m128 a, __m128 b, __m128 c) noexcept {
  return _mm_add_ps(_mm_mul_ps(a, b), c);
}
SV_PRODUCTS(products_sse2, , bcast_sse2, madd_sse2)

#if defined(SV_RUNTIME_X86)
#define SV_AVX2 __attribute__((target("avx2,fma")))
SV_AVX2 inline __m128 bcast_avx2(const float* p) noexcept { return _mm_broadcast_ss(p); }
SV_AVX2 inline __m128 madd_avx2(__m128 a, __m128 b, __m128 c) noexcept {
  return _mm_fmadd_ps(a, b, c);
}
SV_PRODUCTS(products_avx2, SV_AVX2, bcast_avx2, madd_avx2)
#endif
#undef SV_PRODUCTS

#endif  // __SSE2__

}  // namespace

bool sample_runtime(const ClipRuntime& clip, float t, RuntimeCursor& cursor,
                    std::span<Transform> out_local) noexcept {
  if (out_local.size() != clip.joints() || !cursor.fits(clip)) return false;
  if (clip.empty()) return true;
  const RuntimeView v = RuntimeAccess::view(clip);
  locate_all(v, t, cursor);
  const Segment* segs = cursor.segments.data();
  for (std::size_t g = 0; g < v.groups; ++g) {
#if defined(__SSE2__)
    __m128 tr[4], sc[4], q[4];
    vec_group(v, segs, g, kT, tr);
    vec_group(v, segs, g, kS, sc);
    rotation_group(v, segs, g, q);
    _MM_TRANSPOSE4_PS(q[0], q[1], q[2], q[3]);
    for (std::size_t l = 0; l < 4 && 4 * g + l < v.joints; ++l) {
      alignas(16) float ft[4], fs[4], fq[4];
      _mm_store_ps(ft, tr[l]);
      _mm_store_ps(fs, sc[l]);
      _mm_store_ps(fq, q[l]);
      Transform& out = out_local[4 * g + l];
      out.translation = glm::vec3(ft[0], ft[1], ft[2]);
      out.rotation = to_quat(fq);
      out.scale = glm::vec3(fs[0], fs[1], fs[2]);
    }
#else
    for (std::size_t l = 0; l < 4 && 4 * g + l < v.joints; ++l)
      out_local[4 * g + l] = joint_scalar(v, segs, 4 * g + l);
#endif
  }
  return true;
}

bool evaluate_pose(const ClipRuntime& clip, float t, RuntimeCursor& cursor,
                   std::span<const int32_t> skin_joints, std::span<const glm::mat4> inverse_bind,
                   std::span<glm::mat4> model, std::span<glm::mat4> palette) noexcept {
  if (model.size() != clip.joints() || !cursor.fits(clip)) return false;
  if (inverse_bind.size() != skin_joints.size() || palette.size() != skin_joints.size())
    return false;
  for (const int32_t j : skin_joints)
    if (j < 0 || static_cast<std::size_t>(j) >= clip.joints()) return false;
  if (clip.empty()) return true;
  const RuntimeView v = RuntimeAccess::view(clip);
  locate_all(v, t, cursor);
#if defined(__SSE2__)
  local_matrices(v, cursor.segments.data(), cursor.scratch.data());
#if defined(SV_RUNTIME_X86)
  static const bool fma = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  if (fma) {
    products_avx2(v, cursor.scratch.data(), model.data(), skin_joints, inverse_bind.data(),
                  palette.data());
    return true;
  }
#endif
  products_sse2(v, cursor.scratch.data(), model.data(), skin_joints, inverse_bind.data(),
                palette.data());
  return true;
#else
  // No SSE: sample, then glm products (slow but the same results).
  for (std::size_t j = 0; j < v.joints; ++j) {
    const glm::mat4 local = to_matrix(joint_scalar(v, cursor.segments.data(), j));
    const int32_t p = v.parents[j];
    model[j] = p == kNoParent ? local : model[static_cast<std::size_t>(p)] * local;
  }
  for (std::size_t b = 0; b < skin_joints.size(); ++b)
    palette[b] = model[static_cast<std::size_t>(skin_joints[b])] * inverse_bind[b];
  return true;
#endif
}

}  // namespace sv
