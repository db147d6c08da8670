// GPU skinning equals CPU skinning, measured on the GPU's real output: skin.vert's skinned
// model-space positions are captured with transform feedback and compared with the CPU kernels
// (sv::skin through the Animator, as the viewer runs it) under every skinning method (LBS, DQS,
// CoR with the centres uploaded as the vertex attribute). Tolerance: 1e-5 of the bounding-box
// diagonal.
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "anim/bounds.h"
#include "anim/model.h"
#include "anim/pose.h"
#include "gfx/gpu_model.h"
#include "gfx/shader.h"
#include "gfx/view_colors.h"
#include "gl_context.h"
#include "io/import.h"
#include "skin/rotation_centers.h"
#include "skin/skinned_pose.h"
#include "skin/skinning.h"
#include "synthetic_models.h"
#include "vertex_capture.h"

namespace sv {
namespace {

struct Capture {
  gl::Program program;
};

Capture make_capture_program() {
  gl::ProgramDesc desc{{"common.vert", "skin.vert"},
                       {"mesh.frag"},
                       gl::skin_program_defines(),
                       {"v_model_position"}};
  gl::ProgramResult r = gl::build_program(desc);
  EXPECT_TRUE(r.ok()) << r.error;
  EXPECT_TRUE(r.warning.empty()) << r.warning;
  Capture c;
  c.program = std::move(r.program);
  return c;
}

bool installed(const std::string& path) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (f != nullptr) std::fclose(f);
  return f != nullptr;
}

// Runs skin.vert over every vertex of mesh `m` and returns the captured positions.
std::vector<glm::vec3> gpu_skin(const Capture& c, const gl::GpuModel& gpu, std::size_t m,
                                SkinMethod method = SkinMethod::Lbs, int influences = 4) {
  return test::capture_vertices<glm::vec3>(c.program.id(), gpu, m, method, influences);
}

// Compares GPU and CPU skinning of every mesh of `model` at `times` of its first clip (the rest
// pose when it has none). Returns the largest error over the diagonal.
// `influences` 8: both sides skin with the meshes' second sets (and CoR's centres of 8).
double max_relative_error(const Model& model, std::initializer_list<float> fractions,
                          SkinMethod method = SkinMethod::Lbs, int influences = 4) {
  const Capture capture = make_capture_program();
  gl::GpuModel gpu(model);
  SkinnedPose animator(model);
  std::vector<std::vector<glm::vec3>> centers;
  if (method == SkinMethod::Cor) {
    centers = compute_rotation_centers(model, influences == 8);
    EXPECT_EQ(centers.size(), model.meshes.size());
    for (std::size_t m = 0; m < centers.size(); ++m) gpu.upload_centers(m, centers[m]);
  }
  animator.set_skin(SkinChoice{method, centers, influences});
  const int32_t clip = model.clips.empty() ? -1 : 0;
  animator.pose.set_clip(model, clip);
  const double duration = clip < 0 ? 0.0 : model.clips[0].duration();
  double worst = 0.0;
  for (float f : fractions) {
    const PoseMode mode = clip < 0 ? PoseMode::Rest : PoseMode::Clip;
    EXPECT_TRUE(animator.evaluate(model, mode, f * duration));
    EXPECT_TRUE(animator.skin_cpu(model));
    gpu.upload_palette(animator.pose.palette(), animator.normal_palette());
    if (method != SkinMethod::Lbs) gpu.upload_method_palette(animator.method_palette());
    gpu.upload_morph_weights([&](std::size_t m) { return animator.pose.morph_weights(m); });
    Bounds bounds;
    for (std::size_t m = 0; m < model.meshes.size(); ++m) {
      for (const glm::vec3& p : animator.skinned_positions(m)) bounds.add(p);
    }
    const double diagonal = std::max(static_cast<double>(bounds.diagonal()), 1e-12);
    for (std::size_t m = 0; m < model.meshes.size(); ++m) {
      const std::vector<glm::vec3> g = gpu_skin(capture, gpu, m, method, influences);
      const auto c = animator.skinned_positions(m);
      EXPECT_EQ(g.size(), c.size());
      for (std::size_t v = 0; v < std::min(g.size(), c.size()); ++v) {
        worst = std::max(worst, static_cast<double>(glm::length(g[v] - c[v])) / diagonal);
      }
    }
  }
  return worst;
}

TEST(GpuSkinning, ThreeJointChainMatchesCpu) {
  SV_REQUIRE_GL();
  const Model model = test::make_chain_model(3);
  EXPECT_LE(max_relative_error(model, {0.0f, 0.37f, 0.81f}), 1e-5);
}

TEST(GpuSkinning, ThousandJointChainMatchesCpu) {
  SV_REQUIRE_GL();
  const Model model = test::make_chain_model(1000, 0.01f);
  ASSERT_EQ(model.meshes[0].skin_joints.size(), 1000u);
  EXPECT_LE(max_relative_error(model, {0.0f, 0.5f, 0.9f}), 1e-5);
}

TEST(GpuSkinning, PaletteReallyMovesVertices) {
  // Guards the comparison above against a vacuous pass (e.g. both sides at the bind pose).
  SV_REQUIRE_GL();
  const Model model = test::make_chain_model(3);
  const Capture capture = make_capture_program();
  gl::GpuModel gpu(model);
  SkinnedPose animator(model);
  animator.pose.set_clip(model, 0);
  ASSERT_TRUE(animator.evaluate(model, PoseMode::Clip, 0.5f));
  gpu.upload_palette(animator.pose.palette(), animator.normal_palette());
  const std::vector<glm::vec3> g = gpu_skin(capture, gpu, 0);
  float moved = 0.0f;
  for (std::size_t v = 0; v < g.size(); ++v) {
    moved = std::max(moved, glm::length(g[v] - model.meshes[0].positions[v]));
  }
  EXPECT_GT(moved, 0.05f);
}

// The index of the clip called `name`, or -1.
int32_t clip_named(const Model& model, const std::string& name) {
  for (std::size_t c = 0; c < model.clips.size(); ++c)
    if (model.clips[c].name() == name) return static_cast<int32_t>(c);
  return -1;
}

TEST(GpuSkinning, DualQuaternionsAndCentresDifferFromLbsOnTheGpu) {
  // Guards the per-method comparisons below against a method uniform that does nothing: on the
  // default character's `twist` half-turn the GPU's DQS and CoR vertices leave LBS's.
  SV_REQUIRE_GL();
  ImportResult r = import_model(std::string(SKINVIEW_SOURCE_DIR) + "/assets/default.glb");
  ASSERT_TRUE(r.ok()) << r.error;
  const Model& model = *r.model;
  const int32_t twist = clip_named(model, "twist");
  ASSERT_GE(twist, 0);
  const auto centers = compute_rotation_centers(model, false);
  const Capture capture = make_capture_program();
  gl::GpuModel gpu(model);
  gpu.upload_centers(0, centers[0]);
  SkinnedPose animator(model);
  animator.set_skin(SkinChoice{SkinMethod::Dqs, {}});
  animator.pose.set_clip(model, twist);
  ASSERT_TRUE(animator.evaluate(model, PoseMode::Clip, 1.0));
  gpu.upload_palette(animator.pose.palette(), animator.normal_palette());
  gpu.upload_method_palette(animator.method_palette());
  const auto lbs = gpu_skin(capture, gpu, 0, SkinMethod::Lbs);
  for (SkinMethod method : {SkinMethod::Dqs, SkinMethod::Cor}) {
    const auto g = gpu_skin(capture, gpu, 0, method);
    float moved = 0.0f;
    for (std::size_t v = 0; v < g.size(); ++v) moved = std::max(moved, glm::length(g[v] - lbs[v]));
    EXPECT_GT(moved, 0.01f) << skin_method_label(method);
  }
}

// Until its centres are uploaded, CoR on the GPU takes each vertex's bind position as its centre
// (the float buffer's positions: skinned = R (v - v) + LBS(v) = LBS(v)); the first upload moves
// the attribute onto the centres' own buffer, and a later one rewrites that buffer: centres equal
// to the bind positions give LBS again.
TEST(GpuSkinning, CorBeforeItsCentresAreUploadedSkinsAsLbs) {
  SV_REQUIRE_GL();
  ImportResult r = import_model(std::string(SKINVIEW_SOURCE_DIR) + "/assets/default.glb");
  ASSERT_TRUE(r.ok()) << r.error;
  const Model& model = *r.model;
  const int32_t twist = clip_named(model, "twist");
  ASSERT_GE(twist, 0);
  const Capture capture = make_capture_program();
  gl::GpuModel gpu(model);
  EXPECT_EQ(gpu.meshes()[0].centers.id(), 0u) << "a centres buffer before any centres";
  SkinnedPose animator(model);
  animator.set_skin(SkinChoice{SkinMethod::Cor, {}});
  animator.pose.set_clip(model, twist);
  ASSERT_TRUE(animator.evaluate(model, PoseMode::Clip, 1.0));
  gpu.upload_palette(animator.pose.palette(), animator.normal_palette());
  gpu.upload_method_palette(animator.method_palette());
  const auto lbs = gpu_skin(capture, gpu, 0, SkinMethod::Lbs);
  Bounds box;
  for (const glm::vec3& p : lbs) box.add(p);
  const float tolerance = 1e-5f * box.diagonal();
  const auto largest_gap = [&](const std::vector<glm::vec3>& g) {
    EXPECT_EQ(g.size(), lbs.size());
    float gap = 0.0f;
    for (std::size_t v = 0; v < g.size() && v < lbs.size(); ++v)
      gap = std::max(gap, glm::length(g[v] - lbs[v]));
    return gap;
  };
  EXPECT_LE(largest_gap(gpu_skin(capture, gpu, 0, SkinMethod::Cor)), tolerance);
  const auto centers = compute_rotation_centers(model, false);
  gpu.upload_centers(0, centers[0]);
  EXPECT_NE(gpu.meshes()[0].centers.id(), 0u);
  EXPECT_GT(largest_gap(gpu_skin(capture, gpu, 0, SkinMethod::Cor)), 0.01f);
  gpu.upload_centers(0, model.meshes[0].positions);
  EXPECT_LE(largest_gap(gpu_skin(capture, gpu, 0, SkinMethod::Cor)), tolerance);
}

// What GpuModel's buffers hold after the upload, read back, for a model without compact streams
// (whose float arrays are made at construction, gfx/gpu_model.h): the shared buffer's vertices
// (SharedVertex: uv at byte 0 of 16), the float buffer's (FloatVertex: position at byte 0, normal
// 12, joints 24, weights 32 of 48) and, once the CPU path's vertex array is first asked for, the
// streamed buffer's bind pose (the positions, then the normals), all from the model's arrays; a
// mesh without normals gets (0, 1, 0) in each.
TEST(GpuModelUpload, TheBuffersHoldTheModelsArrays) {
  SV_REQUIRE_GL();
  for (const bool normals : {true, false}) {
    Model model = test::make_chain_model(3);
    Mesh& mesh = model.meshes[0];
    if (!normals) mesh.normals.clear();
    const std::size_t n = mesh.vertex_count();
    ASSERT_EQ(n, 12u);
    gl::GpuModel gpu(model);
    const gl::GpuMesh& g = gpu.meshes()[0];
    ASSERT_EQ(g.vertex_count, 12);
    EXPECT_EQ(g.stream_vertices.id(), 0u);  // no CPU-path frame yet
    EXPECT_NE(gpu.vertex_array(0, false, false), 0u);
    ASSERT_NE(g.stream_vertices.id(), 0u);
    std::vector<uint8_t> shared(16 * n), vertices(48 * n);
    glBindBuffer(GL_ARRAY_BUFFER, g.shared_vertices.id());
    glGetBufferSubData(GL_ARRAY_BUFFER, 0, static_cast<GLsizeiptr>(shared.size()), shared.data());
    glBindBuffer(GL_ARRAY_BUFFER, g.float_vertices.id());
    glGetBufferSubData(GL_ARRAY_BUFFER, 0, static_cast<GLsizeiptr>(vertices.size()),
                       vertices.data());
    std::vector<glm::vec3> stream(2 * n);
    glBindBuffer(GL_ARRAY_BUFFER, g.stream_vertices.id());
    glGetBufferSubData(GL_ARRAY_BUFFER, 0, static_cast<GLsizeiptr>(stream.size() * 12),
                       stream.data());
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    for (std::size_t i = 0; i < n; ++i) {
      const uint8_t* v = vertices.data() + 48 * i;
      glm::vec3 position, normal;
      glm::vec2 uv;
      glm::u16vec4 joints;
      glm::vec4 weights;
      std::memcpy(&position, v, 12);
      std::memcpy(&normal, v + 12, 12);
      std::memcpy(&joints, v + 24, 8);
      std::memcpy(&weights, v + 32, 16);
      std::memcpy(&uv, shared.data() + 16 * i, 8);
      const glm::vec3 want_normal = normals ? mesh.normals[i] : glm::vec3(0.0f, 1.0f, 0.0f);
      EXPECT_EQ(position, mesh.positions[i]) << i;
      EXPECT_EQ(normal, want_normal) << i;
      EXPECT_EQ(uv, mesh.uvs[i]) << i;
      EXPECT_EQ(joints, mesh.joints[i]) << i;
      EXPECT_EQ(weights, mesh.weights[i]) << i;
      EXPECT_EQ(stream[i], mesh.positions[i]) << i;
      EXPECT_EQ(stream[n + i], want_normal) << i;
    }
    EXPECT_EQ(glGetError(), static_cast<GLenum>(GL_NO_ERROR));
  }
}

// Normals follow each method on the GPU as on the CPU (DQS and CoR: the blended rotation of the
// stretch's cofactor): skin.vert's normal output (v_world_normal with u_world = identity),
// normalised, against the CPU's unit normals, on the default character mid-twist and on a real
// model.
TEST(GpuSkinning, NormalsMatchCpuUnderEveryMethod) {
  SV_REQUIRE_GL();
  gl::ProgramResult r = gl::build_program({{"common.vert", "skin.vert"},
                                           {"mesh.frag"},
                                           gl::skin_program_defines(),
                                           {"v_world_normal"}});
  ASSERT_TRUE(r.ok()) << r.error;
  const GLuint program = r.program.id();
  glUseProgram(program);
  const glm::mat4 identity(1.0f);
  glUniformMatrix4fv(glGetUniformLocation(program, "u_world"), 1, GL_FALSE, &identity[0][0]);
  for (const std::string& path : {std::string(SKINVIEW_SOURCE_DIR) + "/assets/default.glb",
                                  std::string(SKINVIEW_TEST_MODELS) + "/X/BCN_Epileptic.X"}) {
    ImportResult imported = import_model(path);
    ASSERT_TRUE(imported.ok()) << imported.error;
    const Model& model = *imported.model;
    const auto centers = compute_rotation_centers(model, false);
    gl::GpuModel gpu(model);
    for (std::size_t m = 0; m < centers.size(); ++m) gpu.upload_centers(m, centers[m]);
    SkinnedPose animator(model);
    const int32_t clip = model.clips.size() > 3 ? 3 : 0;  // the default character's twist
    animator.pose.set_clip(model, clip);
    for (SkinMethod method : kSkinMethods) {
      animator.set_skin(SkinChoice{method, centers});
      ASSERT_TRUE(animator.evaluate(model, PoseMode::Clip,
                                    0.4 * model.clips[static_cast<std::size_t>(clip)].duration()));
      ASSERT_TRUE(animator.skin_cpu(model));
      gpu.upload_palette(animator.pose.palette(), animator.normal_palette());
      gpu.upload_method_palette(animator.method_palette());
      gpu.upload_morph_weights([&](std::size_t m) { return animator.pose.morph_weights(m); });
      float worst = 0.0f;
      std::size_t compared = 0;
      for (std::size_t m = 0; m < model.meshes.size(); ++m) {
        const auto cpu = animator.skinned_normals(m);
        if (cpu.empty()) continue;
        const auto g = test::capture_vertices<glm::vec3>(program, gpu, m, method);
        ASSERT_EQ(g.size(), cpu.size());
        for (std::size_t v = 0; v < g.size(); ++v) {
          const float len = glm::length(g[v]);
          if (len == 0.0f || glm::length(cpu[v]) == 0.0f) continue;
          worst = std::max(worst, glm::length(g[v] / len - cpu[v]));
          ++compared;
        }
      }
      EXPECT_GT(compared, 100u) << path;
      EXPECT_LE(worst, 1e-4f) << path << " " << skin_method_label(method);
    }
  }
}

// Joints that scale non-uniformly: DQS and CoR take two-phase skinning (the bind-space stretches
// blended first) on the GPU as on the CPU. A hand-made palette on the 6-joint chain: each bone
// rotated, translated and scaled differently per axis; positions and normals compared.
TEST(GpuSkinning, ScaledJointsTakeTwoPhaseSkinningAsOnTheCpu) {
  SV_REQUIRE_GL();
  const Model model = test::make_chain_model(6);
  const Mesh& mesh = model.meshes[0];
  const std::size_t n = mesh.skin_joints.size();
  std::vector<glm::mat4> palette(n);
  for (std::size_t b = 0; b < n; ++b) {
    const float f = static_cast<float>(b);
    palette[b] = glm::translate(glm::mat4(1.0f), glm::vec3(0.1f * f, 0.05f * f, -0.2f)) *
                 glm::rotate(glm::mat4(1.0f), 0.5f * f, glm::normalize(glm::vec3(1.0f, f, 0.5f))) *
                 glm::scale(glm::mat4(1.0f), glm::vec3(1.0f + 0.3f * f, 1.0f - 0.1f * f, 1.2f));
  }
  std::vector<glm::mat3> normal_palette(n);
  std::vector<MethodBone> method_palette(n);
  ASSERT_TRUE(build_normal_palette(palette, normal_palette));
  ASSERT_TRUE(build_method_palette(palette, method_palette));
  for (std::size_t b = 0; b < n; ++b) EXPECT_EQ(method_palette[b].scaled, 1u) << b;
  const auto centers = compute_rotation_centers(model, false);
  gl::GpuModel gpu(model);
  gpu.upload_palette(palette, normal_palette);
  gpu.upload_method_palette(method_palette);
  gpu.upload_centers(0, centers[0]);
  gl::ProgramResult normals_program = gl::build_program({{"common.vert", "skin.vert"},
                                                         {"mesh.frag"},
                                                         gl::skin_program_defines(),
                                                         {"v_world_normal"}});
  ASSERT_TRUE(normals_program.ok()) << normals_program.error;
  glUseProgram(normals_program.program.id());
  const glm::mat4 identity(1.0f);
  glUniformMatrix4fv(glGetUniformLocation(normals_program.program.id(), "u_world"), 1, GL_FALSE,
                     &identity[0][0]);
  const Capture capture = make_capture_program();
  SkinInput in{mesh.positions, mesh.normals, mesh.joints, mesh.weights, mesh.max_joint};
  in.centers = centers[0];
  std::vector<glm::vec3> cpu_p(mesh.vertex_count()), cpu_n(mesh.vertex_count());
  for (SkinMethod method : {SkinMethod::Dqs, SkinMethod::Cor}) {
    ASSERT_TRUE(
        skin(method, SkinPalettes{palette, normal_palette, method_palette}, in, cpu_p, cpu_n));
    Bounds bounds;
    for (const glm::vec3& p : cpu_p) bounds.add(p);
    const auto g = gpu_skin(capture, gpu, 0, method);
    const auto gn = test::capture_vertices<glm::vec3>(normals_program.program.id(), gpu, 0, method);
    ASSERT_EQ(g.size(), cpu_p.size());
    float worst = 0.0f, worst_normal = 0.0f;
    for (std::size_t v = 0; v < g.size(); ++v) {
      worst = std::max(worst, glm::length(g[v] - cpu_p[v]));
      worst_normal = std::max(worst_normal, glm::length(glm::normalize(gn[v]) - cpu_n[v]));
    }
    EXPECT_LE(worst, 1e-5f * bounds.diagonal()) << skin_method_label(method);
    EXPECT_LE(worst_normal, 1e-4f) << skin_method_label(method);
  }
}

TEST(GpuSkinning, DefaultCharacterMatchesCpuUnderEveryMethod) {
  SV_REQUIRE_GL();
  ImportResult r = import_model(std::string(SKINVIEW_SOURCE_DIR) + "/assets/default.glb");
  ASSERT_TRUE(r.ok()) << r.error;
  for (SkinMethod method : kSkinMethods) {
    EXPECT_LE(max_relative_error(*r.model, {0.1f, 0.5f, 0.9f}, method), 1e-5)
        << skin_method_label(method);
  }
}

// 8 influences on both paths, every method, on the file with 5-6 influences per vertex; and the
// GPU really reads the second set: its output with 8 differs from its output with 4.
TEST(GpuSkinning, EightInfluencesMatchCpuUnderEveryMethod) {
  SV_REQUIRE_GL();
  const std::string path = std::string(SKINVIEW_TEST_MODELS) + "/FBX/animation_with_skeleton.fbx";
  if (!installed(path)) GTEST_SKIP() << path << " not installed (Debian package assimp-testmodels)";
  ImportResult r = import_model(path);
  ASSERT_TRUE(r.ok()) << r.error;
  const Model& model = *r.model;
  ASSERT_TRUE(model.meshes[0].has_influences8());
  for (SkinMethod method : kSkinMethods) {
    EXPECT_LE(max_relative_error(model, {0.1f, 0.5f, 0.9f}, method, 8), 1e-5)
        << skin_method_label(method);
  }
  const Capture capture = make_capture_program();
  gl::GpuModel gpu(model);
  ASSERT_TRUE(gpu.meshes()[0].has_influences8);
  SkinnedPose animator(model);
  animator.pose.set_clip(model, 0);
  ASSERT_TRUE(animator.evaluate(model, PoseMode::Clip, 0.5 * model.clips[0].duration()));
  gpu.upload_palette(animator.pose.palette(), animator.normal_palette());
  const auto four = gpu_skin(capture, gpu, 0, SkinMethod::Lbs, 4);
  const auto eight = gpu_skin(capture, gpu, 0, SkinMethod::Lbs, 8);
  ASSERT_EQ(four.size(), eight.size());
  float moved = 0.0f;
  for (std::size_t v = 0; v < four.size(); ++v)
    moved = std::max(moved, glm::length(four[v] - eight[v]));
  EXPECT_GT(moved, 0.0f);
}

// A model within the 4-limit has no second set; asking for 8 changes nothing on either path.
TEST(GpuSkinning, EightInfluencesOnAFourInfluenceModelChangeNothing) {
  SV_REQUIRE_GL();
  ImportResult r = import_model(std::string(SKINVIEW_SOURCE_DIR) + "/assets/default.glb");
  ASSERT_TRUE(r.ok()) << r.error;
  for (const Mesh& m : r.model->meshes) EXPECT_FALSE(m.has_influences8());
  EXPECT_LE(max_relative_error(*r.model, {0.3f}, SkinMethod::Dqs, 8), 1e-5);
}

class RealModel : public ::testing::TestWithParam<const char*> {};

TEST_P(RealModel, GpuMatchesCpuAtThreeTimes) {
  SV_REQUIRE_GL();
  const std::string path = std::string(SKINVIEW_TEST_MODELS) + "/" + GetParam();
  if (!installed(path)) GTEST_SKIP() << path << " not installed (Debian package assimp-testmodels)";
  ImportResult r = import_model(path);
  ASSERT_TRUE(r.ok()) << r.error;
  // Every method: the GPU's real output (transform feedback) against the CPU kernels.
  for (SkinMethod method : kSkinMethods) {
    EXPECT_LE(max_relative_error(*r.model, {0.1f, 0.5f, 0.9f}, method), 1e-5)
        << skin_method_label(method);
  }
}

INSTANTIATE_TEST_SUITE_P(AssimpTestModels, RealModel,
                         ::testing::Values("X/BCN_Epileptic.X", "X/Testwuson.X", "FBX/huesitos.fbx",
                                           "FBX/animation_with_skeleton.fbx",
                                           "glTF2/simple_skin/simple_skin.gltf", "X/anim_test.x",
                                           "MD5/SimpleCube.md5mesh"));

}  // namespace
}  // namespace sv
