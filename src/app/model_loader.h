// ModelLoader: reads model files on a worker thread, so the viewer's window keeps drawing (and
// shows "loading...") while assimp works, and gives up on a read that runs past a time limit.
//
// assimp has no way to cancel a read, and a thread cannot be stopped safely from outside. A read
// given up on therefore keeps its thread until assimp returns -- forever, for a file that makes
// it loop -- holding its memory and one core; its result is thrown away when it ends. The viewer
// reports the file as failed, keeps the previous model, and can open other files meanwhile. At
// most kMaxAbandoned such reads may still be running: past that, start() refuses new ones until
// one ends (restarting skinview frees them). The process must not run its static destructors
// under a read still in progress: running() tells the viewer to end with std::_Exit instead.
//
// No GL here: the result is an ImportResult; the caller builds the scene (and uploads it) on
// its own thread.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "io/import.h"

namespace sv {

class ModelLoader {
 public:
  using ImportFn = std::function<ImportResult(const std::string& path)>;
  static constexpr int kMaxAbandoned = 4;

  // `time_limit_s` <= 0: no limit.
  explicit ModelLoader(double time_limit_s = 120.0, ImportFn import = import_model);
  // Gives up on a read in progress (does not wait for it).
  ~ModelLoader();
  ModelLoader(const ModelLoader&) = delete;
  ModelLoader& operator=(const ModelLoader&) = delete;

  // Starts reading `path` on a new thread; a read in progress is given up on first (its result
  // will be thrown away). Returns "" or, when it did not start, why.
  std::string start(const std::string& path);

  bool busy() const noexcept { return job_ != nullptr; }
  const std::string& path() const noexcept { return path_; }  // of the read in progress
  double elapsed_seconds() const;                             // since start(); 0 when idle
  double time_limit_seconds() const noexcept { return limit_; }

  struct Finished {
    std::string path;
    ImportResult result;  // the read's own, or a failure "PATH: gave up after N s ..."
  };
  // Call once per frame: the result once the read has ended, or a failure once it has run past
  // the time limit (the read is given up on); nothing while it runs, or when idle.
  std::optional<Finished> poll();

  // Reader threads that have not ended yet: the one in progress and those given up on.
  static int running() noexcept;
  // Of those, the ones given up on.
  static int abandoned() noexcept;

 private:
  struct Job;
  void abandon();

  double limit_;
  ImportFn import_;
  std::shared_ptr<Job> job_;
  std::string path_;
  std::chrono::steady_clock::time_point started_{};
};

}  // namespace sv
