#include "gfx/gpu_model.h"

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <vector>

#include <glm/gtc/type_precision.hpp>
#include <glm/vec2.hpp>

#include "anim/model.h"
#include "gfx/view_colors.h"
#include "skin/compact_streams.h"
#include "skin/skin_method.h"

namespace sv::gl {
namespace {

// What every vertex array reads (the shared buffer, made at construction).
struct SharedVertex {
  glm::vec2 uv;
  glm::u32vec2 info;
};
static_assert(sizeof(SharedVertex) == 16, "SharedVertex is tightly packed");

// What only the float arrays (vao_gpu, vao_cpu) read (the float buffer, made at first use).
struct FloatVertex {
  glm::vec3 position;
  glm::vec3 normal;
  glm::u16vec4 joints;
  glm::vec4 weights;
};
static_assert(sizeof(FloatVertex) == 48, "FloatVertex is tightly packed");

struct Influence2 {
  glm::u16vec4 joints;
  glm::vec4 weights;
};
static_assert(sizeof(Influence2) == 24, "Influence2 is tightly packed");

const void* offset(std::size_t bytes) noexcept { return reinterpret_cast<const void*>(bytes); }

void float_attribute(GLuint location, GLint size, std::size_t at, GLsizei stride) noexcept {
  glEnableVertexAttribArray(location);
  glVertexAttribPointer(location, size, GL_FLOAT, GL_FALSE, stride, offset(at));
}

// kUv and kInfo from the shared buffer on the bound vertex array (every array's).
void shared_attributes(GLuint buffer) noexcept {
  glBindBuffer(GL_ARRAY_BUFFER, buffer);
  constexpr GLsizei s = sizeof(SharedVertex);
  float_attribute(kUv, 2, offsetof(SharedVertex, uv), s);
  glEnableVertexAttribArray(kInfo);
  glVertexAttribIPointer(kInfo, 2, GL_UNSIGNED_INT, s, offset(offsetof(SharedVertex, info)));
}

// kJoints and kWeights from the float buffer on the bound vertex array (the float arrays').
void float_joint_attributes(GLuint buffer) noexcept {
  glBindBuffer(GL_ARRAY_BUFFER, buffer);
  constexpr GLsizei s = sizeof(FloatVertex);
  glEnableVertexAttribArray(kJoints);
  glVertexAttribIPointer(kJoints, 4, GL_UNSIGNED_SHORT, s, offset(offsetof(FloatVertex, joints)));
  float_attribute(kWeights, 4, offsetof(FloatVertex, weights), s);
}

// A texture buffer of `texels` texels of `format` (`texel_bytes` each; at least one) over a new
// `buffer`, filled from `data` when given.
Texture make_typed_buffer_texture(Buffer& buffer, std::size_t texels, GLenum format,
                                  std::size_t texel_bytes, const void* data) {
  buffer = Buffer::create();
  glBindBuffer(GL_TEXTURE_BUFFER, buffer.id());
  // At least one texel: a zero-sized buffer texture is incomplete on some drivers.
  glBufferData(GL_TEXTURE_BUFFER,
               static_cast<GLsizeiptr>(std::max<std::size_t>(texels, 1) * texel_bytes),
               texels > 0 ? data : nullptr, GL_DYNAMIC_DRAW);
  Texture tex = Texture::create();
  glBindTexture(GL_TEXTURE_BUFFER, tex.id());
  glTexBuffer(GL_TEXTURE_BUFFER, format, buffer.id());
  glBindTexture(GL_TEXTURE_BUFFER, 0);
  glBindBuffer(GL_TEXTURE_BUFFER, 0);
  return tex;
}

// kJoints2 and kWeights2 from `buffer` on the bound vertex array.
void influence2_attributes(GLuint buffer) noexcept {
  glBindBuffer(GL_ARRAY_BUFFER, buffer);
  constexpr GLsizei s = sizeof(Influence2);
  glEnableVertexAttribArray(kJoints2);
  glVertexAttribIPointer(kJoints2, 4, GL_UNSIGNED_SHORT, s, offset(offsetof(Influence2, joints)));
  float_attribute(kWeights2, 4, offsetof(Influence2, weights), s);
}

// The bound GL_ARRAY_BUFFER made `bytes` long and filled by `fill(T*)` with `count` T: written in
// place through a mapping (no copy of the model's size in this process), or, where the driver
// maps nothing or loses the mapping's contents, from a vector.
template <class T, class Fill>
void fill_array_buffer(std::size_t count, GLenum usage, Fill&& fill) {
  const auto bytes = static_cast<GLsizeiptr>(count * sizeof(T));
  glBufferData(GL_ARRAY_BUFFER, bytes, nullptr, usage);
  if (count == 0) return;
  void* mapped =
      glMapBufferRange(GL_ARRAY_BUFFER, 0, bytes, GL_MAP_WRITE_BIT | GL_MAP_INVALIDATE_BUFFER_BIT);
  if (mapped != nullptr) {
    fill(static_cast<T*>(mapped));
    if (glUnmapBuffer(GL_ARRAY_BUFFER) == GL_TRUE) return;
  }
  std::vector<T> staging(count);
  fill(staging.data());
  glBufferSubData(GL_ARRAY_BUFFER, 0, bytes, staging.data());
}

// Where each stream sits in a mesh's compact buffer (gpu_model.h: positions, codes, joints,
// weights, stream after stream), from its vertex count and joint width.
struct CompactLayout {
  std::size_t normals_at, joints_at, weights_at, total;
  GLenum joint_type;
};

CompactLayout compact_layout(std::size_t n, bool narrow) noexcept {
  const std::size_t joint_bytes = narrow ? sizeof(glm::u8vec4) : sizeof(glm::u16vec4);
  CompactLayout l{};
  l.normals_at = n * sizeof(glm::vec3);
  l.joints_at = l.normals_at + n * 4;
  l.weights_at = l.joints_at + n * joint_bytes;
  l.total = l.weights_at + n * sizeof(glm::vec3);
  l.joint_type = narrow ? GL_UNSIGNED_BYTE : GL_UNSIGNED_SHORT;
  return l;
}

// kJoints and kWeights3 from `mesh`'s compact buffer on the bound vertex array (kWeights stays
// disabled: the compact shaders read w3 from the other three).
void compact_joint_attributes(const GpuMesh& mesh, const CompactLayout& l) noexcept {
  glBindBuffer(GL_ARRAY_BUFFER, mesh.compact_vertices.id());
  glEnableVertexAttribArray(kJoints);
  glVertexAttribIPointer(kJoints, 4, l.joint_type, 0, offset(l.joints_at));
  float_attribute(kWeights3, 3, l.weights_at, 0);
}

// The compact buffer of `dst` (positions, `codes`, joints, weights; gpu_model.h) and the GPU
// path's vertex array over it; uv and info come from the shared buffer, as on every array. The
// CPU path's (vao_cpu_compact) is made with the streamed buffer, at its first use.
void make_compact_arrays(const CompactStreams& c, std::span<const uint32_t> codes,
                         std::span<const glm::vec3> positions, GpuMesh& dst) {
  const std::size_t n = positions.size();
  const bool narrow = c.narrow_joints();
  dst.compact_narrow_joints = narrow;
  const CompactLayout l = compact_layout(n, narrow);
  const std::size_t joint_bytes = narrow ? sizeof(glm::u8vec4) : sizeof(glm::u16vec4);
  dst.compact_vertices = Buffer::create();
  glBindBuffer(GL_ARRAY_BUFFER, dst.compact_vertices.id());
  // Stream by stream into the mapping, from where they are (a load).
  fill_array_buffer<std::byte>(l.total, GL_STATIC_DRAW, [&](std::byte* out) {
    std::memcpy(out, positions.data(), n * sizeof(glm::vec3));
    std::memcpy(out + l.normals_at, codes.data(), n * 4);
    std::memcpy(out + l.joints_at,
                narrow ? static_cast<const void*>(c.joints8.data()) : c.joints16.data(),
                n * joint_bytes);
    std::memcpy(out + l.weights_at, c.weights.data(), n * sizeof(glm::vec3));
  });
  dst.vao_gpu_compact = VertexArray::create();
  glBindVertexArray(dst.vao_gpu_compact.id());
  glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, dst.indices.id());
  shared_attributes(dst.shared_vertices.id());
  compact_joint_attributes(dst, l);
  float_attribute(kPosition, 3, 0, 0);
  glEnableVertexAttribArray(kOctNormal);
  glVertexAttribIPointer(kOctNormal, 1, GL_UNSIGNED_INT, 0, offset(l.normals_at));
  // CoR's centres: the bind positions (this buffer's first stream) until upload_centers moves
  // kCenter onto the centres' buffer, as on vao_gpu.
  float_attribute(kCenter, 3, 0, 0);
}

// The material's image, decoded by the import worker (anim/model.h: Image): this process
// uploads pixels and never decodes an image.
Texture load_texture(const Model& model, const Material& mat, std::string* warning) {
  if (mat.image < 0 || static_cast<std::size_t>(mat.image) >= model.images.size()) return {};
  const Image& image = model.images[static_cast<std::size_t>(mat.image)];
  GLint max_size = 0;
  glGetIntegerv(GL_MAX_TEXTURE_SIZE, &max_size);
  if (image.width > static_cast<uint32_t>(max_size) ||
      image.height > static_cast<uint32_t>(max_size)) {
    *warning = "material " + mat.name + ": its base-colour texture (" + image.source + ") is " +
               std::to_string(image.width) + " x " + std::to_string(image.height) +
               " pixels, more than this driver's " + std::to_string(max_size) + " on a side";
    return {};
  }
  Texture tex = Texture::create();
  glBindTexture(GL_TEXTURE_2D, tex.id());
  glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_SRGB8_ALPHA8, static_cast<GLsizei>(image.width),
               static_cast<GLsizei>(image.height), 0, GL_RGBA, GL_UNSIGNED_BYTE, image.rgba.data());
  glGenerateMipmap(GL_TEXTURE_2D);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR_MIPMAP_LINEAR);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
  glBindTexture(GL_TEXTURE_2D, 0);
  return tex;
}

}  // namespace

Texture make_buffer_texture(Buffer& buffer, std::size_t texels) {
  return make_typed_buffer_texture(buffer, texels, GL_RGBA32F, 16, nullptr);
}

void pack_method_bone(const MethodBone& m, glm::vec4* t) noexcept {
  t[0] = glm::vec4(m.real.x, m.real.y, m.real.z, m.real.w);
  t[1] = glm::vec4(m.dual.x, m.dual.y, m.dual.z, m.dual.w);
  // Rows of S (glm is column-major).
  for (int r = 0; r < 3; ++r)
    t[2 + r] = glm::vec4(m.stretch[0][r], m.stretch[1][r], m.stretch[2][r], 0.0f);
  t[2].w = m.scaled != 0 ? 1.0f : 0.0f;
}

std::vector<std::string> skin_program_defines() {
  std::vector<std::string> defines = view_color_defines();
  defines.push_back("SV_METHOD_TEXELS " + std::to_string(kMethodTexels));
  defines.push_back("SV_OCT_SCALE_BITS " + std::to_string(std::bit_cast<uint32_t>(kOctScale)) +
                    "u");
  return defines;
}

void bind_palette_textures(GLuint palette, GLuint normal, GLuint method) noexcept {
  glActiveTexture(GL_TEXTURE0 + kPaletteUnit);
  glBindTexture(GL_TEXTURE_BUFFER, palette);
  glActiveTexture(GL_TEXTURE0 + kNormalPaletteUnit);
  glBindTexture(GL_TEXTURE_BUFFER, normal);
  glActiveTexture(GL_TEXTURE0 + kMethodPaletteUnit);
  glBindTexture(GL_TEXTURE_BUFFER, method);
  glActiveTexture(GL_TEXTURE0);
}

void bind_morph_textures(const GpuModel& gpu) noexcept {
  glActiveTexture(GL_TEXTURE0 + kMorphDeltaUnit);
  glBindTexture(GL_TEXTURE_BUFFER, gpu.morph_delta_texture());
  glActiveTexture(GL_TEXTURE0 + kMorphActiveUnit);
  glBindTexture(GL_TEXTURE_BUFFER, gpu.morph_active_texture());
  glActiveTexture(GL_TEXTURE0);
}

void bind_palettes(const GpuModel& gpu) noexcept {
  bind_palette_textures(gpu.palette_texture(), gpu.normal_palette_texture(),
                        gpu.method_palette_texture());
  bind_morph_textures(gpu);
}

void MorphUniforms::locate(GLuint program) noexcept {
  deltas = glGetUniformLocation(program, "u_morph_deltas");
  active = glGetUniformLocation(program, "u_morph_active");
  first = glGetUniformLocation(program, "u_morph_first");
  count = glGetUniformLocation(program, "u_morph_count");
}

void MorphUniforms::set(const GpuMesh& mesh) const noexcept {
  glUniform1i(deltas, kMorphDeltaUnit);
  glUniform1i(active, kMorphActiveUnit);
  glUniform1i(first, mesh.morph_first);
  glUniform1i(count, mesh.morph_count);
}

SkinUniforms SkinUniforms::of(GLuint program) noexcept {
  SkinUniforms u;
  u.palette = glGetUniformLocation(program, "u_palette");
  u.normal_palette = glGetUniformLocation(program, "u_normal_palette");
  u.method_palette = glGetUniformLocation(program, "u_method_palette");
  u.palette_base = glGetUniformLocation(program, "u_palette_base");
  u.method = glGetUniformLocation(program, "u_method");
  u.vertex_values = glGetUniformLocation(program, "u_vertex_values");
  u.influences = glGetUniformLocation(program, "u_influences");
  u.compact = glGetUniformLocation(program, "u_compact");
  u.morph.locate(program);
  return u;
}

void SkinUniforms::set_palette_units() const noexcept {
  glUniform1i(palette, kPaletteUnit);
  glUniform1i(normal_palette, kNormalPaletteUnit);
  glUniform1i(method_palette, kMethodPaletteUnit);
}

namespace {

glm::u16vec4 joints_of(const Mesh& src, std::size_t i) noexcept {
  return i < src.joints.size() ? src.joints[i] : glm::u16vec4(0);
}
glm::vec4 weights_of(const Mesh& src, std::size_t i) noexcept {
  return i < src.weights.size() ? src.weights[i] : glm::vec4(1.0f, 0.0f, 0.0f, 0.0f);
}

// One mesh's shared vertices (uv, info) into `out` (n of them), each built whole and stored once:
// `out` may be a write-only mapping of the buffer (never read back).
void fill_shared_vertices(const Mesh& src, const std::vector<glm::vec3>& colors,
                          SharedVertex* out) noexcept {
  const std::size_t n = src.vertex_count();
  for (std::size_t i = 0; i < n; ++i) {
    SharedVertex v;
    v.uv = i < src.uvs.size() ? src.uvs[i] : glm::vec2(0.0f);
    const glm::u16vec4 joints = joints_of(src, i);
    const glm::vec4 weights = weights_of(src, i);
    // The dominant bone is the largest weight's (slots are in joint order, not weight order).
    int largest = 0;
    for (int k = 1; k < 4; ++k)
      if (weights[k] > weights[largest]) largest = k;
    const std::size_t bone = joints[largest];
    const int32_t joint = bone < src.skin_joints.size() ? src.skin_joints[bone] : src.node;
    const uint32_t flags = i < src.vertex_flags.size() ? src.vertex_flags[i] : 0u;
    const float sum = i < src.source_weight_sums.size() ? src.source_weight_sums[i] : 1.0f;
    const float cut = i < src.cut_weights.size() ? src.cut_weights[i] : 0.0f;
    uint32_t weighted = 0;  // the influences view's count (common.vert: a_info)
    for (int k = 0; k < 4; ++k) weighted += weights[k] > 0.0f ? 1u : 0u;
    v.info = glm::u32vec2(
        pack_rgb8(joint_color_in(colors, joint)),
        flags | weight_sum_level(sum) << 8 | cut_weight_level(cut) << 16 | weighted << 24);
    out[i] = v;
  }
}

// The same for the float vertices (position, normal, joints, weights); a mesh without normals
// gets +y, as on the CPU path.
void fill_float_vertices(const Mesh& src, FloatVertex* out) noexcept {
  const std::size_t n = src.vertex_count();
  for (std::size_t i = 0; i < n; ++i) {
    FloatVertex v;
    v.position = src.positions[i];
    v.normal = i < src.normals.size() ? src.normals[i] : glm::vec3(0.0f, 1.0f, 0.0f);
    v.joints = joints_of(src, i);
    v.weights = weights_of(src, i);
    out[i] = v;
  }
}

}  // namespace

GpuModel::GpuModel(const Model& model, std::span<const CompactStreams> compact)
    : source_(model.meshes) {
  meshes_.resize(model.meshes.size());
  // The dominant-joint view's colours (gfx/view_colors.h): each vertex carries its dominant
  // joint's, packed, so the shader needs no table.
  const std::vector<glm::vec3> colors = joint_colors(model.skeleton.parents);
  GLint base = 0;
  for (std::size_t m = 0; m < model.meshes.size(); ++m) {
    const Mesh& src = model.meshes[m];
    GpuMesh& dst = meshes_[m];
    const std::size_t n = src.vertex_count();
    dst.vertex_count = static_cast<GLsizei>(n);
    vertex_total_ += n;
    dst.index_count = static_cast<GLsizei>(src.indices.size());
    dst.palette_base = base;
    dst.palette_bones = static_cast<GLint>(src.skin_joints.size());
    base += dst.palette_bones;
    if (src.material >= 0 && static_cast<std::size_t>(src.material) < model.materials.size()) {
      const Material& mat = model.materials[static_cast<std::size_t>(src.material)];
      dst.base_color = mat.base_color;
      dst.double_sided = mat.double_sided;
      std::string warning;
      dst.base_texture = load_texture(model, mat, &warning);
      if (!warning.empty()) warnings_.push_back(std::move(warning));
    }

    dst.shared_vertices = Buffer::create();
    glBindBuffer(GL_ARRAY_BUFFER, dst.shared_vertices.id());
    fill_array_buffer<SharedVertex>(
        n, GL_STATIC_DRAW, [&](SharedVertex* out) { fill_shared_vertices(src, colors, out); });
    dst.has_compact = m < compact.size() && compact[m].weights.size() == n;
    dst.has_influences8 = src.has_influences8();
    dst.indices = Buffer::create();
    // Triangles, then lines, then points, in one element buffer (GpuMesh's counts); bound to each
    // vertex array as it is made.
    {
      glBindBuffer(GL_ARRAY_BUFFER, dst.indices.id());
      const std::size_t tri = src.indices.size(), lines = src.line_indices.size(),
                        points = src.point_indices.size();
      glBufferData(GL_ARRAY_BUFFER,
                   static_cast<GLsizeiptr>((tri + lines + points) * sizeof(uint32_t)), nullptr,
                   GL_STATIC_DRAW);
      glBufferSubData(GL_ARRAY_BUFFER, 0, static_cast<GLsizeiptr>(tri * sizeof(uint32_t)),
                      src.indices.data());
      glBufferSubData(GL_ARRAY_BUFFER, static_cast<GLintptr>(tri * sizeof(uint32_t)),
                      static_cast<GLsizeiptr>(lines * sizeof(uint32_t)), src.line_indices.data());
      glBufferSubData(GL_ARRAY_BUFFER, static_cast<GLintptr>((tri + lines) * sizeof(uint32_t)),
                      static_cast<GLsizeiptr>(points * sizeof(uint32_t)), src.point_indices.data());
      dst.line_count = static_cast<GLsizei>(lines);
      dst.point_count = static_cast<GLsizei>(points);
    }
    if (dst.has_compact) {
      // The bind normals' codes: the mesh's own, or +y for a mesh without normals (as the float
      // path draws it; copied only then).
      const CompactStreams& c = compact[m];
      std::vector<uint32_t> bind_codes;
      std::span<const uint32_t> codes = c.normals;
      if (c.normals.size() != n) {
        bind_codes.assign(n, oct_encode_best(glm::vec3(0.0f, 1.0f, 0.0f)));
        std::copy_n(c.normals.begin(), std::min(n, c.normals.size()), bind_codes.begin());
        codes = bind_codes;
      }
      make_compact_arrays(c, codes, std::span(src.positions).first(n), dst);
    } else {
      // Without compact streams every path draws from the float arrays, the first frame too:
      // made now (deferring them would save nothing and leave no array a frame can draw from).
      make_float_arrays(m);
    }
    glBindVertexArray(0);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
  }
  bone_count_ = static_cast<std::size_t>(base);
  GLint max_texels = 0;
  glGetIntegerv(GL_MAX_TEXTURE_BUFFER_SIZE, &max_texels);
  if (3 * bone_count_ > static_cast<std::size_t>(max_texels)) {
    warnings_.push_back("the palette needs " + std::to_string(3 * bone_count_) +
                        " texels, more than this driver's texture buffer limit of " +
                        std::to_string(max_texels) + ": use CPU skinning");
  }
  staging_.resize(kMethodTexels * bone_count_);
  palette_texture_ = make_buffer_texture(palette_buffer_, 3 * bone_count_);
  normal_texture_ = make_buffer_texture(normal_buffer_, 3 * bone_count_);
  method_texture_ = make_buffer_texture(method_buffer_, kMethodTexels * bone_count_);

  // Morph targets: per target two RGBA32F texels per vertex (position delta, normal delta).
  std::vector<glm::vec4> deltas;
  for (std::size_t m = 0; m < model.meshes.size(); ++m) {
    const Mesh& src = model.meshes[m];
    meshes_[m].morph_first = static_cast<GLint>(morph_target_texel_.size());
    const std::size_t n = src.vertex_count();
    for (const MorphTarget& t : src.morph_targets) {
      morph_target_texel_.push_back(static_cast<int32_t>(deltas.size()));
      for (std::size_t v = 0; v < n; ++v) {
        deltas.emplace_back(v < t.position_deltas.size() ? t.position_deltas[v] : glm::vec3(0),
                            0.0f);
        deltas.emplace_back(v < t.normal_deltas.size() ? t.normal_deltas[v] : glm::vec3(0), 0.0f);
      }
    }
  }
  if (deltas.size() > static_cast<std::size_t>(max_texels) ||
      deltas.size() > static_cast<std::size_t>(INT32_MAX)) {
    warnings_.push_back("the morph targets need " + std::to_string(deltas.size()) +
                        " texels, more than this driver's texture buffer limit of " +
                        std::to_string(max_texels) + ": use CPU skinning to see them");
    deltas.clear();
    morph_target_texel_.assign(morph_target_texel_.size(), -1);
  }
  morph_delta_texture_ =
      make_typed_buffer_texture(morph_delta_buffer_, deltas.size(), GL_RGBA32F, 16, deltas.data());
  morph_active_.assign(morph_target_texel_.size(), glm::ivec2(0));
  morph_active_texture_ =
      make_typed_buffer_texture(morph_active_buffer_, morph_active_.size(), GL_RG32I, 8, nullptr);
  SV_GL_CHECK("GpuModel upload");
}

void GpuModel::upload_palette(std::span<const glm::mat4> palette,
                              std::span<const glm::mat3> normal_palette) noexcept {
  if (palette.size() != bone_count_ || normal_palette.size() != bone_count_ || bone_count_ == 0) {
    return;
  }
  const auto bytes = static_cast<GLsizeiptr>(3 * bone_count_ * sizeof(glm::vec4));
  // Rows of the 3x4 matrix: glm is column-major, row r is (K[0][r], K[1][r], K[2][r], K[3][r]).
  for (std::size_t b = 0; b < bone_count_; ++b) {
    const glm::mat4& k = palette[b];
    for (int r = 0; r < 3; ++r) staging_[3 * b + r] = glm::vec4(k[0][r], k[1][r], k[2][r], k[3][r]);
  }
  glBindBuffer(GL_TEXTURE_BUFFER, palette_buffer_.id());
  glBufferSubData(GL_TEXTURE_BUFFER, 0, bytes, staging_.data());
  for (std::size_t b = 0; b < bone_count_; ++b) {
    const glm::mat3& k = normal_palette[b];
    for (int r = 0; r < 3; ++r) staging_[3 * b + r] = glm::vec4(k[0][r], k[1][r], k[2][r], 0.0f);
  }
  glBindBuffer(GL_TEXTURE_BUFFER, normal_buffer_.id());
  glBufferSubData(GL_TEXTURE_BUFFER, 0, bytes, staging_.data());
  glBindBuffer(GL_TEXTURE_BUFFER, 0);
  SV_GL_CHECK("upload_palette");
}

void GpuModel::upload_method_palette(std::span<const MethodBone> palette) noexcept {
  if (palette.size() != bone_count_ || bone_count_ == 0) return;
  for (std::size_t b = 0; b < bone_count_; ++b) {
    pack_method_bone(palette[b], &staging_[kMethodTexels * b]);
  }
  glBindBuffer(GL_TEXTURE_BUFFER, method_buffer_.id());
  glBufferSubData(GL_TEXTURE_BUFFER, 0,
                  static_cast<GLsizeiptr>(kMethodTexels * bone_count_ * sizeof(glm::vec4)),
                  staging_.data());
  glBindBuffer(GL_TEXTURE_BUFFER, 0);
  SV_GL_CHECK("upload_method_palette");
}

void GpuModel::stage_morph_weights(std::size_t mesh, std::span<const float> weights) noexcept {
  GpuMesh& g = meshes_[mesh];
  const auto first = static_cast<std::size_t>(g.morph_first);
  const std::size_t end = mesh + 1 < meshes_.size()
                              ? static_cast<std::size_t>(meshes_[mesh + 1].morph_first)
                              : morph_target_texel_.size();
  g.morph_count = 0;
  if (weights.size() != end - first) return;
  for (std::size_t i = 0; i < weights.size(); ++i) {
    const int32_t texel = morph_target_texel_[first + i];
    if (weights[i] == 0.0f || texel < 0) continue;
    int32_t bits = 0;
    std::memcpy(&bits, &weights[i], 4);
    morph_active_[first + static_cast<std::size_t>(g.morph_count++)] = glm::ivec2(texel, bits);
  }
}

void GpuModel::flush_morph_weights() noexcept {
  if (morph_active_.empty()) return;
  glBindBuffer(GL_TEXTURE_BUFFER, morph_active_buffer_.id());
  glBufferSubData(GL_TEXTURE_BUFFER, 0,
                  static_cast<GLsizeiptr>(morph_active_.size() * sizeof(glm::ivec2)),
                  morph_active_.data());
  glBindBuffer(GL_TEXTURE_BUFFER, 0);
  SV_GL_CHECK("upload_morph_weights");
}

bool GpuModel::upload_vertex_values(std::span<const float> values) noexcept {
  if (values.size() != vertex_total_ || vertex_total_ == 0) return false;
  const auto bytes = static_cast<GLsizeiptr>(vertex_total_ * sizeof(float));
  if (!value_texture_) {
    GLint max_texels = 0;
    glGetIntegerv(GL_MAX_TEXTURE_BUFFER_SIZE, &max_texels);
    if (vertex_total_ > static_cast<std::size_t>(max_texels)) return false;
    value_buffer_ = Buffer::create();
    glBindBuffer(GL_TEXTURE_BUFFER, value_buffer_.id());
    glBufferData(GL_TEXTURE_BUFFER, bytes, nullptr, GL_STREAM_DRAW);
    value_texture_ = Texture::create();
    glBindTexture(GL_TEXTURE_BUFFER, value_texture_.id());
    glTexBuffer(GL_TEXTURE_BUFFER, GL_R32F, value_buffer_.id());
    glBindTexture(GL_TEXTURE_BUFFER, 0);
  }
  glBindBuffer(GL_TEXTURE_BUFFER, value_buffer_.id());
  glBufferSubData(GL_TEXTURE_BUFFER, 0, bytes, values.data());
  glBindBuffer(GL_TEXTURE_BUFFER, 0);
  SV_GL_CHECK("upload_vertex_values");
  return true;
}

void GpuModel::upload_centers(std::size_t mesh, std::span<const glm::vec3> centers) noexcept {
  if (mesh >= meshes_.size()) return;
  GpuMesh& m = meshes_[mesh];
  const auto n = static_cast<std::size_t>(m.vertex_count);
  if (centers.size() != n || n == 0) return;
  const auto bytes = static_cast<GLsizeiptr>(n * sizeof(glm::vec3));
  if (m.centers.id() == 0) {
    // The first centres: their buffer is made now and kCenter moved onto it from the static
    // buffer's bind positions (once per mesh, not per frame).
    m.centers = Buffer::create();
    glBindBuffer(GL_ARRAY_BUFFER, m.centers.id());
    glBufferData(GL_ARRAY_BUFFER, bytes, centers.data(), GL_STATIC_DRAW);
    if (m.vao_gpu) {  // otherwise made with them (make_float_arrays)
      glBindVertexArray(m.vao_gpu.id());
      float_attribute(kCenter, 3, 0, 0);
    }
    if (m.has_compact) {
      // The compact GPU path skins CoR too (SkinnedPose::compact): the same centres.
      glBindVertexArray(m.vao_gpu_compact.id());
      float_attribute(kCenter, 3, 0, 0);
    }
    glBindVertexArray(0);
  } else {
    glBindBuffer(GL_ARRAY_BUFFER, m.centers.id());
    glBufferSubData(GL_ARRAY_BUFFER, 0, bytes, centers.data());
  }
  glBindBuffer(GL_ARRAY_BUFFER, 0);
  SV_GL_CHECK("upload_centers");
}

// --- made at first use: the float arrays and the CPU path's streamed buffer ---

void GpuModel::make_float_arrays(std::size_t mesh) const {
  GpuMesh& dst = meshes_[mesh];
  const auto n = static_cast<std::size_t>(dst.vertex_count);
  // The source is the model this was built from (gpu_model.h: it outlives this GpuModel); a
  // mismatch makes nothing, and the draw's vertex array 0 is a GL error, not a read out of range.
  if (dst.vao_gpu || mesh >= source_.size() || source_[mesh].vertex_count() != n) return;
  const Mesh& src = source_[mesh];
  dst.float_vertices = Buffer::create();
  glBindBuffer(GL_ARRAY_BUFFER, dst.float_vertices.id());
  fill_array_buffer<FloatVertex>(n, GL_STATIC_DRAW,
                                 [&](FloatVertex* out) { fill_float_vertices(src, out); });
  if (dst.has_influences8) {
    dst.influences2 = Buffer::create();
    glBindBuffer(GL_ARRAY_BUFFER, dst.influences2.id());
    fill_array_buffer<Influence2>(n, GL_STATIC_DRAW, [&](Influence2* out) {
      for (std::size_t i = 0; i < n; ++i) out[i] = Influence2{src.joints2[i], src.weights2[i]};
    });
  }
  constexpr GLsizei s = sizeof(FloatVertex);
  dst.vao_gpu = VertexArray::create();
  glBindVertexArray(dst.vao_gpu.id());
  glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, dst.indices.id());
  shared_attributes(dst.shared_vertices.id());
  float_joint_attributes(dst.float_vertices.id());
  float_attribute(kPosition, 3, offsetof(FloatVertex, position), s);
  float_attribute(kNormal, 3, offsetof(FloatVertex, normal), s);
  if (dst.centers) {
    glBindBuffer(GL_ARRAY_BUFFER, dst.centers.id());
    float_attribute(kCenter, 3, 0, 0);
  } else {
    // Until upload_centers, each vertex's centre is its bind position (CoR then skins as LBS).
    float_attribute(kCenter, 3, offsetof(FloatVertex, position), s);
  }
  if (dst.has_influences8) influence2_attributes(dst.influences2.id());
  glBindVertexArray(0);
  glBindBuffer(GL_ARRAY_BUFFER, 0);
  SV_GL_CHECK("GpuModel float arrays");
}

void GpuModel::make_stream(std::size_t mesh) const {
  GpuMesh& dst = meshes_[mesh];
  const auto n = static_cast<std::size_t>(dst.vertex_count);
  if (dst.stream_vertices || mesh >= source_.size() || source_[mesh].vertex_count() != n) return;
  const Mesh& src = source_[mesh];
  // The bind pose, so a mesh without normals still has sane ones on the CPU path (skin_lbs
  // writes no normals for it): positions and normals (+y where the mesh has none) from the
  // model's arrays, then the bind normals' octahedral codes (the compact CPU path's) copied from
  // the compact buffer on the GL side.
  const std::size_t half = n * sizeof(glm::vec3), codes_at = 2 * half;
  dst.stream_vertices = Buffer::create();
  glBindBuffer(GL_ARRAY_BUFFER, dst.stream_vertices.id());
  fill_array_buffer<std::byte>(
      codes_at + n * sizeof(uint32_t), GL_STREAM_DRAW, [&](std::byte* out) {
        std::memcpy(out, src.positions.data(), half);
        auto* normals = reinterpret_cast<glm::vec3*>(out + half);
        const std::size_t given = std::min(n, src.normals.size());
        std::memcpy(normals, src.normals.data(), given * sizeof(glm::vec3));
        std::fill(normals + given, normals + n, glm::vec3(0.0f, 1.0f, 0.0f));
      });
  if (dst.has_compact && n > 0) {
    glBindBuffer(GL_COPY_READ_BUFFER, dst.compact_vertices.id());
    glCopyBufferSubData(
        GL_COPY_READ_BUFFER, GL_ARRAY_BUFFER,
        static_cast<GLintptr>(compact_layout(n, dst.compact_narrow_joints).normals_at),
        static_cast<GLintptr>(codes_at), static_cast<GLsizeiptr>(n * sizeof(uint32_t)));
    glBindBuffer(GL_COPY_READ_BUFFER, 0);
  }
  glBindBuffer(GL_ARRAY_BUFFER, 0);
  SV_GL_CHECK("GpuModel streamed buffer");
}

GLuint GpuModel::vertex_array(std::size_t mesh, bool gpu_path, bool compact) const {
  if (mesh >= meshes_.size()) return 0;
  GpuMesh& g = meshes_[mesh];
  const auto n = static_cast<std::size_t>(g.vertex_count);
  if (draws_compact(g, compact)) {
    if (gpu_path) return g.vao_gpu_compact.id();
    if (!g.vao_cpu_compact) {
      make_stream(mesh);
      if (!g.stream_vertices) return 0;
      const CompactLayout l = compact_layout(n, g.compact_narrow_joints);
      g.vao_cpu_compact = VertexArray::create();
      glBindVertexArray(g.vao_cpu_compact.id());
      glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, g.indices.id());
      shared_attributes(g.shared_vertices.id());
      compact_joint_attributes(g, l);  // the weights views read them on this path too
      glBindBuffer(GL_ARRAY_BUFFER, g.stream_vertices.id());
      float_attribute(kPosition, 3, 0, 0);
      glEnableVertexAttribArray(kOctNormal);
      glVertexAttribIPointer(kOctNormal, 1, GL_UNSIGNED_INT, 0, offset(2 * n * sizeof(glm::vec3)));
      glBindVertexArray(0);
      glBindBuffer(GL_ARRAY_BUFFER, 0);
    }
    return g.vao_cpu_compact.id();
  }
  make_float_arrays(mesh);
  if (gpu_path || !g.vao_gpu) return g.vao_gpu.id();
  if (!g.vao_cpu) {
    make_stream(mesh);
    if (!g.stream_vertices) return 0;
    g.vao_cpu = VertexArray::create();
    glBindVertexArray(g.vao_cpu.id());
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, g.indices.id());
    shared_attributes(g.shared_vertices.id());
    float_joint_attributes(g.float_vertices.id());  // the weights views read them
    glBindBuffer(GL_ARRAY_BUFFER, g.stream_vertices.id());
    float_attribute(kPosition, 3, 0, 0);
    float_attribute(kNormal, 3, n * sizeof(glm::vec3), 0);
    if (g.has_influences8) influence2_attributes(g.influences2.id());
    glBindVertexArray(0);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
  }
  return g.vao_cpu.id();
}

namespace {

// Writes one mesh's skinned positions at the start of its streamed buffer and, when there are as
// many, its normals at `normals_at` bytes (gpu_model.h: the float normals after the positions,
// the octahedral codes after both).
template <class Normal>
void upload_stream(const GpuMesh& m, std::span<const glm::vec3> positions,
                   std::span<const Normal> normals, std::size_t normals_at) noexcept {
  const auto n = static_cast<std::size_t>(m.vertex_count);
  if (positions.size() != n || !m.stream_vertices) return;
  glBindBuffer(GL_ARRAY_BUFFER, m.stream_vertices.id());
  glBufferSubData(GL_ARRAY_BUFFER, 0, static_cast<GLsizeiptr>(n * sizeof(glm::vec3)),
                  positions.data());
  if (normals.size() == n) {
    glBufferSubData(GL_ARRAY_BUFFER, static_cast<GLintptr>(normals_at),
                    static_cast<GLsizeiptr>(n * sizeof(Normal)), normals.data());
  }
  glBindBuffer(GL_ARRAY_BUFFER, 0);
}

}  // namespace

void GpuModel::upload_skinned_compact(std::size_t mesh, std::span<const glm::vec3> positions,
                                      std::span<const uint32_t> normals) {
  make_stream(mesh);  // the first CPU-path frame's (its bind normals stay where none are given)
  const GpuMesh& m = meshes_[mesh];
  upload_stream(m, positions, normals,
                2 * static_cast<std::size_t>(m.vertex_count) * sizeof(glm::vec3));
  SV_GL_CHECK("upload_skinned_compact");
}

void GpuModel::upload_skinned(std::size_t mesh, std::span<const glm::vec3> positions,
                              std::span<const glm::vec3> normals) {
  make_stream(mesh);
  const GpuMesh& m = meshes_[mesh];
  upload_stream(m, positions, normals,
                static_cast<std::size_t>(m.vertex_count) * sizeof(glm::vec3));
  SV_GL_CHECK("upload_skinned");
}

}  // namespace sv::gl
