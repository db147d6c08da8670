// --anim and --joint-map through the executable: the default character's clips written into an
// animation-only glTF with Mixamo-prefixed joint names (no mesh, no skin), loaded with --anim
// onto the character, pose every vertex exactly where the character's own clips do; the added
// clips work with --clip, --layer and --crossfade; the report names mapped, unmapped and extra
// joints; a BVH goes on through a joint map; bad files and maps are one line and exit 2.
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "anim_glb.h"
#include "cli_util.h"
#include "run_process.h"

namespace sv::test {
namespace {

const std::string kCharacter = std::string(SKINVIEW_SOURCE_DIR) + "/assets/default.glb";
std::string test_model(const std::string& rel) {
  return std::string(SKINVIEW_TEST_MODELS) + "/" + rel;
}

class AnimFiles : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    std::filesystem::create_directories(dir());
    animation_only_glb(kCharacter, "mixamorig:", dir() + "/moves.glb");
  }
  static void TearDownTestSuite() { std::filesystem::remove_all(dir()); }
  static std::string dir() { return temp_file("anim_files"); }
  static std::string moves() { return dir() + "/moves.glb"; }
};

TEST_F(AnimFiles, InfoListsTheAddedClipsAndTheJointReport) {
  ProcessResult r = run_process({kExe, "--info", kCharacter, "--anim", moves()});
  ASSERT_TRUE(r.exited());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // The character's 7 clips, then the file's 6 (its 'face' clip only moved morph weights, which
  // an animation-only file cannot hold). Their names are the character's: "moves/NAME".
  EXPECT_NE(r.out.find("Clips: 13"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("[7] 'moves/idle'"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("[12] 'moves/breathe'"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("moves.glb: added 6 clips: 'moves/idle', 'moves/walk', 'moves/wave', "
                       "'moves/twist', 'moves/run', 'moves/breathe'"),
            std::string::npos)
      << r.out;
  // The file's skeleton is its animated nodes (and the nodes above them): 20 under
  // "mixamorig:" meet the character's by key, assimp's own root node (ROOT) by its name. The
  // character's joints no clip moves (a hand, the toes) and its two mesh nodes are unmapped.
  EXPECT_NE(r.out.find("moves.glb: joints: 21 mapped (20 by name without namespace and case), 5 "
                       "unmapped (hand_l, toe_l, toe_r, body, face), 0 extra"),
            std::string::npos)
      << r.out;
  // Same rig: nothing was retargeted.
  EXPECT_EQ(r.out.find("rest poses differ"), std::string::npos) << r.out;
}

TEST_F(AnimFiles, AddedClipsPoseEveryVertexExactlyAsTheCharactersOwn) {
  for (const char* clip : {"walk", "run", "breathe", "wave"}) {
    const std::vector<std::string> times = {"--times", "0,0.13,0.5,1.1,1.9"};
    std::vector<std::string> own = {"--clip", clip};
    own.insert(own.end(), times.begin(), times.end());
    std::vector<std::string> added = {"--anim", moves(), "--clip", std::string("moves/") + clip};
    added.insert(added.end(), times.begin(), times.end());
    const nlohmann::json a = dump(own, kCharacter);
    const nlohmann::json b = dump(added, kCharacter);
    ASSERT_EQ(a["frames"].size(), 5u);
    ASSERT_EQ(b["frames"].size(), 5u);
    for (std::size_t f = 0; f < 5; ++f) {
      EXPECT_EQ(a["frames"][f]["meshes"], b["frames"][f]["meshes"]) << clip << " frame " << f;
      EXPECT_EQ(a["frames"][f]["bones"], b["frames"][f]["bones"]) << clip << " frame " << f;
    }
  }
}

TEST_F(AnimFiles, AddedClipsLayerAndCrossFadeAsAnyClip) {
  // wave over walk, and walk cross-fading to run, with the added copies in place of the
  // character's own: the same pose.
  const nlohmann::json own_layer =
      dump({"--clip", "walk", "--time", "0.4", "--layer", "wave:mask=clavicle_r"}, kCharacter);
  const nlohmann::json added_layer = dump({"--anim", moves(), "--clip", "moves/walk", "--time",
                                           "0.4", "--layer", "moves/wave:mask=clavicle_r"},
                                          kCharacter);
  EXPECT_EQ(own_layer["meshes"], added_layer["meshes"]);
  const nlohmann::json own_fade =
      dump({"--crossfade", "walk:run:0.2:0.5:sync", "--time", "0.45"}, kCharacter);
  const nlohmann::json added_fade = dump(
      {"--anim", moves(), "--crossfade", "moves/walk:moves/run:0.2:0.5:sync", "--time", "0.45"},
      kCharacter);
  EXPECT_EQ(own_fade["meshes"], added_fade["meshes"]);
  // The added walk differs from the rest pose (the comparison above is not of two rest poses).
  const nlohmann::json rest = dump({"--rest-pose"}, kCharacter);
  EXPECT_NE(rest["meshes"], added_layer["meshes"]);
}

TEST_F(AnimFiles, RepeatedFilesGetNumberedNames) {
  ProcessResult r = run_process({kExe, "--info", kCharacter, "--anim", moves(), "--anim", moves()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("Clips: 19"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("'moves/walk 2'"), std::string::npos) << r.out;
}

TEST_F(AnimFiles, BvhThroughAJointMap) {
  // CMU's 01_01.bvh onto the character: Hips meets hips by key; the map pairs the rest. Its
  // joints the character lacks (LHipJoint, the fingers, Neck1) are extra; the character's
  // ROOT, root and its two mesh nodes are unmapped.
  const std::string map = dir() + "/map.json";
  std::ofstream(map) << R"({"LowerBack": "spine_01", "Spine": "spine_02", "Spine1": "spine_03",
    "LeftShoulder": "clavicle_l", "LeftArm": "upperarm_l", "LeftForeArm": "forearm_l",
    "LeftHand": "hand_l", "RightShoulder": "clavicle_r", "RightArm": "upperarm_r",
    "RightForeArm": "forearm_r", "RightHand": "hand_r", "LeftUpLeg": "thigh_l",
    "LeftLeg": "shin_l", "LeftFoot": "foot_l", "LeftToeBase": "toe_l", "RightUpLeg": "thigh_r",
    "RightLeg": "shin_r", "RightFoot": "foot_r", "RightToeBase": "toe_r", "Tail": "tail"})";
  const std::string bvh = test_model("BVH/01_01.bvh");
  ProcessResult r = run_process({kExe, "--info", kCharacter, "--anim", bvh, "--joint-map", map});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("[7] 'Motion': 22.92 s, 22 channels"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("01_01.bvh: joints: 22 mapped (19 by the joint map, 3 by name without "
                       "namespace and case), 4 unmapped (ROOT, root, body, face), 9 extra "
                       "(LHipJoint, RHipJoint, Neck1, LeftFingerBase, LFingers, LThumb, "
                       "RightFingerBase, RFingers, RThumb)"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("01_01.bvh: joint map entry Tail -> tail names no joint"), std::string::npos)
      << r.out;
  // Its rest pose is not the character's, and its hips start 17.87 units up against the
  // character's 0.95 m.
  EXPECT_NE(r.out.find("root motion on 'hips' scaled by 0.05316 (hip heights 0.95 / 17.87)"),
            std::string::npos)
      << r.out;
  // The retargeted hips start at k times where the BVH's do.
  const nlohmann::json src = dump({"--time", "0"}, bvh);
  const nlohmann::json dst =
      dump({"--anim", bvh, "--joint-map", map, "--clip", "Motion", "--time", "0"}, kCharacter);
  auto bone = [](const nlohmann::json& j, const std::string& name) {
    for (const auto& b : j["bones"])
      if (b["name"] == name) return b["worldMatrix"];
    return nlohmann::json();
  };
  const nlohmann::json hs = bone(src, "Hips"), ht = bone(dst, "hips");
  ASSERT_EQ(hs.size(), 16u);
  ASSERT_EQ(ht.size(), 16u);
  const double k = 0.95 / hs[13].get<double>();  // the character's hip height over the BVH's
  for (int i = 12; i < 15; ++i)
    EXPECT_NEAR(ht[i].get<double>(), k * hs[i].get<double>(), 1e-4) << i;
}

TEST_F(AnimFiles, BadFilesAndMapsAreOneLine) {
  expect_bad_input({kExe, "--info", kCharacter, "--anim", "/no/such/moves.glb"},
                   "/no/such/moves.glb");
  // A file whose joints match none of the character's.
  expect_bad_input(
      {kExe, "--dump", kCharacter, "--anim", test_model("glTF2/simple_skin/simple_skin.gltf")},
      "none of its 3 joints");
  // A file without clips.
  expect_bad_input({kExe, "--info", kCharacter, "--anim", test_model("MD5/SimpleCube.md5mesh")},
                   "no animation clips");
  const std::string bad = dir() + "/bad.json";
  std::ofstream(bad) << R"({"Hips": 3})";
  expect_bad_input({kExe, "--info", kCharacter, "--anim", moves(), "--joint-map", bad},
                   "is not a string");
  std::ofstream(bad, std::ios::trunc) << "[1, 2";
  expect_bad_input({kExe, "--info", kCharacter, "--anim", moves(), "--joint-map", bad},
                   "not a JSON object");
  expect_bad_input(windowless({kCharacter, "--anim", moves(), "--joint-map", "/no/map.json"}),
                   "/no/map.json");
  expect_bad_input(windowless({kCharacter, "--anim", "/no/such/moves.glb"}), "/no/such/moves.glb");
}

}  // namespace
}  // namespace sv::test
