// Skinning with up to 8 influences per vertex (SkinInput::joints2, anim/model.h), every method,
// one vertex at a time in glm: the formulas of skinning.h and skin_method.h over the vertex's
// weighted slots, with the first set scaled by 1 - sum(weights2) so the 8 weights sum to 1.
//
// The yardstick of the 8-influence run kernels (skin_runs8 in skinning_runs.h), and what they
// hand the vertices of runs too short for a block (and every vertex on CPUs without AVX2).
// Slots of weight 0 are skipped (most vertices of such a mesh have 4 or fewer), so a vertex costs
// what its influences do.
#include <cmath>

#include <glm/geometric.hpp>

#include "skin/skinning_kernels.h"

namespace sv::detail {
namespace {

struct Slots {
  int count = 0;
  uint16_t joint[8];
  float weight[8];
  int pivot = 0;  // the largest weight (the first of equals): always in the first set
};

inline Slots gather(const SkinInput& in, std::size_t v) noexcept {
  Slots s;
  const glm::u16vec4 j = in.joints[v];
  const glm::vec4 w = in.weights[v];
  const glm::u16vec4 j2 = in.joints2[v];
  const glm::vec4 w2 = in.weights2[v];
  const float first = 1.0f - (w2.x + w2.y + w2.z + w2.w);
  float largest = -1.0f;
  for (int i = 0; i < 4; ++i) {
    if (!(w[i] > 0.0f)) continue;
    if (w[i] > largest) {
      largest = w[i];
      s.pivot = s.count;
    }
    s.joint[s.count] = j[i];
    s.weight[s.count++] = w[i] * first;
  }
  for (int i = 0; i < 4; ++i) {
    if (!(w2[i] > 0.0f)) continue;
    s.joint[s.count] = j2[i];
    s.weight[s.count++] = w2[i];
  }
  if (s.count == 0) {  // no weight at all (not from the importer): joint 0, as the kernels do
    s.joint[0] = 0;
    s.weight[0] = 0.0f;
    s.count = 1;
  }
  return s;
}

void lbs_vertex(const SkinJob& job, std::size_t v) noexcept {
  const SkinInput& in = *job.in;
  const Slots s = gather(in, v);
  const glm::mat4* k = job.palette;
  glm::vec4 c0(0.0f), c1(0.0f), c2(0.0f), c3(0.0f);
  for (int i = 0; i < s.count; ++i) {
    const glm::mat4& m = k[s.joint[i]];
    const float w = s.weight[i];
    c0 += m[0] * w;
    c1 += m[1] * w;
    c2 += m[2] * w;
    c3 += m[3] * w;
  }
  const glm::vec3 p = in.positions[v];
  job.out_positions[v] = glm::vec3(c0 * p.x + c1 * p.y + c2 * p.z + c3);
  if (job.out_normals == nullptr) return;
  glm::mat3 nm(0.0f);
  for (int i = 0; i < s.count; ++i) nm += job.normal_palette[s.joint[i]] * s.weight[i];
  job.out_normals[v] = normalised(nm * in.normals[v]);
}

void method_vertex(const SkinJob& job, std::size_t v) noexcept {
  const SkinInput& in = *job.in;
  const Slots s = gather(in, v);
  const MethodBone* m = job.method_palette;
  const bool cor = job.method == SkinMethod::Cor;
  const glm::quat& pivot = m[s.joint[s.pivot]].real;
  glm::quat b0(0.0f, 0.0f, 0.0f, 0.0f), be(0.0f, 0.0f, 0.0f, 0.0f);
  bool scaled = false;
  for (int i = 0; i < s.count; ++i) {
    const MethodBone& bone = m[s.joint[i]];
    const float w = dot4(bone.real, pivot) < 0.0f ? -s.weight[i] : s.weight[i];
    b0 = b0 + bone.real * w;
    if (!cor) be = be + bone.dual * w;
    scaled = scaled || bone.scaled != 0;
  }
  glm::mat3 a(1.0f);
  if (scaled) {
    a = glm::mat3(0.0f);
    for (int i = 0; i < s.count; ++i) a += m[s.joint[i]].stretch * s.weight[i];
  }
  const float len2 = dot4(b0, b0);
  const float inv = len2 > 0.0f ? 1.0f / std::sqrt(len2) : 0.0f;
  const glm::quat c0 = b0 * inv;
  const glm::vec3 p = in.positions[v];
  if (cor) {
    const glm::vec4 c4(job.centers[v], 1.0f);
    glm::vec3 lc(0.0f);
    for (int i = 0; i < s.count; ++i) lc += glm::vec3(job.palette[s.joint[i]] * c4) * s.weight[i];
    const glm::vec3 d = p - job.centers[v];
    job.out_positions[v] = rotate(c0, scaled ? a * d : d) + lc;
  } else {
    const glm::quat ce = be * inv;
    const glm::vec3 qv(c0.x, c0.y, c0.z), ev(ce.x, ce.y, ce.z);
    const glm::vec3 t = 2.0f * (c0.w * ev - ce.w * qv + glm::cross(qv, ev));
    job.out_positions[v] = rotate(c0, scaled ? a * p : p) + t;
  }
  if (job.out_normals == nullptr) return;
  const glm::vec3 n = scaled ? stretch_normal(a, in.normals[v]) : in.normals[v];
  job.out_normals[v] = normalised(rotate(c0, n));
}

}  // namespace

void skin_range8(const SkinJob& job, std::size_t begin, std::size_t end) noexcept {
  if (job.method == SkinMethod::Lbs) {
    for (std::size_t v = begin; v < end; ++v) lbs_vertex(job, v);
  } else {
    for (std::size_t v = begin; v < end; ++v) method_vertex(job, v);
  }
}

}  // namespace sv::detail
