#include "skin/skinning.h"

#include <algorithm>
#include <atomic>
#include <cmath>

#include "anim/worker_pool.h"
#include "skin/skinning_kernels.h"

namespace sv {

using detail::PackedBone;
using detail::SkinJob;

namespace {

// Checks every size and joint index up front, so the kernels never test anything.
bool fits(SkinMethod method, const SkinPalettes& pal, const SkinInput& in,
          std::span<glm::vec3> out_positions, std::span<glm::vec3> out_normals) noexcept {
  const std::size_t n = in.positions.size();
  const bool with_normals = !in.normals.empty();
  if (in.joints.size() != n || in.weights.size() != n || out_positions.size() != n) return false;
  if (with_normals && (in.normals.size() != n || out_normals.size() != n)) return false;
  if (in.joints2.size() != in.weights2.size() || (!in.joints2.empty() && in.joints2.size() != n))
    return false;
  // The number of bones the method reads per joint index.
  std::size_t bones = pal.palette.size();
  switch (method) {
    case SkinMethod::Lbs:
      if (with_normals && pal.normal_palette.size() != bones) return false;
      break;
    case SkinMethod::Dqs:
      if (!pal.palette.empty() && pal.method.size() != bones) return false;
      bones = pal.method.size();
      break;
    case SkinMethod::Cor:
      if (pal.method.size() != bones || in.centers.size() != n) return false;
      break;
  }
  if (n == 0) return true;
  int32_t max_joint = in.max_joint;
  if (max_joint < 0) {
    uint16_t m = 0;
    for (const glm::u16vec4& j : in.joints) m = std::max({m, j.x, j.y, j.z, j.w});
    for (const glm::u16vec4& j : in.joints2) m = std::max({m, j.x, j.y, j.z, j.w});
    max_joint = m;
  }
  return static_cast<std::size_t>(max_joint) < bones;
}

SkinJob make_job(SkinMethod method, const SkinPalettes& pal, const SkinInput& in,
                 std::span<glm::vec3> out_positions, std::span<glm::vec3> out_normals) noexcept {
  const bool with_normals = !in.normals.empty();
  SkinJob job{pal.palette.data(),
              with_normals && method == SkinMethod::Lbs ? pal.normal_palette.data() : nullptr, &in,
              out_positions.data(), with_normals ? out_normals.data() : nullptr};
  job.method = method;
  job.method_palette = method == SkinMethod::Lbs ? nullptr : pal.method.data();
  job.centers = method == SkinMethod::Cor ? in.centers.data() : nullptr;
  return job;
}

SkinPalettes lbs_palettes(std::span<const glm::mat4> palette,
                          std::span<const glm::mat3> normal_palette) noexcept {
  SkinPalettes p;
  p.palette = palette;
  p.normal_palette = normal_palette;
  return p;
}

bool cpu_has(SkinIsa isa) noexcept {
#if defined(__x86_64__) || defined(__i386__)
  switch (isa) {
    case SkinIsa::Avx512: {
      static const bool avx512 = __builtin_cpu_supports("avx512f") &&
                                 __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
      return avx512;
    }
    case SkinIsa::Avx2Fma: {
      static const bool avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
      return avx2;
    }
    case SkinIsa::Sse2:
      return true;  // x86-64 baseline (and every x86 this builds for in practice)
    default:
      return isa == SkinIsa::Scalar;
  }
#else
  return isa == SkinIsa::Scalar;
#endif
}

// The instruction set to use: the one asked for or the best the CPU has below it.
SkinIsa resolve(SkinIsa isa, std::size_t bones) noexcept {
  if (bones > kSkinMaxSimdBones) return SkinIsa::Scalar;
  if (isa == SkinIsa::Auto) isa = SkinIsa::Avx512;
  if (isa == SkinIsa::Avx512 && !cpu_has(SkinIsa::Avx512)) isa = SkinIsa::Avx2Fma;
  if (isa == SkinIsa::Avx2Fma && !cpu_has(SkinIsa::Avx2Fma)) isa = SkinIsa::Sse2;
  if (isa == SkinIsa::Sse2 && !cpu_has(SkinIsa::Sse2)) isa = SkinIsa::Scalar;
  return isa;
}

// A checked job, the palette repacked for the SIMD kernels when one is used.
struct Prepared {
  SkinJob job;
  SkinIsa isa;
  const PackedBone* packed;
  bool eight = false;  // a second set of influences: the 8-influence kernels
};

void run_range(const Prepared& p, std::size_t begin, std::size_t end) noexcept {
  if (p.eight) {
    switch (p.isa) {
#if defined(__x86_64__) || defined(__i386__)
      case SkinIsa::Avx512:
        detail::skin_range_avx512_8(p.job, p.packed, begin, end);
        return;
      case SkinIsa::Avx2Fma:
        detail::skin_range_avx2_8(p.job, p.packed, begin, end);
        return;
#endif
      default:
        detail::skin_range8(p.job, begin, end);
        return;
    }
  }
  const bool lbs = p.job.method == SkinMethod::Lbs;
  switch (p.isa) {
#if defined(__x86_64__) || defined(__i386__)
    case SkinIsa::Avx512:
      if (lbs)
        detail::skin_range_avx512(p.job, p.packed, begin, end);
      else
        detail::skin_range_avx512_method(p.job, p.packed, begin, end);
      return;
    case SkinIsa::Avx2Fma:
      if (lbs)
        detail::skin_range_avx2_runs(p.job, p.packed, begin, end);
      else
        detail::skin_range_avx2_method(p.job, p.packed, begin, end);
      return;
    case SkinIsa::Sse2:
      if (lbs) {
        detail::skin_range_sse2(p.job, p.packed, begin, end);
        return;
      }
      break;
#endif
    default:
      break;
  }
  if (lbs)
    detail::skin_range_scalar(p.job, begin, end);
  else
    detail::skin_range_method_scalar(p.job, begin, end);
}

// Vertices per chunk of a split job: 16384 vertices move ~1.2 MB (fits the L2 of the core
// that takes it), take ~0.1 ms, and cost one atomic add. A multiple of 64, so chunks start on
// the same 4-vertex batches as one thread does (results stay identical to skin_lbs's) and no
// two threads write the same output cache line except at chunk ends.
constexpr std::size_t kSkinChunk = 16384;

template <class P>
struct ParallelJob {
  const P* prepared;
  std::size_t count;
  std::atomic<std::size_t> next{0};  // first vertex of the next chunk nobody has taken
};

// Every participant takes chunks until none is left, so a thread that starts late (a worker
// still waking, or descheduled on a busy machine) takes fewer and the caller does not wait on
// a fixed half.
template <class P>
void run_part(void* context, unsigned /*part*/, unsigned /*parts*/) noexcept {
  ParallelJob<P>& p = *static_cast<ParallelJob<P>*>(context);
  for (;;) {
    const std::size_t begin = p.next.fetch_add(kSkinChunk, std::memory_order_relaxed);
    if (begin >= p.count) return;
    run_range(*p.prepared, begin, std::min(p.count, begin + kSkinChunk));
  }
}

// Runs p over `count` vertices on the caller's thread or, past one chunk, over `pool`'s.
// One chunk or less: waking a worker that would find nothing to take costs more than the job
// (the caller waits for it to check in; ~0.1 ms for the default asset's 10,611 vertices when
// the other core is busy, against ~0.03 ms of skinning).
template <class P>
void run_split(WorkerPool& pool, const P& p, std::size_t count) noexcept {
  if (count <= kSkinChunk) {
    run_range(p, 0, count);
    return;
  }
  ParallelJob<P> job{&p, count, {}};
  job.next.store(0, std::memory_order_relaxed);
  pool.run(&run_part<P>, &job);
}

// ---- Compact streams: LBS, DQS and CoR ----

// A checked compact job, the palette (LBS) or the method palette (DQS, CoR) repacked for the
// SIMD kernels when one is used. `lbs` or `method_job` is the job, as `method` says.
struct CompactPrepared {
  SkinMethod method = SkinMethod::Lbs;
  detail::CompactJob lbs{};
  detail::CompactMethodJob method_job{};
  SkinIsa isa;
  const PackedBone* packed;
};

void run_range(const CompactPrepared& p, std::size_t begin, std::size_t end) noexcept {
  if (p.method == SkinMethod::Lbs) {
    switch (p.isa) {
#if defined(__x86_64__) || defined(__i386__)
      case SkinIsa::Avx512:
        detail::skin_range_avx512_compact(p.lbs, p.packed, begin, end);
        return;
      case SkinIsa::Avx2Fma:
        detail::skin_range_avx2_compact(p.lbs, p.packed, begin, end);
        return;
#endif
      default:
        detail::skin_range_compact_scalar(p.lbs, begin, end);
        return;
    }
  }
  switch (p.isa) {
#if defined(__x86_64__) || defined(__i386__)
    case SkinIsa::Avx512:  // AVX2's 8 lanes (no 16-lane compact DQS/CoR kernel yet)
    case SkinIsa::Avx2Fma:
      detail::skin_range_avx2_compact_method(p.method_job, p.packed, begin, end);
      return;
#endif
    default:
      detail::skin_range_compact_method_scalar(p.method_job, begin, end);
      return;
  }
}

// The checks of fits() for compact streams: the streams' sizes, the method's palettes (LBS: the
// palette, and the normal palette with normals; DQS: the method palette, any palette given
// matching it; CoR: both, and the centres) and the largest joint. Then the job, the kernel (u16
// joints and SSE2 take the scalar loop) and the packed palette.
bool prepare_compact(SkinIsa isa, SkinMethod method, const SkinPalettes& pal,
                     const CompactSkinInput& in, std::span<glm::vec3> out_positions,
                     std::span<uint32_t> out_normals, PackedBone* packed,
                     CompactPrepared& out) noexcept {
  const std::size_t n = in.positions.size();
  const bool with_normals = !in.normals.empty();
  const bool narrow = !in.joints8.empty();
  if ((narrow ? in.joints8.size() : in.joints16.size()) != n || in.weights.size() != n ||
      out_positions.size() != n || (narrow && !in.joints16.empty()))
    return false;
  if (with_normals && (in.normals.size() != n || out_normals.size() != n)) return false;
  const bool lbs = method == SkinMethod::Lbs;
  const bool cor = method == SkinMethod::Cor;
  if (lbs) {
    if (with_normals && pal.normal_palette.size() != pal.palette.size()) return false;
  } else {
    // DQS reads the method palette only (any palette given must match it); CoR both, and
    // centres.
    if ((!pal.palette.empty() || cor) && pal.method.size() != pal.palette.size()) return false;
    if (cor && in.centers.size() != n) return false;
  }
  // The number of bones the method reads per joint index.
  const std::size_t bones = lbs ? pal.palette.size() : pal.method.size();
  if (n != 0) {
    int32_t max_joint = in.max_joint;
    if (max_joint < 0) {
      uint16_t m = 0;
      for (const glm::u8vec4& j : in.joints8) m = std::max<uint16_t>({m, j.x, j.y, j.z, j.w});
      for (const glm::u16vec4& j : in.joints16) m = std::max({m, j.x, j.y, j.z, j.w});
      max_joint = m;
    }
    if (static_cast<std::size_t>(max_joint) >= bones) return false;
  }
  out.method = method;
  uint32_t* normals_out = with_normals ? out_normals.data() : nullptr;
  if (lbs)
    out.lbs =
        detail::CompactJob{pal.palette.data(), with_normals ? pal.normal_palette.data() : nullptr,
                           &in, out_positions.data(), normals_out};
  else
    out.method_job = detail::CompactMethodJob{cor ? pal.palette.data() : nullptr,
                                              pal.method.data(),
                                              &in,
                                              out_positions.data(),
                                              normals_out,
                                              method};
  out.isa = resolve(isa, bones);
  if (!narrow || out.isa == SkinIsa::Sse2) out.isa = SkinIsa::Scalar;
  out.packed = nullptr;
  if (out.isa != SkinIsa::Scalar && n != 0) {
    if (lbs)
      detail::pack_palette(out.lbs.palette, out.lbs.normal_palette, bones, packed);
    else
      detail::pack_method(out.method_job.palette, out.method_job.method_palette, bones, packed);
    out.packed = packed;
  }
  return true;
}

// Checks, picks the kernel and repacks the palette into `packed` (kSkinMaxSimdBones entries,
// on the caller's stack) when a SIMD kernel is picked. False when the input does not fit.
bool prepare(SkinIsa isa, SkinMethod method, const SkinPalettes& pal, const SkinInput& in,
             std::span<glm::vec3> out_positions, std::span<glm::vec3> out_normals,
             PackedBone* packed, Prepared& out) noexcept {
  if (!fits(method, pal, in, out_positions, out_normals)) return false;
  out.job = make_job(method, pal, in, out_positions, out_normals);
  const std::size_t bones = method == SkinMethod::Dqs ? pal.method.size() : pal.palette.size();
  out.isa = resolve(isa, bones);
  out.eight = !in.joints2.empty();
  // DQS and CoR, and 8 influences, have no SSE2 kernel: the per-vertex loops (skin_range8 for 8)
  // need no packed palette.
  if ((method != SkinMethod::Lbs || out.eight) && out.isa == SkinIsa::Sse2)
    out.isa = SkinIsa::Scalar;
  out.packed = nullptr;
  if (out.isa != SkinIsa::Scalar && !in.positions.empty()) {
    if (method == SkinMethod::Lbs)
      detail::pack_palette(out.job.palette, out.job.normal_palette, bones, packed);
    else
      detail::pack_method(method == SkinMethod::Cor ? out.job.palette : nullptr,
                          out.job.method_palette, bones, packed);
    out.packed = packed;
  }
  return true;
}

}  // namespace

namespace detail {

// The reference loop: blend the 4 palette matrices, transform once.
void skin_range_scalar(const SkinJob& job, std::size_t begin, std::size_t end) noexcept {
  const SkinInput& in = *job.in;
  const bool normals = job.out_normals != nullptr;
  for (std::size_t v = begin; v < end; ++v) {
    const glm::u16vec4 jv = in.joints[v];
    const std::size_t j[4] = {jv.x, jv.y, jv.z, jv.w};
    glm::vec3 r;
    job.out_positions[v] =
        detail::lbs_vertex(job.palette, normals ? job.normal_palette : nullptr, j, in.weights[v],
                           in.positions[v], normals ? in.normals[v] : glm::vec3(0.0f), &r);
    if (!normals) continue;
    const float len2 = glm::dot(r, r);
    // A degenerate blend (opposite normals, zero-scaled joints) has no direction: write zero
    // rather than NaN.
    job.out_normals[v] = len2 > 0.0f ? r * (1.0f / std::sqrt(len2)) : glm::vec3(0.0f);
  }
}

void pack_palette(const glm::mat4* palette, const glm::mat3* normal_palette, std::size_t count,
                  PackedBone* packed) noexcept {
  for (std::size_t b = 0; b < count; ++b) {
    float* f = packed[b].f;
    const glm::vec4& k3 = palette[b][3];
    for (int c = 0; c < 3; ++c) {
      const glm::vec4& k = palette[b][c];
      f[8 * c + 0] = k.x;
      f[8 * c + 1] = k.y;
      f[8 * c + 2] = k.z;
      f[8 * c + 3] = k3[c];
      const glm::vec3 n = normal_palette != nullptr ? normal_palette[b][c] : glm::vec3(0.0f);
      f[8 * c + 4] = n.x;
      f[8 * c + 5] = n.y;
      f[8 * c + 6] = n.z;
      f[8 * c + 7] = 0.0f;
    }
  }
}

}  // namespace detail

SkinIsa skin_best_isa() noexcept { return resolve(SkinIsa::Auto, 0); }

const char* skin_isa_name(SkinIsa isa) noexcept {
  switch (isa) {
    case SkinIsa::Auto:
      return "auto";
    case SkinIsa::Scalar:
      return "scalar";
    case SkinIsa::Sse2:
      return "sse2";
    case SkinIsa::Avx2Fma:
      return "avx2+fma";
    case SkinIsa::Avx512:
      return "avx512";
  }
  return "?";
}

bool skin_lbs_reference(std::span<const glm::mat4> palette,
                        std::span<const glm::mat3> normal_palette, const SkinInput& in,
                        std::span<glm::vec3> out_positions,
                        std::span<glm::vec3> out_normals) noexcept {
  const SkinPalettes pal = lbs_palettes(palette, normal_palette);
  if (!fits(SkinMethod::Lbs, pal, in, out_positions, out_normals)) return false;
  detail::skin_range_scalar(make_job(SkinMethod::Lbs, pal, in, out_positions, out_normals), 0,
                            in.positions.size());
  return true;
}

bool skin_isa(SkinIsa isa, SkinMethod method, const SkinPalettes& palettes, const SkinInput& in,
              std::span<glm::vec3> out_positions, std::span<glm::vec3> out_normals) noexcept {
  PackedBone packed[kSkinMaxSimdBones];
  Prepared p;
  if (!prepare(isa, method, palettes, in, out_positions, out_normals, packed, p)) return false;
  run_range(p, 0, in.positions.size());
  return true;
}

bool skin(SkinMethod method, const SkinPalettes& palettes, const SkinInput& in,
          std::span<glm::vec3> out_positions, std::span<glm::vec3> out_normals) noexcept {
  return skin_isa(SkinIsa::Auto, method, palettes, in, out_positions, out_normals);
}

bool skin_parallel(WorkerPool& pool, SkinMethod method, const SkinPalettes& palettes,
                   const SkinInput& in, std::span<glm::vec3> out_positions,
                   std::span<glm::vec3> out_normals) noexcept {
  PackedBone packed[kSkinMaxSimdBones];
  Prepared p;
  if (!prepare(SkinIsa::Auto, method, palettes, in, out_positions, out_normals, packed, p))
    return false;
  run_split(pool, p, in.positions.size());
  return true;
}

bool skin_lbs_compact_isa(SkinIsa isa, std::span<const glm::mat4> palette,
                          std::span<const glm::mat3> normal_palette, const CompactSkinInput& in,
                          std::span<glm::vec3> out_positions,
                          std::span<uint32_t> out_normals) noexcept {
  return skin_compact_isa(isa, SkinMethod::Lbs, lbs_palettes(palette, normal_palette), in,
                          out_positions, out_normals);
}

bool skin_lbs_compact(std::span<const glm::mat4> palette, std::span<const glm::mat3> normal_palette,
                      const CompactSkinInput& in, std::span<glm::vec3> out_positions,
                      std::span<uint32_t> out_normals) noexcept {
  return skin_lbs_compact_isa(SkinIsa::Auto, palette, normal_palette, in, out_positions,
                              out_normals);
}

bool skin_lbs_compact_parallel(WorkerPool& pool, std::span<const glm::mat4> palette,
                               std::span<const glm::mat3> normal_palette,
                               const CompactSkinInput& in, std::span<glm::vec3> out_positions,
                               std::span<uint32_t> out_normals) noexcept {
  return skin_compact_parallel(pool, SkinMethod::Lbs, lbs_palettes(palette, normal_palette), in,
                               out_positions, out_normals);
}

bool skin_lbs_compact_reference(std::span<const glm::mat4> palette,
                                std::span<const glm::mat3> normal_palette,
                                const CompactSkinInput& in, std::span<glm::vec3> out_positions,
                                std::span<uint32_t> out_normals) noexcept {
  return skin_lbs_compact_isa(SkinIsa::Scalar, palette, normal_palette, in, out_positions,
                              out_normals);
}

bool skin_compact_isa(SkinIsa isa, SkinMethod method, const SkinPalettes& palettes,
                      const CompactSkinInput& in, std::span<glm::vec3> out_positions,
                      std::span<uint32_t> out_normals) noexcept {
  PackedBone packed[kSkinMaxSimdBones];
  CompactPrepared p;
  if (!prepare_compact(isa, method, palettes, in, out_positions, out_normals, packed, p))
    return false;
  run_range(p, 0, in.positions.size());
  return true;
}

bool skin_compact(SkinMethod method, const SkinPalettes& palettes, const CompactSkinInput& in,
                  std::span<glm::vec3> out_positions, std::span<uint32_t> out_normals) noexcept {
  return skin_compact_isa(SkinIsa::Auto, method, palettes, in, out_positions, out_normals);
}

bool skin_compact_parallel(WorkerPool& pool, SkinMethod method, const SkinPalettes& palettes,
                           const CompactSkinInput& in, std::span<glm::vec3> out_positions,
                           std::span<uint32_t> out_normals) noexcept {
  PackedBone packed[kSkinMaxSimdBones];
  CompactPrepared p;
  if (!prepare_compact(SkinIsa::Auto, method, palettes, in, out_positions, out_normals, packed, p))
    return false;
  run_split(pool, p, in.positions.size());
  return true;
}

bool skin_compact_reference(SkinMethod method, const SkinPalettes& palettes,
                            const CompactSkinInput& in, std::span<glm::vec3> out_positions,
                            std::span<uint32_t> out_normals) noexcept {
  return skin_compact_isa(SkinIsa::Scalar, method, palettes, in, out_positions, out_normals);
}

bool skin_lbs_isa(SkinIsa isa, std::span<const glm::mat4> palette,
                  std::span<const glm::mat3> normal_palette, const SkinInput& in,
                  std::span<glm::vec3> out_positions, std::span<glm::vec3> out_normals) noexcept {
  return skin_isa(isa, SkinMethod::Lbs, lbs_palettes(palette, normal_palette), in, out_positions,
                  out_normals);
}

// Normals need the normal palette only when there are normals to skin; a positions-only call
// may pass an empty normal palette.
bool skin_lbs(std::span<const glm::mat4> palette, std::span<const glm::mat3> normal_palette,
              const SkinInput& in, std::span<glm::vec3> out_positions,
              std::span<glm::vec3> out_normals) noexcept {
  return skin_isa(SkinIsa::Auto, SkinMethod::Lbs, lbs_palettes(palette, normal_palette), in,
                  out_positions, out_normals);
}

bool skin_lbs_parallel(WorkerPool& pool, std::span<const glm::mat4> palette,
                       std::span<const glm::mat3> normal_palette, const SkinInput& in,
                       std::span<glm::vec3> out_positions,
                       std::span<glm::vec3> out_normals) noexcept {
  return skin_parallel(pool, SkinMethod::Lbs, lbs_palettes(palette, normal_palette), in,
                       out_positions, out_normals);
}

}  // namespace sv
