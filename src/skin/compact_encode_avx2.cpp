// oct_encode_best (compact_streams.cpp) four normals at a time with AVX2, for the import worker's
// encoding of every normal of a model (BENCHMARKS.md round 26). The codes must equal the scalar
// encoder's bit for bit (stored codes are what the GPU/CPU exactness tests compare), so every
// float and double operation is the scalar one in the same order: this file is compiled with
// -ffp-contract=off (src/skin/CMakeLists.txt), because GCC would otherwise fuse the intrinsics'
// multiplies and adds into FMAs, which round once where the scalar code (x86-64 baseline, no
// FMA) rounds twice.
#include "skin/compact_streams.h"
#include "skin/skinning_kernels.h"

#if defined(__x86_64__) || defined(__i386__)

#include <cfloat>

#include <immintrin.h>

#define SV_AVX2 __attribute__((target("avx2,fma")))

namespace sv::detail {

namespace {

SV_AVX2 inline __attribute__((always_inline)) __m128 abs_enc(__m128 a) noexcept {
  return _mm_andnot_ps(_mm_set1_ps(-0.0f), a);
}

// sign_of: 1 where a >= 0 (-0 included), else -1 (NaN included).
SV_AVX2 inline __attribute__((always_inline)) __m128 sign_enc(__m128 a) noexcept {
  return _mm_blendv_ps(_mm_set1_ps(-1.0f), _mm_set1_ps(1.0f),
                       _mm_cmp_ps(a, _mm_setzero_ps(), _CMP_GE_OQ));
}

// decoded_coordinate: max(q * kOctScale, -1) (q is never NaN, so max_ps is std::max).
SV_AVX2 inline __attribute__((always_inline)) __m128 coordinate_enc(__m128i q) noexcept {
  return _mm_max_ps(_mm_mul_ps(_mm_cvtepi32_ps(q), _mm_set1_ps(kOctScale)), _mm_set1_ps(-1.0f));
}

// One candidate: its decoded direction (decoded()), its (c.n)|c.n| and |c|^2 in double.
SV_AVX2 inline __attribute__((always_inline)) void candidate_enc(__m128 x, __m128 y, __m256d dx,
                                                                 __m256d dy, __m256d dz,
                                                                 __m256d* num,
                                                                 __m256d* den) noexcept {
  const __m128 one = _mm_set1_ps(1.0f);
  const __m128 ax = abs_enc(x), ay = abs_enc(y);
  const __m128 z = _mm_sub_ps(_mm_sub_ps(one, ax), ay);
  const __m128 lower = _mm_cmp_ps(z, _mm_setzero_ps(), _CMP_LT_OQ);
  const __m128 cx = _mm_blendv_ps(x, _mm_mul_ps(_mm_sub_ps(one, ay), sign_enc(x)), lower);
  const __m128 cy = _mm_blendv_ps(y, _mm_mul_ps(_mm_sub_ps(one, ax), sign_enc(y)), lower);
  const __m256d px = _mm256_cvtps_pd(cx), py = _mm256_cvtps_pd(cy), pz = _mm256_cvtps_pd(z);
  // glm::dot: (x*x' + y*y') + z*z'.
  const __m256d dot = _mm256_add_pd(_mm256_add_pd(_mm256_mul_pd(px, dx), _mm256_mul_pd(py, dy)),
                                    _mm256_mul_pd(pz, dz));
  *num = _mm256_mul_pd(dot, _mm256_andnot_pd(_mm256_set1_pd(-0.0), dot));
  *den = _mm256_add_pd(_mm256_add_pd(_mm256_mul_pd(px, px), _mm256_mul_pd(py, py)),
                       _mm256_mul_pd(pz, pz));
}

}  // namespace

SV_AVX2 void oct_encode_best_avx2(const glm::vec3* normals, uint32_t* codes,
                                  std::size_t count) noexcept {
  const __m128 one = _mm_set1_ps(1.0f), zero = _mm_setzero_ps();
  const __m128i lo = _mm_set1_epi32(-32767), hi = _mm_set1_epi32(32767);
  // Lanes 0, 2, 4, 6 of a double compare: its 4 results as 32-bit masks.
  const __m256i evens = _mm256_setr_epi32(0, 2, 4, 6, 0, 2, 4, 6);
  std::size_t v = 0;
  for (; v + 4 <= count; v += 4) {
    const float* p = &normals[v].x;
    const __m128 nx = _mm_setr_ps(p[0], p[3], p[6], p[9]);
    const __m128 ny = _mm_setr_ps(p[1], p[4], p[7], p[10]);
    const __m128 nz = _mm_setr_ps(p[2], p[5], p[8], p[11]);
    // l1_normalised; a lane without a direction (or with NaN / inf) encodes as 0, below.
    const __m128 l1 = _mm_add_ps(_mm_add_ps(abs_enc(nx), abs_enc(ny)), abs_enc(nz));
    const __m128 valid = _mm_and_ps(_mm_cmp_ps(l1, _mm_set1_ps(kOctMinL1), _CMP_GE_OQ),
                                    _mm_cmp_ps(l1, _mm_set1_ps(FLT_MAX), _CMP_LE_OQ));
    const __m128 inv = _mm_div_ps(one, l1);
    const __m128 px = _mm_mul_ps(nx, inv), py = _mm_mul_ps(ny, inv);
    // fold
    const __m128 lower = _mm_cmp_ps(nz, zero, _CMP_LT_OQ);
    const __m128 fx =
        _mm_blendv_ps(px, _mm_mul_ps(_mm_sub_ps(one, abs_enc(py)), sign_enc(px)), lower);
    const __m128 fy =
        _mm_blendv_ps(py, _mm_mul_ps(_mm_sub_ps(one, abs_enc(px)), sign_enc(py)), lower);
    const __m128 k = _mm_set1_ps(32767.0f);
    const __m128i ix = _mm_cvttps_epi32(_mm_floor_ps(_mm_mul_ps(fx, k)));
    const __m128i iy = _mm_cvttps_epi32(_mm_floor_ps(_mm_mul_ps(fy, k)));
    const __m128i one_i = _mm_set1_epi32(1);
    const __m128i qx0 = _mm_min_epi32(_mm_max_epi32(ix, lo), hi);
    const __m128i qx1 = _mm_min_epi32(_mm_max_epi32(_mm_add_epi32(ix, one_i), lo), hi);
    const __m128i qy0 = _mm_min_epi32(_mm_max_epi32(iy, lo), hi);
    const __m128i qy1 = _mm_min_epi32(_mm_max_epi32(_mm_add_epi32(iy, one_i), lo), hi);
    const __m128 x0 = coordinate_enc(qx0), x1 = coordinate_enc(qx1);
    const __m128 y0 = coordinate_enc(qy0), y1 = coordinate_enc(qy1);
    const __m256d dx = _mm256_cvtps_pd(nx), dy = _mm256_cvtps_pd(ny), dz = _mm256_cvtps_pd(nz);
    // pack(): the low 16 bits of x, y above them.
    const __m128i mask16 = _mm_set1_epi32(0xffff);
    const __m128i cx0 = _mm_and_si128(qx0, mask16), cx1 = _mm_and_si128(qx1, mask16);
    const __m128i cy0 = _mm_slli_epi32(qy0, 16), cy1 = _mm_slli_epi32(qy1, 16);
    // The candidates in the scalar order (x0 y0) (x1 y0) (x0 y1) (x1 y1); a later one replaces
    // the best only when strictly nearer, as there.
    __m256d num_b, den_b;
    candidate_enc(x0, y0, dx, dy, dz, &num_b, &den_b);
    __m128i code_b = _mm_or_si128(cx0, cy0);
    const __m128 xs[3] = {x1, x0, x1}, ys[3] = {y0, y1, y1};
    const __m128i codes_k[3] = {_mm_or_si128(cx1, cy0), _mm_or_si128(cx0, cy1),
                                _mm_or_si128(cx1, cy1)};
    for (int c = 0; c < 3; ++c) {
      __m256d num, den;
      candidate_enc(xs[c], ys[c], dx, dy, dz, &num, &den);
      const __m256d better =
          _mm256_cmp_pd(_mm256_mul_pd(num, den_b), _mm256_mul_pd(num_b, den), _CMP_GT_OQ);
      num_b = _mm256_blendv_pd(num_b, num, better);
      den_b = _mm256_blendv_pd(den_b, den, better);
      const __m128i better32 =
          _mm256_castsi256_si128(_mm256_permutevar8x32_epi32(_mm256_castpd_si256(better), evens));
      code_b = _mm_blendv_epi8(code_b, codes_k[c], better32);
    }
    _mm_storeu_si128(reinterpret_cast<__m128i_u*>(codes + v),
                     _mm_and_si128(code_b, _mm_castps_si128(valid)));
  }
  for (; v < count; ++v) codes[v] = oct_encode_best(normals[v]);
}

}  // namespace sv::detail

#endif
