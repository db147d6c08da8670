// ModelLoader: reads model files for the viewer without blocking its window. Each read is the
// import worker run as a child process (io/import_process.h) that the viewer polls once a frame:
// the window keeps drawing and shows "Loading ..." meanwhile, and the model replaces the current
// one only once it has been read and checked. Opening another file cancels the read in progress,
// and a read past the time limit is given up on: either way its child is killed and reaped on
// the spot, so no read is ever left running (no threads, nothing to wait for at exit).
//
// No GL here: the result is an ImportResult; the caller builds the scene (and uploads it) on its
// own thread.
#pragma once

#include <optional>
#include <string>

#include "io/import.h"
#include "io/import_process.h"

namespace sv {

class ModelLoader {
 public:
  // options.time_limit_s <= 0: no limit.
  explicit ModelLoader(ImportOptions options = {}) : options_(options) {}

  // Starts reading `path`; a read in progress is cancelled first (its child killed). Returns ""
  // or, when no child could be started, why.
  std::string start(const std::string& path);

  bool busy() const noexcept { return process_.running(); }
  const std::string& path() const noexcept { return process_.name(); }   // of the read
  double elapsed_seconds() const { return process_.elapsed_seconds(); }  // 0 when idle
  double time_limit_seconds() const noexcept { return options_.time_limit_s; }

  struct Finished {
    std::string path;
    ImportResult result;  // the import's, or a failure ("PATH: gave up after N s ...", ...)
  };
  // Call once per frame: the result once the read has ended or been given up on; nothing while
  // it runs, or when idle. Never blocks.
  std::optional<Finished> poll();

 private:
  ImportOptions options_;
  ImportProcess process_;
};

}  // namespace sv
