// Offscreen rendering and PNG capture: a framebuffer with a colour and a depth renderbuffer,
// read back with glReadPixels, flipped to top-down rows and written with libpng.
// Used by `skinview --screenshot` and by the tests; needs a current GL context.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "gfx/objects.h"

namespace sv::gl {

class OffscreenTarget {
 public:
  OffscreenTarget() = default;
  // Creates a width x height RGBA8 + depth target; false with `error` when incomplete.
  bool create(int width, int height, std::string* error);

  void bind() const noexcept;  // as the draw and read framebuffer
  static void unbind() noexcept;
  // Reads the colour buffer as top-down RGBA8 rows into `rgba` (resized to w*h*4).
  void read_rgba(std::vector<uint8_t>* rgba) const;

  int width() const noexcept { return width_; }
  int height() const noexcept { return height_; }

 private:
  Framebuffer fbo_;
  Renderbuffer color_;
  Renderbuffer depth_;
  int width_ = 0;
  int height_ = 0;
};

// Reads the current window's back buffer (width x height, before the swap) as top-down RGBA8
// rows: what the window is about to show, panels included.
void read_window_rgba(int width, int height, std::vector<uint8_t>* rgba);

// Writes top-down RGBA8 rows as a PNG; false with `error` on failure.
bool write_png(const std::string& path, int width, int height, const std::vector<uint8_t>& rgba,
               std::string* error);

}  // namespace sv::gl
