#include "skin/weight_stats.h"

#include <algorithm>
#include <cmath>

#include "anim/model.h"

namespace sv {

WeightStats compute_weight_stats(const Model& model) {
  WeightStats s;
  for (const Mesh& mesh : model.meshes) {
    const std::size_t n = mesh.vertex_count();
    s.vertices += n;
    s.max_influences = std::max(s.max_influences, mesh.max_influences);
    for (std::size_t v = 0; v < n; ++v) {
      const uint8_t flags = v < mesh.vertex_flags.size() ? mesh.vertex_flags[v] : 0;
      const glm::vec4 w = v < mesh.weights.size() ? mesh.weights[v] : glm::vec4(1, 0, 0, 0);
      int kept = 0;
      for (int i = 0; i < 4; ++i) kept += w[i] > 0.0f ? 1 : 0;
      if ((flags & kVertexTruncated) != 0) {
        ++s.truncated;
        const float cut = v < mesh.cut_weights.size() ? mesh.cut_weights[v] : 0.0f;
        s.largest_cut = std::max(s.largest_cut, cut);
        if ((flags & kVertexOver8) != 0) ++s.truncated_over_8;
      } else if (kept >= 1) {
        ++s.influences[static_cast<std::size_t>(kept - 1)];
      }
      if ((flags & kVertexUnweighted) != 0) {
        ++s.unweighted;
        continue;
      }
      if ((flags & kVertexRenormalised) != 0) ++s.renormalised;
      const float sum = v < mesh.source_weight_sums.size() ? mesh.source_weight_sums[v] : 1.0f;
      const float error = std::abs(sum - 1.0f);
      if (error > kWeightSumTolerance) ++s.sum_off;
      if (error > s.largest_sum_error) {
        s.largest_sum_error = error;
        s.largest_error_sum = sum;
      }
    }
  }
  return s;
}

}  // namespace sv
