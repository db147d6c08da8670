// Morph targets on the GPU equal the CPU's, measured on skin.vert's real output (transform
// feedback): a morph-only mesh from a real file (AnimatedMorphCube, its clip at several times)
// and a skinned chain with three targets (one of zero deltas, at full weight) under every
// skinning method, positions and normals. And the guards that keep the comparison honest: the
// GPU's morphed vertices really moved, and a zero-delta target at full weight changes nothing.
#include <algorithm>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "anim/model.h"
#include "gfx/gpu_model.h"
#include "gfx/shader.h"
#include "gl_context.h"
#include "io/import.h"
#include "skin/rotation_centers.h"
#include "skin/skinned_pose.h"
#include "synthetic_models.h"
#include "vertex_capture.h"

namespace sv {
namespace {

gl::Program capture_program(const char* varying) {
  gl::ProgramResult r = gl::build_program(
      {{"common.vert", "skin.vert"}, {"mesh.frag"}, gl::skin_program_defines(), {varying}});
  EXPECT_TRUE(r.ok()) << r.error;
  const glm::mat4 identity(1.0f);
  glUseProgram(r.program.id());
  glUniformMatrix4fv(glGetUniformLocation(r.program.id(), "u_world"), 1, GL_FALSE, &identity[0][0]);
  return std::move(r.program);
}

struct Worst {
  float position = 0.0f;  // over the bounding-box diagonal
  float normal = 0.0f;    // between unit normals
};

// The animator's current pose uploaded and captured, against its CPU skinning.
Worst compare(const Model& model, SkinnedPose& animator, gl::GpuModel& gpu, SkinMethod method,
              const gl::Program& positions, const gl::Program& normals) {
  EXPECT_TRUE(animator.skin_cpu(model));
  gpu.upload_palette(animator.pose.palette(), animator.normal_palette());
  gpu.upload_method_palette(animator.method_palette());
  gpu.upload_morph_weights([&](std::size_t m) { return animator.pose.morph_weights(m); });
  Bounds bounds;
  for (std::size_t m = 0; m < model.meshes.size(); ++m)
    for (const glm::vec3& p : animator.skinned_positions(m)) bounds.add(p);
  Worst w;
  for (std::size_t m = 0; m < model.meshes.size(); ++m) {
    const auto gp = test::capture_vertices<glm::vec3>(positions.id(), gpu, m, method);
    const auto gn = test::capture_vertices<glm::vec3>(normals.id(), gpu, m, method);
    const auto cp = animator.skinned_positions(m);
    const auto cn = animator.skinned_normals(m);
    EXPECT_EQ(gp.size(), cp.size());
    for (std::size_t v = 0; v < std::min(gp.size(), cp.size()); ++v) {
      w.position = std::max(w.position, glm::length(gp[v] - cp[v]) / bounds.diagonal());
      if (glm::length(gn[v]) > 0.0f && v < cn.size())
        w.normal = std::max(w.normal, glm::length(glm::normalize(gn[v]) - cn[v]));
    }
  }
  return w;
}

TEST(GpuMorphs, AnimatedMorphCubeMatchesCpu) {
  SV_REQUIRE_GL();
  const std::string path =
      std::string(SKINVIEW_TEST_MODELS) +
      "/glTF2/glTF-Sample-Models/AnimatedMorphCube-glTF/AnimatedMorphCube.gltf";
  ImportResult r = import_model(path);
  ASSERT_TRUE(r.ok()) << r.error;
  const Model& model = *r.model;
  ASSERT_EQ(model.meshes[0].morph_targets.size(), 2u);
  const gl::Program positions = capture_program("v_model_position");
  const gl::Program normals = capture_program("v_world_normal");
  gl::GpuModel gpu(model);
  SkinnedPose animator(model);
  animator.pose.set_clip(model, 0);
  for (const double t : {0.0, 0.7, 2.1, 3.9}) {
    ASSERT_TRUE(animator.evaluate(model, PoseMode::Clip, t));
    const Worst w = compare(model, animator, gpu, SkinMethod::Lbs, positions, normals);
    EXPECT_LE(w.position, 1e-5f) << "t " << t;
    EXPECT_LE(w.normal, 1e-4f) << "t " << t;
  }
  // The GPU's vertices at 2.1 s (both targets weigh) are not the unmorphed ones.
  ASSERT_TRUE(animator.evaluate(model, PoseMode::Clip, 2.1));
  gpu.upload_palette(animator.pose.palette(), animator.normal_palette());
  gpu.upload_morph_weights([&](std::size_t m) { return animator.pose.morph_weights(m); });
  const auto morphed = test::capture_vertices<glm::vec3>(positions.id(), gpu, 0);
  gpu.upload_morph_weights([](std::size_t) { return std::span<const float>(); });  // none
  const auto plain = test::capture_vertices<glm::vec3>(positions.id(), gpu, 0);
  float moved = 0.0f;
  for (std::size_t v = 0; v < morphed.size(); ++v)
    moved = std::max(moved, glm::length(morphed[v] - plain[v]));
  EXPECT_GT(moved, 0.5f);  // the cube is 2 units wide; a target moves a face by ~1.9
}

// The 3-joint chain with three targets on its skinned mesh: "bulge" (x outwards, with normal
// deltas), "zero" (all deltas 0) and "lift" (+y on every other vertex).
Model chain_with_targets() {
  Model model = test::make_chain_model(3);
  Mesh& mesh = model.meshes[0];
  const std::size_t n = mesh.vertex_count();
  MorphTarget bulge, zero, lift;
  bulge.name = "bulge";
  zero.name = "zero";
  lift.name = "lift";
  for (std::size_t v = 0; v < n; ++v) {
    bulge.position_deltas.push_back(0.2f * glm::vec3(mesh.positions[v].x, 0, mesh.positions[v].z));
    bulge.normal_deltas.push_back({0.3f, 0.0f, 0.0f});
    zero.position_deltas.push_back(glm::vec3(0.0f));
    zero.normal_deltas.push_back(glm::vec3(0.0f));
    lift.position_deltas.push_back(v % 2 ? glm::vec3(0, 0.25f, 0) : glm::vec3(0.0f));
  }
  mesh.morph_targets = {bulge, zero, lift};
  EXPECT_EQ(model.validate(), "");
  return model;
}

TEST(GpuMorphs, SkinnedChainWithTargetsMatchesCpuUnderEveryMethod) {
  SV_REQUIRE_GL();
  const Model model = chain_with_targets();
  const gl::Program positions = capture_program("v_model_position");
  const gl::Program normals = capture_program("v_world_normal");
  gl::GpuModel gpu(model);
  const auto centers = compute_rotation_centers(model, false);
  for (std::size_t m = 0; m < centers.size(); ++m) gpu.upload_centers(m, centers[m]);
  SkinnedPose animator(model);
  animator.pose.set_clip(model, 0);
  animator.pose.set_morph_override(0, 0, 0.8f);
  animator.pose.set_morph_override(0, 1, 1.0f);
  animator.pose.set_morph_override(0, 2, -0.5f);
  for (SkinMethod method : kSkinMethods) {
    animator.set_skin(SkinChoice{method, centers});
    for (const double f : {0.2, 0.7}) {
      ASSERT_TRUE(animator.evaluate(model, PoseMode::Clip, f * model.clips[0].duration()));
      const Worst w = compare(model, animator, gpu, method, positions, normals);
      EXPECT_LE(w.position, 1e-5f) << skin_method_label(method) << " " << f;
      EXPECT_LE(w.normal, 1e-4f) << skin_method_label(method) << " " << f;
    }
  }
}

// A target with zero deltas at full weight: the GPU's output is bit for bit what it is without it.
TEST(GpuMorphs, AZeroDeltaTargetChangesNothing) {
  SV_REQUIRE_GL();
  const Model model = chain_with_targets();
  const gl::Program positions = capture_program("v_model_position");
  gl::GpuModel gpu(model);
  SkinnedPose animator(model);
  animator.pose.set_clip(model, 0);
  ASSERT_TRUE(animator.evaluate(model, PoseMode::Clip, 0.5));
  gpu.upload_palette(animator.pose.palette(), animator.normal_palette());
  const float zero_only[3] = {0.0f, 1.0f, 0.0f};
  gpu.upload_morph_weights([&](std::size_t) { return std::span<const float>(zero_only); });
  ASSERT_EQ(gpu.meshes()[0].morph_count, 1);
  const auto with_zero = test::capture_vertices<glm::vec3>(positions.id(), gpu, 0);
  const float none[3] = {0.0f, 0.0f, 0.0f};
  gpu.upload_morph_weights([&](std::size_t) { return std::span<const float>(none); });
  ASSERT_EQ(gpu.meshes()[0].morph_count, 0);
  const auto without = test::capture_vertices<glm::vec3>(positions.id(), gpu, 0);
  EXPECT_EQ(with_zero, without);
  // And on the CPU.
  animator.pose.set_morph_override(0, 1, 1.0f);
  ASSERT_TRUE(animator.evaluate(model, PoseMode::Clip, 0.5));
  ASSERT_TRUE(animator.skin_cpu(model));
  const std::vector<glm::vec3> cpu_zero(animator.skinned_positions(0).begin(),
                                        animator.skinned_positions(0).end());
  animator.pose.set_morph_override(0, 1, 0.0f);
  ASSERT_TRUE(animator.evaluate(model, PoseMode::Clip, 0.5));
  ASSERT_TRUE(animator.skin_cpu(model));
  EXPECT_TRUE(std::equal(cpu_zero.begin(), cpu_zero.end(), animator.skinned_positions(0).begin()));
}

}  // namespace
}  // namespace sv
