// ModelLoader (src/app/model_loader.h), the viewer's reader: the import worker as a child process,
// polled without blocking; no window and no GL. Reads that hang or crash are the real worker made
// to misbehave on purpose (tests/worker_fault.h), and every test checks that no child process is
// left behind.
#include "app/model_loader.h"

#include <chrono>
#include <optional>
#include <string>
#include <thread>

#include <gtest/gtest.h>

#include "io/import_process.h"
#include "temp_dir.h"
#include "worker_fault.h"

namespace sv {
namespace {

using namespace std::chrono_literals;

const std::string kModel = std::string(SKINVIEW_SOURCE_DIR) + "/assets/default.glb";

ImportOptions limit(double seconds) {
  ImportOptions o;
  o.time_limit_s = seconds;
  return o;
}

std::optional<ModelLoader::Finished> wait_for(ModelLoader& loader, double seconds) {
  const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while (std::chrono::steady_clock::now() < end) {
    if (auto done = loader.poll()) return done;
    std::this_thread::sleep_for(5ms);
  }
  return std::nullopt;
}

TEST(ModelLoader, ReadsARealFileWithoutBlocking) {
  {
    // start() and poll() return while the read goes on in the child: with a worker that never
    // ends and no time limit, one that waited for it would never return.
    test::WorkerFault hang("hang");
    ModelLoader hanging(limit(0.0));
    ASSERT_EQ(hanging.start(kModel), "");
    for (int i = 0; i < 100; ++i) EXPECT_FALSE(hanging.poll().has_value());
    EXPECT_TRUE(hanging.busy());
    EXPECT_EQ(test::child_process_count(), 1);
  }
  EXPECT_EQ(test::child_process_count(), 0);  // the loader's end killed the read
  ModelLoader loader(limit(60.0));
  ASSERT_EQ(loader.start(kModel), "");
  EXPECT_TRUE(loader.busy());
  EXPECT_EQ(loader.path(), kModel);
  auto done = wait_for(loader, 60.0);
  ASSERT_TRUE(done.has_value());
  EXPECT_EQ(done->path, kModel);
  ASSERT_TRUE(done->result.ok()) << done->result.error;
  EXPECT_FALSE(done->result.model->meshes.empty());
  EXPECT_FALSE(loader.busy());
  EXPECT_FALSE(loader.poll().has_value());
  reap_finished_workers();  // a worker that said its result was written may still be exiting
  EXPECT_EQ(test::child_process_count(), 0);
}

// With a cache folder: the first read runs the worker and stores its model (on a thread the
// loader waits for when destroyed); a second loader finds it and runs no worker.
TEST(ModelLoader, AReopenComesFromTheModelCache) {
  const test::TempDir dir;
  ImportOptions o = limit(60.0);
  o.cache_dir = dir / "cache";
  {
    ModelLoader loader(o);
    ASSERT_EQ(loader.start(kModel), "");
    EXPECT_TRUE(loader.busy());
    auto done = wait_for(loader, 60.0);
    ASSERT_TRUE(done.has_value());
    ASSERT_TRUE(done->result.ok()) << done->result.error;
    EXPECT_FALSE(done->result.from_cache);
    EXPECT_TRUE(done->result.stream.empty());
  }
  ModelLoader loader(o);
  ASSERT_EQ(loader.start(kModel), "");
  auto done = wait_for(loader, 60.0);
  ASSERT_TRUE(done.has_value());
  ASSERT_TRUE(done->result.ok()) << done->result.error;
  EXPECT_TRUE(done->result.from_cache);
  EXPECT_FALSE(done->result.model->meshes.empty());
  EXPECT_FALSE(loader.busy());
  reap_finished_workers();  // the first loader's worker may still be exiting
  EXPECT_EQ(test::child_process_count(), 0);
}

TEST(ModelLoader, GivesUpOnAHangingReadKillsItAndOpensTheNextFile) {
  ModelLoader loader(limit(0.5));
  {
    test::WorkerFault hang("hang");
    const auto t0 = std::chrono::steady_clock::now();
    ASSERT_EQ(loader.start(kModel), "");
    EXPECT_FALSE(loader.poll().has_value());  // still reading, limit not reached
    EXPECT_EQ(test::child_process_count(), 1);
    auto done = wait_for(loader, 60.0);
    const double waited =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    ASSERT_TRUE(done.has_value());
    EXPECT_GE(waited, 0.5);  // not before the limit (how long after it depends on the machine)
    EXPECT_FALSE(done->result.ok());
    EXPECT_EQ(done->result.error, kModel + ": gave up after 0.5 s (--time-limit)");
    EXPECT_FALSE(loader.busy());
    // Given up on is killed: no process keeps reading in the background.
    EXPECT_EQ(test::child_process_count(), 0);
  }
  ModelLoader next(limit(60.0));
  ASSERT_EQ(next.start(kModel), "");
  auto done = wait_for(next, 60.0);
  ASSERT_TRUE(done.has_value());
  EXPECT_TRUE(done->result.ok()) << done->result.error;
}

TEST(ModelLoader, ANewReadCancelsTheOneInProgress) {
  ModelLoader loader(limit(0.0));  // no limit: only the new start() ends the hanging read
  {
    test::WorkerFault hang("hang");
    ASSERT_EQ(loader.start("/dev/null"), "");
    std::this_thread::sleep_for(100ms);
    EXPECT_FALSE(loader.poll().has_value());
    EXPECT_EQ(test::child_process_count(), 1);
  }
  ASSERT_EQ(loader.start(kModel), "");
  EXPECT_EQ(loader.path(), kModel);
  EXPECT_EQ(test::child_process_count(), 1);  // the new read's only
  auto done = wait_for(loader, 60.0);
  ASSERT_TRUE(done.has_value());
  EXPECT_EQ(done->path, kModel);
  EXPECT_TRUE(done->result.ok()) << done->result.error;
  reap_finished_workers();  // a worker that said its result was written may still be exiting
  EXPECT_EQ(test::child_process_count(), 0);
}

TEST(ModelLoader, ACrashingReadIsAOneLineFailure) {
  ModelLoader loader(limit(60.0));
  test::WorkerFault crash("segv");
  ASSERT_EQ(loader.start(kModel), "");
  auto done = wait_for(loader, 60.0);
  ASSERT_TRUE(done.has_value());
  EXPECT_FALSE(done->result.ok());
  EXPECT_EQ(done->result.error.rfind(kModel + ": the importer crashed (", 0), 0u)
      << done->result.error;
  EXPECT_EQ(done->result.error.find('\n'), std::string::npos);
  EXPECT_EQ(test::child_process_count(), 0);
}

TEST(ModelLoader, DestroyingTheLoaderKillsItsRead) {
  {
    test::WorkerFault hang("hang");
    ModelLoader loader(limit(0.0));
    ASSERT_EQ(loader.start(kModel), "");
    std::this_thread::sleep_for(50ms);
    EXPECT_EQ(test::child_process_count(), 1);
  }
  EXPECT_EQ(test::child_process_count(), 0);
}

}  // namespace
}  // namespace sv
