#include "anim/skeleton.h"

#include <algorithm>
#include <cmath>

#include "anim/finite.h"

namespace sv {

std::string Skeleton::validate() const {
  const std::size_t n = parents.size();
  if (names.size() != n || rest.size() != n || inverse_bind.size() != n || is_bone.size() != n)
    return "skeleton arrays differ in size (parents " + std::to_string(n) + ", names " +
           std::to_string(names.size()) + ", rest " + std::to_string(rest.size()) +
           ", inverse_bind " + std::to_string(inverse_bind.size()) + ", is_bone " +
           std::to_string(is_bone.size()) + ")";
  for (std::size_t i = 0; i < n; ++i) {
    const int32_t p = parents[i];
    if (p != kNoParent && (p < 0 || static_cast<std::size_t>(p) >= i))
      return "joint " + std::to_string(i) + " '" + names[i] + "' has parent " + std::to_string(p) +
             ", which does not precede it";
    const Transform& t = rest[i];
    if (!finite(t.translation) || !finite(t.rotation) || !finite(t.scale))
      return "joint " + std::to_string(i) + " '" + names[i] + "' has a non-finite rest transform";
    if (!finite(inverse_bind[i]))
      return "joint " + std::to_string(i) + " '" + names[i] +
             "' has a non-finite inverse bind matrix";
  }
  return {};
}

int32_t Skeleton::find(std::string_view name) const noexcept {
  for (std::size_t i = 0; i < names.size(); ++i)
    if (names[i] == name) return static_cast<int32_t>(i);
  return -1;
}

bool rest_pose(const Skeleton& skeleton, std::span<Transform> out) noexcept {
  if (out.size() != skeleton.size() || skeleton.rest.size() != skeleton.size()) return false;
  std::copy(skeleton.rest.begin(), skeleton.rest.end(), out.begin());
  return true;
}

}  // namespace sv
