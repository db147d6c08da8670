// GpuModel: a Model's meshes in GL buffers, plus the palette buffers the GPU skinning path
// refreshes every frame. A buffer is uploaded when a frame first draws from it: at construction
// only what a GPU-path frame on the compact streams reads, the rest at its first use (on a
// software rasteriser, where --skinning auto starts on the CPU path, the first frame makes the
// streamed buffer too: gfx/renderer.h, gpu_skinning_for).
//
// Per mesh, made at construction:
// - the shared buffer (SharedVertex: uv and the debug-view info, 16 bytes a vertex), which every
//   vertex array reads, and the index buffer;
// - for a mesh given compact streams (skin/compact_streams.h: the document's, the ones the CPU
//   kernels read), the compact buffer, stream after stream: positions f32 x3, octahedral normals
//   u32, joints u8 x4 (u16 x4 past 255 joints), the first 3 weights f32 (32 bytes a vertex with
//   u8 joints), and `vao_gpu_compact` over it (skin.vert, u_compact 1: the GPU path decodes
//   exactly what skin_compact decodes).
// Made at first use, by vertex_array() (every draw reaches its vertex array through it: the
// renderer, crowds, the picker, VertexCapture/SkinReadback) or upload_skinned*():
// - the float buffer (FloatVertex: position, normal, joint indices as integers, weights, 48 bytes
//   a vertex), influences 5-8 where the mesh keeps them (Influence2, 24 bytes), and `vao_gpu`
//   (skin.vert from the float buffer): at the first frame that skins the mesh on the float path
//   (8 influences, a morph weight: SkinnedPose::compact() false);
// - the streamed buffer (the CPU-skinned vertices, rewritten each frame on the CPU path:
//   positions, float normals, octahedral normals; 28 bytes a vertex, starting as the bind pose)
//   with `vao_cpu` (mesh.vert: positions and normals from it, joints and weights from the float
//   buffer) or `vao_cpu_compact` (positions and octahedral normals from it, joints and weights
//   from the compact buffer): at the first frame that draws the mesh on the CPU path.
// A mesh without compact streams draws from the float arrays on every path, its first frame
// too: its float buffer and `vao_gpu` are made at construction (deferring them saves nothing).
// A first GPU-path frame so uploads 48 bytes a vertex (u8 joints) besides the indices, where
// uploading every buffer at construction cost 124 (BENCHMARKS.md, round 31). A first-use upload is
// a one-time cost per mesh and buffer (the frame that switches path or influences pays it once),
// never a per-frame allocation. The lazily made buffers are a cache of the model's arrays, so
// vertex_array() is const (they are `mutable`; the GL context is current on the one thread that
// draws).
//
// Lifetime: the first-use uploads read the meshes of the Model this was built from, through a
// span over its `meshes` vector's elements. That Model must outlive the GpuModel and not change
// (the viewer's Document is immutable and declared before the GpuModel in Scene; moving the
// Document moves the vector without moving its elements, as SkinnedPose's span of the
// document's compact streams relies on too). The compact streams are read only at construction.
//
// The palette of all meshes (Animator::palette, concatenated) lives in one texture buffer of
// RGBA32F texels, three per bone (the rows of the 3x4 matrix); the normal palette in a second
// one with the same layout. upload_palette() is the only per-frame GPU-path upload; with DQS or
// CoR, upload_method_palette() too (the method palette, skin/skin_method.h: kMethodTexels texels
// per bone, the same bone order).
//
// CoR's per-vertex centres of rotation are a vertex attribute (kCenter) of `vao_gpu` and
// `vao_gpu_compact`: they arrive after the load (computed off the UI thread, and only once CoR is
// chosen), so until the first upload_centers() the attribute reads the bind positions (the float
// or the compact buffer's), and that call makes their buffer and moves the attribute onto it (a
// model never skinned with CoR has none).
//
// The shared, float and compact buffers are written in place through a mapping where the driver
// gives one, and the streamed buffer's bind pose comes from the model's own arrays: the uploads
// copy nothing of the model's size in this process.
//
// Which vertex array a frame draws is SkinnedPose::compact()'s call (any method, 4 influences,
// no morph weight) and the path's: vertex_array(mesh, gpu_path, compact).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include <glm/gtc/type_precision.hpp>
#include <glm/mat3x3.hpp>
#include <glm/mat4x4.hpp>
#include <glm/vec3.hpp>
#include <glm/vec4.hpp>

#include "gfx/objects.h"

namespace sv {

struct Model;
struct Mesh;
struct MethodBone;
struct CompactStreams;

namespace gl {

// Attribute locations, shared with shaders/common.vert.
enum Attribute : GLuint {
  kPosition = 0,
  kNormal = 1,
  kUv = 2,
  kJoints = 3,  // integer (glVertexAttribIPointer), 4 x uint16
  kWeights = 4,
  kInfo = 5,    // integer, 2 x uint32: dominant skeleton joint; VertexFlag bits | weight-sum
                // level << 8 | cut-weight level << 16 (gfx/view_colors.h)
  kCenter = 6,  // CoR: the vertex's centre of rotation, bind space (skin.vert only)
  // Influences 5-8 (Mesh::joints2/weights2), from a buffer of their own that only a mesh keeping
  // them has; read by the shaders only while u_influences is 8 (influences_uniform).
  kJoints2 = 7,   // integer, 4 x uint16
  kWeights2 = 8,  // fractions of the top-8 sum (anim/model.h)
  // The compact layout's (vao_*_compact; the joints come in kJoints as u8 or u16 integers).
  kOctNormal = 9,  // integer, 1 x uint32: octahedral code (compact_streams.h)
  kWeights3 = 10,  // 3 x f32: w0 w1 w2; w3 = 1 - ((w0 + w1) + w2)
};

// Texels per bone of the method palette, shared with shaders/skin.vert (injected as
// SV_METHOD_TEXELS): the rotation quaternion (x, y, z, w), the dual part, and the rows of the
// bind-space stretch S with w of the first row 1 when the bone is scaled (two-phase skinning).
inline constexpr int kMethodTexels = 5;

// The defines skin.vert and mesh.vert are built with: the view colours (gfx/view_colors.h),
// kMethodTexels, and kOctScale's bits (SV_OCT_SCALE_BITS: the octahedral decode's constant).
std::vector<std::string> skin_program_defines();

// Texture units the skinning program reads its palettes from (the renderer, picking and the
// tests' vertex capture bind them alike); unit 0 is the base-colour texture.
inline constexpr int kPaletteUnit = 1, kNormalPaletteUnit = 2, kMethodPaletteUnit = 3;
// Morph targets (skin.vert's u_morph_deltas, u_morph_active), bound by bind_palettes too.
inline constexpr int kMorphDeltaUnit = 6, kMorphActiveUnit = 7;
// The difference views' per-vertex values (common.vert's u_vertex_values).
inline constexpr int kVertexValueUnit = 4;

struct GpuMesh {
  // --- made at construction ---
  Buffer shared_vertices;  // SharedVertex: uv, info
  Buffer indices;
  // --- made at first use (GpuModel::vertex_array, upload_skinned*); 0 until then ---
  Buffer float_vertices;  // FloatVertex: position, normal, joints, weights (at construction
                          // where the mesh has no compact streams)
  Buffer influences2;     // kJoints2 + kWeights2 per vertex; none within the 4-limit
  VertexArray vao_gpu;    // skin.vert over the float buffer
  Buffer
      stream_vertices;  // positions, normals, then octahedral normals: vertex_count each (CPU path)
  VertexArray vao_cpu;  // mesh.vert: the streamed positions and normals
  // --- end of first use ---
  Buffer centers;  // CoR: vertex_count vec3 (kCenter); 0 until upload_centers
  bool has_influences8 = false;
  // --- compact streams (none when the model was uploaded without them) ---
  Buffer compact_vertices;
  VertexArray vao_gpu_compact;
  VertexArray vao_cpu_compact;  // first use, as the streamed buffer it reads
  bool has_compact = false;
  bool compact_narrow_joints = false;  // joints u8 x4 (else u16 x4) in compact_vertices
  // --- end of compact streams ---
  Texture base_texture;     // 0 when the material has no image (or the driver cannot hold it)
  GLsizei index_count = 0;  // triangle indices, first in `indices`
  GLsizei line_count = 0;   // line indices after them (Mesh::line_indices)
  GLsizei point_count = 0;  // point indices after those (Mesh::point_indices)
  GLsizei vertex_count = 0;
  GLint palette_base = 0;   // first bone of this mesh in the palette buffers
  GLint palette_bones = 0;  // its bones there (Mesh::skin_joints; a rigid mesh's one: its node)
  // --- morph targets ---
  GLint morph_first = 0;  // this mesh's first entry in the active-target list
  GLint morph_count = 0;  // its targets of non-zero weight this frame (upload_morph_weights)
  // --- end of morph targets ---
  glm::vec4 base_color{0.8f, 0.8f, 0.8f, 1.0f};
  // Its material's Material::double_sided: false asks for back-face culling (gfx/face_culling.h
  // says when the draw honours it). A mesh without a material draws both sides.
  bool double_sided = true;
};

// The u_influences the shaders get for `mesh` when the frame skins with `influences` (4 or 8,
// SkinChoice): 8 only where the mesh keeps a second set, so a mesh without one never reads the
// attributes it does not have.
inline GLint influences_uniform(const GpuMesh& mesh, int influences) noexcept {
  return influences == 8 && mesh.has_influences8 ? 8 : 4;
}

// Sets GL's face culling for one mesh's triangles: back faces of counter-clockwise fronts culled
// when `cull` (face_culling.h's culls_back_faces), none otherwise. The renderer's and the picker's
// draws set it per mesh and leave it off after their meshes.
inline void set_back_face_culling(bool cull) noexcept {
  if (cull) {
    glEnable(GL_CULL_FACE);
    glCullFace(GL_BACK);
    glFrontFace(GL_CCW);
  } else {
    glDisable(GL_CULL_FACE);
  }
}

// Whether `mesh` is drawn from its compact streams when the frame skins compact
// (SkinnedPose::compact): only where it has them. u_compact is this, as 0 or 1.
inline bool draws_compact(const GpuMesh& mesh, bool compact) noexcept {
  return compact && mesh.has_compact;
}

// A texture buffer of `texels` RGBA32F texels (at least one) over a new `buffer`, contents
// undefined: the palettes' storage (GpuModel, gfx/crowd_gpu.h).
Texture make_buffer_texture(Buffer& buffer, std::size_t texels);

// One bone of the method palette as its kMethodTexels texels (the layout above).
void pack_method_bone(const MethodBone& bone, glm::vec4* texels) noexcept;

class GpuModel;
// Binds the model's palette textures at their units (kPaletteUnit ...), and its morph textures
// (kMorphDeltaUnit, kMorphActiveUnit), for skin.vert.
void bind_palettes(const GpuModel& gpu) noexcept;
// Binds only the morph textures (a crowd binds its own palettes, gfx/crowd_gpu.h).
void bind_morph_textures(const GpuModel& gpu) noexcept;
// The same for any three palette textures (a crowd's: gfx/crowd_gpu.h).
void bind_palette_textures(GLuint palette, GLuint normal, GLuint method) noexcept;

// skin.vert's morph uniforms in one program: located once, set per mesh.
struct MorphUniforms {
  GLint deltas = -1, active = -1, first = -1, count = -1;
  void locate(GLuint program) noexcept;
  // The sampler units and `mesh`'s active-target range (the program must be in use).
  void set(const GpuMesh& mesh) const noexcept;
};

// skin.vert's sampler and per-mesh uniforms in one program (common.vert's u_vertex_values,
// u_influences and u_compact included), looked up once per program: the renderer's mesh
// programs, the picker's and the readback's hold one each. A uniform the program lacks is -1.
struct SkinUniforms {
  GLint palette = -1, normal_palette = -1, method_palette = -1, palette_base = -1, method = -1;
  GLint vertex_values = -1, influences = -1, compact = -1;
  MorphUniforms morph;  // the active targets (GpuModel::upload_morph_weights)
  static SkinUniforms of(GLuint program) noexcept;
  // The three palette samplers at their units (kPaletteUnit ...; the program must be in use).
  void set_palette_units() const noexcept;
};

class GpuModel {
 public:
  GpuModel() = default;

  // Uploads what the default frame draws (above) and sizes the palette buffers. Needs a current
  // GL context. `compact`: per mesh its compact streams (load_compact), or empty for none; a mesh
  // whose streams do not fit it (another vertex count) gets none. `model` must outlive this and
  // stay unchanged (the first-use uploads read its meshes); the streams are not kept.
  explicit GpuModel(const Model& model, std::span<const CompactStreams> compact = {});

  // The vertex array of mesh `mesh` for the GPU path (skin.vert) or the CPU path (mesh.vert),
  // from its compact streams where draws_compact(mesh, compact): what every draw binds. Makes
  // what it reads that is not made yet (the float buffer, the streamed buffer: a one-time upload
  // per mesh, from the model's arrays). 0 for a mesh out of range, or where the model it was
  // built from no longer has that mesh's vertex count (a misuse: drawing with it is a GL error).
  GLuint vertex_array(std::size_t mesh, bool gpu_path, bool compact) const;

  // Writes the palettes (Animator's concatenated layout) into the texture buffers.
  void upload_palette(std::span<const glm::mat4> palette,
                      std::span<const glm::mat3> normal_palette) noexcept;
  // Writes the method palette (Animator::method_palette, the palette's layout).
  void upload_method_palette(std::span<const MethodBone> palette) noexcept;
  // Writes one mesh's centres of rotation (its vertex count of them; otherwise nothing).
  void upload_centers(std::size_t mesh, std::span<const glm::vec3> centers) noexcept;
  // Writes the active-target list from every mesh's morph weights (Animator::morph_weights, one
  // span per mesh in mesh order): per mesh its targets of non-zero weight, and sets each
  // GpuMesh's morph_count. One upload, nothing allocated; a size that does not fit the model is
  // ignored (that mesh morphs nothing).
  template <class WeightsOf>
  void upload_morph_weights(WeightsOf&& weights_of) noexcept {
    for (std::size_t m = 0; m < meshes_.size(); ++m) stage_morph_weights(m, weights_of(m));
    flush_morph_weights();
  }
  // Writes the difference views' per-vertex values (0..1, every mesh's vertices concatenated in
  // mesh order) into the R32F texture buffer common.vert reads; the buffer is made at the first
  // call (a model never shown in those views has none). False, uploading nothing, when the
  // count is not the model's vertex count or exceeds the driver's texture-buffer size.
  bool upload_vertex_values(std::span<const float> values) noexcept;
  GLuint vertex_value_texture() const noexcept { return value_texture_.id(); }
  // Writes one mesh's CPU-skinned vertices into its streamed buffer, made first at the first
  // call (as the bind pose, which stays where fewer normals are given).
  void upload_skinned(std::size_t mesh, std::span<const glm::vec3> positions,
                      std::span<const glm::vec3> normals);
  // The same from skin_lbs_compact: positions and octahedral normals (vao_cpu_compact's).
  void upload_skinned_compact(std::size_t mesh, std::span<const glm::vec3> positions,
                              std::span<const uint32_t> normals);

  std::span<const GpuMesh> meshes() const noexcept { return meshes_; }
  GLuint palette_texture() const noexcept { return palette_texture_.id(); }
  GLuint normal_palette_texture() const noexcept { return normal_texture_.id(); }
  GLuint method_palette_texture() const noexcept { return method_texture_.id(); }
  GLuint morph_delta_texture() const noexcept { return morph_delta_texture_.id(); }
  GLuint morph_active_texture() const noexcept { return morph_active_texture_.id(); }
  std::size_t bone_count() const noexcept { return bone_count_; }
  // Texture decode problems met at load, for the import report.
  const std::vector<std::string>& warnings() const noexcept { return warnings_; }

 private:
  // First use (vertex_array): each makes its part of meshes_[mesh] once; nothing when made.
  void make_float_arrays(std::size_t mesh) const;  // float buffer, influences2, vao_gpu
  void make_stream(std::size_t mesh) const;        // the streamed buffer (bind pose)

  // mutable: the first-use buffers are made by the const vertex_array (above).
  mutable std::vector<GpuMesh> meshes_;
  std::span<const Mesh> source_;  // the model's meshes, for the first-use uploads
  Buffer palette_buffer_;
  Texture palette_texture_;
  Buffer normal_buffer_;
  Texture normal_texture_;
  Buffer method_buffer_;
  Texture method_texture_;
  Buffer value_buffer_;
  Texture value_texture_;
  std::size_t vertex_total_ = 0;  // every mesh's vertices
  std::size_t bone_count_ = 0;
  std::vector<glm::vec4> staging_;  // kMethodTexels texels per bone, sized at load
  // --- morph targets ---
  void stage_morph_weights(std::size_t mesh, std::span<const float> weights) noexcept;
  void flush_morph_weights() noexcept;
  Buffer morph_delta_buffer_;  // every target's deltas (skin.vert's layout), static
  Texture morph_delta_texture_;
  Buffer morph_active_buffer_;  // one (texel, weight bits) entry per target of the model
  Texture morph_active_texture_;
  std::vector<int32_t> morph_target_texel_;  // per target of the model, its first delta texel
  std::vector<glm::ivec2> morph_active_;     // staging, one entry per target, sized at load
  // --- end of morph targets ---
  std::vector<std::string> warnings_;
};

}  // namespace gl
}  // namespace sv
