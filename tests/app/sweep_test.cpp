// Every file in the assimp-testmodels package goes through `skinview --info` without a crash or
// a hang: exit status 0 (shown) or 2 (refused with one line), never a signal. Each file runs as
// its own child process with skinview's own time limit (a watchdog, not a bound on speed: a
// file given up on is a refusal like any other).
//
// The list is cut into kShards test cases (file i in shard i % kShards) so that ctest -j2 keeps
// both cores busy with them next to the other tests, instead of one test holding a core for
// minutes. A sanitizer build (SV_SWEEP_REPRESENTATIVE, set by tests/app/CMakeLists.txt when
// SKINVIEW_SANITIZE is on) sweeps a fixed representative subset -- the first file, by name, of
// every file extension in the package (every format at least once, and the pictures and text
// files beside them) plus every file the corruption sweep starts from -- since each sanitized
// start costs ~0.4 s; the Release pass sweeps every file.
#include <algorithm>
#include <cctype>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "run_process.h"

#ifndef SV_SWEEP_REPRESENTATIVE
#define SV_SWEEP_REPRESENTATIVE 0
#endif

namespace sv::test {
namespace {

constexpr int kShards = 8;

// The skinned models the corruption sweep (tests/reliability) starts from: always swept.
const char* const kAlways[] = {
    "X/BCN_Epileptic.X",  "X/Testwuson.X",    "X/anim_test.x",
    "FBX/animation_with_skeleton.fbx",        "FBX/huesitos.fbx",
    "glTF2/simple_skin/simple_skin.gltf",     "SMD/WusonSMD.smd",
    "MD5/SimpleCube.md5mesh",                 "BVH/01_01.bvh",
};

std::string extension_of(const std::filesystem::path& p) {
  std::string e = p.extension().string();
  for (char& c : e) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return e;
}

// Every file of the package, sorted; listed once and shared by the shards.
const std::vector<std::string>& package_files() {
  static const std::vector<std::string> files = [] {
    std::vector<std::string> out;
    std::error_code ec;
    for (std::filesystem::recursive_directory_iterator it(SKINVIEW_TEST_MODELS, ec), end;
         !ec && it != end; it.increment(ec))
      if (it->is_regular_file()) out.push_back(it->path().string());
    std::sort(out.begin(), out.end());
    return out;
  }();
  return files;
}

// The first file of every extension (the package's own order: sorted paths) and kAlways.
std::vector<std::string> representative(const std::vector<std::string>& files) {
  std::set<std::string> seen;
  std::set<std::string> always;
  for (const char* rel : kAlways) always.insert(std::string(SKINVIEW_TEST_MODELS) + "/" + rel);
  std::vector<std::string> out;
  for (const std::string& f : files)
    if (seen.insert(extension_of(f)).second || always.count(f)) out.push_back(f);
  return out;
}

const std::vector<std::string>& swept_files() {
  static const std::vector<std::string> files =
      SV_SWEEP_REPRESENTATIVE ? representative(package_files()) : package_files();
  return files;
}

TEST(SweepFiles, ThePackageIsInstalledAndTheSubsetCoversEveryFormat) {
  const std::vector<std::string>& all = package_files();
  ASSERT_GT(all.size(), 100u) << "is the assimp-testmodels package installed?";
  std::set<std::string> extensions, covered;
  for (const std::string& f : all) extensions.insert(extension_of(f));
  const std::vector<std::string> subset = representative(all);
  for (const std::string& f : subset) covered.insert(extension_of(f));
  EXPECT_EQ(covered, extensions);
  for (const char* rel : kAlways)
    EXPECT_EQ(std::count(subset.begin(), subset.end(), std::string(SKINVIEW_TEST_MODELS) + "/" + rel),
              1)
        << rel;
  EXPECT_LT(subset.size(), all.size() / 4);  // a subset, or the sanitizer pass gains nothing
  RecordProperty("files", static_cast<int>(all.size()));
  RecordProperty("swept", static_cast<int>(swept_files().size()));
}

class Sweep : public ::testing::TestWithParam<int> {};

TEST_P(Sweep, EveryPackageFileGoesThroughInfoWithoutACrash) {
  const std::vector<std::string>& files = swept_files();
  ASSERT_FALSE(files.empty()) << "is the assimp-testmodels package installed?";
  std::size_t runs = 0, shown = 0, refused = 0;
  for (std::size_t i = static_cast<std::size_t>(GetParam()); i < files.size(); i += kShards) {
    ++runs;
    // skinview's own watchdog gives up at 60 s (a one-line refusal); the harness kills at 120 s.
    const ProcessResult r =
        run_process({SKINVIEW_EXE, "--info", files[i], "--time-limit", "60"}, 120);
    if (!r.started)
      ADD_FAILURE() << files[i] << ": could not start skinview";
    else if (r.timed_out)
      ADD_FAILURE() << files[i] << ": hung (killed after 120 s, past its own 60 s limit)";
    else if (r.signal)
      ADD_FAILURE() << files[i] << ": killed by signal " << r.signal << "\n" << r.err;
    else if (r.exit_code == 0)
      ++shown;
    else if (r.exit_code == 2 && line_count(r.err) == 1)
      ++refused;
    else
      ADD_FAILURE() << files[i] << ": exit " << r.exit_code << ", stderr: " << r.err;
  }
  RecordProperty("runs", static_cast<int>(runs));
  RecordProperty("shown", static_cast<int>(shown));
  RecordProperty("refused", static_cast<int>(refused));
  EXPECT_GT(runs, 0u);
  // About half of the package's files are models skinview shows (~330 of 595; the rest are
  // pictures, text, formats assimp cannot read): a skinview that refused what it should show
  // fails here. (The representative subset is too small per shard to say so: the skinned models
  // below are its check.)
  if (!SV_SWEEP_REPRESENTATIVE) {
    EXPECT_GT(shown, runs / 4);
  }
}

INSTANTIATE_TEST_SUITE_P(Shards, Sweep, ::testing::Range(0, kShards));

// The skinned models every pass sweeps are shown (exit 0), whose outcome is known: a sweep that
// counted everything as refused would pass the shards above, not this.
TEST(SweepFiles, TheSkinnedModelsAreShown) {
  for (const char* rel : kAlways) {
    const std::string f = std::string(SKINVIEW_TEST_MODELS) + "/" + rel;
    const ProcessResult r = run_process({SKINVIEW_EXE, "--info", f, "--time-limit", "60"}, 120);
    EXPECT_TRUE(r.exited() && r.exit_code == 0) << rel << ": exit " << r.exit_code << " " << r.err;
  }
}

}  // namespace
}  // namespace sv::test
