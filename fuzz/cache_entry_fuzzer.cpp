// libFuzzer target over the model cache (io/model_cache.h) with entries whose checksums are valid:
// a mutated entry file would almost always fail its checksum and stop there, so this target
// builds each entry with ModelCache::store itself (a valid checksum over a fuzzed payload, fuzzed
// side files listed) and drives load through what a hit must and must not be:
//   - loaded under its own key with its side files unchanged, it gives back the payload exactly;
//   - the payload then goes through read_model, which must refuse it with one line or return a
//     model that keeps every promise (fuzz/fuzz_input.h), as the import path does with a hit;
//   - copied under another key it is refused (flag bit 0);
//   - with a side file changed (bit 1) or swapped for a link to an identical copy elsewhere (bit
//     2) it is refused.
// A broken promise aborts. Built only with clang and -DSKINVIEW_FUZZ=ON; see fuzz/README.md.
//
// Input: byte 0 flags, byte 1 the number of side files (mod 5); per side file one byte of name
// length (mod 16, plus 1), the name (bytes mapped onto [a-z0-9._-]), one byte of content length,
// the content; the rest is the payload. Seeds are the model reader's seeds behind two zero bytes
// (fuzz/make_seeds.sh, family `cache`).
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "fuzz_input.h"
#include "io/model_cache.h"
#include "io/model_format.h"

namespace {

namespace fs = std::filesystem;

[[noreturn]] void broken(const std::string& what) {
  std::fprintf(stderr, "skinview invariant broken: %s\n", what.c_str());
  std::abort();
}

const fs::path& base_dir() {
  static const fs::path dir = [] {
    std::string t = (fs::temp_directory_path() / "skinview-cache-fuzz-XXXXXX").string();
    if (::mkdtemp(t.data()) == nullptr) broken("cannot make a temporary folder");
    return fs::path(t);
  }();
  return dir;
}

void write_file(const fs::path& p, const std::string& bytes) {
  std::ofstream(p, std::ios::binary | std::ios::trunc) << bytes;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  if (size < 2) return 0;
  const uint8_t flags = data[0];
  const std::size_t files = data[1] % 5;
  std::size_t at = 2;
  const fs::path models = base_dir() / "models", cache = base_dir() / "cache",
                 elsewhere = base_dir() / "elsewhere";
  std::error_code ec;
  fs::remove_all(models, ec);
  fs::remove_all(cache, ec);
  fs::remove_all(elsewhere, ec);
  fs::create_directories(models);
  fs::create_directories(elsewhere);
  std::vector<std::string> listed;
  std::vector<std::string> contents;
  for (std::size_t i = 0; i < files && at < size; ++i) {
    const std::size_t len = data[at++] % 16 + 1;
    std::string name;
    static constexpr char kAlphabet[] = "abcdefghijklmnopqrstuvwxyz0123456789._-";
    for (std::size_t k = 0; k < len && at < size; ++k)
      name += kAlphabet[data[at++] % (sizeof kAlphabet - 1)];
    if (name.empty() || name == "." || name == "..") name = "side";
    std::string content;
    if (at < size) {
      const std::size_t clen = std::min<std::size_t>(data[at++], size - at);
      content.assign(reinterpret_cast<const char*>(data + at), clen);
      at += clen;
    }
    const std::string path = (models / name).string();
    if (std::find(listed.begin(), listed.end(), path) != listed.end()) continue;  // one per name
    write_file(models / name, content);
    listed.push_back(path);
    contents.push_back(content);
  }
  const std::vector<uint8_t> payload(data + at, data + size);

  const std::string key = "0123456789abcdef0123456789abcdef";
  const std::string other = "fedcba9876543210fedcba9876543210";
  sv::ModelCache c(cache.string(), uint64_t{64} << 20);
  if (const std::string e = c.store(key, payload, listed, models.string()); !e.empty())
    broken("store failed: " + e);
  const auto back = c.load(key, models.string());
  if (!back || *back != payload) broken("a fresh entry did not load back as stored");
  const sv::ImportResult r = sv::read_model(*back, "fuzz.svc");
  if (const std::string e = sv::fuzz::check_result(r, nullptr); !e.empty()) broken(e);

  if (flags & 1) {
    c.store(key, payload, listed, models.string());
    fs::copy_file(cache / (key + ".svc"), cache / (other + ".svc"),
                  fs::copy_options::overwrite_existing, ec);
    if (!ec && c.load(other, models.string())) broken("an entry loaded under another key");
  }
  if ((flags & 2) && !listed.empty()) {
    c.store(key, payload, listed, models.string());
    write_file(listed[0], contents[0] + "!");
    if (c.load(key, models.string())) broken("an entry loaded after a side file changed");
    write_file(listed[0], contents[0]);
  }
  if ((flags & 4) && !listed.empty()) {
    c.store(key, payload, listed, models.string());
    const fs::path copy = elsewhere / "copy";
    write_file(copy, contents[0]);
    fs::remove(listed[0], ec);
    fs::create_symlink(copy, listed[0], ec);
    if (!ec && c.load(key, models.string())) broken("an entry loaded through a swapped link");
  }
  return 0;
}
