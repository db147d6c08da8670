// --compare through the real executable (app/compare.h), on versions of the default character the
// test writes (rig_version_glb.h): one joint moved and three vertices repainted are reported as
// exactly that, a renamed joint as renamed, renamed clips as removed and added; a strip with a
// different vertex count is matched by nearest position and says so; bad files exit 2.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "app/cli_util.h"
#include "app/rig_version_glb.h"
#include "json_file.h"
#include "temp_dir.h"

namespace sv::test {
namespace {

const std::string kCompareCharacter = std::string(SKINVIEW_SOURCE_DIR) + "/assets/default.glb";

nlohmann::json compare_json(const std::string& a, const std::string& b) {
  const ProcessResult r = run_process({kExe, "--compare", a, b, "--json", "--no-cache"});
  EXPECT_TRUE(r.exited());
  EXPECT_EQ(r.exit_code, 0) << r.err;
  nlohmann::json j = parse_json(r.out);
  EXPECT_FALSE(j.is_discarded()) << r.out;
  return j;
}

// The first three vertices of the body (file order, one in every 1000 or more apart) that weigh
// on more than one joint: repainting them whole onto their first joint changes them.
std::vector<uint32_t> blended_vertices() {
  std::vector<uint32_t> out;
  const std::vector<glm::vec4> w = file_weights(kCompareCharacter);
  for (uint32_t v = 0; v < w.size() && out.size() < 3; ++v)
    if (w[v].x > 0.0f && w[v].x < 0.9f && (out.empty() || v >= out.back() + 1000)) out.push_back(v);
  return out;
}

TEST(CompareCli, OneJointMovedAndThreeVerticesRepaintedAreExactlyWhatIsReported) {
  const TempDir temp;
  ASSERT_FALSE(temp.path().empty());
  RigEdit edit;
  edit.move_joint = "forearm_l";
  edit.move = glm::vec3(0.0f, 0.03f, 0.04f);  // 0.05 model units
  edit.whole_weight = blended_vertices();
  ASSERT_EQ(edit.whole_weight.size(), 3u);
  std::vector<double> changes;
  const std::string b = temp.path() + "/version2.glb";
  rig_version_glb(kCompareCharacter, edit, b, &changes);

  const nlohmann::json j = compare_json(kCompareCharacter, b);
  EXPECT_EQ(j["skinview"], "rig comparison");
  EXPECT_EQ(j["version"], 1);
  EXPECT_EQ(j["different"], true);
  EXPECT_TRUE(j["joints"]["added"].empty());
  EXPECT_TRUE(j["joints"]["removed"].empty());
  EXPECT_TRUE(j["joints"]["renamed"].empty());
  ASSERT_EQ(j["joints"]["moved"].size(), 1u) << j["joints"].dump(1);
  const nlohmann::json& moved = j["joints"]["moved"][0];
  EXPECT_EQ(moved["name"], "forearm_l");
  EXPECT_NEAR(moved["rest"]["distance"].get<double>(), 0.05, 1e-6);
  EXPECT_NEAR(moved["rest"]["degrees"].get<double>(), 0.0, 1e-6);
  EXPECT_NEAR(moved["bind"]["distance"].get<double>(), 0.05, 1e-5);
  EXPECT_LT(moved["bind"]["degrees"].get<double>(), 0.01);
  // The tolerance is named: 1e-4 of the model's size.
  EXPECT_NEAR(j["tolerances"]["translation"].get<double>(), 1e-4 * j["modelSize"].get<double>(),
              1e-12);

  EXPECT_EQ(j["weights"]["changed"], 3);
  EXPECT_EQ(j["weights"]["compared"], 10611 + 673);
  ASSERT_EQ(j["weights"]["meshes"].size(), 2u);
  const nlohmann::json& body = j["weights"]["meshes"][0];
  EXPECT_EQ(body["match"], "index");
  EXPECT_EQ(body["changed"], 3);
  ASSERT_EQ(body["changedVertices"].size(), 3u);
  double largest = 0.0;
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(body["changedVertices"][i]["vertex"], edit.whole_weight[i]);
    EXPECT_NEAR(body["changedVertices"][i]["change"].get<double>(), changes[i], 1e-5) << i;
    largest = std::max(largest, changes[i]);
  }
  EXPECT_NEAR(j["weights"]["maxChange"].get<double>(), largest, 1e-5);
  EXPECT_EQ(j["weights"]["meshes"][1]["changed"], 0);
  // The clips key the same: a joint moved at rest is not a clip change.
  EXPECT_TRUE(j["clips"]["changed"].empty()) << j["clips"].dump(1);
  EXPECT_EQ(j["clips"]["same"], 7);

  const ProcessResult text = run_process({kExe, "--compare", kCompareCharacter, b, "--no-cache"});
  EXPECT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("moved: 'forearm_l': rest moved 0.05 units, turned 0 degrees"),
            std::string::npos)
      << text.out;
  EXPECT_NE(text.out.find("matched by index (the counts agree): 3 changed"), std::string::npos)
      << text.out;
  EXPECT_NE(text.out.find("3 of 11284 vertices changed"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("Different: yes"), std::string::npos);
  // --fail-on-diff: 1 when they differ, 0 for the same file.
  EXPECT_EQ(run_process({kExe, "--compare", kCompareCharacter, b, "--fail-on-diff"}).exit_code, 1);
  const ProcessResult same =
      run_process({kExe, kCompareCharacter, "--compare", kCompareCharacter, "--fail-on-diff"});
  EXPECT_EQ(same.exit_code, 0) << same.err;
  EXPECT_NE(same.out.find("Different: no"), std::string::npos) << same.out;
}

TEST(CompareCli, ARenamedJointIsRenamedAndRenamedClipsAreRemovedAndAdded) {
  const TempDir temp;
  ASSERT_FALSE(temp.path().empty());
  RigEdit edit;
  edit.rename_joints = {{"hand_r", "Hand_R"}};
  edit.rename_clips = {{"wave", "greet"}};
  const std::string b = temp.path() + "/renamed.glb";
  rig_version_glb(kCompareCharacter, edit, b);
  const nlohmann::json j = compare_json(kCompareCharacter, b);
  ASSERT_EQ(j["joints"]["renamed"].size(), 1u) << j["joints"].dump(1);
  EXPECT_EQ(j["joints"]["renamed"][0]["from"], "hand_r");
  EXPECT_EQ(j["joints"]["renamed"][0]["to"], "Hand_R");
  EXPECT_TRUE(j["joints"]["added"].empty());
  EXPECT_TRUE(j["joints"]["removed"].empty());
  EXPECT_TRUE(j["joints"]["moved"].empty());
  // Its weights are matched through the rename: no vertex changed.
  EXPECT_EQ(j["weights"]["changed"], 0);
  EXPECT_EQ(j["clips"]["removed"], nlohmann::json::array({"wave"}));
  EXPECT_EQ(j["clips"]["added"], nlohmann::json::array({"greet"}));
  EXPECT_EQ(j["clips"]["same"], 6);
}

TEST(CompareCli, AKeyChangedInOneClipIsThatClipsOnlyTrackDifference) {
  const TempDir temp;
  ASSERT_FALSE(temp.path().empty());
  RigEdit edit;
  edit.key_clip = "walk";
  edit.key_joint = "neck";
  double degrees = 0.0;
  const std::string b = temp.path() + "/rekeyed.glb";
  rig_version_glb(kCompareCharacter, edit, b, nullptr, &degrees);
  ASSERT_GT(degrees, 0.1) << "the first key was already the identity";
  const nlohmann::json j = compare_json(kCompareCharacter, b);
  EXPECT_TRUE(j["joints"]["moved"].empty());
  EXPECT_EQ(j["weights"]["changed"], 0);
  EXPECT_EQ(j["clips"]["same"], 6);
  ASSERT_EQ(j["clips"]["changed"].size(), 1u) << j["clips"].dump(1);
  const nlohmann::json& c = j["clips"]["changed"][0];
  EXPECT_EQ(c["name"], "walk");
  EXPECT_EQ(c["duration"][0], c["duration"][1]);
  EXPECT_EQ(c["keys"][0], c["keys"][1]);
  ASSERT_EQ(c["tracks"].size(), 1u) << c.dump(1);
  EXPECT_EQ(c["tracks"][0]["joint"], "neck");
  EXPECT_EQ(c["tracks"][0]["path"], "rotation");
  EXPECT_EQ(c["tracks"][0]["timesDiffer"], false);
  // The values differ at the first key by the key's own angle, and nowhere more.
  EXPECT_NEAR(c["tracks"][0]["maxDifference"].get<double>(), degrees, 1e-3);
}

TEST(CompareCli, DifferentVertexCountsMatchByNearestPositionAndSaySo) {
  const TempDir temp;
  ASSERT_FALSE(temp.path().empty());
  const std::string a = temp.path() + "/strip1.gltf";
  const std::string b = temp.path() + "/strip2.gltf";
  strip_gltf(1, -1, a);  // 4 vertices: (-0.2, 0) (0.2, 0) (-0.2, 1) (0.2, 1)
  strip_gltf(2, 3, b);   // 6 vertices; (-0.2, 1) weighs 0.5 on root and 0.5 on tip
  const nlohmann::json j = compare_json(a, b);
  ASSERT_EQ(j["weights"]["meshes"].size(), 1u);
  const nlohmann::json& m = j["weights"]["meshes"][0];
  EXPECT_EQ(m["match"], "nearest position");
  EXPECT_EQ(m["verticesA"], 4);
  EXPECT_EQ(m["verticesB"], 6);
  EXPECT_NEAR(m["farthestMatch"].get<double>(), 0.0, 1e-7) << "every vertex of A is one of B's";
  // (-0.2, 1): tip 1 -> tip 0.5 and root 0.5: |1 - 0.5| + |0 - 0.5| = 1.
  ASSERT_EQ(m["changedVertices"].size(), 1u);
  EXPECT_EQ(m["changedVertices"][0]["vertex"], 2);
  EXPECT_NEAR(m["changedVertices"][0]["change"].get<double>(), 1.0, 1e-6);
  EXPECT_TRUE(j["joints"]["moved"].empty());
  const ProcessResult text = run_process({kExe, "--compare", a, b});
  EXPECT_NE(text.out.find("matched by nearest rest position (the counts differ"), std::string::npos)
      << text.out;
}

TEST(CompareCli, BadFilesAndMissingArgumentsAreOneLineExitTwo) {
  const TempDir temp;
  ASSERT_FALSE(temp.path().empty());
  expect_bad_input({kExe, "--compare", kCompareCharacter, temp.path() + "/nosuch.glb"},
                   "nosuch.glb");
  expect_bad_input({kExe, "--compare", temp.path() + "/nosuch.glb", kCompareCharacter},
                   "nosuch.glb");
  const std::string junk = temp.path() + "/junk.glb";
  std::ofstream(junk) << "not a model";
  expect_bad_input({kExe, "--compare", kCompareCharacter, junk}, "junk.glb");
  expect_bad_input({kExe, "--compare", kCompareCharacter}, "--compare needs two files");
}

// A BVH skeleton: a root PREFIXroot with `children` joints PREFIX0, PREFIX1, ... under it (each
// with an end site), one frame of zeros: 1 + children joints, none named as in another prefix.
void write_fan_bvh(const std::string& path, const std::string& prefix, int children) {
  std::ofstream out(path);
  out << "HIERARCHY\nROOT " << prefix << "root\n{\n  OFFSET 0 0 0\n"
      << "  CHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation\n";
  for (int i = 0; i < children; ++i)
    out << "  JOINT " << prefix << i << "\n  {\n    OFFSET " << i % 7 << " 1 0\n"
        << "    CHANNELS 3 Zrotation Xrotation Yrotation\n    End Site\n    {\n"
        << "      OFFSET 0 1 0\n    }\n  }\n";
  out << "}\nMOTION\nFrames: 1\nFrame Time: 0.0333333\n0 0 0 0 0 0";
  for (int i = 0; i < children; ++i) out << " 0 0 0";
  out << "\n";
}

// Two skeletons without a joint name in common, each one joint over sqrt(2^24): trying every pair
// as a rename is over the budget, and said with the count, not run.
TEST(CompareCli, AComparisonOverItsBudgetIsOneLineWithTheCountExitTwo) {
  const TempDir temp;
  ASSERT_FALSE(temp.path().empty());
  const std::string a = temp.path() + "/fan_a.bvh";
  const std::string b = temp.path() + "/fan_b.bvh";
  write_fan_bvh(a, "a_", 4096);  // 4097 joints
  write_fan_bvh(b, "b_", 4096);
  // 4097 x 4097 = 16785409 > 2^24 = 16777216.
  expect_bad_input({kExe, "--compare", a, b, "--no-cache"},
                   "skinview: comparison too large: 16785409 joint pairs to try as renames (4097 "
                   "of A's x 4097 of B's joints without a namesake) over the budget of 16777216");
  // 4095 children on both sides: 4096 x 4096 = 2^24, the budget exactly, compares.
  write_fan_bvh(a, "a_", 4095);
  write_fan_bvh(b, "b_", 4095);
  const ProcessResult ok = run_process({kExe, "--compare", a, b, "--no-cache"});
  ASSERT_TRUE(ok.exited());
  EXPECT_EQ(ok.exit_code, 0) << ok.err;
  EXPECT_NE(ok.out.find("Joints: 4096 in A, 4096 in B: 0 matched by name, 4096 renamed"),
            std::string::npos)
      << ok.out.substr(0, 600);
}

}  // namespace
}  // namespace sv::test
