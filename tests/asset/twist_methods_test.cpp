// The skinning methods on the default character (skin/skin_method.h), through the viewer's own
// path (Animator: palette, method palette, skin_cpu), on the model as skinview imports it:
//
//  - `twist` rolls the left forearm half a turn about its own axis at t = 1 s. The elbow's blend
//    zone (vertices weighted between upperarm_l and forearm_l, the forearm's weight 0.35-0.65)
//    is the forearm's root cross-section. Its area is measured as pi times the mean squared
//    distance of those vertices from the arm's axis (the line from the elbow joint to the wrist
//    joint, posed): LBS collapses it (the candy wrapper: at 50/50 the blended matrix of a 180
//    degree roll maps the ring onto its axis), DQS and CoR keep it.
//  - a rigid rig (every vertex on one joint) gives the same vertices under every method.
#include <cmath>
#include <numbers>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <glm/geometric.hpp>

#include "anim/bounds.h"
#include "default_asset_facts.h"
#include "io/import.h"
#include "skin/rotation_centers.h"
#include "skin/skinned_pose.h"

namespace sv {
namespace {

namespace facts = test::default_asset;

class DefaultAssetMethods : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    result_ = new ImportResult(import_model(std::string(facts::kPath)));
    if (result_->ok()) centers_ = new auto(compute_rotation_centers(*result_->model, false));
  }
  static void TearDownTestSuite() {
    delete result_;
    delete centers_;
    result_ = nullptr;
    centers_ = nullptr;
  }
  void SetUp() override { ASSERT_TRUE(result_->ok()) << result_->error; }
  static const Model& model() { return *result_->model; }

  static ImportResult* result_;
  static std::vector<std::vector<glm::vec3>>* centers_;
};

ImportResult* DefaultAssetMethods::result_ = nullptr;
std::vector<std::vector<glm::vec3>>* DefaultAssetMethods::centers_ = nullptr;

int32_t clip_index(const Model& m, std::string_view name) {
  for (std::size_t c = 0; c < m.clips.size(); ++c)
    if (m.clips[c].name() == name) return static_cast<int32_t>(c);
  return -1;
}

// Poses `model` at `time` of `clip` with `method` (CPU) into `animator`.
void pose(const Model& model, const std::vector<std::vector<glm::vec3>>& centers, int32_t clip,
          double time, SkinMethod method, SkinnedPose& animator) {
  SkinChoice choice;
  choice.method = method;
  choice.centers = centers;
  animator.set_skin(choice);
  animator.pose.set_clip(model, clip);
  ASSERT_TRUE(animator.evaluate(model, clip < 0 ? PoseMode::Rest : PoseMode::Clip, time));
  ASSERT_TRUE(animator.skin_cpu(model));
}

// pi * mean squared distance from the elbow->wrist axis of the elbow blend zone's vertices.
double elbow_section_area(const Model& model, const SkinnedPose& animator) {
  const int32_t upper = model.skeleton.find("upperarm_l");
  const int32_t fore = model.skeleton.find("forearm_l");
  const int32_t hand = model.skeleton.find("hand_l");
  EXPECT_GE(upper, 0);
  EXPECT_GE(fore, 0);
  EXPECT_GE(hand, 0);
  const auto joints = animator.pose.model_matrices();
  const glm::vec3 elbow(joints[static_cast<std::size_t>(fore)][3]);
  const glm::vec3 axis =
      glm::normalize(glm::vec3(joints[static_cast<std::size_t>(hand)][3]) - elbow);
  double sum = 0.0;
  std::size_t count = 0;
  for (std::size_t m = 0; m < model.meshes.size(); ++m) {
    const Mesh& mesh = model.meshes[m];
    const auto posed = animator.skinned_positions(m);
    for (std::size_t v = 0; v < mesh.vertex_count(); ++v) {
      float w_upper = 0.0f, w_fore = 0.0f;
      for (int i = 0; i < 4; ++i) {
        const float w = mesh.weights[v][i];
        if (w == 0.0f) continue;
        const int32_t j = mesh.skin_joints[mesh.joints[v][i]];
        if (j == upper) w_upper += w;
        if (j == fore) w_fore += w;
      }
      if (w_upper + w_fore < 0.999f || w_fore < 0.35f || w_fore > 0.65f) continue;
      const glm::vec3 d = posed[v] - elbow;
      const glm::vec3 radial = d - glm::dot(d, axis) * axis;
      sum += static_cast<double>(glm::dot(radial, radial));
      ++count;
    }
  }
  EXPECT_GE(count, 8u) << "the elbow's blend zone has too few vertices to measure";
  return count == 0 ? 0.0 : std::numbers::pi * sum / static_cast<double>(count);
}

TEST_F(DefaultAssetMethods, TwistHalfTurnKeepsTheElbowSectionUnderDqsAndCor) {
  const int32_t twist = clip_index(model(), "twist");
  ASSERT_GE(twist, 0);
  SkinnedPose animator(model());
  pose(model(), *centers_, twist, 0.0, SkinMethod::Lbs, animator);
  const double bind = elbow_section_area(model(), animator);
  ASSERT_GT(bind, 0.0);
  double area[3] = {};
  for (SkinMethod method : kSkinMethods) {
    pose(model(), *centers_, twist, 1.0, method, animator);  // the half-turn
    area[static_cast<int>(method)] = elbow_section_area(model(), animator) / bind;
  }
  EXPECT_LT(area[static_cast<int>(SkinMethod::Lbs)], 0.5) << "LBS should candy-wrap";
  EXPECT_GT(area[static_cast<int>(SkinMethod::Dqs)], 0.9);
  EXPECT_GT(area[static_cast<int>(SkinMethod::Cor)], 0.9);
  RecordProperty("lbs", std::to_string(area[0]));
  RecordProperty("dqs", std::to_string(area[1]));
  RecordProperty("cor", std::to_string(area[2]));
  std::printf("elbow section at the half-turn / bind: LBS %.3f, DQS %.3f, CoR %.3f\n", area[0],
              area[1], area[2]);
}

TEST_F(DefaultAssetMethods, RigidCharacterIsTheSameUnderEveryMethod) {
  // The character made rigid: every vertex on its largest-weight joint alone.
  ImportResult copy = import_model(std::string(facts::kPath));  // Model is move-only
  ASSERT_TRUE(copy.ok()) << copy.error;
  Model& rigid = *copy.model;
  for (Mesh& mesh : rigid.meshes) {
    for (std::size_t v = 0; v < mesh.vertex_count(); ++v) {
      glm::vec4& w = mesh.weights[v];
      int largest = 0;
      for (int i = 1; i < 4; ++i)
        if (w[i] > w[largest]) largest = i;
      w = glm::vec4(0.0f);
      w[largest] = 1.0f;
    }
  }
  const auto centers = compute_rotation_centers(rigid, false);
  SkinnedPose animator(rigid);
  for (const char* name : {"walk", "twist", "wave"}) {
    const int32_t clip = clip_index(rigid, name);
    ASSERT_GE(clip, 0) << name;
    const double t = 0.37 * rigid.clips[static_cast<std::size_t>(clip)].duration();
    std::vector<std::vector<glm::vec3>> lbs;
    pose(rigid, centers, clip, t, SkinMethod::Lbs, animator);
    Bounds bounds;
    for (std::size_t m = 0; m < rigid.meshes.size(); ++m) {
      const auto p = animator.skinned_positions(m);
      lbs.emplace_back(p.begin(), p.end());
      for (const glm::vec3& q : p) bounds.add(q);
    }
    const float tolerance = 1e-5f * bounds.diagonal();
    for (SkinMethod method : {SkinMethod::Dqs, SkinMethod::Cor}) {
      pose(rigid, centers, clip, t, method, animator);
      float worst = 0.0f;
      for (std::size_t m = 0; m < rigid.meshes.size(); ++m) {
        const auto p = animator.skinned_positions(m);
        for (std::size_t v = 0; v < p.size(); ++v)
          worst = std::max(worst, glm::length(p[v] - lbs[m][v]));
      }
      EXPECT_LE(worst, tolerance) << name << " " << skin_method_label(method);
    }
  }
}

}  // namespace
}  // namespace sv
