// Counts C++ heap allocations by replacing the global operator new, for the "no allocation per
// frame" tests. Include it in exactly one source file of a test program (the replacement is a
// definition). Under AddressSanitizer the sanitizer owns the allocation functions: nothing is
// replaced and SV_COUNT_ALLOCATIONS is 0 (the tests skip).
#pragma once

#include <atomic>
#include <cstdlib>
#include <new>

namespace sv::test {
inline std::atomic<long> g_allocations{0};
}

#if defined(__SANITIZE_ADDRESS__)
#define SV_COUNT_ALLOCATIONS 0
#else
#define SV_COUNT_ALLOCATIONS 1
// GCC sees through the replacement into free() and warns of a new/free mismatch.
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
void* operator new(std::size_t n) {
  ++sv::test::g_allocations;
  if (void* p = std::malloc(n == 0 ? 1 : n)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
#endif
