// Back-face culling of glTF's single-sided materials (gfx/face_culling.h), drawn by the real
// renderer into an offscreen target and picked by the real picker, on both skinning paths: a
// single-sided quad seen from behind draws (and picks) nothing, seen from the front draws; a
// double-sided one draws both ways; a mirrored joint (scale -1 on x) keeps the single-sided quad
// drawn from both sides, skinned or rigid; "Show back faces" draws it from behind; and the draw
// leaves culling off for what follows it.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "anim/model.h"
#include "gfx/camera.h"
#include "gfx/capture.h"
#include "gfx/gpu_model.h"
#include "gfx/picker.h"
#include "gfx/renderer.h"
#include "gl_context.h"
#include "skin/skinned_pose.h"

namespace sv {
namespace {

// Joint 0 the root; joint 1 its child at the origin with rest scale `scale`. One quad, x and y
// -0.5..0.5 at z 0, counter-clockwise seen from +z (its front), on joint 1: skinned (one bone,
// identity inverse bind) or rigid on it (the importer's one-bone skin), so its palette matrix is
// joint 1's model matrix, scale(`scale`). Its material is red and single-sided or not.
Model culling_quad(bool double_sided, bool skinned, glm::vec3 scale) {
  Model m;
  Skeleton& s = m.skeleton;
  s.names = {"root", "quad"};
  s.parents = {kNoParent, 0};
  s.rest.resize(2);
  s.rest[1].scale = scale;
  s.inverse_bind = {glm::mat4(1.0f), glm::mat4(1.0f)};
  s.is_bone = {1, 1};
  Mesh q;
  q.name = "quad";
  q.node = 1;
  q.skinned = skinned;
  q.material = 0;
  q.positions = {{-0.5f, -0.5f, 0}, {0.5f, -0.5f, 0}, {0.5f, 0.5f, 0}, {-0.5f, 0.5f, 0}};
  q.normals.assign(4, glm::vec3(0, 0, 1));
  q.joints.assign(4, glm::u16vec4(0));
  q.weights.assign(4, glm::vec4(1, 0, 0, 0));
  q.vertex_flags.assign(4, 0);
  q.indices = {0, 1, 2, 0, 2, 3};
  q.skin_joints = {1};
  q.inverse_bind = {glm::mat4(1.0f)};
  q.max_joint = 0;
  q.max_influences = 1;
  m.meshes.push_back(std::move(q));
  Material red;
  red.name = "red";
  red.base_color = {1, 0, 0, 1};
  red.double_sided = double_sided;
  m.materials.push_back(std::move(red));
  return m;
}

constexpr int kCullWidth = 160, kCullHeight = 120;
constexpr float kFromFront = 0.0f, kFromBehind = 3.14159265f;  // yaw: 0 looks along -z, from +z

// Parameter: the GPU skinning path (true) or the CPU path.
class FaceCullingGl : public ::testing::TestWithParam<bool> {
 protected:
  void SetUp() override {
    if (!test::shared_gl_context().ok()) GTEST_SKIP() << "no display or GL 3.3 core context";
    std::string error;
    ASSERT_TRUE(renderer_.init(&error, nullptr)) << error;
    ASSERT_TRUE(picker_.init(&error)) << error;
    ASSERT_TRUE(target_.create(kCullWidth, kCullHeight, &error)) << error;
    options_.grid = false;
    options_.axes = false;
    options_.background = glm::vec3(0.0f);
    camera_.target = glm::vec3(0.0f);
    camera_.distance = 3.0f;
    camera_.pitch = 0.0f;
    camera_.radius = 1.0f;
  }
  void TearDown() override {
    if (test::shared_gl_context().ok()) gl::OffscreenTarget::unbind();
  }

  // Draws `model` from `yaw` and returns how many pixels of the 20 x 20 square at the centre
  // (inside the quad, which covers about 50 pixels across) are not the black background; when
  // `picked` is given, whether the picker finds the quad at the centre.
  int drawn(const Model& model, float yaw, bool* picked = nullptr) {
    EXPECT_EQ(model.validate(), "");
    renderer_.prepare(model);
    gl::GpuModel gpu(model);
    SkinnedPose animator(model);
    options_.gpu_skinning = GetParam();
    EXPECT_TRUE(animator.evaluate(model, PoseMode::Rest, 0.0f));
    if (!options_.gpu_skinning) {
      EXPECT_TRUE(animator.skin_cpu(model));
    }
    camera_.yaw = yaw;
    target_.bind();
    renderer_.draw(model, gpu, animator, camera_, options_, kCullWidth, kCullHeight);
    // The overlays, the legend and ImGui that follow draw both sides.
    EXPECT_EQ(glIsEnabled(GL_CULL_FACE), GL_FALSE);
    std::vector<uint8_t> rgba;
    target_.read_rgba(&rgba);
    int count = 0;
    for (int y = kCullHeight / 2 - 10; y < kCullHeight / 2 + 10; ++y)
      for (int x = kCullWidth / 2 - 10; x < kCullWidth / 2 + 10; ++x) {
        const std::size_t i = 4 * (static_cast<std::size_t>(y) * kCullWidth + x);
        count += rgba[i] + rgba[i + 1] + rgba[i + 2] > 0 ? 1 : 0;
      }
    if (picked != nullptr) {
      gl::PickInput in;
      in.model = &model;
      in.gpu = &gpu;
      in.animator = &animator;
      in.gpu_skinning = options_.gpu_skinning;
      in.show_back_faces = options_.show_back_faces;
      in.view = camera_.view();
      in.projection = camera_.projection(static_cast<float>(kCullWidth) / kCullHeight);
      in.rect = {0, 0, kCullWidth, kCullHeight};
      in.cursor = glm::vec2(kCullWidth / 2.0f + 3.0f, kCullHeight / 2.0f + 3.0f);
      *picked = picker_.pick(in).kind == gl::PickResult::Kind::Surface;
      EXPECT_EQ(glIsEnabled(GL_CULL_FACE), GL_FALSE);
    }
    return count;
  }

  gl::Renderer renderer_;
  gl::Picker picker_;
  gl::OffscreenTarget target_;
  OrbitCamera camera_;
  RenderOptions options_;
};

constexpr int kCullAll = 400;  // the whole 20 x 20 square

TEST_P(FaceCullingGl, ASingleSidedQuadIsDrawnAndPickedFromTheFrontOnly) {
  for (const bool skinned : {true, false}) {
    const Model m = culling_quad(false, skinned, glm::vec3(1.0f));
    bool picked = false;
    EXPECT_EQ(drawn(m, kFromFront, &picked), kCullAll) << "skinned " << skinned;
    EXPECT_TRUE(picked) << "skinned " << skinned;
    EXPECT_EQ(drawn(m, kFromBehind, &picked), 0) << "skinned " << skinned;
    EXPECT_FALSE(picked) << "skinned " << skinned;
  }
}

TEST_P(FaceCullingGl, ADoubleSidedQuadIsDrawnFromBothSides) {
  const Model m = culling_quad(true, true, glm::vec3(1.0f));
  bool picked = false;
  EXPECT_EQ(drawn(m, kFromFront, &picked), kCullAll);
  EXPECT_TRUE(picked);
  EXPECT_EQ(drawn(m, kFromBehind, &picked), kCullAll);
  EXPECT_TRUE(picked);
}

// Joint 1 scaled by -1 on x turns the quad's triangles clockwise seen from +z: culling back faces
// there would hide the side the file shows. Both sides are drawn, skinned or rigid on the joint.
TEST_P(FaceCullingGl, AMirroredJointKeepsBothSides) {
  for (const bool skinned : {true, false}) {
    const Model m = culling_quad(false, skinned, glm::vec3(-1.0f, 1.0f, 1.0f));
    bool picked = false;
    EXPECT_EQ(drawn(m, kFromFront, &picked), kCullAll) << "skinned " << skinned;
    EXPECT_TRUE(picked) << "skinned " << skinned;
    EXPECT_EQ(drawn(m, kFromBehind, &picked), kCullAll) << "skinned " << skinned;
    EXPECT_TRUE(picked) << "skinned " << skinned;
  }
}

TEST_P(FaceCullingGl, ShowBackFacesDrawsASingleSidedQuadFromBehind) {
  options_.show_back_faces = true;
  const Model m = culling_quad(false, true, glm::vec3(1.0f));
  bool picked = false;
  EXPECT_EQ(drawn(m, kFromBehind, &picked), kCullAll);
  EXPECT_TRUE(picked);
  EXPECT_EQ(drawn(m, kFromFront, &picked), kCullAll);
  EXPECT_TRUE(picked);
}

INSTANTIATE_TEST_SUITE_P(Paths, FaceCullingGl, ::testing::Values(true, false),
                         [](const ::testing::TestParamInfo<bool>& p) {
                           return p.param ? "Gpu" : "Cpu";
                         });

}  // namespace
}  // namespace sv
