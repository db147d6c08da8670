// Re-reads the STEP and CUBICSPLINE animation samplers of a glTF file, which assimp 5.2 turns
// into linear keys (its aiVectorKey/aiQuatKey have no interpolation field).
//
// This is the one translation unit that compiles tinygltf's implementation (Debian's
// libtinygltf-dev is a single header). Images are never decoded: only the animation data and
// the buffers it points into are needed, so stb is compiled out and images are skipped.
#define TINYGLTF_IMPLEMENTATION
#define TINYGLTF_NO_STB_IMAGE
#define TINYGLTF_NO_STB_IMAGE_WRITE
#define TINYGLTF_NO_EXTERNAL_IMAGE
#include <tiny_gltf.h>

#include <cstring>
#include <filesystem>

#include "io/import_detail.h"

namespace sv {
namespace {

bool skip_image(tinygltf::Image*, const int, std::string*, std::string*, int, int,
                const unsigned char*, int, void*) {
  return true;
}

// Reads accessor `index` as floats, `components` per element (float or normalised integers).
bool read_floats(const tinygltf::Model& m, int index, int components, std::vector<float>& out) {
  if (index < 0 || static_cast<std::size_t>(index) >= m.accessors.size()) return false;
  const tinygltf::Accessor& acc = m.accessors[index];
  if (tinygltf::GetNumComponentsInType(static_cast<uint32_t>(acc.type)) != components) return false;
  if (acc.bufferView < 0 || static_cast<std::size_t>(acc.bufferView) >= m.bufferViews.size())
    return false;
  if (acc.sparse.isSparse) return false;
  const tinygltf::BufferView& view = m.bufferViews[acc.bufferView];
  if (view.buffer < 0 || static_cast<std::size_t>(view.buffer) >= m.buffers.size()) return false;
  const std::vector<unsigned char>& data = m.buffers[view.buffer].data;
  const int comp_size = tinygltf::GetComponentSizeInBytes(acc.componentType);
  if (comp_size <= 0) return false;
  const std::size_t elem_size = static_cast<std::size_t>(comp_size) * components;
  const std::size_t stride = view.byteStride ? view.byteStride : elem_size;
  const std::size_t base = view.byteOffset + acc.byteOffset;
  if (acc.count == 0) {
    out.clear();
    return true;
  }
  const std::size_t last = base + stride * (acc.count - 1) + elem_size;
  if (last > data.size() || last > view.byteOffset + view.byteLength) return false;
  out.resize(acc.count * components);
  for (std::size_t e = 0; e < acc.count; ++e) {
    const unsigned char* p = data.data() + base + stride * e;
    for (int c = 0; c < components; ++c) {
      const unsigned char* q = p + static_cast<std::size_t>(c) * comp_size;
      float v = 0.0f;
      switch (acc.componentType) {
        case TINYGLTF_COMPONENT_TYPE_FLOAT:
          std::memcpy(&v, q, 4);
          break;
        case TINYGLTF_COMPONENT_TYPE_BYTE: {
          int8_t i;
          std::memcpy(&i, q, 1);
          v = std::max(i / 127.0f, -1.0f);
          break;
        }
        case TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE: {
          uint8_t i;
          std::memcpy(&i, q, 1);
          v = i / 255.0f;
          break;
        }
        case TINYGLTF_COMPONENT_TYPE_SHORT: {
          int16_t i;
          std::memcpy(&i, q, 2);
          v = std::max(i / 32767.0f, -1.0f);
          break;
        }
        case TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT: {
          uint16_t i;
          std::memcpy(&i, q, 2);
          v = i / 65535.0f;
          break;
        }
        default:
          return false;
      }
      out[e * components + c] = v;
    }
  }
  return true;
}

}  // namespace

bool read_gltf_step_and_cubic_tracks(const std::string& path, std::vector<GltfTrackOverride>& out,
                                     std::string& warning) {
  out.clear();
  tinygltf::TinyGLTF loader;
  loader.SetImageLoader(&skip_image, nullptr);
  tinygltf::Model model;
  std::string err, warn;
  const std::string ext = std::filesystem::path(path).extension().string();
  const bool binary = ext == ".glb" || ext == ".GLB";
  bool ok = false;
  try {
    ok = binary ? loader.LoadBinaryFromFile(&model, &err, &warn, path)
                : loader.LoadASCIIFromFile(&model, &err, &warn, path);
  } catch (...) {
    ok = false;
  }
  if (!ok) {
    // Only interpolation depends on this; assimp already read the file, so keep its keys.
    std::string first = err.substr(0, err.find('\n'));
    warning = "glTF samplers could not be re-read (" + (first.empty() ? "parse error" : first) +
              "); every track is treated as linear.";
    return false;
  }

  for (std::size_t a = 0; a < model.animations.size(); ++a) {
    const tinygltf::Animation& anim = model.animations[a];
    for (const tinygltf::AnimationChannel& ch : anim.channels) {
      if (ch.sampler < 0 || static_cast<std::size_t>(ch.sampler) >= anim.samplers.size()) continue;
      const tinygltf::AnimationSampler& s = anim.samplers[ch.sampler];
      Interpolation interp;
      if (s.interpolation == "STEP")
        interp = Interpolation::Step;
      else if (s.interpolation == "CUBICSPLINE")
        interp = Interpolation::CubicSpline;
      else
        continue;  // LINEAR: assimp's keys are right
      GltfTrackOverride o;
      if (ch.target_path == "translation")
        o.path = GltfTrackOverride::Path::Translation;
      else if (ch.target_path == "rotation")
        o.path = GltfTrackOverride::Path::Rotation;
      else if (ch.target_path == "scale")
        o.path = GltfTrackOverride::Path::Scale;
      else
        continue;  // morph weights: not supported
      if (ch.target_node < 0 || static_cast<std::size_t>(ch.target_node) >= model.nodes.size())
        continue;
      o.animation = a;
      o.interpolation = interp;
      o.node_name = model.nodes[ch.target_node].name;
      o.node_id_brackets = "nodes[" + std::to_string(ch.target_node) + "]";
      o.node_id_underscore = "nodes_" + std::to_string(ch.target_node);
      if (o.node_name.empty()) o.node_name = o.node_id_brackets;

      std::vector<float> times, values;
      const int comps = o.path == GltfTrackOverride::Path::Rotation ? 4 : 3;
      if (!read_floats(model, s.input, 1, times) || !read_floats(model, s.output, comps, values))
        continue;
      const std::size_t per_key = interp == Interpolation::CubicSpline ? 3 : 1;
      if (values.size() != times.size() * per_key * comps) continue;
      if (o.path == GltfTrackOverride::Path::Rotation) {
        o.rotation.times.assign(times.begin(), times.end());
        for (std::size_t i = 0; i < values.size(); i += 4)  // glTF stores x, y, z, w
          o.rotation.values.emplace_back(values[i + 3], values[i], values[i + 1], values[i + 2]);
      } else {
        o.vector.times.assign(times.begin(), times.end());
        for (std::size_t i = 0; i < values.size(); i += 3)
          o.vector.values.emplace_back(values[i], values[i + 1], values[i + 2]);
      }
      out.push_back(std::move(o));
    }
  }
  return true;
}

}  // namespace sv
