// ModelCache: the flat binary model of every file opened, kept on disk so that reopening a file
// skips assimp (and its child process) altogether.
//
// An entry is found by what the import read, never by a file's name or date: its key is the
// XXH3-128 hash of the model file's bytes together with a `salt` naming everything else that
// shapes the result (the binary format's version, the importer's revision, assimp's version).
// Files the import read besides the model (a .gltf's .bin buffers, an .md5mesh's .md5anim) are
// listed in the entry with their own hashes, and an entry whose listed files changed is a miss.
//
// Where: $XDG_CACHE_HOME/skinview/, or ~/.cache/skinview/ (the XDG default); one file per entry,
// `<key>.svc`, written to a temporary name and renamed into place, so a reader never sees half an
// entry and two processes storing the same key do not clash. Size: after each store the oldest
// entries (by last use: a hit refreshes an entry's time) are removed until the folder is within
// the bound. Entries are untrusted on the way back like any other bytes (another program or a
// full disk may have damaged them): the entry's own framing is checked here and the model bytes
// go through the model reader's checks; an entry that fails either is removed and treated as a
// miss. Nothing here knows the model format: payloads are bytes.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace sv {

class ModelCache {
 public:
  static constexpr uint64_t kDefaultMaxBytes = uint64_t{1} << 30;  // 1 GiB

  // The folder `dir` (created on first store); `max_bytes` bounds the sum of its entries' sizes.
  ModelCache(std::string dir, uint64_t max_bytes = kDefaultMaxBytes);

  // $XDG_CACHE_HOME/skinview, else $HOME/.cache/skinview; "" when neither variable is set.
  static std::string default_dir();

  // A lookup key: the hash of `path`'s bytes and of `salt`, 32 hex digits; "" when the file
  // cannot be read (not a regular file, unreadable). Reads the whole file (XXH3 runs at several
  // GB/s: ~0.1 s for the largest file the importer accepts).
  static std::string key_for(const std::string& path, std::string_view salt);

  // The payload stored under `key`, when there is one whose listed files (relative to
  // `model_dir`) still hash as they did; the entry's time is refreshed. A damaged entry, or one
  // whose files changed, is removed and gives nothing.
  std::optional<std::vector<uint8_t>> load(const std::string& key, const std::string& model_dir);

  // Stores `payload` under `key`, listing `read_files` (paths relative to `model_dir`, or
  // absolute) with their current hashes, then trims the folder to the size bound. Returns "" or
  // why it could not store (a read-only or full disk is not an error for the caller: the model
  // is still shown, it is only not cached).
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
  std::string entry_path(const std::string& key) const;

  std::string dir_;
  uint64_t max_bytes_;
};

}  // namespace sv
