// Local -> model transforms and the skinning palette.
//
//   model[i]   = model[parent[i]] * to_matrix(local[i])      (model[root] = to_matrix(local[root]))
//   palette[b] = model[skin_joints[b]] * inverse_bind[b]      (K = B * M^-1, one per skin bone)
//   normal[b]  = the inverse transpose of palette[b]'s upper 3x3 (correct normals under
//                non-uniform scale); when that 3x3 is a rotation times a uniform scale s it is
//                computed without an inverse, as the 3x3 divided by s^2
//
// "Model space" is the space of the skeleton's root joints' parent: for imported files the
// scene root's parent, so the root node's own transform is included. One forward loop suffices
// because parents come first. All functions check sizes and return false, writing nothing,
// when a span does not fit; none allocates.
#pragma once

#include <cstdint>
#include <span>

#include <glm/mat3x3.hpp>
#include <glm/mat4x4.hpp>

#include "anim/transform.h"

namespace sv {

// parents[i] < i or kNoParent; local, parents and model all have the joint count.
bool local_to_model(std::span<const int32_t> parents, std::span<const Transform> local,
                    std::span<glm::mat4> model) noexcept;

// skin_joints[b] indexes `model`; inverse_bind and palette have the skin's bone count.
bool build_palette(std::span<const glm::mat4> model, std::span<const int32_t> skin_joints,
                   std::span<const glm::mat4> inverse_bind, std::span<glm::mat4> palette) noexcept;

// One normal matrix per palette entry.
bool build_normal_palette(std::span<const glm::mat4> palette, std::span<glm::mat3> normal) noexcept;

}  // namespace sv
