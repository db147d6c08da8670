// --crowd on the command line: a count out of 1..10000 (0, negative, huge, not a whole number),
// a crowd on the CPU skinning path and the crowd's options without --crowd exit 2 with one line,
// in the window (before it opens, with no display) and in --screenshot and --record.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "cli_util.h"

namespace sv::test {
namespace {

TEST(CrowdCli, BadCrowdsAreOneLineAndStatus2) {
  const std::string def = std::string(SKINVIEW_SOURCE_DIR) + "/assets/default.glb";
  for (const char* n : {"0", "-1", "-1000", "10001", "99999999999999999999", "2.5", "many"}) {
    expect_bad_input(windowless({def, "--crowd", n}), "bad --crowd '" + std::string(n) +
                                                          "' (want a whole number of instances, "
                                                          "1 to 10000)");
  }
  expect_bad_input(windowless({def, "--crowd", "0", "--screenshot", temp_file("c.png")}),
                   "bad --crowd '0'");
  expect_bad_input(windowless({def, "--crowd", "0", "--record", temp_file("c")}),
                   "bad --crowd '0'");
  expect_bad_input(windowless({def, "--crowd", "4", "--skinning", "cpu"}),
                   "--crowd draws with GPU skinning");
  expect_bad_input(windowless({def, "--crowd-shared"}), "need --crowd N");
  expect_bad_input(windowless({def, "--crowd", "4", "--crowd-spacing", "-1"}),
                   "bad --crowd-spacing '-1'");
  // A good crowd gets past the checks: then it is the missing display that stops the window (1).
  ProcessResult r = run_process(windowless({def, "--crowd", "10000", "--crowd-shared"}));
  EXPECT_EQ(r.exit_code, 1) << r.err;
}

}  // namespace
}  // namespace sv::test
