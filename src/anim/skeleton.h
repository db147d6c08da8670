// Skeleton: the joint hierarchy as flat arrays, parents first.
//
// Joint i's parent is parents[i] < i (or kNoParent for a root), so one forward loop over the
// joints computes every model-space transform (see pose.h). The skeleton is built once by an
// importer (or by hand in tests) and never changes afterwards; per-frame code only reads it
// and refers to joints by index, never by name.
//
// Spaces: `rest` is each joint's local transform relative to its parent as stored in the file
// (the node transform); `inverse_bind` takes a point from model space (the space of the root
// joint's parent, i.e. the file's scene root) into the joint's space at bind time. For joints
// that no mesh binds, inverse_bind is the inverse of the joint's model-space rest transform.
// The rest pose is not always the bind pose (glTF files may differ).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "anim/transform.h"

namespace sv {

inline constexpr int32_t kNoParent = -1;

struct Skeleton {
  Skeleton() = default;
  Skeleton(Skeleton&&) noexcept = default;
  Skeleton& operator=(Skeleton&&) noexcept = default;
  Skeleton(const Skeleton&) = delete;
  Skeleton& operator=(const Skeleton&) = delete;

  std::vector<std::string> names;       // one per joint, as in the file
  std::vector<int32_t> parents;         // parents[i] < i, or kNoParent
  std::vector<Transform> rest;          // local rest transform (relative to parent)
  std::vector<glm::mat4> inverse_bind;  // model space -> joint space at bind time
  std::vector<uint8_t> is_bone;         // 1 where some mesh binds vertices to this joint

  std::size_t size() const noexcept { return parents.size(); }

  // Empty when the arrays agree in size, every parent index precedes its child, and every
  // number is finite; otherwise a message naming the first problem.
  std::string validate() const;

  // Index of the joint named `name`, or -1. Linear search: for load time and the command line,
  // never per frame.
  int32_t find(std::string_view name) const noexcept;
};

// Writes the skeleton's rest pose (local transforms). Returns false (writing nothing) if
// out.size() differs from the joint count.
bool rest_pose(const Skeleton& skeleton, std::span<Transform> out) noexcept;

}  // namespace sv
