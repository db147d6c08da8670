// Internal to anim/: the skinning kernels behind skin_lbs, each skinning vertices [begin, end)
// of an input that skin_lbs has already checked (sizes, joint range), so kernels test nothing.
//
// The SIMD kernels read a repacked palette, one PackedBone per entry (24 floats padded to 128
// bytes, so indexing is a shift): the columns of
// K (3x4 affine part) and N (normal matrix) side by side, so one 8-wide multiply-add blends a
// K column and the matching N column for both outputs at once, and K's translation column K3
// rides in the otherwise unused 4th lanes of the K halves:
//   [K0 K3.x | N0 0]  [K1 K3.y | N1 0]  [K2 K3.z | N2 0]
// Blending a vertex's 4 bones is then 12 multiply-adds; p' = K0 x + K1 y + K2 z + K3 and
// n' = N0 nx + N1 ny + N2 nz come out of three more against broadcasts of (p | n), plus K3
// gathered from the 4th lanes by two shuffles.
//
// DQS and CoR (skin_method.h) pack each bone differently (pack_method), one layout for both:
//   f[0..3] the rotation quaternion q (x y z w), f[4..7] the dual part qe (x y z w),
//   f[8..16] the stretch S row by row (S row r column c at 8 + 3r + c),
//   f[17..28] K's rows (K row r column c at 17 + 4r + c, c = 3 the translation),
//   f[29] 1 when S is not the identity (the bone needs two-phase skinning), else 0.
#pragma once

#include <cmath>
#include <cstddef>

#include <glm/geometric.hpp>
#include <glm/mat3x3.hpp>
#include <glm/mat4x4.hpp>
#include <glm/vec3.hpp>

#include "skin/skinning.h"

namespace sv::detail {

struct SkinJob {
  const glm::mat4* palette;
  const glm::mat3* normal_palette;  // null: positions only (LBS)
  const SkinInput* in;
  glm::vec3* out_positions;
  glm::vec3* out_normals;  // null: positions only
  SkinMethod method = SkinMethod::Lbs;
  const MethodBone* method_palette = nullptr;  // DQS, CoR
  const glm::vec3* centers = nullptr;          // CoR
};

// LBS over compact streams (skin_lbs_compact): the same, with octahedral normals out.
struct CompactJob {
  const glm::mat4* palette;
  const glm::mat3* normal_palette;  // null: positions only
  const CompactSkinInput* in;
  glm::vec3* out_positions;
  uint32_t* out_normals;  // null: positions only
};

// DQS or CoR over compact streams (skin_compact): the method palette (and for CoR the palette
// and the centres), octahedral normals out.
struct CompactMethodJob {
  const glm::mat4* palette;  // CoR only
  const MethodBone* method_palette;
  const CompactSkinInput* in;
  glm::vec3* out_positions;
  uint32_t* out_normals;  // null: positions only
  SkinMethod method;
};

// One vertex of LBS in glm, the reference's formula: the blended position, and the blended
// normal before normalising (when nk is not null).
inline glm::vec3 lbs_vertex(const glm::mat4* k, const glm::mat3* nk, const std::size_t j[4],
                            const glm::vec4& w, const glm::vec3& p, const glm::vec3& n,
                            glm::vec3* normal) noexcept {
  // Blend the affine part (3 columns + translation; the bottom row is always 0,0,0,1).
  const glm::vec4 c0 = k[j[0]][0] * w.x + k[j[1]][0] * w.y + k[j[2]][0] * w.z + k[j[3]][0] * w.w;
  const glm::vec4 c1 = k[j[0]][1] * w.x + k[j[1]][1] * w.y + k[j[2]][1] * w.z + k[j[3]][1] * w.w;
  const glm::vec4 c2 = k[j[0]][2] * w.x + k[j[1]][2] * w.y + k[j[2]][2] * w.z + k[j[3]][2] * w.w;
  const glm::vec4 c3 = k[j[0]][3] * w.x + k[j[1]][3] * w.y + k[j[2]][3] * w.z + k[j[3]][3] * w.w;
  if (nk != nullptr) {
    const glm::mat3 m = nk[j[0]] * w.x + nk[j[1]] * w.y + nk[j[2]] * w.z + nk[j[3]] * w.w;
    *normal = m * n;
  }
  return glm::vec3(c0 * p.x + c1 * p.y + c2 * p.z + c3);
}

// The per-vertex method loops' shared steps (skinning_methods.cpp, skinning8.cpp).
// v rotated by the unit quaternion q: v + 2 q.v x (q.v x v + q.w v).
inline glm::vec3 rotate(const glm::quat& q, const glm::vec3& v) noexcept {
  const glm::vec3 qv(q.x, q.y, q.z);
  return v + 2.0f * glm::cross(qv, glm::cross(qv, v) + q.w * v);
}

inline float dot4(const glm::quat& a, const glm::quat& b) noexcept {
  return a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w;
}

// The cofactor of the blended stretch a applied to n, oriented by the sign of det a.
inline glm::vec3 stretch_normal(const glm::mat3& a, const glm::vec3& n) noexcept {
  // Rows of a (glm stores columns).
  const glm::vec3 r0(a[0][0], a[1][0], a[2][0]), r1(a[0][1], a[1][1], a[2][1]),
      r2(a[0][2], a[1][2], a[2][2]);
  const glm::vec3 c0 = glm::cross(r1, r2), c1 = glm::cross(r2, r0), c2 = glm::cross(r0, r1);
  const float sign = glm::dot(r0, c0) < 0.0f ? -1.0f : 1.0f;
  return sign * glm::vec3(glm::dot(c0, n), glm::dot(c1, n), glm::dot(c2, n));
}

inline glm::vec3 normalised(const glm::vec3& r) noexcept {
  const float len2 = glm::dot(r, r);
  return len2 > 0.0f ? r * (1.0f / std::sqrt(len2)) : glm::vec3(0.0f);
}

// Offsets into a PackedBone of pack_method's layout.
inline constexpr int kPackReal = 0, kPackDual = 4, kPackStretch = 8, kPackK = 17, kPackScaled = 29;

struct alignas(32) PackedBone {
  float f[32];  // 24 used; 128 bytes make the index scaling a single shift
};

// Fills packed[0, count) from palette (and normal_palette, or zeros when it is null).
void pack_palette(const glm::mat4* palette, const glm::mat3* normal_palette, std::size_t count,
                  PackedBone* packed) noexcept;

// Fills packed[0, count) in the DQS/CoR layout above (palette may be null for DQS).
void pack_method(const glm::mat4* palette, const MethodBone* method, std::size_t count,
                 PackedBone* packed) noexcept;

void skin_range_scalar(const SkinJob& job, std::size_t begin, std::size_t end) noexcept;
// Compact streams, one vertex at a time (u8 or u16 joints; compact_streams.cpp).
void skin_range_compact_scalar(const CompactJob& job, std::size_t begin, std::size_t end) noexcept;
// DQS or CoR over compact streams, one vertex at a time (u8 or u16 joints; compact_methods.cpp).
void skin_range_compact_method_scalar(const CompactMethodJob& job, std::size_t begin,
                                      std::size_t end) noexcept;
// Any method (job.method) with up to 8 influences (SkinInput::joints2), one vertex at a time
// (skinning8.cpp).
void skin_range8(const SkinJob& job, std::size_t begin, std::size_t end) noexcept;
// DQS or CoR (job.method), one vertex at a time in glm (skinning_methods.cpp).
void skin_range_method_scalar(const SkinJob& job, std::size_t begin, std::size_t end) noexcept;
#if defined(__x86_64__) || defined(__i386__)
// oct_encode_best of normals[0, count) into codes, 4 at a time (compact_encode_avx2.cpp): the same
// codes as the scalar encoder, bit for bit. Only where the CPU has AVX2 and FMA.
void oct_encode_best_avx2(const glm::vec3* normals, uint32_t* codes, std::size_t count) noexcept;
void skin_range_sse2(const SkinJob& job, const PackedBone* packed, std::size_t begin,
                     std::size_t end) noexcept;
void skin_range_avx2(const SkinJob& job, const PackedBone* packed, std::size_t begin,
                     std::size_t end) noexcept;
// Runs of at least kSkinMinRun vertices with the same 4 joints go a block of lanes at a time in
// structure-of-arrays form (skinning_runs.h: 16 lanes with AVX-512, 8 with AVX2); the rest go
// to skin_range_avx2. A 16-lane block costs about as much as 5 vertices on the per-vertex path.
inline constexpr std::size_t kSkinMinRun = 6;
void skin_range_avx512(const SkinJob& job, const PackedBone* packed, std::size_t begin,
                       std::size_t end) noexcept;
void skin_range_avx2_runs(const SkinJob& job, const PackedBone* packed, std::size_t begin,
                          std::size_t end) noexcept;
// Compact streams with u8 joints over runs (the same walk; AVX-512 with the float kernel, AVX2
// with a block of its own, skinning_avx2_runs.cpp); short runs decoded in batches into the
// per-vertex AVX2 kernel (skin_range_compact_avx2_batches, compact_streams.cpp).
void skin_range_avx512_compact(const CompactJob& job, const PackedBone* packed, std::size_t begin,
                               std::size_t end) noexcept;
void skin_range_avx2_compact(const CompactJob& job, const PackedBone* packed, std::size_t begin,
                             std::size_t end) noexcept;
void skin_range_compact_avx2_batches(const CompactJob& job, const PackedBone* packed,
                                     std::size_t begin, std::size_t end) noexcept;
// The compact method kernel's normal codec, 8 at a time (compact_methods_avx2.cpp), for its
// tests: codes[0, count) decoded to oct_decode_raw's directions scaled to L1 norm 32767 (exact
// integers), and normals[0, count) (any length) encoded as oct_encode's code or a neighbour
// (oct_encode's own where the L1 norm is zero, tiny, huge or not finite). Only where the CPU
// has AVX2.
void oct_decode_scaled_avx2(const uint32_t* codes, glm::vec3* out, std::size_t count) noexcept;
void oct_encode_direction_avx2(const glm::vec3* normals, uint32_t* codes,
                               std::size_t count) noexcept;
// DQS or CoR over compact streams with u8 joints, runs of vertices sharing their 4 joints 8
// at a time (the float kernels' MethodLanes over the compact streams), short runs through
// skin_range_compact_method_scalar (compact_methods_avx2.cpp). packed: pack_method's layout.
void skin_range_avx2_compact_method(const CompactMethodJob& job, const PackedBone* packed,
                                    std::size_t begin, std::size_t end) noexcept;
// DQS or CoR over runs (pack_method's layout), short runs per vertex.
void skin_range_avx512_method(const SkinJob& job, const PackedBone* packed, std::size_t begin,
                              std::size_t end) noexcept;
void skin_range_avx2_method(const SkinJob& job, const PackedBone* packed, std::size_t begin,
                            std::size_t end) noexcept;
// Any method with 8 influences over runs of vertices sharing all 8 joints (skin_runs8 in
// skinning_runs.h; packed as for 4 influences), short runs through skin_range8.
void skin_range_avx512_8(const SkinJob& job, const PackedBone* packed, std::size_t begin,
                         std::size_t end) noexcept;
void skin_range_avx2_8(const SkinJob& job, const PackedBone* packed, std::size_t begin,
                       std::size_t end) noexcept;
#endif

}  // namespace sv::detail
