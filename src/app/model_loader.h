// ModelLoader: reads model files for the viewer without blocking its window. A read is, first, a
// look into the model cache (io/import_cache.h) on a thread of its own -- hashing the file and
// checking a cached copy take a few milliseconds for a character and up to a fraction of a second
// for the largest file the importer accepts -- and, on a miss, the import worker run as a child
// process (io/import_process.h) that the viewer polls once a frame. Meanwhile the window keeps
// drawing and shows "Loading ...", and the model replaces the current one only once it has been
// read and checked. What the worker wrote is stored in the cache on another short thread.
//
// Opening another file cancels the read in progress: its child is killed and reaped on the spot,
// and a cache lookup still running is waited for (it only reads a local file of bounded size).
// A read past the time limit is given up on. No thread or process outlives the loader.
//
// Files whose clips are added to every model read (--anim, "Add animations...";
// app/animation_files.h) are read after the model, on a thread of their own (each by the worker
// or from the cache, as the model), so the window keeps drawing meanwhile too.
//
// No GL here: the result is an ImportResult; the caller builds the scene (and uploads it) on its
// own thread.
#pragma once

#include <chrono>
#include <future>
#include <optional>
#include <string>
#include <vector>

#include "app/animation_files.h"
#include "io/import.h"
#include "io/import_cache.h"
#include "io/import_process.h"

namespace sv {

class ModelLoader {
 public:
  // options.time_limit_s <= 0: no limit; options.cache_dir "" : no cache.
  explicit ModelLoader(ImportOptions options = {}) : options_(std::move(options)) {}
  ~ModelLoader();
  ModelLoader(const ModelLoader&) = delete;
  ModelLoader& operator=(const ModelLoader&) = delete;

  // Starts reading `path`; a read in progress is cancelled first (its child killed). Returns ""
  // or, when no child could be started, why.
  std::string start(const std::string& path);
  // Cancels the read in progress, if any (as start does before its read): poll() then returns
  // nothing until the next start.
  void cancel();

  bool busy() const noexcept {
    return lookup_.valid() || process_.running() || animations_job_.valid();
  }
  // The files whose clips every read from now on adds to its model (none by default). A read in
  // progress keeps the ones it started with.
  void set_animations(AnimationSources sources) { animations_ = std::move(sources); }
  const AnimationSources& animations() const noexcept { return animations_; }
  const std::string& path() const noexcept { return path_; }  // of the read
  double elapsed_seconds() const;                             // 0 when idle
  double time_limit_seconds() const noexcept { return options_.time_limit_s; }

  struct Finished {
    std::string path;
    ImportResult result;  // the import's, or a failure ("PATH: gave up after N s ...", ...)
    // Every file the read depends on: the model, the files its import read (ImportProvenance::
    // read_files: buffers, .mtl, textures) and the added animation files with theirs; what live
    // reload watches (app/file_watch.h). Set on failure too, as far as the read got.
    std::vector<std::string> files;
  };
  // Call once per frame: the result once the read has ended or been given up on; nothing while
  // it runs, or when idle. Never blocks.
  std::optional<Finished> poll();

 private:
  void finish_store();
  // The read's result, or, with animations to add, nothing yet: their job started.
  std::optional<Finished> finish(ImportResult&& result);

  ImportOptions options_;
  ImportProcess process_;
  std::string path_;
  std::chrono::steady_clock::time_point started_{};
  std::future<CacheLookup> lookup_;  // the cache lookup in flight
  std::string key_;                  // a miss's cache key: where the worker's model goes
  std::string refused_;              // a refused cache entry, for the fresh import's report
  std::future<void> store_;          // the last store in flight
  AnimationSources animations_;
  std::future<Finished> animations_job_;  // the model with the animations added, in flight
};

}  // namespace sv
