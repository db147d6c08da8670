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
//
// Compact streams (skin/compact_streams.h) take the same walk with a block of their own
// (Avx2CompactRuns, below): the matrix blended per lane from differences to bone 0, the normals
// decoded and encoded without a conversion per coordinate.
#include "skin/run_keys_avx2.h"
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

// The stream I/O of skin8 (float streams; the compact ones have a block of their own below,
// Avx2CompactRuns). Words are 4-byte units per vertex.
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

// The kernel for skin_runs (skinning_runs.h) over float streams (FloatIo8).
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

// ---- LBS over compact streams (skin/compact_streams.h) ------------------------------------
// Not the float kernel with a decoding front and an encoding back (the first way, 0.90-0.93x the
// float kernel's rate on an AVX2 CPU: BENCHMARKS.md round 27): the compact layout makes three
// things cheaper, and the block is written for them.
//  - The weights sum to 1 by construction (w3 = 1 - ((w0 + w1) + w2)), so a vertex's blended
//    matrix is K0 + w1 (K1 - K0) + w2 (K2 - K0) + w3 (K3 - K0): three multiply-adds per entry,
//    the differences made once per run. Each lane blends the matrix first and then transforms
//    (12 + 9 entries: 36 + 9 multiply-adds for the position, 27 + 9 for the normal, against 48
//    and 48 bone by bone). Bone 0 is the base because its weight is the largest (the importer's
//    order): its coefficient, 1 - (w1 + w2 + w3), carries fourth_weight's rounding (at most
//    2^-24), where the reference puts it on bone 3; a slot of weight 0 adds exactly nothing.
//  - The output normal only needs a direction, so the input's is decoded in integers, scaled
//    by 32767 (exact, no conversion and clamp per coordinate as floats), and the output's
//    octahedral fold is taken on the unnormalised vector: (|x| + |z|) sign(x) is l1 (1 - |y|/l1)
//    sign(x), so one division (32767 / l1) scales both coordinates, off the fold's path.
//  - Lanes whose blended normal has no usable L1 norm (zero, NaN, below 2^-100 or above 2^100)
//    take the reference's formula alone (compact_normal_exact): the rare case costs a branch.
// The codes differ from the reference loop's (decode, blend, oct_encode) only where the two
// roundings straddle a half step of the code grid: a neighbouring code.

// The 21 entries a lane blends, as offsets into a PackedBone (see skin8): K's rows (columns 0-2,
// then the translation), then N's rows.
constexpr int kCompactEntries = 21;
constexpr int kCompactEntry[kCompactEntries] = {0,  8, 16, 3,  1, 9,  17, 11, 2,  10, 18,
                                                19, 4, 12, 20, 5, 13, 21, 6,  14, 22};

// What a run of the compact kernel blends with: bone 0's packed floats and bones 1-3's
// differences from them (d[i][f] = b[i][f] - b[0][f] for i > 0), made 8 floats at a time. A
// block broadcasts each of an entry's 4 coefficients from here (CompactBones), or, on a run long
// enough to pay for it, takes them from a table where they are broadcast once per run
// (CompactTable: 84 registers' worth, each multiply-add of a block then takes its operand from
// memory instead of a broadcast of its own). The two give the same results.
struct CompactBones {
  alignas(32) float d[4][24];
  const float* const* b;  // the run's 4 packed bones (compact_normal_exact)
  SV_AVX2 SV_INLINE __m256 at(int e, int i) const noexcept {
    return _mm256_broadcast_ss(&d[i][kCompactEntry[e]]);
  }
};

struct CompactTable {
  __m256 c[kCompactEntries][4];
  const float* const* b;
  SV_AVX2 SV_INLINE __m256 at(int e, int i) const noexcept { return c[e][i]; }
};

SV_AVX2 SV_INLINE void make_bones(const float* const b[4], CompactBones& t) noexcept {
  for (int g = 0; g < 24; g += 8) {
    const __m256 k0 = _mm256_load_ps(b[0] + g);
    _mm256_store_ps(&t.d[0][g], k0);
    for (int i = 1; i < 4; ++i)
      _mm256_store_ps(&t.d[i][g], _mm256_sub_ps(_mm256_load_ps(b[i] + g), k0));
  }
  t.b = b;
}

SV_AVX2 SV_INLINE void make_table(const CompactBones& bones, CompactTable& t) noexcept {
  for (int e = 0; e < kCompactEntries; ++e)
    for (int i = 0; i < 4; ++i) t.c[e][i] = bones.at(e, i);
  t.b = bones.b;
}

// Entry e of the 8 lanes' blended matrices: ((K0 + w1 D1) + w2 D2) + w3 D3.
template <class Table>
SV_AVX2 SV_INLINE __m256 blended(const Table& t, int e, __m256 w1, __m256 w2, __m256 w3) noexcept {
  const __m256 m = _mm256_fmadd_ps(w1, t.at(e, 1), t.at(e, 0));
  return _mm256_fmadd_ps(w3, t.at(e, 3), _mm256_fmadd_ps(w2, t.at(e, 2), m));
}

// 8 octahedral codes decoded to vectors of L1 norm 32767 (oct_decode_raw's, scaled; exact in
// integers): x and y as stored (-32768 read as -32767), z = 32767 - |x| - |y|, and where z < 0
// the fold undone, x = (32767 - |y|) sign(x), y = (32767 - |x|) sign(y) (x and y are never 0
// there, so psign's "0 for 0" never applies).
SV_AVX2 SV_INLINE Vec3x8 oct_decode_scaled(const uint32_t* codes) noexcept {
  const __m256i c = _mm256_loadu_si256(reinterpret_cast<const __m256i_u*>(codes));
  const __m256i lowest = _mm256_set1_epi32(-32767), top = _mm256_set1_epi32(32767);
  const __m256i x = _mm256_max_epi32(_mm256_srai_epi32(_mm256_slli_epi32(c, 16), 16), lowest);
  const __m256i y = _mm256_max_epi32(_mm256_srai_epi32(c, 16), lowest);
  const __m256i rest_x = _mm256_sub_epi32(top, _mm256_abs_epi32(x));  // 32767 - |x|
  const __m256i rest_y = _mm256_sub_epi32(top, _mm256_abs_epi32(y));
  const __m256i z = _mm256_sub_epi32(rest_x, _mm256_abs_epi32(y));
  const __m256 folded = _mm256_castsi256_ps(z);  // sign bit: z < 0
  const __m256 fx = _mm256_blendv_ps(_mm256_castsi256_ps(x),
                                     _mm256_castsi256_ps(_mm256_sign_epi32(rest_y, x)), folded);
  const __m256 fy = _mm256_blendv_ps(_mm256_castsi256_ps(y),
                                     _mm256_castsi256_ps(_mm256_sign_epi32(rest_x, y)), folded);
  return {_mm256_cvtepi32_ps(_mm256_castps_si256(fx)), _mm256_cvtepi32_ps(_mm256_castps_si256(fy)),
          _mm256_cvtepi32_ps(z)};
}

SV_AVX2 SV_INLINE __m256 abs8(__m256 a) noexcept {
  return _mm256_andnot_ps(_mm256_set1_ps(-0.0f), a);
}

// where a >= 0 (or -0): t, else -t (sign_of in compact_streams.cpp).
SV_AVX2 SV_INLINE __m256 signed_by(__m256 a, __m256 t) noexcept {
  const __m256 neg = _mm256_cmp_ps(a, _mm256_setzero_ps(), _CMP_NGE_UQ);
  return _mm256_xor_ps(t, _mm256_and_ps(neg, _mm256_set1_ps(-0.0f)));
}

// A vertex's normal code by the reference's formula (skin_range_compact_scalar: the decoded
// normal, the 4 normal matrices blended with the stored weights, oct_encode), for a lane whose
// blended normal the vector encoder does not take. Packed N row r column c is f[8c + 4 + r].
__attribute__((noinline, cold)) uint32_t compact_normal_exact(const float* const b[4],
                                                              const float* w3,
                                                              uint32_t code) noexcept {
  const glm::vec3 w(w3[0], w3[1], w3[2]);
  const float w4[4] = {w.x, w.y, w.z, fourth_weight(w)};
  // lbs_vertex's sum: ((N0 w0 + N1 w1) + N2 w2) + N3 w3, entry by entry, then m n.
  glm::mat3 m;
  for (int c = 0; c < 3; ++c)
    for (int r = 0; r < 3; ++r) {
      m[c][r] = b[0][8 * c + 4 + r] * w4[0];
      for (int i = 1; i < 4; ++i) m[c][r] += b[i][8 * c + 4 + r] * w4[i];
    }
  return oct_encode(m * oct_decode_raw(code));
}

// The octahedral codes of 8 blended normals (any length): l1 = |x| + |y| + |z|; where z < 0 the
// fold (|x| + |z|) sign(x), (|y| + |z|) sign(y); both scaled by 32767 / l1 and rounded to
// nearest (even). z = -0 folds too: then the fold is the identity but for the sign of a zero.
template <class Table>
SV_AVX2 SV_INLINE void store_oct8(uint32_t* out, const Vec3x8& r, const Table& t, const float* wts,
                                  const uint32_t* codes) noexcept {
  const __m256 ax = abs8(r.x), ay = abs8(r.y), az = abs8(r.z);
  const __m256 l1 = _mm256_add_ps(_mm256_add_ps(ax, ay), az);
  // Lanes whose l1 and 32767 / l1 are normal floats; NaN fails both comparisons.
  const int fast =
      _mm256_movemask_ps(_mm256_and_ps(_mm256_cmp_ps(l1, _mm256_set1_ps(0x1p-100f), _CMP_GE_OQ),
                                       _mm256_cmp_ps(l1, _mm256_set1_ps(0x1p100f), _CMP_LE_OQ)));
  const __m256 scale = _mm256_div_ps(_mm256_set1_ps(32767.0f), l1);
  const __m256 fx = _mm256_blendv_ps(r.x, signed_by(r.x, _mm256_add_ps(ax, az)), r.z);
  const __m256 fy = _mm256_blendv_ps(r.y, signed_by(r.y, _mm256_add_ps(ay, az)), r.z);
  const __m256i qx = _mm256_cvtps_epi32(_mm256_mul_ps(fx, scale));
  const __m256i qy = _mm256_cvtps_epi32(_mm256_mul_ps(fy, scale));
  // (qx & 0xffff) | (qy << 16): the odd 16-bit words from qy's low half.
  _mm256_storeu_si256(reinterpret_cast<__m256i_u*>(out),
                      _mm256_blend_epi16(qx, _mm256_slli_epi32(qy, 16), 0xAA));
  if (__builtin_expect(fast != 0xFF, 0)) {
    for (int l = 0; l < 8; ++l)
      if (((fast >> l) & 1) == 0) out[l] = compact_normal_exact(t.b, wts + 3 * l, codes[l]);
  }
}

// 8 whole vertices of a run (normals may be null).
template <bool kNormals, class Table>
SV_AVX2 SV_INLINE void compact8(const float* pos, const uint32_t* nrm_in, const float* wts,
                                const Table& table, float* out_p, uint32_t* out_n) noexcept {
  // The table's address laundered per block: otherwise GCC hoists the 84 loads out of the run's
  // loop, and with 16 registers copies most of them from the table to other stack slots on
  // every block (~60 instructions a block).
  const Table* tp = &table;
  __asm__("" : "+r"(tp));
  const Table& t = *tp;
  const Vec3x8 w = load_xyz(wts);
  const __m256 w3 =
      _mm256_sub_ps(_mm256_set1_ps(1.0f), _mm256_add_ps(_mm256_add_ps(w.x, w.y), w.z));
  const Vec3x8 p = load_xyz(pos);
  // Row r: M[r][0] x + M[r][1] y + M[r][2] z + t[r], from the translation up.
  __m256 rp[3];
#pragma GCC unroll 3
  for (int r = 0; r < 3; ++r) {
    const int e = 4 * r;
    __m256 a =
        _mm256_fmadd_ps(blended(t, e + 2, w.y, w.z, w3), p.z, blended(t, e + 3, w.y, w.z, w3));
    a = _mm256_fmadd_ps(blended(t, e + 1, w.y, w.z, w3), p.y, a);
    rp[r] = _mm256_fmadd_ps(blended(t, e, w.y, w.z, w3), p.x, a);
  }
  store_xyz(out_p, {rp[0], rp[1], rp[2]});
  if constexpr (kNormals) {
    const Vec3x8 n = oct_decode_scaled(nrm_in);
    __m256 rn[3];
#pragma GCC unroll 3
    for (int r = 0; r < 3; ++r) {
      const int e = 12 + 3 * r;
      __m256 a = _mm256_mul_ps(blended(t, e + 2, w.y, w.z, w3), n.z);
      a = _mm256_fmadd_ps(blended(t, e + 1, w.y, w.z, w3), n.y, a);
      rn[r] = _mm256_fmadd_ps(blended(t, e, w.y, w.z, w3), n.x, a);
    }
    store_oct8(out_n, {rn[0], rn[1], rn[2]}, t, wts, nrm_in);
  }
}

// The kernel for skin_runs_compact (skinning_runs.h): a table per run, then its blocks.
struct Avx2CompactRuns {
  using Streams = CompactRunStreams;
  static constexpr std::size_t kLanes = 8;

  template <bool kNormals, class Table>
  SV_AVX2 static void block(const Streams& s, const Table& t, std::size_t v,
                            std::size_t n) noexcept {
    const uint32_t* nrm = kNormals ? s.normals + v : nullptr;
    uint32_t* on = kNormals ? s.out_normals + v : nullptr;
    if (n == kLanes) {
      compact8<kNormals>(s.positions + 3 * v, nrm, s.weights + 3 * v, t, s.out_positions + 3 * v,
                         on);
      return;
    }
    // A partial block through zero-padded copies, as Avx2LbsRuns::block.
    alignas(32) float p[24] = {}, w[24] = {}, op[24];
    alignas(32) uint32_t nn[8] = {}, onn[8];
    std::memcpy(p, s.positions + 3 * v, 12 * n);
    if constexpr (kNormals) std::memcpy(nn, nrm, 4 * n);
    std::memcpy(w, s.weights + 3 * v, 12 * n);
    compact8<kNormals>(p, nn, w, t, op, onn);
    std::memcpy(s.out_positions + 3 * v, op, 12 * n);
    if constexpr (kNormals) std::memcpy(on, onn, 4 * n);
  }
  SV_AVX2 static std::size_t leading_equal(const uint32_t* keys, std::size_t n,
                                           uint32_t key) noexcept {
    return leading_equal8(keys, n, key);
  }
  SV_AVX2 static uint64_t same_as_previous(const uint32_t* keys, std::size_t v,
                                           std::size_t total) noexcept {
    return same_as_previous8(keys, v, total);
  }
  template <bool kNormals>
  SV_AVX2 __attribute__((flatten)) static std::size_t run(const Streams& s, const float* const b[4],
                                                          uint32_t key, std::size_t v,
                                                          std::size_t end) noexcept {
    CompactBones bones;
    make_bones(b, bones);
    // A run that lasts 3 blocks more (a guess from one key: only the speed depends on it) makes
    // the table; a shorter one broadcasts per block (the table's 84 stores cost about a block).
    if (end - v >= 3 * kLanes && key_at(s.joints, v + 3 * kLanes - 1) == key) {
      CompactTable t;
      make_table(bones, t);
      return run_blocks<Avx2CompactRuns, kNormals>(s, t, key, v, end);
    }
    return run_blocks<Avx2CompactRuns, kNormals>(s, bones, key, v, end);
  }
};

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
    skin_runs_compact<Avx2CompactRuns, true>(job, packed, begin, end);
  else
    skin_runs_compact<Avx2CompactRuns, false>(job, packed, begin, end);
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
