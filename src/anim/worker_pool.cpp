#include "anim/worker_pool.h"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

namespace sv {

namespace {

inline void cpu_relax() noexcept {
#if defined(__x86_64__) || defined(__i386__)
  _mm_pause();
#endif
}

// How long a worker polls for the next job before it sleeps (tens of microseconds): a frame's
// next job rarely comes that soon, but a split job's parts often do, and a sleeping pool
// costs nothing.
constexpr int kSpins = 1 << 14;

}  // namespace

WorkerPool::WorkerPool(unsigned threads) : claimed_(threads > 1 ? threads - 1 : 0) {
  const unsigned extra = threads > 1 ? threads - 1 : 0;
  threads_.reserve(extra);
  for (unsigned i = 0; i < extra; ++i) threads_.emplace_back([this, i] { worker(i + 1); });
}

WorkerPool::~WorkerPool() {
  stop_.store(true, std::memory_order_relaxed);
  generation_.fetch_add(1, std::memory_order_release);
  generation_.notify_all();
  for (std::thread& t : threads_) t.join();
}

void WorkerPool::run(Task task, void* context) noexcept {
  const unsigned parts = size();
  if (parts == 1) {
    task(context, 0, 1);
    return;
  }
  task_ = task;
  context_ = context;
  pending_.store(parts - 1, std::memory_order_relaxed);
  // Released after task_ and context_: a worker that claims a part (acquire) sees them.
  for (std::atomic<uint32_t>& c : claimed_) c.store(0, std::memory_order_release);
  generation_.fetch_add(1, std::memory_order_release);  // publishes task_, context_, pending_
  generation_.notify_all();
  task(context, 0, parts);
  // Parts no worker has started yet are done here rather than waited for: on a machine busier
  // than it has cores, a woken worker can wait milliseconds for a core.
  for (unsigned part = 1; part < parts; ++part) {
    uint32_t unclaimed = 0;
    if (claimed_[part - 1].compare_exchange_strong(unclaimed, 1, std::memory_order_acq_rel)) {
      task(context, part, parts);
      pending_.fetch_sub(1, std::memory_order_acq_rel);
    }
  }
  // The caller spins until the other parts are done, without ever sleeping: a job is one
  // frame's work, so the wait is bounded by it, a futex wake-up would cost more than most
  // waits, and the caller's CPU time stays equal to the job's wall time (what the benchmarks
  // divide by).
  while (pending_.load(std::memory_order_acquire) != 0) cpu_relax();
}

void WorkerPool::worker(unsigned part) noexcept {
  uint32_t seen = 0;
  for (;;) {
    uint32_t gen = generation_.load(std::memory_order_acquire);
    for (int i = 0; i < kSpins && gen == seen; ++i) {
      cpu_relax();
      gen = generation_.load(std::memory_order_acquire);
    }
    while (gen == seen) {
      generation_.wait(seen, std::memory_order_acquire);
      gen = generation_.load(std::memory_order_acquire);
    }
    seen = gen;
    if (stop_.load(std::memory_order_relaxed)) return;
    // The caller may have taken this part already (it did not wait for us); a late wake-up may
    // also find the next job's part, which it may take: task_ and context_ are that job's.
    uint32_t unclaimed = 0;
    if (!claimed_[part - 1].compare_exchange_strong(unclaimed, 1, std::memory_order_acq_rel))
      continue;
    task_(context_, part, size());
    pending_.fetch_sub(1, std::memory_order_acq_rel);
  }
}

}  // namespace sv
