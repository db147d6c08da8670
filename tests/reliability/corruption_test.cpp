// Corruption sweep: every real skinned model of the foundation issue, cut short at 20 places
// and with bytes flipped in 20 copies (fixed seeds), goes through `skinview --info` and
// `skinview --dump` as a child process. Each run must end by itself within the time limit with
// exit status 0 (shown) or 2 (refused, with exactly one line on stderr), never by a signal.
// Two workers share the runs (CI machines have two cores).
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <mutex>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "run_process.h"

#ifndef SV_SWEEP_COPIES
#define SV_SWEEP_COPIES 20  // per model and kind (truncated, flipped)
#endif

namespace sv::test {
namespace {

const char* const kModels[] = {
    "X/BCN_Epileptic.X", "X/Testwuson.X",
    "X/anim_test.x",     "FBX/animation_with_skeleton.fbx",
    "FBX/huesitos.fbx",  "glTF2/simple_skin/simple_skin.gltf",
    "SMD/WusonSMD.smd",  "MD5/SimpleCube.md5mesh",
    "BVH/01_01.bvh",
};

std::vector<char> read_all(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void write_all(const std::filesystem::path& path, const std::vector<char>& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

// "m<model><kind><copy><ext>", built by appending (GCC 12 warns -Wrestrict, falsely, on
// "literal" + std::string chains).
std::string copy_name(std::size_t model, const char* kind, int copy, const std::string& ext) {
  std::string name(1, 'm');
  name.append(std::to_string(model)).append(kind).append(std::to_string(copy)).append(ext);
  return name;
}

struct SweepRun {
  std::string file;  // the corrupted copy
  std::string what;  // how it was made, for the failure message
  bool dump;         // --dump instead of --info
};

TEST(Corruption, TruncatedAndFlippedCopiesExitCleanly) {
  const auto dir =
      std::filesystem::temp_directory_path() / ("sv_corrupt_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  std::vector<SweepRun> runs;
  for (std::size_t m = 0; m < std::size(kModels); ++m) {
    const std::string source = std::string(SKINVIEW_TEST_MODELS) + "/" + kModels[m];
    const std::vector<char> original = read_all(source);
    ASSERT_GT(original.size(), 16u) << source << ": is assimp-testmodels installed?";
    const std::string ext = std::filesystem::path(source).extension().string();
    std::mt19937_64 rng(0x5eed0000u + m);  // fixed: the same copies on every run
    for (int c = 0; c < SV_SWEEP_COPIES; ++c) {
      // Cut at a random length (never the whole file).
      std::vector<char> cut(original.begin(), original.begin() + static_cast<std::ptrdiff_t>(
                                                                     rng() % original.size()));
      const auto cut_path = dir / copy_name(m, "_cut", c, ext);
      write_all(cut_path, cut);
      // 1 to 16 bytes changed at random places.
      std::vector<char> flipped = original;
      const int flips = 1 + static_cast<int>(rng() % 16);
      for (int f = 0; f < flips; ++f)
        flipped[rng() % flipped.size()] ^= static_cast<char>(1 + rng() % 255);
      const auto flip_path = dir / copy_name(m, "_flip", c, ext);
      write_all(flip_path, flipped);
      const std::string cut_what = std::string(kModels[m]) + " cut to " +
                                   std::to_string(cut.size()) + " bytes (copy " +
                                   std::to_string(c) + ")";
      const std::string flip_what = std::string(kModels[m]) + " with " + std::to_string(flips) +
                                    " bytes flipped (copy " + std::to_string(c) + ")";
      for (bool dump : {false, true}) {
        runs.push_back({cut_path.string(), cut_what, dump});
        runs.push_back({flip_path.string(), flip_what, dump});
      }
    }
  }

  std::atomic<std::size_t> next{0};
  std::mutex mutex;
  std::vector<std::string> failures;
  std::size_t shown = 0, refused = 0;
  auto worker = [&] {
    for (std::size_t i = next++; i < runs.size(); i = next++) {
      const SweepRun& run = runs[i];
      // skinview's own watchdog gives up at 30 s (exit 2, one line); the harness kills at 60 s.
      std::vector<std::string> args{SKINVIEW_EXE, run.dump ? "--dump" : "--info", run.file,
                                    "--time-limit", "30"};
      if (run.dump) args.insert(args.end(), {"-o", "/dev/null"});
      const ProcessResult r = run_process(args, 60);
      const std::string name = std::string(run.dump ? "--dump " : "--info ") + run.what;
      std::lock_guard lock(mutex);
      if (!r.started)
        failures.push_back(name + ": could not start skinview");
      else if (r.timed_out)
        failures.push_back(name + ": hung (killed after 60 s)");
      else if (r.signal)
        failures.push_back(name + ": killed by signal " + std::to_string(r.signal) + "\n" + r.err);
      else if (r.exit_code == 0)
        ++shown;
      else if (r.exit_code == 2 && line_count(r.err) == 1)
        ++refused;
      else
        failures.push_back(name + ": exit " + std::to_string(r.exit_code) + ", stderr: " + r.err);
    }
  };
  std::thread a(worker), b(worker);
  a.join();
  b.join();
  std::filesystem::remove_all(dir);
  for (const std::string& f : failures) ADD_FAILURE() << f;
  RecordProperty("runs", static_cast<int>(runs.size()));
  RecordProperty("shown", static_cast<int>(shown));
  RecordProperty("refused", static_cast<int>(refused));
  EXPECT_EQ(shown + refused + failures.size(), runs.size());
}

}  // namespace
}  // namespace sv::test
