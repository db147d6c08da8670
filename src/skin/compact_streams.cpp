#include "skin/compact_streams.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include <glm/geometric.hpp>

#include "anim/model.h"
#include "anim/worker_pool.h"
#include "skin/skinning_kernels.h"

namespace sv {

namespace {

float sign_of(float a) noexcept { return a >= 0.0f ? 1.0f : -1.0f; }

// The octahedral point (in [-1, 1]^2) of a vector of L1 norm 1, the lower half folded.
glm::vec2 fold(const glm::vec3& p) noexcept {
  if (p.z < 0.0f)
    return {(1.0f - std::fabs(p.y)) * sign_of(p.x), (1.0f - std::fabs(p.x)) * sign_of(p.y)};
  return {p.x, p.y};
}

uint32_t pack(int32_t qx, int32_t qy) noexcept {
  return (static_cast<uint32_t>(qx) & 0xffffu) | (static_cast<uint32_t>(qy) << 16);
}

// The decode of compact_streams.h, split so that oct_encode_best decodes each of its candidates'
// two x and two y codes once: the same float operations as oct_decode_raw, which is these two.
float decoded_coordinate(int16_t q) noexcept {
  return std::max(static_cast<float>(q) * kOctScale, -1.0f);
}
glm::vec3 decoded(float x, float y) noexcept {
  const float z = (1.0f - std::fabs(x)) - std::fabs(y);
  if (z < 0.0f) return {(1.0f - std::fabs(y)) * sign_of(x), (1.0f - std::fabs(x)) * sign_of(y), z};
  return {x, y, z};
}

// The L1-normalised vector, or false when n has no direction (see kOctMinL1).
bool l1_normalised(const glm::vec3& n, glm::vec3* out) noexcept {
  const float l1 = (std::fabs(n.x) + std::fabs(n.y)) + std::fabs(n.z);
  if (!(l1 >= kOctMinL1 && l1 <= 0x1.fffffep127f)) return false;
  const float inv = 1.0f / l1;
  *out = glm::vec3(n.x * inv, n.y * inv, n.z);
  return true;
}

}  // namespace

uint32_t oct_encode(const glm::vec3& n) noexcept {
  glm::vec3 p;
  if (!l1_normalised(n, &p)) return 0;
  const glm::vec2 f = fold(p);
  return pack(static_cast<int32_t>(std::nearbyint(f.x * 32767.0f)),
              static_cast<int32_t>(std::nearbyint(f.y * 32767.0f)));
}

uint32_t oct_encode_best(const glm::vec3& n) noexcept {
  glm::vec3 p;
  if (!l1_normalised(n, &p)) return 0;
  const glm::vec2 f = fold(p);
  const auto fx = static_cast<int32_t>(std::floor(f.x * 32767.0f));
  const auto fy = static_cast<int32_t>(std::floor(f.y * 32767.0f));
  // The 4 codes around f: 2 x codes by 2 y codes, each coordinate decoded once.
  int32_t qx[2], qy[2];
  float x[2], y[2];
  for (int32_t i = 0; i < 2; ++i) {
    qx[i] = std::clamp(fx + i, -32767, 32767);
    qy[i] = std::clamp(fy + i, -32767, 32767);
    x[i] = decoded_coordinate(static_cast<int16_t>(qx[i]));
    y[i] = decoded_coordinate(static_cast<int16_t>(qy[i]));
  }
  // The nearest direction has the largest cos^2 = (c.n)^2 / (|c|^2 |n|^2) with c.n > 0. |n| is
  // the same for every candidate, so the candidates compare by (c.n) |c.n| / |c|^2, cross-
  // multiplied: no square root and no division per candidate, and no branch but the pick (a
  // load encodes every normal of the model: BENCHMARKS.md, "the window on the compact streams"). In
  // double, the candidates' cos^2 (which differ by ~1e-10) are resolved; an exact tie (mirrored
  // codes) keeps the first, in the order (x0 y0) (x1 y0) (x0 y1) (x1 y1).
  const glm::dvec3 d(n);
  double num[4], den[4];
  for (int32_t k = 0; k < 4; ++k) {
    const glm::dvec3 c(decoded(x[k & 1], y[k >> 1]));
    const double dot = glm::dot(c, d);
    num[k] = dot * std::fabs(dot);
    den[k] = glm::dot(c, c);
  }
  int32_t best = 0;
  for (int32_t k = 1; k < 4; ++k) best = num[k] * den[best] > num[best] * den[k] ? k : best;
  return pack(qx[best & 1], qy[best >> 1]);
}

void oct_encode_best(std::span<const glm::vec3> normals, uint32_t* codes) noexcept {
#if defined(__x86_64__) || defined(__i386__)
  // Chosen once per call (skin_best_isa caches what the CPU has): Avx2Fma or Avx512.
  if (skin_best_isa() >= SkinIsa::Avx2Fma) {
    detail::oct_encode_best_avx2(normals.data(), codes, normals.size());
    return;
  }
#endif
  for (std::size_t v = 0; v < normals.size(); ++v) codes[v] = oct_encode_best(normals[v]);
}

glm::vec3 oct_decode_raw(uint32_t code) noexcept {
  return decoded(decoded_coordinate(static_cast<int16_t>(code & 0xffffu)),
                 decoded_coordinate(static_cast<int16_t>(code >> 16)));
}

glm::vec3 oct_decode(uint32_t code) noexcept { return glm::normalize(oct_decode_raw(code)); }

CompactSkinInput CompactStreams::input(std::span<const glm::vec3> positions) const noexcept {
  CompactSkinInput in;
  in.positions = positions;
  in.normals = normals;
  in.joints8 = joints8;
  in.joints16 = joints16;
  in.weights = weights;
  in.max_joint = max_joint;
  return in;
}

std::size_t CompactStreams::bytes_per_vertex(bool with_normals) const noexcept {
  const std::size_t joints = narrow_joints() ? 4 : 8;
  return 12 + joints + 12 + 12 + (with_normals ? 4 + 4 : 0);
}

namespace {

// One encoding job: the float streams and the compact ones, sized; encode_range fills a range.
struct EncodeJob {
  std::span<const glm::u16vec4> joints;
  std::span<const glm::vec4> weights;
  std::span<const glm::vec3> normals;
  CompactStreams* out = nullptr;
};

// Each stream is encoded over [begin, end) within its own size.
void encode_range(const EncodeJob& job, std::size_t begin, std::size_t end) noexcept {
  // sized_job made every stream owned: data() is then the elements, never a copy.
  CompactStreams& c = *job.out;
  const auto bounded = [&](std::size_t size) { return std::min(end, size); };
  // Sources, destinations and bounds in locals: the u8 stores may alias anything (char types),
  // and through `job` and `c` the loops would reload every pointer and bound after each store.
  const glm::u16vec4* joints = job.joints.data();
  const std::size_t joints_end = bounded(job.joints.size());
  if (c.narrow_joints()) {
    glm::u8vec4* j8 = c.joints8.data();
    for (std::size_t v = begin; v < joints_end; ++v) j8[v] = glm::u8vec4(joints[v]);
  } else if (begin < joints_end) {
    std::memcpy(c.joints16.data() + begin, joints + begin,
                (joints_end - begin) * sizeof(glm::u16vec4));
  }
  const glm::vec4* weights = job.weights.data();
  glm::vec3* w3 = c.weights.data();
  const std::size_t weights_end = bounded(job.weights.size());
  for (std::size_t v = begin; v < weights_end; ++v) {
    const glm::vec4& w = weights[v];
    w3[v] = glm::vec3(w.x, w.y, w.z);
  }
  const std::size_t normals_end = bounded(job.normals.size());
  if (begin < normals_end)
    oct_encode_best(job.normals.subspan(begin, normals_end - begin), c.normals.data() + begin);
}

// The most entries any stream of the job has.
std::size_t job_size(const EncodeJob& job) noexcept {
  return std::max({job.joints.size(), job.weights.size(), job.normals.size()});
}

// Sizes `c` for the job's streams (joints and weights: the vertex count; normals: theirs).
EncodeJob sized_job(std::span<const glm::u16vec4> joints, std::span<const glm::vec4> weights,
                    std::span<const glm::vec3> normals, int32_t max_joint, CompactStreams& c) {
  if (max_joint < 0) {
    uint16_t m = 0;
    for (const glm::u16vec4& j : joints) m = std::max({m, j.x, j.y, j.z, j.w});
    max_joint = m;
  }
  c.max_joint = max_joint;
  if (max_joint < 256)
    c.joints8.resize(joints.size());
  else
    c.joints16.resize(joints.size());
  c.weights.resize(weights.size());
  c.normals.resize(normals.size());
  return EncodeJob{joints, weights, normals, &c};
}

}  // namespace

CompactStreams encode_compact(std::span<const glm::u16vec4> joints,
                              std::span<const glm::vec4> weights,
                              std::span<const glm::vec3> normals, int32_t max_joint) {
  CompactStreams c;
  const EncodeJob job = sized_job(joints, weights, normals, max_joint, c);
  encode_range(job, 0, job_size(job));
  return c;
}

CompactStreams encode_compact(const Mesh& mesh) {
  return encode_compact(mesh.joints, mesh.weights, mesh.normals, mesh.max_joint);
}

std::vector<CompactStreams> encode_compact(const Model& model, WorkerPool* pool) {
  std::vector<CompactStreams> out(model.meshes.size());
  for (std::size_t m = 0; m < model.meshes.size(); ++m) {
    const Mesh& mesh = model.meshes[m];
    EncodeJob job = sized_job(mesh.joints, mesh.weights, mesh.normals, mesh.max_joint, out[m]);
    if (pool == nullptr || pool->size() < 2) {
      encode_range(job, 0, job_size(job));
      continue;
    }
    // Equal parts of the vertices, one per thread: every vertex costs the same.
    pool->run(
        [](void* context, unsigned part, unsigned parts) {
          const EncodeJob& j = *static_cast<const EncodeJob*>(context);
          const std::size_t n = job_size(j);
          encode_range(j, n * part / parts, n * (part + 1) / parts);
        },
        &job);
  }
  return out;
}

namespace detail {

namespace {

void joint_indices(const CompactSkinInput& in, std::size_t v, std::size_t j[4]) noexcept {
  if (!in.joints8.empty()) {
    const glm::u8vec4 a = in.joints8[v];
    j[0] = a.x, j[1] = a.y, j[2] = a.z, j[3] = a.w;
  } else {
    const glm::u16vec4 a = in.joints16[v];
    j[0] = a.x, j[1] = a.y, j[2] = a.z, j[3] = a.w;
  }
}

glm::vec4 weights_at(const CompactSkinInput& in, std::size_t v) noexcept {
  const glm::vec3 w = in.weights[v];
  return {w, fourth_weight(w)};
}

}  // namespace

void skin_range_compact_scalar(const CompactJob& job, std::size_t begin, std::size_t end) noexcept {
  const CompactSkinInput& in = *job.in;
  const bool normals = job.out_normals != nullptr;
  for (std::size_t v = begin; v < end; ++v) {
    std::size_t j[4];
    joint_indices(in, v, j);
    glm::vec3 r;
    job.out_positions[v] =
        lbs_vertex(job.palette, normals ? job.normal_palette : nullptr, j, weights_at(in, v),
                   in.positions[v], normals ? oct_decode_raw(in.normals[v]) : glm::vec3(0.0f), &r);
    if (normals) job.out_normals[v] = oct_encode(r);
  }
}

#if defined(__x86_64__) || defined(__i386__)
// Vertices of short runs: decoded 64 at a time into float streams on the stack, skinned by the
// per-vertex AVX2 kernel, their (unit) normals encoded. About 1.3x the float path's cost per
// vertex; the importer's layouts put most vertices in long runs.
void skin_range_compact_avx2_batches(const CompactJob& job, const PackedBone* packed,
                                     std::size_t begin, std::size_t end) noexcept {
  constexpr std::size_t kBatch = 64;
  const CompactSkinInput& in = *job.in;
  const bool normals = job.out_normals != nullptr;
  glm::u16vec4 joints[kBatch];
  glm::vec4 weights[kBatch];
  glm::vec3 nrm[kBatch], out_n[kBatch];
  for (std::size_t b = begin; b < end; b += kBatch) {
    const std::size_t m = std::min(kBatch, end - b);
    for (std::size_t i = 0; i < m; ++i) {
      std::size_t j[4];
      joint_indices(in, b + i, j);
      joints[i] = glm::u16vec4(j[0], j[1], j[2], j[3]);
      weights[i] = weights_at(in, b + i);
      if (normals) nrm[i] = oct_decode_raw(in.normals[b + i]);
    }
    SkinInput batch;
    batch.positions = in.positions.subspan(b, m);
    if (normals) batch.normals = std::span<const glm::vec3>(nrm, m);
    batch.joints = std::span<const glm::u16vec4>(joints, m);
    batch.weights = std::span<const glm::vec4>(weights, m);
    const SkinJob fjob{job.palette, job.normal_palette, &batch, job.out_positions + b,
                       normals ? out_n : nullptr};
    skin_range_avx2(fjob, packed, 0, m);
    if (normals)
      for (std::size_t i = 0; i < m; ++i) job.out_normals[b + i] = oct_encode(out_n[i]);
  }
}
#endif

}  // namespace detail

CompactStreams stored_compact(const Mesh& mesh) {
  CompactStreams c;
  c.normals = mesh.compact_normals;
  c.joints8 = mesh.compact_joints8;
  c.joints16 = mesh.compact_joints16;
  c.weights = mesh.compact_weights;
  c.max_joint = mesh.max_joint;
  return c;
}

std::vector<CompactStreams> load_compact(const Model& model, WorkerPool* pool) {
  const bool stored = std::all_of(model.meshes.begin(), model.meshes.end(),
                                  [](const Mesh& m) { return m.has_compact(); });
  if (!stored) return encode_compact(model, pool);
  std::vector<CompactStreams> out;
  out.reserve(model.meshes.size());
  for (const Mesh& m : model.meshes) out.push_back(stored_compact(m));
  return out;
}

void store_compact(Mesh& mesh) {
  CompactStreams c = encode_compact(mesh);
  mesh.compact_normals = std::move(c.normals);
  mesh.compact_joints8 = std::move(c.joints8);
  mesh.compact_joints16 = std::move(c.joints16);
  mesh.compact_weights = std::move(c.weights);
}

}  // namespace sv
