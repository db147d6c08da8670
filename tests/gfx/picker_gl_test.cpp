// The picker on a model built in code, drawn by the real renderer into an offscreen target and
// then picked as the viewer does, on both skinning paths: known triangles of known meshes under
// known pixels, the skinned (not the stored) positions, depth order between meshes, joints of
// the overlay winning over the mesh behind them, a viewport that does not start at the corner,
// and the GL state left as it was.
#include "gfx/picker.h"

#include <gtest/gtest.h>

#include <string>

#include <glm/gtc/matrix_transform.hpp>

#include "anim/model.h"
#include "gfx/camera.h"
#include "gfx/capture.h"
#include "gfx/gpu_model.h"
#include "gfx/renderer.h"
#include "gl_context.h"
#include "skin/skinned_pose.h"
#include "test_util.h"

namespace sv {
namespace {

// Joints: 0 root at the origin; 1 its child, rest (0, 2, 0) but bound at the origin (identity
// inverse bind), so what it skins is drawn 2 units above where it is stored; 2 a child at
// (-1.5, 0, 0.5).
// Mesh 0 (skinned): quad A, x -2..-1, y -0.5..0.5, z 0, on joint 0 (triangles 0, 1); quad B,
// stored at x 1..2, y -0.5..0.5, on joint 1 (triangles 2 = v4 v5 v6 below its diagonal, 3 =
// v4 v6 v7 above): drawn at y 1.5..2.5.
// Mesh 1 (rigid on joint 2): a small quad stored about its node's origin (x -0.3..0.3, y
// -0.2..0.2), drawn at x -1.8..-1.2, z 0.5: in front of quad A.
Model pick_model() {
  Model m;
  Skeleton& s = m.skeleton;
  s.names = {"root", "lifted", "front"};
  s.parents = {kNoParent, 0, 0};
  s.rest.resize(3);
  s.rest[1].translation = {0, 2, 0};
  s.rest[2].translation = {-1.5f, 0, 0.5f};
  s.inverse_bind = {glm::mat4(1.0f), glm::mat4(1.0f),
                    glm::translate(glm::mat4(1.0f), glm::vec3(1.5f, 0, -0.5f))};
  s.is_bone = {1, 1, 0};

  Mesh a;
  a.name = "quads";
  a.node = 0;
  a.skinned = true;
  a.positions = {{-2, -0.5f, 0}, {-1, -0.5f, 0}, {-1, 0.5f, 0}, {-2, 0.5f, 0},
                 {1, -0.5f, 0},  {2, -0.5f, 0},  {2, 0.5f, 0},  {1, 0.5f, 0}};
  a.normals.assign(8, glm::vec3(0, 0, 1));
  for (int v = 0; v < 8; ++v) {
    a.joints.emplace_back(v < 4 ? 0 : 1, 0, 0, 0);
    a.weights.emplace_back(1, 0, 0, 0);
  }
  a.vertex_flags.assign(8, 0);
  a.indices = {0, 1, 2, 0, 2, 3, 4, 5, 6, 4, 6, 7};
  a.skin_joints = {0, 1};
  a.inverse_bind = {glm::mat4(1.0f), glm::mat4(1.0f)};
  a.max_joint = 1;
  a.max_influences = 1;
  m.meshes.push_back(std::move(a));

  Mesh b;
  b.name = "front";
  b.node = 2;
  b.positions = {{-0.3f, -0.2f, 0}, {0.3f, -0.2f, 0}, {0.3f, 0.2f, 0}, {-0.3f, 0.2f, 0}};
  b.normals.assign(4, glm::vec3(0, 0, 1));
  b.joints.assign(4, glm::u16vec4(0));
  b.weights.assign(4, glm::vec4(1, 0, 0, 0));
  b.vertex_flags.assign(4, 0);
  b.indices = {0, 1, 2, 0, 2, 3};
  b.skin_joints = {2};
  b.inverse_bind = {glm::mat4(1.0f)};
  b.max_joint = 0;
  b.max_influences = 1;
  m.meshes.push_back(std::move(b));
  return m;
}

constexpr int kWidth = 320, kHeight = 240;

class PickerGl : public ::testing::TestWithParam<bool> {
 protected:
  void SetUp() override {
    if (!test::shared_gl_context().ok()) GTEST_SKIP() << "no display or GL 3.3 core context";
    ASSERT_EQ(model_.validate(), "");
    std::string error;
    ASSERT_TRUE(renderer_.init(&error, nullptr)) << error;
    ASSERT_TRUE(picker_.init(&error)) << error;
    renderer_.prepare(model_);
    gpu_ = gl::GpuModel(model_);
    animator_ = SkinnedPose(model_);
    ASSERT_TRUE(target_.create(kWidth, kHeight, &error)) << error;
    camera_.target = glm::vec3(0, 1, 0);
    camera_.distance = 8.0f;
    camera_.yaw = 0.0f;
    camera_.pitch = 0.0f;
    camera_.radius = 3.0f;
  }
  void TearDown() override {
    // Skipped without a context: no GL call may be made (epoxy aborts).
    if (test::shared_gl_context().ok()) gl::OffscreenTarget::unbind();
  }

  // Draws the frame on the parameter's path, as the viewer does, and returns the pick input.
  gl::PickInput draw(bool skeleton) {
    options_.gpu_skinning = GetParam();
    options_.skeleton = skeleton;
    EXPECT_TRUE(animator_.evaluate(model_, PoseMode::Rest, 0.0f));
    if (!options_.gpu_skinning) {
      EXPECT_TRUE(animator_.skin_cpu(model_));
    }
    target_.bind();
    renderer_.draw(model_, gpu_, animator_, camera_, options_, kWidth, kHeight);
    gl::PickInput in;
    in.model = &model_;
    in.gpu = &gpu_;
    in.animator = &animator_;
    in.gpu_skinning = options_.gpu_skinning;
    in.skeleton = skeleton;
    in.view = camera_.view();
    in.projection = camera_.projection(static_cast<float>(kWidth) / kHeight);
    in.rect = {0, 0, kWidth, kHeight};
    return in;
  }

  // The pixel where a world point is drawn.
  glm::vec2 pixel_of(const gl::PickInput& in, const glm::vec3& world) {
    glm::vec2 px;
    float depth = 0.0f;
    EXPECT_TRUE(project_to_screen(in.projection * in.view, in.rect, world, &px, &depth));
    return px;
  }

  gl::PickResult pick_at(gl::PickInput in, const glm::vec3& world) {
    in.cursor = pixel_of(in, world);
    return picker_.pick(in);
  }

  Model model_ = pick_model();
  gl::Renderer renderer_;
  gl::Picker picker_;
  gl::GpuModel gpu_;
  SkinnedPose animator_;
  gl::OffscreenTarget target_;
  OrbitCamera camera_;
  RenderOptions options_;
};

TEST_P(PickerGl, PicksKnownTrianglesOfTheSkinnedMesh) {
  const gl::PickInput in = draw(false);
  // Quad B where it is drawn (lifted by joint 1), below and above its diagonal.
  gl::PickResult r = pick_at(in, {1.8f, 2.0f - 0.3f, 0});
  ASSERT_EQ(r.kind, gl::PickResult::Kind::Surface);
  EXPECT_EQ(r.surface.mesh, 0u);
  EXPECT_EQ(r.surface.triangle, 2u);
  EXPECT_EQ(r.joint, 1);
  EXPECT_NEAR(r.surface.joint_weight, 1.0f, 1e-6f);
  // The hit point is the clicked point, within a fraction of a pixel (8 units over 240 px
  // tall at distance 8: 0.03 units a pixel).
  EXPECT_NEAR_GLM(r.surface.point, glm::vec3(1.8f, 1.7f, 0), 0.02f);
  EXPECT_EQ(r.surface.nearest_vertex, 5u);  // v5 (2, 1.5) is nearest to (1.8, 1.7)
  r = pick_at(in, {1.2f, 2.0f + 0.3f, 0});
  ASSERT_EQ(r.kind, gl::PickResult::Kind::Surface);
  EXPECT_EQ(r.surface.triangle, 3u);
  EXPECT_EQ(r.surface.nearest_vertex, 7u);
  // Where quad B is stored, nothing is drawn: the pick follows the skinned mesh.
  r = pick_at(in, {1.5f, 0.0f, 0});
  EXPECT_EQ(r.kind, gl::PickResult::Kind::None);
  EXPECT_EQ(r.joint, -1);
  // Quad A, triangle 0 (below its diagonal v0-v2).
  r = pick_at(in, {-1.1f, -0.4f, 0});
  ASSERT_EQ(r.kind, gl::PickResult::Kind::Surface);
  EXPECT_EQ(r.surface.mesh, 0u);
  EXPECT_EQ(r.surface.triangle, 0u);
  EXPECT_EQ(r.joint, 0);
}

TEST_P(PickerGl, TheNearerMeshWins) {
  const gl::PickInput in = draw(false);
  // Mesh 1 lies in front of quad A at x -1.8..-1.2: its triangle 1 (above its diagonal).
  gl::PickResult r = pick_at(in, {-1.7f, 0.1f, 0.5f});
  ASSERT_EQ(r.kind, gl::PickResult::Kind::Surface);
  EXPECT_EQ(r.surface.mesh, 1u);
  EXPECT_EQ(r.surface.triangle, 1u);
  EXPECT_EQ(r.joint, 2);
  EXPECT_NEAR(r.surface.point.z, 0.5f, 1e-4f);
  // Beside it, quad A behind.
  r = pick_at(in, {-1.95f, 0.45f, 0.0f});
  ASSERT_EQ(r.kind, gl::PickResult::Kind::Surface);
  EXPECT_EQ(r.surface.mesh, 0u);
  EXPECT_EQ(r.joint, 0);
}

TEST_P(PickerGl, OverlayJointsWinOverTheMeshBehindThem) {
  gl::PickInput in = draw(true);
  // Joint 2 sits on mesh 1's centre: 3 px off it, the joint is picked, not the mesh.
  in.cursor = pixel_of(in, {-1.5f, 0, 0.5f}) + glm::vec2(3, 0);
  gl::PickResult r = picker_.pick(in);
  ASSERT_EQ(r.kind, gl::PickResult::Kind::Joint);
  EXPECT_EQ(r.joint, 2);
  EXPECT_NEAR(r.joint_distance_px, 3.0f, 0.01f);
  // Joint 1 floats in the air at (0, 2, 0).
  in.cursor = pixel_of(in, {0, 2, 0});
  r = picker_.pick(in);
  ASSERT_EQ(r.kind, gl::PickResult::Kind::Joint);
  EXPECT_EQ(r.joint, 1);
  // Without the overlay the same place is empty.
  in = draw(false);
  in.cursor = pixel_of(in, {0, 2, 0});
  EXPECT_EQ(picker_.pick(in).kind, gl::PickResult::Kind::None);
}

TEST_P(PickerGl, ARectangleAwayFromTheCornerAndTheStateLeftAsItWas) {
  gl::PickInput in = draw(false);
  const glm::vec2 at = pixel_of(in, {1.8f, 1.7f, 0});
  // The same view in a rectangle 40 px in and 30 px down: the same triangle, 40/30 px further.
  in.rect = {40, 30, kWidth, kHeight};
  in.cursor = at + glm::vec2(40, 30);
  GLint viewport_before[4] = {};
  glViewport(5, 6, 70, 80);
  glGetIntegerv(GL_VIEWPORT, viewport_before);
  const gl::PickResult r = picker_.pick(in);
  ASSERT_EQ(r.kind, gl::PickResult::Kind::Surface);
  EXPECT_EQ(r.surface.triangle, 2u);
  GLint viewport[4] = {}, draw_fbo = 0;
  glGetIntegerv(GL_VIEWPORT, viewport);
  glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &draw_fbo);
  for (int i = 0; i < 4; ++i) EXPECT_EQ(viewport[i], viewport_before[i]);
  GLint target_fbo = 0;
  target_.bind();
  glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &target_fbo);
  EXPECT_EQ(draw_fbo, target_fbo);
  EXPECT_EQ(glGetError(), static_cast<GLenum>(GL_NO_ERROR));
  // A cursor outside the rectangle picks nothing.
  in.cursor = glm::vec2(10, 10);
  EXPECT_EQ(picker_.pick(in).kind, gl::PickResult::Kind::None);
}

INSTANTIATE_TEST_SUITE_P(BothPaths, PickerGl, ::testing::Values(true, false),
                         [](const ::testing::TestParamInfo<bool>& p) {
                           return std::string(p.param ? "GpuSkinning" : "CpuSkinning");
                         });

}  // namespace
}  // namespace sv
