// ModelLoader (src/app/model_loader.h), the viewer's background reader: no window and no GL.
// Reads that hang are imitated by an import function that blocks until the test releases it,
// so every thread the tests start has ended before they return.
#include "app/model_loader.h"

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include <gtest/gtest.h>

namespace sv {
namespace {

using namespace std::chrono_literals;

// An import that blocks on paths starting with "hang" until release(), and otherwise returns
// a failure naming the path (enough to tell results apart).
class FakeImport {
 public:
  ModelLoader::ImportFn fn() {
    return [this](const std::string& path) {
      if (path.rfind("hang", 0) == 0) {
        std::unique_lock lock(mutex_);
        cv_.wait(lock, [this] { return released_; });
      }
      ImportResult r;
      r.error = "read " + path;
      return r;
    };
  }
  void release() {
    {
      std::lock_guard lock(mutex_);
      released_ = true;
    }
    cv_.notify_all();
  }
  ~FakeImport() {
    release();
    // Every reader thread must be gone before the test (and its FakeImport) is.
    for (int i = 0; i < 500 && ModelLoader::running() > 0; ++i) std::this_thread::sleep_for(10ms);
  }

 private:
  std::mutex mutex_;
  std::condition_variable cv_;
  bool released_ = false;
};

std::optional<ModelLoader::Finished> wait_for(ModelLoader& loader, double seconds) {
  const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while (std::chrono::steady_clock::now() < end) {
    if (auto done = loader.poll()) return done;
    std::this_thread::sleep_for(5ms);
  }
  return std::nullopt;
}

TEST(ModelLoader, ReadsARealFileInTheBackground) {
  ModelLoader loader(60.0);
  const std::string path = std::string(SKINVIEW_SOURCE_DIR) + "/assets/default.glb";
  ASSERT_EQ(loader.start(path), "");
  EXPECT_TRUE(loader.busy());
  EXPECT_EQ(loader.path(), path);
  auto done = wait_for(loader, 60.0);
  ASSERT_TRUE(done.has_value());
  EXPECT_EQ(done->path, path);
  ASSERT_TRUE(done->result.ok()) << done->result.error;
  EXPECT_FALSE(done->result.model->meshes.empty());
  EXPECT_FALSE(loader.busy());
  EXPECT_FALSE(loader.poll().has_value());
  // The thread counts itself out just after handing over its result.
  for (int i = 0; i < 500 && ModelLoader::running() > 0; ++i) std::this_thread::sleep_for(10ms);
  EXPECT_EQ(ModelLoader::running(), 0);
}

TEST(ModelLoader, GivesUpOnAReadPastTheLimitAndOpensTheNextOne) {
  FakeImport fake;
  const int abandoned_before = ModelLoader::abandoned();
  ModelLoader loader(0.2, fake.fn());
  const auto t0 = std::chrono::steady_clock::now();
  ASSERT_EQ(loader.start("hang.x"), "");
  EXPECT_FALSE(loader.poll().has_value());  // still reading, limit not reached
  auto done = wait_for(loader, 10.0);
  const double waited =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  ASSERT_TRUE(done.has_value());
  EXPECT_GE(waited, 0.2);
  EXPECT_LT(waited, 5.0);
  EXPECT_FALSE(done->result.ok());
  EXPECT_EQ(done->result.error.find("hang.x: gave up after 0.2 s"), 0u) << done->result.error;
  EXPECT_FALSE(loader.busy());
  EXPECT_EQ(ModelLoader::abandoned(), abandoned_before + 1);

  // The window is free to open another file while the abandoned read still runs.
  ASSERT_EQ(loader.start("next.x"), "");
  done = wait_for(loader, 10.0);
  ASSERT_TRUE(done.has_value());
  EXPECT_EQ(done->result.error, "read next.x");

  // When the abandoned read ends, its result goes nowhere and its thread is counted out.
  fake.release();
  for (int i = 0; i < 500 && ModelLoader::abandoned() > abandoned_before; ++i)
    std::this_thread::sleep_for(10ms);
  EXPECT_EQ(ModelLoader::abandoned(), abandoned_before);
  EXPECT_FALSE(loader.poll().has_value());
}

TEST(ModelLoader, ANewReadReplacesTheOneInProgress) {
  FakeImport fake;
  ModelLoader loader(0.0, fake.fn());  // no limit
  ASSERT_EQ(loader.start("hang-first.x"), "");
  ASSERT_EQ(loader.start("second.x"), "");
  EXPECT_EQ(loader.path(), "second.x");
  auto done = wait_for(loader, 10.0);
  ASSERT_TRUE(done.has_value());
  EXPECT_EQ(done->path, "second.x");
  EXPECT_EQ(done->result.error, "read second.x");
  fake.release();
  // Without a limit, a hanging read is never given up on by poll().
  ModelLoader patient(0.0, fake.fn());
  ASSERT_EQ(patient.start("quick.x"), "");
  EXPECT_TRUE(wait_for(patient, 10.0).has_value());
}

TEST(ModelLoader, RefusesNewReadsWhileTooManyAbandonedOnesRun) {
  FakeImport fake;
  const int before = ModelLoader::abandoned();
  ModelLoader loader(0.0, fake.fn());
  // Each start gives up on the read before it.
  for (int i = before; i < ModelLoader::kMaxAbandoned; ++i)
    ASSERT_EQ(loader.start("hang" + std::to_string(i) + ".x"), "");
  EXPECT_EQ(ModelLoader::abandoned(), ModelLoader::kMaxAbandoned - 1);
  const std::string why = loader.start("one-more.x");
  EXPECT_EQ(ModelLoader::abandoned(), ModelLoader::kMaxAbandoned);
  EXPECT_NE(why.find("one-more.x: not opened"), std::string::npos) << why;
  EXPECT_FALSE(loader.busy());
  fake.release();
  for (int i = 0; i < 500 && ModelLoader::abandoned() > 0; ++i) std::this_thread::sleep_for(10ms);
  EXPECT_EQ(loader.start("one-more.x"), "");
  EXPECT_TRUE(wait_for(loader, 10.0).has_value());
}

}  // namespace
}  // namespace sv
