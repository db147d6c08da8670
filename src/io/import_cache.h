// The model cache in the import path (io/model_cache.h is the store): import_model() and the
// viewer's ModelLoader look a file up before starting the import worker, and store the worker's
// flat binary model after a successful import, so reopening a file skips assimp and its child
// process altogether (BENCHMARKS.md, "Model cache").
//
// What keys an entry: the file's bytes (found without reading them when the file's identity has
// not changed since they were hashed: ModelCache::key_of), mixed with a salt naming everything else
// that shapes the result -- the binary format's version, the hash of the worker executable (a
// rebuilt converter, with its repairs and limits, invalidates every entry) and the assimp library
// the worker loads (its resolved file name, size and modification time: a Debian update of
// libassimp invalidates them too). Every file the worker reports it opened besides the model (a
// .gltf's .bin, an .md5mesh's .md5anim, an .obj's .mtl) is listed in the entry by its resolved
// path and its hash: a change to any of them, or the same model bytes beside other side files,
// is a miss. The entry also names its key: one copied under another model's key is refused. A hit
// is mapped and read in place (ModelCache::map), through read_model's checks like the worker's own
// output: an entry that fails them is removed, the file is imported again and its report says so.
//
// Off when ImportOptions::cache_dir is "" (--no-cache; the library's default, so tests and tools
// that call import_model run the worker unless they ask for the cache) and while the worker's
// fault injection (SKINVIEW_IMPORT_FAULT, tests only) is set: a cached copy would hide the fault.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "io/import.h"

namespace sv {

// The salt described above; computed once per process.
const std::string& import_cache_salt();
// The salt an import with `options` keys its entry by: import_cache_salt() and what the options
// change in the worker's result (the --texture-path folders, resolved, and the images' pixel
// budget, which follows the memory limit: import/images.h).
std::string import_cache_salt(const ImportOptions& options);

// Whether imports with `options` use the cache (see above).
bool import_cache_enabled(const ImportOptions& options);

struct CacheLookup {
  std::string key;                     // "" when the cache is off or the file cannot be hashed
  std::optional<ImportResult> result;  // a hit, read and checked (ImportResult::from_cache)
  // An entry found under `key` but refused (damaged, or a model the reader refuses) and removed:
  // what was wrong, one line; "" when none was. The file is imported again.
  std::string refused;
};

// The report line a fresh import adds for a refused entry (CacheLookup::refused).
std::string refused_entry_note(const std::string& refused);

// Looks `path` up in options.cache_dir. On a miss, `key` is what to store the import under.
CacheLookup look_up_import(const std::string& path, const ImportOptions& options);

// Stores a successful import's stream under `key`, listing `read_files`, unless `path` no longer
// hashes to `key` (the file changed while it was imported). "" or why not: a cache that cannot
// be written (read-only, full) only means the next open imports again.
std::string store_import(const std::string& key, const std::string& path,
                         std::span<const uint8_t> stream, std::span<const std::string> read_files,
                         const ImportOptions& options);

// Stores off the caller's path. A process that waits for its stores before it exits (skinview's
// main: finish_cache_stores) turns this on; import_model then hands a store it would have made
// (a cache miss imported, the stream not kept) to a thread of its own and returns at once, so a
// first open's picture is drawn while its entry is written. Off by default (the library, tests and
// tools store before import_model returns). Any import_model in this process, and the window's
// look-ups (app/model_loader.h), wait for the stores in flight before they look the file up, so
// they find those entries. A store cut short (the process killed) leaves at most a temporary file,
// never an entry: entries are written whole and then renamed into place (io/model_cache.h).
void set_background_cache_stores(bool on) noexcept;
bool background_cache_stores() noexcept;

// store_import on a thread of its own, which takes the stream, while background stores are on;
// otherwise (or when no thread can be started) here, before it returns.
void store_import_later(std::string key, std::string path, Stream<uint8_t> stream,
                        std::vector<std::string> read_files, ImportOptions options);

// Waits for every store started by store_import_later (none: returns at once).
void finish_cache_stores();

}  // namespace sv
