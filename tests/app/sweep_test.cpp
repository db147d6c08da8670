// Every file in the assimp-testmodels package goes through `skinview --info` without a crash or
// a hang: exit status 0 (shown) or 2 (refused with one line), never a signal. Each file runs as
// its own child process with a time limit; two workers share the list (CI machines have two
// cores), which keeps the sweep to well under a minute there.
#include <algorithm>
#include <atomic>
#include <filesystem>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "run_process.h"

namespace sv::test {
namespace {

TEST(Sweep, EveryPackageFileGoesThroughInfoWithoutACrash) {
  std::vector<std::string> files;
  for (const auto& e : std::filesystem::recursive_directory_iterator(SKINVIEW_TEST_MODELS))
    if (e.is_regular_file()) files.push_back(e.path().string());
  std::sort(files.begin(), files.end());
  ASSERT_GT(files.size(), 100u) << "is the assimp-testmodels package installed?";

  std::atomic<std::size_t> next{0};
  std::mutex mutex;
  std::vector<std::string> failures;
  std::size_t shown = 0, refused = 0;
  auto worker = [&] {
    for (std::size_t i = next++; i < files.size(); i = next++) {
      // skinview's own watchdog gives up at 60 s; the harness kills at 90 s.
      ProcessResult r = run_process({SKINVIEW_EXE, "--info", files[i], "--time-limit", "60"}, 90);
      std::lock_guard lock(mutex);
      if (!r.started)
        failures.push_back(files[i] + ": could not start skinview");
      else if (r.timed_out)
        failures.push_back(files[i] + ": hung (killed after 90 s)");
      else if (r.signal)
        failures.push_back(files[i] + ": killed by signal " + std::to_string(r.signal));
      else if (r.exit_code == 0)
        ++shown;
      else if (r.exit_code == 2 && line_count(r.err) == 1)
        ++refused;
      else
        failures.push_back(files[i] + ": exit " + std::to_string(r.exit_code) +
                           ", stderr: " + r.err);
    }
  };
  std::thread a(worker), b(worker);
  a.join();
  b.join();
  for (const std::string& f : failures) ADD_FAILURE() << f;
  RecordProperty("shown", static_cast<int>(shown));
  RecordProperty("refused", static_cast<int>(refused));
  EXPECT_GT(shown, 100u);
}

}  // namespace
}  // namespace sv::test
