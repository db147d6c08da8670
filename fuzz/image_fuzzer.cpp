// libFuzzer target over the import worker's image decoding (import/images.h), in process: each
// input is byte 0, the format hint (kImageHints below, modulo its size), then the image's bytes,
// as the worker hands a texture file or an embedded image to decode_image. It must decode the
// bytes to exactly width x height RGBA8 pixels within the limits (kMaxImageSide on a side, the
// pixel budget given), or refuse them with one line; an image it decodes must then cross the
// model stream (io/model_format.h, IMAG) and come back equal. Seeds: fuzz/make_seeds.sh, family
// `image` (tiny PNG, JPEG, BMP, GIF and TGA files made with ImageMagick). Built only with clang
// and -DSKINVIEW_FUZZ=ON; see fuzz/README.md.
#include <cstdio>
#include <cstdlib>
#include <span>
#include <string>

#include "import/images.h"
#include "io/model_format.h"

namespace {

constexpr const char* kImageHints[] = {"png", "jpg", "bmp", "gif", "tga"};
// 2^22 pixels (16 MiB of RGBA) per input: the limits' checks are the same as at 2^26, and the
// fuzzer's memory stays far below -rss_limit_mb.
constexpr uint64_t kBudget = uint64_t{1} << 22;

[[noreturn]] void broken(const std::string& what) {
  std::fprintf(stderr, "skinview invariant broken: %s\n", what.c_str());
  std::abort();
}

// A one-triangle model holding `image`, as the worker would send it.
sv::Model model_with(sv::Image image) {
  sv::Model m;
  m.skeleton.names = {"root"};
  m.skeleton.parents = {-1};
  m.skeleton.rest = {sv::Transform{}};
  m.skeleton.inverse_bind = {glm::mat4(1.0f)};
  m.skeleton.is_bone = {0};
  sv::Mesh mesh;
  mesh.node = 0;
  mesh.material = 0;
  mesh.positions = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
  mesh.normals = {{0, 0, 1}, {0, 0, 1}, {0, 0, 1}};
  mesh.joints = {{0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}};
  mesh.weights = {{1, 0, 0, 0}, {1, 0, 0, 0}, {1, 0, 0, 0}};
  mesh.vertex_flags = {0, 0, 0};
  mesh.indices = {0, 1, 2};
  mesh.skin_joints = {0};
  mesh.inverse_bind = {glm::mat4(1.0f)};
  m.meshes.push_back(std::move(mesh));
  sv::Material mat;
  mat.name = "fuzz";
  mat.texture_name = "fuzz.png";
  mat.image = 0;
  m.materials.push_back(std::move(mat));
  m.images.push_back(std::move(image));
  return m;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const char* hint = kImageHints[data[0] % (sizeof kImageHints / sizeof kImageHints[0])];
  sv::Image image;
  const std::string e =
      sv::decode_image(std::span<const uint8_t>(data + 1, size - 1), hint, kBudget, image);
  if (!e.empty()) {
    if (e.find('\n') != std::string::npos) broken("a refusal of more than one line: " + e);
    if (!image.rgba.empty()) broken("pixels kept after a refusal: " + e);
    return 0;
  }
  const uint64_t pixels = uint64_t{image.width} * image.height;
  if (image.width == 0 || image.height == 0 || image.width > sv::kMaxImageSide ||
      image.height > sv::kMaxImageSide || pixels > kBudget)
    broken("decoded " + std::to_string(image.width) + " x " + std::to_string(image.height) +
           " past the limits");
  if (image.rgba.size() != 4 * pixels) broken("pixel bytes do not match the size");
  image.source = "fuzz.png";
  const std::vector<uint8_t> want = image.rgba;
  const sv::Model model = model_with(std::move(image));
  if (std::string v = model.validate(); !v.empty()) broken("the model does not validate: " + v);
  const sv::ImportResult r = sv::read_model(sv::write_model(model, {}, {}), "fuzz.svm");
  if (!r.ok()) broken("a decoded image is refused by the model reader: " + r.error);
  if (r.model->images.size() != 1 || r.model->images[0].rgba != want)
    broken("the image changed crossing the model stream");
  return 0;
}
