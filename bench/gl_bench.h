// What the GL benchmarks share (gpu_bench.cpp, pick_bench.cpp): one hidden window with a GL
// 3.3 core context for the program, and a model of one synthetic skinned mesh.
#pragma once

#include "gfx/gl.h"  // before GLFW

#include <GLFW/glfw3.h>

#include "anim/model.h"
#include "synthetic.h"

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

// A 60-joint skeleton and clip (synthetic.h) with one mesh of `vertices` skinned vertices.
inline Model make_model(std::size_t vertices) {
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

}  // namespace sv::bench
