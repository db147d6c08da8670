#include "io/model_cache.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xxhash.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string_view>
#include <system_error>

namespace sv {
namespace fs = std::filesystem;
namespace {

// An entry file: the framing below, then the payload.
//   "SVMCACHE"  8 bytes
//   u32         entry layout version (kEntryVersion)
//   u32         number of listed files (at most kMaxListed)
//   per file:   u32 path length (1..kMaxPath), path bytes, u64 size, 16 bytes XXH3-128
//   u64         payload size (the rest of the file, exactly)
//   u64         XXH3-64 of the payload (damage shows as a mismatch)
//   payload
// Integers are little-endian.
constexpr char kMagic[8] = {'S', 'V', 'M', 'C', 'A', 'C', 'H', 'E'};
constexpr uint32_t kEntryVersion = 1;
constexpr uint32_t kMaxListed = 4096;
constexpr uint32_t kMaxPath = 4096;
constexpr const char* kSuffix = ".svc";

using Hash128 = std::array<uint8_t, 16>;

struct XxhState {
  XXH3_state_t* state = XXH3_createState();
  ~XxhState() { XXH3_freeState(state); }
};

// XXH3-128 of `salt` followed by the file's bytes; false when the file cannot be read.
bool hash_file(const std::string& path, std::string_view salt, Hash128* out, uint64_t* size) {
  std::error_code ec;
  if (!fs::is_regular_file(path, ec)) return false;
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (f == nullptr) return false;
  XxhState h;
  XXH3_128bits_reset(h.state);
  XXH3_128bits_update(h.state, salt.data(), salt.size());
  std::vector<char> buffer(std::size_t{1} << 20);
  uint64_t total = 0;
  bool ok = true;
  for (;;) {
    const std::size_t n = std::fread(buffer.data(), 1, buffer.size(), f);
    if (n > 0) XXH3_128bits_update(h.state, buffer.data(), n);
    total += n;
    if (n < buffer.size()) {
      ok = std::ferror(f) == 0;
      break;
    }
  }
  std::fclose(f);
  if (!ok) return false;
  XXH128_canonical_t c;
  XXH128_canonicalFromHash(&c, XXH3_128bits_digest(h.state));
  std::memcpy(out->data(), c.digest, out->size());
  if (size != nullptr) *size = total;
  return true;
}

void put32(std::vector<uint8_t>& out, uint32_t v) {
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<uint8_t>(v >> (8 * i)));
}
void put64(std::vector<uint8_t>& out, uint64_t v) {
  for (int i = 0; i < 8; ++i) out.push_back(static_cast<uint8_t>(v >> (8 * i)));
}

// Reads the framing from untrusted bytes: every length against what is left.
class Reader {
 public:
  explicit Reader(std::span<const uint8_t> bytes) : bytes_(bytes) {}
  bool take(std::size_t n, const uint8_t** p) {
    if (n > bytes_.size() - at_) return false;
    *p = bytes_.data() + at_;
    at_ += n;
    return true;
  }
  bool u32(uint32_t* v) {
    const uint8_t* p = nullptr;
    if (!take(4, &p)) return false;
    *v = 0;
    for (int i = 0; i < 4; ++i) *v |= static_cast<uint32_t>(p[i]) << (8 * i);
    return true;
  }
  bool u64(uint64_t* v) {
    const uint8_t* p = nullptr;
    if (!take(8, &p)) return false;
    *v = 0;
    for (int i = 0; i < 8; ++i) *v |= static_cast<uint64_t>(p[i]) << (8 * i);
    return true;
  }
  std::size_t left() const { return bytes_.size() - at_; }

 private:
  std::span<const uint8_t> bytes_;
  std::size_t at_ = 0;
};

std::string resolve(const std::string& listed, const std::string& model_dir) {
  const fs::path p(listed);
  if (p.is_absolute() || model_dir.empty()) return listed;
  return (fs::path(model_dir) / p).string();
}

bool read_whole(const std::string& path, uint64_t limit, std::vector<uint8_t>* out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  in.seekg(0, std::ios::end);
  const std::streamoff size = in.tellg();
  if (size < 0 || static_cast<uint64_t>(size) > limit) return false;
  in.seekg(0);
  out->resize(static_cast<std::size_t>(size));
  in.read(reinterpret_cast<char*>(out->data()), size);
  return static_cast<bool>(in);
}

}  // namespace

ModelCache::ModelCache(std::string dir, uint64_t max_bytes)
    : dir_(std::move(dir)), max_bytes_(max_bytes) {}

std::string ModelCache::default_dir() {
  const char* xdg = std::getenv("XDG_CACHE_HOME");
  if (xdg != nullptr && xdg[0] == '/') return (fs::path(xdg) / "skinview").string();
  const char* home = std::getenv("HOME");
  if (home != nullptr && home[0] != '\0') return (fs::path(home) / ".cache" / "skinview").string();
  return {};
}

std::string ModelCache::key_for(const std::string& path, std::string_view salt) {
  Hash128 h{};
  if (!hash_file(path, salt, &h, nullptr)) return {};
  static constexpr char kHex[] = "0123456789abcdef";
  std::string key;
  for (uint8_t b : h) {
    key += kHex[b >> 4];
    key += kHex[b & 15];
  }
  return key;
}

std::string ModelCache::entry_path(const std::string& key) const {
  return (fs::path(dir_) / (key + kSuffix)).string();
}

std::optional<std::vector<uint8_t>> ModelCache::load(const std::string& key,
                                                     const std::string& model_dir) {
  if (dir_.empty() || key.empty()) return std::nullopt;
  const std::string path = entry_path(key);
  std::vector<uint8_t> bytes;
  // An entry larger than the whole cache was never written by store().
  if (!read_whole(path, max_bytes_ + (uint64_t{1} << 20), &bytes)) return std::nullopt;
  auto reject = [&] {
    std::error_code ec;
    fs::remove(path, ec);
    return std::nullopt;
  };
  Reader r(bytes);
  const uint8_t* magic = nullptr;
  uint32_t version = 0, listed = 0;
  if (!r.take(sizeof kMagic, &magic) || std::memcmp(magic, kMagic, sizeof kMagic) != 0 ||
      !r.u32(&version) || version != kEntryVersion || !r.u32(&listed) || listed > kMaxListed)
    return reject();
  for (uint32_t i = 0; i < listed; ++i) {
    uint32_t len = 0;
    const uint8_t* name = nullptr;
    const uint8_t* hash = nullptr;
    uint64_t size = 0;
    if (!r.u32(&len) || len == 0 || len > kMaxPath || !r.take(len, &name) || !r.u64(&size) ||
        !r.take(16, &hash))
      return reject();
    const std::string file =
        resolve(std::string(reinterpret_cast<const char*>(name), len), model_dir);
    Hash128 now{};
    uint64_t now_size = 0;
    // A listed file that changed or went away: the entry describes another model.
    if (!hash_file(file, {}, &now, &now_size) || now_size != size ||
        std::memcmp(now.data(), hash, 16) != 0)
      return reject();
  }
  uint64_t payload_size = 0, checksum = 0;
  if (!r.u64(&payload_size) || !r.u64(&checksum) || payload_size != r.left()) return reject();
  const uint8_t* payload = nullptr;
  if (!r.take(static_cast<std::size_t>(payload_size), &payload) ||
      XXH3_64bits(payload, static_cast<std::size_t>(payload_size)) != checksum)
    return reject();
  // Last use, for trim(): a failure here only makes the entry look older.
  ::utimensat(AT_FDCWD, path.c_str(), nullptr, 0);
  // The payload is the tail of the entry: moved to the front in place, not copied into a second
  // buffer (a 1M-vertex model is ~80 MB, and fresh pages cost more than the move).
  bytes.erase(bytes.begin(), bytes.begin() + (payload - bytes.data()));
  return bytes;
}

std::string ModelCache::store(const std::string& key, std::span<const uint8_t> payload,
                              std::span<const std::string> read_files,
                              const std::string& model_dir) {
  if (dir_.empty()) return "no cache folder (neither XDG_CACHE_HOME nor HOME is set)";
  if (key.empty()) return "no key";
  if (payload.size() > max_bytes_) return "the model is larger than the whole cache";
  if (read_files.size() > kMaxListed) return "the import read too many files to list";
  std::vector<uint8_t> head(kMagic, kMagic + sizeof kMagic);
  put32(head, kEntryVersion);
  put32(head, static_cast<uint32_t>(read_files.size()));
  for (const std::string& f : read_files) {
    Hash128 h{};
    uint64_t size = 0;
    if (f.empty() || f.size() > kMaxPath || !hash_file(resolve(f, model_dir), {}, &h, &size))
      return "cannot read " + f + " to list it";
    put32(head, static_cast<uint32_t>(f.size()));
    head.insert(head.end(), f.begin(), f.end());
    put64(head, size);
    head.insert(head.end(), h.begin(), h.end());
  }
  put64(head, payload.size());
  put64(head, XXH3_64bits(payload.data(), payload.size()));

  std::error_code ec;
  fs::create_directories(dir_, ec);
  if (ec) return dir_ + ": " + ec.message();
  const std::string final_path = entry_path(key);
  const std::string temp =
      (fs::path(dir_) / (".tmp-" + std::to_string(::getpid()) + "-" + key)).string();
  {
    std::ofstream out(temp, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(head.data()),
              static_cast<std::streamsize>(head.size()));
    out.write(reinterpret_cast<const char*>(payload.data()),
              static_cast<std::streamsize>(payload.size()));
    out.close();
    if (!out) {
      fs::remove(temp, ec);
      return temp + ": write failed";
    }
  }
  fs::rename(temp, final_path, ec);
  if (ec) {
    std::error_code ignored;
    fs::remove(temp, ignored);
    return final_path + ": " + ec.message();
  }
  trim();
  return {};
}

void ModelCache::remove(const std::string& key) {
  if (dir_.empty() || key.empty()) return;
  std::error_code ec;
  fs::remove(entry_path(key), ec);
}

std::size_t ModelCache::trim() {
  struct Entry {
    fs::path path;
    uint64_t size;
    fs::file_time_type used;
  };
  std::vector<Entry> entries;
  uint64_t total = 0;
  std::error_code ec;
  const auto now = fs::file_time_type::clock::now();
  for (fs::directory_iterator it(dir_, ec), end; !ec && it != end; it.increment(ec)) {
    std::error_code e2;
    if (!it->is_regular_file(e2)) continue;
    const std::string name = it->path().filename().string();
    const fs::file_time_type used = it->last_write_time(e2);
    if (e2) continue;
    // Temporary files of stores that never finished (a crash, a full disk): gone after a day.
    if (name.rfind(".tmp-", 0) == 0) {
      if (now - used > std::chrono::hours(24)) fs::remove(it->path(), e2);
      continue;
    }
    if (it->path().extension() != kSuffix) continue;
    const uint64_t size = it->file_size(e2);
    if (e2) continue;
    entries.push_back({it->path(), size, used});
    total += size;
  }
  if (total <= max_bytes_) return 0;
  std::sort(entries.begin(), entries.end(),
            [](const Entry& a, const Entry& b) { return a.used < b.used; });
  std::size_t removed = 0;
  for (const Entry& e : entries) {
    if (total <= max_bytes_) break;
    std::error_code e2;
    if (fs::remove(e.path, e2)) {
      total -= e.size;
      ++removed;
    }
  }
  return removed;
}

}  // namespace sv
