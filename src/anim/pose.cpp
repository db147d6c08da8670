#include "anim/pose.h"

#include <cmath>

#include "anim/skeleton.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace sv {

namespace {

// a * b, four columns at a time where SSE2 is there (every x86-64). Same operations in the same
// order as glm's operator*, so the result is bit-identical to it; glm itself does this in
// scalar code unless built with its intrinsics switched on for the whole program.
inline void mul(const glm::mat4& a, const glm::mat4& b, glm::mat4& out) noexcept {
#if defined(__SSE2__)
  const float* pa = &a[0][0];
  const __m128 a0 = _mm_loadu_ps(pa);
  const __m128 a1 = _mm_loadu_ps(pa + 4);
  const __m128 a2 = _mm_loadu_ps(pa + 8);
  const __m128 a3 = _mm_loadu_ps(pa + 12);
  const float* pb = &b[0][0];
  float* po = &out[0][0];  // may alias a (never b): a is fully loaded first
  __m128 r[4];
  for (int c = 0; c < 4; ++c) {
    const float* bc = pb + 4 * c;
    __m128 x = _mm_add_ps(_mm_mul_ps(a0, _mm_set1_ps(bc[0])), _mm_mul_ps(a1, _mm_set1_ps(bc[1])));
    x = _mm_add_ps(x, _mm_mul_ps(a2, _mm_set1_ps(bc[2])));
    r[c] = _mm_add_ps(x, _mm_mul_ps(a3, _mm_set1_ps(bc[3])));
  }
  for (int c = 0; c < 4; ++c) _mm_storeu_ps(po + 4 * c, r[c]);
#else
  out = a * b;
#endif
}

// parent * to_matrix(t) without building the TRS matrix in memory. The TRS matrix's first
// three columns end in 0, so glm's fourth term there (parent[3] * 0) adds only a zero: the
// result equals glm's product of the two matrices.
inline void mul_trs(const glm::mat4& parent, const Transform& t, glm::mat4& out) noexcept {
#if defined(__SSE2__)
  const glm::mat3 r = glm::mat3_cast(t.rotation);
  const glm::vec3 c[3] = {r[0] * t.scale.x, r[1] * t.scale.y, r[2] * t.scale.z};
  const float* pa = &parent[0][0];
  const __m128 a0 = _mm_loadu_ps(pa);
  const __m128 a1 = _mm_loadu_ps(pa + 4);
  const __m128 a2 = _mm_loadu_ps(pa + 8);
  const __m128 a3 = _mm_loadu_ps(pa + 12);
  float* po = &out[0][0];  // may not alias parent: a joint is never its own parent
  for (int k = 0; k < 3; ++k) {
    __m128 x = _mm_add_ps(_mm_mul_ps(a0, _mm_set1_ps(c[k].x)), _mm_mul_ps(a1, _mm_set1_ps(c[k].y)));
    _mm_storeu_ps(po + 4 * k, _mm_add_ps(x, _mm_mul_ps(a2, _mm_set1_ps(c[k].z))));
  }
  __m128 x = _mm_add_ps(_mm_mul_ps(a0, _mm_set1_ps(t.translation.x)),
                        _mm_mul_ps(a1, _mm_set1_ps(t.translation.y)));
  x = _mm_add_ps(x, _mm_mul_ps(a2, _mm_set1_ps(t.translation.z)));
  _mm_storeu_ps(po + 12, _mm_add_ps(x, a3));  // a3 * 1
#else
  out = parent * to_matrix(t);
#endif
}

}  // namespace

bool local_to_model(std::span<const int32_t> parents, std::span<const Transform> local,
                    std::span<glm::mat4> model) noexcept {
  const std::size_t n = parents.size();
  if (local.size() != n || model.size() != n) return false;
  // Check the hierarchy before writing, so a bad parent leaves `model` untouched.
  for (std::size_t i = 0; i < n; ++i) {
    const int32_t p = parents[i];
    if (p != kNoParent && (p < 0 || static_cast<std::size_t>(p) >= i)) return false;
  }
  for (std::size_t i = 0; i < n; ++i) {
    const int32_t p = parents[i];
    if (p == kNoParent)
      model[i] = to_matrix(local[i]);
    else
      mul_trs(model[static_cast<std::size_t>(p)], local[i], model[i]);
  }
  return true;
}

bool build_palette(std::span<const glm::mat4> model, std::span<const int32_t> skin_joints,
                   std::span<const glm::mat4> inverse_bind, std::span<glm::mat4> palette) noexcept {
  const std::size_t n = skin_joints.size();
  if (inverse_bind.size() != n || palette.size() != n) return false;
  for (const int32_t j : skin_joints)
    if (j < 0 || static_cast<std::size_t>(j) >= model.size()) return false;
  for (std::size_t b = 0; b < n; ++b)
    mul(model[static_cast<std::size_t>(skin_joints[b])], inverse_bind[b], palette[b]);
  return true;
}

// Both branches give the exact inverse transpose of the upper 3x3 (so blending normals of
// differently scaled joints weighs them consistently). For a rotation times a uniform scale s,
// M = sR and M^-T = R/s = M/s^2: no inverse needed. Otherwise M^-T = cofactor(M)/det(M), whose
// columns are cross products of M's columns. A singular M (a joint scaled to zero) has no
// inverse; its upper 3x3 is used as is.
bool build_normal_palette(std::span<const glm::mat4> palette,
                          std::span<glm::mat3> normal) noexcept {
  if (normal.size() != palette.size()) return false;
  constexpr float kTolerance = 1e-4f;  // relative, on squared lengths and dot products
  for (std::size_t b = 0; b < palette.size(); ++b) {
    const glm::mat3 m(palette[b]);
    const float l0 = glm::dot(m[0], m[0]);
    const float l1 = glm::dot(m[1], m[1]);
    const float l2 = glm::dot(m[2], m[2]);
    const float tol = kTolerance * l0;
    const bool similarity = l0 > 0.0f && std::abs(l1 - l0) <= tol && std::abs(l2 - l0) <= tol &&
                            std::abs(glm::dot(m[0], m[1])) <= tol &&
                            std::abs(glm::dot(m[0], m[2])) <= tol &&
                            std::abs(glm::dot(m[1], m[2])) <= tol;
    if (similarity) {
      normal[b] = m * (1.0f / l0);
      continue;
    }
    const glm::mat3 cofactor(glm::cross(m[1], m[2]), glm::cross(m[2], m[0]),
                             glm::cross(m[0], m[1]));
    const float det = glm::dot(m[0], cofactor[0]);
    const float inv_det = 1.0f / det;
    normal[b] = std::isfinite(inv_det) && det != 0.0f ? cofactor * inv_det : m;
  }
  return true;
}

}  // namespace sv
