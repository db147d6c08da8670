// What the GL benchmarks share (gpu_bench.cpp, pick_bench.cpp): one hidden window with a GL
// 3.3 core context for the program (synthetic.h makes their models).
#pragma once

#include "gfx/gl.h"  // before GLFW

#include <GLFW/glfw3.h>

namespace sv::bench {

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

inline Context& context() {
  static Context c;
  return c;
}

}  // namespace sv::bench
