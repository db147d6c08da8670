// Picking (see BENCHMARKS.md, "Picking"): what a click or a hover costs in the viewport.
//
//   pick/<vertices>/<gpu>       gl::Picker::pick of a point of the mesh: the ID pass (the mesh
//                               drawn again through the frame's vertex shader into a 1x1 target),
//                               the one-pixel readback that waits for it, and the CPU resolve of
//                               the hit triangle. gpu 1: GPU skinning (skin.vert and the palette
//                               texture), 0: the CPU path's streamed buffer. Wall time.
//   frame/<vertices>/<gpu>      one frame of the same mesh for scale: Renderer::draw into a
//                               1280x720 target and glFinish (CPU skinning not included).
//   resolve_hit                 resolve_surface_hit alone: skin 3 vertices, meet the ray,
//                               interpolate the weights (the CPU part of a pick).
//   ray_cast_all/<vertices>     the alternative without an ID pass: a ray against every triangle
//                               of already CPU-skinned positions, no hierarchy (the GPU path
//                               would also need every vertex skinned on the CPU first).
//   legend/<view>               one legend drawn into an ImGui draw list (the UI's CPU cost).
//
// The mesh is a regular sheet of sqrt(n) x sqrt(n) vertices facing the camera and filling a
// 1280x720 view (one triangle a pixel or less at 1M vertices, like a dense character), each
// vertex on 4 of 60 bones (synthetic.h), posed at its bind pose so the sheet stays flat while
// every vertex is still skinned in full. Needs a GL 3.3 core context (xvfb-run -a ...).
#include <benchmark/benchmark.h>

#include <cmath>
#include <string>
#include <vector>

#include <imgui.h>
#include <glm/geometric.hpp>
#include <glm/gtc/matrix_transform.hpp>
#include <glm/vec2.hpp>

#include "anim/model.h"
#include "gfx/camera.h"
#include "gfx/capture.h"
#include "gfx/gpu_model.h"
#include "gfx/picker.h"
#include "gfx/renderer.h"
#include "gl_bench.h"
#include "skin/skinned_pose.h"
#include "skin/surface_hit.h"
#include "skin/weight_stats.h"
#include "synthetic.h"
#include "ui/legend_place.h"
#include "ui/viewport_overlay.h"

namespace sv::bench {
namespace {

constexpr int kWidth = 1280, kHeight = 720;

// make_model's skinned vertices laid out as a side x side sheet in z = 0 spanning x -1.6..1.6,
// y -0.9..0.9, two triangles per grid cell.
Model make_sheet(std::size_t vertices) {
  Model m = make_model(60, vertices);
  Mesh& mesh = m.meshes[0];
  const auto side = static_cast<std::size_t>(std::sqrt(static_cast<double>(vertices)));
  const std::size_t n = side * side;
  mesh.positions.resize(n);
  mesh.normals.assign(n, glm::vec3(0, 0, 1));
  mesh.joints.resize(n);
  mesh.weights.resize(n);
  mesh.vertex_flags.resize(n);
  mesh.indices.clear();
  for (std::size_t r = 0; r < side; ++r) {
    for (std::size_t c = 0; c < side; ++c) {
      const float u = static_cast<float>(c) / static_cast<float>(side - 1);
      const float v = static_cast<float>(r) / static_cast<float>(side - 1);
      mesh.positions[r * side + c] = glm::vec3(3.2f * u - 1.6f, 1.8f * v - 0.9f, 0.0f);
      if (r + 1 < side && c + 1 < side) {
        const auto a = static_cast<uint32_t>(r * side + c);
        const auto b = a + 1, d = a + static_cast<uint32_t>(side), e = d + 1;
        mesh.indices.insert(mesh.indices.end(), {a, b, e, a, e, d});
      }
    }
  }
  return m;
}

struct Scene {
  Model model;
  SkinnedPose animator;
  gl::GpuModel gpu;
  gl::PickInput in;
};

// The sheet at its bind pose, uploaded for the path, and a pick input aimed just off the
// centre of the view (not on a vertex or an edge).
bool make_scene(std::size_t vertices, bool gpu_path, Scene* s, benchmark::State& state) {
  if (!context().ok()) {
    state.SkipWithError("no display or GL 3.3 core context (run under xvfb-run)");
    return false;
  }
  s->model = make_sheet(vertices);
  if (const std::string e = s->model.validate(); !e.empty()) {
    state.SkipWithError(e.c_str());
    return false;
  }
  s->animator = SkinnedPose(s->model);
  s->gpu = gl::GpuModel(s->model);
  if (!s->animator.evaluate(s->model, PoseMode::Bind, 0.0f)) {
    state.SkipWithError("evaluate failed");
    return false;
  }
  if (gpu_path) {
    s->gpu.upload_palette(s->animator.pose.palette(), s->animator.normal_palette());
  } else {
    s->animator.skin_cpu(s->model);
    s->gpu.upload_skinned(0, s->animator.skinned_positions(0), s->animator.skinned_normals(0));
  }
  s->in.model = &s->model;
  s->in.gpu = &s->gpu;
  s->in.animator = &s->animator;
  s->in.gpu_skinning = gpu_path;
  s->in.view = glm::lookAt(glm::vec3(0, 0, 2.3f), glm::vec3(0), glm::vec3(0, 1, 0));
  s->in.projection = glm::perspective(0.7854f, static_cast<float>(kWidth) / kHeight, 0.1f, 10.0f);
  s->in.rect = {0, 0, kWidth, kHeight};
  s->in.cursor = glm::vec2(0.5f * kWidth + 0.31f, 0.5f * kHeight + 0.17f);
  return true;
}

void pick(benchmark::State& state) {
  Scene s;
  if (!make_scene(static_cast<std::size_t>(state.range(0)), state.range(1) != 0, &s, state)) return;
  gl::Picker picker;
  std::string error;
  if (!picker.init(&error)) {
    state.SkipWithError(error.c_str());
    return;
  }
  if (picker.pick(s.in).kind != gl::PickResult::Kind::Surface) {
    state.SkipWithError("the pick missed the sheet");
    return;
  }
  for (auto _ : state) {
    gl::PickResult r = picker.pick(s.in);
    benchmark::DoNotOptimize(r);
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(pick)
    ->ArgsProduct({{10000, 1000000}, {1, 0}})
    ->ArgNames({"vertices", "gpu"})
    ->UseRealTime()
    ->Unit(benchmark::kMicrosecond);

void frame(benchmark::State& state) {
  Scene s;
  if (!make_scene(static_cast<std::size_t>(state.range(0)), state.range(1) != 0, &s, state)) return;
  gl::Renderer renderer;
  gl::OffscreenTarget target;
  std::string error;
  if (!renderer.init(&error, nullptr) || !target.create(kWidth, kHeight, &error)) {
    state.SkipWithError(error.c_str());
    return;
  }
  renderer.prepare(s.model);
  target.bind();
  OrbitCamera camera;
  camera.yaw = 0.0f;
  camera.pitch = 0.0f;
  camera.distance = 2.3f;
  camera.radius = 1.8f;
  RenderOptions options;
  options.gpu_skinning = state.range(1) != 0;
  for (auto _ : state) {
    renderer.draw(s.model, s.gpu, s.animator, camera, options, kWidth, kHeight);
    glFinish();
  }
  gl::OffscreenTarget::unbind();
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(frame)
    ->ArgsProduct({{10000, 1000000}, {1, 0}})
    ->ArgNames({"vertices", "gpu"})
    ->UseRealTime()
    ->Unit(benchmark::kMicrosecond);

void resolve_hit(benchmark::State& state) {
  const Model model = make_sheet(10000);
  SkinnedPose animator(model);
  animator.evaluate(model, PoseMode::Bind, 0.0f);
  const Mesh& mesh = model.meshes[0];
  const Ray ray{{0.013f, 0.007f, 2.3f}, {0, 0, -1}};
  const auto triangle = static_cast<uint32_t>(mesh.triangle_count() / 2);
  SurfaceHit hit;
  for (auto _ : state) {
    benchmark::DoNotOptimize(
        resolve_surface_hit(mesh, animator.pose.palette(), triangle, ray, &hit));
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(resolve_hit);

void ray_cast_all(benchmark::State& state) {
  const Model model = make_sheet(static_cast<std::size_t>(state.range(0)));
  SkinnedPose animator(model);
  animator.evaluate(model, PoseMode::Bind, 0.0f);
  animator.skin_cpu(model);
  const auto p = animator.skinned_positions(0);
  const std::vector<uint32_t>& idx = model.meshes[0].indices;
  const Ray ray{{0.013f, 0.007f, 2.3f}, {0, 0, -1}};
  for (auto _ : state) {
    float best = INFINITY;
    uint32_t hit = ~0u;
    for (std::size_t t = 0; t + 2 < idx.size(); t += 3) {
      glm::vec3 b;
      float d = 0.0f;
      if (ray_plane_barycentric(ray, p[idx[t]], p[idx[t + 1]], p[idx[t + 2]], &b, &d) &&
          b.x >= 0.0f && b.y >= 0.0f && b.z >= 0.0f && d > 0.0f && d < best) {
        best = d;
        hit = static_cast<uint32_t>(t / 3);
      }
    }
    benchmark::DoNotOptimize(hit);
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(ray_cast_all)->Arg(10000)->Arg(1000000)->Unit(benchmark::kMicrosecond);

void legend(benchmark::State& state) {
  ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;
  io.DisplaySize = ImVec2(kWidth, kHeight);
  unsigned char* pixels = nullptr;
  int w = 0, h = 0;
  io.Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);
  const Model model = make_sheet(10000);
  const WeightStats stats = compute_weight_stats(model);
  const std::vector<JointInfluence> joints = joint_influences(model);
  ui::LegendInput in{
      static_cast<ViewMode>(state.range(0)), &stats, joints, model.skeleton.names, 3, 7};
  // What the window does each frame (app/viewport_picking.cpp): measure the legend and its
  // title row, place it in the corner the model leaves free (the model in the middle third),
  // and draw it in its small window.
  const ui::Rect viewport{0.0f, 0.0f, static_cast<float>(kWidth), static_cast<float>(kHeight)};
  ui::ScreenBox model_box;
  model_box.x0 = kWidth / 3.0f;
  model_box.x1 = 2.0f * kWidth / 3.0f;
  model_box.y0 = kHeight / 8.0f;
  model_box.y1 = 7.0f * kHeight / 8.0f;
  for (auto _ : state) {
    ImGui::NewFrame();
    in.collapsed = false;
    const ImVec2 full = ui::legend_size(in);
    const ImVec2 title = ui::legend_title_size(in);
    const ui::LegendPlace place =
        ui::place_legend(viewport, model_box, {}, glm::vec2(full.x, full.y),
                         glm::vec2(title.x, title.y), ui::LegendFold::Auto, 12.0f);
    in.collapsed = place.collapsed;
    benchmark::DoNotOptimize(ui::legend_window(ImVec2(place.rect.x, place.rect.y), in));
    ImGui::EndFrame();
  }
  ImGui::DestroyContext();
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(legend)->DenseRange(1, 4)->ArgName("view")->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace sv::bench
