// The importer's limits and repairs on hostile scenes (io/import.h lists the values). Each
// scene is built in code as an aiScene and fed to convert_scene, the conversion behind
// import_model; counts beyond a limit are declared without allocating the data, since every
// limit is checked before the data is read. The file-size limit uses a sparse file; the header
// guards run on bytes in memory through import_model_from_memory.
#include <unistd.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include <assimp/anim.h>
#include <assimp/mesh.h>
#include <assimp/scene.h>
#include <gtest/gtest.h>

#include "anim/clip_runtime.h"
#include "anim/player.h"
#include "import/convert.h"
#include "io/import.h"
#include "test_util.h"

namespace sv {
namespace {

void set_name(aiNode* node, const char* name) { node->mName.Set(name); }

aiNode* add_children(aiNode* parent, unsigned count) {
  parent->mNumChildren = count;
  parent->mChildren = new aiNode*[count];
  for (unsigned i = 0; i < count; ++i) {
    parent->mChildren[i] = new aiNode();
    parent->mChildren[i]->mParent = parent;
  }
  return parent->mChildren[0];
}

// One triangle (3 vertices) on the root node; `vertices` may declare more than are stored,
// to test the limits (they are checked before any vertex is read).
aiMesh* triangle_mesh(unsigned declared_vertices = 3) {
  auto* mesh = new aiMesh();
  mesh->mPrimitiveTypes = aiPrimitiveType_TRIANGLE;
  mesh->mVertices = new aiVector3D[3]{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
  mesh->mNormals = new aiVector3D[3]{{0, 0, 1}, {0, 0, 1}, {0, 0, 1}};
  mesh->mNumVertices = declared_vertices;
  mesh->mFaces = new aiFace[1];
  mesh->mNumFaces = 1;
  mesh->mFaces[0].mNumIndices = 3;
  mesh->mFaces[0].mIndices = new unsigned[3]{0, 1, 2};
  return mesh;
}

// A scene: root node "root" holding mesh 0 (a triangle) and one child "bone".
std::unique_ptr<aiScene> basic_scene() {
  auto scene = std::make_unique<aiScene>();
  scene->mRootNode = new aiNode();
  set_name(scene->mRootNode, "root");
  set_name(add_children(scene->mRootNode, 1), "bone");
  scene->mRootNode->mNumMeshes = 1;
  scene->mRootNode->mMeshes = new unsigned[1]{0};
  scene->mNumMeshes = 1;
  scene->mMeshes = new aiMesh* [1] { triangle_mesh() };
  return scene;
}

// Binds every vertex of mesh 0 to node "bone" with the given weights (vertex id, weight).
void add_bone(aiScene& scene, const std::vector<std::pair<unsigned, float>>& weights) {
  aiMesh* mesh = scene.mMeshes[0];
  auto* bone = new aiBone();
  bone->mName.Set("bone");
  bone->mNumWeights = static_cast<unsigned>(weights.size());
  bone->mWeights = new aiVertexWeight[weights.size()];
  for (std::size_t i = 0; i < weights.size(); ++i)
    bone->mWeights[i] = aiVertexWeight(weights[i].first, weights[i].second);
  mesh->mNumBones = 1;
  mesh->mBones = new aiBone* [1] { bone };
}

// One clip animating node "bone" with translation keys at `times` (ticks, 1 tick per second).
aiAnimation* add_clip(aiScene& scene, double duration, const std::vector<double>& times) {
  auto* anim = new aiAnimation();
  anim->mName.Set("clip");
  anim->mDuration = duration;
  anim->mTicksPerSecond = 1.0;
  auto* ch = new aiNodeAnim();
  ch->mNodeName.Set("bone");
  ch->mNumPositionKeys = static_cast<unsigned>(times.size());
  ch->mPositionKeys = new aiVectorKey[times.size()];
  for (std::size_t k = 0; k < times.size(); ++k)
    ch->mPositionKeys[k] = aiVectorKey(times[k], aiVector3D(static_cast<float>(k), 0, 0));
  anim->mNumChannels = 1;
  anim->mChannels = new aiNodeAnim* [1] { ch };
  auto** list = new aiAnimation*[scene.mNumAnimations + 1];
  for (unsigned a = 0; a < scene.mNumAnimations; ++a) list[a] = scene.mAnimations[a];
  list[scene.mNumAnimations] = anim;
  delete[] scene.mAnimations;
  scene.mAnimations = list;
  ++scene.mNumAnimations;
  return anim;
}

bool has_note(const ImportReport& report, const std::string& part) {
  for (const std::string& n : report.notes)
    if (n.find(part) != std::string::npos) return true;
  return false;
}

::testing::AssertionResult refused_with(const ImportResult& r, const std::string& part) {
  if (r.ok())
    return ::testing::AssertionFailure() << "imported, expected an error with '" << part << "'";
  if (r.error.find(part) == std::string::npos)
    return ::testing::AssertionFailure() << "error '" << r.error << "' lacks '" << part << "'";
  if (r.error.find('\n') != std::string::npos)
    return ::testing::AssertionFailure() << "error spans lines: " << r.error;
  if (r.error.rfind("test: ", 0) != 0)
    return ::testing::AssertionFailure() << "error does not name the file: " << r.error;
  return ::testing::AssertionSuccess();
}

TEST(Limits, TheBasicSceneImports) {
  auto scene = basic_scene();
  add_bone(*scene, {{0, 1.0f}, {1, 1.0f}, {2, 1.0f}});
  add_clip(*scene, 2.0, {0.0, 1.0, 2.0});
  ImportResult r = convert_scene(*scene, "test");
  ASSERT_TRUE(r.ok()) << r.error;
  EXPECT_EQ(r.model->skeleton.size(), 2u);
  EXPECT_EQ(r.model->clips.size(), 1u);
  EXPECT_TRUE(r.report.notes.empty());
}

TEST(Limits, DeepHierarchyIsRefusedAndADeepButLegalOneImports) {
  for (std::size_t depth : {std::size_t{1000}, kMaxNodeDepth + 1}) {
    auto scene = basic_scene();
    aiNode* node = scene->mRootNode->mChildren[0];
    for (std::size_t d = 1; d < depth; ++d) node = add_children(node, 1);
    set_name(node, "leaf");
    ImportResult r = convert_scene(*scene, "test");
    if (depth <= kMaxNodeDepth)
      EXPECT_TRUE(r.ok()) << r.error;
    else
      EXPECT_TRUE(refused_with(r, "deeper than 4096"));
  }
}

TEST(Limits, CyclesAndSharedChildrenAreRefused) {
  {
    auto scene = basic_scene();
    aiNode* bone = scene->mRootNode->mChildren[0];
    bone->mNumChildren = 1;
    bone->mChildren = new aiNode* [1] { scene->mRootNode };  // back to the root
    EXPECT_TRUE(refused_with(convert_scene(*scene, "test"), "not a tree"));
    bone->mNumChildren = 0;  // let ~aiScene free a tree
  }
  {
    auto scene = basic_scene();
    aiNode* root = scene->mRootNode;
    aiNode* a = root->mChildren[0];
    aiNode* b = add_children(a, 1);
    set_name(b, "b");
    // `b` under both `a` and the root.
    auto** children = new aiNode* [2] { a, b };
    delete[] root->mChildren;
    root->mChildren = children;
    root->mNumChildren = 2;
    EXPECT_TRUE(refused_with(convert_scene(*scene, "test"), "not a tree"));
    root->mNumChildren = 1;
  }
}

TEST(Limits, TooManyMeshesOrVerticesAreRefused) {
  {
    auto scene = basic_scene();
    delete scene->mMeshes[0];
    delete[] scene->mMeshes;
    scene->mNumMeshes = static_cast<unsigned>(kMaxMeshes + 1);
    scene->mMeshes = new aiMesh*[kMaxMeshes + 1]();
    EXPECT_TRUE(refused_with(convert_scene(*scene, "test"), "meshes, more than the limit"));
  }
  {
    auto scene = basic_scene();
    scene->mMeshes[0]->mNumVertices = static_cast<unsigned>(kMaxVerticesPerMesh + 1);
    EXPECT_TRUE(refused_with(convert_scene(*scene, "test"), "vertices, more than the limit"));
    scene->mMeshes[0]->mNumVertices = 3;
  }
  {
    auto scene = basic_scene();
    delete scene->mMeshes[0];
    delete[] scene->mMeshes;
    const auto each = static_cast<unsigned>(kMaxVerticesPerMesh - 1);
    scene->mNumMeshes = 3;
    scene->mMeshes =
        new aiMesh* [3] { triangle_mesh(each), triangle_mesh(each), triangle_mesh(each) };
    EXPECT_TRUE(refused_with(convert_scene(*scene, "test"), "vertices in all meshes"));
    for (unsigned m = 0; m < 3; ++m) scene->mMeshes[m]->mNumVertices = 3;
  }
}

TEST(Limits, TooManyJointsOrWeightsAreRefused) {
  {
    auto scene = basic_scene();
    const auto count = static_cast<unsigned>(kMaxJoints + 1);
    aiNode* root = scene->mRootNode;
    for (unsigned i = 0; i < root->mNumChildren; ++i) delete root->mChildren[i];
    delete[] root->mChildren;
    add_children(root, count);
    aiMesh* mesh = scene->mMeshes[0];
    mesh->mNumBones = count;
    mesh->mBones = new aiBone*[count];
    for (unsigned i = 0; i < count; ++i) {
      std::string name = std::to_string(i);  // (not "j" + ...: GCC 12 -Wrestrict false alarm)
      name.insert(0, 1, 'j');
      set_name(root->mChildren[i], name.c_str());
      mesh->mBones[i] = new aiBone();
      mesh->mBones[i]->mName.Set(name);
    }
    EXPECT_TRUE(refused_with(convert_scene(*scene, "test"), "joints, more than the limit"));
  }
  {
    auto scene = basic_scene();
    add_bone(*scene, {{0, 1.0f}});
    scene->mMeshes[0]->mBones[0]->mNumWeights = 1u << 30;  // declared, not stored
    EXPECT_TRUE(refused_with(convert_scene(*scene, "test"), "bone weights for 3 vertices"));
    scene->mMeshes[0]->mBones[0]->mNumWeights = 1;
  }
}

TEST(Limits, TooManyClipsOrKeysAreRefused) {
  {
    auto scene = basic_scene();
    scene->mNumAnimations = static_cast<unsigned>(kMaxClips + 1);
    scene->mAnimations = new aiAnimation*[kMaxClips + 1]();
    EXPECT_TRUE(refused_with(convert_scene(*scene, "test"), "clips, more than the limit"));
  }
  {
    auto scene = basic_scene();
    aiAnimation* anim = add_clip(*scene, 1.0, {0.0});
    anim->mChannels[0]->mNumPositionKeys = static_cast<unsigned>(kMaxKeysPerTrack + 1);
    EXPECT_TRUE(refused_with(convert_scene(*scene, "test"), "keys, more than the limit"));
    anim->mChannels[0]->mNumPositionKeys = 1;
  }
  {
    auto scene = basic_scene();
    const std::size_t clips = kMaxKeysTotal / kMaxKeysPerTrack + 1;
    for (std::size_t c = 0; c < clips; ++c)
      add_clip(*scene, 1.0, {0.0})->mChannels[0]->mNumPositionKeys =
          static_cast<unsigned>(kMaxKeysPerTrack);
    EXPECT_TRUE(refused_with(convert_scene(*scene, "test"), "keys in all clips"));
    for (unsigned a = 0; a < scene->mNumAnimations; ++a)
      scene->mAnimations[a]->mChannels[0]->mNumPositionKeys = 1;
  }
}

TEST(Limits, BadWeightsAreDroppedAndCounted) {
  auto scene = basic_scene();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  // Vertex 0: only a NaN weight; vertex 1: a negative one and a good one; vertex 2: a huge one
  // and an infinite one; and a weight for vertex 7, which does not exist.
  add_bone(*scene, {{0, nan}, {1, -0.5f}, {1, 0.5f}, {2, 1e7f}, {2, inf}, {7, 1.0f}});
  ImportResult r = convert_scene(*scene, "test");
  ASSERT_TRUE(r.ok()) << r.error;
  EXPECT_EQ(r.report.non_finite_values, 2u);  // NaN, Inf
  EXPECT_TRUE(has_note(r.report, "2 bone weight(s) held NaN/Inf"));
  EXPECT_TRUE(has_note(r.report, "3 weight(s) were negative, huge or named no vertex"));
  const Mesh& mesh = r.model->meshes[0];
  EXPECT_EQ(r.report.vertices_unweighted, 2u);  // vertices 0 and 2 lost every weight
  EXPECT_TRUE(mesh.vertex_flags[test::file_vertex(mesh, 0)] & kVertexUnweighted);
  EXPECT_FALSE(mesh.vertex_flags[test::file_vertex(mesh, 1)] & kVertexUnweighted);
  EXPECT_EQ(mesh.weights[test::file_vertex(mesh, 1)].x, 1.0f);  // 0.5 renormalised
  // The vertices left without a weight follow the mesh's own node, rigidly, and nothing else.
  for (const uint32_t file_v : {0u, 2u}) {
    const std::size_t v = test::file_vertex(mesh, file_v);
    EXPECT_EQ(mesh.weights[v], glm::vec4(1.0f, 0.0f, 0.0f, 0.0f)) << "vertex " << file_v;
    ASSERT_LT(mesh.joints[v].x, mesh.skin_joints.size());
    EXPECT_EQ(mesh.skin_joints[mesh.joints[v].x], mesh.node) << "vertex " << file_v;
    EXPECT_EQ(mesh.inverse_bind[mesh.joints[v].x], glm::mat4(1.0f)) << "vertex " << file_v;
  }
}

// Five bones b0..b4 (children of the root, bound in that order) over the triangle's vertices,
// each bone's weights listed in an order of its own. Each vertex keeps its 4 largest, ties in the
// order the bones are bound (b0 first): vertex 0 has 0.4 b0, 0.2 b1, 0.2 b2 and a tie of 0.1 (b3,
// b4) across the 4-limit, so b3 stays in the first set and b4 goes to the second; vertex 1 has
// 0.25 b4 and 0.75 b1; vertex 2 has b2 alone.
TEST(Limits, EachVertexKeepsItsLargestWeightsTiesInBoneOrder) {
  auto scene = basic_scene();
  aiNode* root = scene->mRootNode;
  for (unsigned i = 0; i < root->mNumChildren; ++i) delete root->mChildren[i];
  delete[] root->mChildren;
  add_children(root, 5);
  const char* names[5] = {"b0", "b1", "b2", "b3", "b4"};
  for (unsigned i = 0; i < 5; ++i) set_name(root->mChildren[i], names[i]);
  const std::vector<std::vector<std::pair<unsigned, float>>> weights = {{{0, 0.4f}},
                                                                        {{1, 0.75f}, {0, 0.2f}},
                                                                        {{2, 1.0f}, {0, 0.2f}},
                                                                        {{0, 0.1f}},
                                                                        {{1, 0.25f}, {0, 0.1f}}};
  aiMesh* mesh = scene->mMeshes[0];
  mesh->mNumBones = 5;
  mesh->mBones = new aiBone*[5];
  for (unsigned b = 0; b < 5; ++b) {
    auto* bone = new aiBone();
    bone->mName.Set(names[b]);
    bone->mNumWeights = static_cast<unsigned>(weights[b].size());
    bone->mWeights = new aiVertexWeight[weights[b].size()];
    for (std::size_t i = 0; i < weights[b].size(); ++i)
      bone->mWeights[i] = aiVertexWeight(weights[b][i].first, weights[b][i].second);
    mesh->mBones[b] = bone;
  }
  ImportResult r = convert_scene(*scene, "test");
  ASSERT_TRUE(r.ok()) << r.error;
  const Mesh& m = r.model->meshes[0];
  ASSERT_EQ(m.skin_joints.size(), 5u);  // skin bone i is b<i>
  for (uint16_t b = 0; b < 5; ++b)
    EXPECT_EQ(r.model->skeleton.names[static_cast<std::size_t>(m.skin_joints[b])], names[b]);
  EXPECT_EQ(m.max_influences, 5u);
  EXPECT_EQ(r.report.vertices_over_4_influences, 1u);
  // Slots in the canonical order (weighted first, by skin bone).
  const std::size_t v0 = test::file_vertex(m, 0), v1 = test::file_vertex(m, 1),
                    v2 = test::file_vertex(m, 2);
  EXPECT_EQ(m.joints[v0], glm::u16vec4(0, 1, 2, 3));
  // The first set renormalised over the 4 kept (0.9).
  EXPECT_NEAR_GLM(m.weights[v0], glm::vec4(0.4f, 0.2f, 0.2f, 0.1f) / 0.9f, 1e-6f);
  ASSERT_EQ(m.joints2.size(), 3u);
  EXPECT_EQ(m.joints2[v0], glm::u16vec4(4, 0, 0, 0));
  EXPECT_NEAR_GLM(m.weights2[v0], glm::vec4(0.1f, 0, 0, 0), 1e-6f);  // of the top 8's sum, 1
  EXPECT_NEAR(m.cut_weights[v0], 0.1f, 1e-6f);
  EXPECT_NEAR(m.source_weight_sums[v0], 1.0f, 1e-6f);
  EXPECT_EQ(m.joints[v1], glm::u16vec4(1, 4, 0, 0));
  EXPECT_NEAR_GLM(m.weights[v1], glm::vec4(0.75f, 0.25f, 0, 0), 1e-6f);
  EXPECT_EQ(m.joints[v2], glm::u16vec4(2, 0, 0, 0));
  EXPECT_EQ(m.weights[v2], glm::vec4(1, 0, 0, 0));
  EXPECT_EQ(m.joints2[v1], glm::u16vec4(0));
  EXPECT_EQ(m.weights2[v2], glm::vec4(0));
}

TEST(Limits, FacesPastTheVerticesAreDropped) {
  auto scene = basic_scene();
  aiMesh* mesh = scene->mMeshes[0];
  delete[] mesh->mFaces;
  mesh->mNumFaces = 2;
  mesh->mFaces = new aiFace[2];
  for (unsigned f = 0; f < 2; ++f) {
    mesh->mFaces[f].mNumIndices = 3;
    mesh->mFaces[f].mIndices = new unsigned[3]{0, 1, f == 0 ? 2u : 99u};
  }
  ImportResult r = convert_scene(*scene, "test");
  ASSERT_TRUE(r.ok()) << r.error;
  EXPECT_EQ(r.report.faces_dropped, 1u);
  EXPECT_EQ(r.model->meshes[0].triangle_count(), 1u);
}

TEST(Limits, ZeroDurationClipIsOnePoseAndNegativeIsRefused) {
  auto scene = basic_scene();
  add_clip(*scene, 0.0, {0.0});
  add_clip(*scene, -5.0, {0.0, 1.0});
  ImportResult r = convert_scene(*scene, "test");
  ASSERT_TRUE(r.ok()) << r.error;
  ASSERT_EQ(r.model->clips.size(), 1u);
  EXPECT_EQ(r.model->clips[0].duration(), 0.0);
  EXPECT_EQ(r.report.clips_refused, 1u);
  EXPECT_TRUE(has_note(r.report, "negative duration"));
  const Model& m = *r.model;
  std::vector<Transform> pose(m.skeleton.size());
  RuntimeCursor cursor;
  cursor.reset(m.clips[0]);
  for (double t : {0.0, wrap_time(3.0, 0.0, true), wrap_time(3.0, 0.0, false)}) {
    EXPECT_EQ(t, 0.0);
    ASSERT_TRUE(sample_runtime(m.clips[0], t, cursor, pose));
    EXPECT_EQ(pose[1].translation.x, 0.0f);  // the one key's value
  }
}

TEST(Limits, KeysOutOfOrderAreSortedAndRepeatsDropped) {
  auto scene = basic_scene();
  add_clip(*scene, 2.0, {0.0, 1.0, 1.0, 0.5, 2.0});  // values 0..4 in this order
  ImportResult r = convert_scene(*scene, "test");
  ASSERT_TRUE(r.ok()) << r.error;
  const ClipRuntime& clip = r.model->clips[0];
  const std::span<const double> times = clip.key_times(1, TrackPath::Translation);
  ASSERT_EQ(std::vector<double>(times.begin(), times.end()),
            (std::vector<double>{0.0, 0.5, 1.0, 2.0}));
  Transform at;
  ASSERT_TRUE(sample_joint(clip, 0.5, 1, at));
  EXPECT_EQ(at.translation.x, 3.0f);  // the key at 0.5
  ASSERT_TRUE(sample_joint(clip, 1.0, 1, at));
  EXPECT_EQ(at.translation.x, 1.0f);  // the first of the two keys at 1.0 is kept
  EXPECT_EQ(r.report.keys_out_of_order, 2u);
  EXPECT_TRUE(has_note(r.report, "out of order"));
}

TEST(Limits, FileSizeIsCheckedBeforeReading) {
  const auto path =
      std::filesystem::temp_directory_path() / ("sv_limits_" + std::to_string(::getpid()) + ".obj");
  { std::ofstream f(path, std::ios::binary); }
  std::filesystem::resize_file(path, kMaxFileBytes + 1);  // sparse: no disk space used
  ImportResult r = import_model(path.string());
  std::filesystem::remove(path);
  EXPECT_FALSE(r.ok());
  EXPECT_NE(r.error.find("more than the limit of 536870912"), std::string::npos) << r.error;
}

std::vector<uint8_t> file_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

TEST(FromMemory, SameModelAsFromTheFile) {
  const std::string path =
      std::string(SKINVIEW_TEST_MODELS) + "/glTF2/simple_skin/simple_skin.gltf";
  const std::vector<uint8_t> bytes = file_bytes(path);
  ImportResult a = import_model(path);
  ImportResult b = import_model_from_memory(bytes, "gltf", "mem");
  ASSERT_TRUE(a.ok()) << a.error;
  ASSERT_TRUE(b.ok()) << b.error;
  ASSERT_EQ(a.model->meshes.size(), b.model->meshes.size());
  EXPECT_EQ(a.model->meshes[0].positions, b.model->meshes[0].positions);
  EXPECT_EQ(a.model->skeleton.names, b.model->skeleton.names);
  ASSERT_EQ(a.model->clips.size(), b.model->clips.size());
  EXPECT_EQ(a.model->clips[0].duration(), b.model->clips[0].duration());
  EXPECT_EQ(a.report.notes, b.report.notes);

  ImportResult empty = import_model_from_memory({}, "gltf", "mem");
  EXPECT_EQ(empty.error, "mem: empty file");
}

// (tinygltf reads every .glb before assimp and refuses it: the GLB header check that did so
// before assimp read a byte became redundant and was retired.)
TEST(FromMemory, GlbChunkClaimingMoreThanTheFileIsRefused) {
  std::vector<uint8_t> glb = {'g', 'l', 'T', 'F', 2, 0,    0,   0,   28,  0,
                              0,   0,   0,   0,   0, 0x7f, 'J', 'S', 'O', 'N'};  // chunk of 2 GB
  glb.insert(glb.end(), {'{', '}', ' ', ' ', ' ', ' ', ' ', ' '});
  ImportResult r = import_model_from_memory(glb, "glb", "test");
  EXPECT_TRUE(refused_with(r, "not a valid glTF 2 file (Invalid glTF binary.)"));
}

TEST(FromMemory, GltfAccessorPastItsBufferIsRefused) {
  const std::string path =
      std::string(SKINVIEW_TEST_MODELS) + "/glTF2/simple_skin/simple_skin.gltf";
  std::string text;
  {
    const std::vector<uint8_t> bytes = file_bytes(path);
    text.assign(bytes.begin(), bytes.end());
  }
  // Accessor 1 (positions, 120 bytes at the end of its view): shift it by 4 bytes.
  const std::size_t at = text.find("\"byteOffset\" : 0", text.find("\"accessors\""));
  const std::size_t second = text.find("\"byteOffset\" : 0", at + 1);
  ASSERT_NE(second, std::string::npos);
  text.replace(second, 16, "\"byteOffset\" : 4");
  ImportResult r = import_model_from_memory(
      std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(text.data()), text.size()), "gltf",
      "test");
  EXPECT_TRUE(refused_with(r, "accessor 1 reaches past the end of its buffer view"));

  // A glTF 2 file that tinygltf cannot parse (no componentType) is refused before assimp reads
  // it; assimp 5.2.5 would accept it and read out of bounds.
  std::string broken = text;
  broken.replace(second, 16, "\"byteOffset\" : 0");
  const std::size_t type = broken.find("\"componentType\"", second);
  broken.replace(type, 15, "\"componentTyXe\"");
  ImportResult b = import_model_from_memory(
      std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(broken.data()), broken.size()),
      "gltf", "test");
  EXPECT_TRUE(refused_with(b, "not a valid glTF 2 file"));
}

// A binary FBX whose one array declares 2^28 doubles in 10 deflated bytes: assimp 5.2.5 would
// allocate 2 GiB before inflating; it is refused before assimp reads it.
TEST(FromMemory, FbxArrayLargerThanItsBytesIsRefused) {
  std::vector<uint8_t> fbx;
  const char magic[] = "Kaydara FBX Binary  ";
  fbx.insert(fbx.end(), magic, magic + 20);
  fbx.insert(fbx.end(), {0x00, 0x1a, 0x00});
  auto u32 = [&](uint32_t v) {
    for (int i = 0; i < 4; ++i) fbx.push_back(static_cast<uint8_t>(v >> (8 * i)));
  };
  u32(7400);
  const std::string name = "Vertices";
  const uint32_t props_len = 1 + 12 + 10;
  const auto end = static_cast<uint32_t>(fbx.size() + 13 + name.size() + props_len);
  u32(end);
  u32(1);
  u32(props_len);
  fbx.push_back(static_cast<uint8_t>(name.size()));
  fbx.insert(fbx.end(), name.begin(), name.end());
  fbx.push_back('d');
  u32(1u << 28);  // elements
  u32(1);         // deflate
  u32(10);        // bytes
  fbx.insert(fbx.end(), 10, 0);
  fbx.insert(fbx.end(), 13, 0);  // the null record
  ImportResult r = import_model_from_memory(fbx, "fbx", "test");
  EXPECT_TRUE(refused_with(r, "binary FBX array 0 declares 268435456 elements in 10 bytes"));
}

}  // namespace
}  // namespace sv
