// Weight statistics of a model: the numbers the debug views' legends print (how many vertices
// fall in each colour class), computed once when a model is loaded, never per frame.
//
// Classes, over every vertex of every mesh:
//  - influences: how many weights the vertex keeps after import (1 to 4), and apart from those
//    the vertices that had more than 4 in the file and were cut to their 4 largest
//    (kVertexTruncated), how many of those had more than 8, and the share of weight the 4-limit
//    cut from them (Mesh::cut_weights) — the influences view paints the same classes and that
//    share on a ramp (gfx/view_colors.h);
//  - weight sum: |s - 1| where s is the vertex's weights summed as the file stored them
//    (Mesh::source_weight_sums: before the 4-limit and renormalising). A vertex is "off" when
//    that exceeds kWeightSumTolerance; vertices with no weight at all (bound rigidly to their
//    mesh's node, kVertexUnweighted) are a class of their own and not counted as off;
// Per joint numbers (vertices weighed on, largest weight) are joint_influences() (anim/model.h).
// Pure: std only; nothing allocates.
#pragma once

#include <array>
#include <cstdint>

namespace sv {

struct Model;

// Above this a stored weight sum counts as off (and is coloured in the weight-sum view).
inline constexpr float kWeightSumTolerance = 1e-3f;
// Above this the importer renormalises a vertex's weights (and flags it kVertexRenormalised):
// tighter than the view's tolerance, so the import report can count more vertices than the
// weight-sum legend; both name their tolerance.
inline constexpr double kRenormaliseTolerance = 1e-4;

struct WeightStats {
  uint64_t vertices = 0;
  // influences[k]: vertices that keep k + 1 weights and were not cut (k = 0..3).
  std::array<uint64_t, 4> influences{};
  uint64_t truncated = 0;          // had more than 4 influences in the file: cut to 4 at import
  uint64_t truncated_over_8 = 0;   // of those, had more than 8: cut even with 8 influences
  float largest_cut = 0.0f;        // the largest share of a vertex's weight the 4-limit cuts
  uint32_t max_influences = 0;     // the most any vertex had in the file (Mesh::max_influences)
  uint64_t unweighted = 0;         // no weight in the file (also counted in influences[0])
  uint64_t sum_off = 0;            // weighted vertices whose stored sum is off 1 by > tolerance
  uint64_t renormalised = 0;       // weighted vertices the importer renormalised (the flag)
  float largest_sum_error = 0.0f;  // the largest |s - 1| over weighted vertices
  float largest_error_sum = 1.0f;  // the stored sum s at that vertex (e.g. 1.38 or 0.94)
};

// Counts every class over `model` (which should validate; out-of-range joints are skipped).
WeightStats compute_weight_stats(const Model& model);

}  // namespace sv
