// The window's frame skins from the document's compact streams on both paths (issue 25,
// deliverable 3): a scene builds them at load, run_frame's CPU path skins every mesh where
// SkinnedPose::compact() holds from them (any method, 4 influences, no morph weight) and the GPU
// path draws the same streams; elsewhere (8 influences on a mesh that keeps them, a morph weight)
// both take the float streams. Checked on a mesh bound rigidly to one joint turned 90 degrees
// about +z, whose skinned normals are known by hand: R (x, y, z) = (-y, x, z).
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <glm/gtc/quaternion.hpp>

#include "app/frame.h"
#include "app/viewer_scene.h"
#include "gfx/shader.h"
#include "gl_context.h"
#include "io/import.h"
#include "skin/compact_streams.h"
#include "synthetic_models.h"
#include "vertex_capture.h"

namespace sv {
namespace {

// The frames compute_frame (app/frame.h) runs here: the pipeline's own, not drawn.
FrameState frames;

// The turn's image of a direction, by hand.
glm::vec3 quarter_turn(const glm::vec3& n) { return {-n.y, n.x, n.z}; }

// The angle between two directions, in double (acos of a float cosine cannot resolve 1e-5).
double angle(const glm::vec3& a, const glm::vec3& b) {
  const glm::dvec3 x(a), y(b);
  return std::atan2(glm::length(glm::cross(x, y)), glm::dot(x, y));
}

// compact_streams.h's bound for a normal the kernels round (oct_encode), in radians.
constexpr double kOctRoundBound = 6.3e-5;

// The 2-joint chain (tests/gfx/synthetic_models.h) with every vertex bound to joint 0 alone and
// given a normal of its own (both hemispheres, the fold's edge, off-axis), and one clip that
// holds joint 0 turned 90 degrees about +z: K_0 is that rotation, exactly up to the quaternion's
// rounding (~1e-7).
Model quarter_turn_model() {
  Model m = test::make_chain_model(2);
  Mesh& mesh = m.meshes[0];
  const std::vector<glm::vec3> normals = {{1, 0, 0},  {0, 0, 1},     {0, 0, -1},
                                          {1, 1, 1},  {-1, 2, -3},   {0.3f, -0.5f, 0.8f},
                                          {0, 1, -1}, {-2, -1, 0.5f}};
  EXPECT_EQ(mesh.vertex_count(), normals.size());
  std::vector<glm::vec3> unit;
  for (const glm::vec3& n : normals) unit.push_back(glm::normalize(n));
  mesh.normals = unit;
  mesh.joints = std::vector<glm::u16vec4>(mesh.vertex_count(), glm::u16vec4(0));
  mesh.weights = std::vector<glm::vec4>(mesh.vertex_count(), glm::vec4(1, 0, 0, 0));
  mesh.max_joint = 0;  // joint 1 stays in the skin, weighing on nothing
  Clip turn;
  turn.name = "turn";
  turn.duration = 1.0f;
  JointChannel c;
  c.joint = 0;
  const glm::quat q = glm::angleAxis(glm::radians(90.0f), glm::vec3(0, 0, 1));
  c.rotation.times = {0.0, 1.0};
  c.rotation.values = {q, q};
  turn.channels.push_back(std::move(c));
  m.clips.clear();
  m.clips.emplace_back();
  EXPECT_EQ(m.clips.back().build(turn, m.skeleton), "");
  return m;
}

std::unique_ptr<Scene> scene_of(Model model) {
  ImportResult r;
  r.model = std::move(model);
  std::unique_ptr<Scene> scene;
  EXPECT_EQ(adopt_scene(std::move(r), "quarter_turn", &scene), "");
  if (scene) scene->play.player.clip = 0;
  return scene;
}

gl::Program normal_capture_program(const char* varying) {
  gl::ProgramResult r = gl::build_program(
      {{"common.vert", "skin.vert"}, {"mesh.frag"}, gl::skin_program_defines(), {varying}});
  EXPECT_TRUE(r.ok()) << r.error;
  const glm::mat4 identity(1.0f);
  glUseProgram(r.program.id());
  glUniformMatrix4fv(glGetUniformLocation(r.program.id(), "u_world"), 1, GL_FALSE, &identity[0][0]);
  glUseProgram(0);
  return std::move(r.program);
}

TEST(CompactFrame, BothPathsSkinFromTheDocumentsCompactStreams) {
  SV_REQUIRE_GL();
  std::unique_ptr<Scene> scene = scene_of(quarter_turn_model());
  ASSERT_TRUE(scene);
  const Mesh& mesh = scene->doc.model.meshes[0];
  // Built once at load: the document's streams, and the GPU's copy of them.
  ASSERT_EQ(scene->doc.compact.size(), 1u);
  EXPECT_EQ(scene->doc.compact[0].normals.size(), mesh.vertex_count());
  ASSERT_TRUE(scene->gpu.meshes()[0].has_compact);

  // The CPU path: positions and octahedral normals from the compact streams.
  RenderOptions cpu;
  cpu.gpu_skinning = false;
  compute_frame(*scene, cpu, frames);
  const SkinnedPose& pose = scene->frame.animator;
  EXPECT_TRUE(pose.compact(0));
  ASSERT_TRUE(pose.skinned_compact(0));
  const auto codes = pose.skinned_oct_normals(0);
  const auto positions = pose.skinned_positions(0);
  ASSERT_EQ(codes.size(), mesh.vertex_count());
  for (std::size_t v = 0; v < mesh.vertex_count(); ++v) {
    EXPECT_LE(angle(oct_decode(codes[v]), quarter_turn(mesh.normals[v])), kOctRoundBound) << v;
    EXPECT_LE(glm::length(positions[v] - quarter_turn(mesh.positions[v])), 1e-6f) << v;
  }

  // The GPU path draws the same streams, and its normal is exactly the CPU's code decoded
  // (skin.vert rounds its normal through the same code), shaded unit: the direction the CPU
  // path's mesh.vert shades, to float rounding (1e-6 rad, against ~2e-5 between two codes).
  RenderOptions gpu;
  compute_frame(*scene, gpu, frames);
  EXPECT_TRUE(pose.compact(0));
  scene->gpu.upload_palette(pose.pose.palette(), pose.normal_palette());
  const gl::Program raw_program = normal_capture_program("v_model_normal");
  const gl::Program shaded_program = normal_capture_program("v_world_normal");
  const auto raw = test::capture_vertices<glm::vec3>(raw_program.id(), scene->gpu, 0,
                                                     SkinMethod::Lbs, 4, pose.compact(0));
  const auto shaded = test::capture_vertices<glm::vec3>(shaded_program.id(), scene->gpu, 0,
                                                        SkinMethod::Lbs, 4, pose.compact(0));
  ASSERT_EQ(raw.size(), mesh.vertex_count());
  ASSERT_EQ(shaded.size(), mesh.vertex_count());
  for (std::size_t v = 0; v < mesh.vertex_count(); ++v) {
    EXPECT_EQ(raw[v], oct_decode_raw(codes[v])) << v;
    EXPECT_LE(angle(shaded[v], oct_decode_raw(codes[v])), 1e-6) << v;
    EXPECT_NEAR(glm::length(shaded[v]), 1.0f, 1e-6f) << v;
  }
}

// The scene's GpuModel is built before the document moves into the scene (make_scene) and makes
// its float and streamed buffers at their first use (gfx/gpu_model.h) from the document's meshes:
// after the move they are read where the document keeps them (the sanitizer build checks the
// reads). At the turn, the float path's skinned positions are the turn's image of the bind
// positions, and the streamed buffer starts as the bind pose.
TEST(CompactFrame, TheScenesFirstUseUploadsReadTheDocumentsMeshes) {
  SV_REQUIRE_GL();
  std::unique_ptr<Scene> scene = scene_of(quarter_turn_model());
  ASSERT_TRUE(scene);
  const Mesh& mesh = scene->doc.model.meshes[0];
  const gl::GpuMesh& g = scene->gpu.meshes()[0];
  ASSERT_TRUE(g.has_compact);
  EXPECT_EQ(g.float_vertices.id(), 0u);  // the compact GPU path needs none
  EXPECT_EQ(g.stream_vertices.id(), 0u);
  RenderOptions gpu;
  compute_frame(*scene, gpu, frames);
  const SkinnedPose& pose = scene->frame.animator;
  scene->gpu.upload_palette(pose.pose.palette(), pose.normal_palette());
  const gl::Program program = normal_capture_program("v_model_position");
  const auto got =
      test::capture_vertices<glm::vec3>(program.id(), scene->gpu, 0, SkinMethod::Lbs, 4, false);
  EXPECT_NE(g.float_vertices.id(), 0u);
  ASSERT_EQ(got.size(), mesh.vertex_count());
  for (std::size_t v = 0; v < mesh.vertex_count(); ++v)
    EXPECT_LE(glm::length(got[v] - quarter_turn(mesh.positions[v])), 1e-6f) << v;
  EXPECT_NE(scene->gpu.vertex_array(0, false, false), 0u);
  ASSERT_NE(g.stream_vertices.id(), 0u);
  std::vector<glm::vec3> stream(2 * mesh.vertex_count());
  glBindBuffer(GL_ARRAY_BUFFER, g.stream_vertices.id());
  glGetBufferSubData(GL_ARRAY_BUFFER, 0, static_cast<GLsizeiptr>(stream.size() * 12),
                     stream.data());
  glBindBuffer(GL_ARRAY_BUFFER, 0);
  for (std::size_t v = 0; v < mesh.vertex_count(); ++v) {
    EXPECT_EQ(stream[v], mesh.positions[v]) << v;
    EXPECT_EQ(stream[mesh.vertex_count() + v], mesh.normals[v]) << v;
  }
  EXPECT_EQ(glGetError(), static_cast<GLenum>(GL_NO_ERROR));
}

TEST(CompactFrame, TheFloatStreamsServeWhereCompactDoesNotApply) {
  SV_REQUIRE_GL();
  Model model = quarter_turn_model();
  Mesh& mesh = model.meshes[0];
  // A second set of influences (all zero: the 8 largest are the 4).
  mesh.joints2 = std::vector<glm::u16vec4>(mesh.vertex_count(), glm::u16vec4(0));
  mesh.weights2 = std::vector<glm::vec4>(mesh.vertex_count(), glm::vec4(0.0f));
  mesh.cut_weights = std::vector<float>(mesh.vertex_count(), 0.0f);
  std::unique_ptr<Scene> scene = scene_of(std::move(model));
  ASSERT_TRUE(scene);
  const Mesh& m0 = scene->doc.model.meshes[0];
  const SkinnedPose& pose = scene->frame.animator;
  RenderOptions ro;
  ro.gpu_skinning = false;
  compute_frame(*scene, ro, frames);
  EXPECT_TRUE(pose.skinned_compact(0));  // LBS with 4: compact

  // DQS with 4 influences: the compact streams too (skin_compact), its codes the turn's image
  // within the bound LBS's are held to above (one bone, weight 1: DQS turns as LBS does).
  ro.method = SkinMethod::Dqs;
  compute_frame(*scene, ro, frames);
  EXPECT_TRUE(pose.compact(0));
  EXPECT_TRUE(pose.skinned_compact(0));
  const auto codes = pose.skinned_oct_normals(0);
  ASSERT_EQ(codes.size(), m0.vertex_count());
  for (std::size_t v = 0; v < m0.vertex_count(); ++v)
    EXPECT_LE(angle(oct_decode(codes[v]), quarter_turn(m0.normals[v])), kOctRoundBound) << v;
  // 8 influences on a mesh that keeps them (any method): the float streams, on both paths.
  for (const SkinMethod method : {SkinMethod::Dqs, SkinMethod::Lbs}) {
    SCOPED_TRACE(std::string("8 influences, ") + skin_method_label(method));
    ro.method = method;
    ro.influences = 8;
    compute_frame(*scene, ro, frames);
    EXPECT_FALSE(pose.compact(0));
    EXPECT_FALSE(pose.skinned_compact(0));
    // skinned_normals is current then: the turn's image, to rounding.
    const auto normals = pose.skinned_normals(0);
    ASSERT_EQ(normals.size(), m0.vertex_count());
    for (std::size_t v = 0; v < m0.vertex_count(); ++v)
      EXPECT_LE(angle(normals[v], quarter_turn(m0.normals[v])), 1e-6) << v;
  }
  ro.method = SkinMethod::Lbs;
  ro.influences = 4;
  compute_frame(*scene, ro, frames);
  EXPECT_TRUE(pose.skinned_compact(0));  // and back
}

TEST(CompactFrame, AMorphWeightTakesTheFloatStreams) {
  SV_REQUIRE_GL();
  Model model = quarter_turn_model();
  Mesh& mesh = model.meshes[0];
  MorphTarget t;
  t.name = "lift";
  t.default_weight = 0.5f;  // no clip animates it: the weight the mesh shows
  t.position_deltas.assign(mesh.vertex_count(), glm::vec3(0.0f, 0.0f, 1.0f));
  mesh.morph_targets.push_back(std::move(t));
  std::unique_ptr<Scene> scene = scene_of(std::move(model));
  ASSERT_TRUE(scene);
  const Mesh& m0 = scene->doc.model.meshes[0];
  RenderOptions ro;
  ro.gpu_skinning = false;
  compute_frame(*scene, ro, frames);
  const SkinnedPose& pose = scene->frame.animator;
  EXPECT_FALSE(pose.compact(0));
  EXPECT_FALSE(pose.skinned_compact(0));
  // Morphed half a unit up (+z, which the turn keeps), then turned.
  const auto positions = pose.skinned_positions(0);
  for (std::size_t v = 0; v < m0.vertex_count(); ++v)
    EXPECT_LE(glm::length(positions[v] - quarter_turn(m0.positions[v] + glm::vec3(0, 0, 0.5f))),
              1e-6f)
        << v;
}

}  // namespace
}  // namespace sv
