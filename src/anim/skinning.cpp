#include "anim/skinning.h"

#include <algorithm>
#include <cmath>

#include "anim/worker_pool.h"

namespace sv {

namespace {

// Checks every size and joint index up front, so the kernels never test anything.
bool fits(std::span<const glm::mat4> palette, std::span<const glm::mat3> normal_palette,
          const SkinInput& in, std::span<glm::vec3> out_positions,
          std::span<glm::vec3> out_normals) noexcept {
  const std::size_t n = in.positions.size();
  const bool with_normals = !in.normals.empty();
  if (in.joints.size() != n || in.weights.size() != n || out_positions.size() != n) return false;
  if (with_normals && (in.normals.size() != n || out_normals.size() != n ||
                       normal_palette.size() != palette.size()))
    return false;
  if (n == 0) return true;
  int32_t max_joint = in.max_joint;
  if (max_joint < 0) {
    uint16_t m = 0;
    for (const glm::u16vec4& j : in.joints) m = std::max({m, j.x, j.y, j.z, j.w});
    max_joint = m;
  }
  return static_cast<std::size_t>(max_joint) < palette.size();
}

// Everything a kernel needs for vertices [begin, end), already checked.
struct SkinJob {
  const glm::mat4* palette;
  const glm::mat3* normal_palette;
  const SkinInput* in;
  glm::vec3* out_positions;
  glm::vec3* out_normals;  // null: positions only
};

// The reference loop: blend the 4 palette matrices, transform once.
void skin_range_scalar(const SkinJob& job, std::size_t begin, std::size_t end) noexcept {
  const glm::mat4* const k = job.palette;
  const glm::mat3* const nk = job.normal_palette;
  const SkinInput& in = *job.in;
  for (std::size_t v = begin; v < end; ++v) {
    const glm::u16vec4 j = in.joints[v];
    const glm::vec4 w = in.weights[v];
    // Blend the affine part (3 columns + translation; the bottom row is always 0,0,0,1).
    const glm::vec4 c0 = k[j.x][0] * w.x + k[j.y][0] * w.y + k[j.z][0] * w.z + k[j.w][0] * w.w;
    const glm::vec4 c1 = k[j.x][1] * w.x + k[j.y][1] * w.y + k[j.z][1] * w.z + k[j.w][1] * w.w;
    const glm::vec4 c2 = k[j.x][2] * w.x + k[j.y][2] * w.y + k[j.z][2] * w.z + k[j.w][2] * w.w;
    const glm::vec4 c3 = k[j.x][3] * w.x + k[j.y][3] * w.y + k[j.z][3] * w.z + k[j.w][3] * w.w;
    const glm::vec3 p = in.positions[v];
    job.out_positions[v] = glm::vec3(c0 * p.x + c1 * p.y + c2 * p.z + c3);
    if (job.out_normals == nullptr) continue;
    const glm::mat3 m = nk[j.x] * w.x + nk[j.y] * w.y + nk[j.z] * w.z + nk[j.w] * w.w;
    const glm::vec3 r = m * in.normals[v];
    const float len2 = glm::dot(r, r);
    // A degenerate blend (opposite normals, zero-scaled joints) has no direction: write zero
    // rather than NaN.
    job.out_normals[v] = len2 > 0.0f ? r * (1.0f / std::sqrt(len2)) : glm::vec3(0.0f);
  }
}

SkinJob make_job(std::span<const glm::mat4> palette, std::span<const glm::mat3> normal_palette,
                 const SkinInput& in, std::span<glm::vec3> out_positions,
                 std::span<glm::vec3> out_normals) noexcept {
  return {palette.data(), normal_palette.data(), &in, out_positions.data(),
          in.normals.empty() ? nullptr : out_normals.data()};
}

using RangeKernel = void (*)(const SkinJob&, std::size_t, std::size_t) noexcept;

RangeKernel best_kernel() noexcept { return &skin_range_scalar; }

struct ParallelJob {
  SkinJob job;
  RangeKernel kernel;
  std::size_t count;
};

// Parts get equal ranges rounded to 64 vertices, so no two threads share a cache line of
// output (except where the mesh is too small to split).
void run_part(void* context, unsigned part, unsigned parts) noexcept {
  const ParallelJob& p = *static_cast<const ParallelJob*>(context);
  const std::size_t chunk = ((p.count + parts - 1) / parts + 63) & ~std::size_t{63};
  const std::size_t begin = std::min(p.count, chunk * part);
  const std::size_t end = std::min(p.count, begin + chunk);
  if (begin < end) p.kernel(p.job, begin, end);
}

}  // namespace

bool skin_lbs_reference(std::span<const glm::mat4> palette,
                        std::span<const glm::mat3> normal_palette, const SkinInput& in,
                        std::span<glm::vec3> out_positions,
                        std::span<glm::vec3> out_normals) noexcept {
  if (!fits(palette, normal_palette, in, out_positions, out_normals)) return false;
  skin_range_scalar(make_job(palette, normal_palette, in, out_positions, out_normals), 0,
                    in.positions.size());
  return true;
}

// Normals need the normal palette only when there are normals to skin; a positions-only call
// may pass an empty normal palette.
bool skin_lbs(std::span<const glm::mat4> palette, std::span<const glm::mat3> normal_palette,
              const SkinInput& in, std::span<glm::vec3> out_positions,
              std::span<glm::vec3> out_normals) noexcept {
  if (!fits(palette, normal_palette, in, out_positions, out_normals)) return false;
  best_kernel()(make_job(palette, normal_palette, in, out_positions, out_normals), 0,
                in.positions.size());
  return true;
}

bool skin_lbs_parallel(WorkerPool& pool, std::span<const glm::mat4> palette,
                       std::span<const glm::mat3> normal_palette, const SkinInput& in,
                       std::span<glm::vec3> out_positions,
                       std::span<glm::vec3> out_normals) noexcept {
  if (!fits(palette, normal_palette, in, out_positions, out_normals)) return false;
  ParallelJob p{make_job(palette, normal_palette, in, out_positions, out_normals), best_kernel(),
                in.positions.size()};
  pool.run(&run_part, &p);
  return true;
}

}  // namespace sv
