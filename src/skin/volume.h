// Volume change over a clip: the figure a rigger quotes for how much a skinning method loses or
// gains at bends and twists ("LBS loses 12% at 0.8 s of twist, DQS 1%"), per closed mesh.
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
// within kWeldTolerance of the mesh's size count as one (the weld, below). Degenerate triangles
// (two corners at one position) have no volume and are skipped.
//
// The reference is the REST pose: every joint at its local rest transform, skinned by the
// method measured, not the vertices as stored (the bind pose). A clip's keys and the rest
// transforms live in the same joint space, so whatever the armature carries in both (FBX's 100x
// unit scale on its root, a rest pose that is not the bind pose) cancels in V(t) / V(rest); the
// bind pose would count it as a change of 100^3. Each mesh is figured on its own: a small mesh
// (eyes that blink shut) must not hide or stand for the body.
//
// The weld: vertices closer than kWeldTolerance x the mesh's size (max norm) become one, by
// union-find over the neighbouring cells of a grid of that spacing. The size is the diagonal of
// the box of the central 98% of the positions on each axis, so a stray vertex (1e38) does not
// make the cells so large that every vertex lands in one; it then simply sits alone in its cell.
// Work is counted (cell probes plus position comparisons) and capped by VolumeBudget: a mesh
// over the cap (thousands of distinct positions within one weld distance) is "not checked".
//
// Sampling: the clip is posed at kVolumeRate poses per second of clip (0, 1/30, 2/30, ... and the
// clip's end) unless that passes VolumeBudget::max_poses or poses x vertices passes
// max_pose_work; then at that many poses spread evenly over [0, duration], ends included, and the
// line says so ("4096 poses, every 244 s"). One call allocates once (a SkinnedPose), nothing per
// pose. Every loop polls `cancel` (may be null): a caller off the UI thread sets it to stop
// early, and gets status Cancelled.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include <glm/vec3.hpp>

#include "skin/skinned_pose.h"

namespace sv {

struct Model;
class WorkerPool;

inline constexpr double kVolumeRate = 30.0;  // poses per second of clip
// Welding distance (max norm) as a fraction of a mesh's size: a few float ulps at the mesh's
// scale, far below any edge a modeller draws.
inline constexpr double kWeldTolerance = 1e-6;

// What one measurement may cost, in counts. The defaults keep one clip of a 100k-vertex mesh
// near 0.1 s of CPU skinning and a weld linear in the vertices.
struct VolumeBudget {
  std::size_t max_poses = 4096;                          // per clip, both ends included (>= 2)
  std::size_t max_pose_work = std::size_t{1} << 25;      // poses x vertices of the measured meshes
  std::size_t max_mesh_vertices = std::size_t{1} << 22;  // per mesh (and 3x that in indices)
  // Weld work per mesh: cell probes plus position comparisons, at most this per vertex plus
  // kWeldWorkSlack. A mesh of seams and poles needs about 30 per vertex.
  std::size_t weld_work_per_vertex = 64;
};
inline constexpr std::size_t kWeldWorkSlack = std::size_t{1} << 16;

// Signed volume of the triangles `indices` over `positions` (see above). Triangles with an
// index out of range are skipped (Model::validate rejects such meshes).
double signed_volume(std::span<const glm::vec3> positions,
                     std::span<const uint32_t> indices) noexcept;

enum class MeshShape : uint8_t {
  Closed,       // every edge shared by two triangles wound oppositely: the volume means something
  Open,         // an edge used by one triangle, or by three or more (a hole, a fin), or none
  Misoriented,  // closed, but some edge run the same way by both its triangles (flipped ones)
  TooLarge,     // not checked: over VolumeBudget's vertices, indices or weld work
  NonFinite,    // not checked: a position is NaN or infinite
  Cancelled,    // not checked: the caller cancelled
  NoTriangles,  // no triangle at all (a mesh of points or lines): no volume to speak of
};
// "closed", "open (an edge not shared by exactly two oppositely wound triangles)",
// "inconsistently wound (...)", "not checked (too large)", "no triangles (points or lines)", ...
const char* mesh_shape_name(MeshShape shape) noexcept;

// The shape of the triangles `indices` over `positions` (edges between welded positions).
// Allocates (a weld map and an edge list). `work` (may be null) receives the weld work spent.
MeshShape mesh_shape(std::span<const glm::vec3> positions, std::span<const uint32_t> indices,
                     const VolumeBudget& budget = {}, const std::atomic<bool>* cancel = nullptr,
                     std::size_t* work = nullptr);
// One per mesh of `model`, from its bind-space positions (vertices split at a seam share their
// weights, so they stay together in every pose). Meshes after a cancel are Cancelled.
std::vector<MeshShape> mesh_shapes(const Model& model, const VolumeBudget& budget = {},
                                   const std::atomic<bool>* cancel = nullptr);

// One mesh's figure over one clip. Changes are V(t) / V(rest) - 1 (signed: < 0 is a loss).
struct MeshVolume {
  std::string name;                         // the mesh's name, for the lines
  MeshShape shape = MeshShape::Open;        // as mesh_shapes said
  bool measured = false;                    // closed, and its rest volume finite and not zero
  double rest_volume = 0.0;                 // V(rest), model-space units cubed (signed as wound)
  double min_change = 0.0, min_time = 0.0;  // the most negative change over the poses, when
  double max_change = 0.0, max_time = 0.0;  // the most positive
  // The larger in magnitude of the two, and when.
  double change() const noexcept { return -min_change > max_change ? min_change : max_change; }
  double time() const noexcept { return -min_change > max_change ? min_time : max_time; }
};

enum class VolumeStatus : uint8_t {
  Ok,
  Unskinnable,  // the model could not be posed or skinned (CoR without its centres)
  Cancelled,    // `cancel` was set before the last pose; the figures so far are partial
  BadShapes,    // `shapes` does not have one entry per mesh
};

struct VolumeFigures {
  VolumeStatus status = VolumeStatus::Ok;
  std::vector<MeshVolume> meshes;  // one per model mesh, in order
  double duration = 0.0;           // of the clip, seconds (0: the rest pose alone)
  std::size_t poses = 0;           // poses evaluated, both ends included
  std::size_t poses_at_rate = 0;   // what kVolumeRate would have taken: > poses when capped
  double step = 0.0;               // seconds between poses (the last gap may be shorter)
  // volume_sampling_line, then mesh_volume_line per mesh, formatted once by whoever keeps the
  // figures to show them every frame (app/viewer_scene.h); empty until then.
  std::vector<std::string> lines;
  std::size_t measured() const noexcept;
  bool capped() const noexcept { return poses < poses_at_rate; }
};

// The volume of each mesh `shapes` calls Closed over the clip `clip` (an index into
// model.clips) skinned by `skin`, against its volume in the rest pose, within `budget`. `pool`
// (may be null) splits the CPU skinning; `cancel` (may be null) is polled before every pose;
// `progress` (may be null) receives the poses done so far (of VolumeFigures::poses, known up
// front as min(poses_at_rate, the cap)). An out-of-range clip is measured at the rest pose
// alone. No pose is sampled when no mesh is measured.
VolumeFigures clip_volume_figures(const Model& model, int32_t clip, const SkinChoice& skin,
                                  std::span<const MeshShape> shapes,
                                  const VolumeBudget& budget = {},
                                  const std::atomic<bool>* cancel = nullptr,
                                  WorkerPool* pool = nullptr,
                                  std::atomic<std::size_t>* progress = nullptr);

// The lines --info and the window's View section print, in one place:
//   volume_sampling_line: "61 poses, 30 per second and the end", "4096 poses, every 244 s
//     (capped: 30 per second would take 2550000001)", "1 pose (no clip length)", "cancelled",
//     "cannot be skinned", "no closed mesh to measure"
//   mesh_volume_line (mesh: an index into figures.meshes): "'body': -0.31% at 1.000 s (min
//     -0.31% at 1.000 s, max +0.00% at 0.000 s)", "'hair': open (an edge ...), not measured",
//     "'body': closed, cancelled". The largest change in magnitude first, signed; a figure that
//     prints as +0.00% is given without its time (rounding noise picks it). Mesh names are
//     printed on one line (control characters as '?') and cut at 80 bytes.
std::string volume_sampling_line(const VolumeFigures& figures);
std::string mesh_volume_line(const VolumeFigures& figures, std::size_t mesh);

}  // namespace sv
