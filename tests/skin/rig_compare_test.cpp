// compare_rigs' bounds (skin/rig_compare.h): a cancel flag set before it runs gives "cancelled"
// and no figures; each CompareBudget count one short of the work gives "comparison too large"
// with the exact figure, hand-counted on chains built in code; the same budget plus one compares.
// (What it finds is tested on real files: tests/app/compare_cli_test.cpp.)
#include <atomic>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/quaternion.hpp>

#include "anim/model.h"
#include "skin/rig_compare.h"
#include "test_util.h"

namespace sv::test {
namespace {

// A chain of `joints` joints named PREFIX0, PREFIX1, ... (each 1 unit above its parent), one mesh
// 'body' of `vertices` vertices up the chain's first unit, each weighed wholly on joint 0, and one
// 1-s clip per name, each keying joint 0's rotation at 0 s and 1 s (2 keys).
Model compare_chain(std::size_t joints, std::size_t vertices, const std::vector<std::string>& clips,
                    const std::string& prefix = "j") {
  Model m;
  for (std::size_t i = 0; i < joints; ++i) {
    m.skeleton.names.push_back(prefix + std::to_string(i));
    m.skeleton.parents.push_back(static_cast<int32_t>(i) - 1);
    m.skeleton.rest.push_back(trs(glm::vec3(0.0f, i == 0 ? 0.0f : 1.0f, 0.0f)));
    m.skeleton.inverse_bind.push_back(
        glm::translate(glm::mat4(1.0f), glm::vec3(0.0f, -static_cast<float>(i), 0.0f)));
    m.skeleton.is_bone.push_back(1);
  }
  Mesh mesh;
  mesh.name = "body";
  mesh.node = 0;
  mesh.skinned = true;
  mesh.skin_joints = {0};
  mesh.inverse_bind = {glm::mat4(1.0f)};
  for (std::size_t v = 0; v < vertices; ++v) {
    mesh.positions.emplace_back(0.0f, static_cast<float>(v) / static_cast<float>(vertices), 0.0f);
    mesh.normals.emplace_back(0.0f, 0.0f, 1.0f);
    mesh.joints.emplace_back(0, 0, 0, 0);
    mesh.weights.emplace_back(1.0f, 0.0f, 0.0f, 0.0f);
    mesh.vertex_flags.push_back(0);
  }
  m.meshes.push_back(std::move(mesh));
  for (const std::string& name : clips) {
    Clip c;
    c.name = name;
    c.duration = 1.0;
    JointChannel turn;
    turn.joint = 0;
    turn.rotation.times = {0.0, 1.0};
    turn.rotation.values = {glm::quat(1, 0, 0, 0), glm::angleAxis(0.5f, glm::vec3(0, 1, 0))};
    c.channels.push_back(std::move(turn));
    m.clips.emplace_back();
    EXPECT_EQ(m.clips.back().build(c, m.skeleton), "");
  }
  EXPECT_EQ(m.validate(), "");
  return m;
}

// Nothing but the status and the problem: no partial figures.
void expect_no_compare_figures(const RigComparison& r) {
  EXPECT_TRUE(r.b_of_a.empty());
  EXPECT_TRUE(r.renamed.empty());
  EXPECT_TRUE(r.moved.empty());
  EXPECT_TRUE(r.meshes.empty());
  EXPECT_TRUE(r.change.empty());
  EXPECT_EQ(r.vertices_compared, 0u);
  EXPECT_TRUE(r.clips_changed.empty());
  EXPECT_EQ(r.clips_same, 0u);
  EXPECT_FALSE(r.any_difference());
}

// A over B within `budget` stops as too large, saying `problem`, with no figures.
void expect_too_large(const Model& a, const Model& b, const CompareBudget& budget,
                      const std::string& problem) {
  const RigComparison r = compare_rigs(a, b, {}, budget);
  EXPECT_EQ(r.status, CompareStatus::TooLarge);
  EXPECT_EQ(r.problem, problem);
  expect_no_compare_figures(r);
}

TEST(RigCompareBounds, ACancelFlagSetBeforeTheRunGivesCancelledAndNoFigures) {
  const Model a = compare_chain(3, 10, {"walk"});
  std::atomic<bool> cancel{true};
  const RigComparison r = compare_rigs(a, a, {}, {}, &cancel);
  EXPECT_EQ(r.status, CompareStatus::Cancelled);
  EXPECT_EQ(r.problem, "comparison cancelled");
  expect_no_compare_figures(r);
  // Not set: the same call compares.
  cancel = false;
  const RigComparison done = compare_rigs(a, a, {}, {}, &cancel);
  EXPECT_EQ(done.status, CompareStatus::Done);
  EXPECT_EQ(done.problem, "");
  EXPECT_EQ(done.vertices_compared, 10u);
  EXPECT_EQ(done.clips_same, 1u);
}

TEST(RigCompareBounds, VerticesOverTheBudgetAreCountedOnBothSides) {
  const Model a = compare_chain(3, 10, {});
  const Model b = compare_chain(3, 10, {});
  CompareBudget budget;
  budget.vertices = 19;  // A's 10 + B's 10 = 20
  expect_too_large(
      a, b, budget,
      "comparison too large: 20 vertices to compare (A's 10 and B's 10 in 1 mesh pairs) over "
      "the budget of 19");
  budget.vertices = 20;
  const RigComparison ok = compare_rigs(a, b, {}, budget);
  EXPECT_EQ(ok.status, CompareStatus::Done) << ok.problem;
  EXPECT_EQ(ok.vertices_compared, 10u);
}

TEST(RigCompareBounds, JointsWithoutNamesakesArePairedWithinTheBudget) {
  // No name in common: 4 x 3 candidate renames.
  const Model a = compare_chain(4, 2, {}, "a");
  const Model b = compare_chain(3, 2, {}, "b");
  CompareBudget budget;
  budget.joint_pairs = 11;
  expect_too_large(
      a, b, budget,
      "comparison too large: 12 joint pairs to try as renames (4 of A's x 3 of B's joints "
      "without a namesake) over the budget of 11");
  budget.joint_pairs = 12;
  const RigComparison ok = compare_rigs(a, b, {}, budget);
  ASSERT_EQ(ok.status, CompareStatus::Done) << ok.problem;
  // Same parents, same rests: a0..a2 renamed b0..b2, a3 removed.
  EXPECT_EQ(ok.renamed.size(), 3u);
  EXPECT_EQ(ok.removed, std::vector<int32_t>{3});
}

TEST(RigCompareBounds, ClipJointsAndKeysOfClipsPairedByNameAreCountedBeforeComparing) {
  // 'walk' and 'run' pair by name ('idle' and 'jump' do not): 2 pairs of 3-joint clips, 2 keys
  // each.
  const Model a = compare_chain(3, 2, {"walk", "run", "idle"});
  const Model b = compare_chain(3, 2, {"jump", "run", "walk"});
  ASSERT_EQ(a.clips[0].joints(), 3u);
  ASSERT_EQ(a.clips[0].keys(), 2u);
  CompareBudget budget;
  budget.clip_joints = 11;  // 2 x (3 + 3) = 12
  expect_too_large(
      a, b, budget,
      "comparison too large: 12 clip joints to compare (both clips' joints, in 2 clips "
      "paired by name) over the budget of 11");
  budget.clip_joints = 12;
  budget.clip_keys = 7;  // A's 2 + 2, B's 2 + 2
  expect_too_large(
      a, b, budget,
      "comparison too large: 8 clip keys to compare (A's 4 and B's 4 in 2 clips paired by "
      "name) over the budget of 7");
  budget.clip_keys = 8;
  const RigComparison r = compare_rigs(a, b, {}, budget);
  ASSERT_EQ(r.status, CompareStatus::Done) << r.problem;
  EXPECT_EQ(r.clips_same, 2u);
  EXPECT_EQ(r.clips_removed, std::vector<std::string>{"idle"});
  EXPECT_EQ(r.clips_added, std::vector<std::string>{"jump"});
}

TEST(RigCompareBounds, TheNearestPositionSearchStopsAtItsStepBudget) {
  // 3 vertices against 1: matched by position; each search visits B's one node, 3 steps in all.
  const Model a = compare_chain(1, 3, {});
  const Model b = compare_chain(1, 1, {});
  CompareBudget budget;
  budget.search_steps_per_vertex = 0;
  budget.search_step_slack = 2;
  expect_too_large(
      a, b, budget,
      "comparison too large: matching mesh [0] 'body' by nearest position (3 vertices among "
      "B's 1) needs more than the budget of 2 search steps (0 per vertex of A plus 2)");
  budget.search_step_slack = 3;
  const RigComparison ok = compare_rigs(a, b, {}, budget);
  ASSERT_EQ(ok.status, CompareStatus::Done) << ok.problem;
  ASSERT_EQ(ok.meshes.size(), 1u);
  EXPECT_TRUE(ok.meshes[0].by_position);
  EXPECT_EQ(ok.vertices_compared, 3u);
  EXPECT_EQ(ok.vertices_changed, 0u);
}

}  // namespace
}  // namespace sv::test
