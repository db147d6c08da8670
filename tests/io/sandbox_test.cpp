// The import worker's sandbox (src/import/sandbox.h), seen from outside: the real worker, made to
// probe its own confinement (the "sandbox-probe" fault, io/worker_protocol.h), tries to read a
// file outside the model's folder, to create a file, to exec, to open sockets and to ptrace, and
// reports each outcome. Every layer the worker says is in force must hold; with the sandbox turned
// off (SKINVIEW_NO_SANDBOX) the same probe reaches everything, so the probe itself is shown to
// see what it claims to. The files are generated in a temporary folder.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include "io/import.h"
#include "temp_dir.h"
#include "worker_fault.h"

namespace sv {
namespace {

namespace fs = std::filesystem;

const std::string kModel = std::string(SKINVIEW_SOURCE_DIR) + "/assets/default.glb";

struct Probe {
  std::map<std::string, std::string> outcome;  // "outside" -> "EACCES", ...
  std::string sandbox;                          // the layers the worker says are in force
  std::string line;
};

// <tmp>/model/default.glb beside <tmp>/model/probe-inside, and <tmp>/probe-outside: the file
// the sandbox must keep the worker from.
class SandboxTest : public testing::Test {
 protected:
  void SetUp() override {
    fs::create_directory(dir_ / "model");
    fs::copy_file(kModel, dir_ / "model/default.glb");
    std::ofstream(dir_ / "model/probe-inside") << "inside";
    std::ofstream(dir_ / "probe-outside") << "a private file";
  }
  void TearDown() override { ::unsetenv("SKINVIEW_NO_SANDBOX"); }

  Probe probe(const ImportOptions& options = {}) {
    test::WorkerFault fault("sandbox-probe");
    const ImportResult r = import_model(dir_ / "model/default.glb", options);
    Probe p;
    p.line = r.error;
    EXPECT_FALSE(r.ok());
    const std::size_t at = r.error.find("; sandbox: ");
    EXPECT_EQ(r.error.rfind("probe: ", 0), 0u) << r.error;
    if (at == std::string::npos) return p;
    p.sandbox = r.error.substr(at + 11);
    std::istringstream words(r.error.substr(7, at - 7));
    for (std::string w; words >> w;) {
      const std::size_t eq = w.find('=');
      if (eq != std::string::npos) p.outcome[w.substr(0, eq)] = w.substr(eq + 1);
    }
    return p;
  }

  test::TempDir dir_;
};

TEST_F(SandboxTest, EveryLayerTheWorkerClaimsHolds) {
  const Probe p = probe();
  RecordProperty("sandbox", p.sandbox);
  std::printf("worker sandbox: %s\n", p.sandbox.c_str());
  ASSERT_FALSE(p.sandbox.empty()) << p.line;
  EXPECT_EQ(p.sandbox.find("off"), std::string::npos) << p.sandbox;
  // The model's own folder stays readable, or no import could work.
  EXPECT_EQ(p.outcome.at("inside"), "ok") << p.line;
  if (p.sandbox.rfind("landlock v", 0) == 0) {
    EXPECT_EQ(p.outcome.at("outside"), "EACCES") << p.line;
    EXPECT_EQ(p.outcome.at("write"), "EACCES") << p.line;
    EXPECT_FALSE(fs::exists(dir_ / "model/probe-written"));
  }
  if (p.sandbox.find(", seccomp") != std::string::npos) {
    EXPECT_EQ(p.outcome.at("exec"), "EPERM") << p.line;
    EXPECT_EQ(p.outcome.at("socket"), "EPERM") << p.line;
    EXPECT_EQ(p.outcome.at("unix"), "EPERM") << p.line;
    if (p.sandbox.find("ptrace allowed") == std::string::npos) {
      EXPECT_EQ(p.outcome.at("ptrace"), "EPERM") << p.line;
    }
  }
  EXPECT_NE(p.sandbox.find("rlimits"), std::string::npos) << p.sandbox;
}

TEST_F(SandboxTest, TurnedOffTheSameProbeReachesEverything) {
  ::setenv("SKINVIEW_NO_SANDBOX", "1", 1);
  const Probe p = probe();
  EXPECT_EQ(p.sandbox, "off (SKINVIEW_NO_SANDBOX)");
  EXPECT_EQ(p.outcome.at("inside"), "ok") << p.line;
  EXPECT_EQ(p.outcome.at("outside"), "ok") << p.line;
  EXPECT_EQ(p.outcome.at("write"), "ok") << p.line;
  EXPECT_TRUE(fs::exists(dir_ / "model/probe-written"));
  EXPECT_EQ(p.outcome.at("exec"), "ENOENT") << p.line;
  EXPECT_EQ(p.outcome.at("socket"), "ok") << p.line;
  EXPECT_EQ(p.outcome.at("unix"), "ok") << p.line;
  EXPECT_EQ(p.outcome.at("ptrace"), "ESRCH") << p.line;
}

// A folder the parent allows (ImportOptions::read_dirs, what --texture-path passes) opens to the
// worker for reading, not for writing.
TEST_F(SandboxTest, AnAllowedFolderIsReadableNotWritable) {
  ImportOptions o;
  o.read_dirs.push_back(dir_.path());
  const Probe p = probe(o);
  EXPECT_EQ(p.outcome.at("outside"), "ok") << p.line;
  if (p.sandbox.rfind("landlock v", 0) == 0) {
    EXPECT_EQ(p.outcome.at("write"), "EACCES") << p.line;
  }
}

// A real import runs sandboxed and says so (the model stream carries the line; --info prints it).
TEST_F(SandboxTest, ARealImportNamesItsLayers) {
  const ImportResult r = import_model(dir_ / "model/default.glb");
  ASSERT_TRUE(r.ok()) << r.error;
  EXPECT_FALSE(r.provenance.sandbox.empty());
  EXPECT_EQ(r.provenance.sandbox.find("off"), std::string::npos) << r.provenance.sandbox;
  EXPECT_NE(r.provenance.sandbox.find("rlimits"), std::string::npos) << r.provenance.sandbox;
}

}  // namespace
}  // namespace sv
