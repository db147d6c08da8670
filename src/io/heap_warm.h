// The heap of a short-lived process that reads one large model: kept, and faulted in ahead on a
// second thread.
//
// The import worker reads one file and builds its model; a one-shot picture (--screenshot,
// --record, --thumbnail, --bench-frames) then makes that model's GL buffers and draws it. Both
// spend much of their time on a large file in the kernel, handing them fresh pages: on the
// 1M-vertex tube (a 68-MB .glb) the worker's system time is half its CPU, nearly all page faults
// (~1 us per 4-KiB page on the virtual machines measured here, BENCHMARKS.md rounds 16b and 33),
// and the picture's first frame takes three times its second. Two things help, both measured in
// BENCHMARKS.md round 36:
//
// - keep_heap(): every block from the heap, nothing unmapped or trimmed: a buffer freed is reused
//   by the next instead of being given back and faulted in again (the worker since round 16b).
//   Only for processes that end after one model: the heap keeps its peak until the process ends.
// - warm_heap_ahead(heap_warm_bytes(...)): the heap grown by a few times the file and those pages
//   faulted in by a thread (madvise MADV_POPULATE_WRITE) while the main thread does something
//   else (the worker: parses; the picture: makes its GL context and waits for the worker); the
//   later blocks are carved from pages already there. The tube's worker 0.63 -> 0.53 s wall for
//   the same CPU time and peak.
#pragma once

#include <cstddef>
#include <cstdint>

namespace sv {

// Heap blocks only (mallopt M_MMAP_MAX 0) and no trimming (M_TRIM_THRESHOLD at its largest).
void keep_heap() noexcept;

// What to fault in ahead for a file of `file_bytes`: `times` the file (the worker: 4, its model
// and stream peak near 5 times a glTF; a picture: 3, the GL buffers, the first frame's arrays and
// the driver's), 0 under 8 MiB (nothing to gain), at most half `limit_bytes` when that is not 0,
// and 2 GiB, whole pages.
std::size_t heap_warm_bytes(uint64_t file_bytes, unsigned times, uint64_t limit_bytes) noexcept;

// Confines the calling thread (only it: the filter is not synchronised to the others) to
// madvise, futex waits, signal returns and exiting; any other system call fails with EPERM, and
// privileges cannot be gained. The warm's thread calls it first: in the worker it runs beside the
// parser of a hostile file, outside the sandbox the main thread sets up after it started. False
// when it could not (the thread then does nothing).
bool confine_to_madvise() noexcept;

// Grows the heap by `bytes` (after keep_heap()) and starts a detached thread that confines itself
// (confine_to_madvise) and faults them in, 4 MiB at a time; once a process. In the worker, call it
// before the sandbox (which sets RLIMIT_NPROC to 0). Returns false when nothing was started:
// `bytes` 0, a sanitizer build (its allocator does not use this heap), or the heap or the thread
// refused.
bool warm_heap_ahead(std::size_t bytes) noexcept;

}  // namespace sv
