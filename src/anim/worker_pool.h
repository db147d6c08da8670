// WorkerPool: a fixed set of threads, started once, that split one job into equal parts.
//
// Per-frame work (skinning a big mesh) is split over the cores without creating a thread per
// frame: the threads are started by the constructor and sleep between jobs. run() hands every
// participant the same function with its part number; the calling thread does part 0 itself,
// then any part whose worker has not started it yet (a worker still waking, or descheduled on a
// busy machine), then spins until the parts the workers took are done (workers sleep between
// jobs, the caller never does). A part runs exactly once, on whichever thread claims it first.
// run() neither allocates nor throws, and is meant for one caller at a time (it is not reentrant).
#pragma once

#include <atomic>
#include <cstdint>
#include <thread>
#include <vector>

namespace sv {

class WorkerPool {
 public:
  // `threads` participants in all, the caller of run() included; 0 or 1 starts no thread.
  explicit WorkerPool(unsigned threads);
  ~WorkerPool();
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  // Number of parts a job is split into (the caller plus the started threads).
  unsigned size() const noexcept { return static_cast<unsigned>(threads_.size()) + 1; }

  using Task = void (*)(void* context, unsigned part, unsigned parts);
  // Calls task(context, part, size()) once for every part in [0, size()), part 0 on the calling
  // thread (and other parts too when their workers are late), and returns when all parts have
  // returned. `task` must not throw nor depend on the thread it runs on.
  void run(Task task, void* context) noexcept;

 private:
  void worker(unsigned part) noexcept;

  std::vector<std::thread> threads_;
  Task task_ = nullptr;
  void* context_ = nullptr;
  std::atomic<uint32_t> generation_{0};         // bumped once per job (and to stop)
  std::atomic<uint32_t> pending_{0};            // parts still running, the caller's excluded
  std::vector<std::atomic<uint32_t>> claimed_;  // part i + 1: 1 once a thread has taken it
  std::atomic<bool> stop_{false};
};

}  // namespace sv
