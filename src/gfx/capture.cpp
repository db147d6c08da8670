#include "gfx/capture.h"

#include <cstring>

#include <stb_image_write.h>

namespace sv::gl {

bool OffscreenTarget::create(int width, int height, std::string* error) {
  width_ = width;
  height_ = height;
  fbo_ = Framebuffer::create();
  color_ = Renderbuffer::create();
  depth_ = Renderbuffer::create();
  glBindRenderbuffer(GL_RENDERBUFFER, color_.id());
  glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, width, height);
  glBindRenderbuffer(GL_RENDERBUFFER, depth_.id());
  glRenderbufferStorage(GL_RENDERBUFFER, GL_DEPTH_COMPONENT24, width, height);
  glBindRenderbuffer(GL_RENDERBUFFER, 0);
  glBindFramebuffer(GL_FRAMEBUFFER, fbo_.id());
  glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, color_.id());
  glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, depth_.id());
  const GLenum status = glCheckFramebufferStatus(GL_FRAMEBUFFER);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  if (status != GL_FRAMEBUFFER_COMPLETE) {
    *error = "offscreen framebuffer " + std::to_string(width) + "x" + std::to_string(height) +
             " is incomplete (status 0x" + std::to_string(status) + ")";
    return false;
  }
  return true;
}

void OffscreenTarget::bind() const noexcept { glBindFramebuffer(GL_FRAMEBUFFER, fbo_.id()); }

void OffscreenTarget::unbind() noexcept { glBindFramebuffer(GL_FRAMEBUFFER, 0); }

namespace {

// Reads `framebuffer`'s colour (0: the window's back buffer) as top-down RGBA8 rows.
void read_rows(GLuint framebuffer, int width, int height, std::vector<uint8_t>* rgba) {
  const auto row = static_cast<std::size_t>(width) * 4;
  rgba->resize(row * static_cast<std::size_t>(height));
  glBindFramebuffer(GL_READ_FRAMEBUFFER, framebuffer);
  if (framebuffer == 0) glReadBuffer(GL_BACK);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadPixels(0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, rgba->data());
  glBindFramebuffer(GL_READ_FRAMEBUFFER, 0);
  // GL rows run bottom-up; PNG rows top-down.
  std::vector<uint8_t> tmp(row);
  for (int y = 0; y < height / 2; ++y) {
    uint8_t* a = rgba->data() + static_cast<std::size_t>(y) * row;
    uint8_t* b = rgba->data() + static_cast<std::size_t>(height - 1 - y) * row;
    std::memcpy(tmp.data(), a, row);
    std::memcpy(a, b, row);
    std::memcpy(b, tmp.data(), row);
  }
  SV_GL_CHECK("read_rows");
}

}  // namespace

void OffscreenTarget::read_rgba(std::vector<uint8_t>* rgba) const {
  read_rows(fbo_.id(), width_, height_, rgba);
}

void read_window_rgba(int width, int height, std::vector<uint8_t>* rgba) {
  read_rows(0, width, height, rgba);
}

bool write_png(const std::string& path, int width, int height, const std::vector<uint8_t>& rgba,
               std::string* error) {
  if (rgba.size() != static_cast<std::size_t>(width) * static_cast<std::size_t>(height) * 4) {
    *error = "write_png: pixel buffer does not match " + std::to_string(width) + "x" +
             std::to_string(height);
    return false;
  }
  // stb's defaults try all five row filters on every row and search deflate's matches 16 deep:
  // 120 ms of CPU for a 1280x720 picture of the viewer, a tenth of a first open's (BENCHMARKS.md
  // round 20b). The "up" filter alone and matches searched 10 deep take half that, for a file 3-5%
  // larger. Set once, before any picture (stb reads the globals in each call).
  static const bool tuned = [] {
    stbi_write_png_compression_level = 5;
    stbi_write_force_png_filter = 2;
    return true;
  }();
  (void)tuned;
  if (stbi_write_png(path.c_str(), width, height, 4, rgba.data(), width * 4) == 0) {
    *error = "cannot write " + path;
    return false;
  }
  return true;
}

}  // namespace sv::gl
