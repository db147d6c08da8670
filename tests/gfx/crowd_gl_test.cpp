// Crowds on the GPU (gfx/crowd_gpu.h, shaders/skin.vert "Crowds"): one instanced draw of a mesh
// puts every instance where the single model would be, translated by its placement. skin.vert's
// gl_Position (with an identity view-projection: the world position) is captured with transform
// feedback for the instanced draw and for the single model's ordinary draw, and compared vertex
// by vertex, instance by instance; v_model_position (before placement) is compared too.
#include <vector>

#include <gtest/gtest.h>
#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/type_ptr.hpp>

#include "anim/model.h"
#include "gfx/camera.h"
#include "gfx/crowd_gpu.h"
#include "gfx/gpu_model.h"
#include "gfx/shader.h"
#include "gl_context.h"
#include "skin/crowd.h"
#include "skin/skinned_pose.h"
#include "synthetic_models.h"

namespace sv {
namespace {

struct Captured {
  glm::vec4 position;  // gl_Position: world space (u_view_proj is the identity)
  glm::vec3 model;     // v_model_position
};

gl::Program capture_program() {
  gl::ProgramResult r = gl::build_program({{"common.vert", "skin.vert"},
                                           {"mesh.frag"},
                                           gl::skin_program_defines(),
                                           {"gl_Position", "v_model_position"}});
  EXPECT_TRUE(r.ok()) << r.error;
  return std::move(r.program);
}

// Runs skin.vert over mesh 0's vertices `instances` times (an instanced draw when `crowd`),
// reading back every vertex of every instance, instance after instance.
std::vector<Captured> capture(GLuint program, const gl::GpuModel& gpu, const gl::CrowdGpu* crowd,
                              const glm::mat4& world) {
  const gl::GpuMesh& mesh = gpu.meshes()[0];
  const std::size_t instances = crowd != nullptr ? crowd->instances() : 1;
  const std::size_t n = static_cast<std::size_t>(mesh.vertex_count) * instances;
  gl::Buffer out = gl::Buffer::create();
  glBindBuffer(GL_TRANSFORM_FEEDBACK_BUFFER, out.id());
  glBufferData(GL_TRANSFORM_FEEDBACK_BUFFER, static_cast<GLsizeiptr>(n * sizeof(Captured)), nullptr,
               GL_STREAM_READ);
  glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 0, out.id());
  glUseProgram(program);
  const glm::mat4 identity(1.0f);
  glUniformMatrix4fv(glGetUniformLocation(program, "u_view_proj"), 1, GL_FALSE,
                     glm::value_ptr(identity));
  glUniformMatrix4fv(glGetUniformLocation(program, "u_world"), 1, GL_FALSE, glm::value_ptr(world));
  glUniform1i(glGetUniformLocation(program, "u_palette_base"), mesh.palette_base);
  glUniform1i(glGetUniformLocation(program, "u_palette"), gl::kPaletteUnit);
  glUniform1i(glGetUniformLocation(program, "u_normal_palette"), gl::kNormalPaletteUnit);
  glUniform1i(glGetUniformLocation(program, "u_method_palette"), gl::kMethodPaletteUnit);
  glUniform1i(glGetUniformLocation(program, "u_method"), 0);
  glUniform1i(glGetUniformLocation(program, "u_crowd_records"),
              crowd != nullptr ? crowd->records_uniform() : 0);
  if (crowd != nullptr) {
    crowd->bind();
  } else {
    gl::bind_palettes(gpu);
  }
  glBindVertexArray(gpu.vertex_array(0, true, false));
  glEnable(GL_RASTERIZER_DISCARD);
  glBeginTransformFeedback(GL_POINTS);
  glDrawArraysInstanced(GL_POINTS, 0, mesh.vertex_count, static_cast<GLsizei>(instances));
  glEndTransformFeedback();
  glDisable(GL_RASTERIZER_DISCARD);
  glBindVertexArray(0);
  std::vector<Captured> result(n);
  glGetBufferSubData(GL_TRANSFORM_FEEDBACK_BUFFER, 0, static_cast<GLsizeiptr>(n * sizeof(Captured)),
                     result.data());
  glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 0, 0);
  EXPECT_EQ(glGetError(), static_cast<GLenum>(GL_NO_ERROR));
  return result;
}

// The single model at `time` of clip 0, drawn at `world`.
std::vector<Captured> single_model(GLuint program, const Model& model, gl::GpuModel& gpu,
                                   double time, const glm::mat4& world) {
  SkinnedPose animator(model);
  animator.pose.set_clip(model, 0);
  EXPECT_TRUE(animator.evaluate(model, PoseMode::Clip, time));
  gpu.upload_palette(animator.pose.palette(), animator.normal_palette());
  return capture(program, gpu, nullptr, world);
}

void expect_instances_are_single_model_translated(bool shared, bool z_up) {
  const Model model = test::make_chain_model(4);
  gl::GpuModel gpu(model);
  const gl::Program program = capture_program();
  const glm::mat4 up = up_axis_matrix(z_up);
  CrowdSettings s;
  s.count = 2;
  s.spacing = 3.0f;
  s.random_phases = false;  // both instances at the same time
  s.shared = shared;
  Crowd crowd;
  ASSERT_EQ(crowd.configure(model, s, 0), "");
  ASSERT_EQ(crowd.groups(), shared ? 1u : 2u);
  const double time = 0.4;
  ASSERT_TRUE(crowd.evaluate(model, time, SkinMethod::Lbs));
  gl::CrowdGpu crowd_gpu;
  ASSERT_EQ(crowd_gpu.resize(crowd.instances(), crowd.groups(), crowd.bones()), "");
  crowd_gpu.upload(crowd, up, SkinMethod::Lbs);
  const std::vector<Captured> many = capture(program.id(), gpu, &crowd_gpu, glm::mat4(1.0f));
  const std::vector<Captured> one = single_model(program.id(), model, gpu, time, up);
  const std::size_t n = one.size();
  ASSERT_EQ(many.size(), 2 * n);
  // Instance 0 at the origin, instance 1 one spacing along -x and +z (the first ring's first cell).
  const glm::vec3 offsets[2] = {glm::vec3(0.0f), glm::vec3(-3.0f, 0.0f, 3.0f)};
  for (std::size_t i = 0; i < 2; ++i) {
    EXPECT_EQ(crowd.placements()[i], offsets[i]);
    for (std::size_t v = 0; v < n; ++v) {
      const Captured& c = many[i * n + v];
      const glm::vec3 expected = glm::vec3(one[v].position) + offsets[i];
      for (int k = 0; k < 3; ++k)
        EXPECT_NEAR(c.position[k], expected[k], 1e-5f) << "instance " << i << " vertex " << v;
      EXPECT_EQ(c.position.w, 1.0f);
      for (int k = 0; k < 3; ++k) EXPECT_NEAR(c.model[k], one[v].model[k], 1e-6f);
    }
  }
  // The pose really moved the mesh (the comparison is not between two bind poses).
  float moved = 0.0f;
  for (std::size_t v = 0; v < n; ++v)
    moved = std::max(moved, glm::length(one[v].model - model.meshes[0].positions[v]));
  EXPECT_GT(moved, 0.05f);
}

TEST(CrowdGl, TwoInstancesInStepAreTheSingleModelTranslated) {
  SV_REQUIRE_GL();
  expect_instances_are_single_model_translated(false, false);
}

TEST(CrowdGl, SharedPaletteAndZUp) {
  SV_REQUIRE_GL();
  expect_instances_are_single_model_translated(true, true);
}

// Out of phase: each instance reads its own group's palette (the palette base from its record).
TEST(CrowdGl, EachInstanceReadsItsOwnPalette) {
  SV_REQUIRE_GL();
  const Model model = test::make_chain_model(4);
  gl::GpuModel gpu(model);
  const gl::Program program = capture_program();
  CrowdSettings s;
  s.count = 3;
  s.spacing = 2.0f;
  s.seed = 3;
  Crowd crowd;
  ASSERT_EQ(crowd.configure(model, s, 0), "");
  ASSERT_TRUE(crowd.evaluate(model, 0.25, SkinMethod::Lbs));
  gl::CrowdGpu crowd_gpu;
  ASSERT_EQ(crowd_gpu.resize(crowd.instances(), crowd.groups(), crowd.bones()), "");
  crowd_gpu.upload(crowd, glm::mat4(1.0f), SkinMethod::Lbs);
  const std::vector<Captured> many = capture(program.id(), gpu, &crowd_gpu, glm::mat4(1.0f));
  for (std::size_t i = 0; i < 3; ++i) {
    const double t = crowd.group_time(crowd.instance_groups()[i]);
    const std::vector<Captured> one = single_model(program.id(), model, gpu, t, glm::mat4(1.0f));
    const std::size_t n = one.size();
    for (std::size_t v = 0; v < n; ++v) {
      const glm::vec3 expected = glm::vec3(one[v].position) + crowd.placements()[i];
      for (int k = 0; k < 3; ++k)
        EXPECT_NEAR(many[i * n + v].position[k], expected[k], 1e-5f)
            << "instance " << i << " vertex " << v;
    }
  }
}

// Back-face culling in a crowd (gfx/face_culling.h): CrowdGpu::mirrors says, per mesh's bone
// range, whether that bone mirrors in any palette group. Mesh 0 rides joint 1, scaled -1 on x
// (its palette bone 0 mirrors); mesh 1 rides joint 2, scaled 2 (bone 1 does not).
TEST(CrowdGl, MirrorsNamesTheMeshesWhoseBonesMirror) {
  SV_REQUIRE_GL();
  Model m;
  m.skeleton.names = {"root", "mirrored", "plain"};
  m.skeleton.parents = {kNoParent, 0, 0};
  m.skeleton.rest.resize(3);
  m.skeleton.rest[1].scale = {-1.0f, 1.0f, 1.0f};
  m.skeleton.rest[2].scale = glm::vec3(2.0f);
  m.skeleton.inverse_bind.assign(3, glm::mat4(1.0f));
  m.skeleton.is_bone = {1, 1, 1};
  for (const int32_t joint : {1, 2}) {
    Mesh q;
    q.name = m.skeleton.names[static_cast<std::size_t>(joint)];
    q.node = joint;
    q.positions = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
    q.normals.assign(3, glm::vec3(0, 0, 1));
    q.joints.assign(3, glm::u16vec4(0));
    q.weights.assign(3, glm::vec4(1, 0, 0, 0));
    q.vertex_flags.assign(3, 0);
    q.indices = {0, 1, 2};
    q.skin_joints = {joint};
    q.inverse_bind = {glm::mat4(1.0f)};
    q.max_influences = 1;
    m.meshes.push_back(std::move(q));
  }
  ASSERT_EQ(m.validate(), "");
  CrowdSettings s;
  s.count = 3;
  s.random_phases = false;
  Crowd crowd;
  ASSERT_EQ(crowd.configure(m, s, kRestPose), "");
  ASSERT_TRUE(crowd.evaluate(m, 0.0, SkinMethod::Lbs));
  ASSERT_EQ(crowd.bones(), 2u);
  gl::CrowdGpu crowd_gpu;
  ASSERT_EQ(crowd_gpu.resize(crowd.instances(), crowd.groups(), crowd.bones()), "");
  EXPECT_TRUE(crowd_gpu.mirrors(1, 1)) << "before an upload nothing is known: both sides";
  crowd_gpu.upload(crowd, glm::mat4(1.0f), SkinMethod::Lbs);
  EXPECT_TRUE(crowd_gpu.mirrors(0, 1));   // mesh 0
  EXPECT_FALSE(crowd_gpu.mirrors(1, 1));  // mesh 1
  EXPECT_TRUE(crowd_gpu.mirrors(0, 2));
  EXPECT_TRUE(crowd_gpu.mirrors(1, 2)) << "past the bones: both sides";
}

}  // namespace
}  // namespace sv
