#include "anim/model.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

#include "anim/finite.h"

namespace sv {

namespace {

// The per-vertex checks below read every stream of a mesh, 1M vertices and more for a big model.
// Each scans blocks of kBlock elements first with integer-only reductions that the compiler
// vectorises (a scalar loop with an exit per element cost ~20 ms of a 1M-vertex reopen): a block
// that passes holds no bad element; one that may not is scanned again element by element with the
// exact test, which finds the first bad one and its message. A float's bits, as an unsigned
// integer, order the non-negative floats as their values, put every negative number (and -NaN)
// above 0x80000000 (-0.0 is 0x80000000 itself), and a NaN or infinity has every exponent bit set.
constexpr std::size_t kBlock = 1024;

uint32_t bits_of(float v) noexcept {
  uint32_t b = 0;
  std::memcpy(&b, &v, sizeof b);
  return b;
}

// Floats [b, e) of `f`: whether any is not finite, and their largest bits (see above).
struct FloatScan {
  uint32_t exponents = 0;  // bit 31 set when some float's exponent bits are all set
  uint32_t max_bits = 0;
  // Whether some float may be negative, not finite or above `at_most` (exact when it says no).
  bool may_be_bad(float at_most) const noexcept {
    return (exponents >> 31) != 0 || max_bits > 0x80000000u || max_bits > bits_of(at_most);
  }
};
FloatScan scan_floats(const float* f, std::size_t b, std::size_t e) noexcept {
  uint32_t exponents = 0, max_bits = 0;
  for (std::size_t i = b; i < e; ++i) {
    const uint32_t bits = bits_of(f[i]);
    exponents |= (bits & 0x7f800000u) + 0x00800000u;
    max_bits = std::max(max_bits, bits);
  }
  return {exponents, max_bits};
}
// The largest bits of |w.x + w.y + w.z + w.w - minus| over vertices [b, e) of 4 weights each:
// above bits_of(limit) when a sum may be off by more than `limit` (exact when not; NaN is above).
uint32_t largest_sum_bits(const float* w, std::size_t b, std::size_t e, float minus) noexcept {
  uint32_t largest = 0;
  for (std::size_t v = b; v < e; ++v) {
    const float* x = w + 4 * v;
    largest = std::max(largest, bits_of(std::abs(x[0] + x[1] + x[2] + x[3] - minus)));
  }
  return largest;
}

// The first element of `values` (floats, glm vectors or matrices of them) that is not finite, or
// values.size().
template <class T>
std::size_t first_non_finite(std::span<const T> values) {
  static_assert(sizeof(T) % sizeof(float) == 0);
  constexpr std::size_t k = sizeof(T) / sizeof(float);
  const float* f = reinterpret_cast<const float*>(values.data());
  for (std::size_t b = 0; b < values.size(); b += kBlock) {
    const std::size_t e = std::min(values.size(), b + kBlock);
    uint32_t exponents = 0;
    for (std::size_t i = b * k; i < e * k; ++i)
      exponents |= (bits_of(f[i]) & 0x7f800000u) + 0x00800000u;
    if ((exponents >> 31) != 0)
      for (std::size_t i = b; i < e; ++i)
        if (!finite(values[i])) return i;
  }
  return values.size();
}

// The first index at or past `n`, or indices.size().
std::size_t first_index_past(std::span<const uint32_t> indices, std::size_t n) {
  for (std::size_t b = 0; b < indices.size(); b += kBlock) {
    const std::size_t e = std::min(indices.size(), b + kBlock);
    uint32_t largest = 0;
    for (std::size_t i = b; i < e; ++i) largest = std::max(largest, indices[i]);
    if (largest >= n)
      for (std::size_t i = b; i < e; ++i)
        if (indices[i] >= n) return i;
  }
  return indices.size();
}

// The largest joint index of vertices [b, e).
uint16_t largest_joint(std::span<const glm::u16vec4> joints, std::size_t b, std::size_t e) {
  const uint16_t* j = &joints[0].x;
  uint16_t largest = 0;
  for (std::size_t i = 4 * b; i < 4 * e; ++i) largest = std::max(largest, j[i]);
  return largest;
}

// A stream's reductions from `scan` (see MeshScan) when they cover its `n` elements, else nullptr.
const MeshScan::Reduction* covering(const MeshScan* scan, MeshScan::Stream s, std::size_t n) {
  return scan != nullptr ? scan->covering(s, n) : nullptr;
}
// Whether a scan proves every float of its stream finite, or every integer below `n`.
bool proven_finite(const MeshScan::Reduction* r) {
  return r != nullptr && (r->exponents >> 31) == 0;
}
bool proven_below(const MeshScan::Reduction* r, std::size_t n) {
  return r != nullptr && r->max_bits < n;
}
FloatScan float_scan(const MeshScan::Reduction& r) { return {r.exponents, r.max_bits}; }

// The second set of influences (model.h): all three streams empty, or one per vertex each.
std::string check_influences8(const Mesh& mesh, const MeshScan* scan) {
  const std::size_t n = mesh.vertex_count();
  if (mesh.joints2.empty() && mesh.weights2.empty() && mesh.cut_weights.empty()) return {};
  if (mesh.joints2.size() != n || mesh.weights2.size() != n || mesh.cut_weights.size() != n)
    return "influence 5-8 streams differ in length (joints " + std::to_string(mesh.joints2.size()) +
           ", weights " + std::to_string(mesh.weights2.size()) + ", cut weights " +
           std::to_string(mesh.cut_weights.size()) + ", vertices " + std::to_string(n) + ")";
  // What the blocks below test, over the whole streams at once, when the reader scanned them.
  const MeshScan::Reduction* j = covering(scan, MeshScan::kJoints2, n);
  const MeshScan::Reduction* w = covering(scan, MeshScan::kWeights2, n);
  const MeshScan::Reduction* c = covering(scan, MeshScan::kCutWeights, n);
  if (j != nullptr && w != nullptr && c != nullptr && mesh.max_joint >= 0 &&
      j->max_bits <= static_cast<uint32_t>(mesh.max_joint) &&
      !float_scan(*w).may_be_bad(std::numeric_limits<float>::max()) &&
      w->sum_bits <= bits_of(1.0f) && !float_scan(*c).may_be_bad(1.0f))
    return {};
  for (std::size_t b = 0; b < n; b += kBlock) {
    const std::size_t e = std::min(n, b + kBlock);
    const float* w = &mesh.weights2[0].x;
    if (largest_joint(mesh.joints2, b, e) <= mesh.max_joint &&
        !scan_floats(w, 4 * b, 4 * e).may_be_bad(std::numeric_limits<float>::max()) &&
        largest_sum_bits(w, b, e, 0.0f) <= bits_of(1.0f) &&
        !scan_floats(mesh.cut_weights.data(), b, e).may_be_bad(1.0f))
      continue;
    for (std::size_t v = b; v < e; ++v) {
      const glm::u16vec4 j = mesh.joints2[v];
      for (int i = 0; i < 4; ++i)
        if (j[i] > mesh.max_joint)
          return "vertex " + std::to_string(v) + " uses skin bone " + std::to_string(j[i]) +
                 " (influences 5-8), above max_joint " + std::to_string(mesh.max_joint);
      const glm::vec4 w = mesh.weights2[v];
      const float c = mesh.cut_weights[v];
      if (!finite(w) || w.x < 0.0f || w.y < 0.0f || w.z < 0.0f || w.w < 0.0f ||
          w.x + w.y + w.z + w.w > 1.0f || !std::isfinite(c) || c < 0.0f || c > 1.0f)
        return "vertex " + std::to_string(v) +
               " has 5th-8th weights or a cut weight that are negative, not finite or above 1";
    }
  }
  return {};
}

// The largest byte of vertices [b, e)'s u8 joints.
uint8_t largest_joint8(const glm::u8vec4* joints, std::size_t b, std::size_t e) noexcept {
  const uint8_t* j = &joints[0].x;
  uint8_t largest = 0;
  for (std::size_t i = 4 * b; i < 4 * e; ++i) largest = std::max(largest, j[i]);
  return largest;
}

// The largest first-three-weight sum of vertices [b, e), summed as fourth_weight sums them
// (skin/compact_streams.h). Weights already known finite.
float largest_sum3(const glm::vec3* w, std::size_t b, std::size_t e) noexcept {
  float largest = 0.0f;
  for (std::size_t v = b; v < e; ++v) largest = std::max(largest, (w[v].x + w[v].y) + w[v].z);
  return largest;
}

// The compact streams (model.h): none, or one per vertex each, joints of the width max_joint asks
// for and within it (so within the skin, whose joints are within the skeleton), weights finite
// and in [0, 1], and the first three summing to at most 1 + 1e-3: the implied fourth weight,
// 1 - their sum, is then no more negative than the float weights' sums may be off (check_mesh's
// 1e-3), so a stream whose weights each pass but overshoot together is refused, not drawn with
// a negative weight. Any u32 is an octahedral code (every one decodes to a direction): their
// count is all there is to check of the normals.
std::string check_compact(const Mesh& mesh, const MeshScan* scan) {
  const std::size_t n = mesh.vertex_count();
  if (mesh.compact_normals.empty() && mesh.compact_joints8.empty() &&
      mesh.compact_joints16.empty() && mesh.compact_weights.empty())
    return {};
  const bool narrow = mesh.max_joint < 256;
  if (mesh.compact_normals.size() != mesh.normals.size() || mesh.compact_weights.size() != n ||
      mesh.compact_joints8.size() != (narrow ? n : 0) ||
      mesh.compact_joints16.size() != (narrow ? 0 : n))
    return "compact streams differ in length (normals " +
           std::to_string(mesh.compact_normals.size()) + ", joints u8 " +
           std::to_string(mesh.compact_joints8.size()) + ", joints u16 " +
           std::to_string(mesh.compact_joints16.size()) + ", weights " +
           std::to_string(mesh.compact_weights.size()) + ", vertices " + std::to_string(n) +
           ", max_joint " + std::to_string(mesh.max_joint) + ")";
  const auto max_joint = static_cast<uint32_t>(mesh.max_joint);
  const MeshScan::Reduction* j =
      covering(scan, narrow ? MeshScan::kCompactJoints8 : MeshScan::kCompactJoints16, n);
  const MeshScan::Reduction* w = covering(scan, MeshScan::kCompactWeights, n);
  const bool scanned =
      j != nullptr && w != nullptr && j->max_bits <= max_joint && !float_scan(*w).may_be_bad(1.0f);
  for (std::size_t b = 0; !scanned && b < n; b += kBlock) {
    const std::size_t e = std::min(n, b + kBlock);
    const float* w = &mesh.compact_weights[0].x;
    const uint32_t largest = narrow ? largest_joint8(mesh.compact_joints8.data(), b, e)
                                    : largest_joint(mesh.compact_joints16, b, e);
    if (largest <= max_joint && !scan_floats(w, 3 * b, 3 * e).may_be_bad(1.0f)) continue;
    for (std::size_t v = b; v < e; ++v) {
      const glm::u16vec4 j =
          narrow ? glm::u16vec4(mesh.compact_joints8[v]) : mesh.compact_joints16[v];
      for (int i = 0; i < 4; ++i)
        if (j[i] > max_joint)
          return "vertex " + std::to_string(v) + " uses skin bone " + std::to_string(j[i]) +
                 " in its compact joints, above max_joint " + std::to_string(mesh.max_joint);
      const glm::vec3 c = mesh.compact_weights[v];
      for (int i = 0; i < 3; ++i)
        if (!std::isfinite(c[i]) || c[i] < 0.0f || c[i] > 1.0f)
          return "vertex " + std::to_string(v) +
                 " has compact weights that are negative, not finite or above 1";
    }
  }
  constexpr float kMostSum3 = 1.0f + 1e-3f;
  for (std::size_t b = 0; b < n; b += kBlock) {
    const std::size_t e = std::min(n, b + kBlock);
    if (largest_sum3(mesh.compact_weights.data(), b, e) <= kMostSum3) continue;
    for (std::size_t v = b; v < e; ++v) {
      const glm::vec3 c = mesh.compact_weights[v];
      if ((c.x + c.y) + c.z > kMostSum3)
        return "vertex " + std::to_string(v) +
               " has compact weights whose first three sum past 1 (the fourth would be negative)";
    }
  }
  return {};
}

std::string check_mesh(const Mesh& mesh, std::size_t joint_count, std::size_t material_count,
                       const MeshScan* scan) {
  const std::size_t n = mesh.vertex_count();
  if (mesh.normals.size() != n || mesh.joints.size() != n || mesh.weights.size() != n ||
      mesh.vertex_flags.size() != n || (!mesh.uvs.empty() && mesh.uvs.size() != n) ||
      (!mesh.source_vertex.empty() && mesh.source_vertex.size() != n) ||
      (!mesh.source_weight_sums.empty() && mesh.source_weight_sums.size() != n))
    return "vertex streams differ in length (positions " + std::to_string(n) + ", normals " +
           std::to_string(mesh.normals.size()) + ", uvs " + std::to_string(mesh.uvs.size()) +
           ", joints " + std::to_string(mesh.joints.size()) + ", weights " +
           std::to_string(mesh.weights.size()) + ", flags " +
           std::to_string(mesh.vertex_flags.size()) + ", source indices " +
           std::to_string(mesh.source_vertex.size()) + ", source weight sums " +
           std::to_string(mesh.source_weight_sums.size()) + ")";
  if (mesh.node != -1 && (mesh.node < 0 || static_cast<std::size_t>(mesh.node) >= joint_count))
    return "node " + std::to_string(mesh.node) + " is out of range";
  if (mesh.material != -1 &&
      (mesh.material < 0 || static_cast<std::size_t>(mesh.material) >= material_count))
    return "material " + std::to_string(mesh.material) + " is out of range";
  if (mesh.inverse_bind.size() != mesh.skin_joints.size())
    return std::to_string(mesh.inverse_bind.size()) + " inverse bind matrices for " +
           std::to_string(mesh.skin_joints.size()) + " skin bones";
  for (std::size_t b = 0; b < mesh.skin_joints.size(); ++b)
    if (mesh.skin_joints[b] < 0 || static_cast<std::size_t>(mesh.skin_joints[b]) >= joint_count)
      return "skin bone " + std::to_string(b) + " names joint " +
             std::to_string(mesh.skin_joints[b]) + ", out of range";
  if (n > 0 &&
      (mesh.max_joint < 0 || static_cast<std::size_t>(mesh.max_joint) >= mesh.skin_joints.size()))
    return "max_joint " + std::to_string(mesh.max_joint) + " is out of range of " +
           std::to_string(mesh.skin_joints.size()) + " skin bones";
  // What the blocks below test, over the whole streams at once, when the reader scanned them.
  const MeshScan::Reduction* j = covering(scan, MeshScan::kJoints, n);
  const MeshScan::Reduction* w = covering(scan, MeshScan::kWeights, n);
  const bool weights_proven = j != nullptr && w != nullptr && n > 0 &&
                              j->max_bits <= static_cast<uint32_t>(mesh.max_joint) &&
                              !float_scan(*w).may_be_bad(std::numeric_limits<float>::max()) &&
                              w->sum_bits <= bits_of(1e-3f);
  for (std::size_t b = 0; b < n && !weights_proven; b += kBlock) {
    const std::size_t e = std::min(n, b + kBlock);
    const float* w = &mesh.weights[0].x;
    if (largest_joint(mesh.joints, b, e) <= mesh.max_joint &&
        !scan_floats(w, 4 * b, 4 * e).may_be_bad(std::numeric_limits<float>::max()) &&
        largest_sum_bits(w, b, e, 1.0f) <= bits_of(1e-3f))
      continue;
    for (std::size_t v = b; v < e; ++v) {
      const glm::u16vec4 j = mesh.joints[v];
      for (int i = 0; i < 4; ++i)
        if (j[i] > mesh.max_joint)
          return "vertex " + std::to_string(v) + " uses skin bone " + std::to_string(j[i]) +
                 ", above max_joint " + std::to_string(mesh.max_joint);
      const glm::vec4 w = mesh.weights[v];
      const float sum = w.x + w.y + w.z + w.w;
      if (!finite(w) || w.x < 0.0f || w.y < 0.0f || w.z < 0.0f || w.w < 0.0f ||
          std::abs(sum - 1.0f) > 1e-3f)
        return "vertex " + std::to_string(v) +
               " has weights that are negative, not finite or do "
               "not sum to 1";
    }
  }
  if (std::string e = check_influences8(mesh, scan); !e.empty()) return e;
  if (std::string e = check_compact(mesh, scan); !e.empty()) return e;
  if (mesh.indices.size() % 3 != 0)
    return std::to_string(mesh.indices.size()) + " indices is not a whole number of triangles";
  if (std::size_t i = proven_below(covering(scan, MeshScan::kIndices, mesh.indices.size()), n)
                          ? mesh.indices.size()
                          : first_index_past(mesh.indices, n);
      i < mesh.indices.size())
    return "index " + std::to_string(i) + " is " + std::to_string(mesh.indices[i]) + ", past " +
           std::to_string(n) + " vertices";
  if (mesh.line_indices.size() % 2 != 0)
    return std::to_string(mesh.line_indices.size()) +
           " line indices is not a whole number of lines";
  if (std::size_t i =
          proven_below(covering(scan, MeshScan::kLineIndices, mesh.line_indices.size()), n)
              ? mesh.line_indices.size()
              : first_index_past(mesh.line_indices, n);
      i < mesh.line_indices.size())
    return "line index " + std::to_string(i) + " is " + std::to_string(mesh.line_indices[i]) +
           ", past " + std::to_string(n) + " vertices";
  if (std::size_t i =
          proven_below(covering(scan, MeshScan::kPointIndices, mesh.point_indices.size()), n)
              ? mesh.point_indices.size()
              : first_index_past(mesh.point_indices, n);
      i < mesh.point_indices.size())
    return "point index " + std::to_string(i) + " is " + std::to_string(mesh.point_indices[i]) +
           ", past " + std::to_string(n) + " vertices";
  // The first element that is not finite, or the stream's size (none, or the scan proves it).
  auto first_bad = [&](const auto& values, MeshScan::Stream s) {
    return proven_finite(covering(scan, s, values.size()))
               ? values.size()
               : first_non_finite(std::span(values.data(), values.size()));
  };
  if (std::size_t i = first_bad(mesh.positions, MeshScan::kPositions); i < n)
    return "position " + std::to_string(i) + " is not finite";
  if (std::size_t i = first_bad(mesh.normals, MeshScan::kNormals); i < n)
    return "normal " + std::to_string(i) + " is not finite";
  if (std::size_t i = first_bad(mesh.source_weight_sums, MeshScan::kSourceWeightSums);
      i < mesh.source_weight_sums.size())
    return "source weight sum " + std::to_string(i) + " is not finite";
  if (std::size_t i = first_bad(mesh.uvs, MeshScan::kUvs); i < mesh.uvs.size())
    return "uv " + std::to_string(i) + " is not finite";
  if (std::size_t i = first_non_finite(std::span<const glm::mat4>(mesh.inverse_bind));
      i < mesh.inverse_bind.size())
    return "inverse bind matrix " + std::to_string(i) + " is not finite";
  return check_morph_targets(mesh);
}

// Orders joint sets lexicographically (x first).
uint64_t bone_set_key(const glm::u16vec4& j) noexcept {
  return static_cast<uint64_t>(j.x) << 48 | static_cast<uint64_t>(j.y) << 32 |
         static_cast<uint64_t>(j.z) << 16 | static_cast<uint64_t>(j.w);
}

// Insertion sort of one vertex's 4 slots: weighted ones first, by joint; unused slots joint 0.
void canonical_slots(glm::u16vec4& joints, glm::vec4& weights) noexcept {
  std::pair<uint16_t, float> slot[4];
  for (int i = 0; i < 4; ++i) slot[i] = {joints[i], weights[i]};
  auto before = [](const std::pair<uint16_t, float>& a, const std::pair<uint16_t, float>& b) {
    const bool ua = a.second == 0.0f, ub = b.second == 0.0f;
    return ua != ub ? ub : a.first < b.first;
  };
  for (int i = 1; i < 4; ++i)
    for (int k = i; k > 0 && before(slot[k], slot[k - 1]); --k) std::swap(slot[k], slot[k - 1]);
  for (int i = 0; i < 4; ++i) {
    const bool unused = slot[i].second == 0.0f;
    joints[i] = unused ? uint16_t{0} : slot[i].first;
    weights[i] = unused ? 0.0f : slot[i].second;
  }
}

template <class T>
void permute(std::vector<T>& values, const std::vector<uint32_t>& order) {
  if (values.size() != order.size()) return;
  std::vector<T> out;
  out.reserve(values.size());
  for (const uint32_t old : order) out.push_back(values[old]);
  values = std::move(out);
}
template <class T>
void permute(Stream<T>& values, const std::vector<uint32_t>& order) {
  if (values.size() == order.size()) permute(values.edit(), order);
}

}  // namespace

namespace {

// The scans run over every block a reader copies (a 1M-vertex mesh: ~20M numbers), in the L1
// cache: compute, not memory, so they are built for AVX2 too and take it where the CPU has it
// (SSE2 has no unsigned 32-bit maximum).
enum class ScanKind { kExponents, kFloats, kLargest16, kLargest32, kWeightSums };
struct BlockScan {
  uint32_t exponents = 0, max_bits = 0, sum_bits = 0;
};

// `values` numbers at `p` (kWeightSums: floats, 4 per vertex, `minus` taken from each sum).
[[gnu::always_inline]] inline BlockScan scan_kernel(ScanKind kind, const void* p,
                                                    std::size_t values, float minus) noexcept {
  BlockScan r;
  switch (kind) {
    case ScanKind::kExponents: {
      const auto* f = static_cast<const float*>(p);
      for (std::size_t i = 0; i < values; ++i)
        r.exponents |= (bits_of(f[i]) & 0x7f800000u) + 0x00800000u;
      break;
    }
    case ScanKind::kWeightSums: {
      const auto* w = static_cast<const float*>(p);
      for (std::size_t v = 0; v < values / 4; ++v) {
        const float* x = w + 4 * v;
        r.sum_bits = std::max(r.sum_bits, bits_of(std::abs(x[0] + x[1] + x[2] + x[3] - minus)));
      }
      [[fallthrough]];
    }
    case ScanKind::kFloats: {
      const auto* f = static_cast<const float*>(p);
      for (std::size_t i = 0; i < values; ++i) {
        const uint32_t bits = bits_of(f[i]);
        r.exponents |= (bits & 0x7f800000u) + 0x00800000u;
        r.max_bits = std::max(r.max_bits, bits);
      }
      break;
    }
    case ScanKind::kLargest16: {
      const auto* u = static_cast<const uint16_t*>(p);
      uint16_t largest = 0;
      for (std::size_t i = 0; i < values; ++i) largest = std::max(largest, u[i]);
      r.max_bits = largest;
      break;
    }
    case ScanKind::kLargest32: {
      const auto* u = static_cast<const uint32_t*>(p);
      for (std::size_t i = 0; i < values; ++i) r.max_bits = std::max(r.max_bits, u[i]);
      break;
    }
  }
  return r;
}

#if defined(__x86_64__) || defined(__i386__)
__attribute__((target("avx2"))) BlockScan scan_avx2(ScanKind kind, const void* p,
                                                    std::size_t values, float minus) noexcept {
  return scan_kernel(kind, p, values, minus);
}
#endif

BlockScan scan_block(ScanKind kind, const void* p, std::size_t values,
                     float minus = 0.0f) noexcept {
#if defined(__x86_64__) || defined(__i386__)
  static const bool avx2 = __builtin_cpu_supports("avx2");
  if (avx2) return scan_avx2(kind, p, values, minus);
#endif
  return scan_kernel(kind, p, values, minus);
}

void merge(MeshScan::Reduction& r, const BlockScan& b, std::size_t elements) noexcept {
  r.exponents |= b.exponents;
  r.max_bits = std::max(r.max_bits, b.max_bits);
  r.sum_bits = std::max(r.sum_bits, b.sum_bits);
  r.count += elements;
}

}  // namespace

void MeshScan::finite(Stream s, const float* f, std::size_t per, std::size_t elements) noexcept {
  merge(r_[s], scan_block(ScanKind::kExponents, f, per * elements), elements);
}

void MeshScan::floats(Stream s, const float* f, std::size_t per, std::size_t elements) noexcept {
  merge(r_[s], scan_block(ScanKind::kFloats, f, per * elements), elements);
}

void MeshScan::largest(Stream s, const uint16_t* v, std::size_t values,
                       std::size_t elements) noexcept {
  merge(r_[s], scan_block(ScanKind::kLargest16, v, values), elements);
}

void MeshScan::largest(Stream s, const uint32_t* v, std::size_t values,
                       std::size_t elements) noexcept {
  merge(r_[s], scan_block(ScanKind::kLargest32, v, values), elements);
}

void MeshScan::compact_joints8(std::span<const glm::u8vec4> v) noexcept {
  Reduction& r = r_[kCompactJoints8];
  r.max_bits =
      std::max<uint32_t>(r.max_bits, v.empty() ? 0 : largest_joint8(v.data(), 0, v.size()));
  r.count += v.size();
}

void MeshScan::weight_sums(Stream s, std::span<const glm::vec4> v, float minus) noexcept {
  merge(r_[s], scan_block(ScanKind::kWeightSums, v.data(), 4 * v.size(), minus), v.size());
}

std::vector<uint32_t> bone_set_order(std::vector<glm::u16vec4>& joints,
                                     std::vector<glm::vec4>& weights,
                                     std::vector<glm::u16vec4>* joints2,
                                     std::vector<glm::vec4>* weights2) {
  const std::size_t n = std::min(joints.size(), weights.size());
  const bool second =
      joints2 != nullptr && weights2 != nullptr && joints2->size() >= n && weights2->size() >= n;
  // An LSD radix sort of (key, key2, vertex) by 8-bit digits, key2's first (the minor key),
  // stable, skipping digits that are the same in every key (joint indices below 256 leave half
  // of them; no second set leaves key2 all zero): O(n) whatever the number of distinct bone
  // sets. A comparison sort took ~90 ns a vertex, mostly mispredicted branches.
  std::vector<uint64_t> keys(n), keys_tmp(n), keys2(second ? n : 0), keys2_tmp(second ? n : 0);
  std::vector<uint32_t> order(n), order_tmp(n);
  for (std::size_t v = 0; v < n; ++v) {
    canonical_slots(joints[v], weights[v]);
    keys[v] = bone_set_key(joints[v]);
    if (second) {
      canonical_slots((*joints2)[v], (*weights2)[v]);
      keys2[v] = bone_set_key((*joints2)[v]);
    }
    order[v] = static_cast<uint32_t>(v);
  }
  for (int pass = 0; pass < 16; ++pass) {
    const bool minor = pass < 8;
    if (minor && !second) continue;
    const int shift = 8 * (pass % 8);
    const std::vector<uint64_t>& by = minor ? keys2 : keys;
    std::size_t count[257] = {};
    for (const uint64_t k : by) ++count[((k >> shift) & 0xffu) + 1];
    if (n == 0 || count[((by[0] >> shift) & 0xffu) + 1] == n) continue;  // one digit value
    for (int d = 0; d < 256; ++d) count[d + 1] += count[d];
    for (std::size_t i = 0; i < n; ++i) {
      const std::size_t at = count[(by[i] >> shift) & 0xffu]++;
      keys_tmp[at] = keys[i];
      if (second) keys2_tmp[at] = keys2[i];
      order_tmp[at] = order[i];
    }
    keys.swap(keys_tmp);
    keys2.swap(keys2_tmp);
    order.swap(order_tmp);
  }
  return order;
}

void group_vertices_by_bone_set(Mesh& mesh) {
  const std::size_t n = mesh.vertex_count();
  if (mesh.joints.size() != n || mesh.weights.size() != n) return;
  // They were made from the streams in their old order (the importer makes them after this).
  mesh.clear_compact();
  const bool second = mesh.joints2.size() == n && mesh.weights2.size() == n;
  const std::vector<uint32_t> order =
      second ? bone_set_order(mesh.joints.edit(), mesh.weights.edit(), &mesh.joints2.edit(),
                              &mesh.weights2.edit())
             : bone_set_order(mesh.joints.edit(), mesh.weights.edit());
  permute(mesh.positions, order);
  permute(mesh.normals, order);
  permute(mesh.uvs, order);
  permute(mesh.joints, order);
  permute(mesh.weights, order);
  permute(mesh.vertex_flags, order);
  permute(mesh.source_weight_sums, order);
  for (MorphTarget& target : mesh.morph_targets) {
    permute(target.position_deltas, order);
    permute(target.normal_deltas, order);
  }
  permute(mesh.joints2, order);
  permute(mesh.weights2, order);
  permute(mesh.cut_weights, order);
  if (mesh.source_vertex.size() == n) {
    permute(mesh.source_vertex, order);
  } else {
    mesh.source_vertex = order;
  }
  std::vector<uint32_t> new_index(n);
  for (std::size_t i = 0; i < n; ++i) new_index[order[i]] = static_cast<uint32_t>(i);
  for (uint32_t& index : mesh.indices)
    if (index < n) index = new_index[index];
  for (uint32_t& index : mesh.line_indices)
    if (index < n) index = new_index[index];
  for (uint32_t& index : mesh.point_indices)
    if (index < n) index = new_index[index];
  int32_t max_joint = 0;
  for (const glm::u16vec4& j : mesh.joints)
    max_joint = std::max<int32_t>(max_joint, std::max({j.x, j.y, j.z, j.w}));
  if (second) {
    for (std::size_t v = 0; v < n; ++v) {
      const glm::u16vec4 j = mesh.joints2[v];
      max_joint = std::max<int32_t>(max_joint, std::max({j.x, j.y, j.z, j.w}));
    }
  }
  mesh.max_joint = max_joint;
}

std::string Model::validate(std::span<const MeshScan> scans) const {
  if (std::string e = skeleton.validate(); !e.empty()) return e;
  for (const ClipRuntime& clip : clips) {
    const std::span<const int32_t> parents = clip.parents();
    if (clip.joints() != skeleton.size() ||
        !std::equal(parents.begin(), parents.end(), skeleton.parents.begin()))
      return "clip '" + clip.name() + "' was laid out for another skeleton (" +
             std::to_string(clip.joints()) + " joints, the model has " +
             std::to_string(skeleton.size()) + ")";
  }
  for (std::size_t m = 0; m < meshes.size(); ++m)
    if (std::string e = check_mesh(meshes[m], skeleton.size(), materials.size(),
                                   m < scans.size() ? &scans[m] : nullptr);
        !e.empty())
      return "mesh " + std::to_string(m) + " '" + meshes[m].name + "': " + e;
  for (std::size_t i = 0; i < images.size(); ++i) {
    const Image& im = images[i];
    if (im.width == 0 || im.height == 0 || im.rgba.size() / 4 / im.width != im.height ||
        im.rgba.size() % (4 * uint64_t{im.width}) != 0)
      return "image " + std::to_string(i) + ": " + std::to_string(im.rgba.size()) + " bytes for " +
             std::to_string(im.width) + " x " + std::to_string(im.height) + " RGBA pixels";
  }
  for (std::size_t m = 0; m < materials.size(); ++m)
    if (materials[m].image < -1 ||
        (materials[m].image >= 0 && static_cast<std::size_t>(materials[m].image) >= images.size()))
      return "material " + std::to_string(m) + " names image " +
             std::to_string(materials[m].image) + " of " + std::to_string(images.size());
  if (!morph_clips.empty() && morph_clips.size() != clips.size())
    return std::to_string(morph_clips.size()) + " morph clips for " + std::to_string(clips.size()) +
           " clips";
  for (std::size_t c = 0; c < morph_clips.size(); ++c)
    if (std::string e = check_morph_clip(morph_clips[c], meshes, clips[c].duration()); !e.empty())
      return "clip '" + clips[c].name() + "': " + e;
  return {};
}

std::vector<JointInfluence> joint_influences(const Model& model) {
  std::vector<JointInfluence> out(model.skeleton.size());
  for (const Mesh& mesh : model.meshes) {
    const std::size_t n = std::min(mesh.joints.size(), mesh.weights.size());
    for (std::size_t v = 0; v < n; ++v) {
      for (int i = 0; i < 4; ++i) {
        const float w = mesh.weights[v][i];
        const std::size_t bone = mesh.joints[v][i];
        if (!(w > 0.0f) || bone >= mesh.skin_joints.size()) continue;
        const int32_t j = mesh.skin_joints[bone];
        if (j < 0 || static_cast<std::size_t>(j) >= out.size()) continue;
        JointInfluence& ji = out[static_cast<std::size_t>(j)];
        ++ji.vertices;
        ji.max_weight = std::max(ji.max_weight, w);
      }
    }
  }
  return out;
}

}  // namespace sv
