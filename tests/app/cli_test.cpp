// The command line as a user (or a script) sees it: --info, --dump's JSON shape, --rest-pose and
// --bind-pose, --version and --help, and one line on stderr starting "skinview: " with exit
// status 2 for every kind of bad input, the window's options included (checked before any window
// opens, so these run without a display).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <nlohmann/json.hpp>

#include "cli_util.h"
#include "run_process.h"

namespace sv::test {
namespace {

std::string model(const std::string& rel) { return std::string(SKINVIEW_TEST_MODELS) + "/" + rel; }

TEST(Cli, InfoDescribesTheModel) {
  for (const auto& args : {std::vector<std::string>{kExe, "--info", model("X/Testwuson.X")},
                           std::vector<std::string>{kExe, model("X/Testwuson.X"), "--info"}}) {
    ProcessResult r = run_process(args);
    ASSERT_TRUE(r.exited());
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_TRUE(r.err.empty()) << r.err;
    EXPECT_NE(r.out.find("'Wuson': 11196 vertices, 3732 triangles, skinned"), std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("Joints: 40"), std::string::npos);
    EXPECT_NE(r.out.find("'Wuson_Bind': 0 s"), std::string::npos);
    EXPECT_NE(r.out.find("[bone]"), std::string::npos);
  }
  ProcessResult r = run_process({kExe, "--info", model("FBX/animation_with_skeleton.fbx")});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_NE(r.out.find("2883 vertices had more than 4 influences"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("Max influences per vertex: 6"), std::string::npos) << r.out;
  r = run_process({kExe, "--info", model("X/anim_test.x")});
  EXPECT_NE(r.out.find("2 bone(s) name no node"), std::string::npos) << r.out;
}

// The model's size and the file's unit, as the inspector's Model section says them: glTF's
// textured box is a unit cube in metres (its corners at +-0.5); the spider is the same mesh in an
// FBX that says centimetres (UnitScaleFactor 1), with the size in metres beside, and in an OBJ,
// which says no unit.
TEST(Cli, InfoSaysTheModelsSizeAndUnit) {
  ProcessResult r =
      run_process({kExe, "--info", model("glTF2/BoxTextured-glTF-Binary/BoxTextured.glb")});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("\nSize: 1 x 1 x 1 units (X, Y, Z), the rest pose\nUnit: metre (glTF)\n"),
            std::string::npos)
      << r.out;
  r = run_process({kExe, "--info", model("FBX/spider.fbx")});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(std::regex_search(r.out, std::regex("\nSize: [0-9]+ x [0-9]+ x [0-9]+ units \\(X, Y, "
                                                  "Z\\), the rest pose\n      = [0-9.]+ x [0-9.]+ "
                                                  "x [0-9.]+ m\nUnit: centimetre \\(FBX "
                                                  "UnitScaleFactor 1\\)\n")))
      << r.out;
  r = run_process({kExe, "--info", model("OBJ/spider.obj")});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("\nUnit: unknown (the file does not say)\n"), std::string::npos) << r.out;
}

// Morph targets: --info lists each mesh's targets and how many clips animate them; --dump names
// them beside bindPositions and gives the pose's weights beside positions (which are morphed:
// AnimatedMorphCube's 'thin' target lifts vertex 2 from y -0.01 by 0.0189 x weight, times the
// node's 100 x scale and its rotation, which takes the file's y to -z).
TEST(Cli, InfoAndDumpListMorphTargets) {
  const std::string cube =
      model("glTF2/glTF-Sample-Models/AnimatedMorphCube-glTF/AnimatedMorphCube.gltf");
  ProcessResult r = run_process({kExe, "--info", cube});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("morph targets: 2 ('target 0' 0, 'target 1' 0), animated by 1 clip(s)"),
            std::string::npos)
      << r.out;
  nlohmann::json rest = dump({}, cube);
  ASSERT_EQ(rest["meshes"].size(), 1u);
  const auto& targets = rest["meshes"][0]["morphTargets"];
  ASSERT_EQ(targets.size(), 2u);
  EXPECT_EQ(targets[1]["name"], "target 1");
  EXPECT_EQ(targets[1]["defaultWeight"], 0.0);
  EXPECT_EQ(rest["meshes"][0]["morphWeights"], nlohmann::json::array({0.0, 0.0}));
  // At 1.45 s the clip holds 'thin' near 1 and 'angle' at 0.
  nlohmann::json posed = dump({"--clip", "0", "--time", "1.45"}, cube);
  const auto& w = posed["meshes"][0]["morphWeights"];
  ASSERT_EQ(w.size(), 2u);
  EXPECT_GT(w[0].get<double>(), 0.9);
  EXPECT_EQ(w[1].get<double>(), 0.0);
  const auto& p = posed["meshes"][0]["positions"];
  const auto& b = rest["meshes"][0]["positions"];
  // Vertex 2: rest z (the file's -y, scaled) and posed z differ by 100 * 0.0189 * w0.
  EXPECT_NEAR(b[3 * 2 + 2].get<double>() - p[3 * 2 + 2].get<double>(),
              100.0 * 0.01893253 * w[0].get<double>(), 1e-4);
  // A mesh without targets has neither key (the contract's shape is unchanged for it).
  nlohmann::json plain = dump({}, model("X/anim_test.x"));
  EXPECT_FALSE(plain["meshes"][0].contains("morphTargets"));
  EXPECT_FALSE(plain["meshes"][0].contains("morphWeights"));
}

TEST(Cli, DumpWritesTheContractShape) {
  nlohmann::json j = dump({"--time", "0.5"}, model("X/Testwuson.X"));
  ASSERT_TRUE(j.is_object());
  ASSERT_EQ(j["meshes"].size(), 1u);
  const auto& mesh = j["meshes"][0];
  EXPECT_EQ(mesh["name"], "Wuson");
  EXPECT_EQ(mesh["vertexCount"], 11196);
  EXPECT_EQ(mesh["positions"].size(), 3u * 11196);
  EXPECT_EQ(mesh["normals"].size(), 3u * 11196);
  EXPECT_EQ(mesh["bindPositions"].size(), 3u * 11196);
  ASSERT_EQ(j["bones"].size(), 40u);
  EXPECT_EQ(j["bones"][0]["worldMatrix"].size(), 16u);
  EXPECT_FALSE(j.contains("frames"));

  nlohmann::json f = dump({"--clip", "Wuson_Walk", "--times", "0,1.5,99"}, model("X/Testwuson.X"));
  ASSERT_EQ(f["frames"].size(), 3u);
  EXPECT_EQ(f["frames"][1]["time"], 1.5);
  EXPECT_EQ(f["frames"][2]["meshes"][0]["positions"].size(), 3u * 11196);
  EXPECT_EQ(f["frames"][2]["bones"].size(), 40u);

  // --clip by index equals --clip by name; a time past the end is clamped to the duration.
  nlohmann::json by_index = dump({"--clip", "1", "--time", "1000"}, model("X/Testwuson.X"));
  EXPECT_EQ(by_index["meshes"][0]["positions"], f["frames"][2]["meshes"][0]["positions"]);
}

// The largest distance between posed and stored vertices, over the model's diagonal.
double pose_error_over_diagonal(const nlohmann::json& j) {
  double lo[3] = {1e30, 1e30, 1e30}, hi[3] = {-1e30, -1e30, -1e30}, worst = 0;
  for (const auto& mesh : j["meshes"]) {
    const auto& p = mesh["positions"];
    const auto& b = mesh["bindPositions"];
    EXPECT_EQ(p.size(), b.size());
    for (std::size_t i = 0; i < p.size() && i < b.size(); ++i) {
      const double bv = b[i].get<double>();
      lo[i % 3] = std::min(lo[i % 3], bv);
      hi[i % 3] = std::max(hi[i % 3], bv);
      worst = std::max(worst, std::abs(p[i].get<double>() - bv));
    }
  }
  return worst / std::sqrt((hi[0] - lo[0]) * (hi[0] - lo[0]) + (hi[1] - lo[1]) * (hi[1] - lo[1]) +
                           (hi[2] - lo[2]) * (hi[2] - lo[2]));
}

// --bind-pose puts every joint where its inverse bind matrix says, so the skinned mesh is the
// stored one exactly; --rest-pose uses the node transforms, which equal the bind pose in the X
// files but not in simple_skin.gltf (its joint 0 rests at (0,1,0), bound at (0.5,1,0)).
TEST(Cli, BindPoseReproducesStoredVerticesAndRestPoseIsTheNodes) {
  for (const char* file :
       {"X/BCN_Epileptic.X", "X/Testwuson.X", "glTF2/simple_skin/simple_skin.gltf"}) {
    SCOPED_TRACE(file);
    EXPECT_LT(pose_error_over_diagonal(dump({"--bind-pose"}, model(file))), 1e-5);
  }
  for (const char* file : {"X/BCN_Epileptic.X", "X/Testwuson.X"}) {
    EXPECT_LT(pose_error_over_diagonal(dump({"--rest-pose"}, model(file))), 1e-5) << file;
  }
  const nlohmann::json rest = dump({"--rest-pose"}, model("glTF2/simple_skin/simple_skin.gltf"));
  EXPECT_GT(pose_error_over_diagonal(rest), 0.1);
  // The old --bind (which posed the rest transforms) is refused with both new names.
  ProcessResult r = run_process({kExe, "--dump", model("X/Testwuson.X"), "--bind"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--rest-pose"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("--bind-pose"), std::string::npos) << r.err;
  EXPECT_EQ(line_count(r.err), 1u) << r.err;
}

// --dump's numbers by hand, vertex by vertex in the file's order: simple_skin.gltf (as in
// io/import_test.cpp): vertex k sits at (k % 2, (k / 2) * 0.5, 0) with weights
// (1 - (k / 2) / 4, (k / 2) / 4) on joints 1 and 2; at t = 1 s joint 2 has turned 90 degrees about
// z. (Import.DumpListsVerticesInTheFilesOrder covers models whose vertices the importer
// reorders.)
TEST(Cli, DumpMatchesAHandComputation) {
  nlohmann::json j = dump({"--time", "1"}, model("glTF2/simple_skin/simple_skin.gltf"));
  ASSERT_EQ(j["meshes"].size(), 1u);
  const auto& b = j["meshes"][0]["bindPositions"];
  const auto& p = j["meshes"][0]["positions"];
  ASSERT_EQ(b.size(), 30u);
  ASSERT_EQ(p.size(), 30u);
  const double angle = 2.0 * std::atan2(0.707, 0.707);
  for (std::size_t k = 0; k < 10; ++k) {
    const double x = static_cast<double>(k % 2), y = 0.5 * static_cast<double>(k / 2);
    EXPECT_NEAR(b[3 * k + 0].get<double>(), x, 1e-6) << "vertex " << k;
    EXPECT_NEAR(b[3 * k + 1].get<double>(), y, 1e-6) << "vertex " << k;
    EXPECT_NEAR(b[3 * k + 2].get<double>(), 0.0, 1e-6) << "vertex " << k;
    // joint 1: p + (-0.5, 0, 0); joint 2: translate(0,1,0) * Rz(angle) * translate(-0.5,-1,0) p
    const double w2 = static_cast<double>(k / 2) / 4.0, w1 = 1.0 - w2;
    const double lx = x - 0.5, ly = y - 1.0;
    const double p2x = std::cos(angle) * lx - std::sin(angle) * ly;
    const double p2y = std::sin(angle) * lx + std::cos(angle) * ly + 1.0;
    EXPECT_NEAR(p[3 * k + 0].get<double>(), w1 * (x - 0.5) + w2 * p2x, 1e-3) << "vertex " << k;
    EXPECT_NEAR(p[3 * k + 1].get<double>(), w1 * y + w2 * p2y, 1e-3) << "vertex " << k;
  }
}

// Per vertex, how far the flat xyz position arrays of two dumps are apart.
std::vector<double> displacements(const nlohmann::json& a, const nlohmann::json& b) {
  std::vector<double> out;
  for (std::size_t i = 0; i + 2 < a.size() && i + 2 < b.size(); i += 3) {
    double d2 = 0.0;
    for (std::size_t c = 0; c < 3; ++c) {
      const double d = b[i + c].get<double>() - a[i + c].get<double>();
      d2 += d * d;
    }
    out.push_back(std::sqrt(d2));
  }
  return out;
}

// --method reaches the dump's skinning: on the default character's `twist` half-turn, DQS and
// CoR move the twisting forearm's vertices away from LBS's, and leave every vertex that only the
// body's unmoved joints weigh where LBS puts it (the same bones, the same pose).
TEST(Cli, DumpSkinsWithTheChosenMethod) {
  const std::string def = std::string(SKINVIEW_SOURCE_DIR) + "/assets/default.glb";
  const nlohmann::json lbs = dump({"--clip", "twist", "--time", "1"}, def);
  const nlohmann::json lbs2 = dump({"--clip", "twist", "--time", "1", "--method", "lbs"}, def);
  EXPECT_EQ(lbs, lbs2) << "--method lbs is the default";
  const auto& p0 = lbs["meshes"][0]["positions"];
  ASSERT_GT(p0.size(), 3u);
  for (const char* method : {"dqs", "cor"}) {
    const nlohmann::json other = dump({"--clip", "twist", "--time", "1", "--method", method}, def);
    const auto& p = other["meshes"][0]["positions"];
    ASSERT_EQ(p.size(), p0.size()) << method;
    double moved = 0.0;
    std::size_t unchanged = 0;
    for (const double d : displacements(p0, p)) {
      moved = std::max(moved, d);
      if (d < 1e-5) ++unchanged;
    }
    EXPECT_GT(moved, 0.01) << method << ": the candy wrapper should open";
    EXPECT_GT(unchanged, p.size() / 3 / 2) << method << ": most of the body does not twist";
  }
}

// --influences reaches the dump's skinning, with every method: on the FBX with 5-6 influences per
// vertex, 8 moves the vertices that had more than 4 and leaves the others where 4 puts them; 4 is
// the default. --info says how many skin per vertex.
TEST(Cli, DumpSkinsWithTheChosenInfluences) {
  const std::string fbx = model("FBX/animation_with_skeleton.fbx");
  const nlohmann::json four = dump({"--time", "0.5"}, fbx);
  EXPECT_EQ(four, dump({"--time", "0.5", "--influences", "4"}, fbx)) << "4 is the default";
  for (const char* method : {"lbs", "dqs", "cor"}) {
    const nlohmann::json a = dump({"--time", "0.5", "--method", method}, fbx);
    const nlohmann::json b = dump({"--time", "0.5", "--method", method, "--influences", "8"}, fbx);
    const auto& p4 = a["meshes"][0]["positions"];
    const auto& p8 = b["meshes"][0]["positions"];
    ASSERT_EQ(p4.size(), p8.size()) << method;
    // Moved: by more than the rounding the two kernels differ by (1e-5 of the model's extent).
    double extent = 0.0;
    for (const auto& c : p4) extent = std::max(extent, std::abs(c.get<double>()));
    std::size_t moved = 0;
    for (const double d : displacements(p4, p8)) moved += d > 1e-5 * extent ? 1 : 0;
    // CoR's centres change with the weights too, so its vertices with 4 or fewer may move; the
    // others keep every vertex within 4 exactly.
    EXPECT_GT(moved, 1000u) << method;
    if (std::string(method) != "cor") {
      EXPECT_LE(moved, 2883u) << method;
    }
  }
  const ProcessResult r = run_process({kExe, "--info", fbx, "--influences", "8"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("Max influences per vertex: 6 (6 skin per vertex with --influences 8)"),
            std::string::npos)
      << r.out;
  expect_bad_input({kExe, "--info", fbx, "--influences", "6"}, "--influences");
  expect_bad_input({kExe, "--dump", fbx, "--influences", "x", "-o", temp_file("x.json")},
                   "--influences");
}

TEST(Cli, SkeletonOnlyModelDumpsBones) {
  nlohmann::json j = dump({"--time", "1"}, model("BVH/01_01.bvh"));
  EXPECT_EQ(j["meshes"].size(), 0u);
  EXPECT_EQ(j["bones"].size(), 31u);
}

TEST(Cli, BadInputIsOneLineAndStatus2) {
  const std::string wuson = model("X/Testwuson.X");
  expect_bad_input({kExe, "--info", "/no/such/model.fbx"}, "/no/such/model.fbx");
  expect_bad_input({kExe, "--dump", "/no/such/model.fbx", "-o", temp_file("x.json")},
                   "/no/such/model.fbx");
  const std::string junk = temp_file("junk.xyz");
  std::ofstream(junk) << "this is not a model\n";
  expect_bad_input({kExe, "--info", junk}, junk);
  std::filesystem::remove(junk);
  const std::string empty_gltf = temp_file("empty.gltf");
  std::ofstream(empty_gltf) << R"({"asset":{"version":"2.0"},"scenes":[{"nodes":[]}],"scene":0})";
  expect_bad_input({kExe, "--info", empty_gltf}, empty_gltf);
  std::filesystem::remove(empty_gltf);
  expect_bad_input({kExe, "--dump", wuson, "--clip", "Nope", "-o", temp_file("x.json")},
                   "no clip 'Nope' in " + wuson + "; clips: Wuson_Run, Wuson_Walk, Wuson_Bind");
  expect_bad_input({kExe, "--dump", wuson, "--clip", "7", "-o", temp_file("x.json")}, wuson);
  expect_bad_input({kExe, "--dump", wuson, "--time", "-1", "-o", temp_file("x.json")}, wuson);
  expect_bad_input({kExe, "--dump", wuson, "--time", "nan", "-o", temp_file("x.json")}, wuson);
  expect_bad_input({kExe, "--dump", wuson, "--times", "0,x", "-o", temp_file("x.json")}, wuson);
  expect_bad_input({kExe, "--info", wuson, "--no-such-option"}, "no-such-option");
  expect_bad_input({kExe, "--dump", wuson, "--method", "lbs2", "-o", temp_file("x.json")},
                   "--method");
  expect_bad_input({kExe, "--screenshot", temp_file("x.png"), wuson, "--method", ""}, "--method");
  expect_bad_input({kExe, "--info", wuson, "--time", "1", "--times", "1,2"}, "skinview");
  std::filesystem::remove(temp_file("x.json"));
}

// --screenshot reads the model while it makes its GL context: with no display, a bad file or a
// --clip that names nothing is still exit 2 with its one line (what the context said is held until
// the model is good), and a good model is exit 1 with the context's own message.
TEST(Cli, AScreenshotsBadInputIsOneLineEvenWithoutADisplay) {
  const std::string def = std::string(SKINVIEW_SOURCE_DIR) + "/assets/default.glb";
  const std::string out = temp_file("nodisplay.png");
  expect_bad_input(windowless({"--screenshot", out, "/nonexistent.glb"}), "/nonexistent.glb");
  expect_bad_input(windowless({"--screenshot", out, def, "--clip", "nosuch"}),
                   "skinview: no clip 'nosuch' in " + def + "; clips: idle, walk, wave, twist");
  const ProcessResult good = run_process(windowless({"--screenshot", out, def}));
  ASSERT_TRUE(good.exited()) << "timed out or crashed (signal " << good.signal << ")";
  EXPECT_EQ(good.exit_code, 1) << good.err;
  EXPECT_NE(good.err.find("cannot initialise GLFW"), std::string::npos) << good.err;
  EXPECT_FALSE(std::filesystem::exists(out));
}

// The window reads its first model and checks every option against it before it opens: each bad
// value exits 2 with one line naming what exists, even with no display to open a window on.
TEST(Cli, TheWindowsBadOptionsExitTwoBeforeAnyWindowOpens) {
  const std::string def = std::string(SKINVIEW_SOURCE_DIR) + "/assets/default.glb";
  const std::string wuson = model("X/Testwuson.X");
  expect_bad_input(windowless({"/nonexistent.glb"}), "/nonexistent.glb");
  expect_bad_input(windowless({def, "--clip", "nosuch"}),
                   "skinview: no clip 'nosuch' in " + def + "; clips: idle, walk, wave, twist");
  expect_bad_input(windowless({"--clip", "nosuch"}), "clips: idle, walk, wave, twist");
  expect_bad_input(windowless({wuson, "--clip", "3"}), "clips: Wuson_Run, Wuson_Walk, Wuson_Bind");
  expect_bad_input(windowless({def, "--bone", "tail"}), "no joint 'tail' in " + def + "; joints: ");
  expect_bad_input(windowless({def, "--time", "-1"}), "--time");
  expect_bad_input(windowless({def, "--time", "soon"}), "--time");
  expect_bad_input(windowless({def, "--view", "xray"}), "--view");
  expect_bad_input(windowless({def, "--skinning", "tpu"}), "--skinning");
  expect_bad_input(windowless({def, "--method", "slerp"}), "--method");
  expect_bad_input(windowless({def, "--method", "DQS"}), "--method");
  expect_bad_input(windowless({def, "--size", "12"}), "--size");
  expect_bad_input(windowless({def, "--rest-pose", "--clip", "walk"}), "--clip");
  expect_bad_input(windowless({model("invalid/empty.x")}), "empty.x");
  // Good values get past the checks: then it is the missing display that stops the window (1).
  ProcessResult r =
      run_process(windowless({def, "--clip", "wave", "--time", "0.5", "--bone", "hand_r", "--view",
                              "weights", "--skinning", "cpu", "--method", "cor"}));
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("skinview: "), std::string::npos) << r.err;
}

// --thumbnail IN OUT SIZE (the file managers' thumbnailer) checks its input before it needs a
// display: one line, exit 2, no picture. (The picture itself: tests/install/install_test.sh.)
TEST(Cli, ThumbnailBadInputIsOneLineAndStatus2) {
  const std::string def = std::string(SKINVIEW_SOURCE_DIR) + "/assets/default.glb";
  const std::string png = temp_file("thumb.png");
  expect_bad_input(windowless({"--thumbnail", "/no/such/model.glb", png, "256"}),
                   "/no/such/model.glb");
  expect_bad_input(windowless({"--thumbnail", def, png, "0"}), "SIZE '0'");
  expect_bad_input(windowless({"--thumbnail", def, png, "5000"}), "SIZE '5000'");
  expect_bad_input(windowless({"--thumbnail", def, png, "256x256"}), "SIZE '256x256'");
  expect_bad_input(windowless({"--thumbnail", def, png}), "--thumbnail");
  expect_bad_input(windowless({def, "--thumbnail", def, png, "256"}), "not as MODEL");
  expect_bad_input(windowless({"--thumbnail", def, png, "256", "--screenshot", png}),
                   "--screenshot");
  expect_bad_input(windowless({"--thumbnail", def, png, "256", "--info"}), "--thumbnail");
  expect_bad_input(windowless({"--thumbnail", def, png, "256", "--clip", "nosuch"}),
                   "no clip 'nosuch'");
  EXPECT_FALSE(std::filesystem::exists(png));
}

TEST(Cli, VersionAndHelpWithTheControls) {
  ProcessResult v = run_process({kExe, "--version"});
  EXPECT_EQ(v.exit_code, 0);
  EXPECT_EQ(v.out.rfind("skinview ", 0), 0u) << v.out;
  ProcessResult h = run_process({kExe, "--help"});
  EXPECT_EQ(h.exit_code, 0);
  for (const char* s : {"--rest-pose", "--bind-pose", "--version", "--thumbnail", "Controls",
                        "Left drag", "Wheel", "Space", "Home", "F1 or ?", "Ctrl+Q"}) {
    EXPECT_NE(h.out.find(s), std::string::npos) << s;
  }
}

TEST(Cli, EveryInvalidFileExits2WithOneLine) {
  std::size_t n = 0;
  for (const auto& entry : std::filesystem::directory_iterator(model("invalid"))) {
    if (!entry.is_regular_file()) continue;
    ++n;
    SCOPED_TRACE(entry.path().string());
    expect_bad_input({kExe, "--info", entry.path().string()}, entry.path().string());
  }
  EXPECT_GE(n, 15u);
}

// The import runs in a child process: whatever it does, the command line prints one line and
// exits 2. The worker is made to crash, hang and exhaust memory on purpose
// (SKINVIEW_IMPORT_FAULT, io/worker_protocol.h); the real crashers of earlier fuzz rounds are in
// tests/io/fuzz_regression_test.cpp.
TEST(Cli, AnImporterThatFailsIsOneLineAndStatus2) {
  const std::string wuson = model("X/Testwuson.X");
  struct Case {
    const char* fault;
    std::vector<std::string> extra;
    std::string says;
  };
  const Case cases[] = {
      {"segv", {}, wuson + ": the importer crashed (SIGSEGV) reading it; refused"},
      {"abort", {}, wuson + ": the importer crashed (SIGABRT) reading it; refused"},
      {"hang", {"--time-limit", "1"}, wuson + ": gave up after 1 s (--time-limit)"},
      {"alloc",
       {"--memory-limit", "200"},
       wuson + ": the importer ran out of memory (limit 200 MiB) reading it; refused"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.fault);
    ::setenv("SKINVIEW_IMPORT_FAULT", c.fault, 1);
    for (const char* mode : {"--info", "--dump"}) {
      std::vector<std::string> args{kExe, mode, wuson};
      args.insert(args.end(), c.extra.begin(), c.extra.end());
      expect_bad_input(args, c.says);
    }
    ::unsetenv("SKINVIEW_IMPORT_FAULT");
  }
}

// The model cache on the command line: the first --info imports and stores, the second reads the
// cache and says so; --dump from the cache equals --dump with --no-cache; --no-cache stores
// nothing. $XDG_CACHE_HOME is a fresh folder for the test.
TEST(Cli, AReopenReadsTheModelCacheAndNoCacheBypassesIt) {
  const std::string character = std::string(SKINVIEW_SOURCE_DIR) + "/assets/default.glb";
  const std::string home = temp_file("xdg-cache");
  std::filesystem::remove_all(home);
  const char* old = std::getenv("XDG_CACHE_HOME");
  const std::string saved = old != nullptr ? old : "";
  ::setenv("XDG_CACHE_HOME", home.c_str(), 1);
  const std::string says = "Read from the model cache";
  const ProcessResult no_cache = run_process({kExe, "--info", character, "--no-cache"});
  EXPECT_EQ(no_cache.exit_code, 0) << no_cache.err;
  EXPECT_FALSE(std::filesystem::exists(home + "/skinview")) << "--no-cache stored something";
  const ProcessResult first = run_process({kExe, "--info", character});
  EXPECT_EQ(first.exit_code, 0) << first.err;
  EXPECT_EQ(first.out.find(says), std::string::npos) << first.out;
  EXPECT_TRUE(std::filesystem::exists(home + "/skinview"));
  const ProcessResult second = run_process({kExe, "--info", character});
  EXPECT_EQ(second.exit_code, 0) << second.err;
  EXPECT_NE(second.out.find(says), std::string::npos) << second.out;
  // Apart from that line, what the file holds reads the same.
  EXPECT_EQ(second.out.substr(0, second.out.find(says)), first.out);
  const std::vector<std::string> pose{"--clip", "walk", "--time", "0.4"};
  std::vector<std::string> uncached = pose;
  uncached.push_back("--no-cache");
  EXPECT_EQ(dump(pose, character), dump(uncached, character));
  if (old != nullptr) {
    ::setenv("XDG_CACHE_HOME", saved.c_str(), 1);
  } else {
    ::unsetenv("XDG_CACHE_HOME");
  }
  std::filesystem::remove_all(home);
}

// A FIFO where the model's cache entry should be (the issue's hang: --info blocked forever opening
// it): --info imports the model instead, and the next store replaces the FIFO with an entry.
TEST(Cli, AFifoWhereACacheEntryShouldBeDoesNotHangInfo) {
  const std::string character = std::string(SKINVIEW_SOURCE_DIR) + "/assets/default.glb";
  const std::string home = temp_file("xdg-cache-fifo");
  std::filesystem::remove_all(home);
  const char* old = std::getenv("XDG_CACHE_HOME");
  const std::string saved = old != nullptr ? old : "";
  ::setenv("XDG_CACHE_HOME", home.c_str(), 1);
  const std::string says = "Read from the model cache";
  const ProcessResult first = run_process({kExe, "--info", character});
  EXPECT_EQ(first.exit_code, 0) << first.err;
  std::vector<std::string> entries;
  for (const auto& e : std::filesystem::directory_iterator(home + "/skinview"))
    if (e.path().extension() == ".svc") entries.push_back(e.path().string());
  ASSERT_EQ(entries.size(), 1u);
  std::filesystem::remove(entries[0]);
  ASSERT_EQ(::mkfifo(entries[0].c_str(), 0600), 0);
  // The limit only keeps a regression from hanging the suite: it fails the test, it is no bound.
  const ProcessResult with_fifo = run_process({kExe, "--info", character}, 120.0);
  EXPECT_FALSE(with_fifo.timed_out) << "--info hung on a FIFO in the cache";
  EXPECT_EQ(with_fifo.exit_code, 0) << with_fifo.err;
  EXPECT_EQ(with_fifo.out.find(says), std::string::npos) << with_fifo.out;
  EXPECT_TRUE(std::filesystem::is_regular_file(entries[0]));
  const ProcessResult again = run_process({kExe, "--info", character});
  EXPECT_NE(again.out.find(says), std::string::npos) << again.out;
  if (old != nullptr) {
    ::setenv("XDG_CACHE_HOME", saved.c_str(), 1);
  } else {
    ::unsetenv("XDG_CACHE_HOME");
  }
  std::filesystem::remove_all(home);
}

// skinview itself never runs assimp: the library is not even loaded into its process.
TEST(Cli, SkinviewDoesNotLinkAssimp) {
  const ProcessResult r = run_process({"/usr/bin/ldd", kExe});
  ASSERT_TRUE(r.exited());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("libc.so"), std::string::npos) << r.out;  // ldd did list the libraries
  EXPECT_EQ(r.out.find("assimp"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace sv::test

namespace sv::test {
namespace {

// The body's line under the twist clip of `--info --method METHOD` on the default character:
// the signed change in percent, parsed from
//   "  [3] 'twist': 61 poses, 30 per second and the end\n      'body': -0.31% at 1.000 s (...)".
double twist_volume_change(const std::string& method) {
  const std::string def = std::string(SKINVIEW_SOURCE_DIR) + "/assets/default.glb";
  const ProcessResult r = run_process({kExe, "--info", def, "--method", method});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  const std::regex line(
      R"(\[3\] 'twist': 61 poses, 30 per second and the end\n      'body': ([+-][0-9]+\.[0-9]+)% at ([0-9.]+) s \(min )");
  std::smatch match;
  if (!std::regex_search(r.out, match, line)) {
    ADD_FAILURE() << method << ": no twist line in\n" << r.out;
    return 0.0;
  }
  return std::stod(match[1].str());
}

// --info --method M prints, per clip, the sampling and then each closed mesh's volume change
// against the rest pose, named, with the time and the least and most; on `twist`, LBS loses more
// volume than DQS and CoR (the candy wrapper collapses the forearm), and an open mesh gets no
// figure but a reason.
TEST(Cli, InfoPrintsTheVolumeChangeOfEveryClip) {
  const std::string def = std::string(SKINVIEW_SOURCE_DIR) + "/assets/default.glb";
  const ProcessResult r = run_process({kExe, "--info", def, "--method", "dqs"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // The body and the face (issue 14) are closed, and each has its own line under every clip.
  EXPECT_NE(r.out.find("Volume change against the rest pose, DQS (closed meshes: 2 of 2):\n"),
            std::string::npos)
      << r.out;
  // A figure that prints as +0.00% has no time (rounding noise would pick it).
  const std::string figure = "[+-][0-9]+\\.[0-9]{2}%( at [0-9]+\\.[0-9]{3} s)?";
  for (const char* clip : {"idle", "walk", "wave", "twist", "run", "breathe", "face"}) {
    const std::regex lines("\\] '" + std::string(clip) +
                           "': [0-9]+ poses, 30 per second and the end\n"
                           "      'body': " +
                           figure + " \\(min " + figure + ", max " + figure +
                           "\\)\n      'face': " + figure + " \\(min " + figure + ", max " +
                           figure + "\\)\n");
    EXPECT_TRUE(std::regex_search(r.out, lines)) << clip << "\n" << r.out;
  }
  const double lbs = twist_volume_change("lbs");
  const double dqs = twist_volume_change("dqs");
  const double cor = twist_volume_change("cor");
  std::printf("twist: largest volume change LBS %+.2f%%, DQS %+.2f%%, CoR %+.2f%%\n", lbs, dqs,
              cor);
  EXPECT_LT(lbs, -0.1) << "LBS loses volume in the twist";
  EXPECT_LT(lbs, 3.0 * dqs - 0.05) << "LBS " << lbs << "% vs DQS " << dqs << "%";
  EXPECT_LT(lbs, 3.0 * cor - 0.05) << "LBS " << lbs << "% vs CoR " << cor << "%";
  EXPECT_LT(std::abs(dqs), std::abs(lbs) / 3.0);
  EXPECT_LT(std::abs(cor), std::abs(lbs) / 3.0);

  const ProcessResult wuson = run_process({kExe, "--info", model("X/Testwuson.X")});
  ASSERT_EQ(wuson.exit_code, 0) << wuson.err;
  EXPECT_NE(wuson.out.find("mesh [0] 'Wuson': open (an edge not shared by exactly two oppositely "
                           "wound triangles), not measured\n"),
            std::string::npos)
      << wuson.out;
  EXPECT_NE(wuson.out.find("'Wuson_Run': no closed mesh to measure"), std::string::npos);

  // A mesh of points only has no triangles: not "open" (there is no surface to be open).
  const ProcessResult points = run_process({kExe, "--info", model("OBJ/point_cloud.obj")});
  ASSERT_EQ(points.exit_code, 0) << points.err;
  EXPECT_NE(points.out.find(": no triangles (points or lines), not measured\n"), std::string::npos)
      << points.out;
  EXPECT_EQ(points.out.find("open ("), std::string::npos) << points.out;
  // Its mesh has no name: named by its index everywhere, never ''.
  EXPECT_NE(points.out.find("  Mesh 0 (no name): 0 line(s) and 3 point(s)"), std::string::npos)
      << points.out;
  EXPECT_NE(points.out.find("mesh 0 (no name): no triangles"), std::string::npos) << points.out;
  EXPECT_EQ(points.out.find("''"), std::string::npos) << points.out;
}

// The FBX files' armatures carry a 100x unit scale that the bind pose does not: against the bind
// pose their figures were +99,999,826% and +121,365,831%. Against the rest pose every figure is
// a plausible one, on a line naming its mesh.
TEST(Cli, InfoVolumeOfFbxArmaturesIsPlausible) {
  const std::regex mesh_line(
      R"(\n      '([^'\n]+)': ([+-][0-9]+\.[0-9]+)%(?: at [0-9.]+ s)? \(min ([+-][0-9]+\.[0-9]+)%(?: at [0-9.]+ s)?, max ([+-][0-9]+\.[0-9]+)%)");
  for (const char* file : {"FBX/animation_with_skeleton.fbx", "FBX/huesitos.fbx"}) {
    const ProcessResult r = run_process({kExe, "--info", model(file), "--method", "lbs"});
    ASSERT_EQ(r.exit_code, 0) << file << r.err;
    EXPECT_NE(r.out.find("Volume change against the rest pose, LBS (closed meshes: 1 of 1):"),
              std::string::npos)
        << r.out;
    std::size_t figures = 0;
    for (auto it = std::sregex_iterator(r.out.begin(), r.out.end(), mesh_line);
         it != std::sregex_iterator(); ++it) {
      ++figures;
      EXPECT_FALSE((*it)[1].str().empty());
      for (int k = 2; k <= 4; ++k) EXPECT_LT(std::abs(std::stod((*it)[k].str())), 25.0) << r.out;
    }
    EXPECT_EQ(figures, 1u) << file << "\n" << r.out;  // one clip, one closed mesh
  }
}

// A small valid glTF whose clip lasts a million seconds (issue 22: --info took 7.7 s sampling it
// at 30 poses a second): sampled at the capped count, which the line says.
TEST(Cli, InfoSamplesAVeryLongClipAtTheCappedCount) {
  // A unit cube on one joint, scaled by a clip with keys at 0 and 1e6 s. Buffer layout: 8
  // positions, 36 indices (u16), 8 JOINTS_0 (u8 x 4), 8 WEIGHTS_0, 1 inverse bind matrix,
  // 2 key times, 2 scales.
  std::vector<unsigned char> bin;
  const auto put = [&](const void* p, std::size_t n) {
    const auto* b = static_cast<const unsigned char*>(p);
    bin.insert(bin.end(), b, b + n);
  };
  for (int i = 0; i < 8; ++i) {
    const float v[3] = {float(i & 1), float((i >> 1) & 1), float((i >> 2) & 1)};
    put(v, sizeof v);
  }
  const uint16_t cube[36] = {0, 2, 3, 0, 3, 1, 4, 5, 7, 4, 7, 6, 0, 1, 5, 0, 5, 4,
                             2, 6, 7, 2, 7, 3, 0, 4, 6, 0, 6, 2, 1, 3, 7, 1, 7, 5};
  put(cube, sizeof cube);        // offset 96
  for (int i = 0; i < 8; ++i) {  // offset 168
    const unsigned char j[4] = {0, 0, 0, 0};
    put(j, sizeof j);
  }
  for (int i = 0; i < 8; ++i) {  // offset 200
    const float w[4] = {1, 0, 0, 0};
    put(w, sizeof w);
  }
  const float identity[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
  put(identity, sizeof identity);  // offset 328
  const float times[2] = {0.0f, 1e6f};
  put(times, sizeof times);  // offset 392
  const float scales[6] = {1, 1, 1, 2, 2, 2};
  put(scales, sizeof scales);  // offset 400, end 424
  static const char* kB64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string b64;
  for (std::size_t i = 0; i < bin.size(); i += 3) {
    const unsigned v = (unsigned(bin[i]) << 16) | (i + 1 < bin.size() ? bin[i + 1] << 8 : 0) |
                       (i + 2 < bin.size() ? bin[i + 2] : 0);
    b64 += kB64[(v >> 18) & 63];
    b64 += kB64[(v >> 12) & 63];
    b64 += i + 1 < bin.size() ? kB64[(v >> 6) & 63] : '=';
    b64 += i + 2 < bin.size() ? kB64[v & 63] : '=';
  }
  const std::string path = temp_file("long_clip.gltf");
  std::ofstream(path) << R"({"asset":{"version":"2.0"},"scene":0,"scenes":[{"nodes":[0,1]}],
"nodes":[{"name":"box","mesh":0,"skin":0},{"name":"joint"}],
"meshes":[{"name":"box","primitives":[{"attributes":{"POSITION":0,"JOINTS_0":2,"WEIGHTS_0":3},"indices":1}]}],
"skins":[{"joints":[1],"inverseBindMatrices":4}],
"animations":[{"name":"forever","channels":[{"sampler":0,"target":{"node":1,"path":"scale"}}],
  "samplers":[{"input":5,"output":6}]}],
"buffers":[{"byteLength":424,"uri":"data:application/octet-stream;base64,)" +
                             b64 + R"("}],
"bufferViews":[{"buffer":0,"byteOffset":0,"byteLength":96},{"buffer":0,"byteOffset":96,"byteLength":72},
  {"buffer":0,"byteOffset":168,"byteLength":32},{"buffer":0,"byteOffset":200,"byteLength":128},
  {"buffer":0,"byteOffset":328,"byteLength":64},{"buffer":0,"byteOffset":392,"byteLength":8},
  {"buffer":0,"byteOffset":400,"byteLength":24}],
"accessors":[{"bufferView":0,"componentType":5126,"count":8,"type":"VEC3","min":[0,0,0],"max":[1,1,1]},
  {"bufferView":1,"componentType":5123,"count":36,"type":"SCALAR"},
  {"bufferView":2,"componentType":5121,"count":8,"type":"VEC4"},
  {"bufferView":3,"componentType":5126,"count":8,"type":"VEC4"},
  {"bufferView":4,"componentType":5126,"count":1,"type":"MAT4"},
  {"bufferView":5,"componentType":5126,"count":2,"type":"SCALAR","min":[0],"max":[1000000]},
  {"bufferView":6,"componentType":5126,"count":2,"type":"VEC3"}]})";
  const ProcessResult r = run_process({kExe, "--info", path, "--no-cache"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("[0] 'forever': 4096 poses, every 244.2 s (capped: 30 per second would "
                       "take 30000001)\n      'box': +700.00% at 1000000.000 s"),
            std::string::npos)
      << r.out;
  std::filesystem::remove(path);
}

}  // namespace
}  // namespace sv::test
