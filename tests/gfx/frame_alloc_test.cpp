// "No allocation per frame": after loading, one frame of the viewer's pipeline (advance, sample
// with the cursor, local->model, palettes, CPU skinning, palette/stream uploads, draw with the
// skeleton overlay, a pick of the mesh under the cursor and of an overlay joint) performs no C++
// heap allocation on either skinning path (from the compact streams under LBS, as the window
// skins; from the float streams under DQS and CoR), for one clip and for a blend (a cross-fade with
// a masked override layer and an additive layer over it). Counted by replacing the global operator
// new in this test program.
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "anim/blend.h"
#include "anim/layer_stack.h"
#include "anim/model.h"
#include "anim/player.h"
#include "gfx/camera.h"
#include "gfx/capture.h"
#include "gfx/gpu_model.h"
#include "gfx/picker.h"
#include "gfx/renderer.h"
#include "gfx/shader.h"
#include "gl_context.h"
#include "skin/clip_bounds.h"
#include "skin/compact_streams.h"
#include "skin/rotation_centers.h"
#include "skin/skinned_pose.h"
#include "synthetic_models.h"

#include "allocation_counter.h"

namespace sv {
namespace {

// Counts the allocations of 10 frames on each skinning path after a warm-up frame on each.
long allocations_per_10_frames(const std::function<void(bool gpu_path)>& frame) {
  frame(true);  // warm-up: first draws may set up driver state
  frame(false);
  const long before = test::g_allocations.load();
  for (int i = 0; i < 10; ++i) {
    frame(true);
    frame(false);
  }
  const long n = test::g_allocations.load() - before;
  // The counter does see allocations (guards against a vacuous pass).
  const long probe = test::g_allocations.load();
  int* volatile escaped = new int(1);  // volatile: the compiler may not elide the pair
  delete escaped;
  EXPECT_EQ(test::g_allocations.load() - probe, 1);
  return n;
}

// The 40-joint chain with a second clip, "sway" (0.7 s), keying every other joint's rotation.
Model chain_with_two_clips() {
  Model m = test::make_chain_model(40);
  Clip sway;
  sway.name = "sway";
  sway.duration = 0.7;
  for (int32_t j = 0; j < 40; j += 2) {
    JointChannel c;
    c.joint = j;
    c.rotation.times = {0.0, 0.35, 0.7};
    c.rotation.values = {glm::quat(1, 0, 0, 0), glm::angleAxis(0.2f, glm::vec3(1, 0, 0)),
                         glm::quat(1, 0, 0, 0)};
    sway.channels.push_back(std::move(c));
  }
  m.clips.emplace_back();
  EXPECT_EQ(m.clips.back().build(sway, m.skeleton), "");
  return m;
}

// What a frame draws with: the renderer, the model's GPU buffers, an offscreen target, and the
// picker.
struct Rig {
  const Model model = chain_with_two_clips();
  // As a loaded document's (app/viewer_scene.h): LBS frames skin from them on both paths.
  const std::vector<CompactStreams> compact = encode_compact(model);
  gl::Renderer renderer;
  gl::GpuModel gpu;
  SkinnedPose animator;
  gl::OffscreenTarget target;
  OrbitCamera camera;
  RenderOptions options;
  gl::Picker picker;
  gl::PickInput pick;
  long picked = 0;          // picks that found what they aimed at
  long compact_frames = 0;  // CPU-path frames skinned from the compact streams

  bool init() {
    std::string error;
    if (!renderer.init(&error, nullptr) || !target.create(160, 120, &error) ||
        !picker.init(&error)) {
      ADD_FAILURE() << error;
      return false;
    }
    renderer.prepare(model);
    gpu = gl::GpuModel(model, compact);
    animator = SkinnedPose(model);
    animator.set_compact(model, compact);
    target.bind();
    camera.frame(clip_bounds(model, 0, PoseMode::Clip), 160.0f / 120.0f);
    options.skeleton = true;
    options.selected_joint = 3;
    pick.model = &model;
    pick.gpu = &gpu;
    pick.animator = &animator;
    pick.view = camera.view();
    pick.projection = camera.projection(160.0f / 120.0f);
    pick.rect = {0, 0, 160, 120};
    return true;
  }
  // Skins (CPU path), draws, then picks the tube around joint 20's origin (the mesh) and the root
  // joint with the overlay's joints pickable, both at the pixels where they are drawn.
  void draw(bool gpu_path) {
    if (!gpu_path) {
      ASSERT_TRUE(animator.skin_cpu(model, nullptr, true));  // as run_frame skins
      compact_frames += animator.skinned_compact(0) ? 1 : 0;
    }
    renderer.draw(model, gpu, animator, camera, options, 160, 120);
    pick.gpu_skinning = gpu_path;
    const glm::mat4 view_proj = pick.projection * pick.view;
    float depth = 0.0f;
    pick.skeleton = false;
    project_to_screen(view_proj, pick.rect, glm::vec3(animator.pose.model_matrices()[20][3]),
                      &pick.cursor, &depth);
    picked += picker.pick(pick).kind == gl::PickResult::Kind::Surface ? 1 : 0;
    pick.skeleton = true;
    project_to_screen(view_proj, pick.rect, glm::vec3(animator.pose.model_matrices()[0][3]),
                      &pick.cursor, &depth);
    picked += picker.pick(pick).kind == gl::PickResult::Kind::Joint ? 1 : 0;
  }
  ~Rig() { gl::OffscreenTarget::unbind(); }
};

TEST(Frame, NoHeapAllocationPerFrame) {
  if (!SV_COUNT_ALLOCATIONS) GTEST_SKIP() << "allocation counting is off under AddressSanitizer";
  SV_REQUIRE_GL();
  Rig rig;
  ASSERT_TRUE(rig.init());
  Player player;
  player.clip = 0;
  rig.animator.pose.set_clip(rig.model, player.clip);
  EXPECT_EQ(allocations_per_10_frames([&](bool gpu_path) {
              rig.options.gpu_skinning = gpu_path;
              player.advance(1.0 / 60.0, rig.model.clips[0].duration());
              rig.animator.pose.set_clip(rig.model, player.clip);  // same clip: must not reset
              ASSERT_TRUE(rig.animator.evaluate(rig.model, PoseMode::Clip, player.time));
              rig.draw(gpu_path);
            }),
            0);
  EXPECT_EQ(rig.picked, 2 * 2 * 11);  // every pick found what it aimed at
  EXPECT_EQ(rig.compact_frames, 11);  // every CPU-path frame skinned compact (LBS)
}

// DQS and CoR add the method palette (built per frame into the Animator's buffer) and its upload;
// CoR's centres are computed once beforehand, as the window's scene does.
TEST(Frame, NoHeapAllocationPerFrameUnderEveryMethod) {
  if (!SV_COUNT_ALLOCATIONS) GTEST_SKIP() << "allocation counting is off under AddressSanitizer";
  SV_REQUIRE_GL();
  Rig rig;
  ASSERT_TRUE(rig.init());
  const auto centers = compute_rotation_centers(rig.model, false);
  for (std::size_t m = 0; m < centers.size(); ++m) rig.gpu.upload_centers(m, centers[m]);
  Player player;
  player.clip = 0;
  rig.animator.pose.set_clip(rig.model, player.clip);
  for (SkinMethod method : {SkinMethod::Dqs, SkinMethod::Cor}) {
    rig.animator.set_skin(SkinChoice{method, centers});
    rig.options.method = method;
    EXPECT_EQ(allocations_per_10_frames([&](bool gpu_path) {
                rig.options.gpu_skinning = gpu_path;
                player.advance(1.0 / 60.0, rig.model.clips[0].duration());
                ASSERT_TRUE(rig.animator.evaluate(rig.model, PoseMode::Clip, player.time));
                rig.draw(gpu_path);
              }),
              0)
        << skin_method_label(method);
  }
}

// The mesh programs are built at their first draw (gfx/renderer.h): init() builds the shaded one
// of the path --skinning auto starts on with this driver (the CPU path on a software rasteriser,
// else the GPU path); a frame on the other path or in a debug view builds its own once, and the
// frames after it allocate nothing.
TEST(Frame, MeshProgramsAreBuiltAtTheirFirstDraw) {
  if (!SV_COUNT_ALLOCATIONS) GTEST_SKIP() << "allocation counting is off under AddressSanitizer";
  SV_REQUIRE_GL();
  Rig rig;
  ASSERT_TRUE(rig.init());
  EXPECT_EQ(rig.renderer.mesh_programs_built(), 1);
  const bool first = gl::gpu_skinning_for("auto", rig.renderer.software());
  ASSERT_TRUE(rig.animator.evaluate(rig.model, PoseMode::Rest, 0.0));
  rig.options.gpu_skinning = first;
  rig.draw(first);
  EXPECT_EQ(rig.renderer.mesh_programs_built(), 1);  // the shaded program built at init
  rig.options.gpu_skinning = !first;
  rig.draw(!first);
  EXPECT_EQ(rig.renderer.mesh_programs_built(), 2);  // + the other path's, shaded
  rig.options.view = ViewMode::Weights;
  rig.options.gpu_skinning = true;
  rig.draw(true);
  EXPECT_EQ(rig.renderer.mesh_programs_built(), 3);  // + skin.vert, every view
  rig.draw(true);
  EXPECT_EQ(rig.renderer.mesh_programs_built(), 3);  // built once
  rig.options.view = ViewMode::Dominant;             // the same program as the weights view
  rig.options.gpu_skinning = false;
  rig.draw(false);
  EXPECT_EQ(rig.renderer.mesh_programs_built(), 4);  // + mesh.vert, every view
  EXPECT_TRUE(rig.renderer.late_problems().empty());
  // Both views' programs built: a debug view's frames allocate nothing either.
  EXPECT_EQ(allocations_per_10_frames([&](bool gpu_path) {
              rig.options.gpu_skinning = gpu_path;
              rig.draw(gpu_path);
            }),
            0);
  EXPECT_EQ(rig.renderer.mesh_programs_built(), 4);
}

// A program built at its first draw whose disk file fails says so in late_problems() and is built
// from the embedded copy: here a broken vertex shader of the path init() does not build (mesh.vert
// on a GPU, skin.vert on a software rasteriser), read first by that path's frame.
TEST(Frame, AProgramBuiltLateSaysWhatFailed) {
  SV_REQUIRE_GL();
  bool first = true;
  {
    Rig probe;
    ASSERT_TRUE(probe.init());
    first = gl::gpu_skinning_for("auto", probe.renderer.software());
  }
  const std::filesystem::path from = gl::shader_directory();
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("skinview-late-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  for (const auto& e : std::filesystem::directory_iterator(from))
    std::filesystem::copy_file(e.path(), dir / e.path().filename(),
                               std::filesystem::copy_options::overwrite_existing);
  std::ofstream(dir / (first ? "mesh.vert" : "skin.vert"))
      << "void main() { gl_Position = not_declared; }\n";
  ::setenv("SKINVIEW_SHADER_DIR", dir.c_str(), 1);
  {
    Rig rig;
    ASSERT_TRUE(rig.init());
    ASSERT_TRUE(rig.animator.evaluate(rig.model, PoseMode::Rest, 0.0));
    rig.options.gpu_skinning = first;
    rig.draw(first);
    EXPECT_TRUE(rig.renderer.late_problems().empty());  // its shader read from disk
    rig.options.gpu_skinning = !first;
    rig.draw(!first);
    ASSERT_EQ(rig.renderer.late_problems().size(), 1u);
    EXPECT_NE(rig.renderer.late_problems()[0].find("embedded"), std::string::npos)
        << rig.renderer.late_problems()[0];
    EXPECT_EQ(rig.renderer.mesh_programs_built(), 2);  // from the embedded copy
    EXPECT_EQ(rig.picked, 2 * 2);                      // both frames drew the mesh where it is
  }
  ::unsetenv("SKINVIEW_SHADER_DIR");
  std::filesystem::remove_all(dir);
}

TEST(Frame, NoHeapAllocationPerBlendedFrame) {
  if (!SV_COUNT_ALLOCATIONS) GTEST_SKIP() << "allocation counting is off under AddressSanitizer";
  SV_REQUIRE_GL();
  Rig rig;
  ASSERT_TRUE(rig.init());
  ASSERT_GE(rig.model.clips.size(), 2u);
  // A cross-fade from clip 0 to clip 1, an override of clip 1 masked to the upper half of the
  // chain, and clip 0 as an additive layer: every kind of layer, resolved once.
  LayerStack stack;
  stack.base = 0;
  stack.fade_to = 1;
  stack.fade = CrossFade{0.05, 0.1, true};
  StackLayer upper;
  upper.clip = 1;
  upper.weight = 0.6f;
  upper.mask = subtree_mask(rig.model.skeleton.parents, 20);
  stack.layers.push_back(std::move(upper));
  StackLayer add;
  add.clip = 0;
  add.weight = 0.5f;
  add.mode = BlendMode::Additive;
  add.time_offset = 0.3;
  stack.layers.push_back(std::move(add));
  std::vector<Layer> layers(stack.size());  // sized once, as the viewer keeps its frame's layers
  ASSERT_TRUE(stack.at(rig.model, 0.0, layers));
  ASSERT_EQ(rig.animator.pose.set_layers(rig.model, layers), "");
  double t = 0.0;
  EXPECT_EQ(allocations_per_10_frames([&](bool gpu_path) {
              rig.options.gpu_skinning = gpu_path;
              t += 1.0 / 60.0;  // through the fade and past its end
              ASSERT_TRUE(stack.at(rig.model, t, layers));
              ASSERT_EQ(rig.animator.pose.set_layers(rig.model, layers), "");  // same: no reset
              ASSERT_TRUE(rig.animator.evaluate(rig.model, layers));
              rig.draw(gpu_path);
            }),
            0);
}

}  // namespace
}  // namespace sv
