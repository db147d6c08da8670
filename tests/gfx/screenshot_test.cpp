// `skinview --screenshot`: the CPU and GPU paths render the same frame, the pose changes the
// picture, the weights view spans the heat map, and bad input exits 2. Runs the real
// executable (SKINVIEW_EXE), so it also checks the command-line wiring.
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <stb_image.h>

#include "gl_context.h"

namespace {

const std::string kModels = SKINVIEW_TEST_MODELS;

struct Image {
  int width = 0, height = 0;
  std::vector<unsigned char> rgba;
};

// Named per process: the same test run by another checkout at the same time shares /tmp.
std::string out_path(const std::string& name) {
  return ::testing::TempDir() + "skinview_" + std::to_string(::getpid()) + "_" + name + ".png";
}

int run(const std::string& args) {
  const std::string cmd = std::string(SKINVIEW_EXE) + " " + args + " 2>/dev/null";
  const int raw = std::system(cmd.c_str());
  return raw == -1 ? -1 : WEXITSTATUS(raw);
}

Image shoot(const std::string& model, const std::string& name, const std::string& extra,
            const std::string& size = "320x240") {
  const std::string out = out_path(name);
  std::remove(out.c_str());
  const std::string file = model[0] == '/' ? model : kModels + "/" + model;
  const int status = run("'" + file + "' --screenshot '" + out + "' --size " + size + " " + extra);
  EXPECT_EQ(status, 0) << model << " " << extra;
  Image img;
  int n = 0;
  unsigned char* p = stbi_load(out.c_str(), &img.width, &img.height, &n, 4);
  std::remove(out.c_str());  // read: no file per process left behind
  if (p == nullptr) {
    ADD_FAILURE() << "no PNG written for " << model << " " << extra;
    return img;
  }
  img.rgba.assign(p, p + static_cast<std::size_t>(img.width) * img.height * 4);
  stbi_image_free(p);
  return img;
}

// Fraction of pixels where some channel differs by more than `tolerance`.
double differing(const Image& a, const Image& b, int tolerance = 2) {
  if (a.rgba.size() != b.rgba.size() || a.rgba.empty()) return 1.0;
  std::size_t count = 0;
  for (std::size_t i = 0; i < a.rgba.size(); i += 4) {
    for (std::size_t c = 0; c < 3; ++c) {
      if (std::abs(int(a.rgba[i + c]) - int(b.rgba[i + c])) > tolerance) {
        ++count;
        break;
      }
    }
  }
  return static_cast<double>(count) / static_cast<double>(a.rgba.size() / 4);
}

bool have_models() {
  std::FILE* f = std::fopen((kModels + "/X/BCN_Epileptic.X").c_str(), "rb");
  if (f != nullptr) std::fclose(f);
  return f != nullptr;
}

#define SV_REQUIRE_SCREENSHOTS() \
  SV_REQUIRE_GL();               \
  if (!have_models()) GTEST_SKIP() << "assimp-testmodels not installed"

class CpuGpu : public ::testing::TestWithParam<const char*> {};

TEST_P(CpuGpu, SameFrameAlmostSamePixels) {
  SV_REQUIRE_SCREENSHOTS();
  const std::string model = GetParam();
  std::string name = model;
  for (char& c : name)
    if (c == '/' || c == '.') c = '_';
  const Image cpu = shoot(model, name + "_cpu", "--time 0.4 --skinning cpu");
  const Image gpu = shoot(model, name + "_gpu", "--time 0.4 --skinning gpu");
  EXPECT_LE(differing(cpu, gpu), 0.001);
}

INSTANTIATE_TEST_SUITE_P(AssimpTestModels, CpuGpu,
                         ::testing::Values("X/BCN_Epileptic.X", "X/Testwuson.X", "FBX/huesitos.fbx",
                                           "glTF2/simple_skin/simple_skin.gltf"));

TEST(Screenshot, RestPoseAndMidClipDiffer) {
  SV_REQUIRE_SCREENSHOTS();
  const Image rest = shoot("X/BCN_Epileptic.X", "rest", "--rest-pose");
  const Image mid = shoot("X/BCN_Epileptic.X", "mid", "--time 1.0");
  EXPECT_GT(differing(rest, mid), 0.01);
}

TEST(Screenshot, ModelFillsThePicture) {
  SV_REQUIRE_SCREENSHOTS();
  const Image img = shoot("X/BCN_Epileptic.X", "fill", "--time 0.5");
  ASSERT_FALSE(img.rgba.empty());
  // Background is the clear colour of the corner pixel; count pixels far from it.
  std::size_t model = 0;
  for (std::size_t i = 0; i < img.rgba.size(); i += 4) {
    const int d = std::abs(int(img.rgba[i]) - int(img.rgba[0])) +
                  std::abs(int(img.rgba[i + 1]) - int(img.rgba[1])) +
                  std::abs(int(img.rgba[i + 2]) - int(img.rgba[2]));
    if (d > 90) ++model;
  }
  const double fraction = static_cast<double>(model) / (img.rgba.size() / 4);
  EXPECT_GT(fraction, 0.03);  // visible: not a dot, not off screen
  EXPECT_LT(fraction, 0.8);   // framed: not a close-up filling everything
}

TEST(Screenshot, WeightsViewShowsBothEndsOfTheHeatMap) {
  SV_REQUIRE_SCREENSHOTS();
  const Image img =
      shoot("X/BCN_Epileptic.X", "weights", "--view weights --bone B_UpperArm_Left --time 0.5");
  std::size_t red = 0, blue = 0;
  for (std::size_t i = 0; i < img.rgba.size(); i += 4) {
    const int r = img.rgba[i], g = img.rgba[i + 1], b = img.rgba[i + 2];
    if (r > 180 && g < 110 && b < 110) ++red;
    if (b > 180 && r < 110 && g < 110) ++blue;
  }
  EXPECT_GT(red, 8u);
  EXPECT_GT(blue, 500u);
}

// The difference views from the command line: the default character's twist at the half-turn
// under LBS vs DQS shows the heat ramp's upper half (yellow to red) on the forearm and blue
// elsewhere; CPU vs GPU shows none of it (the paths agree to rounding, far below the ramp's top); a
// bad pair is refused with exit 2.
TEST(Screenshot, DifferenceViewsShowWhereAndRefuseABadPair) {
  SV_REQUIRE_SCREENSHOTS();
  const std::string def = std::string(SKINVIEW_SOURCE_DIR) + "/assets/default.glb";
  auto count = [](const Image& img, std::size_t* red, std::size_t* blue) {
    *red = *blue = 0;
    for (std::size_t i = 0; i < img.rgba.size(); i += 4) {
      const int r = img.rgba[i], g = img.rgba[i + 1], b = img.rgba[i + 2];
      // The ramp's upper half, yellow to red (no blue at all); the axis gizmo's red (255, 64, 64)
      // is not.
      if (r > 180 && b < 40) ++*red;
      if (b > 180 && r < 110 && g < 110) ++*blue;
    }
  };
  std::size_t red = 0, blue = 0;
  const std::string twist = "--clip twist --time 1 ";
  const std::string size = "640x480";  // the forearm's hot ring is a few pixels at 320x240
  count(shoot(def, "method_diff", twist + "--view method-diff --diff-methods lbs,dqs", size), &red,
        &blue);
  EXPECT_GT(red, 8u);
  EXPECT_GT(blue, 8000u);
  count(shoot(def, "cpu_gpu", twist + "--view cpu-gpu --method dqs --skinning cpu", size), &red,
        &blue);
  EXPECT_EQ(red, 0u);
  EXPECT_GT(blue, 8000u);
  // The same pair reversed paints the same picture (a distance has no direction).
  EXPECT_LE(
      differing(shoot(def, "method_diff_ab", twist + "--view method-diff --diff-methods lbs,dqs"),
                shoot(def, "method_diff_ba", twist + "--view method-diff --diff-methods dqs,lbs")),
      0.001);
  const std::string out = out_path("bad_pair");
  EXPECT_EQ(run("'" + def + "' --screenshot " + out + " --view method-diff --diff-methods lbs,lbs"),
            2);
  EXPECT_EQ(run("'" + def + "' --screenshot " + out + " --view method-diff --diff-methods lbs"), 2);
  EXPECT_EQ(run("'" + def + "' --screenshot " + out + " --view method-diff --diff-methods lbs,xyz"),
            2);
}

TEST(Screenshot, BadInputExitsTwo) {
  SV_REQUIRE_SCREENSHOTS();
  const std::string out = out_path("bad");
  const std::string model = "'" + kModels + "/X/BCN_Epileptic.X'";
  EXPECT_EQ(run("/nonexistent/model.glb --screenshot " + out), 2);
  EXPECT_EQ(run(model + " --screenshot " + out + " --size 12"), 2);
  EXPECT_EQ(run(model + " --screenshot " + out + " --clip no_such_clip"), 2);
  EXPECT_EQ(run(model + " --screenshot " + out + " --time -1"), 2);
  EXPECT_EQ(run(model + " --screenshot " + out + " --skinning tpu"), 2);
  EXPECT_EQ(run(model + " --screenshot " + out + " --view weights --bone no_such_bone"), 2);
}

// A model pixel in the shaded view of the default character: its skin and checker are warm (red
// well above blue); the background, the grid and the gizmo are not.
bool warm(const Image& img, int x, int y) {
  const unsigned char* p = &img.rgba[(static_cast<std::size_t>(y) * img.width + x) * 4];
  return int(p[0]) - int(p[2]) > 30;
}

// Framing covers the whole clip: wave's raised hand stays inside the picture at every time of
// the clip (framed on the first frame of the first clip, as before, it left through the top).
TEST(Screenshot, FramingKeepsTheWholeClipInThePicture) {
  SV_REQUIRE_SCREENSHOTS();
  const std::string def = std::string(SKINVIEW_SOURCE_DIR) + "/assets/default.glb";
  for (const char* t : {"0", "0.5", "1", "1.5", "2"}) {
    SCOPED_TRACE(t);
    const Image img = shoot(def, "wave", std::string("--clip wave --time ") + t);
    ASSERT_EQ(img.width, 320);
    int inside = 0, edge = 0, top = img.height;
    for (int y = 0; y < img.height; ++y) {
      for (int x = 0; x < img.width; ++x) {
        if (!warm(img, x, y)) continue;
        ++inside;
        top = std::min(top, y);
        if (x < 2 || y < 2 || x >= img.width - 2 || y >= img.height - 2) ++edge;
      }
    }
    EXPECT_GT(inside, 2000);
    EXPECT_EQ(edge, 0) << "the model touches the picture's edge";
    EXPECT_GE(top, 3);
  }
}

// A file with a skeleton and no mesh shows its skeleton (bone lines in the overlay's yellow),
// framed on the clip: spread over a good part of the picture, not an empty grid.
TEST(Screenshot, SkeletonOnlyFilesShowTheirSkeleton) {
  SV_REQUIRE_SCREENSHOTS();
  const Image img = shoot("BVH/01_01.bvh", "bvh", "--time 2");
  ASSERT_EQ(img.width, 320);
  int bone = 0, top = img.height, bottom = 0;
  for (int y = 0; y < img.height; ++y) {
    for (int x = 0; x < img.width; ++x) {
      const unsigned char* p = &img.rgba[(static_cast<std::size_t>(y) * img.width + x) * 4];
      if (p[0] > 200 && p[1] > 150 && p[2] < 120) {  // (1, 0.85, 0.2): bone lines
        ++bone;
        top = std::min(top, y);
        bottom = std::max(bottom, y);
      }
    }
  }
  // 01_01 walks about, so its whole clip's bounds are wider than the skeleton at one time.
  EXPECT_GT(bone, 40);
  EXPECT_GT(bottom - top, img.height / 6) << "the skeleton is not framed";
}

// Files of points or lines only (assimp's OBJ test models: three bare vertices, and a cube's 12
// edges as polylines) are drawn as points and lines in the mesh's colour, not refused as
// "nothing to show": pixels far brighter than the background, the grid (0.42 grey) and the axes
// (a channel at 0.2) appear, near-grey (the material's colour, unlit), on both paths.
TEST(Screenshot, PointAndLineFilesAreDrawn) {
  SV_REQUIRE_SCREENSHOTS();
  for (const char* file : {"OBJ/point_cloud.obj", "OBJ/testline.obj"}) {
    for (const char* path : {"gpu", "cpu"}) {
      SCOPED_TRACE(std::string(file) + " " + path);
      const Image img = shoot(file, "points_lines", std::string("--skinning ") + path);
      ASSERT_FALSE(img.rgba.empty());
      std::size_t drawn = 0;
      for (std::size_t i = 0; i < img.rgba.size(); i += 4) {
        const int r = img.rgba[i], g = img.rgba[i + 1], b = img.rgba[i + 2];
        if (std::min({r, g, b}) > 150 && std::max({r, g, b}) - std::min({r, g, b}) < 40) ++drawn;
      }
      // Three points of 4x4 pixels; a cube's edges, hundreds of pixels.
      EXPECT_GE(drawn, std::string(file).find("point") != std::string::npos ? 24u : 200u);
    }
  }
}

TEST(Window, RunsFramesOnBothPathsAndCloses) {
  SV_REQUIRE_SCREENSHOTS();
  const std::string model = "'" + kModels + "/X/Testwuson.X'";
  EXPECT_EQ(run(model + " --frames 20 --skeleton"), 0);
  EXPECT_EQ(run(model + " --frames 20 --skinning cpu --view dominant"), 0);
  EXPECT_EQ(run(model + " --frames 20 --clip Wuson_Run --time 0.4 --bone Tail01"), 0);
  // The first file is read before the window opens: a missing one is bad input.
  EXPECT_EQ(run("/nonexistent/model.glb --frames 5"), 2);
}

// A layer moves what it keys, and at weight 0 nothing; the window plays a blend and refuses a bad
// one with status 2.
TEST(Screenshot, ALayerChangesThePictureAndAtWeightZeroDoesNot) {
  SV_REQUIRE_SCREENSHOTS();
  const std::string character = SKINVIEW_SOURCE_DIR "/assets/default.glb";
  const Image walk = shoot(character, "walk", "--clip walk --time 0.3");
  const Image wave =
      shoot(character, "wave_over_walk", "--clip walk --time 0.3 --layer wave:mask=clavicle_r");
  const Image none = shoot(character, "wave_at_0", "--clip walk --time 0.3 --layer wave:weight=0");
  EXPECT_GT(differing(walk, wave), 0.005);
  EXPECT_LE(differing(walk, none), 0.001);
  const std::string out = out_path("bad_layer");
  EXPECT_EQ(run("'" + character + "' --screenshot " + out + " --layer wave:weight=3"), 2);
  EXPECT_EQ(run("'" + character + "' --screenshot " + out + " --layer nope"), 2);
}

TEST(Window, PlaysABlendAndRefusesABadOne) {
  SV_REQUIRE_SCREENSHOTS();
  const std::string character = "'" SKINVIEW_SOURCE_DIR "/assets/default.glb'";
  EXPECT_EQ(run(character + " --frames 20 --crossfade idle:walk:0.05:0.1:sync " +
                "--layer wave:mask=clavicle_r:weight=0.7 --skinning cpu"),
            0);
  EXPECT_EQ(run(character + " --frames 20 --layer wave:nope=1"), 2);  // before the window opens
  EXPECT_EQ(run(character + " --frames 20 --layer nope"), 2);         // once the model is read
}

// Runs `cmd` with the shell; its output (stdout and what it redirects) into *out; its exit status,
// or -1.
int shell(const std::string& cmd, std::string* out) {
  std::FILE* p = popen(cmd.c_str(), "r");
  if (!p) return -1;
  char buf[512];
  while (std::fgets(buf, sizeof buf, p) != nullptr) *out += buf;
  const int raw = pclose(p);
  return raw == -1 ? -1 : WEXITSTATUS(raw);
}

// Runs `args` and returns its standard output (status in *status).
std::string output_of(const std::string& args, int* status) {
  std::string out;
  *status = shell(std::string(SKINVIEW_EXE) + " " + args + " 2>/dev/null", &out);
  return out;
}

TEST(BenchFrames, PrintsFramesPerSecondAndTheStageSplitOnBothPaths) {
  SV_REQUIRE_SCREENSHOTS();
  const std::string model = "'" + kModels + "/X/Testwuson.X' --size 160x120 --bench-frames 10";
  for (const char* path : {"gpu", "cpu"}) {
    int status = -1;
    const std::string out = output_of(model + " --clip 1 --skinning " + path, &status);
    EXPECT_EQ(status, 0) << path;
    EXPECT_NE(out.find("10 frames of 'Wuson_Walk'"), std::string::npos) << out;
    EXPECT_NE(out.find("frames/s"), std::string::npos) << out;
    EXPECT_NE(out.find("cpu-skin"), std::string::npos) << out;
  }
  int status = -1;
  output_of("/nonexistent/model.glb --bench-frames 3", &status);
  EXPECT_EQ(status, 2);
  output_of(model + " --clip no_such_clip", &status);
  EXPECT_EQ(status, 2);
}

// A short soak: three models loaded in turn, three cycles, clips and skinning paths switching.
// The full run is in the README (10,000 frames per model).
TEST(Soak, ModelsInTurnRaiseNoGlErrorAndHoldMemorySteady) {
  SV_REQUIRE_SCREENSHOTS();
  const std::string models = "'" + kModels + "/X/Testwuson.X' '" + kModels +
                             "/glTF2/simple_skin/simple_skin.gltf' '" + kModels +
                             "/FBX/huesitos.fbx'";
  int status = -1;
  const std::string out = output_of(models + " --soak 120 --soak-cycles 3 --size 160x120", &status);
  EXPECT_EQ(status, 0) << out;
  EXPECT_NE(out.find("3 model(s), 3 cycle(s), 1080 frames"), std::string::npos) << out;
  EXPECT_NE(out.find("; 0 GL error(s)"), std::string::npos) << out;
  output_of("'" + kModels + "/X/Testwuson.X' /nonexistent/model.glb --soak 5", &status);
  EXPECT_EQ(status, 2);
  output_of("'" + kModels + "/X/Testwuson.X' '" + kModels + "/X/Testwuson.X'", &status);
  EXPECT_EQ(status, 2);  // two files without --soak
}

// The viewer reads files in the import worker, a child process, with --time-limit, the first one
// too (before the window opens): a file that hangs the reader (a FIFO without a writer blocks its
// open(), as a parser stuck in a loop would never return) is given up on after the limit (the
// child killed), with its error on stderr and exit status 2, instead of freezing. (A hanging read
// of a file opened from the window leaves the window drawing: tests/e2e.)
TEST(Window, AFileThatHangsTheReaderIsGivenUpOn) {
  SV_REQUIRE_SCREENSHOTS();
  const std::string fifo =
      ::testing::TempDir() + "skinview_hang_" + std::to_string(::getpid()) + ".x";
  std::remove(fifo.c_str());
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  // `timeout` ends a viewer that froze (exit 124) instead of blocking the test.
  const std::string cmd = "timeout 60 " + std::string(SKINVIEW_EXE) + " '" + fifo +
                          "' --frames 10 --time-limit 1 --size 160x120 2>&1";
  const auto t0 = std::chrono::steady_clock::now();
  std::string out;
  const int status = shell(cmd, &out);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::remove(fifo.c_str());
  EXPECT_EQ(status, 2) << out;
  EXPECT_NE(out.find("skinview: " + fifo + ": gave up after 1 s (--time-limit)"), std::string::npos)
      << out;
  EXPECT_GE(seconds, 1.0);  // not before the limit (how long after it depends on the machine)
}

// The window's first file whose import crashes (the worker made to crash on purpose) is bad input:
// one line and exit status 2, no window. (A crash of a file opened from the window leaves the
// window and its model: tests/e2e.)
TEST(Window, AFirstFileWhoseImportCrashesIsOneLine) {
  SV_REQUIRE_SCREENSHOTS();
  const std::string model = std::string(SKINVIEW_SOURCE_DIR) + "/assets/default.glb";
  const std::string cmd = "SKINVIEW_IMPORT_FAULT=segv timeout 60 " + std::string(SKINVIEW_EXE) +
                          " '" + model + "' --frames 10 --size 160x120 2>&1";
  std::string out;
  const int status = shell(cmd, &out);
  EXPECT_EQ(status, 2) << out;
  EXPECT_EQ(out, "skinview: " + model + ": the importer crashed (SIGSEGV) reading it; refused\n");
}

// Crowds through the renderer (one instanced draw per mesh): a crowd of one is the single model,
// pixel for pixel (instance 0 stands at the origin at the timeline's time); a crowd of 9 in step
// covers more of the picture, and out of phase differs from in step.
TEST(Screenshot, ACrowdOfOneIsTheSingleModel) {
  SV_REQUIRE_SCREENSHOTS();
  const std::string model = std::string(SKINVIEW_SOURCE_DIR) + "/assets/default.glb";
  // The single model on the GPU path too (a crowd is always GPU-skinned; --skinning auto would
  // take the CPU path on a software rasteriser).
  const Image single = shoot(model, "crowd_none", "--clip walk --time 0.4 --skinning gpu");
  const Image one = shoot(model, "crowd_one", "--clip walk --time 0.4 --crowd 1");
  const Image one_dqs =
      shoot(model, "crowd_one_dqs", "--clip walk --time 0.4 --crowd 1 --method dqs");
  const Image single_dqs =
      shoot(model, "crowd_none_dqs", "--clip walk --time 0.4 --method dqs --skinning gpu");
  EXPECT_EQ(differing(single, one, 1), 0.0);
  EXPECT_EQ(differing(single_dqs, one_dqs, 1), 0.0);
  const Image in_step =
      shoot(model, "crowd_step", "--clip walk --time 0.4 --crowd 9 --crowd-in-step");
  const Image apart = shoot(model, "crowd_apart", "--clip walk --time 0.4 --crowd 9");
  EXPECT_GT(differing(single, in_step), 0.02) << "nine characters, framed together";
  EXPECT_GT(differing(in_step, apart), 0.005) << "out of phase";
  const Image shared = shoot(model, "crowd_shared",
                             "--clip walk --time 0.4 --crowd 9 --crowd-in-step --crowd-shared");
  EXPECT_EQ(differing(in_step, shared, 1), 0.0) << "one shared palette draws the same";
}

}  // namespace
