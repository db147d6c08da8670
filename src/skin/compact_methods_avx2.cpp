// DQS and CoR over the compact streams with AVX2 (skin_compact, skinning.h; the layout:
// compact_streams.h).
//
// The kernel walks the runs of vertices that share their 4 joints (skinning_runs.h's walk_runs,
// over the compact streams' 32-bit keys) and skins each block of 8 with the float kernels' own
// lanes (skinning_method_lanes.inc's MethodLanes::block_with, the run's bones as constants): per
// block the 3 stored weights go into lanes and the 4th is 1 - ((w0 + w1) + w2), the 8 normal
// codes are decoded into the lanes and the 8 output normals encoded from them. Vertices in short
// runs take the scalar loop (compact_methods.cpp), as the float kernels' take theirs. Which path
// a vertex takes depends on its whole run only, so skin_compact_parallel's chunks give the same
// results as one thread.
//
// The normals need only a direction (the methods' normal transform is linear, and the code keeps
// a direction), so as the LBS run kernel (skinning_avx2_runs.cpp) the input codes are decoded in
// integers scaled by 32767 (exact), the output is not normalised (no square root), and its fold
// is taken on the unnormalised vector with one division by its L1 norm: at most a neighbouring
// code of oct_encode's (tests/skin/compact_methods_test.cpp); lanes with no usable L1 norm take
// oct_encode itself. The lanes use explicit FMA intrinsics as in the float kernels; the file is
// built with -ffp-contract=off (skin/CMakeLists.txt), so nothing else is fused.
#include "skin/run_keys_avx2.h"
#include "skin/skinning_runs.h"

#if defined(__x86_64__) || defined(__i386__)

#include <algorithm>
#include <cstring>

#include <immintrin.h>

namespace sv::detail {
namespace {

#define SV_OCT_AVX2 __attribute__((target("avx2,fma")))
#define SV_OCT_INLINE inline __attribute__((always_inline))

SV_OCT_AVX2 SV_OCT_INLINE __m256i oct_index8(int i0, int i1, int i2, int i3, int i4, int i5, int i6,
                                             int i7) noexcept {
  return _mm256_setr_epi32(i0, i1, i2, i3, i4, i5, i6, i7);
}

// 8 xyz triples <-> 3 registers of x, y, z (as skinning_avx2_runs.cpp's load_xyz/store_xyz).
SV_OCT_AVX2 SV_OCT_INLINE void oct_load_xyz(const float* p, __m256* x, __m256* y,
                                            __m256* z) noexcept {
  const __m256 a = _mm256_loadu_ps(p), b = _mm256_loadu_ps(p + 8), c = _mm256_loadu_ps(p + 16);
  const __m256 tx = _mm256_blend_ps(_mm256_blend_ps(a, b, 0x92), c, 0x24);
  const __m256 ty = _mm256_blend_ps(_mm256_blend_ps(a, b, 0x24), c, 0x49);
  const __m256 tz = _mm256_blend_ps(_mm256_blend_ps(a, b, 0x49), c, 0x92);
  *x = _mm256_permutevar8x32_ps(tx, oct_index8(0, 3, 6, 1, 4, 7, 2, 5));
  *y = _mm256_permutevar8x32_ps(ty, oct_index8(1, 4, 7, 2, 5, 0, 3, 6));
  *z = _mm256_permutevar8x32_ps(tz, oct_index8(2, 5, 0, 3, 6, 1, 4, 7));
}

SV_OCT_AVX2 SV_OCT_INLINE void oct_store_xyz(float* p, __m256 x, __m256 y, __m256 z) noexcept {
  const __m256 px = _mm256_permutevar8x32_ps(x, oct_index8(0, 3, 6, 1, 4, 7, 2, 5));
  const __m256 py = _mm256_permutevar8x32_ps(y, oct_index8(5, 0, 3, 6, 1, 4, 7, 2));
  const __m256 pz = _mm256_permutevar8x32_ps(z, oct_index8(2, 5, 0, 3, 6, 1, 4, 7));
  _mm256_storeu_ps(p, _mm256_blend_ps(_mm256_blend_ps(px, py, 0x92), pz, 0x24));
  _mm256_storeu_ps(p + 8, _mm256_blend_ps(_mm256_blend_ps(px, py, 0x24), pz, 0x49));
  _mm256_storeu_ps(p + 16, _mm256_blend_ps(_mm256_blend_ps(px, py, 0x49), pz, 0x92));
}

SV_OCT_AVX2 SV_OCT_INLINE __m256 oct_abs8(__m256 a) noexcept {
  return _mm256_andnot_ps(_mm256_set1_ps(-0.0f), a);
}

// where a >= 0: t, else -t (s(a) t of compact_streams.h; NaN counts as negative there too).
SV_OCT_AVX2 SV_OCT_INLINE __m256 oct_signed_by(__m256 a, __m256 t) noexcept {
  const __m256 neg = _mm256_cmp_ps(a, _mm256_setzero_ps(), _CMP_NGE_UQ);
  return _mm256_xor_ps(t, _mm256_and_ps(neg, _mm256_set1_ps(-0.0f)));
}

}  // namespace

namespace {

// ---- The lanes (the float kernels' Ln8, skinning_avx2_runs.cpp) -------------------------

SV_OCT_AVX2 SV_OCT_INLINE void oct_load_weights(const float* w, __m256 out[4]) noexcept {
  __m256 r[4];
  for (int i = 0; i < 4; ++i)
    r[i] = _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_loadu_ps(w + 4 * i)),
                                _mm_loadu_ps(w + 4 * (i + 4)), 1);
  const __m256 t0 = _mm256_unpacklo_ps(r[0], r[1]), t1 = _mm256_unpackhi_ps(r[0], r[1]);
  const __m256 t2 = _mm256_unpacklo_ps(r[2], r[3]), t3 = _mm256_unpackhi_ps(r[2], r[3]);
  out[0] = _mm256_shuffle_ps(t0, t2, _MM_SHUFFLE(1, 0, 1, 0));
  out[1] = _mm256_shuffle_ps(t0, t2, _MM_SHUFFLE(3, 2, 3, 2));
  out[2] = _mm256_shuffle_ps(t1, t3, _MM_SHUFFLE(1, 0, 1, 0));
  out[3] = _mm256_shuffle_ps(t1, t3, _MM_SHUFFLE(3, 2, 3, 2));
}

struct CompactLn8 {
  using V = __m256;
  using M = __m256;  // all-ones lanes where true (compare results)
  struct Vec3 {
    V x, y, z;
  };
  static constexpr std::size_t kLanes = 8;
  SV_OCT_AVX2 SV_OCT_INLINE static V zero() noexcept { return _mm256_setzero_ps(); }
  SV_OCT_AVX2 SV_OCT_INLINE static V set1(float f) noexcept { return _mm256_set1_ps(f); }
  SV_OCT_AVX2 SV_OCT_INLINE static V bcast(const float* f) noexcept {
    return _mm256_broadcast_ss(f);
  }
  SV_OCT_AVX2 SV_OCT_INLINE static V add(V a, V b) noexcept { return _mm256_add_ps(a, b); }
  SV_OCT_AVX2 SV_OCT_INLINE static V sub(V a, V b) noexcept { return _mm256_sub_ps(a, b); }
  SV_OCT_AVX2 SV_OCT_INLINE static V mul(V a, V b) noexcept { return _mm256_mul_ps(a, b); }
  SV_OCT_AVX2 SV_OCT_INLINE static V max(V a, V b) noexcept { return _mm256_max_ps(a, b); }
  SV_OCT_AVX2 SV_OCT_INLINE static V fmadd(V a, V b, V c) noexcept {
    return _mm256_fmadd_ps(a, b, c);
  }
  SV_OCT_AVX2 SV_OCT_INLINE static V fmsub(V a, V b, V c) noexcept {
    return _mm256_fmsub_ps(a, b, c);
  }
  SV_OCT_AVX2 SV_OCT_INLINE static V fnmadd(V a, V b, V c) noexcept {
    return _mm256_fnmadd_ps(a, b, c);
  }
  SV_OCT_AVX2 SV_OCT_INLINE static M gt(V a, V b) noexcept {
    return _mm256_cmp_ps(a, b, _CMP_GT_OQ);
  }
  SV_OCT_AVX2 SV_OCT_INLINE static M ge(V a, V b) noexcept {
    return _mm256_cmp_ps(a, b, _CMP_GE_OQ);
  }
  SV_OCT_AVX2 SV_OCT_INLINE static M le(V a, V b) noexcept {
    return _mm256_cmp_ps(a, b, _CMP_LE_OQ);
  }
  SV_OCT_AVX2 SV_OCT_INLINE static M mand(M a, M b) noexcept { return _mm256_and_ps(a, b); }
  SV_OCT_AVX2 SV_OCT_INLINE static M mor(M a, M b) noexcept { return _mm256_or_ps(a, b); }
  SV_OCT_AVX2 SV_OCT_INLINE static M mnot(M a) noexcept {
    return _mm256_xor_ps(a, _mm256_castsi256_ps(_mm256_set1_epi32(-1)));
  }
  SV_OCT_AVX2 SV_OCT_INLINE static M mnone() noexcept { return _mm256_setzero_ps(); }
  SV_OCT_AVX2 SV_OCT_INLINE static unsigned bits(M m) noexcept {
    return static_cast<unsigned>(_mm256_movemask_ps(m));
  }
  SV_OCT_AVX2 SV_OCT_INLINE static V negate_where(M m, V v) noexcept {
    return _mm256_xor_ps(v, _mm256_and_ps(m, _mm256_set1_ps(-0.0f)));
  }
  SV_OCT_AVX2 SV_OCT_INLINE static V rsqrt_nr(V x) noexcept {
    const V y = _mm256_rsqrt_ps(x);
    const V h = _mm256_mul_ps(_mm256_set1_ps(0.5f), x);
    return _mm256_mul_ps(y, _mm256_fnmadd_ps(h, _mm256_mul_ps(y, y), _mm256_set1_ps(1.5f)));
  }
  SV_OCT_AVX2 SV_OCT_INLINE static void store(float* p, V v) noexcept { _mm256_store_ps(p, v); }
  SV_OCT_AVX2 SV_OCT_INLINE static Vec3 load_xyz(const float* p) noexcept {
    Vec3 v;
    oct_load_xyz(p, &v.x, &v.y, &v.z);
    return v;
  }
  SV_OCT_AVX2 SV_OCT_INLINE static void store_xyz(float* p, const Vec3& v) noexcept {
    oct_store_xyz(p, v.x, v.y, v.z);
  }
  SV_OCT_AVX2 SV_OCT_INLINE static void load_weights(const float* w, V out[4]) noexcept {
    oct_load_weights(w, out);
  }
};

#define SV_LANES_INLINE SV_OCT_AVX2 SV_OCT_INLINE
#define SV_LANES_TARGET SV_OCT_AVX2
#include "skin/skinning_method_lanes.inc"
#undef SV_LANES_TARGET
#undef SV_LANES_INLINE

// The compact streams DQS and CoR read: CompactRunStreams' and the centres.
struct CompactMethodStreams {
  const float* positions;
  const uint32_t* normals;  // null: positions only
  const uint32_t* joints;   // u8 x4 per vertex: one 32-bit key
  const float* weights;     // 3 per vertex
  float* out_positions;
  uint32_t* out_normals;
  const float* centers;  // CoR only
};

// The 8 codes at `codes` decoded to vectors of L1 norm 32767 (oct_decode_raw's direction,
// scaled; exact in integers, as skinning_avx2_runs.cpp's oct_decode_scaled): x and y as stored
// (-32768 read as -32767), z = 32767 - |x| - |y|, and where z < 0 the fold undone,
// x = (32767 - |y|) sign(x), y = (32767 - |x|) sign(y) (x and y are never 0 there, so psign's
// "0 for 0" never applies). The methods' normal transform (the blended stretch's cofactor, the
// rotation) is linear and the output keeps only a direction, so the scale changes nothing but
// rounding.
SV_OCT_AVX2 SV_OCT_INLINE CompactLn8::Vec3 decode8_scaled(const uint32_t* codes) noexcept {
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

// oct_encode of the lanes that encode8_direction leaves to it (bit l of `fast` clear).
__attribute__((noinline, cold)) void encode_lanes_exactly(const float* x, const float* y,
                                                          const float* z, unsigned fast,
                                                          uint32_t* codes) noexcept {
  for (int l = 0; l < 8; ++l)
    if (((fast >> l) & 1u) == 0) codes[l] = oct_encode(glm::vec3(x[l], y[l], z[l]));
}

// The octahedral codes of 8 vectors of any length (as skinning_avx2_runs.cpp's store_oct8):
// l1 = |x| + |y| + |z|; where z < 0 the fold taken on the unnormalised vector,
// (|x| + |z|) sign(x) = l1 (1 - |y| / l1) sign(x) and likewise for y; both scaled by 32767 / l1
// (one division, off the fold's chain) and rounded to nearest (even). oct_encode's value
// rounded differently: the same code or a neighbour. Lanes whose l1 or 32767 / l1 is not a
// normal float (zero, tiny, huge, not finite) take oct_encode itself.
SV_OCT_AVX2 SV_OCT_INLINE void encode8_direction(const CompactLn8::Vec3& n,
                                                 uint32_t* codes) noexcept {
  const __m256 ax = oct_abs8(n.x), ay = oct_abs8(n.y), az = oct_abs8(n.z);
  const __m256 l1 = _mm256_add_ps(_mm256_add_ps(ax, ay), az);
  // NaN fails both comparisons.
  const auto fast = static_cast<unsigned>(
      _mm256_movemask_ps(_mm256_and_ps(_mm256_cmp_ps(l1, _mm256_set1_ps(0x1p-100f), _CMP_GE_OQ),
                                       _mm256_cmp_ps(l1, _mm256_set1_ps(0x1p100f), _CMP_LE_OQ))));
  const __m256 scale = _mm256_div_ps(_mm256_set1_ps(32767.0f), l1);
  // z's sign bit picks the fold (z = -0 folds too: then the fold is x itself, but for a zero's
  // sign).
  const __m256 fx = _mm256_blendv_ps(n.x, oct_signed_by(n.x, _mm256_add_ps(ax, az)), n.z);
  const __m256 fy = _mm256_blendv_ps(n.y, oct_signed_by(n.y, _mm256_add_ps(ay, az)), n.z);
  const __m256i qx = _mm256_cvtps_epi32(_mm256_mul_ps(fx, scale));
  const __m256i qy = _mm256_cvtps_epi32(_mm256_mul_ps(fy, scale));
  // (qx & 0xffff) | (qy << 16): the odd 16-bit words from qy's low half.
  _mm256_storeu_si256(reinterpret_cast<__m256i_u*>(codes),
                      _mm256_blend_epi16(qx, _mm256_slli_epi32(qy, 16), 0xAA));
  if (__builtin_expect(fast != 0xFFu, 0)) {
    alignas(32) float x[8], y[8], z[8];
    _mm256_store_ps(x, n.x), _mm256_store_ps(y, n.y), _mm256_store_ps(z, n.z);
    encode_lanes_exactly(x, y, z, fast, codes);
  }
}

// MethodLanes::block_with's normal functions for the compact streams.
struct DecodeCodes {
  const uint32_t* codes;
  SV_OCT_AVX2 SV_OCT_INLINE CompactLn8::Vec3 operator()() const noexcept {
    return decode8_scaled(codes);
  }
};
struct EncodeCodes {
  uint32_t* codes;
  SV_OCT_AVX2 SV_OCT_INLINE void operator()(const CompactLn8::Vec3& n) const noexcept {
    encode8_direction(n, codes);
  }
};

// The Kernel of walk_runs (skinning_runs.h) for DQS (kCor false) or CoR over compact streams.
template <bool kCor>
struct CompactMethodRuns {
  using ML = MethodLanes<CompactLn8>;
  static constexpr std::size_t kLanes = 8;

  // The run's 4 packed bones and what MethodLanes::signs works out from them once per run:
  // run_blocks passes it to every block of the run.
  struct RunBones {
    const float* const* b;
    unsigned flips[4];
    bool scaled;
  };

  // n <= 8 vertices from v: whole blocks in place, a partial one through zero-padded copies so
  // nothing past the n vertices is read or written (the next ones may be another thread's).
  template <bool kNormals>
  SV_OCT_AVX2 static void block(const CompactMethodStreams& s, const RunBones& r, std::size_t v,
                                std::size_t n) noexcept {
    const float* const* b = r.b;
    const unsigned* flips = r.flips;
    const bool scaled = r.scaled;
    // Not zeroed unless the block is partial: a whole block reads its vertices in place.
    alignas(32) float p[24], c[24], w3[24], op[24];
    alignas(32) uint32_t codes[8], out_codes[8];
    const float* pos = s.positions + 3 * v;
    const float* ctr = kCor ? s.centers + 3 * v : nullptr;
    const float* wts = s.weights + 3 * v;
    const uint32_t* in_codes = kNormals ? s.normals + v : nullptr;
    float* out_p = s.out_positions + 3 * v;
    uint32_t* out_n = kNormals ? s.out_normals + v : nullptr;
    const bool whole = n == kLanes;
    if (!whole) {
      // Zero weights, positions, centres and codes past n: finite results, never stored.
      std::memset(p, 0, sizeof p), std::memset(w3, 0, sizeof w3);
      std::memcpy(p, pos, 12 * n);
      std::memcpy(w3, wts, 12 * n);
      if constexpr (kCor) {
        std::memset(c, 0, sizeof c);
        std::memcpy(c, ctr, 12 * n);
      }
      if constexpr (kNormals) {
        std::memset(codes, 0, sizeof codes);
        std::memcpy(codes, in_codes, 4 * n);
      }
      pos = p, ctr = kCor ? c : nullptr, wts = w3, in_codes = codes, out_p = op, out_n = out_codes;
    }
    __m256 w[4];
    oct_load_xyz(wts, &w[0], &w[1], &w[2]);
    // fourth_weight: this order of operations (the scalar loop's, the GPU's).
    w[3] = _mm256_sub_ps(_mm256_set1_ps(1.0f), _mm256_add_ps(_mm256_add_ps(w[0], w[1]), w[2]));
    // The normals go from their codes into the lanes and back without a normalisation: the
    // encoder divides by the L1 norm anyway (encode8_direction).
    if (scaled)
      ML::template block_with<kNormals, kCor, true, 4>(pos, w, w, ctr, b, flips, out_p,
                                                       DecodeCodes{in_codes}, EncodeCodes{out_n});
    else
      ML::template block_with<kNormals, kCor, false, 4>(pos, w, w, ctr, b, flips, out_p,
                                                        DecodeCodes{in_codes}, EncodeCodes{out_n});
    if (!whole) {
      std::memcpy(s.out_positions + 3 * v, op, 12 * n);
      if constexpr (kNormals) std::memcpy(s.out_normals + v, out_codes, 4 * n);
    }
  }
  SV_OCT_AVX2 static std::size_t leading_equal(const uint32_t* keys, std::size_t n,
                                               uint32_t key) noexcept {
    return leading_equal8(keys, n, key);
  }
  SV_OCT_AVX2 static uint64_t same_as_previous(const uint32_t* keys, std::size_t v,
                                               std::size_t total) noexcept {
    return same_as_previous8(keys, v, total);
  }
  // run_blocks (skinning_runs.h) with the run's signs worked out once, not per block.
  template <bool kNormals>
  SV_OCT_AVX2 __attribute__((flatten)) static std::size_t run(const CompactMethodStreams& s,
                                                              const float* const b[4], uint32_t key,
                                                              std::size_t v,
                                                              std::size_t end) noexcept {
    RunBones r{b, {}, false};
    r.scaled = ML::signs(b, r.flips);
    return run_blocks<CompactMethodRuns, kNormals>(s, r, key, v, end);
  }
};

template <bool kCor, bool kNormals>
void compact_method_walk(const CompactMethodJob& job, const PackedBone* packed, std::size_t begin,
                         std::size_t end) noexcept {
  const CompactSkinInput& in = *job.in;
  const CompactMethodStreams s{&in.positions.data()->x,
                               kNormals ? in.normals.data() : nullptr,
                               reinterpret_cast<const uint32_t*>(in.joints8.data()),
                               &in.weights.data()->x,
                               &job.out_positions->x,
                               kNormals ? job.out_normals : nullptr,
                               kCor ? &in.centers.data()->x : nullptr};
  walk_runs<CompactMethodRuns<kCor>, kNormals>(
      s, in.joints8.size(), packed, begin, end,
      [&](std::size_t from, std::size_t to) { skin_range_compact_method_scalar(job, from, to); });
}

}  // namespace

// Whole blocks of 8 in place, the rest through a zero-padded block (as the kernel's partial
// blocks), so every vector takes the kernel's own operations.
SV_OCT_AVX2 void oct_decode_scaled_avx2(const uint32_t* codes, glm::vec3* out,
                                        std::size_t count) noexcept {
  for (std::size_t i = 0; i < count; i += 8) {
    const std::size_t n = std::min<std::size_t>(8, count - i);
    alignas(32) uint32_t in[8] = {};
    alignas(32) float xyz[24];
    std::memcpy(in, codes + i, 4 * n);
    const CompactLn8::Vec3 v = decode8_scaled(in);
    oct_store_xyz(xyz, v.x, v.y, v.z);
    std::memcpy(&out[i].x, xyz, 12 * n);
  }
}

SV_OCT_AVX2 void oct_encode_direction_avx2(const glm::vec3* normals, uint32_t* codes,
                                           std::size_t count) noexcept {
  for (std::size_t i = 0; i < count; i += 8) {
    const std::size_t n = std::min<std::size_t>(8, count - i);
    alignas(32) float xyz[24] = {};
    alignas(32) uint32_t out[8];
    std::memcpy(xyz, &normals[i].x, 12 * n);
    CompactLn8::Vec3 v;
    oct_load_xyz(xyz, &v.x, &v.y, &v.z);
    encode8_direction(v, out);
    std::memcpy(codes + i, out, 4 * n);
  }
}

void skin_range_avx2_compact_method(const CompactMethodJob& job, const PackedBone* packed,
                                    std::size_t begin, std::size_t end) noexcept {
  if (begin >= end) return;
  const bool normals = job.out_normals != nullptr;
  if (job.method == SkinMethod::Cor) {
    if (normals)
      compact_method_walk<true, true>(job, packed, begin, end);
    else
      compact_method_walk<true, false>(job, packed, begin, end);
  } else if (normals) {
    compact_method_walk<false, true>(job, packed, begin, end);
  } else {
    compact_method_walk<false, false>(job, packed, begin, end);
  }
}

}  // namespace sv::detail

#endif
