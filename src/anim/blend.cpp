// Blending local poses (blend.h).
#include "anim/blend.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>

#include <glm/gtc/quaternion.hpp>

#include "anim/clip_arrays.h"
#include "anim/clip_runtime.h"

#if defined(__SSE2__)
#include <immintrin.h>
#endif

namespace sv {

namespace {

#if defined(__SSE2__)
namespace sse2 {
#include "anim/blend_kernels.inc"
}  // namespace sse2

#if defined(__x86_64__) || defined(__i386__)
#define SV_BLEND_X86 1
// As clip_runtime.cpp: GCC takes a target pragma; clang applies the target attribute to every
// function in between.
#define SV_BLEND_STR(x) #x
#if defined(__clang__)
_Pragma(SV_BLEND_STR(clang attribute push(__attribute__((target("avx2,fma"))),
                                          apply_to = function)))
#else
#pragma GCC push_options
#pragma GCC target("avx2,fma")
#endif
    namespace avx2 {
#include "anim/blend_kernels.inc"
}  // namespace avx2
#if defined(__clang__)
#pragma clang attribute pop
#else
#pragma GCC pop_options
#endif
#endif
#else  // no SSE2: joint by joint, the same formulas in scalar code

// mix(a, b, w) as (1 - w) a + w b: exactly b at w = 1 (a + (b - a) w need not be).
inline glm::vec3 mix(const glm::vec3& a, const glm::vec3& b, float w) noexcept {
  return a * (1.0f - w) + b * w;
}

// The shorter arc's nlerp (nlerp4's formula).
glm::quat nlerp(const glm::quat& a, const glm::quat& b, float w) noexcept {
  const float wb = glm::dot(a, b) < 0.0f ? -w : w;
  return glm::normalize(a * (1.0f - w) + b * wb);
}

void override_joint(Transform& p, const Transform& x, uint8_t keys, float w) noexcept {
  if (keys & kKeyedTranslation) p.translation = mix(p.translation, x.translation, w);
  if (keys & kKeyedScale) p.scale = mix(p.scale, x.scale, w);
  if (keys & kKeyedRotation) p.rotation = w >= 1.0f ? x.rotation : nlerp(p.rotation, x.rotation, w);
}

void additive_joint(Transform& p, const Transform& x, const Transform& r, uint8_t keys,
                    float w) noexcept {
  if (keys & kKeyedTranslation) p.translation += (x.translation - r.translation) * w;
  if (keys & kKeyedScale) {
    glm::vec3 ratio(1.0f);
    for (int c = 0; c < 3; ++c)
      if (const float inv = 1.0f / r.scale[c]; std::isfinite(inv)) ratio[c] = x.scale[c] * inv;
    p.scale *= mix(glm::vec3(1.0f), ratio, w);
  }
  if (!(keys & kKeyedRotation)) return;
  glm::quat delta = glm::conjugate(r.rotation) * x.rotation;
  if (w < 1.0f) delta = nlerp(glm::quat(1, 0, 0, 0), delta, w);
  p.rotation = glm::normalize(p.rotation * delta);
}

inline Transform get(std::span<const Transform> pose, std::size_t j) noexcept { return pose[j]; }
inline Transform get(const LocalLanes& pose, std::size_t j) noexcept { return pose.get(j); }
inline void put(std::span<Transform> pose, std::size_t j, const Transform& t) noexcept {
  pose[j] = t;
}
inline void put(LocalLanes& pose, std::size_t j, const Transform& t) noexcept { pose.set(j, t); }

// The same walk, a joint at a time: kernel(pose, layer, reference, keys, weight).
template <class Pose, class PoseIn, class Kernel>
void for_each_joint(Pose& pose, const PoseIn& layer, const PoseIn* reference, std::size_t joints,
                    std::span<const uint8_t> keyed, std::span<const float> mask, float w0,
                    Kernel&& kernel) noexcept {
  for (std::size_t j = 0; j < joints; ++j) {
    const float w = mask.empty() ? w0 : w0 * blend_weight(mask[j]);
    const uint8_t keys = keyed.empty() ? uint8_t{kKeyedAll} : keyed[j];
    if (w == 0.0f || keys == 0) continue;
    Transform p = get(pose, j);
    kernel(p, get(layer, j), reference != nullptr ? get(*reference, j) : Transform{}, keys, w);
    put(pose, j, p);
  }
}
#endif

bool sizes_fit(std::size_t joints, std::size_t layer, std::span<const uint8_t> keyed,
               std::span<const float> mask) noexcept {
  return layer == joints && (keyed.empty() || keyed.size() == joints) &&
         (mask.empty() || mask.size() == joints);
}

// Both blends for both pose forms: the checks, then every group (or joint) through the kernel.
template <class Pose, class PoseIn>
bool run_override(Pose& pose, const PoseIn& layer, std::size_t joints, std::size_t layer_joints,
                  std::span<const uint8_t> keyed, std::span<const float> mask,
                  float weight) noexcept {
  if (!sizes_fit(joints, layer_joints, keyed, mask)) return false;
  const float w0 = blend_weight(weight);
  if (w0 == 0.0f) return true;
#if defined(SV_BLEND_X86)
  if (detail::clip_runtime_isa() >= 1)
    avx2::override_all(pose, layer, joints, keyed, mask, w0);
  else
    sse2::override_all(pose, layer, joints, keyed, mask, w0);
#elif defined(__SSE2__)
  sse2::override_all(pose, layer, joints, keyed, mask, w0);
#else
  for_each_joint(pose, layer, static_cast<const PoseIn*>(nullptr), joints, keyed, mask, w0,
                 [](Transform& p, const Transform& x, const Transform&, uint8_t keys, float w) {
                   override_joint(p, x, keys, w);
                 });
#endif
  return true;
}

// kPrepare: `reference` is a raw pose (made ready per group); otherwise AdditiveReference::ready.
template <bool kPrepare, class Pose, class PoseIn>
bool run_additive(Pose& pose, const PoseIn& layer, const PoseIn& reference, std::size_t joints,
                  std::size_t layer_joints, std::size_t reference_joints,
                  std::span<const uint8_t> keyed, std::span<const float> mask,
                  float weight) noexcept {
  if (!sizes_fit(joints, layer_joints, keyed, mask) || reference_joints != joints) return false;
  const float w0 = blend_weight(weight);
  if (w0 == 0.0f) return true;
#if defined(SV_BLEND_X86)
  if (detail::clip_runtime_isa() >= 1)
    avx2::additive_all<kPrepare>(pose, layer, reference, joints, keyed, mask, w0);
  else
    sse2::additive_all<kPrepare>(pose, layer, reference, joints, keyed, mask, w0);
#elif defined(__SSE2__)
  sse2::additive_all<kPrepare>(pose, layer, reference, joints, keyed, mask, w0);
#else
  for_each_joint(pose, layer, &reference, joints, keyed, mask, w0,
                 [](Transform& p, const Transform& x, const Transform& r, uint8_t keys, float w) {
                   additive_joint(p, x, r, keys, w);
                 });
#endif
  return true;
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
  return run_override(pose, layer, pose.size(), layer.size(), keyed, mask, weight);
}

bool blend_override(LocalLanes& pose, const LocalLanes& layer, std::span<const uint8_t> keyed,
                    std::span<const float> mask, float weight) noexcept {
  const std::size_t n = pose.joints;
  if (!pose.fits(n) || !layer.fits(n)) return false;
  return run_override(pose, layer, n, n, keyed, mask, weight);
}

bool blend_additive(std::span<Transform> pose, std::span<const Transform> layer,
                    std::span<const Transform> reference, std::span<const uint8_t> keyed,
                    std::span<const float> mask, float weight) noexcept {
  return run_additive<true>(pose, layer, reference, pose.size(), layer.size(), reference.size(),
                            keyed, mask, weight);
}

bool blend_additive(LocalLanes& pose, const LocalLanes& layer, const LocalLanes& reference,
                    std::span<const uint8_t> keyed, std::span<const float> mask,
                    float weight) noexcept {
  const std::size_t n = pose.joints;
  if (!pose.fits(n) || !layer.fits(n) || !reference.fits(n)) return false;
  return run_additive<true>(pose, layer, reference, n, n, n, keyed, mask, weight);
}

bool blend_additive(LocalLanes& pose, const LocalLanes& layer, const AdditiveReference& reference,
                    std::span<const uint8_t> keyed, std::span<const float> mask,
                    float weight) noexcept {
  const std::size_t n = pose.joints;
  if (!pose.fits(n) || !layer.fits(n) || !reference.fits(n)) return false;
#if defined(__SSE2__)
  return run_additive<false>(pose, layer, reference.ready, n, n, n, keyed, mask, weight);
#else
  return run_additive<true>(pose, layer, reference.pose, n, n, n, keyed, mask, weight);
#endif
}

void AdditiveReference::prepare(const LocalLanes& reference) {
  if (!pose.fits(reference.joints)) pose.resize(reference.joints);
  if (!ready.fits(reference.joints)) ready.resize(reference.joints);
  std::copy(reference.lanes.begin(), reference.lanes.end(), pose.lanes.begin());
#if defined(SV_BLEND_X86)
  if (detail::clip_runtime_isa() >= 1)
    avx2::prepare_all(pose, ready);
  else
    sse2::prepare_all(pose, ready);
#elif defined(__SSE2__)
  sse2::prepare_all(pose, ready);
#else
  // Not read without SSE2 (the scalar blends make each joint's from `pose`); kept equal anyway.
  for (std::size_t j = 0; j < pose.joints; ++j) {
    Transform t = pose.get(j);
    t.rotation = glm::conjugate(t.rotation);
    for (int c = 0; c < 3; ++c) {
      const float inv = 1.0f / t.scale[c];
      t.scale[c] = std::isfinite(inv) ? inv : 0.0f;
    }
    ready.set(j, t);
  }
#endif
}

}  // namespace sv
