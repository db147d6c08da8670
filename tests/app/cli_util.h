// What the command-line suites (cli_test.cpp, blend_cli_test.cpp) share: the executable under
// test, a per-process temporary file name, --dump read back as JSON, the one-line,
// exit-status-2 check for bad input, and the window's command line without a display.
#pragma once

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "json_file.h"
#include "run_process.h"

namespace sv::test {

inline const std::string kExe = SKINVIEW_EXE;

// A path in the temporary folder, unique to this test process.
inline std::string temp_file(const std::string& name) {
  return (std::filesystem::temp_directory_path() /
          ("skinview_cli_" + std::to_string(::getpid()) + "_" + name))
      .string();
}

// Runs `skinview --dump FILE -o TEMP EXTRA...`, expects exit status 0 and returns the JSON.
inline nlohmann::json dump(const std::vector<std::string>& extra, const std::string& file) {
  const std::string out = temp_file("dump.json");
  std::vector<std::string> args{kExe, "--dump", file, "-o", out};
  args.insert(args.end(), extra.begin(), extra.end());
  ProcessResult r = run_process(args);
  EXPECT_TRUE(r.exited()) << "timed out or crashed";
  EXPECT_EQ(r.exit_code, 0) << r.err;
  nlohmann::json j = read_json_file(out);
  std::filesystem::remove(out);
  return j;
}

// Expects exit status 2 with exactly one line on stderr, starting "skinview: ", that mentions
// `must_mention`.
inline void expect_bad_input(const std::vector<std::string>& args,
                             const std::string& must_mention) {
  ProcessResult r = run_process(args);
  ASSERT_TRUE(r.exited()) << "timed out or crashed (signal " << r.signal << ")";
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_EQ(line_count(r.err), 1u) << r.err;
  EXPECT_EQ(r.err.rfind("skinview: ", 0), 0u) << r.err;
  EXPECT_NE(r.err.find(must_mention), std::string::npos) << r.err;
}

// The window's command line with no display at all: what is checked before the window opens
// must fail with exit 2 and its message, not with "no display".
inline std::vector<std::string> windowless(std::vector<std::string> args) {
  args.insert(args.begin(), {"/usr/bin/env", "-u", "DISPLAY", "-u", "WAYLAND_DISPLAY", kExe});
  return args;
}

}  // namespace sv::test
