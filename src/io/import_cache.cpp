#include "io/import_cache.h"

#include <sys/stat.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <mutex>
#include <system_error>
#include <thread>
#include <utility>

#include "io/import_process.h"
#include "io/model_cache.h"
#include "io/model_format.h"
#include "io/worker_protocol.h"

namespace sv {
namespace fs = std::filesystem;
namespace {

// "NAME SIZE MTIME" of the file `path` resolves to, or "" when it cannot be read.
std::string file_identity(const std::string& path) {
  std::error_code ec;
  const fs::path real = fs::canonical(path, ec);
  if (ec) return {};
  struct stat st {};
  if (::stat(real.c_str(), &st) != 0) return {};
  return real.filename().string() + " " + std::to_string(st.st_size) + " " +
         std::to_string(st.st_mtim.tv_sec) + "." + std::to_string(st.st_mtim.tv_nsec);
}

std::string make_salt() {
  std::string salt = "skinview model cache; format " + std::to_string(kModelFormatVersion);
  const std::string worker = worker_path();
  salt += "; worker " + (worker.empty() ? std::string("none") : ModelCache::key_for(worker, {}));
#ifdef SV_ASSIMP_LIBRARY
  salt += "; assimp " + file_identity(SV_ASSIMP_LIBRARY);
#endif
  return salt;
}

std::string folder_of(const std::string& path) {
  return fs::absolute(fs::path(path)).parent_path().string();
}

}  // namespace

// An entry stored under other options is never handed back.
std::string import_cache_salt(const ImportOptions& options) {
  std::string salt = import_cache_salt();
  const uint64_t memory =
      options.memory_limit_bytes > 0 ? options.memory_limit_bytes : default_import_memory_limit();
  salt += "; pixel budget " + std::to_string(std::min(kMaxImagePixelsTotal, memory / 64));
  for (const std::string& dir : options.texture_paths) {
    std::error_code ec;
    const fs::path real = fs::canonical(dir, ec);
    salt += "; textures from " + (ec ? dir : real.string());
  }
  return salt;
}

const std::string& import_cache_salt() {
  static const std::string salt = make_salt();
  return salt;
}

bool import_cache_enabled(const ImportOptions& options) {
  if (options.cache_dir.empty()) return false;
  const char* fault = std::getenv(worker::kFaultVariable);
  return fault == nullptr || fault[0] == '\0';
}

CacheLookup look_up_import(const std::string& path, const ImportOptions& options) {
  CacheLookup out;
  if (!import_cache_enabled(options)) return out;
  ModelCache cache(options.cache_dir, options.cache_max_bytes);
  // What the worker refuses unread is not hashed either (a 50 GiB file would take a minute); a
  // FIFO or a device is not hashed at all (key_of opens without blocking and reads only a
  // regular file).
  out.key = cache.key_of(path, import_cache_salt(options), kMaxFileBytes);
  if (out.key.empty()) return out;
  std::vector<std::string> files;
  // The payload's checksum is taken while the model is read (one pass over a big entry, not
  // two), and checked before anything read is used: a damaged entry's half-read model is
  // dropped, and the entry removed and refused as map() would have.
  std::optional<MappedPayload> entry =
      cache.map(out.key, folder_of(path), &files, &out.refused, ModelCache::Checksum::kByReader);
  if (!entry) return out;
  uint64_t hashed = 0;
  // The model's mesh streams borrow from the mapping (entry->keep()): the entry is read once, in
  // place, and nothing of it is copied.
  ImportResult r = read_model(entry->bytes(), path, &hashed, entry->keep());
  if (!cache.confirm(out.key, *entry, hashed, &out.refused)) return out;
  if (!r.ok()) {
    // Framed correctly but not a model this reader accepts: damaged, or written by a stranger.
    cache.remove(out.key);
    out.refused = r.error;
    return out;
  }
  r.from_cache = true;
  // The side files where they are now (the stream names them where the worker found them: the
  // same bytes may have been cached from another folder).
  r.provenance.read_files = std::move(files);
  if (options.keep_stream) r.stream = Stream<uint8_t>::borrow(entry->bytes(), entry->keep());
  out.result = std::move(r);
  return out;
}

std::string refused_entry_note(const std::string& refused) {
  return "the model cache's entry was refused (" + refused + "); imported again";
}

std::string store_import(const std::string& key, const std::string& path,
                         std::span<const uint8_t> stream, std::span<const std::string> read_files,
                         const ImportOptions& options) {
  if (key.empty() || stream.empty() || !import_cache_enabled(options)) return "nothing to store";
  ModelCache cache(options.cache_dir, options.cache_max_bytes);
  if (cache.key_of(path, import_cache_salt(options), kMaxFileBytes) != key)
    return path + " changed while it was imported";
  return cache.store(key, stream, read_files, folder_of(path));
}

namespace {

std::atomic<bool> g_background_stores{false};

// The stores in flight. `joining` lets one waiter at a time take the threads, so a second waiter
// does not return while the first still joins them.
struct PendingStores {
  std::mutex mutex;
  std::vector<std::thread> threads;
  std::mutex joining;

  void join_all() {
    std::lock_guard<std::mutex> one_waiter(joining);
    std::vector<std::thread> taken;
    {
      std::lock_guard<std::mutex> lock(mutex);
      taken.swap(threads);
    }
    for (std::thread& t : taken) t.join();
  }
  // At exit, should a process forget finish_cache_stores: no thread is left joinable.
  ~PendingStores() { join_all(); }
};

PendingStores& pending_stores() {
  static PendingStores stores;
  return stores;
}

}  // namespace

void set_background_cache_stores(bool on) noexcept {
  g_background_stores.store(on, std::memory_order_relaxed);
}

bool background_cache_stores() noexcept {
  return g_background_stores.load(std::memory_order_relaxed);
}

void store_import_later(std::string key, std::string path, Stream<uint8_t> stream,
                        std::vector<std::string> read_files, ImportOptions options) {
  struct Job {
    std::string key, path;
    Stream<uint8_t> stream;
    std::vector<std::string> read_files;
    ImportOptions options;
    void run() const { store_import(key, path, stream, read_files, options); }
  };
  // Shared, so that a thread that cannot be started leaves the job here to run.
  const auto job =
      std::make_shared<const Job>(Job{std::move(key), std::move(path), std::move(stream),
                                      std::move(read_files), std::move(options)});
  if (background_cache_stores()) {
    PendingStores& stores = pending_stores();
    std::lock_guard<std::mutex> lock(stores.mutex);
    try {
      stores.threads.emplace_back([job] { job->run(); });
      return;
    } catch (const std::system_error&) {
      // No thread: stored here instead.
    }
  }
  job->run();
}

void finish_cache_stores() { pending_stores().join_all(); }

}  // namespace sv
