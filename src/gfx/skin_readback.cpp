#include "gfx/skin_readback.h"

#include "gfx/gpu_model.h"
#include "gfx/shader.h"

namespace sv::gl {

bool VertexCapture::run(GLuint program, const SkinUniforms& u, const GpuModel& gpu,
                        std::size_t mesh, SkinMethod method, std::span<std::byte> out,
                        std::size_t bytes_per_vertex, int influences, bool compact) noexcept {
  if (mesh >= gpu.meshes().size()) return false;
  const GpuMesh& m = gpu.meshes()[mesh];
  const auto n = static_cast<std::size_t>(m.vertex_count);
  const std::size_t bytes = n * bytes_per_vertex;
  if (out.size() != bytes) return false;
  if (n == 0) return true;
  if (!buffer_) buffer_ = Buffer::create();
  glBindBuffer(GL_TRANSFORM_FEEDBACK_BUFFER, buffer_.id());
  if (bytes > capacity_) {
    glBufferData(GL_TRANSFORM_FEEDBACK_BUFFER, static_cast<GLsizeiptr>(bytes), nullptr,
                 GL_STREAM_READ);
    capacity_ = bytes;
  }
  glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 0, buffer_.id());
  glUseProgram(program);
  glUniform1i(u.palette_base, m.palette_base);
  u.set_palette_units();
  // Its own unit even when unread: two samplers of different types on one unit (this one and
  // mesh.frag's base texture on 0) make the draw invalid.
  glUniform1i(u.vertex_values, kVertexValueUnit);
  glUniform1i(u.method, static_cast<GLint>(method));
  glUniform1i(u.influences, influences_uniform(m, influences));
  u.morph.set(m);
  compact = draws_compact(m, compact);
  glUniform1i(u.compact, compact ? 1 : 0);
  bind_palettes(gpu);
  glBindVertexArray(gpu.vertex_array(mesh, true, compact));
  glEnable(GL_RASTERIZER_DISCARD);
  glBeginTransformFeedback(GL_POINTS);
  glDrawArrays(GL_POINTS, 0, m.vertex_count);
  glEndTransformFeedback();
  glDisable(GL_RASTERIZER_DISCARD);
  glBindVertexArray(0);
  glGetBufferSubData(GL_TRANSFORM_FEEDBACK_BUFFER, 0, static_cast<GLsizeiptr>(bytes), out.data());
  glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 0, 0);
  glBindBuffer(GL_TRANSFORM_FEEDBACK_BUFFER, 0);
  glUseProgram(0);
  SV_GL_CHECK("VertexCapture::run");
  return true;
}

bool SkinReadback::init(std::string* error) {
  ProgramResult r = build_program(
      {{"common.vert", "skin.vert"}, {"mesh.frag"}, skin_program_defines(), {"v_model_position"}});
  if (!r.ok()) {
    if (error != nullptr) *error = r.error;
    return false;
  }
  program_ = std::move(r.program);
  uniforms_ = SkinUniforms::of(program_.id());
  return true;
}

bool SkinReadback::read(const GpuModel& gpu, std::size_t mesh, SkinMethod method, int influences,
                        std::span<glm::vec3> out, bool compact) noexcept {
  if (!ready()) return false;
  return capture_.run(program_.id(), uniforms_, gpu, mesh, method, std::as_writable_bytes(out),
                      sizeof(glm::vec3), influences, compact);
}

}  // namespace sv::gl
