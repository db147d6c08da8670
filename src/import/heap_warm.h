// The import worker's heap, faulted in ahead of the parser on a second thread.
//
// A worker reads one file and builds its model in a heap that only grows (worker_main.cpp: no
// mmap'd blocks, nothing trimmed), and half of its time on a large file is the kernel handing it
// fresh pages: on the 1M-vertex tube (a 68-MB .glb, a 364-MB peak) 0.33 of 0.64 s of CPU is
// system time, nearly all page faults. The viewer's other core is idle meanwhile (it only waits
// for the worker). So before the sandbox the worker grows its heap by heap_warm_bytes() and a
// thread faults those pages in (madvise MADV_POPULATE_WRITE, a few MiB at a time) while the main
// thread parses: the parser then finds most of its pages already there. The worker's wall time on
// the tube 0.64 -> 0.50 s for the same CPU time and the same peak (BENCHMARKS.md round 36).
#pragma once

#include <cstddef>
#include <cstdint>

namespace sv {

// What to fault in ahead for a file of `file_bytes` with the worker's memory limit `limit_bytes`
// (0: none): 0 under 8 MiB (nothing to gain), else 4 times the file (a glTF's model and stream
// peak near 5 times it: what is faulted in is all used), at most half the limit and 2 GiB, whole
// pages.
std::size_t heap_warm_bytes(uint64_t file_bytes, uint64_t limit_bytes) noexcept;

// Grows the heap by `bytes` (needs M_MMAP_MAX 0 and no trimming, as the worker sets) and starts
// a detached thread that faults them in. Call before anything confines the process's threads
// (the sandbox sets RLIMIT_NPROC to 0). Returns false when nothing was started: `bytes` 0, a
// sanitizer build (its allocator does not use this heap), or the heap or the thread refused.
bool warm_heap_ahead(std::size_t bytes) noexcept;

}  // namespace sv
