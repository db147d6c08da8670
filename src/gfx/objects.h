// Move-only owners of OpenGL objects (buffer, vertex array, shader, program, texture,
// framebuffer, renderbuffer, query).
//
// Each wraps one GL name and deletes it in its destructor, so the GL context must still be
// current when the owner dies: owners live inside objects (Renderer, GpuModel, Capture) that the
// application destroys before it destroys the window. A default-constructed owner holds 0 and
// deletes nothing. Creation uses the glGen* calls (GL 3.3), not DSA (4.5), to keep 3.3 working.
#pragma once

#include <utility>

#include "gfx/gl.h"

namespace sv::gl {

template <class Tag>
class Object {
 public:
  Object() noexcept = default;
  explicit Object(GLuint id) noexcept : id_(id) {}
  ~Object() { reset(); }
  Object(Object&& o) noexcept : id_(std::exchange(o.id_, 0u)) {}
  Object& operator=(Object&& o) noexcept {
    if (this != &o) {
      reset();
      id_ = std::exchange(o.id_, 0u);
    }
    return *this;
  }
  Object(const Object&) = delete;
  Object& operator=(const Object&) = delete;

  // Creates a fresh GL name (for types made by glGen*/glCreateShader, see create()).
  static Object create() noexcept { return Object(Tag::create()); }

  GLuint id() const noexcept { return id_; }
  explicit operator bool() const noexcept { return id_ != 0; }
  void reset() noexcept {
    if (id_ != 0) Tag::destroy(id_);
    id_ = 0;
  }

 private:
  GLuint id_ = 0;
};

struct BufferTag {
  static GLuint create() noexcept {
    GLuint n = 0;
    glGenBuffers(1, &n);
    return n;
  }
  static void destroy(GLuint n) noexcept { glDeleteBuffers(1, &n); }
};
struct VertexArrayTag {
  static GLuint create() noexcept {
    GLuint n = 0;
    glGenVertexArrays(1, &n);
    return n;
  }
  static void destroy(GLuint n) noexcept { glDeleteVertexArrays(1, &n); }
};
struct TextureTag {
  static GLuint create() noexcept {
    GLuint n = 0;
    glGenTextures(1, &n);
    return n;
  }
  static void destroy(GLuint n) noexcept { glDeleteTextures(1, &n); }
};
struct FramebufferTag {
  static GLuint create() noexcept {
    GLuint n = 0;
    glGenFramebuffers(1, &n);
    return n;
  }
  static void destroy(GLuint n) noexcept { glDeleteFramebuffers(1, &n); }
};
struct RenderbufferTag {
  static GLuint create() noexcept {
    GLuint n = 0;
    glGenRenderbuffers(1, &n);
    return n;
  }
  static void destroy(GLuint n) noexcept { glDeleteRenderbuffers(1, &n); }
};
struct QueryTag {
  static GLuint create() noexcept {
    GLuint n = 0;
    glGenQueries(1, &n);
    return n;
  }
  static void destroy(GLuint n) noexcept { glDeleteQueries(1, &n); }
};
struct ShaderTag {
  static void destroy(GLuint n) noexcept { glDeleteShader(n); }
};
struct ProgramTag {
  static GLuint create() noexcept { return glCreateProgram(); }
  static void destroy(GLuint n) noexcept { glDeleteProgram(n); }
};

using Buffer = Object<BufferTag>;
using VertexArray = Object<VertexArrayTag>;
using Texture = Object<TextureTag>;
using Framebuffer = Object<FramebufferTag>;
using Renderbuffer = Object<RenderbufferTag>;
using Query = Object<QueryTag>;
using Shader = Object<ShaderTag>;  // made with glCreateShader(type): Shader(glCreateShader(t))
using Program = Object<ProgramTag>;

}  // namespace sv::gl
