// DQS and CoR one vertex at a time (method_vertex.h: the formulas of skin_method.h in glm
// floats), for vertices in runs too short for the lane kernels and for CPUs without AVX2; and the
// packing of the method palette for the lane kernels (skinning_kernels.h). Built alone with
// -ffp-contract=off (skin/CMakeLists.txt), as method_vertex.h asks.
#include "skin/method_vertex.h"
#include "skin/skinning_kernels.h"

namespace sv::detail {

void skin_range_method_scalar(const SkinJob& job, std::size_t begin, std::size_t end) noexcept {
  const SkinInput& in = *job.in;
  const bool cor = job.method == SkinMethod::Cor;
  for (std::size_t v = begin; v < end; ++v)
    method_vertex4(job.method_palette, job.palette, job.centers, cor, v, in.joints[v],
                   in.weights[v], in.positions.data(), &job.out_positions[v],
                   [&](auto skin_normal) {
                     if (job.out_normals != nullptr)
                       job.out_normals[v] = normalised(skin_normal(in.normals[v]));
                   });
}

void pack_method(const glm::mat4* palette, const MethodBone* method, std::size_t count,
                 PackedBone* packed) noexcept {
  for (std::size_t b = 0; b < count; ++b) {
    float* f = packed[b].f;
    const MethodBone& m = method[b];
    const glm::quat q[2] = {m.real, m.dual};
    for (int h = 0; h < 2; ++h) {
      f[4 * h + 0] = q[h].x;
      f[4 * h + 1] = q[h].y;
      f[4 * h + 2] = q[h].z;
      f[4 * h + 3] = q[h].w;
    }
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 3; ++c) f[kPackStretch + 3 * r + c] = m.stretch[c][r];
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 4; ++c) f[kPackK + 4 * r + c] = palette != nullptr ? palette[b][c][r] : 0;
    f[kPackScaled] = m.scaled != 0 ? 1.0f : 0.0f;
    f[30] = f[31] = 0.0f;
  }
}

}  // namespace sv::detail
