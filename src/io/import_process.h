// ImportProcess: one run of the import worker (`skinview-import`, src/import/worker_main.cpp) as
// a child process, observed without blocking.
//
// The child gets the file's path (or, for a file held in memory, its bytes on stdin), writes its
// result into an anonymous memory file this process handed it (fd 3: a flat binary model,
// io/model_format.h), and has its stdout and stderr on a pipe this process drains, keeping the
// last few KiB. It bounds itself before it reads a byte of the file: an address-space limit
// (RLIMIT_AS, set relative to what it has mapped at start, so sanitizer builds' reserved shadow
// memory does not count), a CPU-time limit a little above the wall-clock one (RLIMIT_CPU), a
// limit on the size of what it writes (RLIMIT_FSIZE), and death with its parent
// (PR_SET_PDEATHSIG). The wall-clock limit is this side's: poll() kills the child with SIGKILL
// once it has run past ImportOptions::time_limit_s.
//
// How a child that did not write a model ends up as one line in ImportResult::error:
//   a signal (SIGSEGV, SIGABRT, ...)  "FILE: the importer crashed (SIGSEGV) reading it; refused"
//   killed at the time limit          "FILE: gave up after 120 s (--time-limit)"
//   out of memory (operator new failed in the child, or a sanitizer's allocator gave up)
//                                     "FILE: the importer ran out of memory (limit 4096 MiB)
//                                      reading it; refused"
//   any other exit status             "FILE: the importer failed (exit status 1) reading it; ..."
// each followed by the child's most telling output line when it printed one. A model that
// fails read_model's checks is refused with its reason.
//
// The worker is found (worker_path()) through $SKINVIEW_IMPORT_WORKER, else beside this
// process's executable (/proc/self/exe: build/skinview-import next to build/skinview), else in
// the installed layout's libexec folder (PREFIX/libexec/skinview/skinview-import for
// PREFIX/bin/skinview), else at the path the build put it (tests and benchmarks run from
// elsewhere in the build tree).
#pragma once

#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "io/import.h"

namespace sv {

// The worker's path (see above), or "" when none is found.
std::string worker_path();

// Where worker_path() looks for the worker relative to an executable at `self`, in order:
// beside it, then the installed layout's libexec folder.
std::vector<std::string> worker_places(const std::string& self);

// Waits for every worker that has said its result was written (worker::kDoneLine) and may still
// be exiting, and reaps it (one still there after 2 s is killed: it runs no code after the line).
// ImportProcess takes such a result at once and leaves the worker's teardown to the kernel; the
// next start() reaps the finished ones without waiting, this waits. It runs at this process's
// exit, and before reading the children's CPU time (getrusage(RUSAGE_CHILDREN) counts only reaped
// children): the benchmarks call it. Thread-safe.
void reap_finished_workers();

class ImportProcess {
 public:
  ImportProcess() = default;
  // A child still running is killed and reaped: no process outlives its ImportProcess, except a
  // worker that has written its result and is exiting (reap_finished_workers).
  ~ImportProcess();
  ImportProcess(const ImportProcess&) = delete;
  ImportProcess& operator=(const ImportProcess&) = delete;

  // Starts the worker on the file `path`. "" or, when no child could be started, why (one line
  // naming `path`). A run in progress is cancelled first.
  std::string start(const std::string& path, const ImportOptions& options);
  // The same for a file held in memory (see import_model_from_memory).
  std::string start_from_memory(std::span<const uint8_t> bytes, const std::string& hint,
                                const std::string& name, const ImportOptions& options);

  bool running() const noexcept { return pid_ > 0; }
  const std::string& name() const noexcept { return name_; }  // of the run in progress
  double elapsed_seconds() const;                             // since start; 0 when idle
  double time_limit_seconds() const noexcept { return options_.time_limit_s; }

  // Call as often as convenient (the viewer: once a frame): drains the child's output, and once
  // it has ended, or has run past the time limit (it is then killed), returns the result and
  // becomes idle. Nothing while it runs, or when idle. Never blocks.
  std::optional<ImportResult> poll();
  // Waits for the result (at most the time limit, then the child is killed).
  ImportResult wait();
  // Kills the child and reaps it; the result is dropped. Nothing when idle.
  void cancel();

 private:
  std::string spawn(int stdin_fd, std::vector<std::string> what);
  void drain_output();
  ImportResult finish(int status);
  void close_fds();

  ImportOptions options_;
  uint64_t memory_limit_ = 0;
  std::string name_;
  pid_t pid_ = -1;
  int output_fd_ = -1;  // read end of the child's stdout+stderr pipe, non-blocking
  int model_fd_ = -1;   // the memory file the child writes its model into
  bool output_eof_ = false;
  std::string output_tail_;  // the last kOutputTail bytes the child printed
  std::chrono::steady_clock::time_point started_{};
};

}  // namespace sv
