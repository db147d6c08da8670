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

// Eberly's coefficients, as slerp_impl in sample.cpp.
constexpr float kMu = 1.85298109240830f;
constexpr float kU[8] = {1.0f / (1 * 3),  1.0f / (2 * 5),  1.0f / (3 * 7),  1.0f / (4 * 9),
                         1.0f / (5 * 11), 1.0f / (6 * 13), 1.0f / (7 * 15), kMu / (8 * 17)};
constexpr float kV[8] = {1.0f / 3,  2.0f / 5,  3.0f / 7,  4.0f / 9,
                         5.0f / 11, 6.0f / 13, 7.0f / 15, kMu * 8 / 17};

#define SV_RT_AVX512 0
namespace sse2 {
#define SV_RT_AVX2 0
#include "anim/clip_runtime_kernels.inc"
#undef SV_RT_AVX2
}  // namespace sse2

#if defined(SV_RUNTIME_X86)
// The AVX2 and AVX-512 copies are compiled for those targets whatever the build's flags (the
// binary runs on any x86-64; has_avx2_fma()/has_avx512() choose at run time). GCC takes a
// target pragma; clang applies the target attribute to every function in between instead.
#if defined(__clang__)
#define SV_RT_TARGET_BEGIN(isa) \
  _Pragma(SV_RT_STR(clang attribute push(__attribute__((target(isa))), apply_to = function)))
#define SV_RT_TARGET_END _Pragma("clang attribute pop")
#else
#define SV_RT_TARGET_BEGIN(isa) _Pragma("GCC push_options") _Pragma(SV_RT_STR(GCC target(isa)))
#define SV_RT_TARGET_END _Pragma("GCC pop_options")
#endif
#define SV_RT_STR(x) #x

SV_RT_TARGET_BEGIN("avx2,fma")
namespace avx2 {
#define SV_RT_AVX2 1
#include "anim/clip_runtime_kernels.inc"
#undef SV_RT_AVX2
}  // namespace avx2
SV_RT_TARGET_END
#undef SV_RT_AVX512

SV_RT_TARGET_BEGIN("avx512f,avx2,fma")
// GCC 12's own avx512fintrin.h trips -Wmaybe-uninitialized (its _mm512_undefined_ps).
#pragma GCC diagnostic push
#if !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
namespace avx512 {
#define SV_RT_AVX2 0
#define SV_RT_AVX512 1
#include "anim/clip_runtime_kernels.inc"
#undef SV_RT_AVX2
#undef SV_RT_AVX512
}  // namespace avx512
#pragma GCC diagnostic pop
SV_RT_TARGET_END

// Tests cap the kernels: 0 SSE2, 1 AVX2+FMA, 2 AVX-512 (the default: the best the CPU has).
[[maybe_unused]] int g_max_isa = 2;

bool has_avx2_fma() noexcept {
  static const bool yes = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  return yes && g_max_isa >= 1;
}

bool has_avx512() noexcept {
  static const bool yes = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx2") &&
                          __builtin_cpu_supports("fma");
  return yes && g_max_isa >= 2;
}
#else
// Tests cap the kernels: 0 SSE2, 1 AVX2+FMA, 2 AVX-512 (the default: the best the CPU has).
[[maybe_unused]] int g_max_isa = 2;
#endif

#endif  // __SSE2__

}  // namespace

bool sample_runtime(const ClipRuntime& clip, float t, RuntimeCursor& cursor,
                    std::span<Transform> out_local) noexcept {
  if (out_local.size() != clip.joints() || !cursor.fits(clip)) return false;
  if (clip.empty()) return true;
  const RuntimeView v = RuntimeAccess::view(clip);
  locate_all(v, t, cursor);
  const Segment* segs = cursor.segments.data();
#if defined(__SSE2__)
#if defined(SV_RUNTIME_X86)
  if (has_avx2_fma()) {
    avx2::sample_groups(v, segs, out_local);
    return true;
  }
#endif
  sse2::sample_groups(v, segs, out_local);
#else
  for (std::size_t j = 0; j < v.joints; ++j) out_local[j] = joint_scalar(v, segs, j);
#endif
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
#if defined(SV_RUNTIME_X86)
  if (has_avx512()) {
    avx512::local_matrices(v, cursor.segments.data(), cursor.scratch.data());
    avx512::products(v, cursor.scratch.data(), model.data(), skin_joints, inverse_bind.data(),
                     palette.data());
    return true;
  }
  if (has_avx2_fma()) {
    avx2::local_matrices(v, cursor.segments.data(), cursor.scratch.data());
    avx2::products(v, cursor.scratch.data(), model.data(), skin_joints, inverse_bind.data(),
                   palette.data());
    return true;
  }
#endif
  sse2::local_matrices(v, cursor.segments.data(), cursor.scratch.data());
  sse2::products(v, cursor.scratch.data(), model.data(), skin_joints, inverse_bind.data(),
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

namespace detail {
int clip_runtime_max_isa(int level) noexcept {
  const int previous = g_max_isa;
  g_max_isa = level;
  return previous;
}
}  // namespace detail

}  // namespace sv
