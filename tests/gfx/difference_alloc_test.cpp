// "No allocation per frame" for the difference views: after the first frame with a view on
// (which sizes its buffers and builds the read-back program), frames of the CPU-vs-GPU view and
// of the method-difference view (CoR included, once its centres are known) allocate nothing,
// through run_frame (app/frame.h). Counted by replacing the global operator new in this program.
#include <memory>
#include <string>

#include <gtest/gtest.h>

#include "app/app_common.h"
#include "app/frame.h"
#include "app/viewer_scene.h"
#include "gl_context.h"

#include "allocation_counter.h"

namespace sv {
namespace {

// The frames compute_frame (app/frame.h) runs here: the pipeline's own, not drawn.
sv::FrameState frames;

TEST(DifferenceAlloc, FramesWithAViewOnAllocateNothing) {
  SV_REQUIRE_GL();
  if (!SV_COUNT_ALLOCATIONS) GTEST_SKIP() << "allocations are not counted under ASan";
  std::unique_ptr<Scene> scene;
  ASSERT_EQ(load_scene(std::string(SKINVIEW_SOURCE_DIR) + "/assets/default.glb", &scene), "");
  scene->jobs.centers.start(scene->doc.model);
  scene->jobs.centers.wait();
  scene->play.player.clip = 0;
  RenderOptions views[4];
  views[0].view = ViewMode::CpuGpu;
  views[1].view = ViewMode::CpuGpu;
  views[1].method = SkinMethod::Dqs;
  views[1].gpu_skinning = false;
  views[2].view = ViewMode::MethodDiff;
  views[3].view = ViewMode::MethodDiff;
  views[3].diff_a = SkinMethod::Cor;
  for (RenderOptions& ro : views) compute_frame(*scene, ro, frames);  // first use of each
  const long before = test::g_allocations.load();
  for (int frame = 0; frame < 10; ++frame) {
    scene->play.player.time = 0.05 * frame;
    for (RenderOptions& ro : views) {
      compute_frame(*scene, ro, frames);
      EXPECT_TRUE(scene->frame.difference.stats.valid);
    }
  }
  EXPECT_EQ(test::g_allocations.load() - before, 0);
  // The counter does see allocations (guards against a vacuous pass).
  const long probe = test::g_allocations.load();
  int* volatile escaped = new int(1);
  delete escaped;
  EXPECT_EQ(test::g_allocations.load() - probe, 1);
}

}  // namespace
}  // namespace sv
