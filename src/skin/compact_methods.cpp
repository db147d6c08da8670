// DQS and CoR over the compact streams (skin_compact, skinning.h; the layout: compact_streams.h).
//
// The scalar loop is skinning_methods.cpp's per-vertex loop on the decoded vertex (joints
// widened, w3 = fourth_weight, the normal's code decoded by oct_decode_raw), operation for
// operation, with the output normal written as oct_encode of the rotated normal: the code keeps
// only a direction, so the loop normalises nothing (no square root per vertex for the normal).
// skin.vert's compact method path (skin_method_compact) is this loop written in GLSL in the same
// order with `precise`, so the GPU path's positions and normal codes equal this loop's
// (tests/gfx/compact_gl_test.cpp). Built alone with -ffp-contract=off (skin/CMakeLists.txt): a
// -march=native or -mfma build would otherwise fuse its products, and the GPU's would not be.
//
// The vector path (AVX2) is compact_methods_avx2.cpp.
#include <cmath>

#include <glm/geometric.hpp>

#include "skin/skinning_kernels.h"

namespace sv::detail {
namespace {

// The vertex's joints, either width.
glm::u16vec4 compact_joints_at(const CompactSkinInput& in, std::size_t v) noexcept {
  if (!in.joints8.empty()) return glm::u16vec4(in.joints8[v]);
  return in.joints16[v];
}

glm::vec4 compact_weights_at(const CompactSkinInput& in, std::size_t v) noexcept {
  const glm::vec3 w = in.weights[v];
  return {w, fourth_weight(w)};
}

// skinning_methods.cpp's pivot: the slot with the largest weight, the first of equals.
int compact_pivot_slot(const glm::vec4& w) noexcept {
  int p = 0;
  for (int i = 1; i < 4; ++i)
    if (w[i] > w[p]) p = i;
  return p;
}

}  // namespace

void skin_range_compact_method_scalar(const CompactMethodJob& job, std::size_t begin,
                                      std::size_t end) noexcept {
  const CompactSkinInput& in = *job.in;
  const MethodBone* m = job.method_palette;
  const bool cor = job.method == SkinMethod::Cor;
  for (std::size_t v = begin; v < end; ++v) {
    const glm::u16vec4 j = compact_joints_at(in, v);
    const glm::vec4 w = compact_weights_at(in, v);
    const glm::quat& pivot = m[j[compact_pivot_slot(w)]].real;
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
    // Phase 1 (two-phase skinning): the blended stretch, where any of the 4 bones is scaled.
    bool scaled = false;
    for (int i = 0; i < 4; ++i) scaled = scaled || m[j[i]].scaled != 0;
    glm::mat3 a(1.0f);
    if (scaled)
      a = m[j.x].stretch * w.x + m[j.y].stretch * w.y + m[j.z].stretch * w.z + m[j.w].stretch * w.w;
    const glm::vec3 p = in.positions[v];
    if (cor) {
      const glm::mat4* k = job.palette;
      const glm::vec3 c = in.centers[v];
      const glm::vec4 c4(c, 1.0f);
      const glm::vec3 lc = glm::vec3(k[j.x] * c4) * w.x + glm::vec3(k[j.y] * c4) * w.y +
                           glm::vec3(k[j.z] * c4) * w.z + glm::vec3(k[j.w] * c4) * w.w;
      const glm::vec3 d = scaled ? a * (p - c) : p - c;
      job.out_positions[v] = rotate(c0, d) + lc;
    } else {
      const glm::quat ce = be * inv;
      const glm::vec3 p1 = scaled ? a * p : p;
      const glm::vec3 qv(c0.x, c0.y, c0.z), ev(ce.x, ce.y, ce.z);
      const glm::vec3 t = 2.0f * (c0.w * ev - ce.w * qv + glm::cross(qv, ev));
      job.out_positions[v] = rotate(c0, p1) + t;
    }
    if (job.out_normals == nullptr) continue;
    const glm::vec3 bind_n = oct_decode_raw(in.normals[v]);
    const glm::vec3 n = scaled ? stretch_normal(a, bind_n) : bind_n;
    job.out_normals[v] = oct_encode(rotate(c0, n));
  }
}

}  // namespace sv::detail
