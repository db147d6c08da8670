// Blending local poses: the step between sampling and local->model when more than one clip
// shapes a pose. A pose is a stack of layers over the base clip (Animator::evaluate walks the
// stack; anim/animator.h); each layer changes the pose below it, joint by joint and component by
// component (translation, rotation, scale), on local transforms, before local->model.
//
//   override   c = mix(below, layer, w)              the layer's pose replaces the one below
//   additive   c = below (+) w * (layer (-) reference) the layer's difference from a reference
//                                                     pose is added on top
//
// with w = clamp(weight) * mask[j] per joint. Components the layer's clip does not key
// (ClipRuntime::keyed) are left as they are below (sparse tracks, as in Ogre): a wave clip
// that keys only the arms moves only the arms, whatever its weight.
//
// Rotations: an override layer of weight w nlerps along the shorter arc from the rotation below
// towards its own, normalize((1 - w) below + w layer'), with layer' = layer or -layer, whichever
// is on below's side (the sign fix): what ozz, Unreal and Unity blend with. It is slerp's arc
// at another speed: the same rotations at w = 0, 0.5 and 1, and in between a turn of
// 2 atan(w sin(theta/2) / ((1 - w) + w cos(theta/2))) instead of w theta for rotations theta
// apart, at most 0.033 degrees off at 30 degrees, 0.27 at 60, 0.92 at 90, 8.1 near 180
// (hand-computed in blend_test.cpp). Why nlerp is acceptable here: a layer's weight is an
// artist's knob, not a time (the clip's own keys, which are times, are still slerped by the
// sampler); layers differ by a few tens of degrees at most joints, where the difference is far
// below what shows; the result is continuous in w and never degenerate (with the sign fix
// the two rotations are at most 90 degrees apart as 4-vectors, so the sum is never short); a
// cross-fade still starts, passes its middle and ends exactly where slerp's does, only its
// angular speed is not constant between. And it is cheap in lanes: a dot product, a lerp and a
// normalisation per 4 joints, where slerp's polynomial was most of what a blend cost (blend/2
// 2.3x one clip with slerp, BENCHMARKS.md round 18).
//
// Additive: for translation below + w (layer - reference); for rotation below * nlerp(identity,
// conj(reference) * layer, w), the difference applied in the joint's own frame, so a layer at
// w = 1 whose pose below is its reference gives exactly the layer's pose; for scale below *
// mix(1, layer * (1 / reference), w) per axis (a reference scale whose reciprocal is not finite,
// 0 above all, counts as 1: no change there). The reference is the same clip sampled at a
// reference time (its first frame by default): a clip that is its own reference adds nothing (up
// to the rounding of s * (1 / s), within 1 ulp of 1). What the reference contributes, its
// translation, conjugate rotation and reciprocal scale, is made once per reference pose
// (AdditiveReference) when it is given as one, per group of 4 joints per call otherwise.
//
// Weights: a layer's weight and a mask's per-joint weights are fractions in [0, 1]. They are not
// normalised across layers (each layer moves the pose below it; there is no sum to keep at 1):
// a weight above 1 counts as 1 (no extrapolation, which would overshoot rotations and could
// make scales negative), below 0 or NaN as 0 (the layer does nothing). The stack starts from
// the skeleton's rest pose, so when every weight is 0, the base layer's included, the pose is
// the rest pose.
//
// Sampling fused with blending (sample_blend): a layer's clip is sampled 4 joints at a time into
// registers and blended onto the pose there, so the layer's own pose is never written out and
// read back; groups of 4 joints the layer leaves alone (weights 0 there) are not even sampled. The
// base at full weight and the first layer go through one pass together (sample_base_blend), so
// the base's pose is not written out and read back either.
//
// Every function checks sizes and returns false, writing nothing, when a span does not fit;
// the blends allocate nothing (the mask builders and AdditiveReference::prepare are for set-up,
// not for frames).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "anim/local_lanes.h"
#include "anim/transform.h"

namespace sv {

class ClipRuntime;
struct RuntimeCursor;

enum class BlendMode : uint8_t { Override, Additive };

// A weight as blending uses it: NaN and negatives give 0, values above 1 give 1.
float blend_weight(float weight) noexcept;

// A mask of `joints` weights: `root` and every joint below it (parents[i] < i or -1) get
// `inside`, the others `outside`. An out-of-range root gives `outside` everywhere. Allocates.
std::vector<float> subtree_mask(std::span<const int32_t> parents, std::size_t root,
                                float inside = 1.0f, float outside = 0.0f);
// Sets `root` and every joint below it to `weight` in an existing mask (UI edits). False,
// writing nothing, when the sizes differ or root is out of range. Allocates a byte per joint.
bool set_subtree(std::span<const int32_t> parents, std::size_t root, float weight,
                 std::span<float> mask);

// Override: pose[j]'s components keyed in keyed[j] (KeyedBits) move towards layer[j]'s by
// blend_weight(weight) * mask[j]. `keyed` empty: every component (a cross-fade's target, whose
// rest-valued components must win too); `mask` empty: every joint weighs 1. pose, layer and
// the non-empty keyed and mask have one entry per joint.
bool blend_override(std::span<Transform> pose, std::span<const Transform> layer,
                    std::span<const uint8_t> keyed, std::span<const float> mask,
                    float weight) noexcept;

// Additive: adds layer[j] - reference[j] (see above), scaled by blend_weight(weight) * mask[j],
// to the components keyed in keyed[j]; keyed and mask as for blend_override.
bool blend_additive(std::span<Transform> pose, std::span<const Transform> layer,
                    std::span<const Transform> reference, std::span<const uint8_t> keyed,
                    std::span<const float> mask, float weight) noexcept;

// The same two on poses in lanes (local_lanes.h), the form the Animator blends in: each group of
// 4 joints in one go, the mask's and keyed's entries as per-lane weights. pose, layer and
// reference are sized for one joint count; keyed and mask as above. The Transform forms above
// run the same kernels on groups gathered from and scattered back to Transforms.
bool blend_override(LocalLanes& pose, const LocalLanes& layer, std::span<const uint8_t> keyed,
                    std::span<const float> mask, float weight) noexcept;
bool blend_additive(LocalLanes& pose, const LocalLanes& layer, const LocalLanes& reference,
                    std::span<const uint8_t> keyed, std::span<const float> mask,
                    float weight) noexcept;

// An additive layer's reference pose made ready once (when the reference is sampled, not per
// frame). `pose` is the reference as sampled; `ready` holds, per joint in the same lanes, its
// translation, its rotation's conjugate and its scale's reciprocal per axis (0 where that is not
// finite: no change on that axis).
struct AdditiveReference {
  LocalLanes pose;
  LocalLanes ready;
  // Takes `reference` as the pose and makes `ready` from it. Allocates when the joint count
  // changes.
  void prepare(const LocalLanes& reference);
  bool fits(std::size_t joints) const noexcept { return pose.fits(joints) && ready.fits(joints); }
};

// blend_additive against a prepared reference: the same results as against reference.pose.
bool blend_additive(LocalLanes& pose, const LocalLanes& layer, const AdditiveReference& reference,
                    std::span<const uint8_t> keyed, std::span<const float> mask,
                    float weight) noexcept;

// How one layer is blended (the blends' arguments after the poses).
struct LayerBlend {
  BlendMode mode = BlendMode::Override;
  float weight = 1.0f;
  std::span<const uint8_t> keyed;                // KeyedBits per joint; empty: every component
  std::span<const float> mask;                   // one weight per joint; empty: every joint 1
  const AdditiveReference* reference = nullptr;  // Additive: the clip's reference pose
};

// Samples `clip` at t (as sample_runtime into lanes) and blends it onto `pose` as `layer` says,
// in one pass: the same results as the two steps up to the rounding of fused multiply-adds
// (within 1e-6; bit for bit without FMA). False, writing nothing, when `pose` is not sized for
// the clip's joints, the cursor does not fit, keyed or mask has another size, or an additive
// layer's reference is missing or of another size. Defined with the samplers
// (clip_runtime.cpp), whose kernels it runs.
bool sample_blend(const ClipRuntime& clip, double t, RuntimeCursor& cursor, const LayerBlend& layer,
                  LocalLanes& pose) noexcept;

// The base clip at full weight (the pose it makes replaces whatever `pose` held) and a layer over
// it in one pass: sample_runtime(base, base_t, base_cursor, pose) then sample_blend(clip, t,
// cursor, layer, pose), up to the rounding of fused multiply-adds (within 1e-6), without writing
// the base's pose out and reading it back. Each clip has its own cursor (both are located before
// either is sampled). False, writing nothing, where either step would refuse, when the two clips
// are for different joint counts, or when base_cursor and cursor are one object.
bool sample_base_blend(const ClipRuntime& base, double base_t, RuntimeCursor& base_cursor,
                       const ClipRuntime& clip, double t, RuntimeCursor& cursor,
                       const LayerBlend& layer, LocalLanes& pose) noexcept;

}  // namespace sv
