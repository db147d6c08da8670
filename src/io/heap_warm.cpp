#include "io/heap_warm.h"

#include <malloc.h>

#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <pthread.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstddef>
#include <cstdlib>
#include <limits>

#include "io/sanitizer_build.h"

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
// The range of the one warm a process starts (warm_heap_ahead: set before its thread starts, read
// by it alone), so the thread allocates nothing.
WarmRange g_range;

void* populate_range(void*) {
  // Confined first: the thread runs in the worker beside the parser of a hostile file, and the
  // worker's sandbox (landlock, seccomp) confines only the thread that sets it up.
  if (!confine_to_madvise()) return nullptr;
  const WarmRange r = g_range;
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

bool confine_to_madvise() noexcept {
#if defined(__x86_64__)
  constexpr uint32_t kArch = AUDIT_ARCH_X86_64;
#elif defined(__aarch64__)
  constexpr uint32_t kArch = AUDIT_ARCH_AARCH64;
#else
  return false;  // no filter written for this architecture: no thread started
#endif
#if defined(__x86_64__) || defined(__aarch64__)
  // Another architecture's calls, or a call not listed: refused (EPERM), never run.
#define SV_ALLOW(nr) \
  BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (nr), 0, 1), BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW)
  sock_filter filter[] = {
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, arch)),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, kArch, 1, 0),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM),
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, nr)),
      // What the warm calls, and what glibc's thread exit may (futex, the stack's madvise).
      SV_ALLOW(__NR_madvise),
      SV_ALLOW(__NR_futex),
      SV_ALLOW(__NR_exit),
      SV_ALLOW(__NR_exit_group),
      SV_ALLOW(__NR_rt_sigreturn),
      SV_ALLOW(__NR_rt_sigprocmask),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM),
  };
#undef SV_ALLOW
  const sock_fprog program{static_cast<unsigned short>(sizeof filter / sizeof filter[0]), filter};
  if (::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) return false;
  // Without SECCOMP_FILTER_FLAG_TSYNC: this thread only.
  return ::syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &program) == 0;
#endif
}

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
  static bool started_once = false;
  if (SV_SANITIZER_BUILD || bytes < 2 * kWarmPage || started_once) return false;
  started_once = true;  // one warm a process (g_range)
  // Under M_MMAP_MAX 0 the block comes from the heap's top; freed, it is the top chunk again,
  // kept (no trimming): the range stays mapped, and the parser's next blocks are carved from it.
  void* block = std::malloc(bytes);
  if (block == nullptr) return false;
  const uintptr_t begin = (reinterpret_cast<uintptr_t>(block) + kWarmPage - 1) & ~(kWarmPage - 1);
  std::free(block);
  g_range = WarmRange{begin, bytes - 2 * kWarmPage};  // whole pages inside the block
  pthread_attr_t attr;
  if (::pthread_attr_init(&attr) != 0) return false;
  ::pthread_attr_setstacksize(&attr, 64 * 1024);  // it calls madvise only
  ::pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
  pthread_t thread;
  const bool started = ::pthread_create(&thread, &attr, populate_range, nullptr) == 0;
  ::pthread_attr_destroy(&attr);
  return started;
}

}  // namespace sv
