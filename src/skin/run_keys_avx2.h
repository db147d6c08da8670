// Internal to skin/: the AVX2 run kernels' key comparisons (skinning_runs.h's Kernel::
// leading_equal and Kernel::same_as_previous), for 64-bit keys (4 x u16 joints: RunStreams) and
// 32-bit ones (4 x u8: the compact streams). Shared by the float and compact kernels
// (skinning_avx2_runs.cpp, compact_methods_avx2.cpp), each built for the x86-64 baseline with
// these functions compiled for AVX2 by their target attribute, and always inlined into the
// kernels' run walks.
#pragma once

#include "skin/skinning_runs.h"

#if defined(__x86_64__) || defined(__i386__)

#include <cstddef>
#include <cstdint>

#include <immintrin.h>

#define SV_RUN_KEYS_AVX2 __attribute__((target("avx2,fma"))) inline __attribute__((always_inline))

namespace sv::detail {

// How many of keys[0, n) equal key (n <= 8).
SV_RUN_KEYS_AVX2 std::size_t leading_equal8(const uint64_t* keys, std::size_t n,
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

SV_RUN_KEYS_AVX2 std::size_t leading_equal8(const uint32_t* keys, std::size_t n,
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

// Bit i: keys[v + 1 + i] == keys[v + i], for keys below total.
SV_RUN_KEYS_AVX2 uint64_t same_as_previous8(const uint64_t* keys, std::size_t v,
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

SV_RUN_KEYS_AVX2 uint64_t same_as_previous8(const uint32_t* keys, std::size_t v,
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

}  // namespace sv::detail

#undef SV_RUN_KEYS_AVX2

#endif  // x86
