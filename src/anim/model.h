// Model: everything an importer produces, as flat immutable data (no GL, no assimp).
//
// Every mesh is drawn through the same skinning path. A skinned mesh binds each vertex to up to
// 4 bones of its own skin (skin_joints[b] is a skeleton joint, inverse_bind[b] its bind
// inverse; glTF calls this a skin, assimp an aiBone list). A rigid mesh (no bones in the file)
// has a one-bone skin: its node's joint with an identity inverse bind, every vertex weight 1 —
// so it follows its node's animated global transform. Joint indices are 16-bit: a mesh binds at
// most 65535 bones.
//
// Positions and normals are as stored in the file (assimp's mVertices/mNormals), i.e. in the
// mesh's bind space; skinning maps them into model space (see pose.h).
//
// A mesh's per-element arrays are Streams (anim/stream.h): a model read from a cache entry or from
// the import worker's output points them into that mapping instead of copying them, and keeps the
// mapping alive; a model built in code owns them. Either way they are read-only after load.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include <glm/gtc/type_precision.hpp>
#include <glm/mat4x4.hpp>
#include <glm/vec2.hpp>
#include <glm/vec3.hpp>
#include <glm/vec4.hpp>

#include "anim/clip_runtime.h"
#include "anim/morph.h"
#include "anim/skeleton.h"
#include "anim/stream.h"

namespace sv {

// Per-vertex record of what the importer changed, for the weight views and the report.
enum VertexFlag : uint8_t {
  kVertexTruncated = 1u << 0,     // had more than 4 influences; the smallest were dropped
  kVertexRenormalised = 1u << 1,  // stored weights did not sum to 1
  kVertexUnweighted = 1u << 2,    // no weight at all: bound rigidly to the mesh's node
  kVertexOver8 = 1u << 3,         // had more than 8 (also kVertexTruncated): 8 still cut some
};

// A decoded image: 8-bit RGBA, rows top-down as the file stores them. Only the import worker
// decodes images (src/import/images.h: under its limits, within a pixel budget); the parent gets
// these pixels in the model stream and never opens or decodes an image file itself.
struct Image {
  std::string source;  // what it was read from, for messages: a file's path, or "embedded"
  uint32_t width = 0;
  uint32_t height = 0;
  std::vector<uint8_t> rgba;  // width * height * 4 bytes
};

struct Material {
  std::string name;
  glm::vec4 base_color{1.0f};
  // The base-colour texture as the file names it, for display only (nothing opens it outside
  // the worker); "" when the material names none.
  std::string texture_name;
  // Index into Model::images of its decoded pixels, or -1: none named, or not loaded (the
  // import report says why: outside the model's folder, not a regular file, too large, ...).
  int32_t image = -1;
  // false: the file asks for its triangles to be drawn from the front only (back-face culling,
  // front = counter-clockwise): glTF's `doubleSided: false`, its default. Only a glTF import sets
  // it false; every other format, and a model built in code, draws both sides. The renderer still
  // draws both sides where a mirroring transform flips the winding (gfx/face_culling.h).
  bool double_sided = true;
};

struct Mesh {
  Mesh() = default;
  Mesh(Mesh&&) noexcept = default;
  Mesh& operator=(Mesh&&) noexcept = default;
  Mesh(const Mesh&) = delete;
  Mesh& operator=(const Mesh&) = delete;

  std::string name;             // the file's mesh name
  int32_t node = -1;            // skeleton joint of the node that holds the mesh
  bool skinned = false;         // false: rigid on `node`
  int32_t material = -1;        // index into Model::materials, or -1
  uint32_t max_influences = 0;  // most influences any vertex had in the file (before the 4-limit)

  Stream<glm::vec3> positions;   // bind space, as stored
  Stream<glm::vec3> normals;     // same count as positions
  Stream<glm::vec2> uvs;         // empty, or same count as positions
  Stream<glm::u16vec4> joints;   // indices into skin_joints
  Stream<glm::vec4> weights;     // sum 1; order: see group_vertices_by_bone_set
  Stream<uint8_t> vertex_flags;  // VertexFlag bits, same count as positions
  // Each vertex's weights summed as the file stored them, before the 4-limit and renormalising
  // (0 for an unweighted vertex), for the weight-sum view and its counts. Empty, or the same
  // count as positions; empty means every stored sum was exactly 1 (meshes built in code).
  Stream<float> source_weight_sums;
  Stream<uint32_t> indices;  // triangles
  // What the file holds besides triangles: lines (two vertex indices each) and points (one
  // each), drawn as lines and points in the mesh's colour (a file of lines or points only, as
  // f3d shows them). Views, picking and the figures read only the triangles. Usually empty.
  Stream<uint32_t> line_indices;
  Stream<uint32_t> point_indices;
  // The file's index of each vertex (the importer reorders vertices: see
  // group_vertices_by_bone_set); empty means the file's order.
  Stream<uint32_t> source_vertex;
  int32_t max_joint = 0;  // largest value in `joints` (and `joints2`)

  // --- Influences 5-8 (issue 12, deliverable 3) ---------------------------------------------
  // Empty, all three, unless some vertex had more than 4 influences in the file
  // (max_influences > 4): a mesh within the 4-limit pays nothing for them. Otherwise one per
  // vertex each, in the vertex order of `joints`:
  //  - joints2/weights2: the vertex's 5th-8th largest weights (canonical order as `joints`:
  //    weighted slots first, by joint; unused slots weight 0, joint 0), as fractions of the sum
  //    of its 8 largest. `weights` stays the 4 largest renormalised (what 4 influences skin
  //    with), so with 8 influences a vertex blends
  //        (1 - sum(weights2)) * weights  and  weights2,
  //    which is its 8 largest renormalised, exactly (the 4 largest's share of the top 8 is
  //    1 - sum(weights2)). Vertices with 4 or fewer: weights2 = 0.
  //  - cut_weights: the share of the vertex's stored weight sum that the 4-limit drops (0 when
  //    it had 4 or fewer), for the influences view; 8 influences still drop what is past the 8th.
  Stream<glm::u16vec4> joints2;
  Stream<glm::vec4> weights2;
  Stream<float> cut_weights;
  bool has_influences8() const noexcept { return !joints2.empty(); }
  // --- end of influences 5-8 ------------------------------------------------------------------

  // --- compact streams (skin/compact_streams.h; model format 12) ------------------------------
  // What skin/compact_streams.h's encode_compact(mesh) makes of `normals`, `joints` and `weights`
  // (octahedral normals, joints narrowed to u8 when max_joint < 256, the first 3 weights), made
  // once by the import worker after the streams above are final and kept in the model stream, so
  // a load reads them in place instead of encoding them (BENCHMARKS.md, round 25). Their
  // max_joint is the mesh's. Either all empty (a model built in code: the viewer encodes them
  // itself) or, per vertex: compact_normals and compact_weights, and exactly one of
  // compact_joints8 (max_joint < 256) and compact_joints16 (max_joint >= 256). Whoever changes
  // normals, joints or weights after they were made clears them (clear_compact).
  Stream<uint32_t> compact_normals;
  Stream<glm::u8vec4> compact_joints8;
  Stream<glm::u16vec4> compact_joints16;
  Stream<glm::vec3> compact_weights;  // w0 w1 w2 (w3 = 1 - ((w0 + w1) + w2))
  bool has_compact() const noexcept { return !compact_weights.empty(); }
  void clear_compact() noexcept {
    compact_normals.clear();
    compact_joints8.clear();
    compact_joints16.clear();
    compact_weights.clear();
  }
  // --- end of compact streams -----------------------------------------------------------------

  std::vector<int32_t> skin_joints;     // skin bone -> skeleton joint
  std::vector<glm::mat4> inverse_bind;  // per skin bone: model space -> bone space at bind time

  // --- morph targets (anim/morph.h): applied to positions and normals before skinning ---
  // Each target's deltas are in the vertex order above (group_vertices_by_bone_set permutes
  // them with the other streams). Empty: the mesh has no targets.
  std::vector<MorphTarget> morph_targets;
  // --- end of morph targets ---

  std::size_t vertex_count() const noexcept { return positions.size(); }
  std::size_t triangle_count() const noexcept { return indices.size() / 3; }
};

// What Model::validate scans of a mesh's per-element streams (the largest joint and index, whether
// every float is finite, the weights' signs and sums), gathered block by block while a reader
// writes the streams: io/model_format.cpp scans each block of a cache entry while it is still in
// the CPU's cache, so a big mesh is not read from memory once more to be checked. Each call takes
// the next elements of its stream, in order. Model::validate(scans) uses a stream's reductions
// only when they cover exactly the stream's elements, and where they do not prove the stream
// good it scans the stream itself (which also finds the first bad element for its message): a
// scan changes what validate reads, never what it accepts.
class MeshScan {
 public:
  void positions(std::span<const glm::vec3> v) noexcept {
    finite(kPositions, reinterpret_cast<const float*>(v.data()), 3, v.size());
  }
  void normals(std::span<const glm::vec3> v) noexcept {
    finite(kNormals, reinterpret_cast<const float*>(v.data()), 3, v.size());
  }
  void uvs(std::span<const glm::vec2> v) noexcept {
    finite(kUvs, reinterpret_cast<const float*>(v.data()), 2, v.size());
  }
  void source_weight_sums(std::span<const float> v) noexcept {
    finite(kSourceWeightSums, v.data(), 1, v.size());
  }
  void cut_weights(std::span<const float> v) noexcept {
    floats(kCutWeights, v.data(), 1, v.size());
  }
  void joints(std::span<const glm::u16vec4> v) noexcept {
    largest(kJoints, reinterpret_cast<const uint16_t*>(v.data()), 4 * v.size(), v.size());
  }
  void joints2(std::span<const glm::u16vec4> v) noexcept {
    largest(kJoints2, reinterpret_cast<const uint16_t*>(v.data()), 4 * v.size(), v.size());
  }
  void indices(std::span<const uint32_t> v) noexcept {
    largest(kIndices, v.data(), v.size(), v.size());
  }
  void line_indices(std::span<const uint32_t> v) noexcept {
    largest(kLineIndices, v.data(), v.size(), v.size());
  }
  void point_indices(std::span<const uint32_t> v) noexcept {
    largest(kPointIndices, v.data(), v.size(), v.size());
  }
  void compact_joints8(std::span<const glm::u8vec4> v) noexcept;
  void compact_joints16(std::span<const glm::u16vec4> v) noexcept {
    largest(kCompactJoints16, reinterpret_cast<const uint16_t*>(v.data()), 4 * v.size(), v.size());
  }
  void compact_weights(std::span<const glm::vec3> v) noexcept {
    floats(kCompactWeights, reinterpret_cast<const float*>(v.data()), 3, v.size());
  }
  // Weights: their floats as floats() takes them, and each vertex's sum less `minus` (1 for the
  // first four, which sum to 1; 0 for influences 5-8, which sum to at most 1).
  void weights(std::span<const glm::vec4> v) noexcept { weight_sums(kWeights, v, 1.0f); }
  void weights2(std::span<const glm::vec4> v) noexcept { weight_sums(kWeights2, v, 0.0f); }

  enum Stream : uint8_t {
    kPositions,
    kNormals,
    kUvs,
    kSourceWeightSums,
    kCutWeights,
    kJoints,
    kJoints2,
    kIndices,
    kLineIndices,
    kPointIndices,
    kWeights,
    kWeights2,
    kCompactJoints8,
    kCompactJoints16,
    kCompactWeights,
    kStreams
  };
  // The reductions of one stream so far.
  struct Reduction {
    std::size_t count = 0;   // elements taken
    uint32_t exponents = 0;  // floats: bit 31 set when some float's exponent bits are all set
    uint32_t max_bits = 0;   // floats: their largest bits as unsigned; integers: the largest
    uint32_t sum_bits = 0;   // weights: the largest bits of |sum - minus| over the vertices
  };
  // Stream `s`'s reductions when they cover exactly `n` elements, else nullptr.
  const Reduction* covering(Stream s, std::size_t n) const noexcept {
    return r_[s].count == n ? &r_[s] : nullptr;
  }

 private:
  // `elements` elements of `per` floats each, or of integers (`values` in all). finite() takes
  // only the exponents (for streams checked for finiteness alone), floats() their bits' maximum
  // too.
  void finite(Stream s, const float* f, std::size_t per, std::size_t elements) noexcept;
  void floats(Stream s, const float* f, std::size_t per, std::size_t elements) noexcept;
  void largest(Stream s, const uint16_t* v, std::size_t values, std::size_t elements) noexcept;
  void largest(Stream s, const uint32_t* v, std::size_t values, std::size_t elements) noexcept;
  void weight_sums(Stream s, std::span<const glm::vec4> v, float minus) noexcept;

  std::array<Reduction, kStreams> r_{};
};

struct Model {
  Model() = default;
  Model(Model&&) noexcept = default;
  Model& operator=(Model&&) noexcept = default;
  Model(const Model&) = delete;
  Model& operator=(const Model&) = delete;

  Skeleton skeleton;
  std::vector<Mesh> meshes;
  std::vector<ClipRuntime> clips;  // runtime form only (built at import; see clip_runtime.h)
  std::vector<Material> materials;
  std::vector<Image> images;  // base-colour textures, decoded (Material::image)
  // Morph weight animation: empty (no clip animates a morph weight), or one per clip, in the
  // order of `clips` (anim/morph.h).
  std::vector<MorphClip> morph_clips;

  // Empty when the skeleton, every clip and every mesh are consistent (sizes, joint ranges,
  // finite numbers, each clip laid out for this skeleton's joints and parents); otherwise a
  // message naming the first problem. A clip's own arrays were checked when it was built or
  // adopted. `scans`: what a reader scanned of meshes[i]'s streams as it wrote them (see
  // MeshScan), for the first scans.size() meshes; the same checks with or without.
  std::string validate(std::span<const MeshScan> scans = {}) const;
};

// Per skeleton joint: how many vertices (of all meshes) it weighs on, and its largest weight on
// any vertex. For the inspector and the outliner's bone marks; computed once per model.
struct JointInfluence {
  uint32_t vertices = 0;    // vertices with a weight > 0 on this joint
  float max_weight = 0.0f;  // the largest such weight (0 when none)
};
// One entry per skeleton joint; joints no vertex weighs on (plain nodes) get {0, 0}. Influences
// naming a bone past a mesh's skin, or a skin joint past the skeleton, are skipped.
std::vector<JointInfluence> joint_influences(const Model& model);

// Lays a mesh out for skinning (the importer calls it on every mesh it builds):
//  - each vertex's influences in one canonical order: weighted slots first, by joint index
//    ascending; unused slots (weight 0) last, with joint 0;
//  - vertices sorted (stably) by their 4 joints, so vertices bound to the same bones are
//    consecutive; every per-vertex stream (morph target deltas too) is permuted alike and
//    `indices` remapped, so the triangles are unchanged; source_vertex records each vertex's
//    index in the file. max_joint is recomputed. The second set (joints2/weights2), when the
//    mesh keeps one, is put in the same canonical order and orders the vertices within each
//    run of equal `joints`: the runs of 4 joints stay whole (the 4-influence kernels), and
//    within them vertices with the same 8 joints are consecutive (the 8-influence kernels).
//    The compact streams, made from the old order, are cleared (clear_compact).
// Why: a run of vertices with the same 4 bones is skinned 16 at a time with the bones as
// constants (skin/skinning_avx512.cpp), about 3x the per-vertex rate; real meshes have tens to
// hundreds of vertices per bone set but do not store them together. The dominant bone of a
// vertex is its largest weight, no longer slot 0.
void group_vertices_by_bone_set(Mesh& mesh);

// The same for bare streams (benchmarks, tests): puts every vertex's influences in the
// canonical order and returns the vertex order, order[new] = old. With a second set (both
// given, each the size of `joints`) it is put in canonical order too and breaks ties between
// vertices of equal `joints`.
std::vector<uint32_t> bone_set_order(std::vector<glm::u16vec4>& joints,
                                     std::vector<glm::vec4>& weights,
                                     std::vector<glm::u16vec4>* joints2 = nullptr,
                                     std::vector<glm::vec4>* weights2 = nullptr);

}  // namespace sv
