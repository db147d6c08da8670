// SV_SANITIZER_BUILD: 1 when this translation unit is built with AddressSanitizer or
// LeakSanitizer (GCC's __SANITIZE_ADDRESS__, clang's __has_feature), else 0. The places that must
// act otherwise under them: the worker's sandbox (ptrace, RLIMIT_NPROC), its exit (LeakSanitizer
// runs at a normal exit, not at _exit), the heap warm (the sanitizer's allocator has no such heap).
#pragma once

#if defined(__SANITIZE_ADDRESS__)
#define SV_SANITIZER_BUILD 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(leak_sanitizer)
#define SV_SANITIZER_BUILD 1
#endif
#endif
#ifndef SV_SANITIZER_BUILD
#define SV_SANITIZER_BUILD 0
#endif
