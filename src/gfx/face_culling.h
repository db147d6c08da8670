// Back-face culling: when a mesh may be drawn from its front only, the one rule the renderer and
// the picker share (so a click never picks a face the picture does not show). No GL here.
//
// glTF 2.0 says a material with `doubleSided: false` (its default) MUST be drawn with back-face
// culling, front faces counter-clockwise (Material::double_sided, which only a glTF import sets
// false). Culling is only right while the winding the file stored is the winding on screen: a
// transform whose 3x3 part has a determinant <= 0 mirrors the triangles it moves, turning their
// front faces clockwise, and culling would then hide the faces the file means to show -- a silent
// wrong picture. A mirrored joint is common in rigs (Maya's mirrored limbs), so per frame and per
// mesh: no culling where the up-axis world matrix, or any palette matrix of the mesh's skin,
// mirrors. A rigid mesh's skin is one bone, its node (anim/model.h), so the same test covers its
// node's matrix. Drawing both sides there is what the viewer did before culling, never wrong.
//
// Cost: a 3x3 determinant per bone of each single-sided mesh per frame; no allocation, no look-up.
#pragma once

#include <cstddef>
#include <span>

#include <glm/mat3x3.hpp>
#include <glm/mat4x4.hpp>
#include <glm/matrix.hpp>

namespace sv {

// Whether `m` mirrors (or collapses) what it moves: the determinant of its 3x3 part is not > 0.
// A NaN determinant counts as mirroring, so a broken matrix never culls.
inline bool mirrors(const glm::mat4& m) noexcept {
  return !(glm::determinant(glm::mat3(m)) > 0.0f);
}

// Whether any of palette[first, first + count) mirrors; true when the range does not lie within
// `palette` (no pose to trust: draw both sides).
inline bool any_mirrors(std::span<const glm::mat4> palette, std::size_t first,
                        std::size_t count) noexcept {
  if (first > palette.size() || count > palette.size() - first) return true;
  for (std::size_t b = first; b < first + count; ++b)
    if (mirrors(palette[b])) return true;
  return false;
}

// The rule: cull back faces of a mesh whose material is single-sided (`double_sided` false),
// unless the user asked for both sides (`show_back_faces`: the View panel's "Show back faces",
// --back-faces), the world matrix mirrors, or the mesh's palette does (`mesh_mirrors`: any_mirrors
// over its skin's range, for a crowd over every palette group's).
inline bool culls_back_faces(bool double_sided, bool show_back_faces, const glm::mat4& world,
                             bool mesh_mirrors) noexcept {
  return !double_sided && !show_back_faces && !mirrors(world) && !mesh_mirrors;
}

// The same, reading the mesh's palette range itself (only when the rest would cull).
inline bool culls_back_faces(bool double_sided, bool show_back_faces, const glm::mat4& world,
                             std::span<const glm::mat4> palette, std::size_t first,
                             std::size_t count) noexcept {
  if (double_sided || show_back_faces) return false;
  return culls_back_faces(double_sided, show_back_faces, world, any_mirrors(palette, first, count));
}

}  // namespace sv
