// Morph targets (blend shapes) under skinning: per-vertex offsets blended by animated weights,
// applied to the bind-space mesh BEFORE skinning, as glTF 2.0 and every engine that skins faces
// does (Real-Time Rendering, 4th ed., 4.5):
//
//   p_morphed = p + sum_i w_i * dp_i        n_morphed = n + sum_i w_i * dn_i   (then skinned;
//                                                                               normalised after)
//
// A target stores deltas, not absolute positions: a target whose weight is 0 costs nothing and
// can be skipped, and the sum above is what the file means (glTF stores deltas; assimp 5.2.5
// hands glTF targets back as absolute positions, base + delta, and the importer subtracts the
// base again). Deltas are dense (one per vertex of the mesh): a face's targets move a few
// hundred vertices, the body's stay zero, and a dense layout keeps the CPU loop and the GPU's
// buffer texture one fetch per vertex with no index indirection; sparse storage is the next
// step if a model with hundreds of targets on a large mesh turns up.
//
// Morph weights are animated per clip: a MorphTrack holds one mesh's weights (all of its targets
// at each key, key-major) over key times in seconds, interpolated as glTF says (step, linear,
// cubic spline with in-tangent, value, out-tangent per target and key). A mesh no clip animates
// keeps its default weights (glTF's mesh.weights; assimp's aiAnimMesh::mWeight). Sampling looks
// the two keys up by binary search: a track has tens of keys and a model a handful of tracks, so
// a cursor would save nothing measurable. Nothing here allocates.
//
// std + glm only, as every file of anim/.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include <glm/vec3.hpp>

#include "anim/clip.h"

namespace sv {

struct Mesh;

struct MorphTarget {
  std::string name;                        // the file's name, or "target N"
  float default_weight = 0.0f;             // the weight when no clip animates the mesh
  std::vector<glm::vec3> position_deltas;  // one per vertex, bind space (the mesh's units)
  std::vector<glm::vec3> normal_deltas;    // empty (normals unchanged), or one per vertex
};

// One mesh's morph weights over one clip.
struct MorphTrack {
  uint32_t mesh = 0;  // index into Model::meshes
  Interpolation interpolation = Interpolation::Linear;
  std::vector<double> times;  // seconds, strictly increasing, finite, within the clip
  // Key-major, times.size() * targets values: key k's weights are [k * targets, (k+1) * targets).
  // CubicSpline: 3 * times.size() * targets, glTF's order: per key the in-tangents of every
  // target, then the values, then the out-tangents (tangents in weight per second).
  std::vector<float> weights;
};

// The morph animation of one clip (Model::morph_clips[c] goes with Model::clips[c]).
struct MorphClip {
  std::vector<MorphTrack> tracks;  // at most one per mesh
};

// Empty when every target of `mesh` has one position delta per vertex, no or one normal delta
// per vertex, finite deltas and a finite default weight; otherwise the first problem.
std::string check_morph_targets(const Mesh& mesh);
// Empty when every track names a mesh of `meshes` that has targets (at most one track per mesh),
// its times are finite, strictly increasing and within [0, duration], and its weights are
// finite and as many as its keys and the mesh's targets need; otherwise the first problem.
std::string check_morph_clip(const MorphClip& clip, std::span<const Mesh> meshes, double duration);

// The track's weights at time t (seconds, wrapped or clamped by the caller), one per target:
// before the first key the first key's weights, after the last the last's. False, writing
// nothing, when `out` does not have the track's target count (weights / keys) or the track has
// no keys.
bool sample_morph_track(const MorphTrack& track, double t, std::span<float> out) noexcept;

// The morph stage: out = base + sum over targets of weights[i] * deltas (positions, and normals
// when `base_normals` and `out_normals` are given; a target without normal deltas leaves the
// normals alone). Targets whose weight is 0 are skipped. `weights` has one entry per target;
// the outputs have the vertex count and may not alias the inputs. False, writing nothing, when
// a size does not fit.
bool apply_morphs(std::span<const glm::vec3> base_positions,
                  std::span<const glm::vec3> base_normals, std::span<const MorphTarget> targets,
                  std::span<const float> weights, std::span<glm::vec3> out_positions,
                  std::span<glm::vec3> out_normals) noexcept;

// Whether any weight is non-zero (a mesh whose weights are all 0 skips the morph stage).
bool any_morph_weight(std::span<const float> weights) noexcept;

}  // namespace sv
