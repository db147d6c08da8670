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
#include <memory>
#include <string_view>
#include <system_error>

namespace sv {
namespace fs = std::filesystem;
namespace {

// An entry file: the framing below, then the payload.
//   "SVMCACHE"  8 bytes
//   u32         entry layout version (kEntryVersion)
//   32 bytes    the key it was stored under (lower-case hex)
//   u32         number of listed files (at most kMaxListed)
//   per file:   u32 path length (1..kMaxPath), path bytes (resolved: relative to the model's
//               resolved folder, or absolute), u64 size, 16 bytes XXH3-128
//   u64         payload size (the rest of the file, exactly)
//   u64         XXH3-64 of the payload (damage shows as a mismatch)
//   payload
// Integers are little-endian.
constexpr char kMagic[8] = {'S', 'V', 'M', 'C', 'A', 'C', 'H', 'E'};
constexpr uint32_t kEntryVersion = 2;
constexpr std::size_t kKeyChars = 32;
constexpr uint32_t kMaxListed = 4096;
constexpr uint32_t kMaxPath = 4096;
constexpr const char* kSuffix = ".svc";
constexpr const char* kTempPrefix = ".tmp-";
constexpr std::size_t kChunk = std::size_t{1} << 20;

using Hash128 = std::array<uint8_t, 16>;

struct Fd {
  int fd = -1;
  explicit Fd(int f = -1) : fd(f) {}
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
};

struct Xxh3 {
  XXH3_state_t* state = XXH3_createState();
  ~Xxh3() { XXH3_freeState(state); }
  Xxh3(const Xxh3&) = delete;
  Xxh3& operator=(const Xxh3&) = delete;
  Xxh3() = default;
};

bool is_key(std::string_view key) {
  if (key.size() != kKeyChars) return false;
  for (char c : key)
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  return true;
}

// read() until `n` bytes or the end; the count read, or -1 on an error.
ssize_t read_full(int fd, uint8_t* out, std::size_t n) {
  std::size_t got = 0;
  while (got < n) {
    const ssize_t r = ::read(fd, out + got, n - got);
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) return -1;
    if (r == 0) break;
    got += static_cast<std::size_t>(r);
  }
  return static_cast<ssize_t>(got);
}

bool write_full(int fd, const uint8_t* p, std::size_t n) {
  while (n > 0) {
    const ssize_t w = ::write(fd, p, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return false;
    p += w;
    n -= static_cast<std::size_t>(w);
  }
  return true;
}

// Opens a file to read whatever it is without blocking (a FIFO or a device does not hang the
// open), and keeps it only when it is a regular file of at most `max_size` bytes. -1 with errno
// ENOENT when there is nothing at `path`; -1 with another errno when something else is there.
int open_regular(int dir_fd, const char* path, int extra_flags, uint64_t max_size, uint64_t* size) {
  const int fd = ::openat(dir_fd, path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | extra_flags);
  if (fd < 0) return -1;
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size < 0 ||
      static_cast<uint64_t>(st.st_size) > max_size) {
    ::close(fd);
    errno = EINVAL;
    return -1;
  }
  *size = static_cast<uint64_t>(st.st_size);
  return fd;
}

// XXH3-128 of `salt` followed by the bytes of the regular file `path` (streamed); false when it
// cannot be read or is larger than `max_size`.
bool hash_file(const std::string& path, std::string_view salt, Hash128* out, uint64_t* size,
               uint64_t max_size = UINT64_MAX) {
  uint64_t expected = 0;
  const Fd f(open_regular(AT_FDCWD, path.c_str(), 0, max_size, &expected));
  if (f.fd < 0) return false;
  Xxh3 h;
  XXH3_128bits_reset(h.state);
  XXH3_128bits_update(h.state, salt.data(), salt.size());
  std::vector<uint8_t> buffer(kChunk);
  uint64_t total = 0;
  for (;;) {
    const ssize_t n = read_full(f.fd, buffer.data(), buffer.size());
    if (n < 0) return false;
    XXH3_128bits_update(h.state, buffer.data(), static_cast<std::size_t>(n));
    total += static_cast<uint64_t>(n);
    // A file that grows while it is read is hashed only up to its bound.
    if (total > max_size) return false;
    if (static_cast<std::size_t>(n) < buffer.size()) break;
  }
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

// Reads an entry's framing from its descriptor, in chunks, never past the size fstat gave.
class FdReader {
 public:
  FdReader(int fd, uint64_t size) : fd_(fd), left_in_file_(size) {}
  bool take(std::size_t n, uint8_t* out) {
    while (n > 0) {
      if (at_ == buffer_.size() && !refill()) return false;
      const std::size_t k = std::min(n, buffer_.size() - at_);
      std::memcpy(out, buffer_.data() + at_, k);
      at_ += k;
      out += k;
      n -= k;
    }
    return true;
  }
  bool u32(uint32_t* v) {
    uint8_t p[4];
    if (!take(4, p)) return false;
    *v = 0;
    for (int i = 0; i < 4; ++i) *v |= static_cast<uint32_t>(p[i]) << (8 * i);
    return true;
  }
  bool u64(uint64_t* v) {
    uint8_t p[8];
    if (!take(8, p)) return false;
    *v = 0;
    for (int i = 0; i < 8; ++i) *v |= static_cast<uint64_t>(p[i]) << (8 * i);
    return true;
  }
  // Bytes of the file not yet handed out.
  uint64_t left() const { return left_in_file_ + (buffer_.size() - at_); }

 private:
  bool refill() {
    if (left_in_file_ == 0) return false;
    buffer_.resize(static_cast<std::size_t>(std::min<uint64_t>(left_in_file_, 65536)));
    const ssize_t n = read_full(fd_, buffer_.data(), buffer_.size());
    if (n != static_cast<ssize_t>(buffer_.size())) return false;
    left_in_file_ -= buffer_.size();
    at_ = 0;
    return true;
  }

  int fd_;
  uint64_t left_in_file_;
  std::vector<uint8_t> buffer_;
  std::size_t at_ = 0;
};

fs::path real_folder(const std::string& model_dir) {
  std::error_code ec;
  fs::path p = fs::canonical(model_dir.empty() ? fs::path(".") : fs::path(model_dir), ec);
  return ec ? fs::path() : p;
}

// A read file as the entry lists it: its resolved path, relative to the model's resolved folder
// when inside it, else absolute. "" when it does not resolve.
std::string listed_name(const std::string& file, const fs::path& folder) {
  std::error_code ec;
  const fs::path p(file);
  const fs::path real = fs::canonical(p.is_absolute() || folder.empty() ? p : folder / p, ec);
  if (ec) return {};
  if (!folder.empty()) {
    const fs::path rel = real.lexically_relative(folder);
    if (!rel.empty() && *rel.begin() != "..") return rel.string();
  }
  return real.string();
}

// The path a listed name stands for; "" when a listed relative name has no folder to sit in or
// leaves it (an entry's bytes are untrusted).
std::string listed_path(const std::string& listed, const fs::path& folder) {
  const fs::path p(listed);
  if (p.is_absolute()) return p.lexically_normal() == p ? listed : std::string();
  if (folder.empty()) return {};
  for (const fs::path& part : p)
    if (part == ".." || part == ".") return {};
  return (folder / p).string();
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

std::string ModelCache::key_for(const std::string& path, std::string_view salt, uint64_t max_size) {
  Hash128 h{};
  if (!hash_file(path, salt, &h, nullptr, max_size)) return {};
  static constexpr char kHex[] = "0123456789abcdef";
  std::string key;
  for (uint8_t b : h) {
    key += kHex[b >> 4];
    key += kHex[b & 15];
  }
  return key;
}

int ModelCache::open_dir(bool create, std::string* why) const {
  if (dir_.empty()) {
    *why = "no cache folder (neither XDG_CACHE_HOME nor HOME is set)";
    return -1;
  }
  if (create) {
    std::error_code ec;
    const fs::path parent = fs::path(dir_).parent_path();
    if (!parent.empty()) fs::create_directories(parent, ec);
    if (::mkdir(dir_.c_str(), 0700) != 0 && errno != EEXIST) {
      *why = dir_ + ": " + std::strerror(errno);
      return -1;
    }
  }
  const int fd = ::open(dir_.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) {
    *why = dir_ + ": " + std::strerror(errno);
    return -1;
  }
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != ::geteuid()) {
    ::close(fd);
    *why = dir_ + ": not a folder of this user's; not used";
    return -1;
  }
  if ((st.st_mode & 077) != 0 && ::fchmod(fd, 0700) != 0) {
    ::close(fd);
    *why = dir_ + ": cannot make it private (" + std::strerror(errno) + "); not used";
    return -1;
  }
  return fd;
}

std::optional<std::vector<uint8_t>> ModelCache::load(const std::string& key,
                                                     const std::string& model_dir,
                                                     std::vector<std::string>* files) {
  if (files != nullptr) files->clear();
  if (!is_key(key)) return std::nullopt;
  std::string why;
  const Fd dir(open_dir(false, &why));
  if (dir.fd < 0) return std::nullopt;
  const std::string name = key + kSuffix;
  // An entry larger than the whole cache was never written by store(): refused unread.
  uint64_t size = 0;
  const Fd f(open_regular(dir.fd, name.c_str(), O_NOFOLLOW, max_bytes_, &size));
  auto reject = [&] {
    ::unlinkat(dir.fd, name.c_str(), 0);
    return std::nullopt;
  };
  if (f.fd < 0) {
    // Missing: a plain miss. Anything else there (a link, a FIFO, a folder, an oversized file):
    // not an entry, removed (a folder is left alone: unlinkat refuses it).
    if (errno != ENOENT) return reject();
    return std::nullopt;
  }
  FdReader r(f.fd, size);
  uint8_t magic[sizeof kMagic];
  uint8_t stored_key[kKeyChars];
  uint32_t version = 0, listed = 0;
  if (!r.take(sizeof kMagic, magic) || std::memcmp(magic, kMagic, sizeof kMagic) != 0 ||
      !r.u32(&version) || version != kEntryVersion || !r.take(kKeyChars, stored_key) ||
      std::memcmp(stored_key, key.data(), kKeyChars) != 0 || !r.u32(&listed) || listed > kMaxListed)
    return reject();
  const fs::path folder = real_folder(model_dir);
  std::vector<uint8_t> listed_bytes(kMaxPath);
  for (uint32_t i = 0; i < listed; ++i) {
    uint32_t len = 0;
    uint8_t hash[16];
    uint64_t file_size = 0;
    if (!r.u32(&len) || len == 0 || len > kMaxPath || !r.take(len, listed_bytes.data()) ||
        !r.u64(&file_size) || !r.take(16, hash))
      return reject();
    const std::string listed_as(reinterpret_cast<const char*>(listed_bytes.data()), len);
    const std::string file = listed_path(listed_as, folder);
    if (file.empty()) return reject();
    // A listed file that changed, went away, or now resolves elsewhere (a link swapped in): the
    // entry describes another model.
    std::error_code ec;
    Hash128 now{};
    uint64_t now_size = 0;
    if (fs::canonical(file, ec).string() != file || ec ||
        !hash_file(file, {}, &now, &now_size, file_size) || now_size != file_size ||
        std::memcmp(now.data(), hash, 16) != 0)
      return reject();
    if (files != nullptr) files->push_back(file);
  }
  uint64_t payload_size = 0, checksum = 0;
  if (!r.u64(&payload_size) || !r.u64(&checksum) || payload_size != r.left()) return reject();
  // The payload, read in chunks straight into its buffer with the checksum streamed alongside;
  // its size is the file's, already bounded by max_bytes.
  std::vector<uint8_t> payload(static_cast<std::size_t>(payload_size));
  Xxh3 h;
  XXH3_64bits_reset(h.state);
  std::size_t got = 0;
  while (got < payload.size()) {
    const std::size_t n = std::min(kChunk, payload.size() - got);
    if (!r.take(n, payload.data() + got)) return reject();
    XXH3_64bits_update(h.state, payload.data() + got, n);
    got += n;
  }
  if (XXH3_64bits_digest(h.state) != checksum) return reject();
  // Last use, for trim(): a failure here only makes the entry look older.
  ::futimens(f.fd, nullptr);
  return payload;
}

std::string ModelCache::store(const std::string& key, std::span<const uint8_t> payload,
                              std::span<const std::string> read_files,
                              const std::string& model_dir) {
  if (dir_.empty()) return "no cache folder (neither XDG_CACHE_HOME nor HOME is set)";
  if (!is_key(key)) return "no key";
  if (payload.size() > max_bytes_) return "the model is larger than the whole cache";
  if (read_files.size() > kMaxListed) return "the import read too many files to list";
  std::vector<uint8_t> head(kMagic, kMagic + sizeof kMagic);
  put32(head, kEntryVersion);
  head.insert(head.end(), key.begin(), key.end());
  put32(head, static_cast<uint32_t>(read_files.size()));
  const fs::path folder = real_folder(model_dir);
  for (const std::string& f : read_files) {
    const std::string listed = f.empty() ? std::string() : listed_name(f, folder);
    const std::string path = listed.empty() ? std::string() : listed_path(listed, folder);
    Hash128 h{};
    uint64_t size = 0;
    if (listed.empty() || listed.size() > kMaxPath || path.empty() ||
        !hash_file(path, {}, &h, &size))
      return "cannot read " + f + " to list it";
    put32(head, static_cast<uint32_t>(listed.size()));
    head.insert(head.end(), listed.begin(), listed.end());
    put64(head, size);
    head.insert(head.end(), h.begin(), h.end());
  }
  put64(head, payload.size());
  put64(head, XXH3_64bits(payload.data(), payload.size()));
  if (head.size() + payload.size() > max_bytes_) return "the model is larger than the whole cache";

  std::string why;
  const Fd dir(open_dir(true, &why));
  if (dir.fd < 0) return why;
  // mkostemp: an unpredictable name, O_EXCL (never an existing file, never through a link),
  // mode 0600. It takes a full path; the folder was checked through `dir` just above.
  std::string temp = (fs::path(dir_) / (kTempPrefix + key + "-XXXXXX")).string();
  const Fd out(::mkostemp(temp.data(), O_CLOEXEC));
  if (out.fd < 0) return dir_ + ": cannot create a temporary file (" + std::strerror(errno) + ")";
  const std::string temp_name = fs::path(temp).filename().string();
  const std::string final_name = key + kSuffix;
  if (!write_full(out.fd, head.data(), head.size()) ||
      !write_full(out.fd, payload.data(), payload.size()) || ::fsync(out.fd) != 0) {
    const std::string e = temp + ": write failed (" + std::strerror(errno) + ")";
    ::unlinkat(dir.fd, temp_name.c_str(), 0);
    return e;
  }
  if (::renameat(dir.fd, temp_name.c_str(), dir.fd, final_name.c_str()) != 0) {
    const std::string e = dir_ + "/" + final_name + ": " + std::strerror(errno);
    ::unlinkat(dir.fd, temp_name.c_str(), 0);
    return e;
  }
  ::fsync(dir.fd);  // the rename itself, on disk
  trim();
  return {};
}

void ModelCache::remove(const std::string& key) {
  if (!is_key(key)) return;
  std::string why;
  const Fd dir(open_dir(false, &why));
  if (dir.fd >= 0) ::unlinkat(dir.fd, (key + kSuffix).c_str(), 0);
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
    if (!fs::is_regular_file(it->symlink_status(e2))) continue;
    const std::string name = it->path().filename().string();
    const fs::file_time_type used = fs::last_write_time(it->path(), e2);
    if (e2) continue;
    // Temporary files of stores that never finished (a crash, a full disk): gone after a day.
    if (name.rfind(kTempPrefix, 0) == 0) {
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
