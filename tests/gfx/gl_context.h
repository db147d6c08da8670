// A hidden GLFW window with a 3.3+ core context for GL tests. Tests call SV_REQUIRE_GL() first:
// without a display (no Xvfb) or without a usable context they are skipped, not failed (the
// GLFW error is printed); with a display, a failed attempt is retried a few times first.
// One context serves the whole test program (made on first use, destroyed at exit): opening
// and closing an X connection per test made Xvfb refuse some connections under load.
#pragma once

#include "gfx/gl.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <utility>

#include <GLFW/glfw3.h>
#include <gtest/gtest.h>

namespace sv::test {

class GlContext {
 public:
  GlContext() {
    glfwSetErrorCallback([](int code, const char* what) {
      std::fprintf(stderr, "GLFW error %d: %s\n", code, what);
    });
    // With a display named, a failure may be the X server busy with the other test programs
    // (ctest -j): try a few times before skipping. Without one, skip at once.
    const char* display = std::getenv("DISPLAY");
    const int tries = display != nullptr && display[0] != '\0' ? 5 : 1;
    for (int attempt = 0; attempt < tries && window_ == nullptr; ++attempt) {
      if (attempt > 0) std::this_thread::sleep_for(std::chrono::milliseconds(200 * attempt));
      if (glfwInit() != GLFW_TRUE) continue;
      glfwWindowHint(GLFW_VISIBLE, GLFW_FALSE);
      glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
      glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
      for (auto [major, minor] : {std::pair{4, 1}, std::pair{3, 3}}) {
        glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, major);
        glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, minor);
        window_ = glfwCreateWindow(64, 64, "skinview test", nullptr, nullptr);
        if (window_ != nullptr) break;
      }
      if (window_ == nullptr) glfwTerminate();
    }
    if (window_ != nullptr) glfwMakeContextCurrent(window_);
  }
  ~GlContext() {
    if (window_ != nullptr) glfwDestroyWindow(window_);
    glfwTerminate();
  }
  GlContext(const GlContext&) = delete;
  GlContext& operator=(const GlContext&) = delete;
  bool ok() const noexcept { return window_ != nullptr; }

 private:
  GLFWwindow* window_ = nullptr;
};

// The test program's one context; ok() is false when none could be made.
inline const GlContext& shared_gl_context() {
  static GlContext context;
  return context;
}

}  // namespace sv::test

// Skips the test when no context can be made; otherwise the shared context is current.
#define SV_REQUIRE_GL() \
  if (!::sv::test::shared_gl_context().ok()) GTEST_SKIP() << "no display or GL 3.3 core context"
