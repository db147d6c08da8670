// Corruption sweep: every real skinned model of the foundation issue, cut short and with bytes
// flipped, goes through `skinview --info` or `skinview --dump` as a child process. Each run must
// end by itself with exit status 0 (shown) or 2 (refused, with exactly one line on stderr), never
// by a signal or the harness's kill.
//
// The copies are a seeded sample: per model, SV_SWEEP_COPIES cuts and as many flipped copies
// (fixed seed: the same copies on every run; SV_CORRUPTION_SEED=N in the environment draws
// another sample, and every failure names the seed that made it). Copy k goes through --info
// when k is even and --dump when odd, so both commands see cut and flipped files of every model.
// One test case per model (ctest -j2 balances them next to the other tests); the sanitizer build
// takes fewer copies per model (tests/reliability/CMakeLists.txt), each of its starts costing
// ~0.4 s. Controls that can fail: each model as it is must be shown by both commands, and the
// model cut to its first 8 bytes refused in one line.
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "run_process.h"

#ifndef SV_SWEEP_COPIES
#define SV_SWEEP_COPIES 16  // per model and kind (cut, flipped)
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

uint64_t sample_seed() {
  const char* s = std::getenv("SV_CORRUPTION_SEED");
  return s && *s ? std::strtoull(s, nullptr, 0) : 0x5eed0000u;
}

// "<kind><copy><ext>", built by appending (GCC 12 warns -Wrestrict, falsely, on
// "literal" + std::string chains).
std::string copy_name(const char* kind, int copy, const std::string& ext) {
  std::string name(kind);
  name.append(std::to_string(copy)).append(ext);
  return name;
}

enum class Outcome { kShown, kRefused, kFailed };

// Runs skinview on `file`; a failure is reported with `what`.
Outcome run(const std::string& file, bool dump, const std::string& what) {
  // skinview's own watchdog gives up at 30 s (exit 2, one line); the harness kills at 120 s.
  std::vector<std::string> args{SKINVIEW_EXE, dump ? "--dump" : "--info", file, "--time-limit",
                                "30"};
  if (dump) args.insert(args.end(), {"-o", "/dev/null"});
  const ProcessResult r = run_process(args, 120);
  const std::string name = std::string(dump ? "--dump " : "--info ") + what;
  if (!r.started) {
    ADD_FAILURE() << name << ": could not start skinview";
  } else if (r.timed_out) {
    ADD_FAILURE() << name << ": hung (killed after 120 s, past its own 30 s limit)";
  } else if (r.signal) {
    ADD_FAILURE() << name << ": killed by signal " << r.signal << "\n" << r.err;
  } else if (r.exit_code == 0) {
    return Outcome::kShown;
  } else if (r.exit_code == 2 && line_count(r.err) == 1) {
    return Outcome::kRefused;
  } else {
    ADD_FAILURE() << name << ": exit " << r.exit_code << ", stderr: " << r.err;
  }
  return Outcome::kFailed;
}

class Corruption : public ::testing::TestWithParam<std::size_t> {};

TEST_P(Corruption, TruncatedAndFlippedCopiesExitCleanly) {
  const std::size_t m = GetParam();
  const std::string source = std::string(SKINVIEW_TEST_MODELS) + "/" + kModels[m];
  const std::vector<char> original = read_all(source);
  ASSERT_GT(original.size(), 16u) << source << ": is assimp-testmodels installed?";
  const std::string ext = std::filesystem::path(source).extension().string();
  const auto dir = std::filesystem::temp_directory_path() /
                   ("sv_corrupt_" + std::to_string(::getpid()) + "_" + std::to_string(m));
  std::filesystem::create_directories(dir);
  const uint64_t seed = sample_seed();
  const std::string tag = std::string(kModels[m]) + " (seed " + std::to_string(seed) + ")";

  // The controls: the model as it is, shown by both commands; its first 8 bytes, refused.
  EXPECT_EQ(run(source, false, tag + " as it is"), Outcome::kShown);
  EXPECT_EQ(run(source, true, tag + " as it is"), Outcome::kShown);
  const auto head_path = dir / copy_name("head", 0, ext);
  write_all(head_path, std::vector<char>(original.begin(), original.begin() + 8));
  EXPECT_EQ(run(head_path.string(), false, tag + " cut to 8 bytes"), Outcome::kRefused);

  std::mt19937_64 rng(seed + m);
  int runs = 0, shown = 0, refused = 0;
  const auto count = [&](Outcome o) {
    ++runs;
    shown += o == Outcome::kShown;
    refused += o == Outcome::kRefused;
  };
  for (int c = 0; c < SV_SWEEP_COPIES; ++c) {
    const bool dump = c % 2 == 1;
    // Cut at a random length (never the whole file).
    const std::size_t length = rng() % original.size();
    const auto cut_path = dir / copy_name("cut", c, ext);
    write_all(cut_path, std::vector<char>(original.begin(),
                                          original.begin() + static_cast<std::ptrdiff_t>(length)));
    count(run(cut_path.string(), dump,
              tag + " cut to " + std::to_string(length) + " bytes (copy " + std::to_string(c) +
                  ")"));
    // 1 to 16 bytes changed at random places.
    std::vector<char> flipped = original;
    const int flips = 1 + static_cast<int>(rng() % 16);
    for (int f = 0; f < flips; ++f)
      flipped[rng() % flipped.size()] ^= static_cast<char>(1 + rng() % 255);
    const auto flip_path = dir / copy_name("flip", c, ext);
    write_all(flip_path, flipped);
    count(run(flip_path.string(), dump,
              tag + " with " + std::to_string(flips) + " bytes flipped (copy " +
                  std::to_string(c) + ")"));
  }
  std::filesystem::remove_all(dir);
  RecordProperty("seed", std::to_string(seed));
  RecordProperty("runs", runs);
  RecordProperty("shown", shown);
  RecordProperty("refused", refused);
  // Every copy ended shown or refused (a failed run is also reported on its own, above).
  EXPECT_EQ(shown + refused, runs) << tag;
  EXPECT_EQ(runs, 2 * SV_SWEEP_COPIES);
}

INSTANTIATE_TEST_SUITE_P(Models, Corruption, ::testing::Range(std::size_t{0}, std::size(kModels)),
                         [](const ::testing::TestParamInfo<std::size_t>& info) {
                           std::string name = kModels[info.param];
                           for (char& c : name)
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           return name;
                         });

}  // namespace
}  // namespace sv::test
