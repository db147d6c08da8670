// LocalLanes: a local pose in the sampler's lanes, the form layers are blended in (ozz's SoA
// transforms). Joints go 4 to a group, and a group holds 10 float4s, one per scalar component,
// lane l of each being joint 4g + l:
//
//   [0..2]  translation x, y, z       [3..6]  rotation x, y, z, w       [7..9]  scale x, y, z
//
// sample_runtime writes it straight from its lanes (clip_runtime.h), blend_override and
// blend_additive work on whole groups (blend.h: masks and weights become per-lane weights),
// and pose_from_local turns it into matrices once. Lanes past the last joint are padding: they
// start as the identity and are never read back as joints. Sized once (resize allocates);
// nothing else allocates.
#pragma once

#include <cstddef>
#include <vector>

#include <glm/vec4.hpp>

#include "anim/transform.h"

namespace sv {

struct LocalLanes {
  static constexpr std::size_t kPerGroup = 10;          // float4s per 4 joints
  static constexpr std::size_t kT = 0, kR = 3, kS = 7;  // first float4 of each
  std::size_t joints = 0;
  std::vector<glm::vec4> lanes;  // groups() * kPerGroup

  LocalLanes() = default;
  explicit LocalLanes(std::size_t n) { resize(n); }
  // Sizes for n joints, every joint (and padding lane) the identity. Allocates.
  void resize(std::size_t n);
  std::size_t groups() const noexcept { return (joints + 3) / 4; }
  bool fits(std::size_t n) const noexcept {
    return joints == n && lanes.size() == (n + 3) / 4 * kPerGroup;
  }
  // One joint's transform (j < joints), read or written in place.
  Transform get(std::size_t j) const noexcept;
  void set(std::size_t j, const Transform& t) noexcept;
};

}  // namespace sv
