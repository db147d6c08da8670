// AVX-512 skinning: structure of arrays over runs of vertices that share their 4 joints.
//
// Why: blending 4 bones per vertex (skinning_x86.cpp) costs ~15 cycles a vertex here however it
// is scheduled: every vertex loads and blends its own 4 matrices, and the blended matrix must
// then meet the vertex in one register (shuffles). Real meshes bind long runs of vertices to
// the same 4 bones (the importer groups them: group_vertices_by_bone_set in anim/model.h; the
// test models have 77-350 vertices per bone set), so within a run the bones are constants:
// 16 vertices go in the lanes of a register (x of 16 vertices, y of 16, ...), each bone entry
// is one broadcast operand of a multiply-add, and the vertex transforms and the blend are all
// lane-wise: ~100 multiply-adds for 16 vertices, plus ~32 shuffles to turn the interleaved
// streams (xyz xyz ...) into lanes and back. Vertices in runs shorter than kMinRun take the
// per-vertex AVX2 kernel.
//
// Every vertex's result depends only on its own inputs and its bones, not on its lane, its
// block or where a range starts: which path a vertex takes depends on the length of its whole
// run (looked up across range edges), so skin_lbs_parallel's chunks give bit-identical results.
// Within a run, p' = sum_i w_i (K_i p) (each bone transforms, then the weights blend; the same
// value as the reference's (sum_i w_i K_i) p up to rounding), and normals are normalised with a
// 14-bit reciprocal square root refined by one Newton step (relative error ~1e-7); a blended
// normal of zero or extreme length takes the reference's exact formula.
#include "skin/skinning_runs.h"

#if defined(__x86_64__) || defined(__i386__)

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>

#include <immintrin.h>

namespace sv::detail {

namespace {

#define SV_AVX512 __attribute__((target("avx512f,avx2,fma,bmi,bmi2")))
#define SV_INLINE inline __attribute__((always_inline))

// Lane index tables for _mm512_permutex2var_ps (bit 4 picks the second source).
using Index = std::array<int32_t, 16>;

// De-interleaving 16 xyz triples held in 3 registers (a, b, c): component `comp` of lane j is
// element 3j + comp of (a b c). Step 1 takes what lies in a and b; step 2 keeps those lanes and
// takes the rest from c.
constexpr Index deinterleave_ab(int comp) {
  Index r{};
  for (int j = 0; j < 16; ++j) r[j] = 3 * j + comp < 32 ? 3 * j + comp : 0;
  return r;
}
constexpr Index deinterleave_c(int comp) {
  Index r{};
  for (int j = 0; j < 16; ++j) r[j] = 3 * j + comp < 32 ? j : 16 + (3 * j + comp - 32);
  return r;
}
// Interleaving back: element e of output register o is component g % 3 of lane g / 3, g = 16o + e.
// Step 1 places x and y, step 2 keeps those and places z.
constexpr Index interleave_xy(int o) {
  Index r{};
  for (int e = 0; e < 16; ++e) {
    const int g = 16 * o + e;
    r[e] = g % 3 == 0 ? g / 3 : g % 3 == 1 ? 16 + g / 3 : 0;
  }
  return r;
}
constexpr Index interleave_z(int o) {
  Index r{};
  for (int e = 0; e < 16; ++e) {
    const int g = 16 * o + e;
    r[e] = g % 3 == 2 ? 16 + g / 3 : e;
  }
  return r;
}
// (The maskz_ forms of shuffle_f32x4 and rsqrt14 below, with every lane set, are the plain
// instructions; the plain intrinsics start from _mm512_undefined_ps, which GCC 12 reports as
// uninitialised.)
// Weights, 4 per vertex: from two registers (4 vertices each), weights `first` and `first + 1`
// of the 8 vertices, in the two halves.
constexpr Index weight_pair(int first) {
  Index r{};
  for (int e = 0; e < 16; ++e) r[e] = 4 * (e % 8) + first + e / 8;
  return r;
}

struct Tables {
  alignas(64) Index de_ab[3];
  alignas(64) Index de_c[3];
  alignas(64) Index in_xy[3];
  alignas(64) Index in_z[3];
  alignas(64) Index w01;
  alignas(64) Index w23;
};

constexpr Tables kTables{
    {deinterleave_ab(0), deinterleave_ab(1), deinterleave_ab(2)},
    {deinterleave_c(0), deinterleave_c(1), deinterleave_c(2)},
    {interleave_xy(0), interleave_xy(1), interleave_xy(2)},
    {interleave_z(0), interleave_z(1), interleave_z(2)},
    weight_pair(0),
    weight_pair(2),
};

SV_AVX512 SV_INLINE __m512i index(const Index& i) noexcept {
  return _mm512_load_si512(static_cast<const void*>(i.data()));
}

// Bits [0, n) for n in [0, 16], of a count clamped to that range.
SV_INLINE __mmask16 lanes(std::ptrdiff_t n) noexcept {
  n = std::clamp<std::ptrdiff_t>(n, 0, 16);
  return static_cast<__mmask16>((1u << n) - 1u);
}

struct Vec3x16 {
  __m512 x, y, z;
};

// Loads `n` xyz triples (n = 16 when kFull) and de-interleaves them into lanes; lanes past n
// are zero. Reads exactly the n triples.
template <bool kFull>
SV_AVX512 SV_INLINE Vec3x16 load_xyz(const float* p, std::size_t n) noexcept {
  __m512 a, b, c;
  if constexpr (kFull) {
    a = _mm512_loadu_ps(p);
    b = _mm512_loadu_ps(p + 16);
    c = _mm512_loadu_ps(p + 32);
  } else {
    const auto f = static_cast<std::ptrdiff_t>(3 * n);
    a = _mm512_maskz_loadu_ps(lanes(f), p);
    b = _mm512_maskz_loadu_ps(lanes(f - 16), p + 16);
    c = _mm512_maskz_loadu_ps(lanes(f - 32), p + 32);
  }
  Vec3x16 r;
  r.x = _mm512_permutex2var_ps(_mm512_permutex2var_ps(a, index(kTables.de_ab[0]), b),
                               index(kTables.de_c[0]), c);
  r.y = _mm512_permutex2var_ps(_mm512_permutex2var_ps(a, index(kTables.de_ab[1]), b),
                               index(kTables.de_c[1]), c);
  r.z = _mm512_permutex2var_ps(_mm512_permutex2var_ps(a, index(kTables.de_ab[2]), b),
                               index(kTables.de_c[2]), c);
  return r;
}

// Interleaves lanes back into xyz triples and stores `n` of them (exactly those bytes).
template <bool kFull>
SV_AVX512 SV_INLINE void store_xyz(float* p, const Vec3x16& v, std::size_t n) noexcept {
  __m512 out[3];
  for (int o = 0; o < 3; ++o)
    out[o] = _mm512_permutex2var_ps(_mm512_permutex2var_ps(v.x, index(kTables.in_xy[o]), v.y),
                                    index(kTables.in_z[o]), v.z);
  if constexpr (kFull) {
    _mm512_storeu_ps(p, out[0]);
    _mm512_storeu_ps(p + 16, out[1]);
    _mm512_storeu_ps(p + 32, out[2]);
  } else {
    const auto f = static_cast<std::ptrdiff_t>(3 * n);
    _mm512_mask_storeu_ps(p, lanes(f), out[0]);
    _mm512_mask_storeu_ps(p + 16, lanes(f - 16), out[1]);
    _mm512_mask_storeu_ps(p + 32, lanes(f - 32), out[2]);
  }
}

// The 4 weights of n vertices, one register per slot.
template <bool kFull>
SV_AVX512 SV_INLINE void load_weights(const float* w, std::size_t n, __m512 out[4]) noexcept {
  __m512 r[4];
  for (int i = 0; i < 4; ++i)
    r[i] = kFull ? _mm512_loadu_ps(w + 16 * i)
                 : _mm512_maskz_loadu_ps(lanes(static_cast<std::ptrdiff_t>(4 * n) - 16 * i),
                                         w + 16 * i);
  const __m512 u0 = _mm512_permutex2var_ps(r[0], index(kTables.w01), r[1]);  // w0 | w1, v0-7
  const __m512 u1 = _mm512_permutex2var_ps(r[0], index(kTables.w23), r[1]);  // w2 | w3, v0-7
  const __m512 u2 = _mm512_permutex2var_ps(r[2], index(kTables.w01), r[3]);  // w0 | w1, v8-15
  const __m512 u3 = _mm512_permutex2var_ps(r[2], index(kTables.w23), r[3]);  // w2 | w3, v8-15
  out[0] = _mm512_maskz_shuffle_f32x4(0xFFFF, u0, u2, 0x44);
  out[1] = _mm512_maskz_shuffle_f32x4(0xFFFF, u0, u2, 0xEE);
  out[2] = _mm512_maskz_shuffle_f32x4(0xFFFF, u1, u3, 0x44);
  out[3] = _mm512_maskz_shuffle_f32x4(0xFFFF, u1, u3, 0xEE);
}

SV_AVX512 SV_INLINE __m512 bcast(const float* f) noexcept { return _mm512_set1_ps(*f); }

// The stream I/O of skin_block: float streams (RunStreams) or compact ones (CompactRunStreams,
// skin/compact_streams.h). Each loads a block's weights (4 per vertex) and normals (any length:
// the blend is normalised after) and stores its normals from the blended ones.
struct FloatIo {
  using Streams = RunStreams;
  template <bool kFull>
  SV_AVX512 SV_INLINE static void weights(const Streams& s, std::size_t v, std::size_t n,
                                          __m512 w[4]) noexcept {
    load_weights<kFull>(s.weights + 4 * v, n, w);
  }
  template <bool kFull>
  SV_AVX512 SV_INLINE static Vec3x16 normals(const Streams& s, std::size_t v,
                                             std::size_t n) noexcept {
    return load_xyz<kFull>(s.normals + 3 * v, n);
  }
  // Unit normals: a 14-bit reciprocal square root and one Newton step.
  template <bool kFull>
  SV_AVX512 SV_INLINE static void store_normals(const Streams& s, std::size_t v, const Vec3x16& rn,
                                                std::size_t n) noexcept {
    const __m512 len2 =
        _mm512_fmadd_ps(rn.z, rn.z, _mm512_fmadd_ps(rn.y, rn.y, _mm512_mul_ps(rn.x, rn.x)));
    // The estimate and its square stay normal floats for squared lengths in [2^-100, 2^100];
    // NaN, zero and extreme lengths take the exact route below.
    const __mmask16 fast = _mm512_cmp_ps_mask(len2, _mm512_set1_ps(0x1p-100f), _CMP_GE_OQ) &
                           _mm512_cmp_ps_mask(len2, _mm512_set1_ps(0x1p100f), _CMP_LE_OQ);
    __m512 y = _mm512_maskz_rsqrt14_ps(0xFFFF, len2);
    const __m512 h = _mm512_mul_ps(_mm512_set1_ps(0.5f), len2);
    y = _mm512_mul_ps(y, _mm512_fnmadd_ps(h, _mm512_mul_ps(y, y), _mm512_set1_ps(1.5f)));
    const Vec3x16 out{_mm512_mul_ps(rn.x, y), _mm512_mul_ps(rn.y, y), _mm512_mul_ps(rn.z, y)};
    float* on = s.out_normals + 3 * v;
    store_xyz<kFull>(on, out, n);
    const __mmask16 all = kFull ? __mmask16{0xFFFF} : lanes(static_cast<std::ptrdiff_t>(n));
    if (__builtin_expect((fast & all) != all, 0)) {
      alignas(64) float x[16], yv[16], z[16];
      _mm512_store_ps(x, rn.x);
      _mm512_store_ps(yv, rn.y);
      _mm512_store_ps(z, rn.z);
      for (std::size_t l = 0; l < n; ++l) {
        if ((fast >> l) & 1u) continue;
        // The reference's formula (skin_range_scalar).
        const float l2 = x[l] * x[l] + yv[l] * yv[l] + z[l] * z[l];
        const float sc = l2 > 0.0f ? 1.0f / std::sqrt(l2) : 0.0f;
        on[3 * l + 0] = x[l] * sc;
        on[3 * l + 1] = yv[l] * sc;
        on[3 * l + 2] = z[l] * sc;
      }
    }
  }
};

SV_AVX512 SV_INLINE __m512 abs16(__m512 a) noexcept {
  return _mm512_castsi512_ps(
      _mm512_and_si512(_mm512_castps_si512(a), _mm512_set1_epi32(0x7fffffff)));
}

// where a >= 0: t, else -t (s(a) t of compact_streams.h). (CompactIo uses the maskz_ forms of
// shifts, conversions and max with every lane set, as above.)
SV_AVX512 SV_INLINE __m512 signed_by(__m512 a, __m512 t) noexcept {
  const __mmask16 neg = _mm512_cmp_ps_mask(a, _mm512_setzero_ps(), _CMP_NGE_UQ);
  return _mm512_mask_sub_ps(t, neg, _mm512_setzero_ps(), t);
}

struct CompactIo {
  using Streams = CompactRunStreams;
  template <bool kFull>
  SV_AVX512 SV_INLINE static void weights(const Streams& s, std::size_t v, std::size_t n,
                                          __m512 w[4]) noexcept {
    const Vec3x16 w3 = load_xyz<kFull>(s.weights + 3 * v, n);
    w[0] = w3.x;
    w[1] = w3.y;
    w[2] = w3.z;
    w[3] = _mm512_sub_ps(_mm512_set1_ps(1.0f), _mm512_add_ps(_mm512_add_ps(w3.x, w3.y), w3.z));
  }
  // oct_decode_raw, lane-wise.
  template <bool kFull>
  SV_AVX512 SV_INLINE static Vec3x16 normals(const Streams& s, std::size_t v,
                                             std::size_t n) noexcept {
    const __m512i c =
        kFull ? _mm512_loadu_si512(static_cast<const void*>(s.normals + v))
              : _mm512_maskz_loadu_epi32(lanes(static_cast<std::ptrdiff_t>(n)), s.normals + v);
    const __m512 scale = _mm512_set1_ps(kOctScale), minus1 = _mm512_set1_ps(-1.0f);
    const __m512 x = _mm512_maskz_max_ps(
        0xFFFF,
        _mm512_mul_ps(_mm512_maskz_cvtepi32_ps(
                          0xFFFF, _mm512_maskz_srai_epi32(
                                      0xFFFF, _mm512_maskz_slli_epi32(0xFFFF, c, 16), 16)),
                      scale),
        minus1);
    const __m512 y = _mm512_maskz_max_ps(
        0xFFFF,
        _mm512_mul_ps(_mm512_maskz_cvtepi32_ps(0xFFFF, _mm512_maskz_srai_epi32(0xFFFF, c, 16)),
                      scale),
        minus1);
    const __m512 one = _mm512_set1_ps(1.0f);
    const __m512 ax = abs16(x), ay = abs16(y);
    const __m512 z = _mm512_sub_ps(_mm512_sub_ps(one, ax), ay);
    const __mmask16 low = _mm512_cmp_ps_mask(z, _mm512_setzero_ps(), _CMP_LT_OQ);
    return {_mm512_mask_mov_ps(x, low, signed_by(x, _mm512_sub_ps(one, ay))),
            _mm512_mask_mov_ps(y, low, signed_by(y, _mm512_sub_ps(one, ax))), z};
  }
  // oct_encode, lane-wise: no square root (the L1 projection normalises).
  template <bool kFull>
  SV_AVX512 SV_INLINE static void store_normals(const Streams& s, std::size_t v, const Vec3x16& rn,
                                                std::size_t n) noexcept {
    const __m512 one = _mm512_set1_ps(1.0f);
    const __m512 l1 = _mm512_add_ps(_mm512_add_ps(abs16(rn.x), abs16(rn.y)), abs16(rn.z));
    const __mmask16 ok = _mm512_cmp_ps_mask(l1, _mm512_set1_ps(kOctMinL1), _CMP_GE_OQ) &
                         _mm512_cmp_ps_mask(l1, _mm512_set1_ps(0x1.fffffep127f), _CMP_LE_OQ);
    const __m512 inv = _mm512_div_ps(one, l1);
    const __m512 px = _mm512_mul_ps(rn.x, inv), py = _mm512_mul_ps(rn.y, inv);
    const __mmask16 low = _mm512_cmp_ps_mask(rn.z, _mm512_setzero_ps(), _CMP_LT_OQ);
    const __m512 ox = _mm512_mask_mov_ps(px, low, signed_by(px, _mm512_sub_ps(one, abs16(py))));
    const __m512 oy = _mm512_mask_mov_ps(py, low, signed_by(py, _mm512_sub_ps(one, abs16(px))));
    const __m512 q = _mm512_set1_ps(32767.0f);
    const __m512i qx = _mm512_maskz_cvtps_epi32(0xFFFF, _mm512_mul_ps(ox, q));
    const __m512i qy = _mm512_maskz_cvtps_epi32(0xFFFF, _mm512_mul_ps(oy, q));
    const __m512i code = _mm512_maskz_or_epi32(ok, _mm512_and_si512(qx, _mm512_set1_epi32(0xffff)),
                                               _mm512_maskz_slli_epi32(0xFFFF, qy, 16));
    if constexpr (kFull)
      _mm512_storeu_si512(static_cast<void*>(s.out_normals + v), code);
    else
      _mm512_mask_storeu_epi32(s.out_normals + v, lanes(static_cast<std::ptrdiff_t>(n)), code);
  }
};

// One block of n <= 16 vertices of a run whose 4 packed bones are b[0..3]. In the packed bone
// (skinning_kernels.h), K row r column c is f[8c + r] (c < 3), K's translation row r is
// f[8r + 3], and N row r column c is f[8c + 4 + r].
template <class Io, bool kNormals, bool kFull>
SV_AVX512 SV_INLINE void skin_block(const typename Io::Streams& s, const float* const b[4],
                                    std::size_t v, std::size_t n) noexcept {
  const Vec3x16 p = load_xyz<kFull>(s.positions + 3 * v, n);
  __m512 w[4];
  Io::template weights<kFull>(s, v, n, w);
  Vec3x16 rp{}, nrm{}, rn{};
  if constexpr (kNormals) nrm = Io::template normals<kFull>(s, v, n);
#pragma GCC unroll 4
  for (int i = 0; i < 4; ++i) {
    const float* f = b[i];
    // K_i p, row by row, starting from the translation.
    __m512 qx = _mm512_fmadd_ps(p.x, bcast(f + 0), bcast(f + 3));
    __m512 qy = _mm512_fmadd_ps(p.x, bcast(f + 1), bcast(f + 11));
    __m512 qz = _mm512_fmadd_ps(p.x, bcast(f + 2), bcast(f + 19));
    qx = _mm512_fmadd_ps(p.y, bcast(f + 8), qx);
    qy = _mm512_fmadd_ps(p.y, bcast(f + 9), qy);
    qz = _mm512_fmadd_ps(p.y, bcast(f + 10), qz);
    qx = _mm512_fmadd_ps(p.z, bcast(f + 16), qx);
    qy = _mm512_fmadd_ps(p.z, bcast(f + 17), qy);
    qz = _mm512_fmadd_ps(p.z, bcast(f + 18), qz);
    if (i == 0) {
      rp.x = _mm512_mul_ps(w[0], qx);
      rp.y = _mm512_mul_ps(w[0], qy);
      rp.z = _mm512_mul_ps(w[0], qz);
    } else {
      rp.x = _mm512_fmadd_ps(w[i], qx, rp.x);
      rp.y = _mm512_fmadd_ps(w[i], qy, rp.y);
      rp.z = _mm512_fmadd_ps(w[i], qz, rp.z);
    }
    if constexpr (kNormals) {
      __m512 nx = _mm512_mul_ps(nrm.x, bcast(f + 4));
      __m512 ny = _mm512_mul_ps(nrm.x, bcast(f + 5));
      __m512 nz = _mm512_mul_ps(nrm.x, bcast(f + 6));
      nx = _mm512_fmadd_ps(nrm.y, bcast(f + 12), nx);
      ny = _mm512_fmadd_ps(nrm.y, bcast(f + 13), ny);
      nz = _mm512_fmadd_ps(nrm.y, bcast(f + 14), nz);
      nx = _mm512_fmadd_ps(nrm.z, bcast(f + 20), nx);
      ny = _mm512_fmadd_ps(nrm.z, bcast(f + 21), ny);
      nz = _mm512_fmadd_ps(nrm.z, bcast(f + 22), nz);
      if (i == 0) {
        rn.x = _mm512_mul_ps(w[0], nx);
        rn.y = _mm512_mul_ps(w[0], ny);
        rn.z = _mm512_mul_ps(w[0], nz);
      } else {
        rn.x = _mm512_fmadd_ps(w[i], nx, rn.x);
        rn.y = _mm512_fmadd_ps(w[i], ny, rn.y);
        rn.z = _mm512_fmadd_ps(w[i], nz, rn.z);
      }
    }
  }
  store_xyz<kFull>(s.out_positions + 3 * v, rp, n);
  if constexpr (kNormals) Io::template store_normals<kFull>(s, v, rn, n);
}

// How many of keys[v, v + n) (n <= 16) equal `key`, counted from v until the first that differs.
SV_AVX512 SV_INLINE std::size_t leading_equal16(const uint64_t* keys, std::size_t n,
                                                uint64_t key) noexcept {
  const __m512i k = _mm512_set1_epi64(static_cast<long long>(key));
  const auto lo = static_cast<__mmask8>(lanes(static_cast<std::ptrdiff_t>(n)));
  const auto hi = static_cast<__mmask8>(lanes(static_cast<std::ptrdiff_t>(n) - 8));
  const __mmask8 e0 = _mm512_mask_cmpeq_epi64_mask(lo, _mm512_maskz_loadu_epi64(lo, keys), k);
  const __mmask8 e1 = _mm512_mask_cmpeq_epi64_mask(hi, _mm512_maskz_loadu_epi64(hi, keys + 8), k);
  const uint32_t equal = static_cast<uint32_t>(e0) | (static_cast<uint32_t>(e1) << 8);
  return static_cast<std::size_t>(__builtin_ctz(~equal));  // bit 16 up is always clear in equal
}

// Bit i: keys[v + 1 + i] == keys[v + i], for the keys below `total`.
SV_AVX512 SV_INLINE uint64_t same_as_previous64(const uint64_t* keys, std::size_t v,
                                                std::size_t total) noexcept {
  uint64_t same = 0;
  for (std::size_t k = 0; k < 8; ++k) {
    const std::size_t at = v + 8 * k;  // compares keys[at + 1 + j] with keys[at + j]
    const auto m = static_cast<__mmask8>(
        lanes(static_cast<std::ptrdiff_t>(total) - static_cast<std::ptrdiff_t>(at + 1)));
    if (m == 0) break;
    const __m512i next = _mm512_maskz_loadu_epi64(m, keys + at + 1);
    const __m512i here = _mm512_maskz_loadu_epi64(m, keys + at);
    same |= static_cast<uint64_t>(_mm512_mask_cmpeq_epi64_mask(m, next, here)) << (8 * k);
  }
  return same;
}

// The same for 32-bit keys (compact streams' u8 x4 joints): 16 keys per register.
SV_AVX512 SV_INLINE std::size_t leading_equal16(const uint32_t* keys, std::size_t n,
                                                uint32_t key) noexcept {
  const __mmask16 m = lanes(static_cast<std::ptrdiff_t>(n));
  const __mmask16 e = _mm512_mask_cmpeq_epi32_mask(m, _mm512_maskz_loadu_epi32(m, keys),
                                                   _mm512_set1_epi32(static_cast<int>(key)));
  return static_cast<std::size_t>(__builtin_ctz(~static_cast<uint32_t>(e)));
}

SV_AVX512 SV_INLINE uint64_t same_as_previous64(const uint32_t* keys, std::size_t v,
                                                std::size_t total) noexcept {
  uint64_t same = 0;
  for (std::size_t k = 0; k < 4; ++k) {
    const std::size_t at = v + 16 * k;
    const __mmask16 m =
        lanes(static_cast<std::ptrdiff_t>(total) - static_cast<std::ptrdiff_t>(at + 1));
    if (m == 0) break;
    const __m512i next = _mm512_maskz_loadu_epi32(m, keys + at + 1);
    const __m512i here = _mm512_maskz_loadu_epi32(m, keys + at);
    same |= static_cast<uint64_t>(_mm512_mask_cmpeq_epi32_mask(m, next, here)) << (16 * k);
  }
  return same;
}

// The kernel for skin_runs (skinning_runs.h). Its functions carry the AVX-512 target, so the
// walk calls them rather than inlining them: one call per 16 vertices.
// The run scan every AVX-512 kernel shares (skinning_runs.h's Kernel): 16 lanes, the key
// comparisons, and run() flattening run_blocks over the kernel's own block() (Self).
// Streams: RunStreams, or CompactRunStreams (32-bit keys).
template <class Self, class Streams = RunStreams>
struct Avx512RunScan {
  using Key = KeyOf<Streams>;
  static constexpr std::size_t kLanes = 16;
  SV_AVX512 static std::size_t leading_equal(const Key* keys, std::size_t n, Key key) noexcept {
    return leading_equal16(keys, n, key);
  }
  SV_AVX512 static uint64_t same_as_previous(const Key* keys, std::size_t v,
                                             std::size_t total) noexcept {
    return same_as_previous64(keys, v, total);
  }
  template <bool kNormals>
  SV_AVX512 __attribute__((flatten)) static std::size_t run(const Streams& s,
                                                            const float* const b[4], Key key,
                                                            std::size_t v,
                                                            std::size_t end) noexcept {
    return run_blocks<Self, kNormals>(s, b, key, v, end);
  }
};

// LBS over float (FloatIo) or compact (CompactIo) streams.
template <class Io>
struct Avx512LbsRuns : Avx512RunScan<Avx512LbsRuns<Io>, typename Io::Streams> {
  template <bool kNormals>
  SV_AVX512 static void block(const typename Io::Streams& s, const float* const b[4], std::size_t v,
                              std::size_t n) noexcept {
    if (n == 16)
      skin_block<Io, kNormals, true>(s, b, v, n);
    else
      skin_block<Io, kNormals, false>(s, b, v, n);
  }
};

struct Avx512Runs : Avx512LbsRuns<FloatIo> {
  static void per_vertex(const SkinJob& job, const PackedBone* packed, std::size_t begin,
                         std::size_t end) noexcept {
    skin_range_avx2(job, packed, begin, end);
  }
};

// ---- DQS and CoR (skinning_method_lanes.inc) ----------------------------------------------

struct Ln16 {
  using V = __m512;
  using M = __mmask16;
  struct Vec3 {
    V x, y, z;
  };
  static constexpr std::size_t kLanes = 16;
  SV_AVX512 SV_INLINE static V zero() noexcept { return _mm512_setzero_ps(); }
  SV_AVX512 SV_INLINE static V set1(float f) noexcept { return _mm512_set1_ps(f); }
  SV_AVX512 SV_INLINE static V bcast(const float* f) noexcept { return _mm512_set1_ps(*f); }
  SV_AVX512 SV_INLINE static V add(V a, V b) noexcept { return _mm512_add_ps(a, b); }
  SV_AVX512 SV_INLINE static V sub(V a, V b) noexcept { return _mm512_sub_ps(a, b); }
  SV_AVX512 SV_INLINE static V mul(V a, V b) noexcept { return _mm512_mul_ps(a, b); }
  SV_AVX512 SV_INLINE static V max(V a, V b) noexcept { return _mm512_maskz_max_ps(0xFFFF, a, b); }
  SV_AVX512 SV_INLINE static V fmadd(V a, V b, V c) noexcept { return _mm512_fmadd_ps(a, b, c); }
  SV_AVX512 SV_INLINE static V fmsub(V a, V b, V c) noexcept { return _mm512_fmsub_ps(a, b, c); }
  SV_AVX512 SV_INLINE static V fnmadd(V a, V b, V c) noexcept { return _mm512_fnmadd_ps(a, b, c); }
  SV_AVX512 SV_INLINE static M gt(V a, V b) noexcept {
    return _mm512_cmp_ps_mask(a, b, _CMP_GT_OQ);
  }
  SV_AVX512 SV_INLINE static M ge(V a, V b) noexcept {
    return _mm512_cmp_ps_mask(a, b, _CMP_GE_OQ);
  }
  SV_AVX512 SV_INLINE static M le(V a, V b) noexcept {
    return _mm512_cmp_ps_mask(a, b, _CMP_LE_OQ);
  }
  SV_INLINE static M mand(M a, M b) noexcept { return static_cast<M>(a & b); }
  SV_INLINE static M mor(M a, M b) noexcept { return static_cast<M>(a | b); }
  SV_INLINE static M mnot(M a) noexcept { return static_cast<M>(~a); }
  SV_INLINE static M mnone() noexcept { return 0; }
  SV_INLINE static unsigned bits(M m) noexcept { return m; }
  SV_AVX512 SV_INLINE static V negate_where(M m, V v) noexcept {
    return _mm512_mask_sub_ps(v, m, _mm512_setzero_ps(), v);
  }
  SV_AVX512 SV_INLINE static V rsqrt_nr(V x) noexcept {
    const V y = _mm512_maskz_rsqrt14_ps(0xFFFF, x);
    const V h = _mm512_mul_ps(_mm512_set1_ps(0.5f), x);
    return _mm512_mul_ps(y, _mm512_fnmadd_ps(h, _mm512_mul_ps(y, y), _mm512_set1_ps(1.5f)));
  }
  SV_AVX512 SV_INLINE static void store(float* p, V v) noexcept { _mm512_store_ps(p, v); }
  SV_AVX512 SV_INLINE static Vec3 load_xyz(const float* p) noexcept {
    const Vec3x16 v = sv::detail::load_xyz<true>(p, 16);
    return {v.x, v.y, v.z};
  }
  SV_AVX512 SV_INLINE static void store_xyz(float* p, const Vec3& v) noexcept {
    sv::detail::store_xyz<true>(p, Vec3x16{v.x, v.y, v.z}, 16);
  }
  SV_AVX512 SV_INLINE static void load_weights(const float* w, V out[4]) noexcept {
    sv::detail::load_weights<true>(w, 16, out);
  }
};

#define SV_LANES_INLINE SV_AVX512 SV_INLINE
#define SV_LANES_TARGET SV_AVX512
#include "skin/skinning_method_lanes.inc"
#undef SV_LANES_TARGET
#undef SV_LANES_INLINE

template <bool kCor>
struct Avx512MethodRuns : Avx512RunScan<Avx512MethodRuns<kCor>> {
  template <bool kNormals>
  SV_AVX512 static void block(const RunStreams& s, const float* const b[4], std::size_t v,
                              std::size_t n) noexcept {
    MethodLanes<Ln16>::run_block<kNormals, kCor>(s, b, v, n);
  }
  static void per_vertex(const SkinJob& job, const PackedBone*, std::size_t begin,
                         std::size_t end) noexcept {
    skin_range_method_scalar(job, begin, end);
  }
};

}  // namespace

void skin_range_avx512_8(const SkinJob& job, const PackedBone* packed, std::size_t begin,
                         std::size_t end) noexcept {
  skin_range8_runs<Ln16, Avx512Runs>(job, packed, begin, end);
}

void skin_range_avx512_method(const SkinJob& job, const PackedBone* packed, std::size_t begin,
                              std::size_t end) noexcept {
  if (begin >= end) return;
  const bool normals = job.out_normals != nullptr;
  if (job.method == SkinMethod::Cor) {
    if (normals)
      skin_runs<Avx512MethodRuns<true>, true>(job, packed, begin, end);
    else
      skin_runs<Avx512MethodRuns<true>, false>(job, packed, begin, end);
  } else if (normals) {
    skin_runs<Avx512MethodRuns<false>, true>(job, packed, begin, end);
  } else {
    skin_runs<Avx512MethodRuns<false>, false>(job, packed, begin, end);
  }
}

void skin_range_avx512_compact(const CompactJob& job, const PackedBone* packed, std::size_t begin,
                               std::size_t end) noexcept {
  if (begin >= end) return;
  if (job.out_normals != nullptr)
    skin_runs_compact<Avx512LbsRuns<CompactIo>, true>(job, packed, begin, end);
  else
    skin_runs_compact<Avx512LbsRuns<CompactIo>, false>(job, packed, begin, end);
}

void skin_range_avx512(const SkinJob& job, const PackedBone* packed, std::size_t begin,
                       std::size_t end) noexcept {
  if (begin >= end) return;
  if (job.out_normals != nullptr)
    skin_runs<Avx512Runs, true>(job, packed, begin, end);
  else
    skin_runs<Avx512Runs, false>(job, packed, begin, end);
}

}  // namespace sv::detail

#endif  // x86
