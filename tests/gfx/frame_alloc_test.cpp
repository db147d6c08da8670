// "No allocation per frame": after loading, one frame of the viewer's pipeline (advance, sample
// with the cursor, local->model, palettes, CPU skinning, palette/stream uploads, draw with the
// skeleton overlay, a pick of the mesh under the cursor and of an overlay joint) performs no C++
// heap allocation on either skinning path. Counted by
// replacing the global operator new in this test program.
#include <gtest/gtest.h>

#include "anim/animator.h"
#include "anim/clip_bounds.h"
#include "anim/model.h"
#include "anim/player.h"
#include "gfx/camera.h"
#include "gfx/capture.h"
#include "gfx/gpu_model.h"
#include "gfx/picker.h"
#include "gfx/renderer.h"
#include "gl_context.h"
#include "synthetic_models.h"

#include "allocation_counter.h"

namespace sv {
namespace {

TEST(Frame, NoHeapAllocationPerFrame) {
  if (!SV_COUNT_ALLOCATIONS) GTEST_SKIP() << "allocation counting is off under AddressSanitizer";
  SV_REQUIRE_GL();
  const Model model = test::make_chain_model(40);
  gl::Renderer renderer;
  std::string error;
  ASSERT_TRUE(renderer.init(&error, nullptr)) << error;
  renderer.prepare(model);
  gl::GpuModel gpu(model);
  Animator animator(model);
  gl::OffscreenTarget target;
  ASSERT_TRUE(target.create(160, 120, &error)) << error;
  target.bind();
  Player player;
  player.clip = 0;
  animator.set_clip(model, player.clip);
  OrbitCamera camera;
  camera.frame(clip_bounds(model, 0, PoseMode::Clip), 160.0f / 120.0f);
  RenderOptions options;
  options.skeleton = true;
  options.selected_joint = 3;
  gl::Picker picker;
  ASSERT_TRUE(picker.init(&error)) << error;
  gl::PickInput pick;
  pick.model = &model;
  pick.gpu = &gpu;
  pick.animator = &animator;
  pick.view = camera.view();
  pick.projection = camera.projection(160.0f / 120.0f);
  pick.rect = {0, 0, 160, 120};
  long picked = 0;

  auto frame = [&](bool gpu_path) {
    options.gpu_skinning = gpu_path;
    player.advance(1.0 / 60.0, model.clips[0].duration());
    animator.set_clip(model, player.clip);  // same clip: must not reset (or allocate)
    ASSERT_TRUE(animator.evaluate(model, PoseMode::Clip, player.time));
    if (!gpu_path) {
      ASSERT_TRUE(animator.skin_cpu(model));
    }
    renderer.draw(model, gpu, animator, camera, options, 160, 120);
    // The tube around joint 20's origin (the mesh), then the root joint with the overlay's
    // joints pickable; both at the pixels where they are drawn.
    pick.gpu_skinning = gpu_path;
    const glm::mat4 view_proj = pick.projection * pick.view;
    float depth = 0.0f;
    pick.skeleton = false;
    project_to_screen(view_proj, pick.rect, glm::vec3(animator.model_matrices()[20][3]),
                      &pick.cursor, &depth);
    picked += picker.pick(pick).kind == gl::PickResult::Kind::Surface ? 1 : 0;
    pick.skeleton = true;
    project_to_screen(view_proj, pick.rect, glm::vec3(animator.model_matrices()[0][3]),
                      &pick.cursor, &depth);
    picked += picker.pick(pick).kind == gl::PickResult::Kind::Joint ? 1 : 0;
  };
  frame(true);  // warm-up: first draws may set up driver state
  frame(false);
  const long before = test::g_allocations.load();
  for (int i = 0; i < 10; ++i) {
    frame(true);
    frame(false);
  }
  EXPECT_EQ(test::g_allocations.load() - before, 0);
  EXPECT_EQ(picked, 2 * 2 * 11);  // every pick found what it aimed at
  // The counter does see allocations (guards against a vacuous pass).
  const long probe = test::g_allocations.load();
  int* volatile escaped = new int(1);  // volatile: the compiler may not elide the pair
  delete escaped;
  EXPECT_EQ(test::g_allocations.load() - probe, 1);
  gl::OffscreenTarget::unbind();
}

}  // namespace
}  // namespace sv
