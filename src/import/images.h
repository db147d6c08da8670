// Texture images in the import worker: which files a material's texture may be read from, how
// they are read, and their decoding to 8-bit RGBA within a pixel budget.
//
// A model file is hostile until the worker has read it, and so is every path it names. A
// texture is loaded only when all of these hold, in this order (the first that fails is named in
// the import report, and the model loads without that texture):
//  - its path, resolved against the model's folder and then by realpath (every symbolic link
//    followed), lies inside the model's folder tree or inside a folder the user allowed with
//    --texture-path DIR (also resolved): an absolute path or `../..` to elsewhere is refused;
//  - it opens with O_NOFOLLOW | O_NONBLOCK (a FIFO does not block the open), and fstat says it
//    is a regular file (not a FIFO, a device such as /dev/zero, a socket, a folder);
//  - its size, from fstat, is at most kMaxImageFileBytes before a byte is read, and reading
//    stops there (a file that grows while it is read is refused);
//  - its first bytes are a PNG, JPEG, BMP or GIF signature (or it is named .tga): stb_image's
//    other decoders are not offered untrusted bytes;
//  - the size its header declares is within kMaxImageSide on a side, kMaxImagePixels in all and
//    the pixels left of the budget (ImageRules::pixel_budget), checked before decoding: a 1 MB
//    PNG declaring 16k x 16k is refused without allocating its pixels.
// Images embedded in the model file are decoded under the same budget. Everything here runs in
// the worker, under its memory, CPU and time limits; the parent receives the pixels in the model
// stream (io/model_format.h, IMAG) and never decodes an image.
#pragma once

#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "anim/model.h"
#include "io/import.h"

namespace sv {

struct ImageRules {
  // The model's folder: relative texture paths resolve against it, and its tree is where
  // textures may lie. "" (a model held in memory): no texture file is opened.
  std::string model_dir;
  // More folders whose trees textures may lie in (--texture-path DIR).
  std::vector<std::string> allowed_dirs;
  // Pixels all of one model's images may hold together (the worker lowers it under a small
  // --memory-limit: worker_main.cpp).
  uint64_t pixel_budget = kMaxImagePixelsTotal;
};

// Decodes the image in `bytes` to RGBA8 into `out` (width, height, rgba; `out.source` is left
// alone). `hint` is a lower-case file extension or assimp format hint without the dot ("png",
// "tga", ""): only a TGA, which has no signature, needs it. `max_pixels` is the budget left.
// Returns "" or why it was not decoded (one line). Never throws, except std::bad_alloc.
std::string decode_image(std::span<const uint8_t> bytes, std::string_view hint, uint64_t max_pixels,
                         Image& out);

// Reads the regular file `path` whole into `out`, at most `max_bytes`: O_NOFOLLOW, fstat's
// S_ISREG and size checked before reading. "" or why not (one line).
std::string read_regular_file(const std::string& path, uint64_t max_bytes,
                              std::vector<uint8_t>& out);

// The real path of the texture `name` (as a material gives it) when it lies inside an allowed
// tree; otherwise "" and `why` says why not ("no such file", "outside the model's folder ...").
std::string resolve_texture(const std::string& name, const ImageRules& rules, std::string* why);

// Loads one model's textures into model.images, once per file or embedded image, and notes
// in the report each texture that was not loaded (ImportReport::textures_not_loaded).
class TextureLoader {
 public:
  TextureLoader(ImageRules rules, Model& model, ImportReport& report);

  // Each returns the index in model.images, or -1 when not loaded (noted once per texture).
  // `texture` is the name the material gives, `material` the material's name.
  int32_t from_file(const std::string& texture, const std::string& material);
  // An embedded compressed image (assimp: an aiTexture of height 0); `key` tells embedded
  // images apart.
  int32_t from_bytes(std::span<const uint8_t> bytes, std::string_view hint, const std::string& key,
                     const std::string& texture, const std::string& material);
  // An embedded uncompressed image: width x height texels of B, G, R, A bytes (aiTexel).
  int32_t from_bgra(uint32_t width, uint32_t height, std::span<const uint8_t> bgra,
                    const std::string& key, const std::string& texture,
                    const std::string& material);

  // The files read (real paths), for the provenance a cache checks.
  const std::vector<std::string>& files_read() const noexcept { return files_read_; }
  // Adds the summary note past the per-texture ones; call once, at the end.
  void finish();

 private:
  int32_t refuse(const std::string& key, const std::string& texture, const std::string& material,
                 const std::string& why);
  int32_t keep(const std::string& key, Image&& image);

  ImageRules rules_;
  Model& model_;
  ImportReport& report_;
  std::map<std::string, int32_t> done_;  // key (real path or embedded key) -> index or -1
  std::vector<std::string> files_read_;
  uint64_t notes_left_ = 32;
  uint64_t pixels_left_;
};

}  // namespace sv
