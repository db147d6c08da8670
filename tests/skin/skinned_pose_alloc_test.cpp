// SkinnedPose's CPU arrays (skin/skinned_pose.h) are made when first needed and never again: a
// mesh skinned from its compact streams never gets the float normals array (on a 1M-vertex mesh,
// 12 MB it would never write), a mesh's first float skinning makes it once, and no later frame
// allocates, whichever streams it skins from. Counted with a replaced operator new (its own
// binary: allocation_counter.h).
#include <gtest/gtest.h>

#include <vector>

#include "allocation_counter.h"
#include "anim/model.h"
#include "gfx/synthetic_models.h"
#include "skin/compact_streams.h"
#include "skin/rotation_centers.h"
#include "skin/skinned_pose.h"

namespace sv {
namespace {

TEST(SkinnedPoseArrays, FloatNormalsWaitForTheFirstFloatSkinningAndFramesAllocateNothing) {
  if (!SV_COUNT_ALLOCATIONS) GTEST_SKIP() << "allocations are not counted under ASan";
  const Model model = test::make_chain_model(8);
  const std::size_t n = model.meshes[0].vertex_count();
  const std::vector<CompactStreams> compact = encode_compact(model);
  const std::vector<std::vector<glm::vec3>> centers = compute_rotation_centers(model, false);
  SkinnedPose pose(model);
  pose.set_compact(model, compact);
  pose.pose.set_clip(model, 0);
  for (const SkinMethod method : {SkinMethod::Lbs, SkinMethod::Dqs, SkinMethod::Cor}) {
    pose.set_skin(SkinChoice{method, centers});
    ASSERT_TRUE(pose.evaluate(model, PoseMode::Clip, 0.25));
    ASSERT_TRUE(pose.compact(0)) << skin_method_name(method);
  }
  // The first compact skinning makes the positions (its codes were sized by set_compact), and
  // no float normals.
  long before = test::g_allocations.load();
  ASSERT_TRUE(pose.skin_cpu(model, nullptr, true));
  EXPECT_GE(test::g_allocations.load() - before, 1);
  EXPECT_TRUE(pose.skinned_compact(0));
  EXPECT_EQ(pose.skinned_positions(0).size(), n);
  EXPECT_TRUE(pose.skinned_normals(0).empty());
  // Compact frames, every method: nothing allocated, still no float normals.
  before = test::g_allocations.load();
  for (int frame = 0; frame < 3; ++frame)
    for (const SkinMethod method : {SkinMethod::Lbs, SkinMethod::Dqs, SkinMethod::Cor}) {
      pose.set_skin(SkinChoice{method, centers});
      ASSERT_TRUE(pose.evaluate(model, PoseMode::Clip, 0.1 * frame));
      ASSERT_TRUE(pose.skin_cpu(model, nullptr, true));
      ASSERT_TRUE(pose.skinned_compact(0));
    }
  EXPECT_EQ(test::g_allocations.load(), before);
  EXPECT_TRUE(pose.skinned_normals(0).empty());
  // The first float skinning (--dump, export, or 8 influences) makes them: exactly one array.
  before = test::g_allocations.load();
  ASSERT_TRUE(pose.skin_cpu(model));
  EXPECT_EQ(test::g_allocations.load() - before, 1);
  EXPECT_FALSE(pose.skinned_compact(0));
  ASSERT_EQ(pose.skinned_normals(0).size(), n);
  // Their values: the unit normals of the pose (the chain's are horizontal, turned about z).
  for (const glm::vec3& v : pose.skinned_normals(0)) EXPECT_NEAR(glm::length(v), 1.0f, 1e-5f);
  // From then on neither path allocates.
  before = test::g_allocations.load();
  for (int frame = 0; frame < 3; ++frame)
    for (const bool use_compact : {true, false})
      for (const SkinMethod method : {SkinMethod::Lbs, SkinMethod::Dqs, SkinMethod::Cor}) {
        pose.set_skin(SkinChoice{method, centers});
        ASSERT_TRUE(pose.evaluate(model, PoseMode::Clip, 0.1 * frame));
        ASSERT_TRUE(pose.skin_cpu(model, nullptr, use_compact));
      }
  EXPECT_EQ(test::g_allocations.load(), before);
}

}  // namespace
}  // namespace sv
