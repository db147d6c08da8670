// The one OpenGL include of the tree. Everything that issues GL calls includes this header and
// nothing else GL-related, so the loader (libepoxy today) can change in one place. epoxy must
// come before GLFW; GLFW is built with GLFW_INCLUDE_NONE (see third_party/CMakeLists.txt).
//
// SV_GL_CHECK() reports glGetError() after a call in debug builds and compiles to nothing in
// release builds, where the KHR_debug callback (install_gl_debug_output) is the tool of choice.
#pragma once

#include <epoxy/gl.h>  // IWYU pragma: export

namespace sv::gl {

// Logs (to stderr) and clears every pending GL error; returns true when there was none.
bool check_error(const char* what, const char* file, int line) noexcept;

// Installs a KHR_debug message callback that logs to stderr, when the context has GL 4.3 or
// the KHR_debug extension. Returns false when neither is available. Call once per context.
bool install_debug_output() noexcept;

}  // namespace sv::gl

#ifdef NDEBUG
#define SV_GL_CHECK(what) ((void)0)
#else
#define SV_GL_CHECK(what) ::sv::gl::check_error((what), __FILE__, __LINE__)
#endif
