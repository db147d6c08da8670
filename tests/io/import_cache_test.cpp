// The model cache in the import path (io/import_cache.h): a reopen is read from the cache and
// gives the same model; a change to the file or to a file it read is a miss; a damaged entry, or
// one the model reader refuses, is replaced by a fresh import; the cache is off without a folder
// and under the worker's fault injection. Real imports (the worker runs) into temporary folders.
#include "io/import_cache.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "io/import.h"
#include "io/model_cache.h"
#include "io/model_format.h"
#include "io/worker_protocol.h"
#include "skin/compact_streams.h"

#include "temp_dir.h"

namespace sv {
namespace {

namespace fs = std::filesystem;

const std::string kDefault = SKINVIEW_SOURCE_DIR "/assets/default.glb";
const std::string kBoxDir = SKINVIEW_TEST_MODELS "/glTF2/BoxTextured-glTF";

using test::TempDir;

ImportOptions cached(const TempDir& dir) {
  ImportOptions o;
  o.cache_dir = dir / "cache";
  return o;
}

std::vector<fs::path> entries(const TempDir& dir) {
  std::vector<fs::path> out;
  std::error_code ec;
  for (fs::directory_iterator it(dir / "cache", ec), end; !ec && it != end; it.increment(ec))
    if (it->path().extension() == ".svc") out.push_back(it->path());
  return out;
}

// The model and its report as the binary format writes them: equal bytes, equal imports.
std::vector<uint8_t> encoded(const ImportResult& r) {
  return write_model(*r.model, r.report, r.provenance);
}

void append(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary | std::ios::app) << bytes;
}

TEST(ImportCache, AReopenIsReadFromTheCacheAndGivesTheSameModel) {
  TempDir dir;
  const ImportResult first = import_model(kDefault, cached(dir));
  ASSERT_TRUE(first.ok()) << first.error;
  EXPECT_FALSE(first.from_cache);
  EXPECT_TRUE(first.stream.empty()) << "the stream is kept only when asked for";
  ASSERT_EQ(entries(dir).size(), 1u);
  const ImportResult again = import_model(kDefault, cached(dir));
  ASSERT_TRUE(again.ok()) << again.error;
  EXPECT_TRUE(again.from_cache);
  EXPECT_EQ(encoded(first), encoded(again));
  EXPECT_EQ(entries(dir).size(), 1u);
}

// Material::double_sided (format 13) crosses the worker's stream and the cache entry both ways:
// a glTF without doubleSided (false) and one with "doubleSided": true, first open and reopen.
TEST(ImportCache, AReopenKeepsEachMaterialsSides) {
  TempDir dir;
  for (const auto& [file, double_sided] :
       {std::pair{kBoxDir + "/BoxTextured.gltf", false},
        std::pair{std::string(SKINVIEW_TEST_MODELS "/glTF2/BoxTexcoords-glTF/boxTexcoords.gltf"),
                  true}}) {
    for (const bool reopen : {false, true}) {
      const ImportResult r = import_model(file, cached(dir));
      ASSERT_TRUE(r.ok()) << r.error;
      EXPECT_EQ(r.from_cache, reopen) << file;
      ASSERT_EQ(r.model->meshes.size(), 1u) << file;
      const auto material = static_cast<std::size_t>(r.model->meshes[0].material);
      ASSERT_LT(material, r.model->materials.size()) << file;
      EXPECT_EQ(r.model->materials[material].double_sided, double_sided)
          << file << ", reopen " << reopen;
    }
  }
}

// Background stores on for one test, off again (and every store joined) at its end, whatever
// the test did.
struct BackgroundStores {
  BackgroundStores() { set_background_cache_stores(true); }
  ~BackgroundStores() {
    finish_cache_stores();
    set_background_cache_stores(false);
  }
};

// With background stores on (skinview's main), import_model returns before its entry is
// stored; finish_cache_stores waits for it, and the next open of the file waits for it by
// itself: either way the reopen is read from the entry, which is the same model.
TEST(ImportCache, ABackgroundStoreIsWaitedForBeforeTheNextLookUp) {
  TempDir dir;
  BackgroundStores on;
  const ImportResult first = import_model(kDefault, cached(dir));
  ASSERT_TRUE(first.ok()) << first.error;
  EXPECT_FALSE(first.from_cache);
  EXPECT_TRUE(first.stream.empty()) << "the stream went to the store";
  // No finish_cache_stores here: import_model waits for the store in flight itself.
  const ImportResult again = import_model(kDefault, cached(dir));
  ASSERT_TRUE(again.ok()) << again.error;
  EXPECT_TRUE(again.from_cache);
  EXPECT_EQ(encoded(first), encoded(again));
  // A second file's store: waited for by finish_cache_stores, then its entry is there.
  const ImportResult box = import_model(kBoxDir + "/BoxTextured.gltf", cached(dir));
  ASSERT_TRUE(box.ok()) << box.error;
  EXPECT_FALSE(box.from_cache);
  finish_cache_stores();
  EXPECT_EQ(entries(dir).size(), 2u);
  finish_cache_stores();  // none in flight: returns at once
}

// keep_stream: the caller keeps the bytes, so the store is made before import_model returns
// even with background stores on.
TEST(ImportCache, AKeptStreamIsStoredBeforeTheImportReturns) {
  TempDir dir;
  BackgroundStores on;
  ImportOptions o = cached(dir);
  o.keep_stream = true;
  const ImportResult first = import_model(kDefault, o);
  ASSERT_TRUE(first.ok()) << first.error;
  EXPECT_FALSE(first.stream.empty());
  EXPECT_EQ(entries(dir).size(), 1u);
}

TEST(ImportCache, WithoutAFolderOrUnderFaultInjectionNothingIsCached) {
  TempDir dir;
  ImportOptions none;
  EXPECT_FALSE(import_cache_enabled(none));
  EXPECT_FALSE(import_model(kDefault, none).from_cache);
  EXPECT_FALSE(import_model(kDefault, none).from_cache);

  ASSERT_TRUE(import_model(kDefault, cached(dir)).ok());
  ASSERT_EQ(entries(dir).size(), 1u);
  // An entry exists, but a test that makes the worker fail must see the worker fail.
  ::setenv(worker::kFaultVariable, "segv:no-such-model-path", 1);
  EXPECT_FALSE(import_cache_enabled(cached(dir)));
  const ImportResult r = import_model(kDefault, cached(dir));
  ::unsetenv(worker::kFaultVariable);
  EXPECT_FALSE(r.from_cache);
  EXPECT_TRUE(import_model(kDefault, cached(dir)).from_cache);
}

TEST(ImportCache, AChangeToTheFileOrToAFileItReadIsAMiss) {
  TempDir dir;
  for (const char* f : {"BoxTextured.gltf", "BoxTextured0.bin", "CesiumLogoFlat.png"})
    fs::copy_file(kBoxDir + "/" + f, dir / f);
  const std::string gltf = dir / "BoxTextured.gltf";
  const ImportResult first = import_model(gltf, cached(dir));
  ASSERT_TRUE(first.ok()) << first.error;
  EXPECT_FALSE(first.from_cache);
  bool lists_bin = false;
  for (const std::string& f : first.provenance.read_files)
    lists_bin |= fs::path(f).filename() == "BoxTextured0.bin";
  EXPECT_TRUE(lists_bin) << "the import's other files are recorded";
  EXPECT_TRUE(import_model(gltf, cached(dir)).from_cache);

  {
    // The lowest byte of the last float (a texture coordinate): a valid file, a different model.
    const std::string bin = dir / "BoxTextured0.bin";
    std::fstream f(bin, std::ios::in | std::ios::out | std::ios::binary);
    const auto at = static_cast<std::streamoff>(fs::file_size(bin) - 4);
    f.seekg(at);
    const char c = static_cast<char>(f.get() ^ 1);
    f.seekp(at);
    f.put(c);
  }
  const ImportResult after_bin = import_model(gltf, cached(dir));
  ASSERT_TRUE(after_bin.ok()) << after_bin.error;
  EXPECT_FALSE(after_bin.from_cache);
  EXPECT_TRUE(import_model(gltf, cached(dir)).from_cache);

  append(gltf, "\n");  // the model file itself
  EXPECT_FALSE(import_model(gltf, cached(dir)).from_cache);
  EXPECT_TRUE(import_model(gltf, cached(dir)).from_cache);
}

TEST(ImportCache, ADamagedEntryIsImportedAgainAndReplaced) {
  TempDir dir;
  ASSERT_TRUE(import_model(kDefault, cached(dir)).ok());
  ASSERT_EQ(entries(dir).size(), 1u);
  const fs::path entry = entries(dir)[0];
  {
    std::fstream f(entry, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(static_cast<std::streamoff>(fs::file_size(entry) / 2));
    f.put('\x5a');
  }
  const ImportResult r = import_model(kDefault, cached(dir));
  ASSERT_TRUE(r.ok()) << r.error;
  EXPECT_FALSE(r.from_cache);
  // The report says why the entry was not used.
  ASSERT_FALSE(r.report.notes.empty());
  EXPECT_NE(r.report.notes.back().find("model cache's entry was refused"), std::string::npos)
      << r.report.notes.back();
  EXPECT_NE(r.report.notes.back().find("checksum"), std::string::npos) << r.report.notes.back();
  const ImportResult again = import_model(kDefault, cached(dir));
  EXPECT_TRUE(again.from_cache);
  for (const std::string& note : again.report.notes)
    EXPECT_EQ(note.find("model cache"), std::string::npos) << note;
}

// The entry's checksum is taken while its model is read, block by block, and checked before
// anything read is used: a flipped bit the model reader itself accepts (a position's lowest bit:
// still finite), in the middle of the largest mesh's positions, in their last block, or in the
// report after the last array, still refuses the entry as a checksum failure, and the model is
// imported again.
TEST(ImportCache, DamageTheReaderWouldAcceptIsRefusedByTheChecksumTakenWhileReading) {
  TempDir dir;
  const ImportResult first = import_model(kDefault, cached(dir));
  ASSERT_TRUE(first.ok()) << first.error;
  ASSERT_EQ(entries(dir).size(), 1u);
  const fs::path entry = entries(dir)[0];
  std::string good;
  {
    std::ifstream in(entry, std::ios::binary);
    good.assign(std::istreambuf_iterator<char>(in), {});
  }
  std::size_t payload_size = 0;
  {
    ModelCache cache(dir / "cache");
    const std::string key = entry.stem().string();
    const auto m = cache.map(key, kDefault.substr(0, kDefault.rfind('/')));
    ASSERT_TRUE(m);
    payload_size = m->bytes().size();
  }
  ASSERT_LT(payload_size, good.size());
  const std::size_t payload_at = good.size() - payload_size;
  // Where each damage goes: a position's first byte (its lowest mantissa bit), the unit's.
  const Mesh* big = &first.model->meshes[0];
  for (const Mesh& m : first.model->meshes)
    if (m.vertex_count() > big->vertex_count()) big = &m;
  // Positions over several of the reader's 16 KiB copy blocks: the middle one and the last differ.
  ASSERT_GE(big->vertex_count() * sizeof(glm::vec3), std::size_t{3} << 14);
  auto offset_of = [&](const void* value, std::size_t size, bool last) {
    const std::string pattern(static_cast<const char*>(value), size);
    return last ? good.rfind(pattern) : good.find(pattern, payload_at);
  };
  const std::size_t damage_at[] = {
      offset_of(&big->positions[big->vertex_count() / 2], sizeof(glm::vec3), false),
      offset_of(&big->positions.back(), sizeof(glm::vec3), false),
      offset_of(&first.report.unit_metres, sizeof(double), true)};
  for (const std::size_t at : damage_at) {
    ASSERT_NE(at, std::string::npos);
    ASSERT_GE(at, payload_at);
    std::string bad = good;
    bad[at] = static_cast<char>(bad[at] ^ 1);
    // The model reader alone takes these bytes: only the checksum can tell.
    const std::span<const uint8_t> payload(
        reinterpret_cast<const uint8_t*>(bad.data()) + payload_at, payload_size);
    ASSERT_TRUE(read_model(payload, "f").ok()) << "byte " << at;
    std::ofstream(entry, std::ios::binary | std::ios::trunc) << bad;
    const ImportResult r = import_model(kDefault, cached(dir));
    ASSERT_TRUE(r.ok()) << r.error;
    EXPECT_FALSE(r.from_cache) << "byte " << at;
    ASSERT_FALSE(r.report.notes.empty());
    EXPECT_NE(r.report.notes.back().find("checksum"), std::string::npos) << r.report.notes.back();
    // Imported again and stored again: the same entry as before the damage.
    EXPECT_TRUE(import_model(kDefault, cached(dir)).from_cache);
  }
}

// A truncated entry (cut inside its payload): refused by its size, imported again, replaced.
TEST(ImportCache, ATruncatedEntryIsImportedAgainAndReplaced) {
  TempDir dir;
  ASSERT_TRUE(import_model(kDefault, cached(dir)).ok());
  ASSERT_EQ(entries(dir).size(), 1u);
  const fs::path entry = entries(dir)[0];
  fs::resize_file(entry, fs::file_size(entry) / 2);
  const ImportResult r = import_model(kDefault, cached(dir));
  ASSERT_TRUE(r.ok()) << r.error;
  EXPECT_FALSE(r.from_cache);
  ASSERT_FALSE(r.report.notes.empty());
  EXPECT_NE(r.report.notes.back().find("payload's size"), std::string::npos)
      << r.report.notes.back();
  EXPECT_TRUE(import_model(kDefault, cached(dir)).from_cache);
}

// A first open's model borrows its mesh arrays from the worker's output (a sealed memory file,
// mapped), a reopen's from the cache entry's mapping: nothing of either is copied. The mapping
// lives with the model, so the entry replaced (store writes a new file and renames it over the
// old), removed, or the cache trimmed, changes nothing the model holds: the model written back
// gives the bytes it gave before.
TEST(ImportCache, AModelOutlivesTheEntryItWasReadFrom) {
  TempDir dir;
  ImportResult first = import_model(kDefault, cached(dir));
  ASSERT_TRUE(first.ok()) << first.error;
  ASSERT_FALSE(first.model->meshes.empty());
  EXPECT_TRUE(first.model->meshes[0].positions.borrowed()) << "the worker's output, in place";
  const std::vector<uint8_t> expected = encoded(first);
  first = ImportResult();
  ImportResult again = import_model(kDefault, cached(dir));
  ASSERT_TRUE(again.from_cache);
  for (const Mesh& m : again.model->meshes) {
    EXPECT_TRUE(m.positions.borrowed()) << m.name;
    EXPECT_TRUE(m.indices.borrowed()) << m.name;
    // The worker's compact streams (format 12) too, and the viewer's CompactStreams share them:
    // a reopen neither encodes nor copies them.
    ASSERT_TRUE(m.has_compact()) << m.name;
    EXPECT_TRUE(m.compact_normals.borrowed()) << m.name;
    EXPECT_TRUE(m.compact_weights.borrowed()) << m.name;
    EXPECT_TRUE(m.compact_joints8.borrowed() || m.compact_joints16.borrowed()) << m.name;
    const CompactStreams c = stored_compact(m);
    EXPECT_EQ(c.weights.data(), m.compact_weights.data()) << m.name;
    EXPECT_EQ(c.normals.data(), m.compact_normals.data()) << m.name;
    EXPECT_EQ(c.max_joint, m.max_joint) << m.name;
    // And they are what the viewer would have encoded, bit for bit.
    const CompactStreams want = encode_compact(m);
    ASSERT_EQ(c.weights.size(), want.weights.size()) << m.name;
    EXPECT_EQ(std::memcmp(c.weights.data(), want.weights.data(), want.weights.size() * 12), 0);
    EXPECT_EQ(c.normals, want.normals) << m.name;
    EXPECT_EQ(c.joints8, want.joints8) << m.name;
    EXPECT_EQ(c.joints16, want.joints16) << m.name;
  }
  ASSERT_EQ(entries(dir).size(), 1u);
  const fs::path entry = entries(dir)[0];
  const std::string key = entry.stem().string();
  ModelCache cache(dir / "cache");
  // Replaced by a store of other bytes under the same key, the same size: a new file renamed over.
  const std::vector<uint8_t> other(static_cast<std::size_t>(fs::file_size(entry)), 0x5a);
  ASSERT_EQ(cache.store(key, other, {}, dir.path()), "");
  EXPECT_EQ(encoded(again), expected);
  // Removed (the cache trimmed to nothing unlinks it): the model still reads what it read.
  EXPECT_EQ(ModelCache(dir / "cache", 0).trim(), 1u);
  EXPECT_TRUE(entries(dir).empty());
  EXPECT_EQ(encoded(again), expected);
  // A model moved keeps its mapping; the last one gone unmaps it.
  ImportResult moved = std::move(again);
  again = ImportResult();
  EXPECT_EQ(encoded(moved), expected);
}

TEST(ImportCache, AnEntryTheModelReaderRefusesIsImportedAgainAndReplaced) {
  TempDir dir;
  // Framed as a cache entry with a sound checksum, but a failed import's stream: only read_model
  // can tell.
  const std::string key = ModelCache::key_for(kDefault, import_cache_salt(cached(dir)));
  ASSERT_FALSE(key.empty());
  ModelCache cache(dir / "cache");
  const std::vector<uint8_t> not_a_model = write_error("stored by a stranger", {});
  ASSERT_EQ(cache.store(key, not_a_model, {}, ""), "");
  const ImportResult r = import_model(kDefault, cached(dir));
  ASSERT_TRUE(r.ok()) << r.error;
  EXPECT_FALSE(r.from_cache);
  const ImportResult again = import_model(kDefault, cached(dir));
  EXPECT_TRUE(again.from_cache);
  EXPECT_TRUE(again.ok()) << again.error;
}

// The hole: a valid entry copied under another model's key was shown as that model. Now
// the entry names its key: the copy is refused and the other model is imported (and cached) again.
TEST(ImportCache, AnEntryCopiedUnderAnotherModelsKeyIsRefusedAndTheModelImportedAgain) {
  TempDir dir;
  const std::string other = SKINVIEW_TEST_MODELS "/glTF2/simple_skin/simple_skin.gltf";
  const ImportResult a = import_model(kDefault, cached(dir));
  ASSERT_TRUE(a.ok()) << a.error;
  const ImportResult b = import_model(other, cached(dir));
  ASSERT_TRUE(b.ok()) << b.error;
  ASSERT_NE(a.model->skeleton.names, b.model->skeleton.names);
  const std::string key_a = ModelCache::key_for(kDefault, import_cache_salt(cached(dir)));
  const std::string key_b = ModelCache::key_for(other, import_cache_salt(cached(dir)));
  ASSERT_EQ(entries(dir).size(), 2u);
  fs::copy_file(dir / ("cache/" + key_a + ".svc"), dir / ("cache/" + key_b + ".svc"),
                fs::copy_options::overwrite_existing);
  const ImportResult r = import_model(other, cached(dir));
  ASSERT_TRUE(r.ok()) << r.error;
  EXPECT_FALSE(r.from_cache);
  EXPECT_EQ(r.model->skeleton.names, b.model->skeleton.names);
  const ImportResult again = import_model(other, cached(dir));
  EXPECT_TRUE(again.from_cache);
  EXPECT_EQ(encoded(again), encoded(b));
}

TEST(ImportCache, TheSaltNamesTheFormatTheWorkerAndAssimp) {
  const std::string& salt = import_cache_salt();
  EXPECT_NE(salt.find("format " + std::to_string(kModelFormatVersion)), std::string::npos) << salt;
  EXPECT_NE(salt.find("worker "), std::string::npos) << salt;
  EXPECT_EQ(salt.find("worker none"), std::string::npos) << salt;
  EXPECT_NE(salt.find("assimp libassimp"), std::string::npos) << salt;
  // A different salt, a different key for the same bytes.
  EXPECT_NE(ModelCache::key_for(kDefault, salt), ModelCache::key_for(kDefault, salt + "!"));
  // Options that change what the worker sends change the salt: the folders textures may come
  // from, and the images' pixel budget (which follows the memory limit).
  ImportOptions plain, textures, small;
  textures.texture_paths = {"/usr/share"};
  small.memory_limit_bytes = uint64_t{256} << 20;
  EXPECT_NE(import_cache_salt(plain), import_cache_salt(textures));
  EXPECT_NE(import_cache_salt(plain), import_cache_salt(small));
  EXPECT_EQ(import_cache_salt(plain), import_cache_salt(ImportOptions{}));
}

}  // namespace
}  // namespace sv
