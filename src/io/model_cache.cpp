#include "io/model_cache.h"

#include <fcntl.h>
#include <sys/mman.h>
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
#include <ctime>
#include <filesystem>
#include <memory>
#include <string_view>
#include <system_error>
#include <utility>

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
//   zero bytes  up to the next multiple of kPayloadAlignment from the file's start (layout 3)
//   payload
// Integers are little-endian. The payload starts aligned so that a mapping of the file holds the
// model format's arrays aligned for their elements (io/model_format.h), to be read in place.
constexpr char kMagic[8] = {'S', 'V', 'M', 'C', 'A', 'C', 'H', 'E'};
constexpr uint32_t kEntryVersion = 3;
constexpr std::size_t kPayloadAlignment = 16;
std::size_t padding(std::size_t at) {
  return (kPayloadAlignment - at % kPayloadAlignment) % kPayloadAlignment;
}
constexpr std::size_t kKeyChars = 32;
constexpr uint32_t kMaxListed = 4096;
constexpr uint32_t kMaxPath = 4096;
constexpr const char* kSuffix = ".svc";
constexpr const char* kTempPrefix = ".tmp-";
constexpr std::size_t kChunk = std::size_t{1} << 20;
constexpr const char* kChecksumDiffers = "the payload's checksum differs";

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

// Written kChunk at a time, not in one call: the page cache takes folios as large as each write
// (up to 2 MiB), and a machine that hands its free memory back to a host (a virtual machine with
// free page reporting) faults every such fresh 2-MiB block in again at its first touch. One 101-MB
// write cost 0.24-0.31 s of system time on such a guest, the same bytes in 1-MiB writes 0.03 s
// (BENCHMARKS.md round 34); elsewhere the syscalls cost nothing measurable.
bool write_full(int fd, const uint8_t* p, std::size_t n) {
  while (n > 0) {
    const ssize_t w = ::write(fd, p, std::min(n, kChunk));
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

// XXH3-128 of `salt` followed by the bytes of the open file `fd` from its start (streamed through
// a buffer: a source file may be rewritten while it is read, which a mapping would turn into a
// fault); false when it cannot be read or holds more than `max_size` bytes.
bool hash_fd(int fd, std::string_view salt, Hash128* out, uint64_t* size, uint64_t max_size) {
  Xxh3 h;
  XXH3_128bits_reset(h.state);
  XXH3_128bits_update(h.state, salt.data(), salt.size());
  std::vector<uint8_t> buffer(kChunk);
  uint64_t total = 0;
  for (;;) {
    const ssize_t n = read_full(fd, buffer.data(), buffer.size());
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

// The same for the regular file `path`.
bool hash_file(const std::string& path, std::string_view salt, Hash128* out, uint64_t* size,
               uint64_t max_size = UINT64_MAX) {
  uint64_t expected = 0;
  const Fd f(open_regular(AT_FDCWD, path.c_str(), 0, max_size, &expected));
  return f.fd >= 0 && hash_fd(f.fd, salt, out, size, max_size);
}

std::string hex(const uint8_t* p, std::size_t n) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string s;
  s.reserve(2 * n);
  for (std::size_t i = 0; i < n; ++i) {
    s += kHex[p[i] >> 4];
    s += kHex[p[i] & 15];
  }
  return s;
}

void put32(std::vector<uint8_t>& out, uint32_t v) {
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<uint8_t>(v >> (8 * i)));
}
void put64(std::vector<uint8_t>& out, uint64_t v) {
  for (int i = 0; i < 8; ++i) out.push_back(static_cast<uint8_t>(v >> (8 * i)));
}

// --- identity records (ModelCache::key_of) ---
// A file `id-<XXH3-128 of salt, device, inode>.svk`, 120 bytes, little-endian:
//   "SVMCIDEN", u32 version (kIdVersion), u32 0, u64 device, u64 inode, u64 size, i64 mtime s,
//   i64 mtime ns, i64 ctime s, i64 ctime ns, u64 XXH3-64 of the salt, 32 bytes key (hex),
//   u64 XXH3-64 of everything before it.
// A record is a hint: one that is missing, damaged or stale only means the file is hashed.
constexpr char kIdMagic[8] = {'S', 'V', 'M', 'C', 'I', 'D', 'E', 'N'};
constexpr uint32_t kIdVersion = 1;
constexpr const char* kIdPrefix = "id-";
constexpr const char* kIdSuffix = ".svk";
constexpr std::size_t kIdBytes = 120;

struct Identity {
  uint64_t device = 0, inode = 0, size = 0;
  int64_t mtime_s = 0, mtime_ns = 0, ctime_s = 0, ctime_ns = 0;
  bool operator==(const Identity&) const = default;
};

Identity identity_of(const struct stat& st) {
  return {static_cast<uint64_t>(st.st_dev),         static_cast<uint64_t>(st.st_ino),
          static_cast<uint64_t>(st.st_size),        static_cast<int64_t>(st.st_mtim.tv_sec),
          static_cast<int64_t>(st.st_mtim.tv_nsec), static_cast<int64_t>(st.st_ctim.tv_sec),
          static_cast<int64_t>(st.st_ctim.tv_nsec)};
}

std::string record_name(std::string_view salt, const Identity& id) {
  std::string seed(salt);
  seed.push_back('\0');
  for (uint64_t v : {id.device, id.inode})
    for (int i = 0; i < 8; ++i) seed.push_back(static_cast<char>(v >> (8 * i)));
  XXH128_canonical_t c;
  XXH128_canonicalFromHash(&c, XXH3_128bits(seed.data(), seed.size()));
  return kIdPrefix + hex(c.digest, sizeof c.digest) + kIdSuffix;
}

std::vector<uint8_t> encode_record(const Identity& id, std::string_view salt,
                                   const std::string& key) {
  std::vector<uint8_t> out(kIdMagic, kIdMagic + sizeof kIdMagic);
  put32(out, kIdVersion);
  put32(out, 0);
  for (uint64_t v : {id.device, id.inode, id.size}) put64(out, v);
  for (int64_t v : {id.mtime_s, id.mtime_ns, id.ctime_s, id.ctime_ns})
    put64(out, static_cast<uint64_t>(v));
  put64(out, XXH3_64bits(salt.data(), salt.size()));
  out.insert(out.end(), key.begin(), key.end());
  put64(out, XXH3_64bits(out.data(), out.size()));
  return out;
}
// The key a record holds for the file of identity `id` under `salt`; "" when it has none.
std::string read_record(int dir_fd, const std::string& name, std::string_view salt,
                        const Identity& id) {
  uint64_t size = 0;
  const Fd f(open_regular(dir_fd, name.c_str(), O_NOFOLLOW, kIdBytes, &size));
  if (f.fd < 0 || size != kIdBytes) return {};
  std::vector<uint8_t> bytes(kIdBytes);
  if (read_full(f.fd, bytes.data(), bytes.size()) != static_cast<ssize_t>(kIdBytes)) return {};
  const std::string key(reinterpret_cast<const char*>(bytes.data()) + kIdBytes - 8 - kKeyChars,
                        kKeyChars);
  // The record as it would be written for this file now: equal bytes, or not this file's.
  if (!is_key(key) || encode_record(id, salt, key) != bytes) return {};
  ::futimens(f.fd, nullptr);  // last use, for trim()
  return key;
}

// --- end of identity records ---

// Reads an entry's framing from its mapping: every read is checked against the bytes left, so no
// size or offset the entry states is used before it is known to lie within the file.
class SpanReader {
 public:
  SpanReader(const uint8_t* data, std::size_t size) : p_(data), end_(data + size) {}
  // The next `n` bytes, or nullptr when fewer are left.
  const uint8_t* take(std::size_t n) {
    if (n > left()) return nullptr;
    const uint8_t* at = p_;
    p_ += n;
    return at;
  }
  bool u32(uint32_t* v) {
    const uint8_t* p = take(4);
    if (p == nullptr) return false;
    *v = 0;
    for (int i = 0; i < 4; ++i) *v |= static_cast<uint32_t>(p[i]) << (8 * i);
    return true;
  }
  bool u64(uint64_t* v) {
    const uint8_t* p = take(8);
    if (p == nullptr) return false;
    *v = 0;
    for (int i = 0; i < 8; ++i) *v |= static_cast<uint64_t>(p[i]) << (8 * i);
    return true;
  }
  std::size_t left() const { return static_cast<std::size_t>(end_ - p_); }
  const uint8_t* at() const { return p_; }

 private:
  const uint8_t* p_;
  const uint8_t* end_;
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
  return hex(h.data(), h.size());
}

std::string ModelCache::key_of(const std::string& path, std::string_view salt, uint64_t max_size,
                               int64_t now_ns) {
  uint64_t size = 0;
  const Fd f(open_regular(AT_FDCWD, path.c_str(), 0, max_size, &size));
  struct stat before {};
  if (f.fd < 0 || ::fstat(f.fd, &before) != 0) return {};
  const Identity id = identity_of(before);
  std::string why;
  const Fd dir(open_dir(false, &why));
  const std::string record = record_name(salt, id);
  if (dir.fd >= 0) {
    if (std::string key = read_record(dir.fd, record, salt, id); !key.empty()) return key;
  }
  Hash128 h{};
  uint64_t hashed = 0;
  if (!hash_fd(f.fd, salt, &h, &hashed, max_size)) return {};
  const std::string key = hex(h.data(), h.size());
  if (dir.fd < 0) return key;
  // Remembered only for a file that did not change while it was hashed and whose times are
  // settled (see the header): a write after this moment gives it later times.
  struct stat after {};
  if (::fstat(f.fd, &after) != 0 || !(identity_of(after) == id) || hashed != id.size) return key;
  if (now_ns == 0) {
    timespec t{};
    ::clock_gettime(CLOCK_REALTIME, &t);
    now_ns = static_cast<int64_t>(t.tv_sec) * 1000000000 + t.tv_nsec;
  }
  const int64_t settled = now_ns - kSettledSeconds * 1000000000;
  if (id.mtime_s * 1000000000 + id.mtime_ns > settled ||
      id.ctime_s * 1000000000 + id.ctime_ns > settled)
    return key;
  // Written whole under a temporary name and renamed: a reader sees the old record or this one.
  // Not fsynced: a record lost in a crash only means one more hash.
  const std::vector<uint8_t> bytes = encode_record(id, salt, key);
  std::string temp = (fs::path(dir_) / (kTempPrefix + record + "-XXXXXX")).string();
  const Fd out(::mkostemp(temp.data(), O_CLOEXEC));
  if (out.fd < 0) return key;
  const std::string temp_name = fs::path(temp).filename().string();
  if (!write_full(out.fd, bytes.data(), bytes.size()) ||
      ::renameat(dir.fd, temp_name.c_str(), dir.fd, record.c_str()) != 0)
    ::unlinkat(dir.fd, temp_name.c_str(), 0);
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

std::optional<MappedPayload> ModelCache::map(const std::string& key, const std::string& model_dir,
                                             std::vector<std::string>* files, std::string* why,
                                             Checksum checksum_by) {
  if (files != nullptr) files->clear();
  if (why != nullptr) why->clear();
  if (!is_key(key)) return std::nullopt;
  std::string folder_why;
  const Fd dir(open_dir(false, &folder_why));
  if (dir.fd < 0) return std::nullopt;
  const std::string name = key + kSuffix;
  // An entry larger than the whole cache was never written by store(): refused unread.
  uint64_t size = 0;
  const Fd f(open_regular(dir.fd, name.c_str(), O_NOFOLLOW, max_bytes_, &size));
  auto reject = [&](const char* what) {
    ::unlinkat(dir.fd, name.c_str(), 0);
    if (why != nullptr) *why = dir_ + "/" + name + ": " + what + "; removed";
    return std::nullopt;
  };
  if (f.fd < 0) {
    // Missing: a plain miss. Anything else there (a link, a FIFO, a folder, an oversized file):
    // not an entry, removed (a folder is left alone: unlinkat refuses it).
    if (errno != ENOENT) return reject("not a regular file within the cache's size");
    return std::nullopt;
  }
  // The smallest entry: magic, version, key, listed count, payload size and checksum.
  constexpr uint64_t kMinEntry = sizeof kMagic + 4 + kKeyChars + 4 + 8 + 8;
  if (size < kMinEntry) return reject("shorter than an entry's framing");
  MappedPayload out;
  // MAP_POPULATE: the whole entry is read below (checksum, then the model reader), so its page
  // table is filled in one call rather than fault by fault. No MADV_SEQUENTIAL: the mapping
  // outlives the read as the model's arrays, and sequential pages are the first reclaimed.
  const auto map_bytes = static_cast<std::size_t>(size);
  void* m = ::mmap(nullptr, map_bytes, PROT_READ, MAP_PRIVATE | MAP_POPULATE, f.fd, 0);
  if (m == MAP_FAILED) return std::nullopt;  // out of address space: a miss, the entry is kept
  out.map_ = std::shared_ptr<const void>(
      m, [map_bytes](const void* p) { ::munmap(const_cast<void*>(p), map_bytes); });
  SpanReader r(static_cast<const uint8_t*>(m), map_bytes);
  const uint8_t* magic = r.take(sizeof kMagic);
  uint32_t version = 0, listed = 0;
  if (magic == nullptr || std::memcmp(magic, kMagic, sizeof kMagic) != 0)
    return reject("no entry header");
  if (!r.u32(&version) || version != kEntryVersion) return reject("another entry layout");
  const uint8_t* stored_key = r.take(kKeyChars);
  if (stored_key == nullptr || std::memcmp(stored_key, key.data(), kKeyChars) != 0)
    return reject("stored under another key");
  if (!r.u32(&listed) || listed > kMaxListed) return reject("bad count of listed files");
  const fs::path folder = real_folder(model_dir);
  for (uint32_t i = 0; i < listed; ++i) {
    uint32_t len = 0;
    uint64_t file_size = 0;
    const uint8_t* path = nullptr;
    const uint8_t* hash = nullptr;
    if (!r.u32(&len) || len == 0 || len > kMaxPath || (path = r.take(len)) == nullptr ||
        !r.u64(&file_size) || (hash = r.take(16)) == nullptr)
      return reject("a listed file's record runs past the end");
    const std::string listed_as(reinterpret_cast<const char*>(path), len);
    const std::string file = listed_path(listed_as, folder);
    if (file.empty()) return reject("a listed file's path leaves the model's folder");
    // A listed file that changed, went away, or now resolves elsewhere (a link swapped in): the
    // entry describes another model.
    std::error_code ec;
    Hash128 now{};
    uint64_t now_size = 0;
    if (fs::canonical(file, ec).string() != file || ec ||
        !hash_file(file, {}, &now, &now_size, file_size) || now_size != file_size ||
        std::memcmp(now.data(), hash, 16) != 0)
      return reject(("the listed file " + file + " changed").c_str());
    if (files != nullptr) files->push_back(file);
  }
  uint64_t payload_size = 0, checksum = 0;
  if (!r.u64(&payload_size) || !r.u64(&checksum))
    return reject("the payload's size is not the rest of the file");
  const uint8_t* pad = r.take(padding(map_bytes - r.left()));
  if (pad == nullptr || payload_size != r.left())
    return reject("the payload's size is not the rest of the file");
  if (std::any_of(pad, r.at(), [](uint8_t b) { return b != 0; }))
    return reject("the padding before the payload is not zero");
  out.data_ = r.at();
  out.size_ = static_cast<std::size_t>(payload_size);
  out.checksum_ = checksum;
  if (checksum_by == Checksum::kNow && XXH3_64bits(out.data_, out.size_) != checksum)
    return reject(kChecksumDiffers);
  // Last use, for trim(): a failure here only makes the entry look older.
  ::futimens(f.fd, nullptr);
  return out;
}

bool ModelCache::confirm(const std::string& key, const MappedPayload& payload, uint64_t hashed,
                         std::string* why) {
  if (hashed == payload.checksum()) return true;
  remove(key);
  if (why != nullptr) *why = dir_ + "/" + key + kSuffix + ": " + kChecksumDiffers + "; removed";
  return false;
}

std::optional<std::vector<uint8_t>> ModelCache::load(const std::string& key,
                                                     const std::string& model_dir,
                                                     std::vector<std::string>* files) {
  std::optional<MappedPayload> m = map(key, model_dir, files);
  if (!m) return std::nullopt;
  return std::vector<uint8_t>(m->bytes().begin(), m->bytes().end());
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
  head.resize(head.size() + padding(head.size()), 0);
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
    // Identity records (key_of): a few dozen bytes each, dropped when unused for a month (a
    // dropped one costs one hash of its file).
    if (it->path().extension() == kIdSuffix) {
      if (now - used > std::chrono::hours(24 * 30)) fs::remove(it->path(), e2);
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
