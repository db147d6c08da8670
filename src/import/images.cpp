#include "import/images.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <utility>

#include <stb_image.h>

namespace sv {
namespace {

bool starts_with(std::span<const uint8_t> b, std::string_view sig) {
  return b.size() >= sig.size() && std::memcmp(b.data(), sig.data(), sig.size()) == 0;
}

// The format stb_image may decode `b` as, or nullptr: PNG, JPEG, BMP and GIF by signature; TGA
// (no signature) only when named so and not another format's signature.
const char* image_format(std::span<const uint8_t> b, std::string_view hint) {
  using namespace std::string_view_literals;
  if (starts_with(b, "\x89PNG\r\n\x1a\n"sv)) return "PNG";
  if (starts_with(b, "\xff\xd8\xff"sv)) return "JPEG";
  if (starts_with(b, "BM"sv)) return "BMP";
  if (starts_with(b, "GIF87a"sv) || starts_with(b, "GIF89a"sv)) return "GIF";
  if (hint == "tga" || hint == "targa") {
    for (std::string_view other : {"8BPS"sv, "#?"sv, "P5"sv, "P6"sv, "\x53\x80\xf6\x34"sv})
      if (starts_with(b, other)) return nullptr;
    return "TGA";
  }
  return nullptr;
}

std::string lower(std::string s) {
  for (char& c : s)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return s;
}

std::string real_path(const std::string& path) {
  char* r = ::realpath(path.c_str(), nullptr);
  if (!r) return {};
  std::string out = r;
  std::free(r);
  return out;
}

bool inside(const std::string& path, const std::string& root) {
  if (root.empty() || path.size() < root.size() || path.compare(0, root.size(), root) != 0)
    return false;
  return path.size() == root.size() || root.back() == '/' || path[root.size()] == '/';
}

}  // namespace

std::string decode_image(std::span<const uint8_t> bytes, std::string_view hint, uint64_t max_pixels,
                         Image& out) {
  if (bytes.empty()) return "an empty image";
  if (bytes.size() > kMaxImageFileBytes || bytes.size() > static_cast<std::size_t>(INT_MAX))
    return std::to_string(bytes.size()) + " bytes, more than the limit of " +
           std::to_string(kMaxImageFileBytes);
  const char* format = image_format(bytes, hint);
  if (!format) return "not a PNG, JPEG, BMP, GIF or TGA image";
  const int len = static_cast<int>(bytes.size());
  int w = 0, h = 0, channels = 0;
  if (!stbi_info_from_memory(bytes.data(), len, &w, &h, &channels)) {
    const char* why = stbi_failure_reason();
    return std::string("cannot read its ") + format + " header (" + (why ? why : "unknown") + ")";
  }
  const std::string size = std::to_string(w) + " x " + std::to_string(h) + " pixels";
  if (w <= 0 || h <= 0) return std::string(format) + " header declares " + size;
  if (static_cast<uint64_t>(w) > kMaxImageSide || static_cast<uint64_t>(h) > kMaxImageSide)
    return size + ", more than " + std::to_string(kMaxImageSide) + " on a side";
  const uint64_t pixels = static_cast<uint64_t>(w) * static_cast<uint64_t>(h);
  if (pixels > kMaxImagePixels)
    return size + ", more than the limit of " + std::to_string(kMaxImagePixels) + " per image";
  if (pixels > max_pixels)
    return size + ", more than the " + std::to_string(max_pixels) +
           " pixels left of the images' budget";
  int dw = 0, dh = 0;
  stbi_uc* rgba = stbi_load_from_memory(bytes.data(), len, &dw, &dh, &channels, 4);
  if (!rgba) {
    const char* why = stbi_failure_reason();
    return std::string("cannot decode it as ") + format + " (" + (why ? why : "unknown") + ")";
  }
  if (dw != w || dh != h) {
    stbi_image_free(rgba);
    return "it decodes to another size than its header declares";
  }
  try {
    out.width = static_cast<uint32_t>(w);
    out.height = static_cast<uint32_t>(h);
    out.rgba.assign(rgba, rgba + 4 * pixels);
  } catch (...) {
    stbi_image_free(rgba);
    throw;
  }
  stbi_image_free(rgba);
  return {};
}

std::string read_regular_file(const std::string& path, uint64_t max_bytes,
                              std::vector<uint8_t>& out) {
  out.clear();
  // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer.
  const int fd = ::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) {
    if (errno == ELOOP) return "a symbolic link (swapped in while it was opened)";
    return std::string("cannot open it (") + std::strerror(errno) + ")";
  }
  struct stat st {};
  std::string why;
  if (::fstat(fd, &st) != 0) {
    why = std::string("cannot stat it (") + std::strerror(errno) + ")";
  } else if (!S_ISREG(st.st_mode)) {
    why = S_ISDIR(st.st_mode)    ? "a folder, not a regular file"
          : S_ISFIFO(st.st_mode) ? "a FIFO, not a regular file"
          : S_ISCHR(st.st_mode)  ? "a character device, not a regular file"
          : S_ISBLK(st.st_mode)  ? "a block device, not a regular file"
          : S_ISSOCK(st.st_mode) ? "a socket, not a regular file"
                                 : "not a regular file";
  } else if (static_cast<uint64_t>(st.st_size) > max_bytes) {
    why =
        std::to_string(st.st_size) + " bytes, more than the limit of " + std::to_string(max_bytes);
  } else {
    const auto size = static_cast<std::size_t>(st.st_size);
    out.resize(size);
    std::size_t got = 0;
    while (why.empty() && got < size) {
      const ssize_t n = ::read(fd, out.data() + got, size - got);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0)
        why = std::string("cannot read it (") + std::strerror(errno) + ")";
      else if (n == 0)
        why = "it shrank while it was read";
      else
        got += static_cast<std::size_t>(n);
    }
    uint8_t extra = 0;
    ssize_t n = 0;
    while (why.empty() && (n = ::read(fd, &extra, 1)) < 0 && errno == EINTR) {
    }
    if (why.empty() && n > 0) why = "it grew while it was read";
  }
  ::close(fd);
  if (!why.empty()) out.clear();
  return why;
}

std::string resolve_texture(const std::string& name, const ImageRules& rules, std::string* why) {
  namespace fs = std::filesystem;
  if (rules.model_dir.empty()) {
    *why = "a model held in memory opens no texture file";
    return {};
  }
  if (name.empty() || name.find('\0') != std::string::npos) {
    *why = "an empty or malformed path";
    return {};
  }
  // Files written on Windows name "textures\skin.png": tried as given first.
  std::vector<std::string> candidates = {name};
  if (name.find('\\') != std::string::npos) {
    std::string slashed = name;
    for (char& c : slashed)
      if (c == '\\') c = '/';
    candidates.push_back(slashed);
  }
  std::string real;
  for (const std::string& c : candidates) {
    const fs::path p = fs::path(c).is_absolute() ? fs::path(c) : fs::path(rules.model_dir) / c;
    real = real_path(p.string());
    if (!real.empty()) break;
  }
  if (real.empty()) {
    *why = "no such file";
    return {};
  }
  std::vector<std::string> roots = {rules.model_dir};
  roots.insert(roots.end(), rules.allowed_dirs.begin(), rules.allowed_dirs.end());
  for (const std::string& root : roots)
    if (inside(real, real_path(root))) return real;
  *why = "it resolves to " + real +
         ", outside the model's folder (--texture-path DIR allows another folder)";
  return {};
}

TextureLoader::TextureLoader(ImageRules rules, Model& model, ImportReport& report)
    : rules_(std::move(rules)),
      model_(model),
      report_(report),
      pixels_left_(std::min(rules_.pixel_budget, kMaxImagePixelsTotal)) {}

int32_t TextureLoader::refuse(const std::string& key, const std::string& texture,
                              const std::string& material, const std::string& why) {
  done_[key] = -1;
  ++report_.textures_not_loaded;
  if (notes_left_ > 0) {
    --notes_left_;
    report_.notes.push_back("Texture '" + texture + "' of material '" + material +
                            "' was not loaded: " + why + ".");
  }
  return -1;
}

int32_t TextureLoader::keep(const std::string& key, Image&& image) {
  if (model_.images.size() >= kMaxImages) return -2;
  pixels_left_ -= uint64_t{image.width} * image.height;
  model_.images.push_back(std::move(image));
  const auto index = static_cast<int32_t>(model_.images.size() - 1);
  done_[key] = index;
  return index;
}

int32_t TextureLoader::from_file(const std::string& texture, const std::string& material) {
  const std::string key = "file:" + texture;
  if (const auto it = done_.find(key); it != done_.end()) return it->second;
  std::string why;
  const std::string real = resolve_texture(texture, rules_, &why);
  if (real.empty()) return refuse(key, texture, material, why);
  const std::string real_key = "real:" + real;
  if (const auto it = done_.find(real_key); it != done_.end()) return done_[key] = it->second;
  std::vector<uint8_t> bytes;
  if (std::string e = read_regular_file(real, kMaxImageFileBytes, bytes); !e.empty())
    return refuse(key, texture, material, e);
  files_read_.push_back(real);
  Image image;
  const std::string ext = lower(std::filesystem::path(real).extension().string());
  if (std::string e = decode_image(bytes, ext.empty() ? ext : ext.substr(1), pixels_left_, image);
      !e.empty())
    return refuse(key, texture, material, e);
  image.source = texture;
  const int32_t index = keep(real_key, std::move(image));
  if (index < 0)
    return refuse(key, texture, material, "more than " + std::to_string(kMaxImages) + " images");
  return done_[key] = index;
}

int32_t TextureLoader::from_bytes(std::span<const uint8_t> bytes, std::string_view hint,
                                  const std::string& key, const std::string& texture,
                                  const std::string& material) {
  if (const auto it = done_.find(key); it != done_.end()) return it->second;
  Image image;
  if (std::string e = decode_image(bytes, lower(std::string(hint)), pixels_left_, image);
      !e.empty())
    return refuse(key, texture, material, "embedded image: " + e);
  image.source = "embedded " + texture;
  const int32_t index = keep(key, std::move(image));
  return index >= 0 ? index
                    : refuse(key, texture, material,
                             "more than " + std::to_string(kMaxImages) + " images");
}

int32_t TextureLoader::from_bgra(uint32_t width, uint32_t height, std::span<const uint8_t> bgra,
                                 const std::string& key, const std::string& texture,
                                 const std::string& material) {
  if (const auto it = done_.find(key); it != done_.end()) return it->second;
  const uint64_t pixels = uint64_t{width} * height;
  const std::string size = std::to_string(width) + " x " + std::to_string(height) + " pixels";
  std::string why;
  if (width == 0 || height == 0 || width > kMaxImageSide || height > kMaxImageSide)
    why = size + ", outside 1 to " + std::to_string(kMaxImageSide) + " on a side";
  else if (pixels > kMaxImagePixels)
    why = size + ", more than the limit of " + std::to_string(kMaxImagePixels) + " per image";
  else if (pixels > pixels_left_)
    why = size + ", more than the " + std::to_string(pixels_left_) +
          " pixels left of the images' budget";
  else if (bgra.size() != 4 * pixels)
    why = std::to_string(bgra.size()) + " bytes for " + size;
  if (!why.empty()) return refuse(key, texture, material, "embedded image: " + why);
  Image image;
  image.source = "embedded " + texture;
  image.width = width;
  image.height = height;
  image.rgba.resize(4 * pixels);
  for (uint64_t i = 0; i < pixels; ++i) {
    image.rgba[4 * i + 0] = bgra[4 * i + 2];
    image.rgba[4 * i + 1] = bgra[4 * i + 1];
    image.rgba[4 * i + 2] = bgra[4 * i + 0];
    image.rgba[4 * i + 3] = bgra[4 * i + 3];
  }
  const int32_t index = keep(key, std::move(image));
  return index >= 0 ? index
                    : refuse(key, texture, material,
                             "more than " + std::to_string(kMaxImages) + " images");
}

void TextureLoader::finish() {
  const uint64_t noted = 32 - notes_left_;
  if (report_.textures_not_loaded > noted)
    report_.notes.push_back(std::to_string(report_.textures_not_loaded - noted) +
                            " more texture(s) were not loaded.");
}

}  // namespace sv
