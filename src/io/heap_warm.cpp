#include "io/heap_warm.h"

#include <malloc.h>

#include <pthread.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <limits>

#if defined(__SANITIZE_ADDRESS__)
#define SV_HEAP_WARM_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(leak_sanitizer)
#define SV_HEAP_WARM_SANITIZED 1
#endif
#endif
#ifndef SV_HEAP_WARM_SANITIZED
#define SV_HEAP_WARM_SANITIZED 0
#endif

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23  // Linux 5.14; an older kernel answers EINVAL and nothing happens
#endif

namespace sv {
namespace {

constexpr uint64_t kWarmMiB = uint64_t{1} << 20;
constexpr std::size_t kWarmPage = 4096;

struct WarmRange {
  uintptr_t begin = 0;
  std::size_t bytes = 0;
};

void* populate_range(void* arg) {
  const WarmRange r = *static_cast<WarmRange*>(arg);
  std::free(arg);
  // A few MiB per call: the call holds the address space's lock for reading, and the parser's
  // own brk and mmap calls wait for it between two.
  constexpr std::size_t kStep = 4 * kWarmMiB;
  for (std::size_t done = 0; done < r.bytes; done += kStep) {
    const std::size_t n = std::min(kStep, r.bytes - done);
    if (::madvise(reinterpret_cast<void*>(r.begin + done), n, MADV_POPULATE_WRITE) != 0) break;
  }
  return nullptr;
}

}  // namespace

void keep_heap() noexcept {
  ::mallopt(M_MMAP_MAX, 0);
  ::mallopt(M_TRIM_THRESHOLD, std::numeric_limits<int>::max());
}

std::size_t heap_warm_bytes(uint64_t file_bytes, unsigned times, uint64_t limit_bytes) noexcept {
  if (file_bytes < 8 * kWarmMiB) return 0;
  uint64_t w = std::min<uint64_t>(std::min<uint64_t>(times, 16) * file_bytes, 2048 * kWarmMiB);
  if (limit_bytes > 0) w = std::min(w, limit_bytes / 2);
  return static_cast<std::size_t>(w / kWarmPage * kWarmPage);
}

bool warm_heap_ahead(std::size_t bytes) noexcept {
  if (SV_HEAP_WARM_SANITIZED || bytes < 2 * kWarmPage) return false;
  // Under M_MMAP_MAX 0 the block comes from the heap's top; freed, it is the top chunk again,
  // kept (no trimming): the range stays mapped, and the parser's next blocks are carved from it.
  void* block = std::malloc(bytes);
  if (block == nullptr) return false;
  const uintptr_t begin = (reinterpret_cast<uintptr_t>(block) + kWarmPage - 1) & ~(kWarmPage - 1);
  std::free(block);
  auto* range = static_cast<WarmRange*>(std::malloc(sizeof(WarmRange)));
  if (range == nullptr) return false;
  *range = WarmRange{begin, bytes - 2 * kWarmPage};  // whole pages inside the block
  pthread_attr_t attr;
  if (::pthread_attr_init(&attr) != 0) {
    std::free(range);
    return false;
  }
  ::pthread_attr_setstacksize(&attr, 64 * 1024);  // it calls madvise only
  ::pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
  pthread_t thread;
  const bool started = ::pthread_create(&thread, &attr, populate_range, range) == 0;
  ::pthread_attr_destroy(&attr);
  if (!started) std::free(range);
  return started;
}

}  // namespace sv
