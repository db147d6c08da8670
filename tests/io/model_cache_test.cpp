// The model cache on its own: keys, listed files, damage, the size bound. Payloads are plain
// bytes here; that the importer stores and finds real models is tested with the importer.
#include "io/model_cache.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "temp_dir.h"

namespace sv {
namespace {

namespace fs = std::filesystem;

using test::TempDir;

void write_file(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

std::vector<uint8_t> bytes_of(const std::string& s) { return {s.begin(), s.end()}; }

std::size_t entries_in(const std::string& dir) {
  std::size_t n = 0;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.path().extension() == ".svc") ++n;
  return n;
}

TEST(ModelCache, KeyFollowsTheBytesAndTheSaltNotTheName) {
  TempDir t;
  write_file(t / "a.glb", "same bytes");
  write_file(t / "b.glb", "same bytes");
  write_file(t / "c.glb", "other bytes");
  const std::string a = ModelCache::key_for(t / "a.glb", "v1");
  EXPECT_EQ(a.size(), 32u);
  EXPECT_EQ(a, ModelCache::key_for(t / "b.glb", "v1"));
  EXPECT_NE(a, ModelCache::key_for(t / "c.glb", "v1"));
  EXPECT_NE(a, ModelCache::key_for(t / "a.glb", "v2"));  // a new format or importer
  EXPECT_EQ(ModelCache::key_for(t / "missing.glb", "v1"), "");
  EXPECT_EQ(ModelCache::key_for(t.path(), "v1"), "");  // a folder is not a model
}

TEST(ModelCache, StoresAndFindsAPayload) {
  TempDir models, cache;
  write_file(models / "m.x", "model");
  ModelCache c(cache / "sv");
  const std::string key = ModelCache::key_for(models / "m.x", "v1");
  EXPECT_FALSE(c.load(key, models.path()));
  ASSERT_EQ(c.store(key, bytes_of("payload bytes"), {}, models.path()), "");
  const auto back = c.load(key, models.path());
  ASSERT_TRUE(back);
  EXPECT_EQ(*back, bytes_of("payload bytes"));
  // An empty payload is a payload too.
  ASSERT_EQ(c.store("00112233445566778899aabbccddeeff", {}, {}, models.path()), "");
  const auto empty = c.load("00112233445566778899aabbccddeeff", models.path());
  ASSERT_TRUE(empty);
  EXPECT_TRUE(empty->empty());
}

TEST(ModelCache, AnEntryWhoseListedFileChangedIsAMissAndIsRemoved) {
  TempDir models, cache;
  write_file(models / "m.gltf", "json");
  write_file(models / "m.bin", "buffer one");
  ModelCache c(cache.path());
  const std::string key = ModelCache::key_for(models / "m.gltf", "v1");
  const std::vector<std::string> listed{"m.bin"};
  ASSERT_EQ(c.store(key, bytes_of("model"), listed, models.path()), "");
  EXPECT_TRUE(c.load(key, models.path()));
  write_file(models / "m.bin", "buffer two");  // same size, other bytes
  EXPECT_FALSE(c.load(key, models.path()));
  EXPECT_EQ(entries_in(cache.path()), 0u);
  ASSERT_EQ(c.store(key, bytes_of("model"), listed, models.path()), "");
  fs::remove(models / "m.bin");
  EXPECT_FALSE(c.load(key, models.path()));
  // A listed file that cannot be read is not stored at all.
  EXPECT_NE(c.store(key, bytes_of("model"), listed, models.path()), "");
}

TEST(ModelCache, DamagedEntriesAreMissesAndAreRemoved) {
  TempDir models, cache;
  write_file(models / "m.x", "model");
  ModelCache c(cache.path());
  const std::string key = ModelCache::key_for(models / "m.x", "v1");
  const std::string entry = cache / (key + ".svc");
  const std::vector<uint8_t> payload = bytes_of("a payload of some length");
  ASSERT_EQ(c.store(key, payload, {}, models.path()), "");
  std::string good;
  {
    std::ifstream in(entry, std::ios::binary);
    good.assign(std::istreambuf_iterator<char>(in), {});
  }
  ASSERT_GT(good.size(), payload.size());
  // Every truncation and every single flipped byte: a miss, never a wrong payload.
  for (std::size_t cut = 0; cut < good.size(); ++cut) {
    write_file(entry, good.substr(0, cut));
    EXPECT_FALSE(c.load(key, models.path())) << "truncated to " << cut;
    EXPECT_FALSE(fs::exists(entry));
  }
  for (std::size_t at = 0; at < good.size(); ++at) {
    std::string bad = good;
    bad[at] = static_cast<char>(bad[at] ^ 0x5a);
    write_file(entry, bad);
    EXPECT_FALSE(c.load(key, models.path())) << "byte " << at << " flipped";
  }
  write_file(entry, good);
  EXPECT_TRUE(c.load(key, models.path()));
}

TEST(ModelCache, TrimRemovesTheLeastRecentlyUsedFirst) {
  TempDir models, cache;
  write_file(models / "m.x", "model");
  const std::vector<uint8_t> payload(1000, 7);
  // Room for two entries of ~1 KB, not three.
  ModelCache c(cache.path(), 2500);
  const std::string k1 = "11111111111111111111111111111111";
  const std::string k2 = "22222222222222222222222222222222";
  const std::string k3 = "33333333333333333333333333333333";
  ASSERT_EQ(c.store(k1, payload, {}, models.path()), "");
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  ASSERT_EQ(c.store(k2, payload, {}, models.path()), "");
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  ASSERT_TRUE(c.load(k1, models.path()));  // k1 used after k2: k2 is now the oldest
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  ASSERT_EQ(c.store(k3, payload, {}, models.path()), "");
  EXPECT_TRUE(c.load(k1, models.path()));
  EXPECT_FALSE(c.load(k2, models.path()));
  EXPECT_TRUE(c.load(k3, models.path()));
  // A payload larger than the whole cache is refused rather than evicting everything.
  EXPECT_NE(c.store(k2, std::vector<uint8_t>(3000, 1), {}, models.path()), "");
  EXPECT_EQ(entries_in(cache.path()), 2u);
}

TEST(ModelCache, DefaultFolderFollowsXdg) {
  const char* old_xdg = std::getenv("XDG_CACHE_HOME");
  const std::string saved = old_xdg ? old_xdg : "";
  ::setenv("XDG_CACHE_HOME", "/tmp/xdg-cache", 1);
  EXPECT_EQ(ModelCache::default_dir(), "/tmp/xdg-cache/skinview");
  ::unsetenv("XDG_CACHE_HOME");
  const char* home = std::getenv("HOME");
  if (home != nullptr && home[0] != '\0') {
    EXPECT_EQ(ModelCache::default_dir(), std::string(home) + "/.cache/skinview");
  }
  if (old_xdg) ::setenv("XDG_CACHE_HOME", saved.c_str(), 1);
}

TEST(ModelCache, AnUnwritableFolderIsReportedNotFatal) {
  TempDir models;
  write_file(models / "m.x", "model");
  write_file(models / "not-a-dir", "file");
  ModelCache c(models / "not-a-dir");  // a file where the folder should be
  EXPECT_NE(c.store("44444444444444444444444444444444", bytes_of("x"), {}, models.path()), "");
  EXPECT_FALSE(c.load("44444444444444444444444444444444", models.path()));
}

}  // namespace
}  // namespace sv
