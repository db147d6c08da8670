// Blending local poses (blend.h).
#include "anim/blend.h"

#include <algorithm>
#include <cmath>

#include <glm/gtc/quaternion.hpp>

#include "anim/clip_arrays.h"
#include "anim/slerp.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#include <xmmintrin.h>
#endif

namespace sv {

namespace {

#if defined(__SSE2__)
namespace lanes {
#define SV_RT_AVX2 0
#define SV_RT_AVX512 0
#include "anim/slerp_lanes.inc"
#undef SV_RT_AVX2
#undef SV_RT_AVX512
}  // namespace lanes
#endif

// *a[l] = slerp_shortest(*a[l], *b[l], alpha[l]), renormalised, for the lanes whose alpha is
// in (0, 1) (a and b null elsewhere): in SSE lanes (the runtime sampler's slerp,
// slerp_lanes.inc), the exact acos/sin route for a lane whose rotations are more than ~91
// degrees apart.
void slerp4(glm::quat* const a[4], const glm::quat* const b[4], const float alpha[4]) noexcept {
#if defined(__SSE2__)
  __m128 qa[4], qb[4], q[4];
  for (std::size_t l = 0; l < 4; ++l) {
    qa[l] = a[l] != nullptr ? _mm_loadu_ps(&a[l]->x) : _mm_setr_ps(0, 0, 0, 1);  // x, y, z, w
    qb[l] = b[l] != nullptr ? _mm_loadu_ps(&b[l]->x) : _mm_setr_ps(0, 0, 0, 1);
  }
  _MM_TRANSPOSE4_PS(qa[0], qa[1], qa[2], qa[3]);
  _MM_TRANSPOSE4_PS(qb[0], qb[1], qb[2], qb[3]);
  const int exact = lanes::slerp4(qa, qb, _mm_loadu_ps(alpha), q);
  const __m128 len2 = _mm_add_ps(_mm_add_ps(_mm_mul_ps(q[3], q[3]), _mm_mul_ps(q[0], q[0])),
                                 _mm_add_ps(_mm_mul_ps(q[1], q[1]), _mm_mul_ps(q[2], q[2])));
  const __m128 inv = _mm_div_ps(_mm_set1_ps(1.0f), _mm_sqrt_ps(len2));
  for (int c = 0; c < 4; ++c) q[c] = _mm_mul_ps(q[c], inv);
  _MM_TRANSPOSE4_PS(q[0], q[1], q[2], q[3]);
  for (std::size_t l = 0; l < 4; ++l) {
    if (a[l] == nullptr) continue;
    if ((exact >> l & 1) != 0)
      *a[l] = glm::normalize(slerp_shortest(*a[l], *b[l], alpha[l]));
    else
      _mm_storeu_ps(&a[l]->x, q[l]);
  }
#else
  for (std::size_t l = 0; l < 4; ++l)
    if (a[l] != nullptr) *a[l] = glm::normalize(slerp_shortest(*a[l], *b[l], alpha[l]));
#endif
}

// mix(a, b, w) as (1 - w) a + w b: exactly b at w = 1 (a + (b - a) w need not be).
inline glm::vec3 mix(const glm::vec3& a, const glm::vec3& b, float w) noexcept {
  return a * (1.0f - w) + b * w;
}

// The joint's weight, and which components it blends (KeyedBits); 0 when it does nothing.
inline float joint_weight(std::span<const float> mask, std::size_t j, float weight) noexcept {
  return mask.empty() ? weight : weight * blend_weight(mask[j]);
}
inline uint8_t joint_keys(std::span<const uint8_t> keyed, std::size_t j) noexcept {
  return keyed.empty() ? uint8_t{kKeyedAll} : keyed[j];
}

// One group of up to 4 joints' rotations to slerp, as slerp4 takes them.
struct SlerpGroup {
  std::size_t n = 0;  // joints in the group
  float alpha[4] = {0.0f, 0.0f, 0.0f, 0.0f};
  glm::quat* a[4] = {nullptr, nullptr, nullptr, nullptr};
  const glm::quat* b[4] = {nullptr, nullptr, nullptr, nullptr};
  bool any = false;
  void add(std::size_t lane, glm::quat* from, const glm::quat* to, float w) noexcept {
    alpha[lane] = w;
    a[lane] = from;
    b[lane] = to;
    any = true;
  }
};

// The joints 4 at a time: joint(j, lane, w, keys, group) for each joint the layer moves
// (weight w > 0, some component keyed), then the group's rotations are slerped, then
// done(first joint, group).
template <class Joint, class Done>
void for_each_group(std::size_t joints, std::span<const float> mask, std::span<const uint8_t> keyed,
                    float w0, Joint&& joint, Done&& done) {
  for (std::size_t j0 = 0; j0 < joints; j0 += 4) {
    SlerpGroup g;
    g.n = std::min<std::size_t>(4, joints - j0);
    for (std::size_t l = 0; l < g.n; ++l) {
      const float w = joint_weight(mask, j0 + l, w0);
      const uint8_t keys = joint_keys(keyed, j0 + l);
      if (w != 0.0f && keys != 0) joint(j0 + l, l, w, keys, g);
    }
    if (g.any) slerp4(g.a, g.b, g.alpha);
    done(j0, g);
  }
}

bool sizes_fit(std::size_t joints, std::size_t layer, std::span<const uint8_t> keyed,
               std::span<const float> mask) noexcept {
  return layer == joints && (keyed.empty() || keyed.size() == joints) &&
         (mask.empty() || mask.size() == joints);
}

}  // namespace

float blend_weight(float weight) noexcept {
  // Written so that NaN fails the first test.
  if (!(weight > 0.0f)) return 0.0f;
  return weight < 1.0f ? weight : 1.0f;
}

std::vector<float> subtree_mask(std::span<const int32_t> parents, std::size_t root, float inside,
                                float outside) {
  std::vector<float> mask(parents.size(), outside);
  set_subtree(parents, root, inside, mask);
  return mask;
}

bool set_subtree(std::span<const int32_t> parents, std::size_t root, float weight,
                 std::span<float> mask) {
  if (mask.size() != parents.size() || root >= parents.size()) return false;
  // Parents come first, so every joint below root comes after it, and a joint is below root
  // exactly when its parent is root or below it.
  std::vector<uint8_t> below(parents.size() - root, 0);
  below[0] = 1;
  for (std::size_t j = root + 1; j < parents.size(); ++j) {
    const int32_t p = parents[j];
    below[j - root] = p >= 0 && static_cast<std::size_t>(p) >= root &&
                      static_cast<std::size_t>(p) < j && below[static_cast<std::size_t>(p) - root];
  }
  for (std::size_t j = root; j < parents.size(); ++j)
    if (below[j - root]) mask[j] = weight;
  return true;
}

bool blend_override(std::span<Transform> pose, std::span<const Transform> layer,
                    std::span<const uint8_t> keyed, std::span<const float> mask,
                    float weight) noexcept {
  if (!sizes_fit(pose.size(), layer.size(), keyed, mask)) return false;
  const float w0 = blend_weight(weight);
  if (w0 == 0.0f) return true;
  for_each_group(
      pose.size(), mask, keyed, w0,
      [&](std::size_t j, std::size_t l, float w, uint8_t keys, SlerpGroup& g) {
        Transform& p = pose[j];
        const Transform& x = layer[j];
        if (keys & kKeyedTranslation) p.translation = mix(p.translation, x.translation, w);
        if (keys & kKeyedScale) p.scale = mix(p.scale, x.scale, w);
        if (!(keys & kKeyedRotation)) return;
        if (w >= 1.0f)  // a copy, no slerp
          p.rotation = x.rotation;
        else
          g.add(l, &p.rotation, &x.rotation, w);
      },
      [](std::size_t, const SlerpGroup&) {});
  return true;
}

bool blend_additive(std::span<Transform> pose, std::span<const Transform> layer,
                    std::span<const Transform> reference, std::span<const uint8_t> keyed,
                    std::span<const float> mask, float weight) noexcept {
  if (!sizes_fit(pose.size(), layer.size(), keyed, mask) || reference.size() != pose.size())
    return false;
  const float w0 = blend_weight(weight);
  if (w0 == 0.0f) return true;
  // Per group, each rotated joint's difference from the reference (delta) and the part of it
  // the weight asks for (scaled: the identity slerped w of the way to delta).
  glm::quat scaled[4], delta[4];
  bool rotates[4] = {false, false, false, false};
  for_each_group(
      pose.size(), mask, keyed, w0,
      [&](std::size_t j, std::size_t l, float w, uint8_t keys, SlerpGroup& g) {
        Transform& p = pose[j];
        const Transform& x = layer[j];
        const Transform& r = reference[j];
        if (keys & kKeyedTranslation) p.translation += (x.translation - r.translation) * w;
        if (keys & kKeyedScale) {
          glm::vec3 ratio(1.0f);
          for (int c = 0; c < 3; ++c)
            if (r.scale[c] != 0.0f) ratio[c] = x.scale[c] / r.scale[c];
          p.scale *= mix(glm::vec3(1.0f), ratio, w);
        }
        rotates[l] = (keys & kKeyedRotation) != 0;
        if (!rotates[l]) return;
        // The difference in the joint's own frame: reference * delta = layer.
        delta[l] = glm::conjugate(r.rotation) * x.rotation;
        scaled[l] = delta[l];
        if (w < 1.0f) {
          scaled[l] = glm::quat(1.0f, 0.0f, 0.0f, 0.0f);
          g.add(l, &scaled[l], &delta[l], w);
        }
      },
      [&](std::size_t j0, const SlerpGroup& g) {
        for (std::size_t l = 0; l < g.n; ++l) {
          if (rotates[l]) pose[j0 + l].rotation = glm::normalize(pose[j0 + l].rotation * scaled[l]);
          rotates[l] = false;
        }
      });
  return true;
}

}  // namespace sv
