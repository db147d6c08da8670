// slerp_shortest (slerp.h).
#include "anim/slerp.h"

#include <cmath>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace sv {

// For keys up to ~91 degrees apart (cos(theta) >= 0.7, every key pair of an ordinary clip),
// slerp's weights sin((1-alpha) theta)/sin(theta) and sin(alpha theta)/sin(theta) come from
// Eberly's polynomial ("A Fast and Accurate Algorithm for Computing SLERP", J. Graphics, GPU &
// Game Tools 15(3), 2011): 8 terms of a series in cos(theta) - 1, no acos or sin. Its own error
// there is below 2e-8 (it grows to 2e-5 towards cos(theta) = 0, where acos/sin are used).
// acos and two sines were most of what sampling a pose cost.
glm::quat slerp_shortest(const glm::quat& a, const glm::quat& b, float alpha) noexcept {
  float d = glm::dot(a, b);
  glm::quat b2 = b;
  if (d < 0.0f) {
    d = -d;
    b2 = -b;
  }
  // Nearly equal: nlerp is as exact there, and keeps slerp(a, a, t) == a.
  if (d > 0.9995f) return glm::normalize(a * (1.0f - alpha) + b2 * alpha);
  if (d < 0.7f) {
    const float theta = std::acos(d);
    const float inv_sin = 1.0f / std::sin(theta);
    return a * (std::sin((1.0f - alpha) * theta) * inv_sin) +
           b2 * (std::sin(alpha * theta) * inv_sin);
  }
  static constexpr float kMu = 1.85298109240830f;
  static constexpr float kU[8] = {1.0f / (1 * 3),  1.0f / (2 * 5),  1.0f / (3 * 7),
                                  1.0f / (4 * 9),  1.0f / (5 * 11), 1.0f / (6 * 13),
                                  1.0f / (7 * 15), kMu / (8 * 17)};
  static constexpr float kV[8] = {1.0f / 3,  2.0f / 5,  3.0f / 7,  4.0f / 9,
                                  5.0f / 11, 6.0f / 13, 7.0f / 15, kMu * 8 / 17};
  // c(x) = 1 + b1 (1 + b2 (1 + ... (1 + b8))) with b_i = (u_i w^2 - v_i)(x - 1), regrouped
  // (Estrin) so each chain is 6 operations deep instead of 16; the two weights w = alpha and
  // w = 1 - alpha are computed side by side (the lanes of an SSE register where there is one).
#if defined(__SSE2__)
  const __m128 w = _mm_setr_ps(alpha, 1.0f - alpha, 0.0f, 0.0f);
  const __m128 w2 = _mm_mul_ps(w, w);
  const __m128 xm1 = _mm_set1_ps(d - 1.0f);
  const __m128 one = _mm_set1_ps(1.0f);
  __m128 bi[8];
  for (int i = 0; i < 8; ++i)
    bi[i] = _mm_mul_ps(_mm_sub_ps(_mm_mul_ps(_mm_set1_ps(kU[i]), w2), _mm_set1_ps(kV[i])), xm1);
  const __m128 p12 = _mm_mul_ps(bi[0], bi[1]);
  const __m128 p34 = _mm_mul_ps(bi[2], bi[3]);
  const __m128 p56 = _mm_mul_ps(bi[4], bi[5]);
  const __m128 p78 = _mm_mul_ps(bi[6], bi[7]);
  const __m128 first = _mm_add_ps(_mm_add_ps(one, bi[0]), _mm_mul_ps(p12, _mm_add_ps(one, bi[2])));
  const __m128 second =
      _mm_add_ps(_mm_add_ps(one, bi[4]), _mm_mul_ps(p56, _mm_add_ps(_mm_add_ps(one, bi[6]), p78)));
  const __m128 c = _mm_mul_ps(w, _mm_add_ps(first, _mm_mul_ps(_mm_mul_ps(p12, p34), second)));
  // glm stores a quaternion as x, y, z, w: 16 contiguous bytes.
  const __m128 r = _mm_add_ps(_mm_mul_ps(_mm_loadu_ps(&a.x), _mm_shuffle_ps(c, c, 0x55)),
                              _mm_mul_ps(_mm_loadu_ps(&b2.x), _mm_shuffle_ps(c, c, 0x00)));
  glm::quat out;
  _mm_storeu_ps(&out.x, r);
  return out;
#else
  const float xm1 = d - 1.0f;
  const auto weight = [xm1](float w) noexcept {
    const float w2 = w * w;
    float b[8];
    for (int i = 0; i < 8; ++i) b[i] = (kU[i] * w2 - kV[i]) * xm1;
    const float p12 = b[0] * b[1];
    const float p34 = b[2] * b[3];
    const float p56 = b[4] * b[5];
    const float p78 = b[6] * b[7];
    const float first = (1.0f + b[0]) + p12 * (1.0f + b[2]);
    const float second = (1.0f + b[4]) + p56 * ((1.0f + b[6]) + p78);
    return w * (first + (p12 * p34) * second);
  };
  return a * weight(1.0f - alpha) + b2 * weight(alpha);
#endif
}

}  // namespace sv
