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

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <span>
#include <string_view>

#include "import/convert.h"
#include "import/source.h"

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
  if (acc.count == 0) {
    out.clear();
    return true;
  }
  // Offsets, stride and count come from the file: check each step so none of them can wrap
  // around (a wrapped `last` would pass the bounds test and the resize would ask for exabytes).
  const std::size_t limit =
      std::min(data.size(), view.byteOffset > data.size()
                                ? std::size_t{0}
                                : view.byteOffset + std::min(view.byteLength, data.size()));
  if (view.byteOffset > limit || acc.byteOffset > limit - view.byteOffset) return false;
  const std::size_t base = view.byteOffset + acc.byteOffset;
  if (elem_size > limit - base) return false;
  if (acc.count - 1 > (limit - base - elem_size) / stride) return false;
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

// Every STEP/CUBICSPLINE channel of a parsed model.
// Every morph weights channel of a parsed model, whatever its interpolation.
void collect_weights(const tinygltf::Model& model, std::vector<GltfWeightsTrack>& out) {
  for (std::size_t a = 0; a < model.animations.size(); ++a) {
    const tinygltf::Animation& anim = model.animations[a];
    for (const tinygltf::AnimationChannel& ch : anim.channels) {
      if (ch.target_path != "weights") continue;
      if (ch.sampler < 0 || static_cast<std::size_t>(ch.sampler) >= anim.samplers.size()) continue;
      if (ch.target_node < 0 || static_cast<std::size_t>(ch.target_node) >= model.nodes.size())
        continue;
      const tinygltf::AnimationSampler& s = anim.samplers[ch.sampler];
      GltfWeightsTrack w;
      w.animation = a;
      w.interpolation = s.interpolation == "STEP"          ? Interpolation::Step
                        : s.interpolation == "CUBICSPLINE" ? Interpolation::CubicSpline
                                                           : Interpolation::Linear;
      w.node_name = model.nodes[ch.target_node].name;
      if (w.node_name.empty()) w.node_name = "nodes[" + std::to_string(ch.target_node) + "]";
      w.node_id_underscore = "nodes_" + std::to_string(ch.target_node);
      std::vector<float> times;
      if (!read_floats(model, s.input, 1, times) || !read_floats(model, s.output, 1, w.values))
        continue;
      w.times.assign(times.begin(), times.end());
      out.push_back(std::move(w));
    }
  }
}

void collect_overrides(const tinygltf::Model& model, std::vector<GltfTrackOverride>& out) {
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
}

// tinygltf file access for files held in memory: nothing outside the buffer is opened.
bool no_file_exists(const std::string&, void*) { return false; }
std::string no_expand(const std::string& path, void*) { return path; }
bool no_read(std::vector<unsigned char>*, std::string* err, const std::string& path, void*) {
  if (err) *err += "external file '" + path + "' is not read for a file held in memory\n";
  return false;
}
bool no_write(std::string*, const std::string&, const std::vector<unsigned char>&, void*) {
  return false;
}

// Whether [offset, offset + length) lies inside [0, size), without wrapping.
bool fits(std::size_t offset, std::size_t length, std::size_t size) {
  return offset <= size && length <= size - offset;
}

bool index_ok(int index, std::size_t count, bool optional) {
  if (index < 0) return optional && index == -1;
  return static_cast<std::size_t>(index) < count;
}

// Bytes an accessor-like block of `count` elements reads from a view with `stride`.
bool block_fits(std::size_t offset, std::size_t count, std::size_t elem_size, std::size_t stride,
                std::size_t view_length) {
  if (count == 0) return offset <= view_length;
  if (!fits(offset, elem_size, view_length)) return false;
  return count - 1 <= (view_length - offset - elem_size) / stride;
}

// What assimp 5.2.5's glTF reader trusts without checking: every index into another array,
// every accessor and buffer view inside its buffer, and a node graph that is a forest (it
// recurses into children, so a cycle never ends). Returns the first problem, or "".
std::string check_model(const tinygltf::Model& m) {
  for (std::size_t i = 0; i < m.bufferViews.size(); ++i) {
    const tinygltf::BufferView& v = m.bufferViews[i];
    if (!index_ok(v.buffer, m.buffers.size(), false))
      return "bufferView " + std::to_string(i) + " names no buffer";
    if (v.byteOffset > m.buffers[v.buffer].data.size())
      return "bufferView " + std::to_string(i) + " starts past the end of its buffer";
  }
  auto view_fits = [&](int view, std::size_t offset, std::size_t count, std::size_t elem_size,
                       bool strided) {
    if (!index_ok(view, m.bufferViews.size(), false)) return false;
    // A view may claim more than its buffer holds (assimp reads only what accessors use).
    const tinygltf::BufferView& v = m.bufferViews[view];
    const std::size_t length =
        std::min(v.byteLength, m.buffers[v.buffer].data.size() - v.byteOffset);
    const std::size_t stride = strided && v.byteStride ? v.byteStride : elem_size;
    return stride > 0 && block_fits(offset, count, elem_size, stride, length);
  };
  for (std::size_t i = 0; i < m.accessors.size(); ++i) {
    const tinygltf::Accessor& a = m.accessors[i];
    const std::string name = "accessor " + std::to_string(i);
    const int comp = tinygltf::GetComponentSizeInBytes(static_cast<uint32_t>(a.componentType));
    const int n = tinygltf::GetNumComponentsInType(static_cast<uint32_t>(a.type));
    if (comp <= 0 || n <= 0) return name + " has an unknown type";
    const std::size_t elem = static_cast<std::size_t>(comp) * static_cast<std::size_t>(n);
    if (a.bufferView != -1 && !view_fits(a.bufferView, a.byteOffset, a.count, elem, true))
      return name + " reaches past the end of its buffer view";
    if (a.sparse.isSparse) {
      const auto count = static_cast<std::size_t>(std::max(a.sparse.count, 0));
      if (a.sparse.count < 0 || count > a.count) return name + " has a bad sparse count";
      const int index_size =
          tinygltf::GetComponentSizeInBytes(static_cast<uint32_t>(a.sparse.indices.componentType));
      if (index_size <= 0 ||
          !view_fits(a.sparse.indices.bufferView,
                     static_cast<std::size_t>(std::max(a.sparse.indices.byteOffset, 0)), count,
                     static_cast<std::size_t>(index_size), false) ||
          a.sparse.indices.byteOffset < 0)
        return name + "'s sparse indices reach past their buffer view";
      if (a.sparse.values.byteOffset < 0 ||
          !view_fits(a.sparse.values.bufferView,
                     static_cast<std::size_t>(a.sparse.values.byteOffset), count, elem, false))
        return name + "'s sparse values reach past their buffer view";
    }
  }
  const std::size_t n_acc = m.accessors.size(), n_nodes = m.nodes.size();
  for (std::size_t i = 0; i < m.meshes.size(); ++i)
    for (const tinygltf::Primitive& p : m.meshes[i].primitives) {
      bool ok = index_ok(p.indices, n_acc, true) && index_ok(p.material, m.materials.size(), true);
      for (const auto& [attr, acc] : p.attributes) ok = ok && index_ok(acc, n_acc, false);
      for (const auto& target : p.targets)
        for (const auto& [attr, acc] : target) ok = ok && index_ok(acc, n_acc, false);
      if (!ok) return "mesh " + std::to_string(i) + " names a missing accessor or material";
    }
  // Index values of LINE_LOOP primitives: assimp 5.2.5 drops a face with an index past the
  // vertices (other modes lose that face, IndexOutOfRange.gltf), but its LINE_LOOP path then
  // reads the dropped first face through a null pointer.
  for (std::size_t i = 0; i < m.meshes.size(); ++i)
    for (const tinygltf::Primitive& p : m.meshes[i].primitives) {
      const auto pos = p.attributes.find("POSITION");
      if (p.indices < 0 || p.mode != TINYGLTF_MODE_LINE_LOOP) continue;
      const tinygltf::Accessor& ia = m.accessors[static_cast<std::size_t>(p.indices)];
      if (ia.bufferView < 0 || ia.sparse.isSparse) continue;
      const int size = tinygltf::GetComponentSizeInBytes(static_cast<uint32_t>(ia.componentType));
      if (ia.componentType != TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE &&
          ia.componentType != TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT &&
          ia.componentType != TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT)
        return "mesh " + std::to_string(i) + " has indices that are not unsigned integers";
      const std::size_t vertices =
          pos == p.attributes.end() ? 0 : m.accessors[static_cast<std::size_t>(pos->second)].count;
      const tinygltf::BufferView& v = m.bufferViews[static_cast<std::size_t>(ia.bufferView)];
      const std::size_t stride = v.byteStride ? v.byteStride : static_cast<std::size_t>(size);
      const unsigned char* base =
          m.buffers[static_cast<std::size_t>(v.buffer)].data.data() + v.byteOffset + ia.byteOffset;
      for (std::size_t k = 0; k < ia.count; ++k) {
        uint32_t index = 0;
        std::memcpy(&index, base + k * stride, static_cast<std::size_t>(size));  // little-endian
        if (index >= vertices)
          return "mesh " + std::to_string(i) + " has index " + std::to_string(index) +
                 " past its " + std::to_string(vertices) + " vertices";
      }
    }
  for (std::size_t i = 0; i < m.skins.size(); ++i) {
    const tinygltf::Skin& s = m.skins[i];
    bool ok = index_ok(s.inverseBindMatrices, n_acc, true) && index_ok(s.skeleton, n_nodes, true);
    for (int j : s.joints) ok = ok && index_ok(j, n_nodes, false);
    if (!ok) return "skin " + std::to_string(i) + " names a missing accessor or node";
  }
  for (std::size_t i = 0; i < m.animations.size(); ++i) {
    const tinygltf::Animation& a = m.animations[i];
    bool ok = true;
    for (const tinygltf::AnimationSampler& s : a.samplers)
      ok = ok && index_ok(s.input, n_acc, false) && index_ok(s.output, n_acc, false);
    for (const tinygltf::AnimationChannel& c : a.channels)
      ok = ok && index_ok(c.sampler, a.samplers.size(), false) &&
           index_ok(c.target_node, n_nodes, true);
    if (!ok) return "animation " + std::to_string(i) + " names a missing sampler, accessor or node";
  }
  for (std::size_t i = 0; i < m.textures.size(); ++i)
    if (!index_ok(m.textures[i].source, m.images.size(), true))
      return "texture " + std::to_string(i) + " names a missing image";
  for (std::size_t i = 0; i < m.images.size(); ++i) {
    const int view = m.images[i].bufferView;
    if (!index_ok(view, m.bufferViews.size(), true))
      return "image " + std::to_string(i) + " names a missing buffer view";
    if (view >= 0 && !fits(m.bufferViews[view].byteOffset, m.bufferViews[view].byteLength,
                           m.buffers[m.bufferViews[view].buffer].data.size()))
      return "image " + std::to_string(i) + "'s buffer view reaches past its buffer";
  }
  // Nodes: indices in range, each node the child of at most one parent, no cycles.
  std::vector<int> parent(n_nodes, -1);
  for (std::size_t i = 0; i < n_nodes; ++i) {
    const tinygltf::Node& node = m.nodes[i];
    if (!index_ok(node.mesh, m.meshes.size(), true) || !index_ok(node.skin, m.skins.size(), true) ||
        !index_ok(node.camera, m.cameras.size(), true))
      return "node " + std::to_string(i) + " names a missing mesh, skin or camera";
    for (int c : node.children) {
      if (!index_ok(c, n_nodes, false))
        return "node " + std::to_string(i) + " names a missing child";
      if (parent[c] != -1 || static_cast<std::size_t>(c) == i)
        return "node " + std::to_string(c) + " has two parents or is its own child";
      parent[c] = static_cast<int>(i);
    }
  }
  std::vector<uint8_t> state(n_nodes, 0);  // 0 unseen, 1 on the current path, 2 done
  std::vector<int> path;
  for (std::size_t i = 0; i < n_nodes; ++i) {
    path.clear();
    int p = static_cast<int>(i);
    for (; p != -1 && state[p] == 0; p = parent[p]) {
      state[p] = 1;
      path.push_back(p);
    }
    if (p != -1 && state[p] == 1)
      return "node hierarchy has a cycle through node " + std::to_string(p);
    for (int q : path) state[q] = 2;
  }
  for (std::size_t i = 0; i < m.scenes.size(); ++i)
    for (int n : m.scenes[i].nodes)
      if (!index_ok(n, n_nodes, false))
        return "scene " + std::to_string(i) + " names a missing node";
  if (!index_ok(m.defaultScene, m.scenes.size(), true)) return "the default scene is missing";
  return {};
}

// glTF 1.0 (which tinygltf does not read, and assimp does): a binary header of version 1, or
// an "asset" whose "version" starts with 1.
bool is_version_1(std::string_view text, bool binary) {
  if (binary)
    return text.size() >= 8 && text.compare(0, 4, "glTF") == 0 && text[4] == 1 && text[5] == 0 &&
           text[6] == 0 && text[7] == 0;
  const std::size_t at = text.find("\"version\"");
  if (at == std::string_view::npos) return false;
  std::size_t i = at + 9;
  while (i < text.size() && (text[i] == ' ' || text[i] == ':' || text[i] == '"' ||
                             text[i] == '\t' || text[i] == '\n' || text[i] == '\r'))
    ++i;
  return i < text.size() && text[i] == '1';
}

void parse_failed(const std::string& err, GltfSidecar& out) {
  // Only interpolation depends on this; assimp reads the file itself, so keep its keys.
  std::string first = err.substr(0, err.find('\n'));
  out.parse_error = first.empty() ? "parse error" : first;
  out.warning = "glTF samplers could not be re-read (" + (first.empty() ? "parse error" : first) +
                "); every track is treated as linear.";
}

// tinygltf skips a mesh primitive or an animation channel it cannot parse and carries on;
// assimp reads them anyway (a primitive with indices and no attributes crashes its LINE_LOOP
// path). The raw JSON is counted again: anything tinygltf skipped is malformed.
std::string check_skipped(std::string_view text, bool binary, const tinygltf::Model& m) {
  if (binary) {
    if (text.size() < 20) return {};
    uint32_t length = 0;
    std::memcpy(&length, text.data() + 12, 4);
    text = text.substr(20, std::min<std::size_t>(length, text.size() - 20));
  }
  const nlohmann::json doc = nlohmann::json::parse(text.begin(), text.end(), nullptr, false);
  if (doc.is_discarded() || !doc.is_object()) return "its JSON cannot be parsed";
  auto count = [](const nlohmann::json& o, const char* key) -> std::size_t {
    const auto it = o.find(key);
    return it != o.end() && it->is_array() ? it->size() : 0;
  };
  if (const auto meshes = doc.find("meshes"); meshes != doc.end() && meshes->is_array()) {
    for (std::size_t i = 0; i < meshes->size() && i < m.meshes.size(); ++i)
      if ((*meshes)[i].is_object() &&
          count((*meshes)[i], "primitives") != m.meshes[i].primitives.size())
        return "mesh " + std::to_string(i) + " has a malformed primitive";
  }
  if (const auto anims = doc.find("animations"); anims != doc.end() && anims->is_array()) {
    for (std::size_t i = 0; i < anims->size() && i < m.animations.size(); ++i)
      if ((*anims)[i].is_object() &&
          (count((*anims)[i], "channels") != m.animations[i].channels.size() ||
           count((*anims)[i], "samplers") != m.animations[i].samplers.size()))
        return "animation " + std::to_string(i) + " has a malformed channel or sampler";
  }
  return {};
}

void finish(const tinygltf::Model& model, std::string_view text, bool binary, GltfSidecar& out) {
  out.parsed = true;
  out.problem = check_model(model);
  if (out.problem.empty()) out.problem = check_skipped(text, binary, model);
  if (out.problem.empty()) collect_overrides(model, out.overrides);
  if (out.problem.empty()) collect_weights(model, out.weights);
}

// Parses `bytes`; external files are read relative to `base_dir` when it is given, else none.
GltfSidecar read_impl(std::span<const uint8_t> bytes, bool binary, const std::string* base_dir) {
  GltfSidecar out;
  if (bytes.empty() || bytes.size() > 0xffffffffu) {
    parse_failed("size", out);
    return out;
  }
  tinygltf::TinyGLTF loader;
  loader.SetImageLoader(&skip_image, nullptr);
  if (!base_dir)
    loader.SetFsCallbacks(
        tinygltf::FsCallbacks{&no_file_exists, &no_expand, &no_read, &no_write, nullptr});
  const std::string dir = base_dir ? *base_dir : std::string();
  tinygltf::Model model;
  std::string err, warn;
  const auto length = static_cast<unsigned int>(bytes.size());
  const std::string_view text(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  bool ok = false;
  try {
    ok = binary ? loader.LoadBinaryFromMemory(&model, &err, &warn, bytes.data(), length, dir)
                : loader.LoadASCIIFromString(&model, &err, &warn, text.data(), length, dir);
    if (ok) finish(model, text, binary, out);
  } catch (...) {
    ok = false;
  }
  if (!ok) {
    parse_failed(err, out);
    out.version1 = is_version_1(text.substr(0, 64 * 1024), binary);
    out.draco = text.find("KHR_draco_mesh_compression") != std::string_view::npos;
  }
  return out;
}

}  // namespace

GltfSidecar read_gltf_sidecar(const std::string& path) {
  std::string ext = std::filesystem::path(path).extension().string();
  for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  std::string dir = std::filesystem::path(path).parent_path().string();
  if (dir.empty()) dir = ".";
  // Mapped, not read: the 68-MB tube read into a vector cost the worker ~60 ms, its fresh pages
  // and the copy; mapped, its pages are the page cache's, 16 to a fault (BENCHMARKS.md round 36).
  if (const MappedFile mapped(path); !mapped.bytes().empty())
    return read_impl(mapped.bytes(), ext == ".glb", &dir);
  // Read at its size in one call: through istreambuf_iterator a 68-MB file went byte by byte
  // into a vector that doubled to 128 MB, 255 MB of fresh pages in all (BENCHMARKS.md round 20b).
  // What is past the size (a file that grew) is read as before.
  std::ifstream in(path, std::ios::binary);
  std::vector<uint8_t> bytes;
  std::error_code ec;
  const std::uintmax_t size = std::filesystem::file_size(path, ec);
  if (!ec && size > 0 && size <= 0xffffffffu) {
    bytes.resize(static_cast<std::size_t>(size));
    in.read(reinterpret_cast<char*>(bytes.data()), static_cast<std::streamsize>(size));
    bytes.resize(static_cast<std::size_t>(in.gcount()));
  }
  if (in) bytes.insert(bytes.end(), std::istreambuf_iterator<char>(in), {});
  return read_impl(bytes, ext == ".glb", &dir);
}

GltfSidecar read_gltf_sidecar(std::span<const uint8_t> bytes, bool binary) {
  return read_impl(bytes, binary, nullptr);
}

}  // namespace sv
