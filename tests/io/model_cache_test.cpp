// The model cache on its own: keys, listed files, damage, the size bound, and what it trusts (an
// entry under another key, a link, a FIFO or an oversized file where an entry should be, the
// temporary files' names and modes, the folder's owner and mode). Payloads are plain bytes here;
// that the importer stores and finds real models is tested with the importer.
#include "io/model_cache.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/stat.h>
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

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

mode_t mode_of(const std::string& path) {
  struct stat st {};
  EXPECT_EQ(::lstat(path.c_str(), &st), 0) << path;
  return st.st_mode & 07777;
}

const std::string kKeyA = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";
const std::string kKeyB = "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb";

// A valid entry copied over another key's file: refused (and removed), so it is never shown as
// the other model; the original still loads.
TEST(ModelCache, AnEntryCopiedUnderAnotherKeyIsRefused) {
  TempDir models, cache;
  ModelCache c(cache.path());
  ASSERT_EQ(c.store(kKeyA, bytes_of("model A"), {}, models.path()), "");
  ASSERT_EQ(c.store(kKeyB, bytes_of("model B"), {}, models.path()), "");
  fs::copy_file(cache / (kKeyA + ".svc"), cache / (kKeyB + ".svc"),
                fs::copy_options::overwrite_existing);
  EXPECT_FALSE(c.load(kKeyB, models.path()));
  EXPECT_FALSE(fs::exists(cache / (kKeyB + ".svc")));
  const auto a = c.load(kKeyA, models.path());
  ASSERT_TRUE(a);
  EXPECT_EQ(*a, bytes_of("model A"));
  // Not a key at all: nothing is looked up or stored (no path is built from it).
  EXPECT_FALSE(c.load("../" + kKeyA, models.path()));
  EXPECT_NE(c.store("../x", bytes_of("x"), {}, models.path()), "");
}

// A FIFO, a link or a folder where an entry should be: the load neither blocks nor follows it.
TEST(ModelCache, OnlyARegularFileIsReadAsAnEntry) {
  TempDir models, cache, elsewhere;
  ModelCache c(cache.path());
  ASSERT_EQ(c.store(kKeyA, bytes_of("model A"), {}, models.path()), "");
  const std::string entry = cache / (kKeyA + ".svc");
  // A FIFO with no writer: opening it to read would block forever without O_NONBLOCK.
  fs::remove(entry);
  ASSERT_EQ(::mkfifo(entry.c_str(), 0600), 0);
  EXPECT_FALSE(c.load(kKeyA, models.path()));
  EXPECT_FALSE(fs::exists(fs::symlink_status(entry)));
  // A link to a valid entry: not followed.
  ASSERT_EQ(c.store(kKeyA, bytes_of("model A"), {}, models.path()), "");
  fs::rename(entry, elsewhere / "real.svc");
  fs::create_symlink(elsewhere / "real.svc", entry);
  EXPECT_FALSE(c.load(kKeyA, models.path()));
  EXPECT_TRUE(fs::exists(elsewhere / "real.svc"));
  // A store replaces whatever is there (the link itself, never its target).
  fs::create_symlink(elsewhere / "real.svc", entry);
  ASSERT_EQ(c.store(kKeyA, bytes_of("model A2"), {}, models.path()), "");
  EXPECT_FALSE(fs::is_symlink(entry));
  EXPECT_EQ(slurp(elsewhere / "real.svc").find("model A2"), std::string::npos);
  ASSERT_TRUE(c.load(kKeyA, models.path()));
}

// An entry far larger than the cache is refused by its size, before a byte of it is read: a
// sparse 64 GiB file (no disk blocks) that read whole would need 64 GiB of memory.
TEST(ModelCache, AHugeEntryIsRefusedBySizeBeforeReading) {
  TempDir models, cache;
  ModelCache c(cache.path(), uint64_t{1} << 20);
  ASSERT_EQ(c.store(kKeyA, bytes_of("model A"), {}, models.path()), "");
  const std::string entry = cache / (kKeyA + ".svc");
  {
    const int fd = ::open(entry.c_str(), O_WRONLY);
    ASSERT_GE(fd, 0);
    ASSERT_EQ(::ftruncate(fd, off_t{64} << 30), 0);
    ::close(fd);
  }
  rusage before{}, after{};
  ::getrusage(RUSAGE_SELF, &before);
  EXPECT_FALSE(c.load(kKeyA, models.path()));
  ::getrusage(RUSAGE_SELF, &after);
  EXPECT_LT(after.ru_maxrss - before.ru_maxrss, 64 << 10) << "KiB of peak memory grew";
  EXPECT_FALSE(fs::exists(entry));
  // Just over the bound: refused as well (a whole entry is at most max_bytes).
  ModelCache small(cache.path(), 64);
  EXPECT_NE(small.store(kKeyB, std::vector<uint8_t>(60, 1), {}, models.path()), "");
  ASSERT_EQ(c.store(kKeyB, std::vector<uint8_t>(60, 1), {}, models.path()), "");
  EXPECT_GT(fs::file_size(cache / (kKeyB + ".svc")), 64u);
  EXPECT_FALSE(small.load(kKeyB, models.path()));
}

// Temporary files: an unpredictable name created exclusively (a link planted where the old code
// wrote, `.tmp-PID-KEY`, is left alone and its target untouched), mode 0600 whatever the umask,
// in a folder narrowed to 0700, none left after a store.
TEST(ModelCache, TemporaryFilesArePrivateExclusiveAndGone) {
  TempDir models, cache, elsewhere;
  const std::string dir = cache / "sv";
  ASSERT_EQ(::mkdir(dir.c_str(), 0755), 0);
  ASSERT_EQ(::chmod(dir.c_str(), 0755), 0);
  write_file(elsewhere / "victim", "precious");
  const std::string planted = dir + "/.tmp-" + std::to_string(::getpid()) + "-" + kKeyA;
  fs::create_symlink(elsewhere / "victim", planted);
  const mode_t old_umask = ::umask(0);
  ModelCache c(dir);
  const std::string stored = c.store(kKeyA, bytes_of("model A"), {}, models.path());
  ::umask(old_umask);
  ASSERT_EQ(stored, "");
  EXPECT_EQ(slurp(elsewhere / "victim"), "precious");
  EXPECT_EQ(mode_of(dir), 0700u);
  EXPECT_EQ(mode_of(dir + "/" + kKeyA + ".svc"), 0600u);
  std::size_t temps = 0;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.path().filename().string().rfind(".tmp-", 0) == 0 && e.path() != planted) ++temps;
  EXPECT_EQ(temps, 0u);
  // A folder created by the cache is 0700 from the start.
  ModelCache fresh(cache / "fresh");
  ASSERT_EQ(fresh.store(kKeyA, bytes_of("model A"), {}, models.path()), "");
  EXPECT_EQ(mode_of(cache / "fresh"), 0700u);
}

// The folder is trusted only when it is a real folder of this user's: a link to one, or (when the
// test may chown) another user's folder, is not used at all.
TEST(ModelCache, AFolderThatIsALinkOrAnotherUsersIsNotUsed) {
  TempDir models, cache;
  ModelCache real(cache / "real");
  ASSERT_EQ(real.store(kKeyA, bytes_of("model A"), {}, models.path()), "");
  fs::create_symlink(cache / "real", cache / "link");
  ModelCache linked(cache / "link");
  EXPECT_FALSE(linked.load(kKeyA, models.path()));
  EXPECT_NE(linked.store(kKeyB, bytes_of("model B"), {}, models.path()), "");
  if (::geteuid() == 0) {
    ASSERT_EQ(::chown((cache / "real").c_str(), 12345, 12345), 0);
    EXPECT_FALSE(real.load(kKeyA, models.path()));
    EXPECT_NE(real.store(kKeyB, bytes_of("model B"), {}, models.path()), "");
  }
}

// Listed files are checked where they resolve: the same model bytes in another folder, beside
// other side files, are a miss; a listed file swapped for a link to an identical copy elsewhere is
// a miss too.
TEST(ModelCache, ListedFilesAreCheckedByResolvedPathAndContent) {
  TempDir a, b, cache, elsewhere;
  write_file(a / "m.gltf", "json");
  write_file(a / "m.bin", "buffer one");
  write_file(b / "m.gltf", "json");
  write_file(b / "m.bin", "buffer two");
  ModelCache c(cache.path());
  const std::string key = ModelCache::key_for(a / "m.gltf", "v1");
  ASSERT_EQ(key, ModelCache::key_for(b / "m.gltf", "v1"));
  // As the worker reports them: absolute paths.
  const std::vector<std::string> listed{a / "m.bin"};
  ASSERT_EQ(c.store(key, bytes_of("model A"), listed, a.path()), "");
  EXPECT_FALSE(c.load(key, b.path()));
  ASSERT_EQ(c.store(key, bytes_of("model A"), listed, a.path()), "");
  EXPECT_TRUE(c.load(key, a.path()));
  write_file(elsewhere / "m.bin", "buffer one");
  fs::remove(a / "m.bin");
  fs::create_symlink(elsewhere / "m.bin", a / "m.bin");
  EXPECT_FALSE(c.load(key, a.path()));
  // A key is refused for a FIFO (no blocking open) and for a file past the size asked for.
  ASSERT_EQ(::mkfifo((a / "fifo.gltf").c_str(), 0600), 0);
  EXPECT_EQ(ModelCache::key_for(a / "fifo.gltf", "v1"), "");
  EXPECT_EQ(ModelCache::key_for(a / "m.gltf", "v1", 3), "");
  EXPECT_EQ(ModelCache::key_for(a / "m.gltf", "v1", 4), key);
}

// map() reads an entry in place: the payload's bytes from the mapping, and a truncated or flipped
// entry refused with what was wrong (the import's report quotes it) and removed.
TEST(ModelCache, AMappedEntryIsReadInPlaceAndADamagedOneRefusedWithAReason) {
  TempDir models, cache;
  ModelCache c(cache.path());
  const std::vector<uint8_t> payload = bytes_of("a payload read in place");
  ASSERT_EQ(c.store(kKeyA, payload, {}, models.path()), "");
  const std::string entry = cache / (kKeyA + ".svc");
  const std::string good = slurp(entry);
  {
    std::string why = "stale";
    auto m = c.map(kKeyA, models.path(), nullptr, &why);
    ASSERT_TRUE(m);
    EXPECT_EQ(std::vector<uint8_t>(m->bytes().begin(), m->bytes().end()), payload);
    EXPECT_EQ(why, "");
    // Moved: the mapping goes with it.
    MappedPayload moved = std::move(*m);
    EXPECT_EQ(std::vector<uint8_t>(moved.bytes().begin(), moved.bytes().end()), payload);
  }
  std::string why;
  EXPECT_FALSE(c.map(kKeyB, models.path(), nullptr, &why));
  EXPECT_EQ(why, "") << "a plain miss has no reason";
  // Cut inside the framing, inside the payload, and one byte short.
  for (std::size_t cut :
       {std::size_t{0}, std::size_t{10}, std::size_t{50}, good.size() - 5, good.size() - 1}) {
    write_file(entry, good.substr(0, cut));
    EXPECT_FALSE(c.map(kKeyA, models.path(), nullptr, &why)) << "truncated to " << cut;
    EXPECT_NE(why.find(kKeyA + ".svc: "), std::string::npos) << why;
    EXPECT_NE(why.find("removed"), std::string::npos) << why;
    EXPECT_FALSE(fs::exists(entry));
  }
  std::string flipped = good;
  flipped[good.size() - 3] = static_cast<char>(flipped[good.size() - 3] ^ 1);
  write_file(entry, flipped);
  EXPECT_FALSE(c.map(kKeyA, models.path(), nullptr, &why));
  EXPECT_NE(why.find("checksum"), std::string::npos) << why;
  // A payload size that points past the end of the file.
  std::string longer = good;
  const std::size_t size_at = good.size() - payload.size() - 16;
  longer[size_at + 6] = '\x7f';
  write_file(entry, longer);
  EXPECT_FALSE(c.map(kKeyA, models.path(), nullptr, &why));
  EXPECT_NE(why.find("payload's size"), std::string::npos) << why;
}

int64_t realtime_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

std::size_t records_in(const std::string& dir) {
  std::size_t n = 0;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.path().extension() == ".svk") ++n;
  return n;
}

// Rewrites `path` in place (same inode, same size) with `bytes` and sets its modification time
// back to what it was: only the status-change time can tell.
void rewrite_keeping_mtime(const std::string& path, const std::string& bytes) {
  struct stat st {};
  ASSERT_EQ(::stat(path.c_str(), &st), 0);
  {
    std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
    f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  }
  const timespec times[2] = {st.st_atim, st.st_mtim};
  ASSERT_EQ(::utimensat(AT_FDCWD, path.c_str(), times, 0), 0);
  struct stat after {};
  ASSERT_EQ(::stat(path.c_str(), &after), 0);
  ASSERT_EQ(after.st_ino, st.st_ino);
  ASSERT_EQ(after.st_mtim.tv_sec, st.st_mtim.tv_sec);
  ASSERT_EQ(after.st_mtim.tv_nsec, st.st_mtim.tv_nsec);
}

// key_of gives key_for's key. A settled file's key is remembered by its identity (the second
// call does not read the file: a record is there); a rewrite in place that keeps the size and
// sets the modification time back is hashed again (its status-change time moved).
TEST(ModelCache, KeyOfRemembersASettledFileAndSeesARewriteInPlace) {
  TempDir models, cache;
  ModelCache c(cache / "sv");
  ASSERT_EQ(c.store(kKeyA, bytes_of("x"), {}, models.path()), "");  // creates the folder
  const std::string model = models / "m.glb";
  write_file(model, "first bytes");
  const int64_t later = realtime_ns() + int64_t{3600} * 1000000000;  // the file an hour old
  const std::string first = ModelCache::key_for(model, "salt");
  EXPECT_EQ(c.key_of(model, "salt", UINT64_MAX, later), first);
  EXPECT_EQ(records_in(cache / "sv"), 1u);
  EXPECT_EQ(c.key_of(model, "salt", UINT64_MAX, later), first);
  EXPECT_NE(c.key_of(model, "other salt", UINT64_MAX, later), first);
  rewrite_keeping_mtime(model, "other bytes");
  const std::string second = ModelCache::key_for(model, "salt");
  ASSERT_NE(second, first);
  EXPECT_EQ(c.key_of(model, "salt", UINT64_MAX, later), second);
  // A damaged record is not believed: the file is hashed.
  for (const auto& e : fs::directory_iterator(cache / "sv"))
    if (e.path().extension() == ".svk") {
      std::string bytes = slurp(e.path());
      char& c = bytes[bytes.size() - 20];  // inside the key
      c = c == 'f' ? '0' : 'f';
      write_file(e.path(), bytes);
    }
  EXPECT_EQ(c.key_of(model, "salt", UINT64_MAX, later), second);
  EXPECT_EQ(c.key_of(models / "missing.glb", "salt", UINT64_MAX, later), "");
}

// A file changed within the timestamps' granularity: its identity is not remembered while its
// times are recent, so a rewrite in the same second (same size, modification time set back) is
// never mistaken for the bytes hashed before.
TEST(ModelCache, AFileRewrittenInTheSameSecondIsHashedAgain) {
  TempDir models, cache;
  ModelCache c(cache / "sv");
  ASSERT_EQ(c.store(kKeyA, bytes_of("x"), {}, models.path()), "");
  const std::string model = models / "m.glb";
  write_file(model, "first bytes");
  const std::string first = c.key_of(model, "salt");
  EXPECT_EQ(first, ModelCache::key_for(model, "salt"));
  EXPECT_EQ(records_in(cache / "sv"), 0u) << "a file written just now is not remembered";
  rewrite_keeping_mtime(model, "other bytes");
  const std::string second = c.key_of(model, "salt");
  EXPECT_EQ(second, ModelCache::key_for(model, "salt"));
  EXPECT_NE(second, first);
}

}  // namespace
}  // namespace sv
