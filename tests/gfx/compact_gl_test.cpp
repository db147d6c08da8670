// The compact vertex streams (skin/compact_streams.h) on the GPU: skin.vert reading the compact
// vertex array (gfx/gpu_model.h) decodes exactly what the CPU kernels decode, and skins what they
// skin. Measured on the GPU's real output (transform feedback, tests/gfx/vertex_capture.h):
//  - the octahedral decode in GLSL against oct_decode_raw and hand-worked values (the 6 axes, a
//    diagonal), bit for bit;
//  - skinned positions against skin_lbs_compact_reference (the scalar loop: the shader's order of
//    operations, no fused multiply-add): exactly equal, and the GPU's normals (rounded through
//    their octahedral code in GLSL, as the CPU path stores them) exactly the reference's codes
//    decoded; against skin_lbs_compact (the SIMD kernels the window runs: fused
//    multiply-adds, another order of sums): within 16 ulps of each vertex's largest coordinate
//    (8 measured with the AVX2 kernel, 6 before it blended from differences to bone 0); on the
//    default character, the 1,000-joint chain and the real models;
//  - the shader really reads the compact buffer (weights altered there move the output) and u16
//    joints (the 1,000-joint chain);
//  - DQS and CoR the same way (skin.vert's skin_method_compact against skin_compact_reference:
//    exactly equal positions and codes; the vector kernels within kMethodKernelUlps).
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "anim/model.h"
#include "anim/pose.h"
#include "gfx/gpu_model.h"
#include "gfx/shader.h"
#include "gl_context.h"
#include "io/import.h"
#include "skin/compact_streams.h"
#include "skin/rotation_centers.h"
#include "skin/skinned_pose.h"
#include "skin/skinning.h"
#include "synthetic_models.h"
#include "vertex_capture.h"

namespace sv {
namespace {

gl::Program compact_capture_program(const char* varying) {
  gl::ProgramResult r = gl::build_program(
      {{"common.vert", "skin.vert"}, {"mesh.frag"}, gl::skin_program_defines(), {varying}});
  EXPECT_TRUE(r.ok()) << r.error;
  EXPECT_TRUE(r.warning.empty()) << r.warning;
  const glm::mat4 identity(1.0f);
  glUseProgram(r.program.id());
  glUniformMatrix4fv(glGetUniformLocation(r.program.id(), "u_world"), 1, GL_FALSE, &identity[0][0]);
  glUseProgram(0);
  return std::move(r.program);
}

std::vector<CompactStreams> encode_meshes(const Model& model) {
  std::vector<CompactStreams> c;
  for (const Mesh& m : model.meshes) c.push_back(encode_compact(m));
  return c;
}

bool model_installed(const std::string& path) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (f != nullptr) std::fclose(f);
  return f != nullptr;
}

// The largest coordinate difference of two points in units in the last place of the reference
// point's largest coordinate (a coordinate that cancels to near 0 counts against the point's
// magnitude, the scale its rounding has).
double ulps(const glm::vec3& a, const glm::vec3& ref) {
  const float m = std::max({std::fabs(ref.x), std::fabs(ref.y), std::fabs(ref.z), 0x1p-20f});
  int e = 0;
  std::frexp(m, &e);
  const glm::dvec3 d = glm::abs(glm::dvec3(a) - glm::dvec3(ref));
  return std::max({d.x, d.y, d.z}) / std::ldexp(1.0, e - 24);
}

// The angle between two directions, in double (acos of a float cosine cannot resolve 1e-4).
double angle(const glm::vec3& a, const glm::vec3& b) {
  const glm::dvec3 x(a), y(b);
  return std::atan2(glm::length(glm::cross(x, y)), glm::dot(x, y));
}

TEST(CompactGpu, OctahedralDecodeMatchesCppOnTheAxesAndADiagonal) {
  SV_REQUIRE_GL();
  Model model = test::make_chain_model(3);
  Mesh& mesh = model.meshes[0];
  const std::vector<glm::vec3> dirs = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0},
                                       {0, 0, 1}, {0, 0, -1}, {1, 1, 1}, {-1, 2, -3}};
  ASSERT_GE(mesh.vertex_count(), dirs.size());
  for (std::size_t i = 0; i < dirs.size(); ++i) mesh.normals[i] = dirs[i];
  // One bone, weight exactly 1: the identity palette then leaves the decoded normal as it is.
  for (glm::vec4& w : mesh.weights) w = glm::vec4(1.0f, 0.0f, 0.0f, 0.0f);
  const std::vector<CompactStreams> compact = encode_meshes(model);
  gl::GpuModel gpu(model, compact);
  ASSERT_TRUE(gpu.meshes()[0].has_compact);
  const std::vector<glm::mat4> palette(mesh.skin_joints.size(), glm::mat4(1.0f));
  const std::vector<glm::mat3> normal_palette(mesh.skin_joints.size(), glm::mat3(1.0f));
  gpu.upload_palette(palette, normal_palette);
  const gl::Program program = compact_capture_program("v_model_normal");
  const auto g = test::capture_vertices<glm::vec3>(program.id(), gpu, 0, SkinMethod::Lbs, 4, true);
  ASSERT_EQ(g.size(), mesh.vertex_count());
  // Worked by hand: an axis encodes to (+-32767, 0), (0, +-32767) or (0, 0), and -z folds to
  // (32767, 32767); each decodes to the axis exactly.
  const std::vector<glm::vec3> axes = {{1, 0, 0},  {-1, 0, 0}, {0, 1, 0},
                                       {0, -1, 0}, {0, 0, 1},  {0, 0, -1}};
  for (std::size_t i = 0; i < axes.size(); ++i) {
    EXPECT_EQ(g[i], axes[i]) << i;
    EXPECT_EQ(oct_decode_raw(compact[0].normals[i]), axes[i]) << i;
  }
  EXPECT_EQ(compact[0].normals[5], 32767u | (32767u << 16));
  // (1, 1, 1): L1-normalised (1/3, 1/3, 1/3), 32767 / 3 = 10922.33: each code is 10922 or 10923
  // (the encoder takes the pair whose direction is nearest: (10923, 10922)), and the decode is
  // x = 10923 / 32767, y = 10922 / 32767 (as float: code * kOctScale), z = (1 - x) - y.
  EXPECT_EQ(compact[0].normals[6], 10923u | (10922u << 16));
  const float dx = 10923.0f * kOctScale, dy = 10922.0f * kOctScale;
  EXPECT_EQ(g[6], glm::vec3(dx, dy, (1.0f - dx) - dy));
  EXPECT_NEAR(g[6].z, 1.0f / 3.0f, 1e-4f);
  // Every vertex, the folded lower half included: the shader's decode is the C++ one, bit for
  // bit.
  for (std::size_t v = 0; v < g.size(); ++v) {
    const glm::vec3 c = oct_decode_raw(compact[0].normals[v]);
    EXPECT_EQ(std::bit_cast<uint32_t>(g[v].x), std::bit_cast<uint32_t>(c.x)) << v;
    EXPECT_EQ(std::bit_cast<uint32_t>(g[v].y), std::bit_cast<uint32_t>(c.y)) << v;
    EXPECT_EQ(std::bit_cast<uint32_t>(g[v].z), std::bit_cast<uint32_t>(c.z)) << v;
  }
  EXPECT_LT(g[7].z, 0.0f);  // (-1, 2, -3) is in the folded half
}

struct CompactAgreement {
  double reference_ulps = 0.0;             // GPU against skin_lbs_compact_reference
  double kernel_ulps = 0.0;                // GPU against skin_lbs_compact (what the window runs)
  std::size_t differing = 0;               // vertices not bit-equal to the reference
  std::size_t normal_codes_differing = 0;  // the GPU's normal against the reference's code
                                           // decoded (oct_decode_raw), float ==
  std::size_t vertices = 0;
  double normal_angle = 0.0;  // radians, GPU's normal against the kernel's decoded code
};

// Poses `model` at `fractions` of its first clip (the rest pose without one); per mesh, the GPU's
// compact output against both CPU compact kernels, with `method` (CoR: the centres computed once
// and uploaded, as the document does).
CompactAgreement compare_compact(const Model& model, std::initializer_list<float> fractions,
                                 SkinMethod method = SkinMethod::Lbs) {
  CompactAgreement a;
  const std::vector<CompactStreams> compact = encode_meshes(model);
  gl::GpuModel gpu(model, compact);
  const gl::Program positions = compact_capture_program("v_model_position");
  const gl::Program normals = compact_capture_program("v_model_normal");
  SkinnedPose pose(model);
  pose.set_compact(model, compact);
  std::vector<std::vector<glm::vec3>> centers;
  if (method == SkinMethod::Cor) {
    centers = compute_rotation_centers(model, false);
    EXPECT_EQ(centers.size(), model.meshes.size());
    for (std::size_t m = 0; m < centers.size(); ++m) gpu.upload_centers(m, centers[m]);
  }
  pose.set_skin(SkinChoice{method, centers});
  const int32_t clip = model.clips.empty() ? -1 : 0;
  pose.pose.set_clip(model, clip);
  for (float f : fractions) {
    const PoseMode mode = clip < 0 ? PoseMode::Rest : PoseMode::Clip;
    EXPECT_TRUE(pose.evaluate(model, mode, clip < 0 ? 0.0 : f * model.clips[0].duration()));
    EXPECT_TRUE(pose.skin_cpu(model, nullptr, true));
    gpu.upload_palette(pose.pose.palette(), pose.normal_palette());
    if (method != SkinMethod::Lbs) gpu.upload_method_palette(pose.method_palette());
    gpu.upload_morph_weights([&](std::size_t m) { return pose.pose.morph_weights(m); });
    for (std::size_t m = 0; m < model.meshes.size(); ++m) {
      const Mesh& mesh = model.meshes[m];
      EXPECT_TRUE(pose.compact(m)) << m;
      EXPECT_TRUE(pose.skinned_compact(m)) << m;
      EXPECT_TRUE(gpu.meshes()[m].has_compact) << m;
      const std::size_t n = mesh.vertex_count();
      const std::size_t base = pose.pose.palette_base(m), bones = mesh.skin_joints.size();
      const auto k = pose.pose.palette().subspan(base, bones);
      const auto nk = pose.normal_palette().subspan(base, bones);
      std::vector<glm::vec3> ref_p(n);
      std::vector<uint32_t> ref_n(mesh.normals.size());
      SkinPalettes pal;
      pal.palette = k;
      pal.normal_palette = nk;
      pal.method = pose.method_palette().subspan(base, bones);
      CompactSkinInput in = compact[m].input(mesh.positions);
      if (method == SkinMethod::Cor) in.centers = centers[m];
      EXPECT_TRUE(skin_compact_reference(method, pal, in, ref_p, ref_n));
      const auto g = test::capture_vertices<glm::vec3>(positions.id(), gpu, m, method, 4, true);
      const auto gn = test::capture_vertices<glm::vec3>(normals.id(), gpu, m, method, 4, true);
      const auto cpu_p = pose.skinned_positions(m);
      const auto cpu_n = pose.skinned_oct_normals(m);
      EXPECT_EQ(g.size(), n);
      for (std::size_t v = 0; v < std::min(g.size(), n); ++v) {
        ++a.vertices;
        if (g[v] != ref_p[v]) ++a.differing;
        // Compared decoded: on the square's edge (|x| = 1) two codes, (x, y) and (x, -y), are one
        // direction, and GLSL's and C++'s encoders may pick either (they differ by the sign of
        // a zero). == treats -0 and +0 as equal.
        if (v < ref_n.size() && gn[v] != oct_decode_raw(ref_n[v])) ++a.normal_codes_differing;
        a.reference_ulps = std::max(a.reference_ulps, ulps(g[v], ref_p[v]));
        a.kernel_ulps = std::max(a.kernel_ulps, ulps(g[v], cpu_p[v]));
        if (v < cpu_n.size() && glm::length(gn[v]) > 0.0f)
          a.normal_angle = std::max(a.normal_angle, angle(gn[v], oct_decode_raw(cpu_n[v])));
      }
    }
  }
  return a;
}

void expect_agreement(const CompactAgreement& a, const std::string& what,
                      double kernel_ulps_bound = 16.0) {
  EXPECT_GT(a.vertices, 0u) << what;
  std::printf(
      "%s: %zu vertices, %zu positions and %zu normal codes not equal to the reference's; "
      "worst %.1f ulps against the SIMD kernel, normal %.2e rad\n",
      what.c_str(), a.vertices, a.differing, a.normal_codes_differing, a.kernel_ulps,
      a.normal_angle);
  // The reference loop: the same operations in the same order as skin.vert, so exactly equal
  // (llvmpipe; a driver that honours `precise`, common.vert).
  EXPECT_EQ(a.differing, 0u) << what;
  EXPECT_EQ(a.reference_ulps, 0.0) << what;
  EXPECT_EQ(a.normal_codes_differing, 0u) << what;
  // The SIMD kernels fuse multiply-adds and sum in another order (LBS on AVX2: each vertex's
  // matrix blended from differences to bone 0): LBS measured up to 8 ulps of the vertex's largest
  // coordinate on these models (animation_with_skeleton.fbx; 6 on BCN_Epileptic), bounded at 16;
  // DQS and CoR bounded by the caller (kMethodKernelUlps).
  EXPECT_LE(a.kernel_ulps, kernel_ulps_bound) << what;
  // Their octahedral code against the GPU's: where the two sums differ in the last bits, a
  // neighbouring code (one step of the code grid, below 1e-4 rad).
  EXPECT_LE(a.normal_angle, 1e-4) << what;
}

TEST(CompactGpu, DefaultCharacterMatchesTheCompactKernels) {
  SV_REQUIRE_GL();
  ImportResult r = import_model(std::string(SKINVIEW_SOURCE_DIR) + "/assets/default.glb");
  ASSERT_TRUE(r.ok()) << r.error;
  expect_agreement(compare_compact(*r.model, {0.1f, 0.5f, 0.9f}), "default.glb");
}

TEST(CompactGpu, WideJointIndicesMatchTheCompactKernels) {
  // 1,000 joints: the compact streams keep u16 joints (GL_UNSIGNED_SHORT on the compact array).
  SV_REQUIRE_GL();
  const Model model = test::make_chain_model(1000, 0.01f);
  ASSERT_FALSE(encode_compact(model.meshes[0]).narrow_joints());
  expect_agreement(compare_compact(model, {0.0f, 0.5f, 0.9f}), "1000-joint chain");
}

class CompactRealModel : public ::testing::TestWithParam<const char*> {};

TEST_P(CompactRealModel, GpuMatchesTheCompactKernels) {
  SV_REQUIRE_GL();
  const std::string path = std::string(SKINVIEW_TEST_MODELS) + "/" + GetParam();
  if (!model_installed(path))
    GTEST_SKIP() << path << " not installed (Debian package assimp-testmodels)";
  ImportResult r = import_model(path);
  ASSERT_TRUE(r.ok()) << r.error;
  expect_agreement(compare_compact(*r.model, {0.1f, 0.5f, 0.9f}), GetParam());
}

// DQS and CoR on the compact streams (skin_compact; skin.vert's skin_method_compact): the GPU's
// positions and normal codes equal skin_compact_reference's exactly; the vector kernels within
// the bound below of them (they normalise the blended rotation with a refined reciprocal square
// root, fuse products and sum in another order).
constexpr double kMethodKernelUlps = 64.0;  // measured up to 24 (BCN_Epileptic, DQS)

TEST(CompactGpu, DefaultCharacterDqsAndCorMatchTheCompactKernels) {
  SV_REQUIRE_GL();
  ImportResult r = import_model(std::string(SKINVIEW_SOURCE_DIR) + "/assets/default.glb");
  ASSERT_TRUE(r.ok()) << r.error;
  for (const SkinMethod method : {SkinMethod::Dqs, SkinMethod::Cor})
    expect_agreement(compare_compact(*r.model, {0.1f, 0.5f, 0.9f}, method),
                     std::string("default.glb ") + skin_method_label(method), kMethodKernelUlps);
}

TEST(CompactGpu, WideJointIndicesDqsAndCorMatchTheCompactKernels) {
  SV_REQUIRE_GL();
  const Model model = test::make_chain_model(1000, 0.01f);
  for (const SkinMethod method : {SkinMethod::Dqs, SkinMethod::Cor})
    expect_agreement(compare_compact(model, {0.0f, 0.5f, 0.9f}, method),
                     std::string("1000-joint chain ") + skin_method_label(method),
                     kMethodKernelUlps);
}

TEST_P(CompactRealModel, GpuDqsAndCorMatchTheCompactKernels) {
  SV_REQUIRE_GL();
  const std::string path = std::string(SKINVIEW_TEST_MODELS) + "/" + GetParam();
  if (!model_installed(path))
    GTEST_SKIP() << path << " not installed (Debian package assimp-testmodels)";
  ImportResult r = import_model(path);
  ASSERT_TRUE(r.ok()) << r.error;
  for (const SkinMethod method : {SkinMethod::Dqs, SkinMethod::Cor})
    expect_agreement(compare_compact(*r.model, {0.1f, 0.5f, 0.9f}, method),
                     std::string(GetParam()) + " " + skin_method_label(method), kMethodKernelUlps);
}

INSTANTIATE_TEST_SUITE_P(AssimpTestModels, CompactRealModel,
                         ::testing::Values("X/BCN_Epileptic.X", "X/Testwuson.X", "FBX/huesitos.fbx",
                                           "FBX/animation_with_skeleton.fbx",
                                           "glTF2/simple_skin/simple_skin.gltf", "X/anim_test.x",
                                           "MD5/SimpleCube.md5mesh"));

// Guards the comparisons above against a shader that reads the float buffer: weights changed in
// the compact streams only move the compact draw, and the float draw stays where it was.
TEST(CompactGpu, TheCompactArrayReallyFeedsTheShader) {
  SV_REQUIRE_GL();
  const Model model = test::make_chain_model(3);
  std::vector<CompactStreams> compact = encode_meshes(model);
  for (glm::vec3& w : compact[0].weights) w = glm::vec3(w.y, w.x, w.z);  // swap the two bones
  gl::GpuModel gpu(model, compact);
  SkinnedPose pose(model);
  pose.pose.set_clip(model, 0);
  ASSERT_TRUE(pose.evaluate(model, PoseMode::Clip, 0.5));
  gpu.upload_palette(pose.pose.palette(), pose.normal_palette());
  const gl::Program program = compact_capture_program("v_model_position");
  const auto as_float =
      test::capture_vertices<glm::vec3>(program.id(), gpu, 0, SkinMethod::Lbs, 4, false);
  const auto as_compact =
      test::capture_vertices<glm::vec3>(program.id(), gpu, 0, SkinMethod::Lbs, 4, true);
  std::vector<glm::vec3> cpu(model.meshes[0].vertex_count());
  const Mesh& mesh = model.meshes[0];
  ASSERT_TRUE(skin_lbs_reference(pose.pose.palette(), {},
                                 SkinInput{mesh.positions, {}, mesh.joints, mesh.weights, -1}, cpu,
                                 {}));
  float moved = 0.0f, float_off = 0.0f;
  for (std::size_t v = 0; v < cpu.size(); ++v) {
    moved = std::max(moved, glm::length(as_compact[v] - as_float[v]));
    float_off = std::max(float_off, glm::length(as_float[v] - cpu[v]));
  }
  EXPECT_GT(moved, 0.01f);
  EXPECT_LE(float_off, 1e-5f);
}

}  // namespace
}  // namespace sv
