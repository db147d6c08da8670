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

#include "anim/animator.h"
#include "anim/model.h"
#include "anim/player.h"
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

void gpu_frame_cpu_cost(benchmark::State& state) {
  if (!context().ok()) {
    state.SkipWithError("no display or GL 3.3 core context (run under xvfb-run)");
    return;
  }
  const Model model = make_model(60, static_cast<std::size_t>(state.range(0)));
  if (const std::string e = model.validate(); !e.empty()) {
    state.SkipWithError(e.c_str());
    return;
  }
  Animator animator(model);
  animator.set_clip(model, 0);
  gl::GpuModel gpu(model);
  double t = 0.0;
  for (auto _ : state) {
    t = wrap_time(t + 1.0 / 60.0, model.clips[0].duration(), true);
    if (!animator.evaluate(model, PoseMode::Clip, t)) state.SkipWithError("evaluate failed");
    gpu.upload_palette(animator.palette(), animator.normal_palette());
  }
  glFinish();
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(gpu_frame_cpu_cost)->Arg(10000)->Arg(100000)->Arg(1000000)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace sv::bench
