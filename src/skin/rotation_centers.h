// Optimised centres of rotation (Le & Hodgins 2016, section 4): the per-vertex point that CoR
// skinning (skin_method.h) rotates each vertex about, computed once per model from the rest mesh
// and the skin weights, never per frame.
//
// The centre of vertex i is the average of the rest surface weighted by how alike its skin
// weights are to vertex i's:
//
//     p*_i = sum_t s(w_i, w_t) a_t c_t / sum_t s(w_i, w_t) a_t
//     s(w_p, w_v) = sum_{j != k} w_pj w_pk w_vj w_vk exp(-(w_pj w_vk - w_pk w_vj)^2 / sigma^2)
//
// over the triangles t of the mesh (area a_t, centroid c_t, w_t the mean of its corners'
// weights), sigma = 0.1. As in the paper, triangles whose corners' weights differ by more than
// epsilon = 0.1 (Euclidean distance of the weight vectors) are subdivided (midpoints, weights
// interpolated) for the sum only, so a coarse mesh across a sharp weight change integrates as a
// fine one would; subdivision stops at kMaxSubdivision levels.
//
// Cost. Done naively the sum is vertices x triangles. s is zero unless both weight vectors have
// at least two joints in common, and it is a sum over joint pairs, so each triangle is filed once
// per pair (j, k) of its joints and each vertex visits only the lists of its own pairs (a
// character's vertex: 1-6 pairs, each list the triangles where those two joints blend). Vertices
// with identical weights share one centre. The inner loop over a list is plain arithmetic on flat
// arrays with a polynomial exp, split over threads. A vertex with one joint has no similar
// triangle (every term has two of its joints); any centre gives the same result for it (CoR of a
// single bone is that bone's transform), and its own position is used.
//
// Where the paper's GPU implementation clusters nothing we do not either: the result is the
// paper's formula evaluated exactly (up to float rounding in the sums), which the test suite
// checks against a plain double loop over every (vertex, triangle) pair.
//
// Budget. The work is the terms summed: over the distinct weight vectors, the lengths of their
// pairs' lists. It is about vertices x triangles where one joint pair blends over the whole mesh
// (a hostile or odd file: two joints, a million vertices), so it is bounded in counts: above
// `work` terms (kCorWork, about 4 s on one core here) each list is coarsened by merging runs of
// `merge` consecutive elements (filed in triangle order, so neighbours on the surface) into one,
// keeping the run's total area, its area-weighted centroid and area-weighted mean weights: the
// sums' zeroth and first moments over a run are exact and only the similarity inside a run is
// averaged. CenterProgress::merge says the factor used (1: exact), which the window shows.
// The elements filed are bounded too (kCorElements, 24 bytes each): a mesh whose subdivided
// elements would not fit is subdivided less deeply (CenterProgress::depth says how deep), and
// one whose triangles alone would not (many joints blending on every triangle) is refused, so
// CoR draws LBS and says why.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include <glm/gtc/type_precision.hpp>
#include <glm/vec3.hpp>
#include <glm/vec4.hpp>

namespace sv {

struct Model;

inline constexpr float kCorSigma = 0.1f;
inline constexpr float kCorEpsilon = 0.1f;
inline constexpr int kMaxSubdivision = 4;
inline constexpr uint64_t kCorWork = uint64_t{1} << 30;            // terms per mesh, see "Budget"
inline constexpr std::size_t kCorElements = std::size_t{1} << 23;  // filed elements per mesh

// One mesh's rest surface and weights (bind space, as stored). joints2/weights2: a vertex's
// 5th-8th influences when the mesh keeps them (8 influences); empty for 4.
struct CenterInput {
  std::span<const glm::vec3> positions;
  std::span<const uint32_t> indices;  // triangles
  std::span<const glm::u16vec4> joints;
  std::span<const glm::vec4> weights;
  std::span<const glm::u16vec4> joints2;
  std::span<const glm::vec4> weights2;
};

// Shared with the thread that waits for the result: how far it is, and a request to stop.
struct CenterProgress {
  std::atomic<uint64_t> done{0};   // vertices whose centre is known (of all meshes)
  std::atomic<uint64_t> total{0};  // vertices to do (set before any is done)
  std::atomic<bool> cancel{false};
  std::atomic<uint32_t> merge{1};           // the largest run merged by the budget (1: exact)
  std::atomic<int> depth{kMaxSubdivision};  // the shallowest subdivision the budget allowed
};

// The centre of every vertex of one mesh into `out` (the vertex count). False when the sizes do
// not fit or `progress->cancel` was set (out then partly written). `threads` 0: one per core.
// Allocates (the pair lists); meant for a worker thread, not the frame.
// `work`, `elements`: the budgets in terms and filed elements (see "Budget").
bool compute_rotation_centers(const CenterInput& in, std::span<glm::vec3> out,
                              CenterProgress* progress = nullptr, unsigned threads = 0,
                              uint64_t work = kCorWork, std::size_t elements = kCorElements);

// Every mesh of `model` (4 influences, or 8 where a mesh keeps them and `eight` is set): one
// vector per mesh. Empty when cancelled.
std::vector<std::vector<glm::vec3>> compute_rotation_centers(const Model& model, bool eight,
                                                             CenterProgress* progress = nullptr,
                                                             unsigned threads = 0);

}  // namespace sv
