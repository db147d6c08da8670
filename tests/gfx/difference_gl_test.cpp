// The difference views on real models, through the code the window runs (app/difference_view.h
// via run_frame()): CPU vs GPU compares skin.vert's output read back with transform feedback
// against the CPU kernels' and stays within 1e-5 of the model's size on real files and every
// method; a GPU whose output is perturbed (a vertex moved in its static buffer, or made NaN) is
// reported at that vertex with the distance it was moved by; and method vs method finds the
// default character's candy wrapper in `twist` at the half-turn.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "app/app_common.h"
#include "app/frame.h"
#include "app/viewer_scene.h"
#include "gfx/render_options.h"
#include "gl_context.h"

namespace sv {
namespace {

// The frames compute_frame (app/frame.h) runs here: the pipeline's own, not drawn.
sv::FrameState frames;

const std::string kModels = SKINVIEW_TEST_MODELS;
const std::string kDefault = std::string(SKINVIEW_SOURCE_DIR) + "/assets/default.glb";

std::unique_ptr<Scene> load(const std::string& path) {
  std::unique_ptr<Scene> scene;
  const std::string error = load_scene(path, &scene);
  EXPECT_EQ(error, "") << path;
  return scene;
}

int32_t clip_named(const Model& model, const char* name) {
  for (std::size_t i = 0; i < model.clips.size(); ++i)
    if (model.clips[i].name() == name) return static_cast<int32_t>(i);
  return -1;
}

// Poses `scene` at `fraction` of its first clip and runs the view, as a window frame does.
const DifferenceStats& run_view(Scene& scene, RenderOptions& ro, double fraction) {
  scene.play.player.clip = scene.doc.model.clips.empty() ? kRestPose : 0;
  scene.play.player.time = fraction * scene.duration();
  compute_frame(scene, ro, frames);
  return scene.frame.difference.stats;
}

std::size_t vertex_total(const Model& model) {
  std::size_t n = 0;
  for (const Mesh& m : model.meshes) n += m.vertex_count();
  return n;
}

TEST(DifferenceView, CpuAgainstGpuOnRealModelsWithinTheTolerance) {
  SV_REQUIRE_GL();
  for (const std::string& path :
       {kDefault, kModels + "/X/BCN_Epileptic.X", kModels + "/FBX/animation_with_skeleton.fbx",
        kModels + "/glTF2/simple_skin/simple_skin.gltf", kModels + "/FBX/huesitos.fbx"}) {
    std::FILE* f = std::fopen(path.c_str(), "rb");
    if (f == nullptr) continue;  // assimp-testmodels not installed
    std::fclose(f);
    std::unique_ptr<Scene> scene = load(path);
    ASSERT_TRUE(scene);
    // 8 influences too: the FBX keeps up to 6, and the read-back must skin with them as the
    // CPU does (with 4 the two would be over 1e-3 of the size apart there).
    ASSERT_TRUE(wait_for_centers(*scene, 4));
    ASSERT_TRUE(wait_for_centers(*scene, 8));
    for (int influences : {4, 8})
      for (SkinMethod method : kSkinMethods) {
        for (bool gpu_path : {true, false}) {
          SCOPED_TRACE(path + " " + skin_method_name(method) + (gpu_path ? " gpu" : " cpu") +
                       " influences " + std::to_string(influences));
          RenderOptions ro;
          ro.view = ViewMode::CpuGpu;
          ro.method = method;
          ro.influences = influences;
          ro.gpu_skinning = gpu_path;
          for (double fraction : {0.0, 0.37, 0.81}) {
            const DifferenceStats& s = run_view(*scene, ro, fraction);
            ASSERT_TRUE(s.valid) << (scene->frame.difference.problem
                                         ? scene->frame.difference.problem
                                         : "");
            EXPECT_EQ(scene->frame.difference.a, method);
            EXPECT_EQ(s.vertices, vertex_total(scene->doc.model));
            EXPECT_GT(s.model_size, 0.0);
            EXPECT_LE(s.relative(), 1e-5) << "at vertex " << s.vertex << " of mesh " << s.mesh;
            EXPECT_EQ(s.over, 0u);
          }
        }
      }
  }
}

// The GPU's own vertex moved by a known amount: the view reports exactly that vertex and amount.
// At the bind pose the palette is the identity up to rounding, so the GPU skins the moved vertex
// to where it was moved; the CPU reads the model's unmoved positions (the compact streams keep the
// mesh's own).
TEST(DifferenceView, AGpuOutputThatIsOffIsReportedWhereAndByHowMuch) {
  SV_REQUIRE_GL();
  std::unique_ptr<Scene> scene = load(kDefault);
  ASSERT_TRUE(scene);
  RenderOptions ro;
  ro.view = ViewMode::CpuGpu;
  scene->play.player.clip = kBindPose;
  compute_frame(*scene, ro, frames);
  ASSERT_TRUE(scene->frame.difference.stats.valid);
  const double size = scene->frame.difference.stats.model_size;
  EXPECT_LE(scene->frame.difference.stats.relative(), 1e-5);

  constexpr std::size_t kVertex = 777;
  // The GPU path reads the mesh's compact streams here (LBS, no morph weight: as the CPU path
  // skins them), whose buffer holds the positions first, packed (gfx/gpu_model.h).
  ASSERT_TRUE(scene->frame.animator.compact(0));
  ASSERT_TRUE(scene->gpu.meshes()[0].has_compact);
  constexpr GLintptr kStride = sizeof(glm::vec3);
  const glm::vec3 moved = scene->doc.model.meshes[0].positions[kVertex] +
                          glm::vec3(0.0f, 0.01f * static_cast<float>(size), 0.0f);
  glBindBuffer(GL_ARRAY_BUFFER, scene->gpu.meshes()[0].compact_vertices.id());
  glBufferSubData(GL_ARRAY_BUFFER, kVertex * kStride, sizeof(glm::vec3), &moved);
  compute_frame(*scene, ro, frames);
  const DifferenceStats& s = scene->frame.difference.stats;
  ASSERT_TRUE(s.valid);
  EXPECT_EQ(s.mesh, 0u);
  EXPECT_EQ(s.vertex, kVertex);
  EXPECT_NEAR(s.relative(), 0.01, 1e-5);
  EXPECT_EQ(s.over, 1u);
  // Its value on the heat ramp is the top (0.01 of the size is past 1e-3).
  EXPECT_EQ(scene->frame.difference.values[kVertex], 1.0f);
  EXPECT_LT(scene->frame.difference.values[kVertex + 1], 0.5f);

  // A NaN out of the GPU is infinitely far, not a match.
  const glm::vec3 nan(std::numeric_limits<float>::quiet_NaN());
  glBufferSubData(GL_ARRAY_BUFFER, kVertex * kStride, sizeof(glm::vec3), &nan);
  glBindBuffer(GL_ARRAY_BUFFER, 0);
  compute_frame(*scene, ro, frames);
  EXPECT_TRUE(std::isinf(scene->frame.difference.stats.max));
  EXPECT_EQ(scene->frame.difference.stats.vertex, kVertex);
  EXPECT_EQ(glGetError(), static_cast<GLenum>(GL_NO_ERROR));
}

// A skeleton-only file (BVH) has nothing to compare: both views run, compare no vertex, and
// report no problem.
TEST(DifferenceView, ASkeletonWithoutAMeshComparesNothing) {
  SV_REQUIRE_GL();
  const std::string path = kModels + "/BVH/01_01.bvh";
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (f == nullptr) GTEST_SKIP() << "assimp-testmodels not installed";
  std::fclose(f);
  std::unique_ptr<Scene> scene = load(path);
  ASSERT_TRUE(scene);
  ASSERT_TRUE(scene->doc.model.meshes.empty());
  for (ViewMode view : {ViewMode::CpuGpu, ViewMode::MethodDiff}) {
    RenderOptions ro;
    ro.view = view;
    const DifferenceStats& s = run_view(*scene, ro, 0.5);
    EXPECT_TRUE(s.valid);
    EXPECT_EQ(s.vertices, 0u);
    EXPECT_EQ(s.max, 0.0);
    EXPECT_EQ(scene->frame.difference.problem, nullptr);
  }
  EXPECT_EQ(glGetError(), static_cast<GLenum>(GL_NO_ERROR));
}

TEST(DifferenceView, LbsAgainstDqsFindsTheCandyWrapperOfTwist) {
  SV_REQUIRE_GL();
  std::unique_ptr<Scene> scene = load(kDefault);
  ASSERT_TRUE(scene);
  const int32_t twist = clip_named(scene->doc.model, "twist");
  ASSERT_GE(twist, 0);
  RenderOptions ro;
  ro.view = ViewMode::MethodDiff;
  scene->play.player.clip = twist;
  scene->play.player.time = 1.0;  // the half-turn (README: the methods picture)
  compute_frame(*scene, ro, frames);
  const DifferenceStats& s = scene->frame.difference.stats;
  ASSERT_TRUE(s.valid);
  EXPECT_EQ(scene->frame.difference.a, SkinMethod::Lbs);
  EXPECT_EQ(scene->frame.difference.b, SkinMethod::Dqs);
  std::printf("twist at 1 s, LBS vs DQS: largest %.4g (%.3g%% of %.4g) at vertex %u, %llu over\n",
              s.max, 100.0 * s.relative(), s.model_size, s.vertex,
              static_cast<unsigned long long>(s.over));
  // The forearm collapses to its axis under LBS: vertices move by about its radius.
  EXPECT_GT(s.relative(), 0.01);
  // The largest is on the left forearm (the joint that weighs most there).
  const Mesh& mesh = scene->doc.model.meshes[s.mesh];
  const int32_t joint =
      mesh.skin_joints[mesh.joints[s.vertex][0] < mesh.skin_joints.size() ? mesh.joints[s.vertex][0]
                                                                          : 0];
  const std::string name = scene->doc.model.skeleton.names[static_cast<std::size_t>(joint)];
  EXPECT_TRUE(name.find("_l") != std::string::npos) << name;
  // The rest of the body agrees: most vertices are not apart by 0.1% of the size.
  EXPECT_LT(static_cast<double>(s.over), 0.2 * static_cast<double>(s.vertices));
  EXPECT_GT(s.over, 0u);

  // At the bind pose, or with the same method on both sides, nothing is apart.
  scene->play.player.clip = kBindPose;
  compute_frame(*scene, ro, frames);
  EXPECT_LE(scene->frame.difference.stats.relative(), 1e-6);
  scene->play.player.clip = twist;
  ro.diff_b = SkinMethod::Lbs;
  compute_frame(*scene, ro, frames);
  EXPECT_EQ(scene->frame.difference.stats.max, 0.0);
  // CoR against LBS: waits for the centres (grey, the reason given), then compares.
  ro.diff_b = SkinMethod::Cor;
  compute_frame(*scene, ro, frames);
  if (!scene->jobs.centers.done()) {
    EXPECT_FALSE(scene->frame.difference.stats.valid);
    ASSERT_NE(scene->frame.difference.problem, nullptr);
    EXPECT_EQ(scene->frame.difference.values[0], -1.0f);
  }
  scene->jobs.centers.wait();
  compute_frame(*scene, ro, frames);
  ASSERT_TRUE(scene->frame.difference.stats.valid);
  EXPECT_GT(scene->frame.difference.stats.relative(), 0.01);
}

// The weight-change view paints the scene's comparison (skin/rig_compare.h), one value per
// vertex on its ramp, -1 (grey) where a mesh has no counterpart; uploaded once per comparison
// (nothing is redone while the comparison stays), again after another view's values.
TEST(DifferenceView, WeightChangePaintsTheComparisonOnce) {
  SV_REQUIRE_GL();
  std::unique_ptr<Scene> scene = load(kDefault);
  ASSERT_TRUE(scene);
  RenderOptions ro;
  ro.view = ViewMode::WeightChange;
  const DifferenceStats& none = run_view(*scene, ro, 0.0);
  EXPECT_FALSE(none.valid);
  EXPECT_NE(scene->frame.difference.problem, nullptr);
  auto c = std::make_shared<RigComparison>(compare_rigs(scene->doc.model, scene->doc.model));
  ASSERT_EQ(c->change.size(), 2u);
  c->change[0][5] = 0.01f;  // as if vertex 5 of the body had changed by 0.01 (ramp: 0.5)
  std::fill(c->change[1].begin(), c->change[1].end(), -1.0f);  // the face: no counterpart
  c->vertices_changed = 1;
  c->max_change = 0.01;
  c->max_mesh = 0;
  c->max_vertex = 5;
  scene->jobs.comparison = c;
  const DifferenceStats& s = run_view(*scene, ro, 0.0);
  ASSERT_TRUE(s.valid);
  EXPECT_EQ(s.over, 1u);
  EXPECT_EQ(s.vertex, 5u);
  const std::vector<float>& v = scene->frame.difference.values;
  ASSERT_EQ(v.size(), vertex_total(scene->doc.model));
  EXPECT_EQ(v[0], 0.0f);
  EXPECT_NEAR(v[5], 0.5f, 1e-6f);
  EXPECT_EQ(v[scene->doc.model.meshes[0].vertex_count()], -1.0f);
  // The next frames upload nothing new: a value changed behind its back stays.
  scene->frame.difference.values[0] = 0.75f;
  run_view(*scene, ro, 0.5);
  EXPECT_EQ(scene->frame.difference.values[0], 0.75f);
  // After another view, the comparison's values come back.
  ro.view = ViewMode::MethodDiff;
  run_view(*scene, ro, 0.0);
  ro.view = ViewMode::WeightChange;
  run_view(*scene, ro, 0.0);
  EXPECT_EQ(scene->frame.difference.values[0], 0.0f);
}

}  // namespace
}  // namespace sv
