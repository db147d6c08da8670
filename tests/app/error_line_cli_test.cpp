// The smaller holes of issue 22 through the real skinview: a newline or another control character
// in a file's name does not split the one error line (it is escaped), and --dump refuses a pose
// whose values overflowed to infinity with one line instead of writing them as 0. Every input is
// made in the test.
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "app/cli_util.h"
#include "png_maker.h"
#include "temp_dir.h"

namespace sv::test {
namespace {

namespace fs = std::filesystem;

TEST(ErrorLine, AControlCharacterInAFileNameIsEscaped) {
  TempDir dir;
  // Missing, and present but not a model: each one line, the name escaped.
  expect_bad_input({kExe, dir / "evil\nname.glb", "--info"}, "evil\\nname.glb: no such file");
  write_text(dir / "bad\x01\tname.glb", "not a model");
  expect_bad_input({kExe, dir / "bad\x01\tname.glb", "--info", "--no-cache"},
                   "bad\\x01\\tname.glb");
  expect_bad_input({kExe, "--dump", dir / "line\rbreak.glb"}, "line\\rbreak.glb");
}

// A one-triangle glTF whose vertex at 3e38 (a finite float) goes past the float range under its
// node's scale of 10.
std::string write_overflowing_gltf(const TempDir& dir) {
  const float positions[9] = {3e38f, 0, 0, 0, 1, 0, 0, 0, 1};
  std::vector<uint8_t> bin(sizeof positions);
  std::memcpy(bin.data(), positions, sizeof positions);
  write_bytes(dir / "m.bin", bin);
  write_text(dir / "m.gltf", R"({"asset":{"version":"2.0"},"scene":0,"scenes":[{"nodes":[0]}],
 "nodes":[{"mesh":0,"name":"big","scale":[10,10,10]}],
 "meshes":[{"name":"tri","primitives":[{"attributes":{"POSITION":0}}]}],
 "buffers":[{"uri":"m.bin","byteLength":36}],
 "bufferViews":[{"buffer":0,"byteLength":36}],
 "accessors":[{"bufferView":0,"componentType":5126,"count":3,"type":"VEC3",
               "min":[0,0,0],"max":[3e38,1,1]}]})");
  return dir / "m.gltf";
}

TEST(ErrorLine, DumpRefusesAnOverflowedPoseWithOneLine) {
  TempDir dir;
  const std::string model = write_overflowing_gltf(dir);
  const std::string out = dir / "pose.json";
  expect_bad_input({kExe, "--dump", model, "-o", out, "--no-cache"},
                   "overflows the float range (position of vertex 0 of mesh 'tri' is not finite)");
  EXPECT_FALSE(fs::exists(out)) << "nothing written";
  // Several times: refused before a byte is written, to stdout too.
  const ProcessResult r = run_process({kExe, "--dump", model, "--times", "0,1", "--no-cache"});
  ASSERT_TRUE(r.exited());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(line_count(r.err), 1u) << r.err;
}

}  // namespace
}  // namespace sv::test
