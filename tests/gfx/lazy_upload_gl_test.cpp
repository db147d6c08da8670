// GpuModel uploads at construction only what the default frame (GPU path, compact streams) draws
// from, the rest at its first use (gfx/gpu_model.h, BENCHMARKS.md round 31). Checked through the
// real renderer and the read-back the difference view uses, on the 3-joint chain with compact
// streams and one morph target ("lift": +0.25 y on every odd vertex):
// - at construction: the shared buffer (16 bytes a vertex), the indices and the compact buffer
//   (32 bytes a vertex with u8 joints) exist; the float and streamed buffers do not;
// - the first GPU compact frame makes nothing more, and draws the picture a GpuModel with every
//   buffer made draws (the dominant-joint view, which reads the shared buffer's info);
// - the first CPU compact frame makes the streamed buffer (28 bytes a vertex), not the float one;
//   it holds the frame's skinned positions and codes, and the bind normals from the model;
// - a morph weight (SkinnedPose::compact() false) makes the float buffer (48 bytes a vertex) at
//   the first frame that draws through it; at the rest pose (every K = I) its skinned positions
//   are the bind positions plus the target's deltas, by hand;
// - CoR's centres uploaded before the float arrays exist reach them when they are made;
// - upload_skinned* make the streamed buffer first when no draw has;
// - a model without compact streams has its float arrays at once.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "anim/model.h"
#include "gfx/camera.h"
#include "gfx/capture.h"
#include "gfx/gpu_model.h"
#include "gfx/renderer.h"
#include "gfx/shader.h"
#include "gl_context.h"
#include "skin/compact_streams.h"
#include "skin/rotation_centers.h"
#include "skin/skinned_pose.h"
#include "synthetic_models.h"
#include "test_util.h"
#include "vertex_capture.h"

namespace sv {
namespace lazy_upload {  // its own names in the suite's unity build
namespace {

constexpr int kWidth = 160, kHeight = 200;

// The buffer's size in bytes; 0 for no buffer.
int64_t size_of(const gl::Buffer& b) {
  if (!b) return 0;
  GLint64 size = -1;
  glBindBuffer(GL_COPY_READ_BUFFER, b.id());
  glGetBufferParameteri64v(GL_COPY_READ_BUFFER, GL_BUFFER_SIZE, &size);
  glBindBuffer(GL_COPY_READ_BUFFER, 0);
  return size;
}

template <class T>
std::vector<T> read_buffer(const gl::Buffer& b, std::size_t at_bytes, std::size_t count) {
  std::vector<T> out(count);
  glBindBuffer(GL_COPY_READ_BUFFER, b.id());
  glGetBufferSubData(GL_COPY_READ_BUFFER, static_cast<GLintptr>(at_bytes),
                     static_cast<GLsizeiptr>(count * sizeof(T)), out.data());
  glBindBuffer(GL_COPY_READ_BUFFER, 0);
  return out;
}

// The chain with the "lift" target (weight 0 unless overridden).
Model lift_model() {
  Model model = test::make_chain_model(3);
  Mesh& mesh = model.meshes[0];
  MorphTarget lift;
  lift.name = "lift";
  for (std::size_t v = 0; v < mesh.vertex_count(); ++v)
    lift.position_deltas.push_back(v % 2 ? glm::vec3(0, 0.25f, 0) : glm::vec3(0.0f));
  mesh.morph_targets = {lift};
  EXPECT_EQ(model.validate(), "");
  return model;
}

gl::Program position_program() {
  gl::ProgramResult r = gl::build_program({{"common.vert", "skin.vert"},
                                           {"mesh.frag"},
                                           gl::skin_program_defines(),
                                           {"v_model_position"}});
  EXPECT_TRUE(r.ok()) << r.error;
  return std::move(r.program);
}

class LazyUpload : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!test::shared_gl_context().ok()) GTEST_SKIP() << "no display or GL 3.3 core context";
    std::string error;
    ASSERT_TRUE(renderer_.init(&error, nullptr)) << error;
    renderer_.prepare(model_);
    ASSERT_TRUE(target_.create(kWidth, kHeight, &error)) << error;
    ASSERT_EQ(compact_.size(), 1u);
    ASSERT_TRUE(compact_[0].narrow_joints());
    animator_.set_compact(model_, compact_);
    animator_.pose.set_clip(model_, 0);
    camera_.target = glm::vec3(0, 1.5f, 0);
    camera_.distance = 5.0f;
    camera_.yaw = 0.3f;
    camera_.pitch = 0.2f;
    camera_.radius = 2.0f;
    options_.view = ViewMode::Dominant;  // reads the shared buffer's info
    options_.grid = false;               // only the tube differs from the background
    options_.axes = false;
  }
  void TearDown() override {
    if (test::shared_gl_context().ok()) gl::OffscreenTarget::unbind();
  }

  // The pose at clip time `t` (negative: the rest pose), skinned on the CPU where `gpu_path` is
  // false, as the viewer's frame does.
  void pose(double t, bool gpu_path) {
    ASSERT_TRUE(animator_.evaluate(model_, t < 0.0 ? PoseMode::Rest : PoseMode::Clip, t));
    if (!gpu_path) {
      ASSERT_TRUE(animator_.skin_cpu(model_, nullptr, true));
    }
  }
  // The frame of the current pose drawn with `gpu`, read back.
  std::vector<uint8_t> draw(gl::GpuModel& gpu, bool gpu_path) {
    options_.gpu_skinning = gpu_path;
    target_.bind();
    renderer_.draw(model_, gpu, animator_, camera_, options_, kWidth, kHeight);
    std::vector<uint8_t> rgba;
    target_.read_rgba(&rgba);
    EXPECT_EQ(glGetError(), static_cast<GLenum>(GL_NO_ERROR));
    return rgba;
  }
  // A GpuModel of the same model with every buffer and vertex array made at once: what
  // construction uploaded before round 31.
  gl::GpuModel eager() {
    gl::GpuModel gpu(model_, compact_);
    for (const bool gpu_path : {true, false})
      for (const bool compact : {true, false})
        EXPECT_NE(gpu.vertex_array(0, gpu_path, compact), 0u);
    return gpu;
  }
  // Pixels that are not the background's (the first pixel's: a corner the tube does not reach).
  static int drawn_pixels(const std::vector<uint8_t>& rgba) {
    int drawn = 0;
    for (std::size_t i = 0; i < rgba.size(); i += 4)
      drawn += std::memcmp(&rgba[i], &rgba[0], 4) != 0 ? 1 : 0;
    return drawn;
  }

  Model model_ = lift_model();
  std::vector<CompactStreams> compact_ = load_compact(model_);
  const std::size_t n_ = model_.meshes[0].vertex_count();
  gl::Renderer renderer_;
  SkinnedPose animator_{model_};
  gl::OffscreenTarget target_;
  OrbitCamera camera_;
  RenderOptions options_;
};

TEST_F(LazyUpload, ConstructionAndTheFirstCompactGpuFrameMakeOnlyTheSharedBuffers) {
  gl::GpuModel gpu(model_, compact_);
  const gl::GpuMesh& g = gpu.meshes()[0];
  ASSERT_EQ(n_, 12u);
  const auto n = static_cast<int64_t>(n_);
  const auto expect_only_shared = [&] {
    EXPECT_EQ(size_of(g.shared_vertices), 16 * n);  // uv f32 x2, info u32 x2
    EXPECT_EQ(size_of(g.indices), 4 * static_cast<int64_t>(model_.meshes[0].indices.size()));
    EXPECT_EQ(size_of(g.compact_vertices), (12 + 4 + 4 + 12) * n);  // u8 joints
    EXPECT_NE(g.vao_gpu_compact.id(), 0u);
    EXPECT_EQ(size_of(g.float_vertices), 0);
    EXPECT_EQ(size_of(g.stream_vertices), 0);
    EXPECT_EQ(g.vao_gpu.id(), 0u);
    EXPECT_EQ(g.vao_cpu.id(), 0u);
    EXPECT_EQ(g.vao_cpu_compact.id(), 0u);
  };
  expect_only_shared();

  pose(0.5, true);
  ASSERT_TRUE(animator_.compact(0));
  const std::vector<uint8_t> lazy = draw(gpu, true);
  expect_only_shared();
  gl::GpuModel all = eager();
  const std::vector<uint8_t> want = draw(all, true);
  EXPECT_GT(drawn_pixels(want), 500);  // the tube fills a good part of the 160 x 200 target
  EXPECT_EQ(lazy, want);

  // The read-back on the compact GPU path makes nothing either; at the rest pose every K is I,
  // so the skinned positions are the bind positions (w3 = 1 - (w0 + w1 + w2) in f32: 1e-6).
  pose(-1.0, true);
  gpu.upload_palette(animator_.pose.palette(), animator_.normal_palette());
  const gl::Program program = position_program();
  const auto got =
      test::capture_vertices<glm::vec3>(program.id(), gpu, 0, SkinMethod::Lbs, 4, true);
  ASSERT_EQ(got.size(), n_);
  for (std::size_t v = 0; v < n_; ++v)
    EXPECT_NEAR_GLM(got[v], model_.meshes[0].positions[v], 1e-6f);
  expect_only_shared();
}

TEST_F(LazyUpload, TheFirstCpuFrameMakesTheStreamedBufferNotTheFloatOne) {
  gl::GpuModel gpu(model_, compact_);
  const gl::GpuMesh& g = gpu.meshes()[0];
  pose(0.5, true);
  draw(gpu, true);
  pose(0.5, false);
  ASSERT_TRUE(animator_.skinned_compact(0));
  const std::vector<uint8_t> lazy = draw(gpu, false);
  EXPECT_EQ(size_of(g.stream_vertices), static_cast<int64_t>(28 * n_));
  EXPECT_NE(g.vao_cpu_compact.id(), 0u);
  EXPECT_EQ(size_of(g.float_vertices), 0);  // the compact CPU path does not read it
  EXPECT_EQ(g.vao_gpu.id(), 0u);
  EXPECT_EQ(g.vao_cpu.id(), 0u);
  // The frame's positions and codes; the float normals stay the bind ones, from the model.
  const auto positions = read_buffer<glm::vec3>(g.stream_vertices, 0, n_);
  const auto normals = read_buffer<glm::vec3>(g.stream_vertices, 12 * n_, n_);
  const auto codes = read_buffer<uint32_t>(g.stream_vertices, 24 * n_, n_);
  const auto skinned = animator_.skinned_positions(0);
  const auto skinned_codes = animator_.skinned_oct_normals(0);
  ASSERT_EQ(skinned.size(), n_);
  ASSERT_EQ(skinned_codes.size(), n_);
  for (std::size_t v = 0; v < n_; ++v) {
    EXPECT_EQ(positions[v], skinned[v]) << v;
    EXPECT_EQ(codes[v], skinned_codes[v]) << v;
    EXPECT_EQ(normals[v], model_.meshes[0].normals[v]) << v;
  }
  EXPECT_NE(skinned[n_ - 1], model_.meshes[0].positions[n_ - 1]);  // the clip moved it

  gl::GpuModel all = eager();
  const std::vector<uint8_t> want = draw(all, false);
  EXPECT_GT(drawn_pixels(want), 500);
  EXPECT_EQ(lazy, want);
}

TEST_F(LazyUpload, AMorphWeightMakesTheFloatArraysAtItsFirstFrame) {
  gl::GpuModel gpu(model_, compact_);
  const gl::GpuMesh& g = gpu.meshes()[0];
  pose(0.5, true);
  draw(gpu, true);
  ASSERT_EQ(size_of(g.float_vertices), 0);

  animator_.pose.set_morph_override(0, 0, 1.0f);
  pose(-1.0, true);
  ASSERT_FALSE(animator_.compact(0));
  const std::vector<uint8_t> lazy_gpu = draw(gpu, true);
  EXPECT_EQ(size_of(g.float_vertices), static_cast<int64_t>(48 * n_));
  EXPECT_NE(g.vao_gpu.id(), 0u);
  EXPECT_EQ(size_of(g.stream_vertices), 0);  // still no CPU frame
  // The GPU's float path at the rest pose: the bind positions plus the target's deltas.
  const gl::Program program = position_program();
  const auto got =
      test::capture_vertices<glm::vec3>(program.id(), gpu, 0, SkinMethod::Lbs, 4, false);
  ASSERT_EQ(got.size(), n_);
  for (std::size_t v = 0; v < n_; ++v) {
    const glm::vec3 want =
        model_.meshes[0].positions[v] + (v % 2 ? glm::vec3(0, 0.25f, 0) : glm::vec3(0.0f));
    EXPECT_NEAR_GLM(got[v], want, 1e-6f) << v;
  }

  pose(-1.0, false);
  ASSERT_FALSE(animator_.skinned_compact(0));
  const std::vector<uint8_t> lazy_cpu = draw(gpu, false);
  EXPECT_NE(g.vao_cpu.id(), 0u);
  EXPECT_EQ(size_of(g.stream_vertices), static_cast<int64_t>(28 * n_));
  EXPECT_EQ(g.vao_cpu_compact.id(), 0u);  // no compact CPU frame yet

  gl::GpuModel all = eager();
  pose(-1.0, true);
  const std::vector<uint8_t> want_gpu = draw(all, true);
  pose(-1.0, false);
  const std::vector<uint8_t> want_cpu = draw(all, false);
  EXPECT_GT(drawn_pixels(want_gpu), 500);
  EXPECT_EQ(lazy_gpu, want_gpu);
  EXPECT_EQ(lazy_cpu, want_cpu);
}

TEST_F(LazyUpload, CentresUploadedBeforeTheFloatArraysReachThem) {
  const std::vector<std::vector<glm::vec3>> centers = compute_rotation_centers(model_, false);
  ASSERT_EQ(centers.size(), 1u);
  gl::GpuModel gpu(model_, compact_);
  gpu.upload_centers(0, centers[0]);
  ASSERT_EQ(gpu.meshes()[0].vao_gpu.id(), 0u);  // made after the centres, below
  gl::GpuModel all = eager();
  all.upload_centers(0, centers[0]);
  gl::GpuModel none = eager();  // no centres: CoR takes each bind position (skins as LBS)
  animator_.set_skin(SkinChoice{SkinMethod::Cor, centers});
  pose(0.5, true);
  const gl::Program program = position_program();
  std::vector<std::vector<glm::vec3>> got;
  for (gl::GpuModel* g : {&gpu, &all, &none}) {
    g->upload_palette(animator_.pose.palette(), animator_.normal_palette());
    g->upload_method_palette(animator_.method_palette());
    got.push_back(
        test::capture_vertices<glm::vec3>(program.id(), *g, 0, SkinMethod::Cor, 4, false));
    ASSERT_EQ(got.back().size(), n_);
  }
  EXPECT_NE(gpu.meshes()[0].vao_gpu.id(), 0u);
  EXPECT_EQ(got[0], got[1]);  // the same shader over the same inputs
  float moved = 0.0f;         // and the centres matter at this pose
  for (std::size_t v = 0; v < n_; ++v) moved = std::max(moved, glm::length(got[1][v] - got[2][v]));
  EXPECT_GT(moved, 1e-3f);
}

TEST_F(LazyUpload, UploadSkinnedMakesTheStreamedBufferFirst) {
  for (const bool compact : {true, false}) {
    gl::GpuModel gpu(model_, compact_);
    const gl::GpuMesh& g = gpu.meshes()[0];
    const Mesh& mesh = model_.meshes[0];
    std::vector<glm::vec3> moved(mesh.positions);
    for (glm::vec3& p : moved) p += glm::vec3(1, 0, 0);
    // No normals given: the bind ones stay (the float normals, then the compact codes).
    if (compact)
      gpu.upload_skinned_compact(0, moved, {});
    else
      gpu.upload_skinned(0, moved, {});
    ASSERT_EQ(size_of(g.stream_vertices), static_cast<int64_t>(28 * n_)) << compact;
    const GLuint stream = g.stream_vertices.id();
    const auto positions = read_buffer<glm::vec3>(g.stream_vertices, 0, n_);
    const auto normals = read_buffer<glm::vec3>(g.stream_vertices, 12 * n_, n_);
    const auto codes = read_buffer<uint32_t>(g.stream_vertices, 24 * n_, n_);
    for (std::size_t v = 0; v < n_; ++v) {
      EXPECT_EQ(positions[v], moved[v]) << v;
      EXPECT_EQ(normals[v], mesh.normals[v]) << v;
      EXPECT_EQ(codes[v], compact_[0].normals[v]) << v;
    }
    // The draw's first use finds it made: the same buffer, the uploaded positions kept.
    EXPECT_NE(gpu.vertex_array(0, false, compact), 0u);
    EXPECT_EQ(g.stream_vertices.id(), stream);
    EXPECT_EQ(read_buffer<glm::vec3>(g.stream_vertices, 0, n_), moved);
    EXPECT_EQ(size_of(g.float_vertices), compact ? 0 : static_cast<int64_t>(48 * n_));
    EXPECT_EQ(glGetError(), static_cast<GLenum>(GL_NO_ERROR));
  }
}

TEST_F(LazyUpload, WithoutCompactStreamsTheFloatArraysAreMadeAtOnce) {
  gl::GpuModel gpu(model_);
  const gl::GpuMesh& g = gpu.meshes()[0];
  EXPECT_FALSE(g.has_compact);
  EXPECT_EQ(size_of(g.compact_vertices), 0);
  EXPECT_EQ(size_of(g.float_vertices), static_cast<int64_t>(48 * n_));
  EXPECT_NE(g.vao_gpu.id(), 0u);
  EXPECT_EQ(size_of(g.stream_vertices), 0);
  // FloatVertex: position at byte 0, normal 12, joints 24, weights 32 of 48, from the model.
  const auto bytes = read_buffer<uint8_t>(g.float_vertices, 0, 48 * n_);
  const Mesh& mesh = model_.meshes[0];
  for (std::size_t v = 0; v < n_; ++v) {
    glm::vec3 position, normal;
    glm::u16vec4 joints;
    glm::vec4 weights;
    std::memcpy(&position, &bytes[48 * v], 12);
    std::memcpy(&normal, &bytes[48 * v + 12], 12);
    std::memcpy(&joints, &bytes[48 * v + 24], 8);
    std::memcpy(&weights, &bytes[48 * v + 32], 16);
    EXPECT_EQ(position, mesh.positions[v]) << v;
    EXPECT_EQ(normal, mesh.normals[v]) << v;
    EXPECT_EQ(joints, mesh.joints[v]) << v;
    EXPECT_EQ(weights, mesh.weights[v]) << v;
  }
  // Its first frame draws (the float path, compact asked for but absent): the picture of a
  // model whose streams were made with it, drawn on the float path.
  SkinnedPose plain(model_);  // no compact streams: compact() false
  plain.pose.set_clip(model_, 0);
  ASSERT_TRUE(plain.evaluate(model_, PoseMode::Clip, 0.5));
  ASSERT_FALSE(plain.compact(0));
  options_.gpu_skinning = true;
  target_.bind();
  renderer_.draw(model_, gpu, plain, camera_, options_, kWidth, kHeight);
  std::vector<uint8_t> got;
  target_.read_rgba(&got);
  gl::GpuModel all = eager();
  renderer_.draw(model_, all, plain, camera_, options_, kWidth, kHeight);
  std::vector<uint8_t> want;
  target_.read_rgba(&want);
  EXPECT_GT(drawn_pixels(want), 500);
  EXPECT_EQ(got, want);
  EXPECT_EQ(glGetError(), static_cast<GLenum>(GL_NO_ERROR));
}

}  // namespace
}  // namespace lazy_upload
}  // namespace sv
