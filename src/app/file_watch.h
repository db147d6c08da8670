// FileWatcher: live reload's eyes (--watch, the File section's "Watch files"). It looks at the
// files a model was read from -- the model, every file the import worker reports it opened (a
// .gltf's .bin, an .obj's .mtl, the texture images) and the added animation files with theirs:
// ModelLoader::Finished::files -- and says when they have changed on disk and then stopped
// changing.
//
// How: a thread of its own stats each file every `poll` seconds (stat polling, not inotify: it
// works the same on every file system, sees a file replaced by rename as editors and exporters
// save, and costs a few stat calls a poll). A file's identity is its size, modification time,
// change time and inode (SettleRule's FileIdentity), read without opening it: the parent never
// reads what a model file names (the worker does, when it reads the model again).
//
// A save in progress is not read half-written: a change fires only once every watched file has
// kept the same identity for `settle` seconds (SettleRule), so a writer that is still appending
// (the size or the time moves) keeps pushing the reload back. A writer that stalls longer than
// that gets its half file read: the import then fails (or the model is refused by the checks)
// and the viewer keeps the previous model and says why; the file's next change is seen again.
//
// The UI thread reads one atomic counter a frame (changes()): nothing allocates or locks per
// frame. watch() (a new file list, after each load) allocates and takes the lock.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <span>
#include <string>
#include <thread>
#include <vector>

namespace sv {

// What stat says about a file; a missing file has exists == false and zeros.
struct FileIdentity {
  bool exists = false;
  uint64_t size = 0;
  int64_t mtime_ns = 0;
  int64_t ctime_ns = 0;
  uint64_t inode = 0;
  bool operator==(const FileIdentity&) const = default;
};

// The identity of `path` now (following symbolic links).
FileIdentity identify_file(const std::string& path) noexcept;

// The settle rule, apart from the clock and the disk so tests can drive it: step() is called with
// the time (seconds, any origin) and the identities of the watched files (always the same count,
// in the same order, as the last rebase()), and returns true once per settled change: when they
// differ from the baseline and have not changed for `settle_s` seconds. Then the baseline becomes
// what fired.
class SettleRule {
 public:
  explicit SettleRule(double settle_s) : settle_s_(settle_s) {}
  // `baseline` is what is shown (no change pending until a step sees something else). Allocates
  // (the lists' sizes).
  void rebase(std::span<const FileIdentity> baseline);
  std::span<const FileIdentity> baseline() const noexcept { return baseline_; }
  // Allocation-free once rebased.
  bool step(double now_s, std::span<const FileIdentity> now);
  bool pending() const noexcept { return pending_; }

 private:
  double settle_s_;
  std::vector<FileIdentity> baseline_;  // what was read last
  std::vector<FileIdentity> last_;      // what the previous step saw
  double last_change_s_ = 0.0;          // when last_ last changed
  bool pending_ = false;                // last_ differs from baseline_
};

class FileWatcher {
 public:
  // `poll_s`: seconds between looks; `settle_s`: SettleRule's settle interval.
  explicit FileWatcher(double poll_s = 0.1, double settle_s = 0.5);
  ~FileWatcher();
  FileWatcher(const FileWatcher&) = delete;
  FileWatcher& operator=(const FileWatcher&) = delete;

  // Watches `files` from now on (an empty list: nothing). A file that was watched before keeps
  // its baseline (a change seen before this call still fires); a new one is compared with what it
  // is during this call. Starts the thread on first use.
  void watch(std::vector<std::string> files);
  // Counts settled changes since construction: the caller compares it with the count it last
  // acted on.
  uint64_t changes() const noexcept { return changes_.load(std::memory_order_acquire); }
  std::size_t watched() const noexcept { return watched_.load(std::memory_order_relaxed); }

 private:
  void run();

  const double poll_s_;
  const double settle_s_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stop_ = false;
  bool list_changed_ = false;
  std::vector<std::string> files_;        // under mutex_
  std::vector<FileIdentity> identities_;  // under mutex_: files_ when watch() was called
  std::atomic<uint64_t> changes_{0};
  std::atomic<std::size_t> watched_{0};
  std::thread thread_;
};

}  // namespace sv
