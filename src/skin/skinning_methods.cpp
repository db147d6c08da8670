// DQS and CoR one vertex at a time (the formulas of skin_method.h in glm floats), for vertices
// in runs too short for the lane kernels and for CPUs without AVX2; and the packing of the
// method palette for the lane kernels (skinning_kernels.h).
#include <cmath>

#include <glm/geometric.hpp>

#include "skin/skinning_kernels.h"

namespace sv::detail {
namespace {

// The slot with the largest weight (the first of equals): the pivot whose hemisphere the other
// rotations are flipped into.
inline int pivot_slot(const glm::vec4& w) noexcept {
  int p = 0;
  for (int i = 1; i < 4; ++i)
    if (w[i] > w[p]) p = i;
  return p;
}

// Phase 1 of two-phase skinning: the blended stretch, applied to p (and its cofactor, oriented
// by the sign of its determinant, to n).
struct Stretch {
  bool any = false;
  glm::mat3 a{1.0f};
};

inline Stretch blend_stretch(const MethodBone* m, const glm::u16vec4& j,
                             const glm::vec4& w) noexcept {
  Stretch s;
  for (int i = 0; i < 4; ++i) s.any = s.any || m[j[i]].scaled != 0;
  if (!s.any) return s;
  s.a = m[j.x].stretch * w.x + m[j.y].stretch * w.y + m[j.z].stretch * w.z + m[j.w].stretch * w.w;
  return s;
}

}  // namespace

void skin_range_method_scalar(const SkinJob& job, std::size_t begin, std::size_t end) noexcept {
  const SkinInput& in = *job.in;
  const MethodBone* m = job.method_palette;
  const bool cor = job.method == SkinMethod::Cor;
  for (std::size_t v = begin; v < end; ++v) {
    const glm::u16vec4 j = in.joints[v];
    const glm::vec4 w = in.weights[v];
    const glm::quat& pivot = m[j[pivot_slot(w)]].real;
    glm::quat b0(0.0f, 0.0f, 0.0f, 0.0f), be(0.0f, 0.0f, 0.0f, 0.0f);
    for (int i = 0; i < 4; ++i) {
      const MethodBone& bone = m[j[i]];
      const float s = dot4(bone.real, pivot) < 0.0f ? -w[i] : w[i];
      b0 = b0 + bone.real * s;
      if (!cor) be = be + bone.dual * s;
    }
    const float len2 = dot4(b0, b0);
    const float inv = len2 > 0.0f ? 1.0f / std::sqrt(len2) : 0.0f;
    const glm::quat c0 = b0 * inv;
    const Stretch st = blend_stretch(m, j, w);
    const glm::vec3 p = in.positions[v];
    if (cor) {
      const glm::mat4* k = job.palette;
      const glm::vec3 c = job.centers[v];
      const glm::vec4 c4(c, 1.0f);
      const glm::vec3 lc = glm::vec3(k[j.x] * c4) * w.x + glm::vec3(k[j.y] * c4) * w.y +
                           glm::vec3(k[j.z] * c4) * w.z + glm::vec3(k[j.w] * c4) * w.w;
      const glm::vec3 d = st.any ? st.a * (p - c) : p - c;
      job.out_positions[v] = rotate(c0, d) + lc;
    } else {
      const glm::quat ce = be * inv;
      const glm::vec3 p1 = st.any ? st.a * p : p;
      const glm::vec3 qv(c0.x, c0.y, c0.z), ev(ce.x, ce.y, ce.z);
      const glm::vec3 t = 2.0f * (c0.w * ev - ce.w * qv + glm::cross(qv, ev));
      job.out_positions[v] = rotate(c0, p1) + t;
    }
    if (job.out_normals == nullptr) continue;
    const glm::vec3 n = st.any ? stretch_normal(st.a, in.normals[v]) : in.normals[v];
    job.out_normals[v] = normalised(rotate(c0, n));
  }
}

void pack_method(const glm::mat4* palette, const MethodBone* method, std::size_t count,
                 PackedBone* packed) noexcept {
  for (std::size_t b = 0; b < count; ++b) {
    float* f = packed[b].f;
    const MethodBone& m = method[b];
    const glm::quat q[2] = {m.real, m.dual};
    for (int h = 0; h < 2; ++h) {
      f[4 * h + 0] = q[h].x;
      f[4 * h + 1] = q[h].y;
      f[4 * h + 2] = q[h].z;
      f[4 * h + 3] = q[h].w;
    }
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 3; ++c) f[kPackStretch + 3 * r + c] = m.stretch[c][r];
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 4; ++c) f[kPackK + 4 * r + c] = palette != nullptr ? palette[b][c][r] : 0;
    f[kPackScaled] = m.scaled != 0 ? 1.0f : 0.0f;
    f[30] = f[31] = 0.0f;
  }
}

}  // namespace sv::detail
