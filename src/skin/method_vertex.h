// Internal to skin/: one vertex of DQS or CoR with 4 influences, the formulas of skin_method.h in
// glm floats, as the per-vertex loops run them: the float streams' (skin_range_method_scalar,
// skinning_methods.cpp) and the compact streams' on the decoded vertex
// (skin_range_compact_method_scalar, compact_methods.cpp). One function, so that both loops
// perform the same float operations in the same order: the compact loop's positions equal the
// float loop's bit for bit (tests/skin/compact_methods_test.cpp), and skin.vert's `precise` method
// paths are compared exactly with them (tests/gfx/compact_gl_test.cpp, skinning_gl_test.cpp).
//
// Include it only from files built with -ffp-contract=off (skin/CMakeLists.txt lists them): a
// -march=native or -mfma build would otherwise fuse its products into FMAs, in one file and not
// the other, and the GPU's would not be fused.
#pragma once

#include <cmath>
#include <cstddef>

#include <glm/geometric.hpp>

#include "skin/skinning_kernels.h"

namespace sv::detail {

// The slot with the largest weight (the first of equals): the pivot whose hemisphere the other
// rotations are flipped into.
[[gnu::always_inline]] inline int pivot_slot(const glm::vec4& w) noexcept {
  int p = 0;
  for (int i = 1; i < 4; ++i)
    if (w[i] > w[p]) p = i;
  return p;
}

// Vertex `v` of joints `j` and weights `w` (summing to 1) at bind position positions[v], skinned
// by DQS from the method palette `m`, or with `cor` by CoR from `m`, the palette `k` and the
// centre centers[v] (`k` and `centers` are read only for CoR): writes its position to
// *out_position, then calls normal(skin_normal), where skin_normal(n) is the bind normal n
// stretched (phase 1 of two-phase skinning: the blended stretch's cofactor, oriented by its
// determinant's sign, where any of the 4 bones is scaled) and rotated, not normalised: the caller
// skins the vertex's normal there when it has one (decoded, normalised or encoded as its streams
// want).
// Always inlined: it is the body of the loops (as a call it would be one per vertex, with what
// the normal needs passed through memory).
template <class Normal>
[[gnu::always_inline]] inline void method_vertex4(const MethodBone* m, const glm::mat4* k,
                                                  const glm::vec3* centers, bool cor, std::size_t v,
                                                  const glm::u16vec4 j, const glm::vec4 w,
                                                  const glm::vec3* positions,
                                                  glm::vec3* out_position,
                                                  Normal&& normal) noexcept {
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
  // Phase 1: the blended stretch, where any of the 4 bones is scaled.
  bool scaled = false;
  for (int i = 0; i < 4; ++i) scaled = scaled || m[j[i]].scaled != 0;
  glm::mat3 a(1.0f);
  if (scaled)
    a = m[j.x].stretch * w.x + m[j.y].stretch * w.y + m[j.z].stretch * w.z + m[j.w].stretch * w.w;
  const glm::vec3 p = positions[v];
  if (cor) {
    const glm::vec3 c = centers[v];
    const glm::vec4 c4(c, 1.0f);
    const glm::vec3 lc = glm::vec3(k[j.x] * c4) * w.x + glm::vec3(k[j.y] * c4) * w.y +
                         glm::vec3(k[j.z] * c4) * w.z + glm::vec3(k[j.w] * c4) * w.w;
    const glm::vec3 d = scaled ? a * (p - c) : p - c;
    *out_position = rotate(c0, d) + lc;
  } else {
    const glm::quat ce = be * inv;
    const glm::vec3 p1 = scaled ? a * p : p;
    const glm::vec3 qv(c0.x, c0.y, c0.z), ev(ce.x, ce.y, ce.z);
    const glm::vec3 t = 2.0f * (c0.w * ev - ce.w * qv + glm::cross(qv, ev));
    *out_position = rotate(c0, p1) + t;
  }
  normal([&](const glm::vec3& n) { return rotate(c0, scaled ? stretch_normal(a, n) : n); });
}

}  // namespace sv::detail
