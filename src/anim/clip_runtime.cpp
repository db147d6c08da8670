// The runtime clip's samplers (see clip_runtime.h; the builder is clip_build.cpp, the arrays'
// checks clip_arrays.cpp). The SSE lanes follow the scalar route's formulas and operation order
// (value_at, joint_scalar, slerp_shortest, glm), so they round as it does; only the AVX2 copy's
// fused multiply-adds and evaluate_pose's products differ, by rounding.
#include "anim/clip_runtime.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>

#include <glm/gtc/quaternion.hpp>

#include "anim/blend.h"
#include "anim/skeleton.h"
#include "anim/slerp.h"

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
  const double* times;
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

glm::vec4 to_vec4(const glm::quat& q) { return glm::vec4(q.x, q.y, q.z, q.w); }

// Scratch layout in RuntimeCursor::scratch: T of joint j at [j], S at [padded + j], then per 4
// joints the 3x3 rotation-scale matrix as 9 lane vectors (column c, row r at 3c + r).
std::size_t scratch_size(std::size_t groups) { return 4 * groups * 2 + 9 * groups; }

}  // namespace

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

// Where t falls on one timeline of n >= 1 keys (times strictly increasing). `key`, when given, is
// the cursor: tried first, then the next two segments, then a binary search; it is updated.
// Times and t are seconds in double; only alpha, in [0, 1), becomes float.
inline Segment segment_at(const double* times, uint32_t n, double t, uint32_t* key) noexcept {
  if (n == 1 || !(t > times[0])) {  // also NaN
    if (key != nullptr) *key = 0;
    return {0, 0, 0.0f, 0.0f};
  }
  const uint32_t last = n - 2;  // the last segment
  if (t >= times[n - 1]) {
    if (key != nullptr) *key = last;
    return {n - 1, 0, 0.0f, 0.0f};
  }
  uint32_t i = key != nullptr ? *key : ~0u;
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
  if (key != nullptr) *key = i;
  const double t0 = times[i];
  const double td = times[i + 1] - t0;
  return {i, 1, static_cast<float>((t - t0) / td), static_cast<float>(td)};
}

// Every timeline at once, with the cursor. Timeline 0 (constants) is always "key 0, outside".
void locate_all(const RuntimeView& v, double t, RuntimeCursor& c) noexcept {
  Segment* seg = c.segments.data();
  uint32_t* keys = c.keys.data();
  seg[0] = {0, 0, 0.0f, 0.0f};
  for (uint32_t u = 1; u < v.timelines; ++u) {
    const uint32_t b = v.timeline_begin[u];
    seg[u] = segment_at(v.times + b, v.timeline_begin[u + 1] - b, t, keys + u);
  }
}

// glTF cubic-spline weights: the Hermite basis, tangent terms scaled by the key interval td.
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
inline glm::vec4 value_at(const RuntimeView& v, const Segment& s, const ClipRuntime::Track& tr,
                          bool rotation) noexcept {
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
inline glm::vec4 value_at(const RuntimeView& v, const Segment* segs, const ClipRuntime::Track& tr,
                          bool rotation) noexcept {
  return value_at(v, segs[tr.timeline], tr, rotation);
}

inline glm::quat to_quat(const float* xyzw) noexcept {
  return glm::quat(xyzw[3], xyzw[0], xyzw[1], xyzw[2]);
}

// One joint's local transform in scalar code, given the segment of each component's timeline:
// sample_joint's route, and every joint's where SSE2 is missing.
inline Transform joint_scalar(const RuntimeView& v, const ClipRuntime::Track* tr, const Segment& st,
                              const Segment& s, const Segment& ss) noexcept {
  Transform out;
  out.translation = glm::vec3(value_at(v, st, tr[kT], false));
  out.scale = glm::vec3(value_at(v, ss, tr[kS], false));
  if (s.inside != 0 && tr[kR].interpolation == Interpolation::Linear) {
    const glm::vec4* val = v.values + tr[kR].base;
    out.rotation = slerp_shortest(to_quat(&val[s.key * tr[kR].stride].x),
                                  to_quat(&val[(s.key + 1) * tr[kR].stride].x), s.alpha);
  } else {
    const glm::vec4 q = value_at(v, s, tr[kR], true);
    out.rotation = glm::quat(q.w, q.x, q.y, q.z);
  }
  return out;
}
[[maybe_unused]] inline Transform joint_scalar(const RuntimeView& v, const Segment* segs,
                                               std::size_t j) noexcept {
  const ClipRuntime::Track* tr = v.tracks + 3 * j;
  return joint_scalar(v, tr, segs[tr[kT].timeline], segs[tr[kR].timeline], segs[tr[kS].timeline]);
}

#if defined(__SSE2__)

inline __m128 load(const glm::vec4& v) noexcept { return _mm_loadu_ps(&v.x); }

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

// The layer-blend kernel `name` for this CPU and the layer's mode, as a function pointer: the
// four instantiations (AVX2+FMA or SSE2, override or additive) picked in one place for
// sample_blend and sample_base_blend (blending dispatches no AVX-512 copy).
#if defined(SV_RUNTIME_X86)
#define SV_RT_BLEND_KERNEL(name, additive)                                \
  (has_avx2_fma() ? ((additive) ? &avx2::name<true> : &avx2::name<false>) \
                  : ((additive) ? &sse2::name<true> : &sse2::name<false>))
#else
#define SV_RT_BLEND_KERNEL(name, additive) ((additive) ? &sse2::name<true> : &sse2::name<false>)
#endif

#endif  // __SSE2__

}  // namespace

namespace {

[[maybe_unused]] inline void put(std::span<Transform> out, std::size_t j, const Transform& t) {
  out[j] = t;
}
[[maybe_unused]] inline void put(LocalLanes& out, std::size_t j, const Transform& t) {
  out.set(j, t);
}

// Both sample_runtime forms: `fits` is the output's size check.
template <class Out>
bool sample_into(const ClipRuntime& clip, double t, RuntimeCursor& cursor, bool fits,
                 Out& out) noexcept {
  if (!fits || !cursor.fits(clip)) return false;
  if (clip.empty()) return true;
  const RuntimeView v = RuntimeAccess::view(clip);
  locate_all(v, t, cursor);
  const Segment* segs = cursor.segments.data();
#if defined(__SSE2__)
#if defined(SV_RUNTIME_X86)
  if (has_avx2_fma()) {
    avx2::sample_groups(v, segs, out);
    return true;
  }
#endif
  sse2::sample_groups(v, segs, out);
#else
  for (std::size_t j = 0; j < v.joints; ++j) put(out, j, joint_scalar(v, segs, j));
#endif
  return true;
}

}  // namespace

bool sample_runtime(const ClipRuntime& clip, double t, RuntimeCursor& cursor,
                    std::span<Transform> out_local) noexcept {
  return sample_into(clip, t, cursor, out_local.size() == clip.joints(), out_local);
}

bool sample_runtime(const ClipRuntime& clip, double t, RuntimeCursor& cursor,
                    LocalLanes& out) noexcept {
  return sample_into(clip, t, cursor, out.fits(clip.joints()), out);
}

bool sample_blend(const ClipRuntime& clip, double t, RuntimeCursor& cursor, const LayerBlend& layer,
                  LocalLanes& pose) noexcept {
  const std::size_t n = clip.joints();
  if (!pose.fits(n) || !cursor.fits(clip)) return false;
  if ((!layer.keyed.empty() && layer.keyed.size() != n) ||
      (!layer.mask.empty() && layer.mask.size() != n))
    return false;
  const bool additive = layer.mode == BlendMode::Additive;
  if (additive && (layer.reference == nullptr || !layer.reference->fits(n))) return false;
  const float w0 = blend_weight(layer.weight);
  if (w0 == 0.0f || clip.empty()) return true;
  const RuntimeView v = RuntimeAccess::view(clip);
  locate_all(v, t, cursor);
  const Segment* segs = cursor.segments.data();
#if defined(__SSE2__)
  const LocalLanes* ready = additive ? &layer.reference->ready : nullptr;
  SV_RT_BLEND_KERNEL(sample_blend_groups, additive)
  (v, segs, layer.keyed, layer.mask, w0, ready, pose);
  return true;
#else
  // No SSE: joint by joint through the scalar blends, on one-joint spans.
  for (std::size_t j = 0; j < n; ++j) {
    Transform p = pose.get(j);
    const Transform x = joint_scalar(v, segs, j);
    const auto keys = layer.keyed.empty() ? layer.keyed : layer.keyed.subspan(j, 1);
    const auto mask = layer.mask.empty() ? layer.mask : layer.mask.subspan(j, 1);
    if (additive) {
      const Transform r = layer.reference->pose.get(j);
      blend_additive(std::span<Transform>(&p, 1), std::span<const Transform>(&x, 1),
                     std::span<const Transform>(&r, 1), keys, mask, layer.weight);
    } else {
      blend_override(std::span<Transform>(&p, 1), std::span<const Transform>(&x, 1), keys, mask,
                     layer.weight);
    }
    pose.set(j, p);
  }
  return true;
#endif
}

bool sample_base_blend(const ClipRuntime& base, double base_t, RuntimeCursor& base_cursor,
                       const ClipRuntime& clip, double t, RuntimeCursor& cursor,
                       const LayerBlend& layer, LocalLanes& pose) noexcept {
  const std::size_t n = clip.joints();
  if (base.joints() != n || !pose.fits(n) || !base_cursor.fits(base) || !cursor.fits(clip) ||
      &base_cursor == &cursor)
    return false;
  if ((!layer.keyed.empty() && layer.keyed.size() != n) ||
      (!layer.mask.empty() && layer.mask.size() != n))
    return false;
  const bool additive = layer.mode == BlendMode::Additive;
  if (additive && (layer.reference == nullptr || !layer.reference->fits(n))) return false;
  const float w0 = blend_weight(layer.weight);
  if (w0 == 0.0f || clip.empty()) return sample_runtime(base, base_t, base_cursor, pose);
#if defined(__SSE2__)
  const RuntimeView bv = RuntimeAccess::view(base);
  const RuntimeView v = RuntimeAccess::view(clip);
  locate_all(bv, base_t, base_cursor);
  locate_all(v, t, cursor);
  const Segment* bsegs = base_cursor.segments.data();
  const Segment* segs = cursor.segments.data();
  const LocalLanes* ready = additive ? &layer.reference->ready : nullptr;
  // The layer's rotations wait in its cursor's scratch (4 lane vectors per group: it has 17).
  float* held = &cursor.scratch.data()->x;
  SV_RT_BLEND_KERNEL(sample_base_blend_groups, additive)
  (bv, bsegs, v, segs, layer.keyed, layer.mask, w0, ready, held, pose);
  return true;
#else
  // No SSE: the two steps, joint by joint (checked above: neither refuses).
  return sample_runtime(base, base_t, base_cursor, pose) &&
         sample_blend(clip, t, cursor, layer, pose);
#endif
}

bool evaluate_pose(const ClipRuntime& clip, double t, RuntimeCursor& cursor,
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

std::size_t local_pose_scratch(std::size_t joints) noexcept {
  return scratch_size((joints + 3) / 4);
}

namespace {

// pose_from_local's checks but the parents' (the callers check those or know them checked).
bool pose_from_local_checked(std::span<const int32_t> parents, const LocalLanes& local,
                             std::span<const int32_t> skin_joints,
                             std::span<const glm::mat4> inverse_bind, std::span<glm::mat4> model,
                             std::span<glm::mat4> palette, std::span<glm::vec4> scratch) noexcept {
  const std::size_t n = parents.size();
  if (!local.fits(n) || model.size() != n || scratch.size() != local_pose_scratch(n) ||
      n > kMaxRuntimeJoints)
    return false;
  if (inverse_bind.size() != skin_joints.size() || palette.size() != skin_joints.size())
    return false;
  for (const int32_t j : skin_joints)
    if (j < 0 || static_cast<std::size_t>(j) >= n) return false;
  RuntimeView v{};
  v.joints = static_cast<uint32_t>(n);
  v.groups = static_cast<uint32_t>((n + 3) / 4);
  v.parents = parents.data();
#if defined(__SSE2__)
#if defined(SV_RUNTIME_X86)
  if (has_avx512()) {
    avx512::local_matrices_from(v, local.lanes.data(), scratch.data());
    avx512::products(v, scratch.data(), model.data(), skin_joints, inverse_bind.data(),
                     palette.data());
    return true;
  }
  if (has_avx2_fma()) {
    avx2::local_matrices_from(v, local.lanes.data(), scratch.data());
    avx2::products(v, scratch.data(), model.data(), skin_joints, inverse_bind.data(),
                   palette.data());
    return true;
  }
#endif
  sse2::local_matrices_from(v, local.lanes.data(), scratch.data());
  sse2::products(v, scratch.data(), model.data(), skin_joints, inverse_bind.data(), palette.data());
  return true;
#else
  for (std::size_t j = 0; j < n; ++j) {
    const glm::mat4 m = to_matrix(local.get(j));
    model[j] = parents[j] == kNoParent ? m : model[static_cast<std::size_t>(parents[j])] * m;
  }
  for (std::size_t b = 0; b < skin_joints.size(); ++b)
    palette[b] = model[static_cast<std::size_t>(skin_joints[b])] * inverse_bind[b];
  return true;
#endif
}

}  // namespace

bool pose_from_local(std::span<const int32_t> parents, const LocalLanes& local,
                     std::span<const int32_t> skin_joints, std::span<const glm::mat4> inverse_bind,
                     std::span<glm::mat4> model, std::span<glm::mat4> palette,
                     std::span<glm::vec4> scratch) noexcept {
  for (std::size_t i = 0; i < parents.size(); ++i)
    if (parents[i] != kNoParent && (parents[i] < 0 || static_cast<std::size_t>(parents[i]) >= i))
      return false;
  return pose_from_local_checked(parents, local, skin_joints, inverse_bind, model, palette,
                                 scratch);
}

bool pose_from_local(const ClipRuntime& skeleton, const LocalLanes& local,
                     std::span<const int32_t> skin_joints, std::span<const glm::mat4> inverse_bind,
                     std::span<glm::mat4> model, std::span<glm::mat4> palette,
                     std::span<glm::vec4> scratch) noexcept {
  return pose_from_local_checked(skeleton.parents(), local, skin_joints, inverse_bind, model,
                                 palette, scratch);
}

bool sample_joint(const ClipRuntime& clip, double t, std::size_t joint, Transform& out) noexcept {
  if (joint >= clip.joints()) return false;
  const RuntimeView v = RuntimeAccess::view(clip);
  const ClipRuntime::Track* tr = v.tracks + 3 * joint;
  Segment seg[3];
  for (std::size_t k = 0; k < 3; ++k) {
    const uint32_t u = tr[k].timeline;
    const uint32_t b = v.timeline_begin[u];
    seg[k] = u == 0 ? Segment{0, 0, 0.0f, 0.0f}
                    : segment_at(v.times + b, v.timeline_begin[u + 1] - b, t, nullptr);
  }
  out = joint_scalar(v, tr, seg[kT], seg[kR], seg[kS]);
  return true;
}

namespace detail {
int clip_runtime_max_isa(int level) noexcept {
  const int previous = g_max_isa;
  g_max_isa = level;
  return previous;
}

int clip_runtime_isa() noexcept {
#if defined(__SSE2__) && defined(SV_RUNTIME_X86)
  return has_avx512() ? 2 : has_avx2_fma() ? 1 : 0;
#else
  return 0;
#endif
}
}  // namespace detail

}  // namespace sv
