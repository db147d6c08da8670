// The repairs that replace assimp's ValidateDataStructure (import/scene_repair.h): a B3D file
// written here whose ANIM frame count is one short of its keys -- what Irrlicht and Minetest
// characters do, and what assimp's validator refuses -- now loads, its clip extended to the last
// key and the report saying so; and scenes built in code with one validator error each are
// repaired as the header lists.
#include "import/scene_repair.h"

#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <assimp/material.h>
#include <assimp/postprocess.h>
#include <assimp/scene.h>
#include <gtest/gtest.h>
#include <assimp/Importer.hpp>

#include "anim/clip_runtime.h"
#include "b3d_writer.h"
#include "io/import.h"
#include "test_util.h"

namespace sv {
namespace {

class TempFile {
 public:
  TempFile(const std::string& name, const std::vector<uint8_t>& bytes)
      : path_((std::filesystem::temp_directory_path() /
               ("skinview_repair_" + std::to_string(::getpid()) + "_" + name))
                  .string()) {
    std::ofstream(path_, std::ios::binary)
        .write(reinterpret_cast<const char*>(bytes.data()),
               static_cast<std::streamsize>(bytes.size()));
  }
  ~TempFile() { std::filesystem::remove(path_); }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// Model-space y of the mesh's file vertex `v` at time t of clip 0.
float posed_y(const Model& m, uint32_t v, double t) {
  const Mesh& mesh = m.meshes[0];
  RuntimeCursor cursor;
  cursor.reset(m.clips[0]);
  std::vector<glm::mat4> model(m.skeleton.size());
  std::vector<glm::mat4> palette(mesh.skin_joints.size());
  EXPECT_TRUE(
      evaluate_pose(m.clips[0], t, cursor, mesh.skin_joints, mesh.inverse_bind, model, palette));
  const std::size_t i = test::file_vertex(mesh, v);
  glm::vec4 p(0.0f);
  for (int k = 0; k < 4; ++k)
    p += mesh.weights[i][k] * (palette[mesh.joints[i][k]] * glm::vec4(mesh.positions[i], 1.0f));
  return p.y;
}

TEST(Repair, B3dWhoseKeysRunOneFramePastItsAnimLoads) {
  const TempFile file("short_anim.b3d", test::skinned_b3d(220, 221));
  // The file is what the real characters are: assimp's own validator refuses it.
  {
    Assimp::Importer importer;
    EXPECT_EQ(importer.ReadFile(file.path(), aiProcess_ValidateDataStructure), nullptr);
    EXPECT_NE(std::string(importer.GetErrorString()).find("is larger than"), std::string::npos)
        << importer.GetErrorString();
  }
  const ImportResult r = import_model(file.path());
  ASSERT_TRUE(r.ok()) << r.error;
  const Model& m = *r.model;
  ASSERT_EQ(m.meshes.size(), 1u);
  EXPECT_TRUE(m.meshes[0].skinned);
  EXPECT_EQ(m.meshes[0].skin_joints.size(), 2u);
  ASSERT_EQ(m.clips.size(), 1u);
  EXPECT_DOUBLE_EQ(m.clips[0].duration(), 221.0 / 30.0);  // extended to the last key
  EXPECT_EQ(r.report.clips_extended, 1u);
  bool said = false;
  for (const std::string& note : r.report.notes)
    said |= note.find("221") != std::string::npos && note.find("220") != std::string::npos &&
            note.find("extended") != std::string::npos;
  EXPECT_TRUE(said) << "no report note names the stated and the real end";
  // The arm rises by one over the clip: its vertices (2, 3) follow, the hip's (0, 1) stay.
  EXPECT_NEAR(posed_y(m, 2, 0.0), 1.0f, 1e-5f);
  EXPECT_NEAR(posed_y(m, 3, 221.0 / 30.0), 2.0f, 1e-5f);
  EXPECT_NEAR(posed_y(m, 2, 110.5 / 30.0), 1.5f, 1e-5f);
  EXPECT_NEAR(posed_y(m, 0, 221.0 / 30.0), 0.0f, 1e-5f);
}

TEST(Repair, B3dWithinItsAnimIsNotReported) {
  const TempFile file("exact_anim.b3d", test::skinned_b3d(221, 221));
  const ImportResult r = import_model(file.path());
  ASSERT_TRUE(r.ok()) << r.error;
  EXPECT_DOUBLE_EQ(r.model->clips[0].duration(), 221.0 / 30.0);
  EXPECT_EQ(r.report.clips_extended, 0u);
}

// ---------------------------------------------------------------------------------------------
// Scenes built in code, one validator error each.

aiFace face(std::initializer_list<unsigned> indices) {
  aiFace f;
  f.mNumIndices = static_cast<unsigned>(indices.size());
  f.mIndices = indices.size() ? new unsigned[indices.size()] : nullptr;
  std::copy(indices.begin(), indices.end(), f.mIndices);
  return f;
}

// A scene whose root holds mesh 0: 4 vertices and the given faces.
std::unique_ptr<aiScene> mesh_scene(std::vector<aiFace> faces, unsigned types) {
  auto scene = std::make_unique<aiScene>();
  scene->mRootNode = new aiNode("root");
  scene->mRootNode->mNumMeshes = 1;
  scene->mRootNode->mMeshes = new unsigned[1]{0};
  auto* mesh = new aiMesh();
  mesh->mNumVertices = 4;
  mesh->mVertices = new aiVector3D[4]{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0}};
  mesh->mPrimitiveTypes = types;
  mesh->mNumFaces = static_cast<unsigned>(faces.size());
  mesh->mFaces = new aiFace[faces.size()];
  for (std::size_t i = 0; i < faces.size(); ++i) mesh->mFaces[i] = faces[i];
  scene->mNumMeshes = 1;
  scene->mMeshes = new aiMesh* [1] { mesh };
  return scene;
}

TEST(Repair, BadFacesAreDroppedAndTheRestKept) {
  std::vector<aiFace> faces;
  faces.push_back(face({0, 1, 2}));
  faces.push_back(face({}));         // no indices
  faces.push_back(face({2, 1, 4}));  // 4 is past the 4 vertices
  faces.push_back(face({2, 1, 3}));
  faces.push_back(face({0, 1, 3}));
  auto scene = mesh_scene(std::move(faces), aiPrimitiveType_TRIANGLE);
  aiFace& null_indices = scene->mMeshes[0]->mFaces[4];
  delete[] null_indices.mIndices;
  null_indices.mIndices = nullptr;  // three indices counted, no array
  const SceneRepairs r = repair_scene(*scene);
  EXPECT_EQ(r.faces_dropped, 3u);
  const aiMesh& mesh = *scene->mMeshes[0];
  ASSERT_EQ(mesh.mNumFaces, 2u);
  EXPECT_EQ(mesh.mFaces[0].mIndices[2], 2u);
  EXPECT_EQ(mesh.mFaces[1].mIndices[2], 3u);
  EXPECT_EQ(mesh.mFaces[2].mIndices, nullptr);  // past the count: emptied, freed with the array
  EXPECT_EQ(r.notes.size(), 1u);
}

TEST(Repair, UnflaggedPolygonsAreFlaggedSoTriangulationSeesThem) {
  std::vector<aiFace> faces;
  faces.push_back(face({0, 1, 3, 2}));
  auto scene = mesh_scene(std::move(faces), aiPrimitiveType_TRIANGLE);
  const SceneRepairs r = repair_scene(*scene);
  EXPECT_EQ(r.primitive_types, 1u);
  EXPECT_EQ(scene->mMeshes[0]->mPrimitiveTypes,
            unsigned{aiPrimitiveType_TRIANGLE | aiPrimitiveType_POLYGON});
  // A correct mesh is left alone.
  std::vector<aiFace> tri;
  tri.push_back(face({0, 1, 2}));
  auto good = mesh_scene(std::move(tri), aiPrimitiveType_TRIANGLE);
  EXPECT_EQ(repair_scene(*good).primitive_types, 0u);
  EXPECT_TRUE(repair_scene(*good).notes.empty());
}

TEST(Repair, MissingPositionsEmptyTheMesh) {
  std::vector<aiFace> faces;
  faces.push_back(face({0, 1, 2}));
  auto scene = mesh_scene(std::move(faces), aiPrimitiveType_TRIANGLE);
  delete[] scene->mMeshes[0]->mVertices;
  scene->mMeshes[0]->mVertices = nullptr;
  const SceneRepairs r = repair_scene(*scene);
  EXPECT_EQ(r.positions_missing, 1u);
  EXPECT_EQ(scene->mMeshes[0]->mNumVertices, 0u);
  EXPECT_EQ(scene->mMeshes[0]->mNumFaces, 0u);
}

TEST(Repair, NullListEntriesKeepIndicesRight) {
  std::vector<aiFace> faces;
  faces.push_back(face({0, 1, 2}));
  auto scene = mesh_scene(std::move(faces), aiPrimitiveType_TRIANGLE);
  // Mesh 0 becomes null, the real mesh moves to 1, and the root's child list holds a null.
  aiMesh* real = scene->mMeshes[0];
  delete[] scene->mMeshes;
  scene->mMeshes = new aiMesh* [2] { nullptr, real };
  scene->mNumMeshes = 2;
  scene->mRootNode->mMeshes[0] = 1;
  scene->mRootNode->mNumChildren = 2;
  scene->mRootNode->mChildren = new aiNode* [2] { nullptr, new aiNode("child") };
  const SceneRepairs r = repair_scene(*scene);
  EXPECT_EQ(r.null_entries, 2u);
  ASSERT_EQ(scene->mNumMeshes, 2u);
  ASSERT_NE(scene->mMeshes[0], nullptr);
  EXPECT_EQ(scene->mMeshes[0]->mNumVertices, 0u);  // an empty stand-in
  EXPECT_EQ(scene->mMeshes[1], real);              // still where the node says
  ASSERT_EQ(scene->mRootNode->mNumChildren, 1u);   // the null child is cut
  EXPECT_EQ(scene->mRootNode->mChildren[0]->mParent, scene->mRootNode);  // and the parent set
  EXPECT_EQ(r.parents_set, 1u);
}

TEST(Repair, MalformedMaterialsAreReplaced) {
  std::vector<aiFace> faces;
  faces.push_back(face({0, 1, 2}));
  auto scene = mesh_scene(std::move(faces), aiPrimitiveType_TRIANGLE);
  auto* good = new aiMaterial();
  aiString name("fine");
  good->AddProperty(&name, AI_MATKEY_NAME);
  auto* bad = new aiMaterial();
  bad->AddProperty(&name, AI_MATKEY_NAME);
  // The string's length field claims more bytes than the property holds (aiMaterial::Get would
  // copy past it).
  const uint32_t huge = 5000;
  std::memcpy(bad->mProperties[0]->mData, &huge, 4);
  scene->mMaterials = new aiMaterial* [2] { good, bad };
  scene->mNumMaterials = 2;
  const SceneRepairs r = repair_scene(*scene);
  EXPECT_EQ(r.materials_replaced, 1u);
  EXPECT_EQ(scene->mMaterials[0], good);
  EXPECT_EQ(scene->mMaterials[1]->mNumProperties, 0u);
}

TEST(Repair, NamesAreTerminatedAndTangentsPaired) {
  std::vector<aiFace> faces;
  faces.push_back(face({0, 1, 2}));
  auto scene = mesh_scene(std::move(faces), aiPrimitiveType_TRIANGLE);
  aiString& n = scene->mRootNode->mName;
  std::memset(n.data, 'a', MAXLEN);  // no terminator anywhere
  n.length = 12;
  aiMesh& mesh = *scene->mMeshes[0];
  mesh.mTangents = new aiVector3D[4];
  const SceneRepairs r = repair_scene(*scene);
  EXPECT_EQ(r.names_repaired, 1u);
  EXPECT_EQ(n.length, MAXLEN - 1u);
  EXPECT_EQ(std::strlen(n.data), MAXLEN - 1u);
  EXPECT_EQ(r.tangents_dropped, 1u);
  EXPECT_EQ(mesh.mTangents, nullptr);
}

}  // namespace
}  // namespace sv
