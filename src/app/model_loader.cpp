#include "app/model_loader.h"

#include <atomic>
#include <cstdio>
#include <exception>
#include <mutex>
#include <system_error>
#include <thread>
#include <utility>

namespace sv {
namespace {

std::atomic<int> g_running{0};
std::atomic<int> g_abandoned{0};

std::string seconds_text(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", s);
  return buf;
}

}  // namespace

// Shared by the loader and its thread; whichever lets go last frees it.
struct ModelLoader::Job {
  std::mutex mutex;
  bool done = false;       // the thread has stored its result
  bool abandoned = false;  // the loader gave up on it: the result is thrown away
  ImportResult result;
};

ModelLoader::ModelLoader(double time_limit_s, ImportFn import)
    : limit_(time_limit_s), import_(std::move(import)) {}

ModelLoader::~ModelLoader() { abandon(); }

int ModelLoader::running() noexcept { return g_running.load(); }
int ModelLoader::abandoned() noexcept { return g_abandoned.load(); }

std::string ModelLoader::start(const std::string& path) {
  abandon();
  if (g_abandoned.load() >= kMaxAbandoned) {
    return path + ": not opened: " + std::to_string(g_abandoned.load()) +
           " earlier reads that were given up on are still running (restart skinview to end "
           "them)";
  }
  auto job = std::make_shared<Job>();
  g_running.fetch_add(1);
  try {
    std::thread([job, import = import_, path] {
      ImportResult r;
      try {
        r = import(path);
      } catch (const std::exception& e) {  // import_model never throws; a test's import might
        r.error = path + ": " + e.what();
      }
      std::lock_guard lock(job->mutex);
      job->result = std::move(r);
      job->done = true;
      if (job->abandoned) g_abandoned.fetch_sub(1);
      g_running.fetch_sub(1);
    }).detach();
  } catch (const std::system_error& e) {
    g_running.fetch_sub(1);
    return path + ": cannot start a reader thread (" + e.what() + ")";
  }
  job_ = std::move(job);
  path_ = path;
  started_ = std::chrono::steady_clock::now();
  return {};
}

double ModelLoader::elapsed_seconds() const {
  if (!job_) return 0.0;
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
}

std::optional<ModelLoader::Finished> ModelLoader::poll() {
  if (!job_) return std::nullopt;
  {
    std::lock_guard lock(job_->mutex);
    if (job_->done) {
      Finished f{std::move(path_), std::move(job_->result)};
      job_.reset();
      path_.clear();
      return f;
    }
  }
  if (limit_ <= 0.0 || elapsed_seconds() < limit_) return std::nullopt;
  Finished f;
  f.path = path_;
  f.result.error = path_ + ": gave up after " + seconds_text(limit_) +
                   " s (--time-limit); the reader is left running in the background";
  abandon();
  return f;
}

void ModelLoader::abandon() {
  if (!job_) return;
  {
    std::lock_guard lock(job_->mutex);
    if (!job_->done) {
      job_->abandoned = true;
      g_abandoned.fetch_add(1);
    }
  }
  job_.reset();
  path_.clear();
}

}  // namespace sv
