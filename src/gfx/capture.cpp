#include "gfx/capture.h"

#include <cerrno>
#include <csetjmp>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include <png.h>

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
  FILE* file = std::fopen(path.c_str(), "wb");
  if (file == nullptr) {
    *error = "cannot write " + path + " (" + std::strerror(errno) + ")";
    return false;
  }
  // libpng's message goes into `said` rather than stderr; its error handler must not return.
  char said[256] = "";
  png_structp png = png_create_write_struct(
      PNG_LIBPNG_VER_STRING, said,
      [](png_structp p, png_const_charp what) {
        std::snprintf(static_cast<char*>(png_get_error_ptr(p)), 256, "%s", what);
        png_longjmp(p, 1);
      },
      [](png_structp, png_const_charp) {});
  png_infop info = png != nullptr ? png_create_info_struct(png) : nullptr;
  bool ok = info != nullptr;
  // libpng reports a failure by longjmp to here: nothing with a destructor lives in this scope.
  if (ok && setjmp(png_jmpbuf(png)) == 0) {
    png_init_io(png, file);
    // The "up" filter on every row and deflate at level 3: 15 ms for a 1280x720 picture of the
    // viewer, a file 15% smaller than stb's at its level 5 in 40-60 ms (BENCHMARKS.md round 36).
    png_set_compression_level(png, 3);
    png_set_filter(png, PNG_FILTER_TYPE_BASE, PNG_FILTER_UP);
    png_set_IHDR(png, info, static_cast<png_uint_32>(width), static_cast<png_uint_32>(height), 8,
                 PNG_COLOR_TYPE_RGBA, PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_BASE,
                 PNG_FILTER_TYPE_BASE);
    png_write_info(png, info);
    for (int y = 0; y < height; ++y)
      png_write_row(png, rgba.data() + static_cast<std::size_t>(y) * width * 4);
    png_write_end(png, info);
  } else {
    ok = false;
  }
  png_destroy_write_struct(&png, &info);
  if (std::fclose(file) != 0) ok = false;
  if (!ok) {
    *error = "cannot write " + path + (said[0] != '\0' ? std::string(" (") + said + ")" : "");
    std::error_code ec;
    if (std::filesystem::is_regular_file(path, ec)) std::filesystem::remove(path, ec);
    return false;
  }
  return true;
}

}  // namespace sv::gl
