// Runs a program's vertex stage over every vertex of one GpuModel mesh and reads back one output
// per vertex with transform feedback (nothing rasterised) through gl::VertexCapture, the
// mechanism the CPU-vs-GPU difference view reads the GPU with: what the GL tests compare with
// the CPU side (skinned positions, debug-view colours). The program must have been linked with that
// output as its only feedback varying; the palette textures are bound at their units
// (gl::bind_palettes), as the renderer binds them, and `method` is skin.vert's u_method (the
// caller uploads the method palette, and for CoR the centres, first), `influences` its
// u_influences (gl::influences_uniform: 8 only on a mesh that keeps a second set), `compact` its
// u_compact with the compact vertex array (gfx/gpu_model.h) where the mesh has one. Needs the
// shared GL context current.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include <gtest/gtest.h>

#include "gfx/gpu_model.h"
#include "gfx/skin_readback.h"
#include "skin/skin_method.h"

namespace sv::test {

template <class T>
std::vector<T> capture_vertices(GLuint program, const gl::GpuModel& gpu, std::size_t m,
                                SkinMethod method = SkinMethod::Lbs, int influences = 4,
                                bool compact = false) {
  const auto n = static_cast<std::size_t>(gpu.meshes()[m].vertex_count);
  std::vector<T> result(n);
  // The renderer's own mechanism (gfx/skin_readback.h), with a buffer of its own per call.
  gl::VertexCapture capture;
  EXPECT_TRUE(capture.run(program, gl::SkinUniforms::of(program), gpu, m, method,
                          std::as_writable_bytes(std::span<T>(result)), sizeof(T), influences,
                          compact));
  EXPECT_EQ(glGetError(), static_cast<GLenum>(GL_NO_ERROR));
  return result;
}

}  // namespace sv::test
