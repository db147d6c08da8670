// Comparing two versions of a rig (`skinview --compare A B`, the window's "Compare with..."): what
// changed from model A to model B in the skeleton, the skin weights and the clips, once, after
// both are loaded. The command line prints it (app/compare.h: text or JSON) and the window paints
// A's vertices by how much their weights changed (the weight-change view, app/difference_view.h).
//
// Joints are matched by name. A joint of A with no namesake in B and a joint of B with none in A
// are the same joint **renamed** when their parents are the same joint (both roots, or the
// parents matched) and their local rest transforms agree within the tolerances; A is walked
// parents first, so a renamed chain is found joint by joint. What is left is **removed** (A's)
// and **added** (B's). A matched joint has **moved** when its local rest transform (relative to
// its parent: a parent's move does not count again at every child) or its bind transform (model
// space, the inverse of its inverse bind matrix) differs by more than a tolerance: a translation
// distance in model units and a rotation angle in degrees (and a scale, per axis).
//
// Weights: meshes pair by index when both models have as many, otherwise by name. Within a pair,
// vertices match **by index** (the file's vertex order, Mesh::source_vertex, not the importer's
// regrouped order) when the counts agree, otherwise **by nearest rest position** (the positions
// as stored; a k-d tree over B's). A vertex's change is the L1 distance between its joint->weight
// maps, joints matched as above (renamed ones included; an added or removed joint's weight counts
// whole): 0 for the same weights, 2 for weights moved wholly to other joints. All influences a
// mesh keeps count (8 where it keeps 8: Mesh::weights2).
//
// Clips are matched by name: added, removed, or changed in duration, key count or any track of a
// matched joint (a component keyed on one side only; key times; values sampled at every key time
// of either side, compared with the joint tolerances).
//
// Cost, bounded in counts (CompareBudget), never in seconds: the files are another program's
// output until compared, and the window runs this off its frame thread, cancellable. Names are
// matched through hash maps (linear); what the sizes decide is counted before any of it runs, so
// an over-budget comparison stops at once with the exact figure: the renames' candidates (A's
// joints without a namesake x B's), the vertices of the paired meshes, the joints and the keys of
// the clips paired by name. The nearest-position search's steps depend on where the points lie
// (all of B equidistant from a vertex of A visits every node), so they are counted as it runs.
// `cancel` is polled in every loop; a cancelled or over-budget comparison returns no partial
// figures, only its status and a one-line problem. Nothing here runs per frame.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include "anim/clip_runtime.h"

namespace sv {

struct Model;

// When two things count as the same. Translations are a fraction of A's size (stored_size: the
// diagonal of its meshes' bounds; 1 model unit for a model without vertices), so a centimetre
// rig and a metre rig are judged alike.
struct CompareTolerances {
  double translation = 1e-4;  // of the model's size (0.18 mm on a 1.8 m character)
  double degrees = 0.01;      // rotation angle
  double scale = 1e-4;        // per axis, absolute
  double weight = 1e-4;       // L1 distance of a vertex's joint->weight maps
  double seconds = 1e-6;      // clip durations and key times
};

// How far apart two transforms are: translation distance (model units), rotation angle
// (degrees, the shorter way), largest per-axis scale difference.
struct TransformDelta {
  double distance = 0.0;
  double degrees = 0.0;
  double scale = 0.0;
};

struct JointPair {
  int32_t a = -1;  // joint of A
  int32_t b = -1;  // joint of B
};

struct MovedJoint {
  int32_t a = -1, b = -1;
  TransformDelta rest;  // local rest transforms
  TransformDelta bind;  // model-space bind transforms (inverse of the inverse bind matrices)
};

struct MeshPair {
  int32_t a = -1, b = -1;    // mesh indices
  bool by_position = false;  // vertex counts differ: matched by nearest rest position
  uint32_t vertices_a = 0, vertices_b = 0;
  double farthest_match = 0.0;  // by position: the largest distance from a vertex to its match
  uint64_t changed = 0;         // vertices whose weights changed (over the tolerance)
  double max_change = 0.0;      // largest L1 change in this mesh
  uint32_t max_vertex = 0;      // where (A's vertex, the mesh's order)
};

struct TrackDifference {
  int32_t a = -1, b = -1;  // the matched joints
  TrackPath path = TrackPath::Translation;
  bool keyed_a = false, keyed_b = false;
  std::size_t keys_a = 0, keys_b = 0;
  bool times_differ = false;  // key counts or any key time (beyond CompareTolerances::seconds)
  // Largest difference of the sampled values at the key times of either side: model units
  // (translation), degrees (rotation), per-axis absolute (scale).
  double max_value = 0.0;
};

struct ClipDifference {
  std::string name;
  int32_t a = -1, b = -1;  // clip indices
  double duration_a = 0.0, duration_b = 0.0;
  std::size_t keys_a = 0, keys_b = 0;   // ClipRuntime::keys
  std::vector<TrackDifference> tracks;  // only those that differ
};

// What one comparison may cost, in counts. The defaults hold any two models within the importer's
// limits (io/import.h: 2^25 vertices and 2^24 keys a model) in vertices and keys, and refuse the
// quadratic cases a hostile file can make: thousands of joints without namesakes on both sides,
// thousands of clips over tens of thousands of joints, points that defeat the search tree.
struct CompareBudget {
  // Renames: A's joints without a namesake in B x B's without one in A (each pair is a candidate).
  uint64_t joint_pairs = uint64_t{1} << 24;
  // Weights: the vertices of A and of B in the meshes paired (each is indexed or searched once).
  uint64_t vertices = uint64_t{1} << 26;
  // Nearest-position matching (vertex counts differ): search-tree nodes visited, per mesh pair at
  // most this many per vertex of A plus the slack. A well-spread mesh needs a few dozen.
  uint64_t search_steps_per_vertex = 256;
  uint64_t search_step_slack = uint64_t{1} << 16;
  // Clips paired by name: the joints of both clips of each pair (every joint's three tracks are
  // looked at), and the keys of both (ClipRuntime::keys: each key time is sampled on both sides).
  uint64_t clip_joints = uint64_t{1} << 26;
  uint64_t clip_keys = uint64_t{1} << 26;
};

enum class CompareStatus : uint8_t {
  Done,
  Cancelled,  // `cancel` was set: no figures
  TooLarge,   // over a CompareBudget count: no figures, RigComparison::problem says which
};

struct RigComparison {
  CompareStatus status = CompareStatus::Done;
  // Not Done: one line, "comparison cancelled" or "comparison too large: N ... over the budget of
  // M" (the count that was over, and what it counts). Every figure below is then empty or zero.
  std::string problem;
  CompareTolerances tolerances;
  double model_size = 0.0;  // of A: what `tolerances.translation` is a fraction of
  // Joints.
  std::vector<int32_t> b_of_a;  // per joint of A: its joint in B, or -1 (removed)
  std::vector<JointPair> renamed;
  std::vector<int32_t> removed;  // joints of A
  std::vector<int32_t> added;    // joints of B
  std::vector<MovedJoint> moved;
  // Meshes and weights.
  std::vector<MeshPair> meshes;
  std::vector<int32_t> meshes_removed;  // of A
  std::vector<int32_t> meshes_added;    // of B
  // Per mesh of A, per vertex (the mesh's order): the L1 weight change, -1 where the mesh has no
  // counterpart in B.
  std::vector<std::vector<float>> change;
  uint64_t vertices_compared = 0;
  uint64_t vertices_changed = 0;
  double max_change = 0.0;
  int32_t max_mesh = -1;  // where the largest change is (-1: none compared)
  uint32_t max_vertex = 0;
  // Clips.
  std::vector<std::string> clips_removed;  // A's names
  std::vector<std::string> clips_added;    // B's
  std::vector<ClipDifference> clips_changed;
  std::size_t clips_same = 0;

  bool any_difference() const noexcept;
  double translation_tolerance() const noexcept;  // model units
};

// The difference between two transforms (see TransformDelta).
TransformDelta transform_delta(const Transform& a, const Transform& b) noexcept;

// Compares A against B within `budget`; `cancel` (may be null) is polled in every loop, so a
// caller on another thread can stop it (the window's "Compare with...", app/viewer_scene.h).
// Both models must be valid (Model::validate()).
RigComparison compare_rigs(const Model& a, const Model& b, const CompareTolerances& tolerances = {},
                           const CompareBudget& budget = {},
                           const std::atomic<bool>* cancel = nullptr);

}  // namespace sv
