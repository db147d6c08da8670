#include "app/file_watch.h"

#include <sys/stat.h>

#include <algorithm>
#include <chrono>
#include <utility>

namespace sv {

FileIdentity identify_file(const std::string& path) noexcept {
  struct stat st {};
  FileIdentity id;
  if (::stat(path.c_str(), &st) != 0) return id;
  id.exists = true;
  id.size = static_cast<uint64_t>(st.st_size);
  id.mtime_ns = static_cast<int64_t>(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec;
  id.ctime_ns = static_cast<int64_t>(st.st_ctim.tv_sec) * 1000000000 + st.st_ctim.tv_nsec;
  id.inode = static_cast<uint64_t>(st.st_ino);
  return id;
}

namespace {
bool same(std::span<const FileIdentity> a, std::span<const FileIdentity> b) noexcept {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (!(a[i] == b[i])) return false;
  return true;
}
}  // namespace

void SettleRule::rebase(std::span<const FileIdentity> baseline) {
  baseline_.assign(baseline.begin(), baseline.end());
  last_ = baseline_;
  pending_ = false;
}

bool SettleRule::step(double now_s, std::span<const FileIdentity> now) {
  if (now.size() != baseline_.size()) return false;  // misuse: rebase() first
  if (!same(now, last_)) {
    std::copy(now.begin(), now.end(), last_.begin());
    last_change_s_ = now_s;
    pending_ = !same(now, baseline_);
  }
  if (!pending_ || now_s - last_change_s_ < settle_s_) return false;
  std::copy(now.begin(), now.end(), baseline_.begin());
  pending_ = false;
  return true;
}

FileWatcher::FileWatcher(double poll_s, double settle_s) : poll_s_(poll_s), settle_s_(settle_s) {}

FileWatcher::~FileWatcher() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void FileWatcher::watch(std::vector<std::string> files) {
  // What a new file is compared with: what it is at this call, not when the thread looks.
  std::vector<FileIdentity> identities;
  for (const std::string& f : files) identities.push_back(identify_file(f));
  {
    std::lock_guard<std::mutex> lock(mutex_);
    files_ = std::move(files);
    identities_ = std::move(identities);
    list_changed_ = true;
    watched_.store(files_.size(), std::memory_order_relaxed);
  }
  if (!thread_.joinable()) thread_ = std::thread([this] { run(); });
  wake_.notify_all();
}

void FileWatcher::run() {
  using Clock = std::chrono::steady_clock;
  const Clock::time_point origin = Clock::now();
  SettleRule rule(settle_s_);
  std::vector<std::string> files;  // the thread's copy of files_
  std::vector<FileIdentity> now, baseline;
  std::unique_lock<std::mutex> lock(mutex_);
  while (!stop_) {
    if (list_changed_) {
      // Files watched before keep their baseline: a change seen but not yet settled still fires.
      baseline.clear();
      for (std::size_t k = 0; k < files_.size(); ++k) {
        std::size_t i = 0;
        while (i < files.size() && files[i] != files_[k]) ++i;
        baseline.push_back(i < files.size() ? rule.baseline()[i] : identities_[k]);
      }
      files = files_;
      rule.rebase(baseline);
      now.resize(files.size());
      list_changed_ = false;
    }
    lock.unlock();
    for (std::size_t i = 0; i < files.size(); ++i) now[i] = identify_file(files[i]);
    const double t = std::chrono::duration<double>(Clock::now() - origin).count();
    const bool fired = !files.empty() && rule.step(t, now);
    lock.lock();
    if (fired) changes_.fetch_add(1, std::memory_order_acq_rel);
    wake_.wait_for(lock, std::chrono::duration<double>(poll_s_),
                   [this] { return stop_ || list_changed_; });
  }
}

}  // namespace sv
