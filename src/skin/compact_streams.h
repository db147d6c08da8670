// Compact vertex streams for skinning (issue 25, deliverable 3): one layout for the CPU kernels
// and the GPU's skinning shader, built from a mesh's float streams once, by the import worker
// (store_compact; model format 12 keeps them with the mesh: Mesh::compact_*), and read in place
// by every load (load_compact: the viewer's Document). The window skins from them on both paths
// where they apply (any method: LBS, DQS, CoR; 4 influences; no morph weight:
// SkinnedPose::compact); the GPU reads the same streams from a static buffer (gfx/gpu_model.h)
// and shaders/common.vert decodes them with the operations below. DQS and CoR read the same
// joints, weights and normal codes (CoR its centres too, f32 x3: CompactSkinInput::centers) and
// write the same outputs (skin_compact, compact_methods.cpp).
//
// Per vertex, read by LBS:
//   position  f32 x3                                   12 B  (unchanged: Mesh::positions)
//   normal    octahedral, snorm16 x2 in one u32          4 B  (was f32 x3, 12 B)
//   joints    u8 x4 when every index is below 256        4 B  (was u16 x4, 8 B)
//   weights   the first 3 as f32; w3 = 1 - ((w0+w1)+w2) 12 B  (was f32 x4, 16 B)
// and written: position f32 x3 (12 B) + octahedral normal (4 B). 32 B read + 16 B written =
// 48 B per vertex, against 72 B for the float streams (12+12+8+16 read, 12+12 written).
//
// Why these choices (measured on every skinned test model, tests/import/compact_model_test.cpp
// and BENCHMARKS.md round 20d):
//  - Weights stay f32 for 3 slots. A weight rounded to 16 bits is off by up to 2^-17 (7.6e-6),
//    and a vertex's position error is sum_i dw_i (K_i p): in a bent pose the bones' images of p
//    differ by a good part of the model's size, so 16-bit weights move vertices by more than
//    1e-6 of the model's size (the aim). Dropping the 4th weight instead costs only the
//    rounding of 1 - (w0+w1+w2): |dw3| <= 3 * 2^-24 relative to 1, so a vertex moves by at most
//    ~2e-7 of |K_3 p| (its distance from the model-space origin), which on the test models is
//    below 1e-7 of their size. 12 B against 8 B for u16 x4: 4 B spent to keep the error bound.
//  - Normals octahedral (Cigolle et al. 2014, "A Survey of Efficient Representations for
//    Independent Unit Vectors"): a direction to within 4.3e-5 rad (0.0025 degrees) on snorm16 x2
//    as the encoder picks the code (oct_encode_best), 6.3e-5 rad as the kernels round their
//    output (measured over 200,000 directions, tests/skin/compact_streams_test.cpp).
//    The skinning kernels need no unit input (the blended normal is normalised after), and the
//    octahedral projection divides by the L1 norm, so the output needs no square root at all.
//  - Joints as u8 when the mesh's largest index is below 256 (Mesh::max_joint). The SIMD kernels
//    repack at most kSkinMaxSimdBones = 256 bones, so every mesh they skin fits u8; a mesh with
//    more keeps u16 joints (joints16) and is skinned by the scalar loop, as its float form is.
//
// Decoding, exactly (the same float operations everywhere, so two paths that read the same
// stream agree; common.vert's oct_decode_raw and read_vertex are these, bit for bit:
// tests/gfx/compact_gl_test.cpp):
//   sx = (int16) (code & 0xffff), sy = (int16) (code >> 16)
//   x = max(sx * kOctScale, -1), y = max(sy * kOctScale, -1), z = (1 - |x|) - |y|
//   if z < 0: (x, y) = ((1 - |y|) * s(x), (1 - |x|) * s(y)), s(a) = a >= 0 ? 1 : -1
// giving a vector of L1 norm 1 (oct_decode_raw); oct_decode normalises it. (The AVX2 run kernels,
// LBS's and DQS/CoR's, decode the same direction exactly in integers, scaled by 32767: the
// skinning needs only the direction. skinning_avx2_runs.cpp, compact_methods_avx2.cpp.)
// Encoding in the kernels (oct_encode): divide by the L1 norm, fold the lower half as above,
// round x * 32767 and y * 32767 to nearest (even on ties). A vector of L1 norm below 2^-120, or
// not finite, has no direction: it encodes as 0 (decodes to +z), where the float path writes a
// zero normal. (The AVX2 run kernels fold the unnormalised vector, (|x| + |z|) s(x) for
// (1 - |y|) s(x), and scales by 32767 / L1: the same value rounded differently, so at most a
// neighbouring code; a vector outside its range, zero or not finite takes oct_encode itself.)
// skin.vert rounds its output normal through common.vert's copy of oct_encode, so the GPU path
// shades the direction the CPU path's code decodes to (both make it unit before it is interpolated:
// a code's direction has L1 norm 1, its length varies with the direction).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include <glm/gtc/type_precision.hpp>
#include <glm/vec3.hpp>
#include <glm/vec4.hpp>

#include "anim/stream.h"

namespace sv {

struct Mesh;
struct Model;
class WorkerPool;

inline constexpr float kOctScale = 1.0f / 32767.0f;
// Below this L1 norm (or not finite) a normal encodes as 0.
inline constexpr float kOctMinL1 = 0x1p-120f;

// The 4th weight from the first 3 (this order of operations everywhere).
inline float fourth_weight(const glm::vec3& w) noexcept { return 1.0f - ((w.x + w.y) + w.z); }

// The kernels' encoding of any vector's direction (round to nearest), as described above.
uint32_t oct_encode(const glm::vec3& n) noexcept;
// The encoder's: of the 4 codes around the projected point, the one whose decoded direction is
// nearest n's (the angle to n is then below 4.3e-5 rad, against 6.3e-5 for rounding).
uint32_t oct_encode_best(const glm::vec3& n) noexcept;
// oct_encode_best of every normal into codes[0, normals.size()): with AVX2 where the CPU has it
// (the same codes), as the import worker encodes a model.
void oct_encode_best(std::span<const glm::vec3> normals, uint32_t* codes) noexcept;
// The decoded vector of L1 norm 1 (what the kernels multiply), and the unit vector.
glm::vec3 oct_decode_raw(uint32_t code) noexcept;
glm::vec3 oct_decode(uint32_t code) noexcept;

// A view of compact streams for skin_lbs_compact and skin_compact (skin/skinning.h). Exactly one of
// joints8 and joints16 has the vertex count of entries; normals may be empty (positions only).
struct CompactSkinInput {
  std::span<const glm::vec3> positions;
  std::span<const uint32_t> normals;
  std::span<const glm::u8vec4> joints8;
  std::span<const glm::u16vec4> joints16;
  std::span<const glm::vec3> weights;  // w0 w1 w2; w3 = fourth_weight
  // Largest joint index when known; -1 makes the skinning scan them.
  int32_t max_joint = -1;
  // CoR only (skin_compact): each vertex's centre of rotation, f32 x3 as the float path reads
  // them (rotation_centers.h). Not rounded: p' = R A (p - c) + sum_i w_i K_i c moves with c as
  // with p itself, and positions stay f32 for the error bound above.
  std::span<const glm::vec3> centers = {};
  std::size_t vertex_count() const noexcept { return positions.size(); }
};

// The compact streams of one mesh (positions stay the mesh's own). Streams (anim/stream.h): owned
// when encode_compact made them, borrowed where they are a model's stored ones (stored_compact).
struct CompactStreams {
  Stream<uint32_t> normals;
  Stream<glm::u8vec4> joints8;    // max_joint < 256
  Stream<glm::u16vec4> joints16;  // max_joint >= 256: u16 kept (the scalar loop's)
  Stream<glm::vec3> weights;
  int32_t max_joint = 0;

  bool narrow_joints() const noexcept { return joints16.empty(); }
  CompactSkinInput input(std::span<const glm::vec3> positions) const noexcept;
  // Bytes LBS reads and writes per vertex with these streams (positions included).
  std::size_t bytes_per_vertex(bool with_normals) const noexcept;
};

// Encodes the float streams (the vertex count of each; normals may be empty). max_joint < 0:
// scanned. Weights are taken as they are (the importer's sum to 1 within rounding).
CompactStreams encode_compact(std::span<const glm::u16vec4> joints,
                              std::span<const glm::vec4> weights,
                              std::span<const glm::vec3> normals, int32_t max_joint = -1);
// The same from a mesh's 4-influence streams.
CompactStreams encode_compact(const Mesh& mesh);
// Per mesh of `model`, encode_compact(mesh): load_compact's fallback for a model whose meshes keep
// no streams (a model built in memory, without the import worker). The
// vertices are split over `pool`'s threads when one is given (each vertex is encoded alone: the
// same codes). About 36 ns of CPU a vertex (BENCHMARKS.md, "the window on the compact streams").
std::vector<CompactStreams> encode_compact(const Model& model, WorkerPool* pool = nullptr);

// The streams a mesh keeps (Mesh::compact_*, made by the import worker: store_compact), sharing
// its elements (a copy of a borrowed Stream borrows the same bytes; an owned one is copied), or
// empty streams when it keeps none.
CompactStreams stored_compact(const Mesh& mesh);
// Makes `mesh` keep encode_compact(mesh): what the import worker does to every mesh once its
// float streams are final, so the model stream carries them (model format 12).
void store_compact(Mesh& mesh);
// What a load uses (the viewer's Document): per mesh its stored streams, shared, when every mesh
// keeps them (a model from the import worker or the cache: nothing encoded or copied); otherwise
// encode_compact(model, pool), for a model built in memory by a test or a tool.
std::vector<CompactStreams> load_compact(const Model& model, WorkerPool* pool = nullptr);

}  // namespace sv
