// Import tests on real files from Debian's assimp-testmodels package: the counts each model
// really has, the repairs the report must name, the bind pose reproducing the stored vertices,
// clips that move vertices, and one independent check of the skinning conventions
// (simple_skin.gltf computed by hand from the glTF numbers).
#include <algorithm>
#include <cmath>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include <assimp/postprocess.h>
#include <assimp/scene.h>
#include <gtest/gtest.h>
#include <assimp/Importer.hpp>
#include <glm/gtc/matrix_transform.hpp>
#include <nlohmann/json.hpp>

#include "io/dump.h"
#include "io/import.h"
#include "json_file.h"
#include "test_util.h"
#include "usable_model.h"

namespace sv {
namespace {

std::string model_path(const std::string& rel) {
  return std::string(SKINVIEW_TEST_MODELS) + "/" + rel;
}

struct Expected {
  const char* path;
  std::size_t meshes;
  std::size_t vertices;  // all meshes together
  std::size_t joints;
  std::size_t bones;
  std::size_t clips;
  float first_clip_duration;  // seconds (ignored when clips == 0)
};

void PrintTo(const Expected& e, std::ostream* os) { *os << e.path; }

// Counts found by importing each file (assimp 5.2.5, Debian's assimp-testmodels 5.2.5).
const Expected kModels[] = {
    {"X/BCN_Epileptic.X", 3, 15378, 58, 54, 1, 3.3f},
    {"X/Testwuson.X", 1, 11196, 40, 37, 3, 0.966666f},
    {"X/anim_test.x", 1, 2520, 5, 2, 1, 1.0f},
    {"FBX/animation_with_skeleton.fbx", 1, 4224, 17, 14, 1, 0.833333f},
    {"FBX/huesitos.fbx", 1, 256, 12, 9, 1, 1.56f},
    {"glTF2/simple_skin/simple_skin.gltf", 1, 10, 3, 2, 1, 5.5f},
    {"SMD/WusonSMD.smd", 1, 11196, 2, 1, 1, 0.0f},
    {"MD5/SimpleCube.md5mesh", 1, 36, 6, 2, 0, 0.0f},
    {"BVH/01_01.bvh", 0, 0, 31, 0, 1, 22.9249f},
};

float bbox_diagonal(const Model& m) {
  glm::vec3 lo(1e30f), hi(-1e30f);
  for (const Mesh& mesh : m.meshes)
    for (const glm::vec3& p : mesh.positions) {
      lo = glm::min(lo, p);
      hi = glm::max(hi, p);
    }
  return m.meshes.empty() ? 1.0f : glm::length(hi - lo);
}

float max_distance(const std::vector<std::vector<glm::vec3>>& a,
                   const std::vector<std::vector<glm::vec3>>& b) {
  float d = 0.0f;
  for (std::size_t m = 0; m < a.size(); ++m)
    for (std::size_t v = 0; v < a[m].size(); ++v) d = std::max(d, glm::length(a[m][v] - b[m][v]));
  return d;
}

class RealModel : public ::testing::TestWithParam<Expected> {};

TEST_P(RealModel, LoadsWithItsCounts) {
  const Expected& e = GetParam();
  ImportResult r = import_model(model_path(e.path));
  ASSERT_TRUE(r.ok()) << r.error;
  const Model& m = *r.model;
  test::expect_usable(m, e.path);
  EXPECT_EQ(m.meshes.size(), e.meshes);
  std::size_t vertices = 0;
  for (const Mesh& mesh : m.meshes) {
    vertices += mesh.vertex_count();
    EXPECT_EQ(mesh.normals.size(), mesh.vertex_count());
    EXPECT_EQ(mesh.joints.size(), mesh.vertex_count());
    EXPECT_EQ(mesh.weights.size(), mesh.vertex_count());
    EXPECT_GT(mesh.triangle_count(), 0u);
    for (std::size_t v = 0; v < mesh.vertex_count(); ++v) {
      const glm::vec4& w = mesh.weights[v];
      const glm::u16vec4& j = mesh.joints[v];
      ASSERT_NEAR(w.x + w.y + w.z + w.w, 1.0f, 1e-5f);
      // Canonical slots: weighted ones by joint ascending, then unused ones (weight 0, joint 0).
      for (int k = 0; k < 4; ++k) {
        ASSERT_GE(w[k], 0.0f);
        if (k > 0 && w[k] > 0.0f) {
          ASSERT_TRUE(w[k - 1] > 0.0f && j[k - 1] < j[k]) << "vertex " << v;
        }
        if (w[k] == 0.0f) {
          ASSERT_EQ(j[k], 0) << "vertex " << v;
        }
      }
      // Vertices bound to the same bones are consecutive: sorted by their 4 joints.
      if (v > 0) {
        const glm::u16vec4& p = mesh.joints[v - 1];
        ASSERT_TRUE(std::tie(p.x, p.y, p.z, p.w) <= std::tie(j.x, j.y, j.z, j.w)) << "vertex " << v;
      }
    }
  }
  EXPECT_EQ(vertices, e.vertices);
  EXPECT_EQ(m.skeleton.size(), e.joints);
  EXPECT_EQ(
      static_cast<std::size_t>(std::count(m.skeleton.is_bone.begin(), m.skeleton.is_bone.end(), 1)),
      e.bones);
  for (std::size_t j = 0; j < m.skeleton.size(); ++j)
    EXPECT_LT(m.skeleton.parents[j], static_cast<int32_t>(j));
  ASSERT_EQ(m.clips.size(), e.clips);
  if (e.clips) {
    EXPECT_NEAR(m.clips[0].duration(), e.first_clip_duration, 1e-3f);
  }
}

// The files of kModels whose first clip has a duration (LoadsWithItsCounts holds each file to
// its row). Left out: SMD/WusonSMD.smd, whose one clip is its reference pose (0 s: one pose,
// nothing to move; ZeroLengthClipIsOnePose below), and MD5/SimpleCube.md5mesh, which has no clip
// (the package has no .md5anim beside it).
std::vector<Expected> animated_models() {
  std::vector<Expected> out;
  for (const Expected& e : kModels)
    if (e.clips > 0 && e.first_clip_duration > 0.0f) out.push_back(e);
  return out;
}

class AnimatedRealModel : public ::testing::TestWithParam<Expected> {};

TEST_P(AnimatedRealModel, MidClipPoseMovesTheModel) {
  const Expected& e = GetParam();
  ImportResult r = import_model(model_path(e.path));
  ASSERT_TRUE(r.ok()) << r.error;
  const Model& m = *r.model;
  ASSERT_FALSE(m.clips.empty());
  ASSERT_GT(m.clips[0].duration(), 0.0);
  PosedModel start, mid;
  ASSERT_EQ(pose_model(m, 0, 0.0, start), "");
  ASSERT_EQ(pose_model(m, 0, 0.37 * m.clips[0].duration(), mid), "");
  if (m.meshes.empty()) {  // BVH: a skeleton only; its joints must move
    float moved = 0.0f;
    for (std::size_t j = 0; j < m.skeleton.size(); ++j)
      moved =
          std::max(moved, glm::length(glm::vec3(mid.joint_model[j][3] - start.joint_model[j][3])));
    EXPECT_GT(moved, 1e-3f);
    return;
  }
  EXPECT_GT(max_distance(start.positions, mid.positions), 1e-3f * bbox_diagonal(m)) << e.path;
  for (const auto& mesh : mid.positions)
    for (const glm::vec3& p : mesh)
      ASSERT_TRUE(std::isfinite(p.x) && std::isfinite(p.y) && std::isfinite(p.z));
}

std::string param_name(const ::testing::TestParamInfo<Expected>& info) {
  std::string name = info.param.path;
  for (char& c : name)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return name;
}

INSTANTIATE_TEST_SUITE_P(AssimpTestModels, RealModel, ::testing::ValuesIn(kModels), param_name);
INSTANTIATE_TEST_SUITE_P(AssimpTestModels, AnimatedRealModel,
                         ::testing::ValuesIn(animated_models()), param_name);

// A clip of zero duration (the SMD reference pose) is one pose: any time gives it, as the start.
TEST(Import, ZeroLengthClipIsOnePose) {
  ImportResult r = import_model(model_path("SMD/WusonSMD.smd"));
  ASSERT_TRUE(r.ok()) << r.error;
  ASSERT_EQ(r.model->clips.size(), 1u);
  ASSERT_EQ(r.model->clips[0].duration(), 0.0);
  PosedModel start, later;
  ASSERT_EQ(pose_model(*r.model, 0, 0.0, start), "");
  ASSERT_EQ(pose_model(*r.model, 0, 0.5, later), "");
  ASSERT_EQ(start.positions.size(), 1u);
  ASSERT_EQ(start.positions[0].size(), 11196u);
  EXPECT_EQ(max_distance(start.positions, later.positions), 0.0f);
}

// The X files' rest pose is their bind pose: posing with the file's rest transforms must give
// back the stored vertices (checks Offset matrices, node globals and the root transform).
TEST(Import, BindPoseReproducesStoredVertices) {
  for (const char* file : {"X/BCN_Epileptic.X", "X/Testwuson.X"}) {
    ImportResult r = import_model(model_path(file));
    ASSERT_TRUE(r.ok()) << r.error;
    PosedModel bind;
    ASSERT_EQ(pose_model(*r.model, -1, 0.0, bind), "");
    std::vector<std::vector<glm::vec3>> stored;
    for (const Mesh& mesh : r.model->meshes) stored.push_back(mesh.positions);
    EXPECT_LT(max_distance(bind.positions, stored), 1e-5f * bbox_diagonal(*r.model)) << file;
  }
}

// The stored weight sums (before the 4-limit and renormalising) are kept per vertex, agree with
// the renormalised flag (set above 1e-4), and span what the files hold (DESIGN.md: sums of
// 0.94-1.38 in animation_with_skeleton.fbx, 0.948-0.9999 in huesitos.fbx).
TEST(Import, KeepsTheStoredWeightSums) {
  struct Case {
    const char* file;
    float lo_min, lo_max, hi_min, hi_max;  // the smallest sum in [lo_min, lo_max], largest in ...
  };
  for (const Case& c : {Case{"FBX/animation_with_skeleton.fbx", 0.93f, 0.95f, 1.37f, 1.39f},
                        Case{"FBX/huesitos.fbx", 0.94f, 0.95f, 0.999f, 1.0001f}}) {
    ImportResult r = import_model(model_path(c.file));
    ASSERT_TRUE(r.ok()) << r.error;
    const Mesh& mesh = r.model->meshes[0];
    ASSERT_EQ(mesh.source_weight_sums.size(), mesh.vertex_count()) << c.file;
    float lo = 1e9f, hi = -1e9f;
    std::size_t disagree = 0;
    for (std::size_t v = 0; v < mesh.vertex_count(); ++v) {
      if (mesh.vertex_flags[v] & kVertexUnweighted) continue;
      const float sum = mesh.source_weight_sums[v];
      lo = std::min(lo, sum);
      hi = std::max(hi, sum);
      const bool flagged = (mesh.vertex_flags[v] & kVertexRenormalised) != 0;
      if (flagged != (std::abs(sum - 1.0f) > 1e-4f)) ++disagree;
    }
    EXPECT_GE(lo, c.lo_min) << c.file;
    EXPECT_LE(lo, c.lo_max) << c.file;
    EXPECT_GE(hi, c.hi_min) << c.file;
    EXPECT_LE(hi, c.hi_max) << c.file;
    // float against the importer's double sum: a vertex right at 1e-4 may fall either side.
    EXPECT_LE(disagree, 2u) << c.file;
  }
}

// The file's unit, through the worker and the model format: FBX's UnitScaleFactor (1: the
// centimetre; 100: the metre), glTF's metre, COLLADA's <unit meter="0.01">, applied by assimp to
// the root (so the model is in metres), and OBJ, which does not say.
TEST(Import, CarriesTheFilesUnit) {
  const struct {
    const char* file;
    double metres;
  } cases[] = {
      {"FBX/spider.fbx", 0.01},
      {"glTF2/BoxTextured-glTF-Binary/BoxTextured.glb", 1.0},
      {"Collada/duck.dae", 1.0},
      {"OBJ/spider.obj", 0.0},
  };
  for (const auto& c : cases) {
    ImportResult r = import_model(model_path(c.file));
    ASSERT_TRUE(r.ok()) << c.file << ": " << r.error;
    EXPECT_DOUBLE_EQ(r.report.unit_metres, c.metres) << c.file;
  }
}

// glTF's doubleSided (default false: back-face culling) reaches Material::double_sided; every
// other format draws both sides, whatever assimp's TWOSIDED says (false for Collada by default).
TEST(Import, GltfMaterialsKeepTheirSides) {
  const struct {
    const char* file;
    bool double_sided;
  } cases[] = {
      {"glTF2/BoxTexcoords-glTF/boxTexcoords.gltf", true},  // "doubleSided": true
      {"glTF2/BoxTextured-glTF/BoxTextured.gltf", false},   // no doubleSided: false
      {"glTF2/BoxTextured-glTF-Binary/BoxTextured.glb", false},
      {"glTF2/simple_skin/simple_skin.gltf", false},      // no material: glTF's default one
      {"glTF/BoxTextured-glTF/BoxTextured.gltf", false},  // glTF 1: its technique culls
      {"Collada/duck.dae", true},
      {"OBJ/spider.obj", true},
      {"FBX/spider.fbx", true},
  };
  for (const auto& c : cases) {
    ImportResult r = import_model(model_path(c.file));
    ASSERT_TRUE(r.ok()) << c.file << ": " << r.error;
    ASSERT_FALSE(r.model->meshes.empty()) << c.file;
    for (const Mesh& mesh : r.model->meshes) {
      ASSERT_GE(mesh.material, 0) << c.file;
      ASSERT_LT(static_cast<std::size_t>(mesh.material), r.model->materials.size()) << c.file;
      EXPECT_EQ(r.model->materials[static_cast<std::size_t>(mesh.material)].double_sided,
                c.double_sided)
          << c.file << ", mesh " << mesh.name;
    }
  }
}

TEST(Import, ReportsRepairs) {
  {
    ImportResult r = import_model(model_path("FBX/animation_with_skeleton.fbx"));
    ASSERT_TRUE(r.ok()) << r.error;
    EXPECT_EQ(r.report.vertices_over_4_influences, 2883u);
    EXPECT_GT(r.report.largest_dropped_weight, 0.0);
    EXPECT_EQ(r.model->meshes[0].max_influences, 6u);
    std::size_t flagged = 0;
    for (uint8_t f : r.model->meshes[0].vertex_flags) flagged += (f & kVertexTruncated) ? 1 : 0;
    EXPECT_EQ(flagged, 2883u);
  }
  {
    ImportResult r = import_model(model_path("FBX/huesitos.fbx"));
    ASSERT_TRUE(r.ok()) << r.error;
    EXPECT_EQ(r.report.vertices_renormalised, 248u);
    EXPECT_EQ(r.report.vertices_over_4_influences, 0u);
  }
  {
    ImportResult r = import_model(model_path("X/anim_test.x"));
    ASSERT_TRUE(r.ok()) << r.error;
    EXPECT_EQ(r.report.bones_without_node, 2u);  // joint3, joint4
    EXPECT_EQ(r.report.vertices_unweighted, 20u);
    EXPECT_FALSE(r.report.notes.empty());
  }
  {
    ImportResult r = import_model(model_path("glTF2/simple_skin/simple_skin.gltf"));
    ASSERT_TRUE(r.ok()) << r.error;
    EXPECT_EQ(r.report.rotations_normalised, 8u);  // keys of length 0.99985
  }
  {
    ImportResult r = import_model(model_path("X/Testwuson.X"));
    ASSERT_TRUE(r.ok()) << r.error;
    EXPECT_EQ(r.model->clips[2].name(), "Wuson_Bind");
    EXPECT_EQ(r.model->clips[2].duration(), 0.0);
    EXPECT_TRUE(r.report.notes.empty());
  }
}

// simple_skin.gltf by hand: joints 1 (rest translation (0,1,0)) and 2 (its child, rotation
// animated about z), both with inverse bind translate(-0.5,-1,0); vertex k sits at
// (k%2, (k/2)*0.5, 0) with weights (1 - (k/2)/4, (k/2)/4). Keys every 0.5 s; key 1 is
// (0,0,0.383,0.924) and key 2 (0,0,0.707,0.707), normalised.
TEST(Import, SimpleSkinMatchesAHandComputation) {
  ImportResult r = import_model(model_path("glTF2/simple_skin/simple_skin.gltf"));
  ASSERT_TRUE(r.ok()) << r.error;
  const Model& m = *r.model;
  const float diag = std::sqrt(5.0f);  // stored positions span (0,0,0)..(1,2,0)
  const double a1 = 2.0 * std::atan2(0.383, 0.924), a2 = 2.0 * std::atan2(0.707, 0.707);
  struct Case {
    double time;
    double angle;
  };
  for (Case c : {Case{0.5, a1}, Case{0.75, 0.5 * (a1 + a2)}, Case{1.0, a2}}) {
    PosedModel pose;
    ASSERT_EQ(pose_model(m, 0, c.time, pose), "");
    for (int k = 0; k < 10; ++k) {
      const double x = k % 2, y = (k / 2) * 0.5, w2 = (k / 2) / 4.0, w1 = 1.0 - w2;
      // joint 1: translate(0,1,0) * translate(-0.5,-1,0) p = p + (-0.5, 0, 0)
      const double p1x = x - 0.5, p1y = y;
      // joint 2: translate(0,1,0) * Rz(angle) * translate(-0.5,-1,0) p
      const double lx = x - 0.5, ly = y - 1.0;
      const double p2x = std::cos(c.angle) * lx - std::sin(c.angle) * ly;
      const double p2y = std::sin(c.angle) * lx + std::cos(c.angle) * ly + 1.0;
      const glm::vec3 expected(w1 * p1x + w2 * p2x, w1 * p1y + w2 * p2y, 0.0);
      const std::size_t v = test::file_vertex(m.meshes[0], static_cast<uint32_t>(k));
      EXPECT_LT(glm::length(pose.positions[0][v] - expected), 1e-4f * diag)
          << "t " << c.time << " vertex " << k;
    }
  }
}

TEST(Import, Failures) {
  ImportResult missing = import_model("/nonexistent/model.glb");
  EXPECT_FALSE(missing.ok());
  EXPECT_NE(missing.error.find("/nonexistent/model.glb: "), std::string::npos);
  ImportResult dir = import_model(SKINVIEW_TEST_MODELS);
  EXPECT_FALSE(dir.ok());
  for (const char* f : {"invalid/empty.x", "invalid/OutOfMemory.off", "invalid/malformed.obj",
                        "invalid/malformed2.obj", "invalid/readme.txt"}) {
    ImportResult r = import_model(model_path(f));
    EXPECT_FALSE(r.ok()) << f;
    EXPECT_EQ(r.error.find('\n'), std::string::npos) << r.error;
    EXPECT_EQ(r.error.rfind(model_path(f), 0), 0u) << r.error;
  }
}

}  // namespace
}  // namespace sv

namespace sv {
namespace {

// The importer stores each mesh's vertices grouped by bone set (group_vertices_by_bone_set), but
// --dump lists them in the file's order, the order outside tools index by: bindPositions equal
// assimp's own mVertices, read here with the importer's post-processing, vertex for vertex.
TEST(Import, DumpListsVerticesInTheFilesOrder) {
  for (const char* file :
       {"X/BCN_Epileptic.X", "X/Testwuson.X", "FBX/animation_with_skeleton.fbx"}) {
    SCOPED_TRACE(file);
    ImportResult r = import_model(model_path(file));
    ASSERT_TRUE(r.ok()) << r.error;
    bool moved = false;  // the grouping did reorder something: the test means something
    for (const Mesh& m : r.model->meshes)
      for (std::size_t v = 0; v < m.source_vertex.size(); ++v) moved |= m.source_vertex[v] != v;
    EXPECT_TRUE(moved);
    std::ostringstream json;
    ASSERT_EQ(write_dump_json(*r.model, DumpRequest{-1, {0.0f}, false, false, {}, {}}, json), "");
    const nlohmann::json j = test::parse_json(json.str());
    ASSERT_FALSE(j.is_discarded());
    Assimp::Importer importer;
    const aiScene* scene =
        importer.ReadFile(model_path(file), aiProcess_ValidateDataStructure |
                                                aiProcess_Triangulate | aiProcess_GenSmoothNormals);
    ASSERT_NE(scene, nullptr);
    ASSERT_EQ(j["meshes"].size(), scene->mNumMeshes);
    for (unsigned m = 0; m < scene->mNumMeshes; ++m) {
      const aiMesh* mesh = scene->mMeshes[m];
      const auto& b = j["meshes"][m]["bindPositions"];
      ASSERT_EQ(b.size(), 3u * mesh->mNumVertices);
      for (unsigned v = 0; v < mesh->mNumVertices; ++v) {
        const aiVector3D& want = mesh->mVertices[v];
        ASSERT_NEAR(b[3 * v + 0].get<double>(), want.x, 1e-6 * (1.0 + std::abs(want.x))) << v;
        ASSERT_NEAR(b[3 * v + 1].get<double>(), want.y, 1e-6 * (1.0 + std::abs(want.y))) << v;
        ASSERT_NEAR(b[3 * v + 2].get<double>(), want.z, 1e-6 * (1.0 + std::abs(want.z))) << v;
      }
    }
  }
}

}  // namespace
}  // namespace sv
