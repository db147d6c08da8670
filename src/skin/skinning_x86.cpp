// SIMD skinning kernels for x86: SSE2 (the x86-64 baseline) and AVX2+FMA (compiled for that
// target per function and chosen at run time, so the binary still runs on any x86-64).
//
// Both blend the 4 packed bones of a vertex column by column (see skinning_kernels.h), then
// transform once. The normal is normalised with a reciprocal square root refined by one Newton
// step (relative error below 4e-7); a blended normal of zero, or of an extreme length, takes
// the exact scalar route, as the reference does.
#include "skin/skinning_kernels.h"

#if defined(__x86_64__) || defined(__i386__)

#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstring>

#include <immintrin.h>

namespace sv::detail {

namespace {

// Loads 3 floats without reading past them (lane 3 is 0): for the last vertex of a range.
inline __m128 load3(const float* p) noexcept {
  const __m128 xy = _mm_castsi128_ps(_mm_loadl_epi64(reinterpret_cast<const __m128i_u*>(p)));
  return _mm_movelh_ps(xy, _mm_load_ss(p + 2));
}

// Stores lanes 0-2 without writing past them: the last vertex of a range may border a range
// that another thread is writing.
inline void store3(float* p, __m128 v) noexcept {
  _mm_storel_epi64(reinterpret_cast<__m128i_u*>(p), _mm_castps_si128(v));
  _mm_store_ss(p + 2, _mm_movehl_ps(v, v));
}

// Raw stream pointers, read once per range so the loop does not reload them after every store.
struct Streams {
  const float* positions;
  const float* normals;
  const glm::u16vec4* joints;
  const float* weights;
  float* out_positions;
  float* out_normals;

  explicit Streams(const SkinJob& job) noexcept
      : positions(&job.in->positions.data()->x),
        normals(job.out_normals != nullptr ? &job.in->normals.data()->x : nullptr),
        joints(job.in->joints.data()),
        weights(&job.in->weights.data()->x),
        out_positions(&job.out_positions->x),
        out_normals(job.out_normals != nullptr ? &job.out_normals->x : nullptr) {}
};

inline void joint_indices(const glm::u16vec4& j, std::size_t out[4]) noexcept {
  uint64_t bits;
  std::memcpy(&bits, &j, sizeof bits);
  out[0] = bits & 0xffffu;
  out[1] = (bits >> 16) & 0xffffu;
  out[2] = (bits >> 32) & 0xffffu;
  out[3] = bits >> 48;
}

// Exact normalisation, the reference's formula, for the rare degenerate lengths.
inline void normalise_exact(float* out, __m128 r) noexcept {
  alignas(16) float v[4];
  _mm_store_ps(v, r);
  const float len2 = v[0] * v[0] + v[1] * v[1] + v[2] * v[2];
  const float s = len2 > 0.0f ? 1.0f / std::sqrt(len2) : 0.0f;
  out[0] = v[0] * s;
  out[1] = v[1] * s;
  out[2] = v[2] * s;
}

// The Newton-refined estimate is used for squared lengths in [2^-100, 2^100], where neither
// it nor its square leaves the normal float range; NaN, zero and extreme lengths go the exact way.
inline bool fast_length(float len2) noexcept { return len2 >= 0x1p-100f && len2 <= 0x1p100f; }

// (k0[3], k1[3], k2[3], k2[3]): the blended translation from the K columns' 4th lanes.
inline __m128 translation(__m128 k0, __m128 k1, __m128 k2) noexcept {
  return _mm_shuffle_ps(_mm_unpackhi_ps(k0, k1), k2, _MM_SHUFFLE(3, 3, 3, 2));
}

// ---- SSE2 -------------------------------------------------------------------------------

// r's lane 3 is 0. Sum of squares in every lane.
inline __m128 dot3_sse2(__m128 r) noexcept {
  const __m128 sq = _mm_mul_ps(r, r);
  const __m128 s = _mm_add_ps(sq, _mm_shuffle_ps(sq, sq, _MM_SHUFFLE(1, 0, 3, 2)));
  return _mm_add_ps(s, _mm_shuffle_ps(s, s, _MM_SHUFFLE(2, 3, 0, 1)));
}

template <bool kNormals, bool kLast>
inline void skin_vertex_sse2(const SkinJob& job, const PackedBone* packed, std::size_t v) noexcept {
  const SkinInput& in = *job.in;
  std::size_t j[4];
  joint_indices(in.joints[v], j);
  const float* w = &in.weights[v].x;
  __m128 acc[6];  // K0 N0 K1 N1 K2 N2 (K3 in the K columns' lane 3)
  for (int c = 0; c < 6; ++c) acc[c] = _mm_setzero_ps();
  for (int i = 0; i < 4; ++i) {
    const __m128 wi = _mm_set1_ps(w[i]);
    const float* b = packed[j[i]].f;
    for (int c = 0; c < 6; c += kNormals ? 1 : 2)
      acc[c] = _mm_add_ps(acc[c], _mm_mul_ps(wi, _mm_load_ps(b + 4 * c)));
  }
  const float* pp = &in.positions[v].x;
  const __m128 p = kLast ? load3(pp) : _mm_loadu_ps(pp);
  __m128 rp = _mm_add_ps(_mm_mul_ps(acc[0], _mm_shuffle_ps(p, p, 0x00)),
                         translation(acc[0], acc[2], acc[4]));
  rp = _mm_add_ps(rp, _mm_mul_ps(acc[2], _mm_shuffle_ps(p, p, 0x55)));
  rp = _mm_add_ps(rp, _mm_mul_ps(acc[4], _mm_shuffle_ps(p, p, 0xAA)));
  float* op = &job.out_positions[v].x;
  if (kLast)
    store3(op, rp);
  else
    _mm_storeu_ps(op, rp);
  if constexpr (kNormals) {
    const float* np = &in.normals[v].x;
    const __m128 n = kLast ? load3(np) : _mm_loadu_ps(np);
    __m128 rn = _mm_mul_ps(acc[1], _mm_shuffle_ps(n, n, 0x00));
    rn = _mm_add_ps(rn, _mm_mul_ps(acc[3], _mm_shuffle_ps(n, n, 0x55)));
    rn = _mm_add_ps(rn, _mm_mul_ps(acc[5], _mm_shuffle_ps(n, n, 0xAA)));
    float* on = &job.out_normals[v].x;
    const __m128 len2 = dot3_sse2(rn);
    if (!fast_length(_mm_cvtss_f32(len2))) {
      normalise_exact(on, rn);
      return;
    }
    __m128 y = _mm_rsqrt_ps(len2);
    const __m128 h = _mm_mul_ps(_mm_set1_ps(0.5f), len2);
    y = _mm_mul_ps(y, _mm_sub_ps(_mm_set1_ps(1.5f), _mm_mul_ps(h, _mm_mul_ps(y, y))));
    rn = _mm_mul_ps(rn, y);
    if (kLast)
      store3(on, rn);
    else
      _mm_storeu_ps(on, rn);
  }
}

template <bool kNormals>
void sse2_loop(const SkinJob& job, const PackedBone* packed, std::size_t begin,
               std::size_t end) noexcept {
  // Every vertex but the last reads and writes 16 bytes (4 past its own 12, into the next
  // vertex, which is rewritten right after).
  for (std::size_t v = begin; v + 1 < end; ++v) skin_vertex_sse2<kNormals, false>(job, packed, v);
  skin_vertex_sse2<kNormals, true>(job, packed, end - 1);
}

// ---- AVX2 + FMA -------------------------------------------------------------------------

#define SV_AVX2 __attribute__((target("avx2,fma")))

// Squared length in every lane as (x^2 + y^2) + (z^2 + 0): the order the 4-vertex batch sums
// in (two horizontal adds), so a vertex's normal rounds the same whether it is skinned alone or
// in a batch, and results do not depend on where a range (a thread's chunk) starts or ends.
SV_AVX2 inline __attribute__((always_inline)) __m128 len2_avx2(__m128 r) noexcept {
  const __m128 sq = _mm_mul_ps(r, r);
  const __m128 h = _mm_hadd_ps(sq, sq);
  return _mm_hadd_ps(h, h);
}

// (a a a a | b b b b), or a alone for positions only.
template <bool kNormals>
SV_AVX2 inline __attribute__((always_inline)) __m256 pair_avx2(const float* a,
                                                               const float* b) noexcept {
  const __m256 va = _mm256_broadcast_ss(a);
  if constexpr (kNormals) return _mm256_blend_ps(va, _mm256_broadcast_ss(b), 0xF0);
  return va;
}

// The 3 blended columns [K0 K3.x|N0] [K1 K3.y|N1] [K2 K3.z|N2], one 8-wide multiply-add per
// bone and column.
SV_AVX2 inline __attribute__((always_inline)) void blend_avx2(const Streams& s,
                                                              const PackedBone* packed,
                                                              std::size_t v, __m256 y[4]) noexcept {
  std::size_t j[4];
  joint_indices(s.joints[v], j);
  const float* w = s.weights + 4 * v;
  const float* b0 = packed[j[0]].f;
  const float* b1 = packed[j[1]].f;
  const float* b2 = packed[j[2]].f;
  const float* b3 = packed[j[3]].f;
  const __m256 w0 = _mm256_broadcast_ss(w + 0);
  const __m256 w1 = _mm256_broadcast_ss(w + 1);
  const __m256 w2 = _mm256_broadcast_ss(w + 2);
  const __m256 w3 = _mm256_broadcast_ss(w + 3);
  for (int c = 0; c < 3; ++c) {
    __m256 a = _mm256_mul_ps(w0, _mm256_load_ps(b0 + 8 * c));
    a = _mm256_fmadd_ps(w1, _mm256_load_ps(b1 + 8 * c), a);
    a = _mm256_fmadd_ps(w2, _mm256_load_ps(b2 + 8 * c), a);
    y[c] = _mm256_fmadd_ps(w3, _mm256_load_ps(b3 + 8 * c), a);
  }
}

// Blends the vertex's 4 bones and transforms: (p' | n') with n' not yet normalised (lane 7 is
// 0; lane 3 is junk, never stored past the range). Reads exactly the vertex's own input floats.
template <bool kNormals, bool kWide = false>
SV_AVX2 inline __attribute__((always_inline)) __m256 transform_avx2(const Streams& s,
                                                                    const PackedBone* packed,
                                                                    std::size_t v) noexcept {
  __m256 y[3];
  blend_avx2(s, packed, v, y);
  // (x | nx), (y | ny), (z | nz) from broadcast loads and a blend: no shuffle-port work.
  const float* pp = s.positions + 3 * v;
  const float* np = kNormals ? s.normals + 3 * v : pp;
  // K3 (lanes 0-2 of the low half); the high half stays 0 so n' is untouched.
  const __m256 k3 = _mm256_castps128_ps256(translation(
      _mm256_castps256_ps128(y[0]), _mm256_castps256_ps128(y[1]), _mm256_castps256_ps128(y[2])));
  __m256 px, py, pz;
  if constexpr (kWide) {
    // Two 16-byte loads and three in-lane permutes instead of six broadcast loads: the loop is
    // bound by its loads. Reads 4 bytes past the vertex (the next one's): never the last.
    const __m256 pn =
        _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_loadu_ps(pp)), _mm_loadu_ps(np), 1);
    px = _mm256_permute_ps(pn, 0x00);
    py = _mm256_permute_ps(pn, 0x55);
    pz = _mm256_permute_ps(pn, 0xAA);
  } else {
    px = pair_avx2<kNormals>(pp, np);
    py = pair_avx2<kNormals>(pp + 1, np + 1);
    pz = pair_avx2<kNormals>(pp + 2, np + 2);
  }
  const __m256 r0 = _mm256_fmadd_ps(y[2], pz, _mm256_blend_ps(k3, _mm256_setzero_ps(), 0xF0));
  const __m256 r1 = _mm256_fmadd_ps(y[1], py, _mm256_mul_ps(y[0], px));
  return _mm256_add_ps(r0, r1);
}

// One vertex, its normal normalised alone. kLast: exact 12-byte stores.
template <bool kNormals, bool kLast>
SV_AVX2 inline __attribute__((always_inline)) void skin_vertex_avx2(const Streams& s,
                                                                    const PackedBone* packed,
                                                                    std::size_t v) noexcept {
  const __m256 r = transform_avx2<kNormals>(s, packed, v);
  const __m128 rp = _mm256_castps256_ps128(r);
  float* op = s.out_positions + 3 * v;
  if (kLast)
    store3(op, rp);
  else
    _mm_storeu_ps(op, rp);
  if constexpr (kNormals) {
    __m128 rn = _mm256_extractf128_ps(r, 1);
    float* on = s.out_normals + 3 * v;
    const __m128 len2 = len2_avx2(rn);
    if (__builtin_expect(!fast_length(_mm_cvtss_f32(len2)), 0)) {
      normalise_exact(on, rn);
      return;
    }
    __m128 yr = _mm_rsqrt_ps(len2);
    const __m128 h = _mm_mul_ps(_mm_set1_ps(0.5f), len2);
    yr = _mm_mul_ps(yr, _mm_fnmadd_ps(h, _mm_mul_ps(yr, yr), _mm_set1_ps(1.5f)));
    rn = _mm_mul_ps(rn, yr);
    if (kLast)
      store3(on, rn);
    else
      _mm_storeu_ps(on, rn);
  }
}

// Four vertices, their normals normalised together: one reciprocal square root and one Newton
// step for all four. Never the range's last vertex (16-byte stores spill into the next one).
SV_AVX2 inline __attribute__((always_inline)) void skin_four_avx2(const Streams& s,
                                                                  const PackedBone* packed,
                                                                  std::size_t v) noexcept {
  __m128 n[4];
#pragma GCC unroll 4
  for (int i = 0; i < 4; ++i) {
    const __m256 r = transform_avx2<true, true>(s, packed, v + i);
    _mm_storeu_ps(s.out_positions + 3 * (v + i), _mm256_castps256_ps128(r));
    n[i] = _mm256_extractf128_ps(r, 1);
  }
  const __m128 len2 = _mm_hadd_ps(_mm_hadd_ps(_mm_mul_ps(n[0], n[0]), _mm_mul_ps(n[1], n[1])),
                                  _mm_hadd_ps(_mm_mul_ps(n[2], n[2]), _mm_mul_ps(n[3], n[3])));
  const __m128 in_range = _mm_and_ps(_mm_cmpge_ps(len2, _mm_set1_ps(0x1p-100f)),
                                     _mm_cmple_ps(len2, _mm_set1_ps(0x1p100f)));
  float* on = s.out_normals + 3 * v;
  if (__builtin_expect(_mm_movemask_ps(in_range) != 0xF, 0)) {
    for (int i = 0; i < 4; ++i) {
      const __m128 l = len2_avx2(n[i]);
      if (fast_length(_mm_cvtss_f32(l))) {
        __m128 yr = _mm_rsqrt_ps(l);
        const __m128 h = _mm_mul_ps(_mm_set1_ps(0.5f), l);
        yr = _mm_mul_ps(yr, _mm_fnmadd_ps(h, _mm_mul_ps(yr, yr), _mm_set1_ps(1.5f)));
        _mm_storeu_ps(on + 3 * i, _mm_mul_ps(n[i], yr));
      } else {
        normalise_exact(on + 3 * i, n[i]);
      }
    }
    return;
  }
  __m128 yr = _mm_rsqrt_ps(len2);
  const __m128 h = _mm_mul_ps(_mm_set1_ps(0.5f), len2);
  yr = _mm_mul_ps(yr, _mm_fnmadd_ps(h, _mm_mul_ps(yr, yr), _mm_set1_ps(1.5f)));
  _mm_storeu_ps(on + 0, _mm_mul_ps(n[0], _mm_permute_ps(yr, 0x00)));
  _mm_storeu_ps(on + 3, _mm_mul_ps(n[1], _mm_permute_ps(yr, 0x55)));
  _mm_storeu_ps(on + 6, _mm_mul_ps(n[2], _mm_permute_ps(yr, 0xAA)));
  _mm_storeu_ps(on + 9, _mm_mul_ps(n[3], _mm_permute_ps(yr, 0xFF)));
}

template <bool kNormals>
SV_AVX2 void loop_avx2(const SkinJob& job, const PackedBone* packed, std::size_t begin,
                       std::size_t end) noexcept {
  const Streams s(job);
  std::size_t v = begin;
  if constexpr (kNormals) {
    // The batch reads and writes at constant offsets from 6 stream pointers that advance per
    // batch: indexing by v made the compiler keep (and spill) a pointer per offset.
    Streams b = s;
    b.positions += 3 * v;
    b.normals += 3 * v;
    b.joints += v;
    b.weights += 4 * v;
    b.out_positions += 3 * v;
    b.out_normals += 3 * v;
    for (; v + 4 < end; v += 4) {
      skin_four_avx2(b, packed, 0);
      b.positions += 12;
      b.normals += 12;
      b.joints += 4;
      b.weights += 16;
      b.out_positions += 12;
      b.out_normals += 12;
    }
  }
  for (; v + 1 < end; ++v) skin_vertex_avx2<kNormals, false>(s, packed, v);
  skin_vertex_avx2<kNormals, true>(s, packed, end - 1);
}

}  // namespace

void skin_range_sse2(const SkinJob& job, const PackedBone* packed, std::size_t begin,
                     std::size_t end) noexcept {
  if (begin >= end) return;
  if (job.out_normals != nullptr)
    sse2_loop<true>(job, packed, begin, end);
  else
    sse2_loop<false>(job, packed, begin, end);
}

void skin_range_avx2(const SkinJob& job, const PackedBone* packed, std::size_t begin,
                     std::size_t end) noexcept {
  if (begin >= end) return;
  if (job.out_normals != nullptr)
    loop_avx2<true>(job, packed, begin, end);
  else
    loop_avx2<false>(job, packed, begin, end);
}

}  // namespace sv::detail

#endif  // x86
