// Surface hit: what a pick on a skinned mesh found, worked out from the hit triangle alone.
//
// The viewer's ID pass (gfx/picker.h) says which triangle of which mesh lies under the cursor as
// it was drawn this frame; this file turns that (mesh, triangle, the cursor's ray) into the hit
// point, the vertex nearest it and the joint that weighs most there. Only the triangle's three
// vertices are skinned, on the CPU, from the palette the frame was drawn with
// (skin_lbs_reference: the same maths as both skinning paths), so the cost does not depend on the
// mesh's size: a few microseconds.
//
// "The joint with the largest weight at the hit point" is defined on the weights interpolated
// across the hit triangle: with barycentric coordinates (b0, b1, b2) of the hit point and vertex
// k's weight w_k(j) on skeleton joint j (0 where j is not among its influences),
//
//     w(j) = b0 w_0(j) + b1 w_1(j) + b2 w_2(j)          (sums to 1, as each vertex's weights do)
//
// and the picked joint is the j with the largest w(j) (the lowest joint index on a tie). Why not
// the nearest vertex's largest weight: the weights view paints exactly this interpolation, so a
// click lands on the joint whose colour is under the cursor, and the answer moves continuously
// across a triangle instead of jumping at its medians. The nearest vertex (smallest distance to
// the hit point, in the skinned pose) is reported too: the hover read-out shows its influences.
//
// Spaces: everything here is in the mesh's model space (the space skinning writes, pose.h); the
// caller turns the cursor's world-space ray into model space. Pure: std and glm only, nothing
// allocates.
#pragma once

#include <cstdint>
#include <span>

#include <glm/mat4x4.hpp>
#include <glm/vec3.hpp>

#include "skin/skinning.h"

namespace sv {

struct Mesh;

struct Ray {
  glm::vec3 origin{0.0f};
  glm::vec3 direction{0.0f, 0.0f, -1.0f};  // need not be unit
};

// Barycentric coordinates (b0, b1, b2) of the point where `ray`'s line meets the plane of the
// triangle (a, b, c), and the ray parameter t of that point (origin + t * direction). Points
// outside the triangle give coordinates outside [0, 1]; false when the ray is parallel to the
// plane or the triangle has no area (nothing written). Möller-Trumbore, without culling.
bool ray_plane_barycentric(const Ray& ray, const glm::vec3& a, const glm::vec3& b,
                           const glm::vec3& c, glm::vec3* barycentric, float* t) noexcept;

// The barycentric coordinates of the point of the triangle nearest to `barycentric`'s point,
// approximately: negative coordinates are clamped to 0 and the rest rescaled to sum to 1. The ID
// pass only reports a triangle whose pixel centre it covers, so a hit found outside it is off by
// rounding only (a fraction of a pixel).
glm::vec3 clamp_barycentric(const glm::vec3& barycentric) noexcept;

// Up to 8 influences of one vertex, as skeleton joints, largest weight first; unused slots have
// joint -1 and weight 0.
struct VertexInfluences {
  int count = 0;
  int32_t joints[8] = {-1, -1, -1, -1, -1, -1, -1, -1};
  float weights[8] = {};
};

// Vertex `vertex` of `mesh` (its stored index, as in Mesh::indices): its influences mapped through
// skin_joints, with the weights the skinning uses: with `influences` 8 on a mesh that keeps a
// second set, the first set scaled by 1 - sum(weights2) and the second set after it (the top 8
// renormalised, as skinning8 blends them); otherwise the stored 4. Joint -1 where a bone names no
// joint (a Model that validates has none).
VertexInfluences vertex_influences(const Mesh& mesh, uint32_t vertex, int influences = 4) noexcept;

struct SurfaceHit {
  uint32_t mesh = 0;                        // index into Model::meshes (set by the caller)
  uint32_t triangle = 0;                    // index of the triangle in the mesh (Mesh::indices / 3)
  uint32_t vertices[3] = {};                // its three vertex indices
  glm::vec3 positions[3]{};                 // the three vertices, skinned (model space)
  glm::vec3 barycentric{1.0f, 0.0f, 0.0f};  // of `point`, clamped into the triangle
  glm::vec3 point{0.0f};                    // the hit point (model space)
  float t = 0.0f;                           // ray parameter of the hit point
  uint32_t nearest_vertex = 0;  // the triangle's vertex nearest to `point` (a mesh index)
  int32_t joint = -1;           // skeleton joint with the largest interpolated weight at `point`
  float joint_weight = 0.0f;    // that weight, w(joint) above
};

// Resolves a hit on triangle `triangle` of `mesh` along `ray` (model space). `palette` is this
// mesh's part of the frame's palette (Animator::palette() from palette_base(mesh), the mesh's
// skin_joints.size() entries). False, writing nothing, when the triangle is out of range or the
// palette is too short for the mesh's joints. A triangle the ray cannot meet in one point (no
// area, or seen edge-on: the rasteriser hardly ever reports one) resolves to its vertex nearest
// the ray's line.
bool resolve_surface_hit(const Mesh& mesh, std::span<const glm::mat4> palette, uint32_t triangle,
                         const Ray& ray, SurfaceHit* hit) noexcept;

// The same with the triangle's vertices skinned by `method` (skin/skin_method.h), as the frame
// drew them: `palettes` holds this mesh's part of the frame's palette and, for DQS and CoR, of
// its method palette; `centers` this mesh's centres of rotation (CoR only). LBS is the call
// above. False, writing nothing, also when the method cannot skin the vertices (CoR without
// centres). `influences` 8: with the mesh's second set where it keeps one (SkinChoice).
bool resolve_surface_hit(const Mesh& mesh, SkinMethod method, const SkinPalettes& palettes,
                         std::span<const glm::vec3> centers, uint32_t triangle, const Ray& ray,
                         SurfaceHit* hit, int influences = 4) noexcept;

}  // namespace sv
