// CPU skinning of positions and normals: linear blend skinning (LBS), and the methods of
// skin/skin_method.h (dual quaternions, optimised centres of rotation).
//
//   LBS:  p' = (sum_i w_i K_{j_i}) p            n' = normalize((sum_i w_i N_{j_i}) n)
//
// K is the palette (pose.h), N the normal palette. Each vertex has 4 joint indices into the
// palette and 4 weights summing to 1 (the importer guarantees both; unused slots have weight 0).
// Blending the matrices first and transforming once costs less than transforming by each
// matrix. Output is in model space. The caller owns every buffer; nothing allocates.
//
// skin_lbs runs a SIMD kernel chosen once at run time (AVX-512 where the CPU has it, else
// AVX2+FMA, SSE2 on any other x86-64, the scalar loop elsewhere); skin_lbs_parallel splits the
// same work over a WorkerPool. The AVX-512 kernel skins runs of consecutive vertices that share
// their 4 joints (exactly equal `joints` entries) 16 at a time with the bones as constants,
// about twice the per-vertex rate: lay meshes out with group_vertices_by_bone_set (anim/model.h;
// the importer does) to get it. Other vertices take the per-vertex AVX2 kernel. Both agree with
// skin_lbs_reference, the plain scalar loop, to within 1e-6 of each vertex's magnitude
// (tests/anim/skinning_simd_test.cpp); they differ from it only by rounding (fused multiply-adds,
// and a Newton-refined reciprocal square root for normals).
//
// With a second set of influences (SkinInput::joints2, up to 8 per vertex) every method skins
// runs of vertices that share all 8 joints (both sets' `joints` entries equal) the same way, a
// block of lanes at a time with the 8 bones as constants (skin_runs8 in skinning_runs.h,
// skinning_method_lanes.inc's Lanes8; the importer lays 8-influence meshes out in such runs);
// vertices in runs shorter than 3, and CPUs without AVX2, take a per-vertex loop over the 8
// slots (skinning8.cpp). The 4-influence kernels pay one test per call for it and nothing per
// vertex.
//
// skin() runs any method with the same layout and threading: DQS and CoR skin the same runs of
// vertices that share their bones 16 (AVX-512) or 8 (AVX2) lanes at a time, with the method's
// per-bone values (the dual quaternion, the rotation, the stretch) as broadcast constants;
// vertices in short runs take a plain per-vertex loop (skinning_methods.cpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include <glm/gtc/type_precision.hpp>
#include <glm/mat3x3.hpp>
#include <glm/mat4x4.hpp>
#include <glm/vec3.hpp>
#include <glm/vec4.hpp>

#include "skin/compact_streams.h"
#include "skin/skin_method.h"

namespace sv {

class WorkerPool;

struct SkinInput {
  std::span<const glm::vec3> positions;
  std::span<const glm::vec3> normals;  // may be empty: then no normals are written
  std::span<const glm::u16vec4> joints;
  std::span<const glm::vec4> weights;
  // Largest index in `joints` when the caller knows it (Mesh::max_joint); -1 makes skin_lbs
  // scan the joints once to check them against the palette.
  int32_t max_joint = -1;
  // CoR only: each vertex's centre of rotation in bind space (skin/rotation_centers.h), the
  // vertex count of them; other methods ignore it.
  std::span<const glm::vec3> centers = {};
  // 8 influences (Mesh::joints2/weights2, anim/model.h): each vertex's 5th-8th joints and their
  // weights as fractions of its top-8 sum; the first set is then scaled by 1 - sum(weights2).
  // Empty (both) for 4 influences. Given, every method takes the 8-influence kernels (above),
  // which leave the 4-influence kernels as they are; max_joint must then cover these joints
  // too.
  std::span<const glm::u16vec4> joints2 = {};
  std::span<const glm::vec4> weights2 = {};
};

// What each method reads per bone: LBS the palette (and the normal palette for normals); DQS
// the method palette (build_method_palette of the palette); CoR the palette (the centre moves
// as LBS moves it) and the method palette. Spans a method does not read may be empty.
struct SkinPalettes {
  std::span<const glm::mat4> palette;
  std::span<const glm::mat3> normal_palette;
  std::span<const MethodBone> method;
};

// Returns false, writing nothing, when the streams disagree in length, the outputs do not fit
// (out_positions, and out_normals when normals are given, must have the vertex count), normals
// are given and the normal palette differs in size from the palette, or a joint index is out
// of range of the palette (checked up front from max_joint or a scan, so the loop itself never
// reads past the palette). max_joint must cover all 4 slots, zero-weight ones included: they
// are read too.
bool skin_lbs(std::span<const glm::mat4> palette, std::span<const glm::mat3> normal_palette,
              const SkinInput& in, std::span<glm::vec3> out_positions,
              std::span<glm::vec3> out_normals) noexcept;

// The same contract as skin_lbs, split over `pool`'s threads (each writes its own vertex range;
// the caller's thread takes part too). Results are identical to skin_lbs's.
bool skin_lbs_parallel(WorkerPool& pool, std::span<const glm::mat4> palette,
                       std::span<const glm::mat3> normal_palette, const SkinInput& in,
                       std::span<glm::vec3> out_positions,
                       std::span<glm::vec3> out_normals) noexcept;

// Instruction sets skin_lbs can use (Avx512 needs AVX-512F, AVX2 and FMA). Auto is the best
// the CPU has (chosen once, at run time: the binary runs on any x86-64); palettes of more than
// kSkinMaxSimdBones entries always take the scalar loop (the SIMD paths repack the palette on the
// stack).
enum class SkinIsa : uint8_t { Auto, Scalar, Sse2, Avx2Fma, Avx512 };
inline constexpr std::size_t kSkinMaxSimdBones = 256;

// What Auto resolves to on this CPU.
SkinIsa skin_best_isa() noexcept;
const char* skin_isa_name(SkinIsa isa) noexcept;

// skin_lbs on a given instruction set, for tests and benchmarks. One the CPU (or the build's
// architecture) lacks falls back to the best one available below it.
bool skin_lbs_isa(SkinIsa isa, std::span<const glm::mat4> palette,
                  std::span<const glm::mat3> normal_palette, const SkinInput& in,
                  std::span<glm::vec3> out_positions, std::span<glm::vec3> out_normals) noexcept;

// Skins with `method`. The contract of skin_lbs, and: the method palette must have as many
// entries as the palette (DQS: as the joints need, when no palette is given), and CoR needs one
// centre per vertex; otherwise false, writing nothing. LBS is skin_lbs exactly.
bool skin(SkinMethod method, const SkinPalettes& palettes, const SkinInput& in,
          std::span<glm::vec3> out_positions, std::span<glm::vec3> out_normals) noexcept;
// The same split over `pool`'s threads; results identical to skin()'s.
bool skin_parallel(WorkerPool& pool, SkinMethod method, const SkinPalettes& palettes,
                   const SkinInput& in, std::span<glm::vec3> out_positions,
                   std::span<glm::vec3> out_normals) noexcept;
// skin() on a given instruction set, for tests and benchmarks (falls back as skin_lbs_isa).
// DQS and CoR have run kernels for AVX-512 and AVX2; on SSE2 and Scalar they take the
// per-vertex loop.
bool skin_isa(SkinIsa isa, SkinMethod method, const SkinPalettes& palettes, const SkinInput& in,
              std::span<glm::vec3> out_positions, std::span<glm::vec3> out_normals) noexcept;

// ---- Compact streams (skin/compact_streams.h: layout, error and why) ------------------------
// LBS reading the compact streams and writing positions (f32 x3) and octahedral normals (one
// u32 each: 48 B per vertex moved against the float streams' 72). The contract of skin_lbs,
// with `out_normals` octahedral. AVX-512 and AVX2 skin runs of vertices that share their 4
// joints with the float path's run walk (skinning_runs.h; AVX-512 with the float kernel
// templated over the streams, AVX2 with a kernel of its own that blends each vertex's matrix from
// differences to bone 0); short runs go through the per-vertex AVX2 kernel in batches; u16
// joints (meshes of more than 256 joints), SSE2 and Scalar take skin_lbs_compact_reference's loop.
// The output normal is octahedral rather than f32 x3 to write 4 B instead of 12 (what a
// renderer reading them must decode: oct_decode); positions differ from skin_lbs's on the
// float streams by the 4th weight's rounding (see compact_streams.h) and the kernels' own
// roundings (within 1e-6 of each vertex's magnitude, as the float kernels from their reference).
bool skin_lbs_compact_isa(SkinIsa isa, std::span<const glm::mat4> palette,
                          std::span<const glm::mat3> normal_palette, const CompactSkinInput& in,
                          std::span<glm::vec3> out_positions,
                          std::span<uint32_t> out_normals) noexcept;
bool skin_lbs_compact(std::span<const glm::mat4> palette, std::span<const glm::mat3> normal_palette,
                      const CompactSkinInput& in, std::span<glm::vec3> out_positions,
                      std::span<uint32_t> out_normals) noexcept;
// The same split over `pool`'s threads; results identical to skin_lbs_compact's.
bool skin_lbs_compact_parallel(WorkerPool& pool, std::span<const glm::mat4> palette,
                               std::span<const glm::mat3> normal_palette,
                               const CompactSkinInput& in, std::span<glm::vec3> out_positions,
                               std::span<uint32_t> out_normals) noexcept;
// The scalar loop: decode, skin_lbs_reference's formula, oct_encode.
bool skin_lbs_compact_reference(std::span<const glm::mat4> palette,
                                std::span<const glm::mat3> normal_palette,
                                const CompactSkinInput& in, std::span<glm::vec3> out_positions,
                                std::span<uint32_t> out_normals) noexcept;

// Any method over the compact streams: LBS is skin_lbs_compact exactly; DQS and CoR are the
// formulas of skin_method.h on the decoded joints, weights (w3 = fourth_weight) and normal, with
// the output normal rounded through oct_encode as skin_lbs_compact's (only its direction is
// stored, so the blended normal is not normalised first). CoR reads `in.centers` (f32 x3, one per
// vertex). The contract of skin(), with `out_normals` octahedral; u16 joints (meshes of more than
// 256 joints), SSE2 and Scalar take skin_compact_reference's loop (skinning_methods.cpp's,
// operation for operation: what skin.vert mirrors for the compact GPU path); AVX2 (and AVX-512,
// on its AVX2: no 16-lane compact kernel yet) skins runs of vertices that share their 4 joints 8
// at a time with the float kernels' lanes, the weights decoded, the normals decoded in integers
// and encoded by folding the unnormalised vector in lanes (compact_methods_avx2.cpp, as the LBS
// run kernel does), short runs through the scalar loop. The vector kernels' code may therefore
// differ from the scalar loop's by one step (a neighbouring code); degenerate vectors take
// oct_encode's exactly.
bool skin_compact_isa(SkinIsa isa, SkinMethod method, const SkinPalettes& palettes,
                      const CompactSkinInput& in, std::span<glm::vec3> out_positions,
                      std::span<uint32_t> out_normals) noexcept;
bool skin_compact(SkinMethod method, const SkinPalettes& palettes, const CompactSkinInput& in,
                  std::span<glm::vec3> out_positions, std::span<uint32_t> out_normals) noexcept;
// The same split over `pool`'s threads; results identical to skin_compact's.
bool skin_compact_parallel(WorkerPool& pool, SkinMethod method, const SkinPalettes& palettes,
                           const CompactSkinInput& in, std::span<glm::vec3> out_positions,
                           std::span<uint32_t> out_normals) noexcept;
// The scalar loop (skin_compact_isa with SkinIsa::Scalar).
bool skin_compact_reference(SkinMethod method, const SkinPalettes& palettes,
                            const CompactSkinInput& in, std::span<glm::vec3> out_positions,
                            std::span<uint32_t> out_normals) noexcept;

// The plain scalar loop, one vertex at a time in glm: the yardstick that the fast paths are
// tested and benchmarked against. Same contract as skin_lbs.
bool skin_lbs_reference(std::span<const glm::mat4> palette,
                        std::span<const glm::mat3> normal_palette, const SkinInput& in,
                        std::span<glm::vec3> out_positions,
                        std::span<glm::vec3> out_normals) noexcept;

}  // namespace sv
