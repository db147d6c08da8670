#include "skin/compact_streams.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include <glm/geometric.hpp>

#include "anim/model.h"
#include "skin/skinning_kernels.h"

namespace sv {

namespace {

float sign_of(float a) noexcept { return a >= 0.0f ? 1.0f : -1.0f; }

// The octahedral point (in [-1, 1]^2) of a vector of L1 norm 1, the lower half folded.
glm::vec2 fold(const glm::vec3& p) noexcept {
  if (p.z < 0.0f)
    return {(1.0f - std::fabs(p.y)) * sign_of(p.x), (1.0f - std::fabs(p.x)) * sign_of(p.y)};
  return {p.x, p.y};
}

uint32_t pack(int32_t qx, int32_t qy) noexcept {
  return (static_cast<uint32_t>(qx) & 0xffffu) | (static_cast<uint32_t>(qy) << 16);
}

// The L1-normalised vector, or false when n has no direction (see kOctMinL1).
bool l1_normalised(const glm::vec3& n, glm::vec3* out) noexcept {
  const float l1 = (std::fabs(n.x) + std::fabs(n.y)) + std::fabs(n.z);
  if (!(l1 >= kOctMinL1 && l1 <= 0x1.fffffep127f)) return false;
  const float inv = 1.0f / l1;
  *out = glm::vec3(n.x * inv, n.y * inv, n.z);
  return true;
}

}  // namespace

uint32_t oct_encode(const glm::vec3& n) noexcept {
  glm::vec3 p;
  if (!l1_normalised(n, &p)) return 0;
  const glm::vec2 f = fold(p);
  return pack(static_cast<int32_t>(std::nearbyint(f.x * 32767.0f)),
              static_cast<int32_t>(std::nearbyint(f.y * 32767.0f)));
}

uint32_t oct_encode_best(const glm::vec3& n) noexcept {
  glm::vec3 p;
  if (!l1_normalised(n, &p)) return 0;
  const glm::vec2 f = fold(p);
  const glm::dvec3 unit = glm::normalize(glm::dvec3(n));
  const auto fx = static_cast<int32_t>(std::floor(f.x * 32767.0f));
  const auto fy = static_cast<int32_t>(std::floor(f.y * 32767.0f));
  uint32_t best = 0;
  double best_dot = -2.0;
  for (int32_t dy = 0; dy < 2; ++dy)
    for (int32_t dx = 0; dx < 2; ++dx) {
      const int32_t qx = std::clamp(fx + dx, -32767, 32767),
                    qy = std::clamp(fy + dy, -32767, 32767);
      const uint32_t code = pack(qx, qy);
      const double d = glm::dot(glm::normalize(glm::dvec3(oct_decode_raw(code))), unit);
      if (d > best_dot) {
        best_dot = d;
        best = code;
      }
    }
  return best;
}

glm::vec3 oct_decode_raw(uint32_t code) noexcept {
  const auto sx = static_cast<int16_t>(code & 0xffffu), sy = static_cast<int16_t>(code >> 16);
  const float x = std::max(static_cast<float>(sx) * kOctScale, -1.0f);
  const float y = std::max(static_cast<float>(sy) * kOctScale, -1.0f);
  const float z = (1.0f - std::fabs(x)) - std::fabs(y);
  if (z < 0.0f) return {(1.0f - std::fabs(y)) * sign_of(x), (1.0f - std::fabs(x)) * sign_of(y), z};
  return {x, y, z};
}

glm::vec3 oct_decode(uint32_t code) noexcept { return glm::normalize(oct_decode_raw(code)); }

CompactSkinInput CompactStreams::input(std::span<const glm::vec3> positions) const noexcept {
  CompactSkinInput in;
  in.positions = positions;
  in.normals = normals;
  in.joints8 = joints8;
  in.joints16 = joints16;
  in.weights = weights;
  in.max_joint = max_joint;
  return in;
}

std::size_t CompactStreams::bytes_per_vertex(bool with_normals) const noexcept {
  const std::size_t joints = narrow_joints() ? 4 : 8;
  return 12 + joints + 12 + 12 + (with_normals ? 4 + 4 : 0);
}

CompactStreams encode_compact(std::span<const glm::u16vec4> joints,
                              std::span<const glm::vec4> weights,
                              std::span<const glm::vec3> normals, int32_t max_joint) {
  CompactStreams c;
  if (max_joint < 0) {
    uint16_t m = 0;
    for (const glm::u16vec4& j : joints) m = std::max({m, j.x, j.y, j.z, j.w});
    max_joint = m;
  }
  c.max_joint = max_joint;
  if (max_joint < 256) {
    c.joints8.reserve(joints.size());
    for (const glm::u16vec4& j : joints) c.joints8.emplace_back(j);
  } else {
    c.joints16.assign(joints.begin(), joints.end());
  }
  c.weights.reserve(weights.size());
  for (const glm::vec4& w : weights) c.weights.emplace_back(w.x, w.y, w.z);
  c.normals.reserve(normals.size());
  for (const glm::vec3& n : normals) c.normals.push_back(oct_encode_best(n));
  return c;
}

CompactStreams encode_compact(const Mesh& mesh) {
  return encode_compact(mesh.joints, mesh.weights, mesh.normals, mesh.max_joint);
}

namespace detail {

namespace {

void joint_indices(const CompactSkinInput& in, std::size_t v, std::size_t j[4]) noexcept {
  if (!in.joints8.empty()) {
    const glm::u8vec4 a = in.joints8[v];
    j[0] = a.x, j[1] = a.y, j[2] = a.z, j[3] = a.w;
  } else {
    const glm::u16vec4 a = in.joints16[v];
    j[0] = a.x, j[1] = a.y, j[2] = a.z, j[3] = a.w;
  }
}

glm::vec4 weights_at(const CompactSkinInput& in, std::size_t v) noexcept {
  const glm::vec3 w = in.weights[v];
  return {w, fourth_weight(w)};
}

}  // namespace

void skin_range_compact_scalar(const CompactJob& job, std::size_t begin, std::size_t end) noexcept {
  const CompactSkinInput& in = *job.in;
  const bool normals = job.out_normals != nullptr;
  for (std::size_t v = begin; v < end; ++v) {
    std::size_t j[4];
    joint_indices(in, v, j);
    glm::vec3 r;
    job.out_positions[v] =
        lbs_vertex(job.palette, normals ? job.normal_palette : nullptr, j, weights_at(in, v),
                   in.positions[v], normals ? oct_decode_raw(in.normals[v]) : glm::vec3(0.0f), &r);
    if (normals) job.out_normals[v] = oct_encode(r);
  }
}

#if defined(__x86_64__) || defined(__i386__)
// Vertices of short runs: decoded 64 at a time into float streams on the stack, skinned by the
// per-vertex AVX2 kernel, their (unit) normals encoded. About 1.3x the float path's cost per
// vertex; the importer's layouts put most vertices in long runs.
void skin_range_compact_avx2_batches(const CompactJob& job, const PackedBone* packed,
                                     std::size_t begin, std::size_t end) noexcept {
  constexpr std::size_t kBatch = 64;
  const CompactSkinInput& in = *job.in;
  const bool normals = job.out_normals != nullptr;
  glm::u16vec4 joints[kBatch];
  glm::vec4 weights[kBatch];
  glm::vec3 nrm[kBatch], out_n[kBatch];
  for (std::size_t b = begin; b < end; b += kBatch) {
    const std::size_t m = std::min(kBatch, end - b);
    for (std::size_t i = 0; i < m; ++i) {
      std::size_t j[4];
      joint_indices(in, b + i, j);
      joints[i] = glm::u16vec4(j[0], j[1], j[2], j[3]);
      weights[i] = weights_at(in, b + i);
      if (normals) nrm[i] = oct_decode_raw(in.normals[b + i]);
    }
    SkinInput batch;
    batch.positions = in.positions.subspan(b, m);
    if (normals) batch.normals = std::span<const glm::vec3>(nrm, m);
    batch.joints = std::span<const glm::u16vec4>(joints, m);
    batch.weights = std::span<const glm::vec4>(weights, m);
    const SkinJob fjob{job.palette, job.normal_palette, &batch, job.out_positions + b,
                       normals ? out_n : nullptr};
    skin_range_avx2(fjob, packed, 0, m);
    if (normals)
      for (std::size_t i = 0; i < m; ++i) job.out_normals[b + i] = oct_encode(out_n[i]);
  }
}
#endif

}  // namespace detail

}  // namespace sv
