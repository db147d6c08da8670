// Every input the fuzzer found a problem with (tests/data/fuzz/, kept after the fix) goes
// through the fuzz target's own work (fuzz/fuzz_input.h: import from memory with the input's
// format hint, validation, one sampled frame, one CPU skinning pass) and must come out as a
// model or a clean one-line error. A crash fails the whole suite, as it should.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "fuzz_input.h"

namespace sv {
namespace {

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
    EXPECT_EQ(fuzz::exercise(bytes.data(), bytes.size(), &import_error), "") << path;
    RecordProperty(path.filename().string(), import_error.empty() ? "loaded" : import_error);
  }
}

}  // namespace
}  // namespace sv
