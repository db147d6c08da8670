// AVX2 skinning over runs of vertices that share their 4 joints: the AVX-512 kernel's method
// (skinning_avx512.cpp) 8 lanes wide, for CPUs with AVX2 + FMA and no AVX-512 (most desktop
// x86 until recently). Within a run the 4 bones are constants, 8 vertices sit in the lanes of
// a register, each bone entry is a broadcast operand, and p' = sum_i w_i (K_i p) is computed
// lane-wise; the interleaved streams go into lanes and back with blends (any port) and one
// permute per stream. Partial blocks (a run's last vertices) go through a zero-padded copy on
// the stack, so nothing outside the vertices' own bytes is read or written.
//
// Normals are normalised with a 12-bit reciprocal square root refined by one Newton step
// (relative error below 4e-7, as in the per-vertex AVX2 kernel); a blended normal of zero or
// extreme length takes the reference's exact formula.
#include "skin/skinning_runs.h"

#if defined(__x86_64__) || defined(__i386__)

#include <cmath>
#include <cstdint>
#include <cstring>

#include <immintrin.h>

namespace sv::detail {

namespace {

#define SV_AVX2 __attribute__((target("avx2,fma")))
#define SV_INLINE inline __attribute__((always_inline))

struct Vec3x8 {
  __m256 x, y, z;
};

SV_AVX2 SV_INLINE __m256i index8(int i0, int i1, int i2, int i3, int i4, int i5, int i6,
                                 int i7) noexcept {
  return _mm256_setr_epi32(i0, i1, i2, i3, i4, i5, i6, i7);
}

// 8 xyz triples from 3 registers: a = x0 y0 z0 x1 y1 z1 x2 y2, b = z2 x3 .. x5, c = y5 .. z7.
// Each component is blended together from the three (lanes where it lies), then permuted into
// vertex order.
SV_AVX2 SV_INLINE Vec3x8 deinterleave(__m256 a, __m256 b, __m256 c) noexcept {
  // x lies in a at 0 3 6, b at 1 4 7, c at 2 5.
  const __m256 tx = _mm256_blend_ps(_mm256_blend_ps(a, b, 0x92), c, 0x24);
  // y: a at 1 4 7, b at 2 5, c at 0 3 6.
  const __m256 ty = _mm256_blend_ps(_mm256_blend_ps(a, b, 0x24), c, 0x49);
  // z: a at 2 5, b at 0 3 6, c at 1 4 7.
  const __m256 tz = _mm256_blend_ps(_mm256_blend_ps(a, b, 0x49), c, 0x92);
  return {_mm256_permutevar8x32_ps(tx, index8(0, 3, 6, 1, 4, 7, 2, 5)),
          _mm256_permutevar8x32_ps(ty, index8(1, 4, 7, 2, 5, 0, 3, 6)),
          _mm256_permutevar8x32_ps(tz, index8(2, 5, 0, 3, 6, 1, 4, 7))};
}

// The inverse: each component permuted to the lanes where it goes, then blended.
SV_AVX2 SV_INLINE void interleave(const Vec3x8& v, __m256 out[3]) noexcept {
  const __m256 px = _mm256_permutevar8x32_ps(v.x, index8(0, 3, 6, 1, 4, 7, 2, 5));
  const __m256 py = _mm256_permutevar8x32_ps(v.y, index8(5, 0, 3, 6, 1, 4, 7, 2));
  const __m256 pz = _mm256_permutevar8x32_ps(v.z, index8(2, 5, 0, 3, 6, 1, 4, 7));
  out[0] = _mm256_blend_ps(_mm256_blend_ps(px, py, 0x92), pz, 0x24);
  out[1] = _mm256_blend_ps(_mm256_blend_ps(px, py, 0x24), pz, 0x49);
  out[2] = _mm256_blend_ps(_mm256_blend_ps(px, py, 0x49), pz, 0x92);
}

SV_AVX2 SV_INLINE Vec3x8 load_xyz(const float* p) noexcept {
  return deinterleave(_mm256_loadu_ps(p), _mm256_loadu_ps(p + 8), _mm256_loadu_ps(p + 16));
}

SV_AVX2 SV_INLINE void store_xyz(float* p, const Vec3x8& v) noexcept {
  __m256 out[3];
  interleave(v, out);
  _mm256_storeu_ps(p, out[0]);
  _mm256_storeu_ps(p + 8, out[1]);
  _mm256_storeu_ps(p + 16, out[2]);
}

// The 4 weights of 8 vertices, one register per slot: vertices i and i + 4 share a register
// (two 16-byte loads), then a 4x4 transpose within each half.
SV_AVX2 SV_INLINE void load_weights(const float* w, __m256 out[4]) noexcept {
  __m256 r[4];
  for (int i = 0; i < 4; ++i)
    r[i] = _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_loadu_ps(w + 4 * i)),
                                _mm_loadu_ps(w + 4 * (i + 4)), 1);
  const __m256 t0 = _mm256_unpacklo_ps(r[0], r[1]);  // v0w0 v1w0 v0w1 v1w1 | v4 v5
  const __m256 t1 = _mm256_unpackhi_ps(r[0], r[1]);  // v0w2 v1w2 v0w3 v1w3 | v4 v5
  const __m256 t2 = _mm256_unpacklo_ps(r[2], r[3]);  // v2w0 v3w0 v2w1 v3w1 | v6 v7
  const __m256 t3 = _mm256_unpackhi_ps(r[2], r[3]);
  out[0] = _mm256_shuffle_ps(t0, t2, _MM_SHUFFLE(1, 0, 1, 0));
  out[1] = _mm256_shuffle_ps(t0, t2, _MM_SHUFFLE(3, 2, 3, 2));
  out[2] = _mm256_shuffle_ps(t1, t3, _MM_SHUFFLE(1, 0, 1, 0));
  out[3] = _mm256_shuffle_ps(t1, t3, _MM_SHUFFLE(3, 2, 3, 2));
}

SV_AVX2 SV_INLINE __m256 bcast(const float* f) noexcept { return _mm256_broadcast_ss(f); }

// The stream I/O of skin8: float streams, or compact ones (skin/compact_streams.h; the
// lane-wise octahedral decode and encode as in skinning_avx512.cpp's CompactIo). Words are
// 4-byte units per vertex.
struct FloatIo8 {
  using Streams = RunStreams;
  using NormalIn = float;
  using NormalOut = float;
  static constexpr std::size_t kNormalInWords = 3, kNormalOutWords = 3, kWeightWords = 4;
  SV_AVX2 SV_INLINE static void weights(const float* w, __m256 out[4]) noexcept {
    load_weights(w, out);
  }
  SV_AVX2 SV_INLINE static Vec3x8 normals(const float* n) noexcept { return load_xyz(n); }
  // Unit normals: a 12-bit reciprocal square root and one Newton step.
  SV_AVX2 SV_INLINE static void store_normals(float* out_n, const Vec3x8& rn) noexcept {
    const __m256 len2 =
        _mm256_fmadd_ps(rn.z, rn.z, _mm256_fmadd_ps(rn.y, rn.y, _mm256_mul_ps(rn.x, rn.x)));
    // The estimate and its square stay normal floats for squared lengths in [2^-100, 2^100];
    // NaN, zero and extreme lengths take the exact route below.
    const int fast = _mm256_movemask_ps(
        _mm256_and_ps(_mm256_cmp_ps(len2, _mm256_set1_ps(0x1p-100f), _CMP_GE_OQ),
                      _mm256_cmp_ps(len2, _mm256_set1_ps(0x1p100f), _CMP_LE_OQ)));
    __m256 y = _mm256_rsqrt_ps(len2);
    const __m256 h = _mm256_mul_ps(_mm256_set1_ps(0.5f), len2);
    y = _mm256_mul_ps(y, _mm256_fnmadd_ps(h, _mm256_mul_ps(y, y), _mm256_set1_ps(1.5f)));
    store_xyz(out_n, {_mm256_mul_ps(rn.x, y), _mm256_mul_ps(rn.y, y), _mm256_mul_ps(rn.z, y)});
    if (__builtin_expect(fast != 0xFF, 0)) {
      alignas(32) float x[8], yv[8], z[8];
      _mm256_store_ps(x, rn.x);
      _mm256_store_ps(yv, rn.y);
      _mm256_store_ps(z, rn.z);
      for (int l = 0; l < 8; ++l) {
        if ((fast >> l) & 1) continue;
        // The reference's formula (skin_range_scalar).
        const float l2 = x[l] * x[l] + yv[l] * yv[l] + z[l] * z[l];
        const float sc = l2 > 0.0f ? 1.0f / std::sqrt(l2) : 0.0f;
        out_n[3 * l + 0] = x[l] * sc;
        out_n[3 * l + 1] = yv[l] * sc;
        out_n[3 * l + 2] = z[l] * sc;
      }
    }
  }
};

SV_AVX2 SV_INLINE __m256 abs8(__m256 a) noexcept {
  return _mm256_andnot_ps(_mm256_set1_ps(-0.0f), a);
}

// where a >= 0: t, else -t.
SV_AVX2 SV_INLINE __m256 signed_by(__m256 a, __m256 t) noexcept {
  const __m256 neg = _mm256_cmp_ps(a, _mm256_setzero_ps(), _CMP_NGE_UQ);
  return _mm256_xor_ps(t, _mm256_and_ps(neg, _mm256_set1_ps(-0.0f)));
}

struct CompactIo8 {
  using Streams = CompactRunStreams;
  using NormalIn = uint32_t;
  using NormalOut = uint32_t;
  static constexpr std::size_t kNormalInWords = 1, kNormalOutWords = 1, kWeightWords = 3;
  SV_AVX2 SV_INLINE static void weights(const float* w, __m256 out[4]) noexcept {
    const Vec3x8 w3 = load_xyz(w);
    out[0] = w3.x;
    out[1] = w3.y;
    out[2] = w3.z;
    out[3] = _mm256_sub_ps(_mm256_set1_ps(1.0f), _mm256_add_ps(_mm256_add_ps(w3.x, w3.y), w3.z));
  }
  SV_AVX2 SV_INLINE static Vec3x8 normals(const uint32_t* n) noexcept {
    const __m256i c = _mm256_loadu_si256(reinterpret_cast<const __m256i_u*>(n));
    const __m256 scale = _mm256_set1_ps(kOctScale), minus1 = _mm256_set1_ps(-1.0f);
    const __m256 x = _mm256_max_ps(
        _mm256_mul_ps(_mm256_cvtepi32_ps(_mm256_srai_epi32(_mm256_slli_epi32(c, 16), 16)), scale),
        minus1);
    const __m256 y =
        _mm256_max_ps(_mm256_mul_ps(_mm256_cvtepi32_ps(_mm256_srai_epi32(c, 16)), scale), minus1);
    const __m256 one = _mm256_set1_ps(1.0f);
    const __m256 ax = abs8(x), ay = abs8(y);
    const __m256 z = _mm256_sub_ps(_mm256_sub_ps(one, ax), ay);
    const __m256 low = _mm256_cmp_ps(z, _mm256_setzero_ps(), _CMP_LT_OQ);
    return {_mm256_blendv_ps(x, signed_by(x, _mm256_sub_ps(one, ay)), low),
            _mm256_blendv_ps(y, signed_by(y, _mm256_sub_ps(one, ax)), low), z};
  }
  SV_AVX2 SV_INLINE static void store_normals(uint32_t* out_n, const Vec3x8& rn) noexcept {
    const __m256 one = _mm256_set1_ps(1.0f);
    const __m256 l1 = _mm256_add_ps(_mm256_add_ps(abs8(rn.x), abs8(rn.y)), abs8(rn.z));
    const __m256 ok = _mm256_and_ps(_mm256_cmp_ps(l1, _mm256_set1_ps(kOctMinL1), _CMP_GE_OQ),
                                    _mm256_cmp_ps(l1, _mm256_set1_ps(0x1.fffffep127f), _CMP_LE_OQ));
    const __m256 inv = _mm256_div_ps(one, l1);
    const __m256 px = _mm256_mul_ps(rn.x, inv), py = _mm256_mul_ps(rn.y, inv);
    const __m256 low = _mm256_cmp_ps(rn.z, _mm256_setzero_ps(), _CMP_LT_OQ);
    const __m256 ox = _mm256_blendv_ps(px, signed_by(px, _mm256_sub_ps(one, abs8(py))), low);
    const __m256 oy = _mm256_blendv_ps(py, signed_by(py, _mm256_sub_ps(one, abs8(px))), low);
    const __m256 q = _mm256_set1_ps(32767.0f);
    const __m256i qx = _mm256_cvtps_epi32(_mm256_mul_ps(ox, q));
    const __m256i qy = _mm256_cvtps_epi32(_mm256_mul_ps(oy, q));
    const __m256i code = _mm256_and_si256(
        _mm256_castps_si256(ok), _mm256_or_si256(_mm256_and_si256(qx, _mm256_set1_epi32(0xffff)),
                                                 _mm256_slli_epi32(qy, 16)));
    _mm256_storeu_si256(reinterpret_cast<__m256i_u*>(out_n), code);
  }
};

// 8 whole vertices at the given streams (normals may be null). Packed bone layout as in
// skinning_avx512.cpp: K row r column c is f[8c + r], K's translation row r is f[8r + 3], N row
// r column c is f[8c + 4 + r].
template <class Io, bool kNormals>
SV_AVX2 SV_INLINE void skin8(const float* pos, const typename Io::NormalIn* nrm_in,
                             const float* wts, const float* const b[4], float* out_p,
                             typename Io::NormalOut* out_n) noexcept {
  __m256 w[4];
  Io::weights(wts, w);
  // Positions, then normals: 16 registers do not hold both at once (x y z, 4 weights, 3 sums,
  // 3 products for each) without spilling.
  const Vec3x8 p = load_xyz(pos);
  Vec3x8 rp{};
#pragma GCC unroll 4
  for (int i = 0; i < 4; ++i) {
    const float* f = b[i];
    __m256 qx = _mm256_fmadd_ps(p.x, bcast(f + 0), bcast(f + 3));
    __m256 qy = _mm256_fmadd_ps(p.x, bcast(f + 1), bcast(f + 11));
    __m256 qz = _mm256_fmadd_ps(p.x, bcast(f + 2), bcast(f + 19));
    qx = _mm256_fmadd_ps(p.y, bcast(f + 8), qx);
    qy = _mm256_fmadd_ps(p.y, bcast(f + 9), qy);
    qz = _mm256_fmadd_ps(p.y, bcast(f + 10), qz);
    qx = _mm256_fmadd_ps(p.z, bcast(f + 16), qx);
    qy = _mm256_fmadd_ps(p.z, bcast(f + 17), qy);
    qz = _mm256_fmadd_ps(p.z, bcast(f + 18), qz);
    if (i == 0) {
      rp = {_mm256_mul_ps(w[0], qx), _mm256_mul_ps(w[0], qy), _mm256_mul_ps(w[0], qz)};
    } else {
      rp.x = _mm256_fmadd_ps(w[i], qx, rp.x);
      rp.y = _mm256_fmadd_ps(w[i], qy, rp.y);
      rp.z = _mm256_fmadd_ps(w[i], qz, rp.z);
    }
  }
  store_xyz(out_p, rp);
  if constexpr (kNormals) {
    const Vec3x8 nrm = Io::normals(nrm_in);
    Vec3x8 rn{};
#pragma GCC unroll 4
    for (int i = 0; i < 4; ++i) {
      const float* f = b[i];
      __m256 nx = _mm256_mul_ps(nrm.x, bcast(f + 4));
      __m256 ny = _mm256_mul_ps(nrm.x, bcast(f + 5));
      __m256 nz = _mm256_mul_ps(nrm.x, bcast(f + 6));
      nx = _mm256_fmadd_ps(nrm.y, bcast(f + 12), nx);
      ny = _mm256_fmadd_ps(nrm.y, bcast(f + 13), ny);
      nz = _mm256_fmadd_ps(nrm.y, bcast(f + 14), nz);
      nx = _mm256_fmadd_ps(nrm.z, bcast(f + 20), nx);
      ny = _mm256_fmadd_ps(nrm.z, bcast(f + 21), ny);
      nz = _mm256_fmadd_ps(nrm.z, bcast(f + 22), nz);
      if (i == 0) {
        rn = {_mm256_mul_ps(w[0], nx), _mm256_mul_ps(w[0], ny), _mm256_mul_ps(w[0], nz)};
      } else {
        rn.x = _mm256_fmadd_ps(w[i], nx, rn.x);
        rn.y = _mm256_fmadd_ps(w[i], ny, rn.y);
        rn.z = _mm256_fmadd_ps(w[i], nz, rn.z);
      }
    }
    Io::store_normals(out_n, rn);
  }
}

// How many of keys[0, n) equal key (n <= 8), and the "same as the previous" bits, for 64-bit
// keys (4 x u16 joints) and 32-bit ones (compact streams' 4 x u8).
SV_AVX2 SV_INLINE std::size_t leading_equal8(const uint64_t* keys, std::size_t n,
                                             uint64_t key) noexcept {
  if (n == 8) {
    const __m256i k = _mm256_set1_epi64x(static_cast<long long>(key));
    const auto* p = reinterpret_cast<const __m256i_u*>(keys);
    const int lo =
        _mm256_movemask_pd(_mm256_castsi256_pd(_mm256_cmpeq_epi64(_mm256_loadu_si256(p), k)));
    const int hi =
        _mm256_movemask_pd(_mm256_castsi256_pd(_mm256_cmpeq_epi64(_mm256_loadu_si256(p + 1), k)));
    const auto equal = static_cast<uint32_t>(lo | (hi << 4));
    return static_cast<std::size_t>(__builtin_ctz(~equal));
  }
  std::size_t i = 0;
  while (i < n && key_at(keys, i) == key) ++i;
  return i;
}

SV_AVX2 SV_INLINE std::size_t leading_equal8(const uint32_t* keys, std::size_t n,
                                             uint32_t key) noexcept {
  if (n == 8) {
    const __m256i k = _mm256_set1_epi32(static_cast<int>(key));
    const __m256i e =
        _mm256_cmpeq_epi32(_mm256_loadu_si256(reinterpret_cast<const __m256i_u*>(keys)), k);
    const auto equal = static_cast<uint32_t>(_mm256_movemask_ps(_mm256_castsi256_ps(e)));
    return static_cast<std::size_t>(__builtin_ctz(~equal));
  }
  std::size_t i = 0;
  while (i < n && key_at(keys, i) == key) ++i;
  return i;
}

SV_AVX2 SV_INLINE uint64_t same_as_previous8(const uint64_t* keys, std::size_t v,
                                             std::size_t total) noexcept {
  uint64_t same = 0;
  std::size_t k = 0;
  // 4 comparisons per instruction while all 65 keys lie below total, one at a time after.
  for (; k < 64 && v + k + 4 < total; k += 4) {
    const auto* at = keys + v + k;
    const __m256i next = _mm256_loadu_si256(reinterpret_cast<const __m256i_u*>(at + 1));
    const __m256i here = _mm256_loadu_si256(reinterpret_cast<const __m256i_u*>(at));
    same |= static_cast<uint64_t>(
                _mm256_movemask_pd(_mm256_castsi256_pd(_mm256_cmpeq_epi64(next, here))))
            << k;
  }
  for (; k < 64 && v + k + 1 < total; ++k)
    if (key_at(keys, v + k + 1) == key_at(keys, v + k)) same |= uint64_t{1} << k;
  return same;
}

SV_AVX2 SV_INLINE uint64_t same_as_previous8(const uint32_t* keys, std::size_t v,
                                             std::size_t total) noexcept {
  uint64_t same = 0;
  std::size_t k = 0;
  for (; k < 64 && v + k + 8 < total; k += 8) {
    const auto* at = keys + v + k;
    const __m256i next = _mm256_loadu_si256(reinterpret_cast<const __m256i_u*>(at + 1));
    const __m256i here = _mm256_loadu_si256(reinterpret_cast<const __m256i_u*>(at));
    same |= static_cast<uint64_t>(
                _mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(next, here))))
            << k;
  }
  for (; k < 64 && v + k + 1 < total; ++k)
    if (key_at(keys, v + k + 1) == key_at(keys, v + k)) same |= uint64_t{1} << k;
  return same;
}

// The kernel for skin_runs (skinning_runs.h), over float (FloatIo8) or compact (CompactIo8)
// streams.
template <class Io>
struct Avx2LbsRuns {
  using Streams = typename Io::Streams;
  using Key = KeyOf<Streams>;
  static constexpr std::size_t kLanes = 8;

  template <bool kNormals>
  SV_AVX2 static void block(const Streams& s, const float* const b[4], std::size_t v,
                            std::size_t n) noexcept {
    constexpr std::size_t kIn = Io::kNormalInWords, kOut = Io::kNormalOutWords,
                          kW = Io::kWeightWords;
    const typename Io::NormalIn* nrm = kNormals ? s.normals + kIn * v : nullptr;
    typename Io::NormalOut* on = kNormals ? s.out_normals + kOut * v : nullptr;
    if (n == kLanes) {
      skin8<Io, kNormals>(s.positions + 3 * v, nrm, s.weights + kW * v, b, s.out_positions + 3 * v,
                          on);
      return;
    }
    // A partial block: its n vertices copied into zero-padded buffers and back, so nothing
    // past them is touched (the next vertices may be another thread's).
    alignas(32) float p[24] = {}, w[32] = {}, op[24];
    alignas(32) typename Io::NormalIn nn[8 * kIn] = {};
    alignas(32) typename Io::NormalOut onn[8 * kOut];
    std::memcpy(p, s.positions + 3 * v, 12 * n);
    if constexpr (kNormals) std::memcpy(nn, nrm, 4 * kIn * n);
    std::memcpy(w, s.weights + kW * v, 4 * kW * n);
    skin8<Io, kNormals>(p, nn, w, b, op, onn);
    std::memcpy(s.out_positions + 3 * v, op, 12 * n);
    if constexpr (kNormals) std::memcpy(on, onn, 4 * kOut * n);
  }

  SV_AVX2 static std::size_t leading_equal(const uint64_t* keys, std::size_t n,
                                           uint64_t key) noexcept {
    return leading_equal8(keys, n, key);
  }
  SV_AVX2 static std::size_t leading_equal(const uint32_t* keys, std::size_t n,
                                           uint32_t key) noexcept {
    return leading_equal8(keys, n, key);
  }
  SV_AVX2 static uint64_t same_as_previous(const uint64_t* keys, std::size_t v,
                                           std::size_t total) noexcept {
    return same_as_previous8(keys, v, total);
  }
  SV_AVX2 static uint64_t same_as_previous(const uint32_t* keys, std::size_t v,
                                           std::size_t total) noexcept {
    return same_as_previous8(keys, v, total);
  }
  template <bool kNormals>
  SV_AVX2 __attribute__((flatten)) static std::size_t run(const Streams& s, const float* const b[4],
                                                          Key key, std::size_t v,
                                                          std::size_t end) noexcept {
    return run_blocks<Avx2LbsRuns, kNormals>(s, b, key, v, end);
  }
  static void per_vertex(const SkinJob& job, const PackedBone* packed, std::size_t begin,
                         std::size_t end) noexcept {
    skin_range_avx2(job, packed, begin, end);
  }
};

using Avx2Runs = Avx2LbsRuns<FloatIo8>;

// ---- DQS and CoR (skinning_method_lanes.inc) ----------------------------------------------

struct Ln8 {
  using V = __m256;
  using M = __m256;  // all-ones lanes where true (compare results)
  struct Vec3 {
    V x, y, z;
  };
  static constexpr std::size_t kLanes = 8;
  SV_AVX2 SV_INLINE static V zero() noexcept { return _mm256_setzero_ps(); }
  SV_AVX2 SV_INLINE static V set1(float f) noexcept { return _mm256_set1_ps(f); }
  SV_AVX2 SV_INLINE static V bcast(const float* f) noexcept { return _mm256_broadcast_ss(f); }
  SV_AVX2 SV_INLINE static V add(V a, V b) noexcept { return _mm256_add_ps(a, b); }
  SV_AVX2 SV_INLINE static V sub(V a, V b) noexcept { return _mm256_sub_ps(a, b); }
  SV_AVX2 SV_INLINE static V mul(V a, V b) noexcept { return _mm256_mul_ps(a, b); }
  SV_AVX2 SV_INLINE static V max(V a, V b) noexcept { return _mm256_max_ps(a, b); }
  SV_AVX2 SV_INLINE static V fmadd(V a, V b, V c) noexcept { return _mm256_fmadd_ps(a, b, c); }
  SV_AVX2 SV_INLINE static V fmsub(V a, V b, V c) noexcept { return _mm256_fmsub_ps(a, b, c); }
  SV_AVX2 SV_INLINE static V fnmadd(V a, V b, V c) noexcept { return _mm256_fnmadd_ps(a, b, c); }
  SV_AVX2 SV_INLINE static M gt(V a, V b) noexcept { return _mm256_cmp_ps(a, b, _CMP_GT_OQ); }
  SV_AVX2 SV_INLINE static M ge(V a, V b) noexcept { return _mm256_cmp_ps(a, b, _CMP_GE_OQ); }
  SV_AVX2 SV_INLINE static M le(V a, V b) noexcept { return _mm256_cmp_ps(a, b, _CMP_LE_OQ); }
  SV_AVX2 SV_INLINE static M mand(M a, M b) noexcept { return _mm256_and_ps(a, b); }
  SV_AVX2 SV_INLINE static M mor(M a, M b) noexcept { return _mm256_or_ps(a, b); }
  SV_AVX2 SV_INLINE static M mnot(M a) noexcept {
    return _mm256_xor_ps(a, _mm256_castsi256_ps(_mm256_set1_epi32(-1)));
  }
  SV_AVX2 SV_INLINE static M mnone() noexcept { return _mm256_setzero_ps(); }
  SV_AVX2 SV_INLINE static unsigned bits(M m) noexcept {
    return static_cast<unsigned>(_mm256_movemask_ps(m));
  }
  SV_AVX2 SV_INLINE static V negate_where(M m, V v) noexcept {
    return _mm256_xor_ps(v, _mm256_and_ps(m, _mm256_set1_ps(-0.0f)));
  }
  SV_AVX2 SV_INLINE static V rsqrt_nr(V x) noexcept {
    const V y = _mm256_rsqrt_ps(x);
    const V h = _mm256_mul_ps(_mm256_set1_ps(0.5f), x);
    return _mm256_mul_ps(y, _mm256_fnmadd_ps(h, _mm256_mul_ps(y, y), _mm256_set1_ps(1.5f)));
  }
  SV_AVX2 SV_INLINE static void store(float* p, V v) noexcept { _mm256_store_ps(p, v); }
  SV_AVX2 SV_INLINE static Vec3 load_xyz(const float* p) noexcept {
    const Vec3x8 v = sv::detail::load_xyz(p);
    return {v.x, v.y, v.z};
  }
  SV_AVX2 SV_INLINE static void store_xyz(float* p, const Vec3& v) noexcept {
    sv::detail::store_xyz(p, Vec3x8{v.x, v.y, v.z});
  }
  SV_AVX2 SV_INLINE static void load_weights(const float* w, V out[4]) noexcept {
    sv::detail::load_weights(w, out);
  }
};

#define SV_LANES_INLINE SV_AVX2 SV_INLINE
#define SV_LANES_TARGET SV_AVX2
#include "skin/skinning_method_lanes.inc"
#undef SV_LANES_TARGET
#undef SV_LANES_INLINE

template <bool kCor>
struct Avx2MethodRuns {
  static constexpr std::size_t kLanes = 8;
  template <bool kNormals>
  SV_AVX2 static void block(const RunStreams& s, const float* const b[4], std::size_t v,
                            std::size_t n) noexcept {
    MethodLanes<Ln8>::run_block<kNormals, kCor>(s, b, v, n);
  }
  SV_AVX2 static std::size_t leading_equal(const uint64_t* keys, std::size_t n,
                                           uint64_t key) noexcept {
    return Avx2Runs::leading_equal(keys, n, key);
  }
  SV_AVX2 static uint64_t same_as_previous(const uint64_t* keys, std::size_t v,
                                           std::size_t total) noexcept {
    return Avx2Runs::same_as_previous(keys, v, total);
  }
  template <bool kNormals>
  SV_AVX2 __attribute__((flatten)) static std::size_t run(const RunStreams& s,
                                                          const float* const b[4], uint64_t key,
                                                          std::size_t v, std::size_t end) noexcept {
    return run_blocks<Avx2MethodRuns, kNormals>(s, b, key, v, end);
  }
  static void per_vertex(const SkinJob& job, const PackedBone*, std::size_t begin,
                         std::size_t end) noexcept {
    skin_range_method_scalar(job, begin, end);
  }
};

}  // namespace

void skin_range_avx2_8(const SkinJob& job, const PackedBone* packed, std::size_t begin,
                       std::size_t end) noexcept {
  skin_range8_runs<Ln8, Avx2Runs>(job, packed, begin, end);
}

void skin_range_avx2_method(const SkinJob& job, const PackedBone* packed, std::size_t begin,
                            std::size_t end) noexcept {
  if (begin >= end) return;
  const bool normals = job.out_normals != nullptr;
  if (job.method == SkinMethod::Cor) {
    if (normals)
      skin_runs<Avx2MethodRuns<true>, true>(job, packed, begin, end);
    else
      skin_runs<Avx2MethodRuns<true>, false>(job, packed, begin, end);
  } else if (normals) {
    skin_runs<Avx2MethodRuns<false>, true>(job, packed, begin, end);
  } else {
    skin_runs<Avx2MethodRuns<false>, false>(job, packed, begin, end);
  }
}

void skin_range_avx2_compact(const CompactJob& job, const PackedBone* packed, std::size_t begin,
                             std::size_t end) noexcept {
  if (begin >= end) return;
  if (job.out_normals != nullptr)
    skin_runs_compact<Avx2LbsRuns<CompactIo8>, true>(job, packed, begin, end);
  else
    skin_runs_compact<Avx2LbsRuns<CompactIo8>, false>(job, packed, begin, end);
}

void skin_range_avx2_runs(const SkinJob& job, const PackedBone* packed, std::size_t begin,
                          std::size_t end) noexcept {
  if (begin >= end) return;
  if (job.out_normals != nullptr)
    skin_runs<Avx2Runs, true>(job, packed, begin, end);
  else
    skin_runs<Avx2Runs, false>(job, packed, begin, end);
}

}  // namespace sv::detail

#endif  // x86
