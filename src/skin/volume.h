// Volume change over a clip: the figure a rigger quotes for how much a skinning method loses or
// gains at bends and twists ("LBS loses 12% at 0.8 s of twist, DQS 1%").
//
// The volume of a closed, consistently wound triangle mesh is the sum over its triangles of the
// signed volumes of the tetrahedra they make with the origin (divergence theorem):
//
//     V = sum_t dot(p0, cross(p1, p2)) / 6        (model-space units cubed, in double)
//
// positive when the triangles wind counter-clockwise seen from outside. The sum is independent
// of the origin only when the surface is closed, so the figure is given only for meshes where
// every edge is shared by exactly two triangles running along it in opposite directions. Edges
// are taken between positions, not vertex indices: importers split a vertex wherever its normal
// or UV differs (seams), which leaves a closed surface with index edges used once. Positions
// within kWeldTolerance of the mesh's size (its box's diagonal) count as one. Degenerate
// triangles (two corners at one position) have no volume and are skipped.
//
// clip_volume_change poses and skins the model with the chosen method at kVolumeRate samples per
// second of clip (0, 1/30, 2/30, ... and the clip's end), at a lower rate when samples x
// vertices would pass kBoundsWork (skin/clip_bounds.h: about 0.1 s of CPU skinning; the rate
// used is returned), and compares each closed mesh's volume with its volume in the bind pose.
// It allocates once per call (an Animator), nothing per sample.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include <glm/vec3.hpp>

#include "skin/skinned_pose.h"

namespace sv {

struct Model;
class WorkerPool;

inline constexpr double kVolumeRate = 30.0;  // samples per second of clip
// Welding distance (max norm) as a fraction of a mesh's diagonal: a few float ulps at the
// mesh's scale, far below any edge a modeller draws.
inline constexpr double kWeldTolerance = 1e-6;

// Signed volume of the triangles `indices` over `positions` (see above). Triangles with an
// index out of range are skipped (Model::validate rejects such meshes).
double signed_volume(std::span<const glm::vec3> positions,
                     std::span<const uint32_t> indices) noexcept;

enum class MeshShape : uint8_t {
  Closed,       // every edge shared by two triangles wound oppositely: the volume means something
  Open,         // an edge used by one triangle, or by three or more (a hole, a fin), or none
  Misoriented,  // closed, but some edge run the same way by both its triangles (flipped ones)
};
const char* mesh_shape_name(MeshShape shape) noexcept;  // "closed", "open", "inconsistently wound"

// The shape of the triangles `indices` over `positions` (edges between equal positions).
// Allocates (a weld map and an edge list).
MeshShape mesh_shape(std::span<const glm::vec3> positions, std::span<const uint32_t> indices);
// One per mesh of `model`, from its bind-space positions (vertices split at a seam share their
// weights, so they stay together in every pose).
std::vector<MeshShape> mesh_shapes(const Model& model);

struct VolumeChange {
  bool ok = false;           // false: the model could not be posed or skinned (CoR without centres)
  int32_t mesh = -1;         // the closed mesh with the largest change; -1 when no mesh is closed
  double change = 0.0;       // V(t) / V(bind) - 1 of that mesh at `time` (signed: < 0 is a loss)
  double time = 0.0;         // seconds into the clip
  double bind_volume = 0.0;  // V(bind) of that mesh, model-space units cubed
  double rate = 0.0;         // samples per second of clip used (kVolumeRate unless capped)
  int samples = 0;           // poses evaluated, the clip's end included
  std::size_t closed = 0;    // meshes measured
  std::size_t open = 0;      // meshes left out (not Closed, or a zero bind volume)
};

// The largest |change| over the clip `clip` (an index into model.clips) skinned by `skin`, over
// the meshes `shapes` calls Closed (one entry per mesh: mesh_shapes). `pool` (may be null)
// splits the CPU skinning. An out-of-range clip is measured at the rest pose alone.
VolumeChange clip_volume_change(const Model& model, int32_t clip, const SkinChoice& skin,
                                std::span<const MeshShape> shapes, WorkerPool* pool = nullptr);

}  // namespace sv
