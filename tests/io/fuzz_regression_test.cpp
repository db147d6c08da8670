// Every input the fuzzer found a problem with (tests/data/fuzz/: crashes, hangs and runaway
// allocations inside assimp 5.2.5) goes through the fuzz target's own work (fuzz/fuzz_input.h:
// import from memory with the input's format hint in the import worker, validation, one sampled
// frame, one CPU skinning pass) and must come out as a model or a clean one-line error. Then
// the same bytes are written to a file named after the hint and imported from disk, the path the
// command line and the viewer take (assimp reads files beside it, e.g. an .md5anim next to an
// .md5mesh, and buffers them its own way). The worker runs with a 1 GiB memory limit and a 30 s
// time limit here: whatever assimp does with these files, this process sees one line.
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "fuzz_input.h"
#include "usable_model.h"

namespace sv {
namespace {

ImportOptions limits() {
  ImportOptions o;
  o.time_limit_s = 30;
  o.memory_limit_bytes = uint64_t{1} << 30;
  return o;
}

TEST(FuzzRegression, EveryKeptInputLoadsOrFailsCleanly) {
  const std::filesystem::path dir = std::filesystem::path(SKINVIEW_SOURCE_DIR) / "tests/data/fuzz";
  std::vector<std::filesystem::path> files;
  for (const auto& e : std::filesystem::directory_iterator(dir))
    if (e.is_regular_file() && e.path().filename() != "README.md") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  ASSERT_FALSE(files.empty());
  for (const auto& path : files) {
    std::ifstream in(path, std::ios::binary);
    const std::vector<uint8_t> bytes{std::istreambuf_iterator<char>(in),
                                     std::istreambuf_iterator<char>()};
    std::string import_error;
    EXPECT_EQ(fuzz::exercise(bytes.data(), bytes.size(), &import_error, limits()), "") << path;
    RecordProperty(path.filename().string(), import_error.empty() ? "loaded" : import_error);
  }
}

TEST(FuzzRegression, EveryKeptInputLoadsOrFailsCleanlyFromDisk) {
  const std::filesystem::path dir = std::filesystem::path(SKINVIEW_SOURCE_DIR) / "tests/data/fuzz";
  const std::filesystem::path tmp =
      std::filesystem::temp_directory_path() / ("skinview_fuzz_disk_" + std::to_string(::getpid()));
  std::filesystem::create_directories(tmp);
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    if (!e.is_regular_file() || e.path().filename() == "README.md") continue;
    std::ifstream in(e.path(), std::ios::binary);
    const std::string bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    if (bytes.size() < 2) continue;
    const char* hint = fuzz::kHints[static_cast<uint8_t>(bytes[0]) % fuzz::kHintCount];
    const std::string file = (tmp / (e.path().filename().string() + "." + hint)).string();
    std::ofstream(file, std::ios::binary) << bytes.substr(1);
    const ImportResult r = import_model(file, limits());
    if (!r.ok()) {
      EXPECT_FALSE(r.error.empty()) << e.path();
      EXPECT_EQ(r.error.find('\n'), std::string::npos) << e.path();
    } else {
      test::expect_usable(*r.model, e.path().string());
    }
    std::filesystem::remove(file);
  }
  std::filesystem::remove_all(tmp);
}

}  // namespace
}  // namespace sv
