// DQS and CoR over the compact streams (skin_compact, skinning.h; the layout: compact_streams.h).
//
// The scalar loop is skinning_methods.cpp's per-vertex maths (method_vertex.h, one function for
// both) on the decoded vertex (joints widened, w3 = fourth_weight, the normal's code decoded by
// oct_decode_raw), with the output normal written as oct_encode of the rotated normal: the code
// keeps only a direction, so the loop normalises nothing (no square root per vertex for the
// normal). skin.vert's compact method path (skin_method_compact) is this loop written in GLSL in
// the same order with `precise`, so the GPU path's positions and normal codes equal this loop's
// (tests/gfx/compact_gl_test.cpp). Built alone with -ffp-contract=off (skin/CMakeLists.txt): a
// -march=native or -mfma build would otherwise fuse its products, and the GPU's would not be.
//
// The vector path (AVX2) is compact_methods_avx2.cpp.
#include "skin/method_vertex.h"
#include "skin/skinning_kernels.h"

namespace sv::detail {
namespace {

// The vertex's joints, either width.
glm::u16vec4 compact_joints_at(const CompactSkinInput& in, std::size_t v) noexcept {
  if (!in.joints8.empty()) return glm::u16vec4(in.joints8[v]);
  return in.joints16[v];
}

glm::vec4 compact_weights_at(const CompactSkinInput& in, std::size_t v) noexcept {
  const glm::vec3 w = in.weights[v];
  return {w, fourth_weight(w)};
}

}  // namespace

void skin_range_compact_method_scalar(const CompactMethodJob& job, std::size_t begin,
                                      std::size_t end) noexcept {
  const CompactSkinInput& in = *job.in;
  const bool cor = job.method == SkinMethod::Cor;
  const glm::vec3* centers = in.centers.data();  // read for CoR only
  for (std::size_t v = begin; v < end; ++v)
    method_vertex4(job.method_palette, job.palette, centers, cor, v, compact_joints_at(in, v),
                   compact_weights_at(in, v), in.positions.data(), &job.out_positions[v],
                   [&](auto skin_normal) {
                     if (job.out_normals != nullptr)
                       job.out_normals[v] = oct_encode(skin_normal(oct_decode_raw(in.normals[v])));
                   });
}

}  // namespace sv::detail
