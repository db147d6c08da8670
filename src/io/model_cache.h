// ModelCache: the flat binary model of every file opened, kept on disk so that reopening a file
// skips assimp (and its child process) altogether.
//
// An entry is found by what the import read, never by a file's name or date: its key is the
// XXH3-128 hash of the model file's bytes together with a `salt` naming everything else that
// shapes the result (the binary format's version, the importer's revision, assimp's version).
// Files the import read besides the model (a .gltf's .bin buffers, an .md5mesh's .md5anim, an
// .obj's .mtl) are listed in the entry by their resolved path (symbolic links followed: relative
// to the model's resolved folder when inside it, else absolute) with their size and their own
// hash; an entry is a hit only when each listed file still resolves to that path and hashes as it
// did, so the same model bytes beside other side files are a miss.
//
// Where: $XDG_CACHE_HOME/skinview/, or ~/.cache/skinview/ (the XDG default); one file per entry,
// `<key>.svc`. What the cache trusts, and what it does not:
//  - the folder: it must be a real folder (not a symbolic link) owned by this user; it is created
//    with mode 0700 and narrowed to 0700 when found wider. A folder that fails this is not used
//    (no hits, no stores): whoever can write there could plant any entry.
//  - an entry's bytes are untrusted like any other (another program, a copy, a full disk):
//    opened without following a symbolic link and without blocking (O_NOFOLLOW, O_NONBLOCK: a
//    FIFO does not hang the reader), read only when fstat says it is a regular file no larger
//    than the whole cache, then mapped (mmap) and read in place: its framing checked field by
//    field against the mapping's size, its payload's checksum (XXH3) computed over the mapping.
//    Entries are only ever replaced by a rename and removed by unlinking, never rewritten or
//    truncated in place, so a mapping keeps the bytes it was opened on for as long as it lives:
//    a model read from an entry borrows its mesh arrays from the mapping (anim/stream.h) and
//    outlives the entry's removal or replacement. What this does not survive is a same-user
//    program truncating or rewriting an entry file in place while a model read from it is open
//    (the reader would fault on the truncated pages, as with a shared library truncated while it
//    is loaded); the folder is this user's, mode 0700, and nothing of skinview's writes in place.
//    An entry names the key it was stored under and is refused under any other (a valid entry
//    copied over another model's is not shown as that model). The model bytes then go through the
//    model reader's checks. An entry that fails any of this is removed and treated as a miss.
//  - writes: the entry is written to a temporary file of an unpredictable name created with
//    O_EXCL (mode 0600; never an existing file or link), fsynced, renamed into place and the
//    folder fsynced, so a reader never sees half an entry, a crash leaves the old entry or the new
//    one, and two processes storing the same key do not clash.
// Size: after each store the oldest entries (by last use: a hit refreshes an entry's time) are
// removed until the folder is within the bound. Nothing here knows the model format: payloads are
// bytes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace sv {

// An entry's payload, mapped read-only from its file (mmap, MAP_PRIVATE) and read in place: no
// buffer is filled and no page is copied. The payload starts 16-byte aligned in the file (entry
// layout 3), so the model format's arrays lie aligned for their elements and a model's mesh
// streams can borrow them where they are (read_model's `keep`). The mapping lives as long as this
// object or any holder of keep() does: a model read from it keeps it, and the file is unmapped
// when the last of them goes.
class MappedPayload {
 public:
  std::span<const uint8_t> bytes() const noexcept { return {data_, size_}; }
  // The XXH3-64 the entry stores for the payload (what an undamaged payload hashes to).
  uint64_t checksum() const noexcept { return checksum_; }
  // What keeps the mapping alive (shared; munmap when the last holder goes).
  const std::shared_ptr<const void>& keep() const noexcept { return map_; }

 private:
  friend class ModelCache;
  std::shared_ptr<const void> map_;  // the whole entry file's mapping
  const uint8_t* data_ = nullptr;    // the payload within it
  std::size_t size_ = 0;
  uint64_t checksum_ = 0;
};

class ModelCache {
 public:
  static constexpr uint64_t kDefaultMaxBytes = uint64_t{1} << 30;  // 1 GiB

  // The folder `dir` (created on first store); `max_bytes` bounds the sum of its entries' sizes.
  ModelCache(std::string dir, uint64_t max_bytes = kDefaultMaxBytes);

  // $XDG_CACHE_HOME/skinview, else $HOME/.cache/skinview; "" when neither variable is set.
  static std::string default_dir();

  // A lookup key: the hash of `path`'s bytes and of `salt`, 32 hex digits; "" when the file
  // cannot be read (not a regular file, unreadable, larger than `max_size`). Reads the whole file
  // (XXH3 runs at several GB/s: ~0.1 s for the largest file the importer accepts).
  static std::string key_for(const std::string& path, std::string_view salt,
                             uint64_t max_size = UINT64_MAX);

  // The key of `path` as key_for gives it, found without reading the file when the folder
  // remembers it for the file's identity: device, inode, size, and modification and status-change
  // times to the nanosecond, all unchanged since the file was hashed. The file is hashed (and its
  // identity remembered, in a small `id-<hash>.svk` record) otherwise. Safe against a rewrite in
  // place within the timestamps' granularity: an identity is remembered only when both times were
  // at least kSettledSeconds old when the hash was taken, and equal before and after it, so any
  // later write (even one that sets the modification time back: the status-change time cannot be
  // set back) gives the file times that differ from the remembered ones. `now_ns` (CLOCK_REALTIME
  // nanoseconds; 0: the clock) is for tests only.
  static constexpr int64_t kSettledSeconds = 2;
  std::string key_of(const std::string& path, std::string_view salt, uint64_t max_size = UINT64_MAX,
                     int64_t now_ns = 0);

  // The payload stored under `key`, mapped (see MappedPayload), when there is one that names
  // `key` and whose listed files (resolved against `model_dir`) still resolve and hash as they
  // did; the entry's time is refreshed. The entry's framing is read from the mapping with every
  // size and offset checked against the file's size first; the payload's checksum is computed
  // over the mapping. A damaged entry, one stored under another key, or one whose files changed,
  // is removed and gives nothing, with `why` (when given) saying what was wrong ("" for a plain
  // miss). `files`: as load's.
  // With Checksum::kByReader the checksum is left to the caller, who hashes the payload while it
  // reads it (read_model's `checksum`: one pass over a big payload instead of two) and must call
  // confirm() before it trusts anything it read.
  enum class Checksum { kNow, kByReader };
  std::optional<MappedPayload> map(const std::string& key, const std::string& model_dir,
                                   std::vector<std::string>* files = nullptr,
                                   std::string* why = nullptr, Checksum checksum = Checksum::kNow);

  // For a payload map() gave with Checksum::kByReader under `key`: true when `hashed` (the
  // payload's XXH3-64 as the caller computed it) is the checksum the entry stores; otherwise the
  // entry is damaged: it is removed, `why` (when given) says so as map() would, and false.
  bool confirm(const std::string& key, const MappedPayload& payload, uint64_t hashed,
               std::string* why = nullptr);

  // The payload stored under `key`, when there is one that names `key` and whose listed files
  // (resolved against `model_dir`) still resolve and hash as they did; the entry's time is
  // refreshed. A damaged entry, one stored under another key, or one whose files changed, is
  // removed and gives nothing. `files`, when given, gets the listed files' paths as they resolve
  // now (absolute): what a hit was read from besides the model, for live reload to watch.
  // A copy of map()'s payload.
  std::optional<std::vector<uint8_t>> load(const std::string& key, const std::string& model_dir,
                                           std::vector<std::string>* files = nullptr);

  // Stores `payload` under `key`, listing `read_files` (paths relative to `model_dir`, or
  // absolute; each resolved) with their current hashes, then trims the folder to the size bound.
  // Returns "" or why it could not store (a read-only or full disk is not an error for the
  // caller: the model is still shown, it is only not cached). A whole entry larger than
  // max_bytes() is not stored.
  std::string store(const std::string& key, std::span<const uint8_t> payload,
                    std::span<const std::string> read_files, const std::string& model_dir);

  // Removes the entry stored under `key`, if any (one the model reader refused).
  void remove(const std::string& key);

  // Removes the oldest entries until the folder holds at most `max_bytes`; returns how many
  // entries were removed.
  std::size_t trim();

  const std::string& dir() const noexcept { return dir_; }
  uint64_t max_bytes() const noexcept { return max_bytes_; }

 private:
  // The folder opened (O_DIRECTORY | O_NOFOLLOW) and checked as described above, created when
  // `create`; -1 when it is missing or not to be trusted (`why` says which).
  int open_dir(bool create, std::string* why) const;

  std::string dir_;
  uint64_t max_bytes_;
};

}  // namespace sv
