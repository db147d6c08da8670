// gpu_frame_cpu_cost/<vertices>: the CPU side of one GPU-skinning frame: sample the clip,
// local->model, palette and normal palette (sv::Animator::evaluate), then upload the palettes
// (sv::GpuModel::upload_palette). The mesh is uploaded once; nothing per frame depends on its
// vertex count, which is what the three sizes show. Needs a GL 3.3+ core context: run under
// Xvfb (xvfb-run -a ...); without a display each size is skipped with a message.
#include <benchmark/benchmark.h>

#include "gfx/gl.h"

#include <map>
#include <memory>
#include <random>

#include <GLFW/glfw3.h>

#include "anim/model.h"
#include "anim/animator.h"
#include "gfx/gpu_model.h"
#include "synthetic.h"

namespace sv::bench {
namespace {

// One hidden window for the program, made on first use.
class Context {
 public:
  Context() {
    if (glfwInit() != GLFW_TRUE) return;
    glfwWindowHint(GLFW_VISIBLE, GLFW_FALSE);
    glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
    glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
    window_ = glfwCreateWindow(64, 64, "skinview_bench", nullptr, nullptr);
    if (window_ != nullptr) glfwMakeContextCurrent(window_);
  }
  ~Context() {
    if (window_ != nullptr) glfwDestroyWindow(window_);
    glfwTerminate();
  }
  bool ok() const noexcept { return window_ != nullptr; }

 private:
  GLFWwindow* window_ = nullptr;
};

Context& context() {
  static Context c;
  return c;
}

// A 60-joint skeleton and clip (synthetic.h) with one mesh of `vertices` skinned vertices.
Model make_model(std::size_t vertices) {
  Model m;
  m.skeleton = make_skeleton(60, 42u);
  m.clips.push_back(make_clip(m.skeleton, 4.0f, 30.0f, 43u));
  SkinData d = make_skin(vertices, 60, 1234u);
  Mesh mesh;
  mesh.name = "synthetic";
  mesh.node = 0;
  mesh.skinned = true;
  mesh.max_influences = 4;
  mesh.positions = std::move(d.positions);
  mesh.normals = std::move(d.normals);
  mesh.joints = std::move(d.joints);
  mesh.weights = std::move(d.weights);
  mesh.vertex_flags.assign(vertices, 0);
  for (std::size_t v = 0; v + 2 < vertices; v += 3)
    for (uint32_t k = 0; k < 3; ++k) mesh.indices.push_back(static_cast<uint32_t>(v) + k);
  mesh.max_joint = d.max_joint;
  for (int32_t j = 0; j < 60; ++j) mesh.skin_joints.push_back(j);
  mesh.inverse_bind = m.skeleton.inverse_bind;
  m.meshes.push_back(std::move(mesh));
  return m;
}

void gpu_frame_cpu_cost(benchmark::State& state) {
  if (!context().ok()) {
    state.SkipWithError("no display or GL 3.3 core context (run under xvfb-run)");
    return;
  }
  const Model model = make_model(static_cast<std::size_t>(state.range(0)));
  if (const std::string e = model.validate(); !e.empty()) {
    state.SkipWithError(e.c_str());
    return;
  }
  Animator animator(model);
  animator.set_clip(model, 0);
  gl::GpuModel gpu(model);
  float t = 0.0f;
  for (auto _ : state) {
    t += 1.0f / 60.0f;
    if (t >= model.clips[0].duration) t -= model.clips[0].duration;
    if (!animator.evaluate(model, PoseMode::Clip, t)) state.SkipWithError("evaluate failed");
    gpu.upload_palette(animator.palette(), animator.normal_palette());
  }
  glFinish();
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(gpu_frame_cpu_cost)->Arg(10000)->Arg(100000)->Arg(1000000)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace sv::bench
