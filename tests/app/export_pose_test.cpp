// `skinview --export-pose OUT.glb`: the file, read back with tinygltf (not skinview's code), holds
// --dump's positions and normals at the same options vertex for vertex, the UVs and the
// materials; a Z-up file gets the turn upright; the bytes are the same on every run; bad input
// exits 2 with one line. (tests/app/CMakeLists.txt also runs Khronos' validator on an export.)
// The process helpers first: tiny_gltf.h's implementation includes system headers (fcntl.h,
// ext/stdio_filebuf.h) inside namespace tinygltf, which then hide getpid and environ from code
// included after it.
#include "app/cli_util.h"
#include "temp_dir.h"

#define TINYGLTF_IMPLEMENTATION
#define TINYGLTF_NO_STB_IMAGE
#define TINYGLTF_NO_STB_IMAGE_WRITE
#define TINYGLTF_NO_EXTERNAL_IMAGE
#include <tiny_gltf.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace sv::test {
namespace {

const std::string kDefault = std::string(SKINVIEW_SOURCE_DIR) + "/assets/default.glb";
const std::string kModels = SKINVIEW_TEST_MODELS;

bool have(const std::string& file) { return std::filesystem::exists(file); }

std::vector<float> floats(const tinygltf::Model& m, int accessor) {
  const tinygltf::Accessor& a = m.accessors.at(static_cast<std::size_t>(accessor));
  EXPECT_EQ(a.componentType, TINYGLTF_COMPONENT_TYPE_FLOAT);
  const tinygltf::BufferView& v = m.bufferViews.at(static_cast<std::size_t>(a.bufferView));
  const std::size_t n =
      a.count *
      static_cast<std::size_t>(tinygltf::GetNumComponentsInType(static_cast<uint32_t>(a.type)));
  std::vector<float> out(n);
  std::memcpy(out.data(), m.buffers.at(0).data.data() + v.byteOffset + a.byteOffset,
              n * sizeof(float));
  return out;
}

std::vector<float> json_floats(const nlohmann::json& a) {
  std::vector<float> out;
  for (const auto& x : a) out.push_back(static_cast<float>(x.get<double>()));
  return out;
}

// Images are kept as bytes, not decoded (tinygltf is built without stb_image here).
bool keep_image(tinygltf::Image*, const int, std::string*, std::string*, int, int,
                const unsigned char*, int, void*) {
  return true;
}

tinygltf::Model export_pose(const std::vector<std::string>& args, const std::string& out) {
  std::vector<std::string> all{kExe};
  all.insert(all.end(), args.begin(), args.end());
  all.insert(all.end(), {"--export-pose", out});
  ProcessResult r = run_process(all, 120.0);
  EXPECT_TRUE(r.exited());
  EXPECT_EQ(r.exit_code, 0) << r.err;
  tinygltf::Model m;
  tinygltf::TinyGLTF loader;
  loader.SetImageLoader(&keep_image, nullptr);
  std::string err, warn;
  EXPECT_TRUE(loader.LoadBinaryFromFile(&m, &err, &warn, out)) << err << warn;
  return m;
}

// Exports `args` and dumps them; every mesh's positions and normals must be --dump's exactly
// (the dump's 9 digits read back as float are the float), with UVs for every vertex when the
// source has them. Returns the glTF.
tinygltf::Model expect_export_equals_dump(const std::vector<std::string>& args) {
  TempDir tmp;
  const tinygltf::Model m = export_pose(args, tmp / "posed.glb");
  std::vector<std::string> dump_args(args.begin() + 1, args.end());
  const nlohmann::json j = dump(dump_args, args.front());
  const auto& meshes = j.at("meshes");
  EXPECT_EQ(m.meshes.size(), meshes.size());
  for (std::size_t i = 0; i < std::min(m.meshes.size(), meshes.size()); ++i) {
    const tinygltf::Primitive& p = m.meshes[i].primitives.at(0);
    const std::vector<float> positions = floats(m, p.attributes.at("POSITION"));
    EXPECT_EQ(positions, json_floats(meshes[i].at("positions"))) << "mesh " << i;
    if (p.attributes.count("NORMAL") != 0) {
      EXPECT_EQ(floats(m, p.attributes.at("NORMAL")), json_floats(meshes[i].at("normals")))
          << "mesh " << i;
    }
    if (p.attributes.count("TEXCOORD_0") != 0) {
      EXPECT_EQ(floats(m, p.attributes.at("TEXCOORD_0")).size(), positions.size() / 3 * 2);
    }
    // Every index refers to a vertex.
    const tinygltf::Accessor& idx = m.accessors.at(static_cast<std::size_t>(p.indices));
    EXPECT_EQ(idx.count % 3, 0u);
    EXPECT_LT(idx.maxValues.empty() ? 0.0 : idx.maxValues[0], double(positions.size() / 3));
  }
  return m;
}

TEST(ExportPose, PositionsAndNormalsAreTheDumpsAtThatTime) {
  const tinygltf::Model walk =
      expect_export_equals_dump({kDefault, "--clip", "walk", "--time", "0.5"});
  expect_export_equals_dump({kDefault, "--clip", "wave", "--time", "3"});  // past the end: clamped
  expect_export_equals_dump({kDefault, "--bind-pose"});
  expect_export_equals_dump(
      {kDefault, "--clip", "walk", "--time", "0.3", "--layer", "wave:mask=clavicle_r"});
  expect_export_equals_dump({kDefault, "--crossfade", "walk:run:0.2:0.5", "--time", "0.4"});
  // The skinning methods (--method, issue 12) on the twist, where they differ most.
  expect_export_equals_dump({kDefault, "--clip", "twist", "--time", "1", "--method", "dqs"});
  expect_export_equals_dump({kDefault, "--clip", "twist", "--time", "1", "--method", "cor"});
  // Morph targets (issue 14): the face mid-blink and smiling is exported as --dump poses it.
  expect_export_equals_dump({kDefault, "--clip", "face", "--time", "0.6"});
  expect_export_equals_dump({kDefault, "--clip", "face", "--time", "1.7"});
  // The default character: the body and the face, UVs, its material with its embedded checker
  // PNG (assimp adds a default material after the file's).
  ASSERT_EQ(walk.meshes.size(), 2u);
  ASSERT_EQ(walk.meshes[0].primitives[0].material, 0);
  EXPECT_EQ(walk.meshes[1].primitives[0].material, 1);
  ASSERT_GE(walk.materials.size(), 1u);
  const auto& pbr = walk.materials[0].pbrMetallicRoughness;
  EXPECT_EQ(walk.materials[0].name, "skin");
  EXPECT_FALSE(walk.materials[0].doubleSided);  // single-sided in the file: glTF's default
  EXPECT_NEAR(pbr.baseColorFactor[0], 0.80, 1e-6);
  EXPECT_NEAR(pbr.baseColorFactor[1], 0.62, 1e-6);
  EXPECT_EQ(pbr.metallicFactor, 0.0);
  ASSERT_EQ(pbr.baseColorTexture.index, 0);
  ASSERT_EQ(walk.images.size(), 1u);
  EXPECT_EQ(walk.images[0].mimeType, "image/png");
  EXPECT_EQ(walk.meshes[0].primitives[0].attributes.count("TEXCOORD_0"), 1u);
  EXPECT_EQ(walk.skins.size(), 0u);
  EXPECT_EQ(walk.animations.size(), 0u);
}

TEST(ExportPose, RealModelsWrittenByOthers) {
  for (const std::string& file : {kModels + "/X/BCN_Epileptic.X", kModels + "/X/test.x"}) {
    if (!have(file)) GTEST_SKIP() << "assimp-testmodels not installed";
  }
  const tinygltf::Model x =
      expect_export_equals_dump({kModels + "/X/BCN_Epileptic.X", "--time", "1"});
  EXPECT_GE(x.meshes.size(), 1u);
  // An X file says nothing of sides: drawn from both, which glTF must be told (its default culls).
  ASSERT_GE(x.materials.size(), 1u);
  for (const auto& m : x.materials) EXPECT_TRUE(m.doubleSided) << m.name;
  // A Y-up file: the meshes are the scene's nodes, untransformed.
  for (int n : x.scenes.at(0).nodes) EXPECT_TRUE(x.nodes.at(std::size_t(n)).rotation.empty());
}

TEST(ExportPose, ZUpFilesAreTurnedUprightByARootNode) {
  const std::string smd = kModels + "/SMD/WusonSMD.smd";
  if (!have(smd)) GTEST_SKIP() << "assimp-testmodels not installed";
  const tinygltf::Model m = expect_export_equals_dump({smd});
  ASSERT_EQ(m.scenes.at(0).nodes.size(), 1u);
  const tinygltf::Node& root = m.nodes.at(std::size_t(m.scenes[0].nodes[0]));
  ASSERT_EQ(root.rotation.size(), 4u);
  EXPECT_NEAR(root.rotation[0], -std::sqrt(0.5), 1e-12);
  EXPECT_NEAR(root.rotation[3], std::sqrt(0.5), 1e-12);
  EXPECT_EQ(root.children.size(), m.meshes.size());
  // --up y keeps it as stored.
  TempDir tmp;
  const tinygltf::Model y = export_pose({smd, "--up", "y"}, tmp / "y.glb");
  for (int n : y.scenes.at(0).nodes) EXPECT_TRUE(y.nodes.at(std::size_t(n)).rotation.empty());
}

TEST(ExportPose, SameOptionsSameBytesAndThePoseMatters) {
  TempDir tmp;
  auto bytes = [&](const std::string& time, const std::string& name) {
    ProcessResult r = run_process(
        {kExe, kDefault, "--clip", "walk", "--time", time, "--export-pose", tmp / name});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return slurp(tmp / name);
  };
  const std::string a = bytes("0.5", "a.glb");
  EXPECT_FALSE(a.empty());
  EXPECT_EQ(a, bytes("0.5", "b.glb"));
  EXPECT_NE(a, bytes("0.6", "c.glb"));
}

// --export-pose-skinned: the file read back twice. tinygltf sees one skin per mesh (a skinned
// mesh node at the scene's root, JOINTS_0 / WEIGHTS_0 (and _1) per vertex with weights summing to
// 1, an inverse bind matrix per skin joint) and no animation; skinview's own importer, asked for
// the file's rest pose (--dump --rest-pose), puts every vertex where --dump puts it at the exported
// time and options, within 1e-5 of the model's size (a Z-up file comes back turned upright).
void expect_skinned_round_trip(const std::vector<std::string>& args, bool z_up = false) {
  SCOPED_TRACE(args.front());
  TempDir tmp;
  std::vector<std::string> with_skin = args;
  with_skin.push_back("--export-pose-skinned");
  const tinygltf::Model m = export_pose(with_skin, tmp / "skinned.glb");
  EXPECT_EQ(m.skins.size(), m.meshes.size());
  EXPECT_TRUE(m.animations.empty());
  for (int n : m.scenes.at(0).nodes) {
    const tinygltf::Node& node = m.nodes.at(std::size_t(n));
    if (node.mesh < 0) continue;
    ASSERT_GE(node.skin, 0) << "mesh node " << n << " has no skin";
    const tinygltf::Skin& skin = m.skins.at(std::size_t(node.skin));
    EXPECT_EQ(floats(m, skin.inverseBindMatrices).size(), 16 * skin.joints.size());
    const tinygltf::Primitive& p = m.meshes.at(std::size_t(node.mesh)).primitives.at(0);
    ASSERT_EQ(p.attributes.count("JOINTS_0"), 1u);
    std::vector<float> w = floats(m, p.attributes.at("WEIGHTS_0"));
    EXPECT_EQ(w.size() / 4, floats(m, p.attributes.at("POSITION")).size() / 3);
    if (p.attributes.count("WEIGHTS_1") != 0) {  // --influences 8: glTF sums every set
      const std::vector<float> w1 = floats(m, p.attributes.at("WEIGHTS_1"));
      ASSERT_EQ(w1.size(), w.size());
      for (std::size_t i = 0; i < w.size(); ++i) w[i] += w1[i];
    }
    for (std::size_t v = 0; v + 3 < w.size(); v += 4)
      ASSERT_NEAR(w[v] + w[v + 1] + w[v + 2] + w[v + 3], 1.0f, 1e-6f) << "vertex " << v / 4;
  }

  std::vector<std::string> dump_args(args.begin() + 1, args.end());
  const nlohmann::json posed = dump(dump_args, args.front());
  const nlohmann::json rest = dump({"--rest-pose"}, tmp / "skinned.glb");
  const auto& a = posed.at("meshes");
  const auto& b = rest.at("meshes");
  ASSERT_EQ(a.size(), b.size());
  float lo[3] = {1e30f, 1e30f, 1e30f}, hi[3] = {-1e30f, -1e30f, -1e30f};
  for (const auto& mesh : a) {
    const std::vector<float> p = json_floats(mesh.at("positions"));
    for (std::size_t i = 0; i < p.size(); ++i) {
      lo[i % 3] = std::min(lo[i % 3], p[i]);
      hi[i % 3] = std::max(hi[i % 3], p[i]);
    }
  }
  const float size = std::hypot(hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]);
  ASSERT_GT(size, 0.0f);
  float worst = 0.0f;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const std::vector<float> want = json_floats(a[i].at("positions"));
    const std::vector<float> got = json_floats(b[i].at("positions"));
    ASSERT_EQ(want.size(), got.size()) << "mesh " << i;
    for (std::size_t v = 0; v + 2 < want.size(); v += 3) {
      // Z-up: the file's root turn, -90 degrees about X: (x, y, z) -> (x, z, -y).
      const float x = want[v], y = z_up ? want[v + 2] : want[v + 1],
                  z = z_up ? -want[v + 1] : want[v + 2];
      worst = std::max(
          {worst, std::abs(got[v] - x), std::abs(got[v + 1] - y), std::abs(got[v + 2] - z)});
    }
  }
  EXPECT_LE(worst, 1e-5f * size) << "model size " << size;
}

TEST(ExportPose, SkinnedKeepsTheRigWithThePoseAsTheNewRestPose) {
  expect_skinned_round_trip({kDefault, "--clip", "walk", "--time", "0.5"});
  expect_skinned_round_trip({kDefault, "--clip", "twist", "--time", "1", "--method", "dqs"});
  expect_skinned_round_trip(
      {kDefault, "--clip", "walk", "--time", "0.3", "--layer", "wave:mask=clavicle_r"});
  for (const char* file : {"/X/BCN_Epileptic.X", "/FBX/animation_with_skeleton.fbx"}) {
    if (have(kModels + file)) expect_skinned_round_trip({kModels + file, "--time", "0.5"});
  }
  if (have(kModels + "/SMD/WusonSMD.smd"))
    expect_skinned_round_trip({kModels + "/SMD/WusonSMD.smd", "--time", "0.5"}, true);
  // Without the option the file stays static.
  TempDir tmp;
  EXPECT_TRUE(export_pose({kDefault, "--time", "0.5"}, tmp / "static.glb").skins.empty());
}

// --influences 8 on a file with up to 6 per vertex: JOINTS_1 / WEIGHTS_1 carry the 5th-8th, all
// eight sum to 1 (the first set scaled by what the second holds), some vertex weighs on its 5th;
// with 4 there is no second set. The rest pose still puts every vertex at the pose.
TEST(ExportPose, SkinnedWithEightInfluencesWritesTheSecondSet) {
  const std::string fbx = kModels + "/FBX/animation_with_skeleton.fbx";
  if (!have(fbx)) GTEST_SKIP() << "assimp-testmodels not installed";
  TempDir tmp;
  const tinygltf::Model m = export_pose(
      {fbx, "--time", "0.5", "--influences", "8", "--export-pose-skinned"}, tmp / "eight.glb");
  ASSERT_EQ(m.meshes.size(), 1u);
  const tinygltf::Primitive& p = m.meshes[0].primitives.at(0);
  ASSERT_EQ(p.attributes.count("WEIGHTS_1"), 1u);
  ASSERT_EQ(p.attributes.count("JOINTS_1"), 1u);
  const std::vector<float> w0 = floats(m, p.attributes.at("WEIGHTS_0"));
  const std::vector<float> w1 = floats(m, p.attributes.at("WEIGHTS_1"));
  ASSERT_EQ(w0.size(), w1.size());
  std::size_t with_fifth = 0;
  for (std::size_t v = 0; v + 3 < w0.size(); v += 4) {
    const float first = w0[v] + w0[v + 1] + w0[v + 2] + w0[v + 3];
    const float second = w1[v] + w1[v + 1] + w1[v + 2] + w1[v + 3];
    ASSERT_NEAR(first + second, 1.0f, 1e-6f) << "vertex " << v / 4;
    if (second > 0.0f) ++with_fifth;
  }
  EXPECT_GT(with_fifth, 0u);
  const tinygltf::Model four =
      export_pose({fbx, "--time", "0.5", "--export-pose-skinned"}, tmp / "four.glb");
  EXPECT_EQ(four.meshes.at(0).primitives.at(0).attributes.count("WEIGHTS_1"), 0u);
  expect_skinned_round_trip({fbx, "--time", "0.5", "--influences", "8"});
}

TEST(ExportPose, BadInputExitsTwoWithOneLine) {
  TempDir tmp;
  const std::string out = tmp / "out.glb";
  expect_bad_input({kExe, kDefault, "--export-pose", tmp / "out.gltf"}, ".glb");
  expect_bad_input({kExe, kDefault, "--export-pose", out, "--dump"}, "--dump");
  expect_bad_input({kExe, kDefault, "--export-pose", out, "--times", "0,1"}, "--times");
  expect_bad_input({kExe, kDefault, "--export-pose", out, "--record", tmp / "f"}, "--record");
  expect_bad_input({kExe, kDefault, "--export-pose", out, "--screenshot", tmp / "s.png"},
                   "--screenshot");
  expect_bad_input({kExe, kDefault, "--export-pose", out, "--clip", "nope"}, "nope");
  expect_bad_input({kExe, kDefault, "--export-pose", out, "--time", "-1"}, "--time");
  expect_bad_input({kExe, "/nonexistent/model.glb", "--export-pose", out}, "model.glb");
  expect_bad_input({kExe, "--export-pose", out}, "model file");
  EXPECT_FALSE(std::filesystem::exists(out));
  expect_bad_input({kExe, kDefault, "--export-pose", tmp / "no/such/dir/out.glb"}, "cannot open");
  expect_bad_input({kExe, kDefault, "--export-pose-skinned"}, "--export-pose");
}

}  // namespace
}  // namespace sv::test
