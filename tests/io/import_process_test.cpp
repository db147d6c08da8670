// The import worker as a child process (io/import_process.h): every way it can fail becomes one
// line naming the file, nothing it prints reaches this process's output, and no child outlives
// its import. The failures are the real worker made to misbehave on purpose
// (tests/worker_fault.h): a crash, an abort, a hang, memory exhaustion, a malformed result, an
// odd exit status.
#include "io/import_process.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <string>
#include <thread>

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include "big_model.h"
#include "io/heap_warm.h"
#include "io/import.h"
#include "io/model_format.h"
#include "io/sanitizer_build.h"
#include "temp_dir.h"
#include "worker_fault.h"

namespace sv {
namespace {

const std::string kModel = std::string(SKINVIEW_SOURCE_DIR) + "/assets/default.glb";

ImportOptions options(double seconds, uint64_t memory_mib = 0) {
  ImportOptions o;
  o.time_limit_s = seconds;
  o.memory_limit_bytes = memory_mib << 20;
  return o;
}

bool starts_with(const std::string& s, const std::string& prefix) {
  return s.rfind(prefix, 0) == 0;
}

TEST(ImportProcess, TheWorkerIsFound) {
  EXPECT_NE(worker_path(), "");
  const std::vector<std::string>& ext = supported_extensions();
  for (const char* e : {"gltf", "glb", "fbx", "x", "dae", "bvh", "smd", "md5mesh", "b3d", "obj"})
    EXPECT_NE(std::find(ext.begin(), ext.end(), e), ext.end()) << e;
  EXPECT_EQ(std::find(ext.begin(), ext.end(), "md5camera"), ext.end());  // refused, not offered
  EXPECT_TRUE(std::is_sorted(ext.begin(), ext.end()));
  EXPECT_EQ(&ext, &supported_extensions());  // asked once, kept
}

TEST(ImportProcess, AnImportRunsInAChildAndLeavesNone) {
  const ImportResult r = import_model(kModel, options(60));
  ASSERT_TRUE(r.ok()) << r.error;
  EXPECT_EQ(r.provenance.importer.rfind("assimp 5.", 0), 0u) << r.provenance.importer;
  EXPECT_TRUE(r.stream.empty());  // not asked for
  // A worker that said its result was written may still be exiting: reaped here, none left.
  reap_finished_workers();
  EXPECT_EQ(test::child_process_count(), 0);
}

// The worker says its result is written (worker_protocol.h, kDoneLine), closes its output and,
// asked to linger, stays alive: the result is taken without waiting for the process to end, the
// line is not in the report, and the worker is left to reap_finished_workers.
TEST(ImportProcess, AResultSaidWrittenIsTakenBeforeTheWorkerEnds) {
  if (SV_SANITIZER_BUILD)
    GTEST_SKIP() << "a sanitizer build's worker exits normally (LeakSanitizer), without the line";
  test::WorkerFault linger("linger");
  // Were the line not taken, the wait would end at this limit with "gave up".
  const ImportResult r = import_model(kModel, options(20));
  ASSERT_TRUE(r.ok()) << r.error;
  EXPECT_FALSE(r.model->meshes.empty());
  for (const std::string& note : r.report.notes)
    EXPECT_EQ(note.find("result written"), std::string::npos) << note;
  EXPECT_EQ(test::child_process_count(), 1);  // still alive: the result did not wait for its end
  test::signal_children(SIGKILL);
  reap_finished_workers();
  EXPECT_EQ(test::child_process_count(), 0);
}

// io/heap_warm.h's amounts, worked by hand: nothing under 8 MiB, `times` the file, at most half
// the memory limit and 2 GiB, whole pages.
TEST(HeapWarm, AmountsFollowTheFileAndTheLimit) {
  constexpr uint64_t MiB = uint64_t{1} << 20;
  EXPECT_EQ(heap_warm_bytes(8 * MiB - 1, 4, 0), 0u);
  EXPECT_EQ(heap_warm_bytes(8 * MiB, 4, 0), 32 * MiB);
  EXPECT_EQ(heap_warm_bytes(8 * MiB, 3, 0), 24 * MiB);
  EXPECT_EQ(heap_warm_bytes(8 * MiB + 1, 4, 0), 32 * MiB);  // 32 MiB + 4 bytes, to whole pages
  EXPECT_EQ(heap_warm_bytes(68 * MiB, 4, 0), 272 * MiB);
  EXPECT_EQ(heap_warm_bytes(68 * MiB, 3, 0), 204 * MiB);
  EXPECT_EQ(heap_warm_bytes(100 * MiB, 4, 300 * MiB), 150 * MiB);
  EXPECT_EQ(heap_warm_bytes(100 * MiB + 4096 * 3 + 7, 4, 0), 400 * MiB + 4096 * 12);
  EXPECT_EQ(heap_warm_bytes(1024 * MiB, 4, 0), 2048 * MiB);
  EXPECT_EQ(heap_warm_bytes(1024 * MiB, 4, 4096 * MiB), 2048 * MiB);
  EXPECT_EQ(heap_warm_bytes(1024 * MiB, 4, 1024 * MiB), 512 * MiB);
  EXPECT_EQ(heap_warm_bytes(68 * MiB, 0, 0), 0u);
}

// io/heap_warm.h's confinement of the warm's thread: after it, the thread may madvise and exit,
// and an open fails with EPERM; the other threads are not confined (the filter is the calling
// thread's alone). Values only in the thread: a failing EXPECT there would print, and write is
// refused too.
TEST(HeapWarm, TheWarmThreadIsConfinedAndOnlyIt) {
  if (SV_SANITIZER_BUILD)
    GTEST_SKIP() << "a sanitizer's thread teardown makes calls the filter refuses; no warm there";
  bool confined = false;
  int open_errno = 0, madvise_rc = -1;
  alignas(4096) static char page[4096];
  std::thread t([&] {
    confined = confine_to_madvise();
    const int fd = ::open("/proc/self/status", O_RDONLY | O_CLOEXEC);
    open_errno = fd < 0 ? errno : 0;
    if (fd >= 0) ::close(fd);
    madvise_rc = ::madvise(page, sizeof page, MADV_NORMAL);
  });
  t.join();
  EXPECT_TRUE(confined);
  EXPECT_EQ(open_errno, EPERM);
  EXPECT_EQ(madvise_rc, 0);
  const int fd = ::open("/proc/self/status", O_RDONLY | O_CLOEXEC);  // this thread: not confined
  EXPECT_GE(fd, 0) << std::strerror(errno);
  if (fd >= 0) ::close(fd);
}

// A file large enough that the worker faults its heap in ahead on a second thread (12 MiB: 4x
// that, 48 MiB, ahead of the parser) reads to the same tube it always did: 400 rings of 400
// vertices, 2 triangles per quad between rings and around, 32 bones. Under a memory limit the
// warmed heap counts in it: 48 MiB cannot read it.
TEST(ImportProcess, ALargeFileReadsWhileTheHeapIsWarmedAhead) {
  const test::TempDir dir;
  const std::string tube = dir / "tube.glb";
  ASSERT_EQ(bench::write_big_model(tube, 400, 400), "");
  ASSERT_GE(std::filesystem::file_size(tube), uint64_t{8} << 20);
  const ImportResult r = import_model(tube, options(60));
  ASSERT_TRUE(r.ok()) << r.error;
  ASSERT_EQ(r.model->meshes.size(), 1u);
  EXPECT_EQ(r.model->meshes[0].vertex_count(), 160000u);
  EXPECT_EQ(r.model->meshes[0].indices.size(), 399u * 400u * 6u);
  EXPECT_EQ(r.model->skeleton.size(), 34u);  // the 32 bones, the scene root and the tube's node
  const ImportResult small = import_model(tube, options(60, 48));
  EXPECT_FALSE(small.ok());
  EXPECT_NE(small.error.find("ran out of memory (limit 48 MiB)"), std::string::npos) << small.error;
  reap_finished_workers();
  EXPECT_EQ(test::child_process_count(), 0);
}

// The worker's bytes, kept on request, read back to the same model: what a cache would store.
TEST(ImportProcess, TheStreamIsKeptOnRequestAndReadsBack) {
  ImportOptions o = options(60);
  o.keep_stream = true;
  const ImportResult r = import_model(kModel, o);
  ASSERT_TRUE(r.ok()) << r.error;
  ASSERT_FALSE(r.stream.empty());
  const ImportResult again = read_model(r.stream, kModel);
  ASSERT_TRUE(again.ok()) << again.error;
  EXPECT_EQ(again.model->skeleton.names, r.model->skeleton.names);
  EXPECT_EQ(again.model->meshes[0].positions, r.model->meshes[0].positions);
  EXPECT_EQ(again.report.notes, r.report.notes);
}

TEST(ImportProcess, ACrashIsOneLine) {
  test::WorkerFault fault("segv");
  testing::internal::CaptureStderr();
  const ImportResult r = import_model(kModel, options(60));
  const std::string leaked = testing::internal::GetCapturedStderr();
  EXPECT_FALSE(r.ok());
  // Release builds: the signal. Sanitizer builds: the sanitizer catches the signal and names it.
  EXPECT_TRUE(r.error == kModel + ": the importer crashed (SIGSEGV) reading it; refused" ||
              starts_with(r.error, kModel + ": the importer crashed (SIGSEGV) reading it; refused "
                                            "(importer output: "))
      << r.error;
  EXPECT_EQ(r.error.find('\n'), std::string::npos);
  EXPECT_EQ(leaked, "");
  EXPECT_EQ(test::child_process_count(), 0);
}

TEST(ImportProcess, AnAbortIsOneLine) {
  test::WorkerFault fault("abort");
  const ImportResult r = import_model(kModel, options(60));
  EXPECT_TRUE(starts_with(r.error, kModel + ": the importer crashed (SIGABRT) reading it; refused"))
      << r.error;
}

TEST(ImportProcess, AHangIsKilledAtTheTimeLimit) {
  test::WorkerFault fault("hang");
  const auto t0 = std::chrono::steady_clock::now();
  const ImportResult r = import_model(kModel, options(0.5));
  const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_EQ(r.error, kModel + ": gave up after 0.5 s (--time-limit)");
  EXPECT_GE(took, 0.5);  // not before the limit (how long after it depends on the machine)
  EXPECT_EQ(test::child_process_count(), 0);
}

TEST(ImportProcess, MemoryPastTheLimitIsNamed) {
  test::WorkerFault fault("alloc");
  const ImportResult r = import_model(kModel, options(60, 256));
  EXPECT_EQ(r.error,
            kModel + ": the importer ran out of memory (limit 256 MiB) reading it; refused");
  EXPECT_EQ(test::child_process_count(), 0);
}

TEST(ImportProcess, AMalformedResultIsRefused) {
  test::WorkerFault fault("garbage");
  const ImportResult r = import_model(kModel, options(60));
  EXPECT_TRUE(starts_with(r.error, kModel + ": the importer's output is malformed (")) << r.error;
  EXPECT_NE(r.error.find("; refused"), std::string::npos) << r.error;
}

// The worker's output is judged by its size and its header before the body is read: a 3 GiB
// output past the memory limit, or one with a garbage header, is refused without this process
// allocating or reading it (its peak memory does not grow by the output's size).
TEST(ImportProcess, AHugeOrGarbageOutputIsRefusedBeforeItsBodyIsRead) {
  rusage before{}, after{};
  ::getrusage(RUSAGE_SELF, &before);
  {
    test::WorkerFault fault("huge-output");
    const ImportResult r = import_model(kModel, options(60, 256));
    EXPECT_EQ(r.error, kModel +
                           ": the importer's output is 3221225472 bytes, more than the "
                           "memory limit of 256 MiB; refused unread")
        << r.error;
  }
  {
    test::WorkerFault fault("huge-garbage");
    const ImportResult r = import_model(kModel, options(60, 4096));
    EXPECT_EQ(r.error, kModel +
                           ": the importer's output is malformed (no model header (wrong "
                           "magic)); refused unread")
        << r.error;
  }
  ::getrusage(RUSAGE_SELF, &after);
  EXPECT_LT(after.ru_maxrss - before.ru_maxrss, 256 << 10) << "KiB of peak memory grew";
  EXPECT_EQ(test::child_process_count(), 0);
}

TEST(ImportProcess, AnOddExitStatusIsOneLine) {
  test::WorkerFault fault("exit");
  const ImportResult r = import_model(kModel, options(60));
  EXPECT_EQ(r.error, kModel + ": the importer failed (exit status 7) reading it; refused");
}

TEST(ImportProcess, WhatTheWorkerPrintsIsCapturedNotLeaked) {
  test::WorkerFault fault("print");
  testing::internal::CaptureStdout();
  testing::internal::CaptureStderr();
  const ImportResult r = import_model(kModel, options(60));
  const std::string out = testing::internal::GetCapturedStdout();
  const std::string err = testing::internal::GetCapturedStderr();
  ASSERT_TRUE(r.ok()) << r.error;
  EXPECT_EQ(out, "");
  EXPECT_EQ(err, "");
  // 200 KiB printed: the report quotes one line of it, trimmed.
  ASSERT_FALSE(r.report.notes.empty());
  const std::string& note = r.report.notes.back();
  EXPECT_EQ(note.rfind("The importer printed: xxx", 0), 0u) << note;
  EXPECT_LT(note.size(), 300u);
}

TEST(ImportProcess, PollNeverBlocksAndCancelKills) {
  test::WorkerFault fault("hang");
  ImportProcess p;
  // No time limit and a worker that never ends: a poll() that waited for it would never return.
  ASSERT_EQ(p.start(kModel, options(0)), "");
  EXPECT_TRUE(p.running());
  for (int i = 0; i < 100; ++i) EXPECT_FALSE(p.poll().has_value());
  EXPECT_TRUE(p.running());
  p.cancel();
  EXPECT_FALSE(p.running());
  EXPECT_EQ(test::child_process_count(), 0);
}

TEST(ImportProcess, BytesFromMemory) {
  const std::string text =
      "ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty float y\n"
      "property float z\nelement face 1\nproperty list uchar int vertex_indices\nend_header\n"
      "0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n";
  const std::vector<uint8_t> bytes(text.begin(), text.end());
  const ImportResult r = import_model_from_memory(bytes, "ply", "tri.ply", options(60));
  ASSERT_TRUE(r.ok()) << r.error;
  ASSERT_EQ(r.model->meshes.size(), 1u);
  EXPECT_EQ(r.model->meshes[0].vertex_count(), 3u);
  const std::string junk = "this is not a model in any format assimp reads\n";
  const ImportResult bad = import_model_from_memory(std::vector<uint8_t>(junk.begin(), junk.end()),
                                                    "nosuchformat", "x.bin", options(60));
  EXPECT_FALSE(bad.ok());
  EXPECT_EQ(bad.error.rfind("x.bin: ", 0), 0u) << bad.error;
}

}  // namespace
}  // namespace sv
