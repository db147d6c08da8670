// Runs a program's vertex stage over every vertex of one GpuModel mesh and reads back one output
// per vertex with transform feedback (nothing rasterised): what the GL tests compare with the
// CPU side (skinned positions, debug-view colours). The program must have been linked with that
// output as its only feedback varying; the palette textures are bound at their units
// (gl::bind_palettes), as the renderer binds them, and `method` is skin.vert's u_method (the
// caller uploads the method palette, and for CoR the centres, first), `influences` its
// u_influences (gl::influences_uniform: 8 only on a mesh that keeps a second set). Needs the shared
// GL context current.
#pragma once

#include <cstddef>
#include <vector>

#include <gtest/gtest.h>

#include "anim/skin_method.h"
#include "gfx/gpu_model.h"

namespace sv::test {

template <class T>
std::vector<T> capture_vertices(GLuint program, const gl::GpuModel& gpu, std::size_t m,
                                SkinMethod method = SkinMethod::Lbs, int influences = 4) {
  const gl::GpuMesh& mesh = gpu.meshes()[m];
  const auto n = static_cast<std::size_t>(mesh.vertex_count);
  gl::Buffer out = gl::Buffer::create();
  glBindBuffer(GL_TRANSFORM_FEEDBACK_BUFFER, out.id());
  glBufferData(GL_TRANSFORM_FEEDBACK_BUFFER, static_cast<GLsizeiptr>(n * sizeof(T)), nullptr,
               GL_STREAM_READ);
  glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 0, out.id());
  glUseProgram(program);
  glUniform1i(glGetUniformLocation(program, "u_palette_base"), mesh.palette_base);
  glUniform1i(glGetUniformLocation(program, "u_palette"), gl::kPaletteUnit);
  glUniform1i(glGetUniformLocation(program, "u_normal_palette"), gl::kNormalPaletteUnit);
  glUniform1i(glGetUniformLocation(program, "u_method_palette"), gl::kMethodPaletteUnit);
  glUniform1i(glGetUniformLocation(program, "u_method"), static_cast<GLint>(method));
  glUniform1i(glGetUniformLocation(program, "u_influences"),
              gl::influences_uniform(mesh, influences));
  gl::bind_palettes(gpu);
  glBindVertexArray(mesh.vao_gpu.id());
  glEnable(GL_RASTERIZER_DISCARD);
  glBeginTransformFeedback(GL_POINTS);
  glDrawArrays(GL_POINTS, 0, mesh.vertex_count);
  glEndTransformFeedback();
  glDisable(GL_RASTERIZER_DISCARD);
  glBindVertexArray(0);
  std::vector<T> result(n);
  glGetBufferSubData(GL_TRANSFORM_FEEDBACK_BUFFER, 0, static_cast<GLsizeiptr>(n * sizeof(T)),
                     result.data());
  glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 0, 0);
  EXPECT_EQ(glGetError(), static_cast<GLenum>(GL_NO_ERROR));
  return result;
}

}  // namespace sv::test
