#include "anim/model.h"

#include <cmath>

namespace sv {

namespace {

template <int N>
bool finite(const glm::vec<N, float>& v) {
  for (int i = 0; i < N; ++i)
    if (!std::isfinite(v[i])) return false;
  return true;
}
bool finite(const glm::mat4& m) {
  for (int c = 0; c < 4; ++c)
    if (!finite(m[c])) return false;
  return true;
}

template <class T>
std::size_t first_non_finite(const std::vector<T>& values) {
  for (std::size_t i = 0; i < values.size(); ++i)
    if (!finite(values[i])) return i;
  return values.size();
}

std::string check_mesh(const Mesh& mesh, std::size_t joint_count, std::size_t material_count) {
  const std::size_t n = mesh.vertex_count();
  if (mesh.normals.size() != n || mesh.joints.size() != n || mesh.weights.size() != n ||
      mesh.vertex_flags.size() != n || (!mesh.uvs.empty() && mesh.uvs.size() != n))
    return "vertex streams differ in length (positions " + std::to_string(n) + ", normals " +
           std::to_string(mesh.normals.size()) + ", uvs " + std::to_string(mesh.uvs.size()) +
           ", joints " + std::to_string(mesh.joints.size()) + ", weights " +
           std::to_string(mesh.weights.size()) + ", flags " +
           std::to_string(mesh.vertex_flags.size()) + ")";
  if (mesh.node != -1 && (mesh.node < 0 || static_cast<std::size_t>(mesh.node) >= joint_count))
    return "node " + std::to_string(mesh.node) + " is out of range";
  if (mesh.material != -1 &&
      (mesh.material < 0 || static_cast<std::size_t>(mesh.material) >= material_count))
    return "material " + std::to_string(mesh.material) + " is out of range";
  if (mesh.inverse_bind.size() != mesh.skin_joints.size())
    return std::to_string(mesh.inverse_bind.size()) + " inverse bind matrices for " +
           std::to_string(mesh.skin_joints.size()) + " skin bones";
  for (std::size_t b = 0; b < mesh.skin_joints.size(); ++b)
    if (mesh.skin_joints[b] < 0 || static_cast<std::size_t>(mesh.skin_joints[b]) >= joint_count)
      return "skin bone " + std::to_string(b) + " names joint " +
             std::to_string(mesh.skin_joints[b]) + ", out of range";
  if (n > 0 &&
      (mesh.max_joint < 0 || static_cast<std::size_t>(mesh.max_joint) >= mesh.skin_joints.size()))
    return "max_joint " + std::to_string(mesh.max_joint) + " is out of range of " +
           std::to_string(mesh.skin_joints.size()) + " skin bones";
  for (std::size_t v = 0; v < n; ++v) {
    const glm::u16vec4 j = mesh.joints[v];
    for (int i = 0; i < 4; ++i)
      if (j[i] > mesh.max_joint)
        return "vertex " + std::to_string(v) + " uses skin bone " + std::to_string(j[i]) +
               ", above max_joint " + std::to_string(mesh.max_joint);
    const glm::vec4 w = mesh.weights[v];
    const float sum = w.x + w.y + w.z + w.w;
    if (!finite(w) || w.x < 0.0f || w.y < 0.0f || w.z < 0.0f || w.w < 0.0f ||
        std::abs(sum - 1.0f) > 1e-3f)
      return "vertex " + std::to_string(v) +
             " has weights that are negative, not finite or do "
             "not sum to 1";
  }
  if (mesh.indices.size() % 3 != 0)
    return std::to_string(mesh.indices.size()) + " indices is not a whole number of triangles";
  for (std::size_t i = 0; i < mesh.indices.size(); ++i)
    if (mesh.indices[i] >= n)
      return "index " + std::to_string(i) + " is " + std::to_string(mesh.indices[i]) + ", past " +
             std::to_string(n) + " vertices";
  if (std::size_t i = first_non_finite(mesh.positions); i < n)
    return "position " + std::to_string(i) + " is not finite";
  if (std::size_t i = first_non_finite(mesh.normals); i < n)
    return "normal " + std::to_string(i) + " is not finite";
  if (std::size_t i = first_non_finite(mesh.uvs); i < mesh.uvs.size())
    return "uv " + std::to_string(i) + " is not finite";
  if (std::size_t i = first_non_finite(mesh.inverse_bind); i < mesh.inverse_bind.size())
    return "inverse bind matrix " + std::to_string(i) + " is not finite";
  return {};
}

}  // namespace

std::string Model::validate() const {
  if (std::string e = skeleton.validate(); !e.empty()) return e;
  for (const Clip& clip : clips)
    if (std::string e = clip.validate(skeleton); !e.empty()) return e;
  for (std::size_t m = 0; m < meshes.size(); ++m)
    if (std::string e = check_mesh(meshes[m], skeleton.size(), materials.size()); !e.empty())
      return "mesh " + std::to_string(m) + " '" + meshes[m].name + "': " + e;
  return {};
}

}  // namespace sv
