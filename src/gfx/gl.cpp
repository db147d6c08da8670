#include "gfx/gl.h"

#include <cstdio>

namespace sv::gl {
namespace {

const char* error_name(GLenum e) noexcept {
  switch (e) {
    case GL_INVALID_ENUM:
      return "GL_INVALID_ENUM";
    case GL_INVALID_VALUE:
      return "GL_INVALID_VALUE";
    case GL_INVALID_OPERATION:
      return "GL_INVALID_OPERATION";
    case GL_INVALID_FRAMEBUFFER_OPERATION:
      return "GL_INVALID_FRAMEBUFFER_OPERATION";
    case GL_OUT_OF_MEMORY:
      return "GL_OUT_OF_MEMORY";
    default:
      return "GL error";
  }
}

void GLAPIENTRY debug_message(GLenum /*source*/, GLenum type, GLuint id, GLenum severity,
                              GLsizei /*length*/, const GLchar* message, const void* /*user*/) {
  if (severity == GL_DEBUG_SEVERITY_NOTIFICATION) return;
  const char* kind = type == GL_DEBUG_TYPE_ERROR ? "error" : "message";
  std::fprintf(stderr, "skinview: GL %s %u: %s\n", kind, id, message);
}

}  // namespace

bool check_error(const char* what, const char* file, int line) noexcept {
  bool ok = true;
  for (GLenum e = glGetError(); e != GL_NO_ERROR; e = glGetError()) {
    std::fprintf(stderr, "skinview: %s at %s:%d after %s\n", error_name(e), file, line, what);
    ok = false;
  }
  return ok;
}

bool install_debug_output() noexcept {
  if (epoxy_gl_version() < 43 && !epoxy_has_gl_extension("GL_KHR_debug")) return false;
  glEnable(GL_DEBUG_OUTPUT);
  glEnable(GL_DEBUG_OUTPUT_SYNCHRONOUS);
  glDebugMessageCallback(debug_message, nullptr);
  return true;
}

}  // namespace sv::gl
