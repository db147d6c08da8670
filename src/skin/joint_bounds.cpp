#include "skin/joint_bounds.h"

#include <cstddef>
#include <span>

namespace sv {

Bounds joint_bounds(const Model& model, const Animator& pose, int32_t joint) noexcept {
  Bounds b;
  const std::span<const glm::mat4> matrices = pose.model_matrices();
  const std::span<const glm::mat4> palette = pose.palette();
  const std::size_t joints = model.skeleton.size();
  if (joint < 0 || static_cast<std::size_t>(joint) >= joints || matrices.size() != joints) return b;
  b.add(glm::vec3(matrices[static_cast<std::size_t>(joint)][3]));
  for (std::size_t j = 0; j < joints; ++j) {
    if (model.skeleton.parents[j] == joint) b.add(glm::vec3(matrices[j][3]));
  }
  for (std::size_t m = 0; m < model.meshes.size(); ++m) {
    const Mesh& mesh = model.meshes[m];
    const std::size_t base = pose.palette_base(m);
    const std::size_t bones = mesh.skin_joints.size();
    if (mesh.joints.size() != mesh.positions.size() ||
        mesh.weights.size() != mesh.positions.size() || base + bones > palette.size())
      continue;
    for (std::size_t v = 0; v < mesh.positions.size(); ++v) {
      const glm::u16vec4& jv = mesh.joints[v];
      const glm::vec4& wv = mesh.weights[v];
      bool mine = false;
      for (int i = 0; i < 4 && !mine; ++i) {
        mine = wv[i] > 0.0f && jv[i] < bones && mesh.skin_joints[jv[i]] == joint;
      }
      if (!mine) continue;
      glm::vec4 p(0.0f);
      const glm::vec4 bind(mesh.positions[v], 1.0f);
      for (int i = 0; i < 4; ++i) {
        if (wv[i] > 0.0f && jv[i] < bones) p += wv[i] * (palette[base + jv[i]] * bind);
      }
      b.add(glm::vec3(p));
    }
  }
  return b;
}

}  // namespace sv
