#include "skin/volume.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>

#include "anim/model.h"

namespace sv {
namespace {

bool cancelled(const std::atomic<bool>* cancel) noexcept {
  return cancel != nullptr && cancel->load(std::memory_order_relaxed);
}

// The size the weld tolerance is a fraction of: the diagonal of the box of the central 98% of
// the positions on each axis (all of them below 100 vertices), so that a few stray vertices far
// away do not widen the cells until every other vertex shares one. `scratch` holds n floats.
double robust_size(std::span<const glm::vec3> positions, std::vector<float>& scratch) {
  const std::size_t n = positions.size();
  if (n == 0) return 0.0;
  const std::size_t trim = n >= 100 ? n / 100 : 0;
  glm::dvec3 lo(0.0), hi(0.0);
  scratch.resize(n);
  for (int axis = 0; axis < 3; ++axis) {
    for (std::size_t i = 0; i < n; ++i) scratch[i] = positions[i][axis];
    std::nth_element(scratch.begin(), scratch.begin() + static_cast<std::ptrdiff_t>(trim),
                     scratch.end());
    lo[axis] = scratch[trim];
    std::nth_element(scratch.begin(), scratch.begin() + static_cast<std::ptrdiff_t>(n - 1 - trim),
                     scratch.end());
    hi[axis] = scratch[n - 1 - trim];
  }
  return glm::length(hi - lo);
}

// A grid cell's key, floor(p / cell) per axis, with -0 made +0 so equal keys hash alike.
struct CellKey {
  double x, y, z;
  bool operator==(const CellKey&) const = default;
};
bool key_less(const CellKey& a, const CellKey& b) noexcept {
  if (a.x != b.x) return a.x < b.x;
  if (a.y != b.y) return a.y < b.y;
  return a.z < b.z;
}
std::size_t key_hash(const CellKey& k) noexcept {
  const auto bits = [](double v) { return std::bit_cast<uint64_t>(v + 0.0); };
  uint64_t h = bits(k.x) * 0x9E3779B97F4A7C15ull;
  h ^= bits(k.y) + 0x7F4A7C159E3779B9ull + (h << 6) + (h >> 2);
  h ^= bits(k.z) + 0x94D049BB133111EBull + (h << 6) + (h >> 2);
  h ^= h >> 31;
  return static_cast<std::size_t>(h * 0xBF58476D1CE4E5B9ull);
}

// Welds `positions` into `weld` (each vertex's representative, the lowest index of its group).
// Returns false when over `max_work` (cell probes plus position comparisons; *work says how
// much was spent) or cancelled.
bool weld_positions(std::span<const glm::vec3> positions, double tol, std::size_t max_work,
                    const std::atomic<bool>* cancel, std::vector<uint32_t>& weld,
                    std::size_t& work) {
  const std::size_t n = positions.size();
  const double cell = tol > 0.0 && std::isfinite(tol) ? tol : 1.0;
  struct Keyed {
    CellKey key;
    uint32_t vertex;
  };
  std::vector<Keyed> grid(n);
  for (std::size_t i = 0; i < n; ++i) {
    const glm::dvec3 k = glm::floor(glm::dvec3(positions[i]) / cell) + 0.0;
    grid[i] = {{k.x, k.y, k.z}, static_cast<uint32_t>(i)};
  }
  std::sort(grid.begin(), grid.end(),
            [](const Keyed& a, const Keyed& b) { return key_less(a.key, b.key); });
  if (cancelled(cancel)) return false;
  // The occupied cells (runs of `grid`) in an open-addressed hash table of their first index.
  std::vector<uint32_t> starts;  // run starts, then n
  for (std::size_t i = 0; i < n; ++i)
    if (i == 0 || !(grid[i].key == grid[i - 1].key)) starts.push_back(static_cast<uint32_t>(i));
  const std::size_t cells = starts.size();
  starts.push_back(static_cast<uint32_t>(n));
  const std::size_t capacity = std::bit_ceil(std::max<std::size_t>(2 * cells, 16));
  constexpr uint32_t kEmpty = std::numeric_limits<uint32_t>::max();
  std::vector<uint32_t> table(capacity, kEmpty);  // index into `starts`
  for (std::size_t c = 0; c < cells; ++c) {
    std::size_t h = key_hash(grid[starts[c]].key) & (capacity - 1);
    while (table[h] != kEmpty) h = (h + 1) & (capacity - 1);
    table[h] = static_cast<uint32_t>(c);
  }
  const auto find_cell = [&](const CellKey& k) -> uint32_t {
    for (std::size_t h = key_hash(k) & (capacity - 1);; h = (h + 1) & (capacity - 1)) {
      const uint32_t c = table[h];
      if (c == kEmpty || grid[starts[c]].key == k) return c;
    }
  };

  weld.resize(n);
  for (std::size_t i = 0; i < n; ++i) weld[i] = static_cast<uint32_t>(i);
  const auto find = [&](uint32_t v) {
    while (weld[v] != v) v = weld[v] = weld[weld[v]];
    return v;
  };
  // Each pair of neighbouring cells once: the cell itself (pairs i < j) and the 13 of its 26
  // neighbours that come after it in (x, y, z) order.
  static constexpr int kForward[13][3] = {
      {0, 0, 1},  {0, 1, -1}, {0, 1, 0}, {0, 1, 1},  {1, -1, -1}, {1, -1, 0}, {1, -1, 1},
      {1, 0, -1}, {1, 0, 0},  {1, 0, 1}, {1, 1, -1}, {1, 1, 0},   {1, 1, 1}};
  const auto join = [&](uint32_t a, uint32_t b) {
    const glm::dvec3 d = glm::abs(glm::dvec3(positions[a]) - glm::dvec3(positions[b]));
    if (std::max({d.x, d.y, d.z}) > tol) return;
    const uint32_t ra = find(a);
    const uint32_t rb = find(b);
    weld[std::max(ra, rb)] = std::min(ra, rb);
  };
  // Counts `units` of work, or refuses them when they would pass the budget: `work` never
  // exceeds max_work.
  const auto spend = [&](std::size_t units) {
    if (units > max_work - work) return false;
    work += units;
    return true;
  };
  for (std::size_t c = 0; c < cells; ++c) {
    if ((c & 1023) == 0 && cancelled(cancel)) return false;
    const std::size_t b0 = starts[c], e0 = starts[c + 1];
    const std::size_t size0 = e0 - b0;
    if (!spend(1 + size0 * (size0 - 1) / 2)) return false;
    for (std::size_t i = b0; i < e0; ++i)
      for (std::size_t j = i + 1; j < e0; ++j) join(grid[i].vertex, grid[j].vertex);
    const CellKey& k = grid[b0].key;
    for (const auto& o : kForward) {
      const CellKey nk{k.x + o[0], k.y + o[1], k.z + o[2]};
      if (!spend(1)) return false;
      if (nk == k) continue;  // a key so large that +1 does not move it: the cell itself
      const uint32_t d = find_cell(nk);
      if (d == kEmpty) continue;
      const std::size_t b1 = starts[d], e1 = starts[d + 1];
      if (!spend(size0 * (e1 - b1))) return false;
      for (std::size_t i = b0; i < e0; ++i)
        for (std::size_t j = b1; j < e1; ++j) join(grid[i].vertex, grid[j].vertex);
    }
  }
  for (std::size_t i = 0; i < n; ++i) weld[i] = find(static_cast<uint32_t>(i));
  return true;
}

// A mesh name as one printable line: control characters become '?', at most 80 bytes.
std::string printable(const std::string& name) {
  std::string out = name.substr(0, 80);
  for (char& c : out)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = '?';
  if (name.size() > 80) out += "...";
  return out;
}

std::string percent(double fraction) {
  char buf[48];
  double p = 100.0 * fraction;
  if (std::abs(p) < 0.005) p = 0.0;  // "+0.00%", not "-0.00%" for a loss of 1e-9
  std::snprintf(buf, sizeof buf, std::abs(p) < 1e6 ? "%+.2f%%" : "%+.3g%%", p);
  return buf;
}

// "-0.31% at 1.000 s"; a change that prints as 0.00% has no time: when float rounding makes
// +1e-9 largest is noise, and would differ between machines (SIMD widths).
std::string at_time(double change, double time) {
  if (std::abs(100.0 * change) < 0.005) return percent(0.0);
  char buf[48];
  std::snprintf(buf, sizeof buf, " at %.3f s", time);
  return percent(change) + buf;
}

}  // namespace

double signed_volume(std::span<const glm::vec3> positions,
                     std::span<const uint32_t> indices) noexcept {
  const std::size_t n = positions.size();
  double sum = 0.0;
  for (std::size_t t = 0; t + 2 < indices.size(); t += 3) {
    if (indices[t] >= n || indices[t + 1] >= n || indices[t + 2] >= n) continue;
    const glm::dvec3 a(positions[indices[t]]);
    const glm::dvec3 b(positions[indices[t + 1]]);
    const glm::dvec3 c(positions[indices[t + 2]]);
    sum += glm::dot(a, glm::cross(b, c));
  }
  return sum / 6.0;
}

const char* mesh_shape_name(MeshShape shape) noexcept {
  switch (shape) {
    case MeshShape::Closed:
      return "closed";
    case MeshShape::Open:
      return "open (an edge not shared by exactly two oppositely wound triangles)";
    case MeshShape::Misoriented:
      return "inconsistently wound (an edge run the same way by both its triangles)";
    case MeshShape::TooLarge:
      return "not checked (too large)";
    case MeshShape::NonFinite:
      return "not checked (a position is not finite)";
    case MeshShape::Cancelled:
      return "not checked (cancelled)";
    case MeshShape::NoTriangles:
      return "no triangles (points or lines)";
  }
  return "?";
}

MeshShape mesh_shape(std::span<const glm::vec3> positions, std::span<const uint32_t> indices,
                     const VolumeBudget& budget, const std::atomic<bool>* cancel,
                     std::size_t* work) {
  std::size_t spent = 0;
  struct Report {
    std::size_t* to;
    std::size_t& spent;
    ~Report() {
      if (to != nullptr) *to = spent;
    }
  } report{work, spent};
  // Points and lines only: not "open", there is no surface to be open or closed.
  if (indices.size() < 3) return MeshShape::NoTriangles;
  const std::size_t n = positions.size();
  if (n > budget.max_mesh_vertices || indices.size() / 3 > 2 * budget.max_mesh_vertices ||
      n > std::numeric_limits<uint32_t>::max() - 1)
    return MeshShape::TooLarge;
  if (cancelled(cancel)) return MeshShape::Cancelled;
  for (const glm::vec3& p : positions)
    if (!std::isfinite(p.x) || !std::isfinite(p.y) || !std::isfinite(p.z))
      return MeshShape::NonFinite;
  // Exact equality is not enough for the weld: a capsule's pole copies differ by 1e-17 where
  // cos(pi/2) is not 0.
  std::vector<float> scratch;
  const double tol = kWeldTolerance * robust_size(positions, scratch);
  scratch = {};
  std::vector<uint32_t> weld;
  const std::size_t max_work = budget.weld_work_per_vertex * n + kWeldWorkSlack;
  if (!weld_positions(positions, std::isfinite(tol) ? tol : 0.0, max_work, cancel, weld, spent))
    return cancelled(cancel) ? MeshShape::Cancelled : MeshShape::TooLarge;

  // Each directed edge as (low, high, runs low -> high).
  struct Edge {
    uint32_t low, high;
    bool forward;
  };
  std::vector<Edge> edges;
  edges.reserve(indices.size());
  for (std::size_t t = 0; t + 2 < indices.size(); t += 3) {
    if (indices[t] >= n || indices[t + 1] >= n || indices[t + 2] >= n) return MeshShape::Open;
    const uint32_t c[3] = {weld[indices[t]], weld[indices[t + 1]], weld[indices[t + 2]]};
    if (c[0] == c[1] || c[1] == c[2] || c[2] == c[0]) continue;  // degenerate: no volume
    for (int k = 0; k < 3; ++k) {
      const uint32_t a = c[k];
      const uint32_t b = c[(k + 1) % 3];
      edges.push_back({std::min(a, b), std::max(a, b), a < b});
    }
  }
  if (edges.empty()) return MeshShape::Open;
  if (cancelled(cancel)) return MeshShape::Cancelled;
  std::sort(edges.begin(), edges.end(), [](const Edge& x, const Edge& y) {
    return x.low != y.low ? x.low < y.low : x.high < y.high;
  });
  bool misoriented = false;
  for (std::size_t i = 0; i < edges.size();) {
    std::size_t j = i;
    while (j < edges.size() && edges[j].low == edges[i].low && edges[j].high == edges[i].high) ++j;
    if (j - i != 2) return MeshShape::Open;
    if (edges[i].forward == edges[i + 1].forward) misoriented = true;
    i = j;
  }
  return misoriented ? MeshShape::Misoriented : MeshShape::Closed;
}

std::vector<MeshShape> mesh_shapes(const Model& model, const VolumeBudget& budget,
                                   const std::atomic<bool>* cancel) {
  std::vector<MeshShape> out;
  out.reserve(model.meshes.size());
  for (const Mesh& m : model.meshes)
    out.push_back(mesh_shape(m.positions, m.indices, budget, cancel));
  return out;
}

std::size_t VolumeFigures::measured() const noexcept {
  std::size_t n = 0;
  for (const MeshVolume& m : meshes) n += m.measured ? 1 : 0;
  return n;
}

VolumeFigures clip_volume_figures(const Model& model, int32_t clip, const SkinChoice& skin,
                                  std::span<const MeshShape> shapes, const VolumeBudget& budget,
                                  const std::atomic<bool>* cancel, WorkerPool* pool,
                                  std::atomic<std::size_t>* progress) {
  VolumeFigures out;
  const std::size_t meshes = model.meshes.size();
  if (shapes.size() != meshes) {
    out.status = VolumeStatus::BadShapes;
    return out;
  }
  out.meshes.resize(meshes);
  for (std::size_t m = 0; m < meshes; ++m) {
    out.meshes[m].name = model.meshes[m].name;
    out.meshes[m].shape = shapes[m];
  }
  const bool has_clip = clip >= 0 && static_cast<std::size_t>(clip) < model.clips.size();
  if (has_clip) {
    const double d = model.clips[static_cast<std::size_t>(clip)].duration();
    out.duration = std::isfinite(d) && d > 0.0 ? d : 0.0;
  }
  if (cancelled(cancel)) {
    out.status = VolumeStatus::Cancelled;
    return out;
  }
  SkinnedPose a(model);
  a.set_skin(skin);
  a.pose.set_clip(model, has_clip ? clip : -1);

  // The rest volumes: the reference (see the header for why not the bind pose).
  if (!a.evaluate(model, PoseMode::Rest, 0.0) || !a.skin_cpu(model, pool)) {
    out.status = VolumeStatus::Unskinnable;
    return out;
  }
  std::size_t vertices = 0;
  for (std::size_t m = 0; m < meshes; ++m) {
    MeshVolume& v = out.meshes[m];
    if (shapes[m] != MeshShape::Closed) continue;
    v.rest_volume = signed_volume(a.skinned_positions(m), model.meshes[m].indices);
    v.measured = std::isfinite(v.rest_volume) && v.rest_volume != 0.0;
    if (v.measured) vertices += model.meshes[m].vertex_count();
  }
  if (vertices == 0) return out;  // nothing to measure: no pose sampled

  // 0, 1/rate, 2/rate, ... below the end, then the end; or, over the budget, `cap` poses spread
  // evenly over [0, duration].
  std::size_t steps = 0;  // poses before the end at kVolumeRate
  if (out.duration > 0.0) {
    const double s = std::ceil(out.duration * kVolumeRate - 1e-9);
    steps = s < 1e18 ? std::max<std::size_t>(1, static_cast<std::size_t>(s)) : std::size_t{1} << 60;
  }
  out.poses_at_rate = steps + 1;
  const std::size_t cap =
      out.duration > 0.0
          ? std::max<std::size_t>(2, std::min(budget.max_poses, budget.max_pose_work / vertices))
          : 1;
  const bool capped = out.poses_at_rate > cap;
  const std::size_t poses = capped ? cap : out.poses_at_rate;
  out.step = out.duration <= 0.0 ? 0.0
             : capped            ? out.duration / static_cast<double>(poses - 1)
                                 : 1.0 / kVolumeRate;
  const PoseMode mode = has_clip ? PoseMode::Clip : PoseMode::Rest;
  for (std::size_t i = 0; i < poses; ++i) {
    if (cancelled(cancel)) {
      out.status = VolumeStatus::Cancelled;
      return out;
    }
    const double t = i + 1 == poses ? out.duration
                     : capped
                         ? out.duration * static_cast<double>(i) / static_cast<double>(poses - 1)
                         : static_cast<double>(i) / kVolumeRate;
    if (!a.evaluate(model, mode, t) || !a.skin_cpu(model, pool)) {
      out.status = VolumeStatus::Unskinnable;
      return out;
    }
    for (std::size_t m = 0; m < meshes; ++m) {
      MeshVolume& v = out.meshes[m];
      if (!v.measured) continue;
      const double change =
          signed_volume(a.skinned_positions(m), model.meshes[m].indices) / v.rest_volume - 1.0;
      if (out.poses == 0 || change < v.min_change) {
        v.min_change = change;
        v.min_time = t;
      }
      if (out.poses == 0 || change > v.max_change) {
        v.max_change = change;
        v.max_time = t;
      }
    }
    ++out.poses;
    if (progress != nullptr) progress->store(out.poses, std::memory_order_relaxed);
  }
  return out;
}

std::string volume_sampling_line(const VolumeFigures& f) {
  switch (f.status) {
    case VolumeStatus::Cancelled:
      return "cancelled";
    case VolumeStatus::Unskinnable:
      return "cannot be skinned";
    case VolumeStatus::BadShapes:
      return "the meshes' shapes are not known";
    case VolumeStatus::Ok:
      break;
  }
  if (f.poses == 0) return "no closed mesh to measure";
  char buf[160];
  if (f.duration <= 0.0) {
    std::snprintf(buf, sizeof buf, "1 pose (no clip length)");
  } else if (f.capped()) {
    std::snprintf(buf, sizeof buf, "%zu poses, every %.4g s (capped: %g per second would take %zu)",
                  f.poses, f.step, kVolumeRate, f.poses_at_rate);
  } else {
    std::snprintf(buf, sizeof buf, "%zu poses, %g per second and the end", f.poses, kVolumeRate);
  }
  return buf;
}

std::string mesh_volume_line(const VolumeFigures& f, std::size_t mesh) {
  if (mesh >= f.meshes.size()) return std::string();
  const MeshVolume& m = f.meshes[mesh];
  // "'body': ", or "mesh 2 (no name): " rather than "'': ". Appended to "'" rather than
  // "'" + printable(...): GCC 12 warns (-Wrestrict) on the inlined insert at the front of a
  // temporary string there, a false positive (seen when the unity batches changed).
  std::string out;
  if (m.name.empty())
    out = "mesh " + std::to_string(mesh) + " (no name): ";
  else
    out.append("'").append(printable(m.name)).append("': ");
  if (m.shape != MeshShape::Closed) return out + mesh_shape_name(m.shape) + ", not measured";
  if (f.status != VolumeStatus::Ok) return out + "closed, " + volume_sampling_line(f);
  if (!m.measured) return out + "closed, but no volume at rest (flat, or not finite), not measured";
  if (f.poses == 0) return out + "closed, not measured";
  return out + at_time(m.change(), m.time()) + " (min " + at_time(m.min_change, m.min_time) +
         ", max " + at_time(m.max_change, m.max_time) + ")";
}

}  // namespace sv
