#include "skin/volume.h"

#include <algorithm>
#include <cmath>

#include "anim/bounds.h"
#include "anim/model.h"
#include "skin/clip_bounds.h"

namespace sv {

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
      return "open";
    case MeshShape::Misoriented:
      return "inconsistently wound";
  }
  return "?";
}

MeshShape mesh_shape(std::span<const glm::vec3> positions, std::span<const uint32_t> indices) {
  const std::size_t n = positions.size();
  // Weld: vertices closer than kWeldTolerance x the mesh's size (max norm) become one, by
  // union-find over the neighbouring cells of a grid of that spacing (exact equality is not
  // enough: a capsule's pole copies differ by 1e-17 where cos(pi/2) is not 0).
  Bounds box;
  for (const glm::vec3& p : positions) box.add(p);
  const double size = box.valid() ? glm::length(glm::dvec3(box.max) - glm::dvec3(box.min)) : 0.0;
  const double tol = std::isfinite(size) ? kWeldTolerance * size : 0.0;
  const double cell = tol > 0.0 ? tol : 1.0;
  struct Keyed {
    glm::dvec3 key;  // the grid cell, floor(p / cell)
    uint32_t vertex;
  };
  const auto key_less = [](const glm::dvec3& a, const glm::dvec3& b) {
    if (a.x != b.x) return a.x < b.x;
    if (a.y != b.y) return a.y < b.y;
    return a.z < b.z;
  };
  std::vector<Keyed> grid(n);
  for (std::size_t i = 0; i < n; ++i)
    grid[i] = {glm::floor(glm::dvec3(positions[i]) / cell), static_cast<uint32_t>(i)};
  std::sort(grid.begin(), grid.end(),
            [&](const Keyed& a, const Keyed& b) { return key_less(a.key, b.key); });
  std::vector<uint32_t> weld(n);
  for (std::size_t i = 0; i < n; ++i) weld[i] = static_cast<uint32_t>(i);
  const auto find = [&](uint32_t v) {
    while (weld[v] != v) v = weld[v] = weld[weld[v]];
    return v;
  };
  for (const Keyed& g : grid) {
    const glm::dvec3 p(positions[g.vertex]);
    for (int dx = -1; dx <= 1; ++dx) {
      for (int dy = -1; dy <= 1; ++dy) {
        for (int dz = -1; dz <= 1; ++dz) {
          const glm::dvec3 k = g.key + glm::dvec3(dx, dy, dz);
          auto it = std::lower_bound(
              grid.begin(), grid.end(), k,
              [&](const Keyed& a, const glm::dvec3& b) { return key_less(a.key, b); });
          for (; it != grid.end() && it->key == k; ++it) {
            const glm::dvec3 d = glm::abs(glm::dvec3(positions[it->vertex]) - p);
            if (std::max({d.x, d.y, d.z}) > tol) continue;
            const uint32_t a = find(g.vertex);
            const uint32_t b = find(it->vertex);
            weld[std::max(a, b)] = std::min(a, b);
          }
        }
      }
    }
  }
  for (std::size_t i = 0; i < n; ++i) weld[i] = find(static_cast<uint32_t>(i));

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

std::vector<MeshShape> mesh_shapes(const Model& model) {
  std::vector<MeshShape> out;
  out.reserve(model.meshes.size());
  for (const Mesh& m : model.meshes) out.push_back(mesh_shape(m.positions, m.indices));
  return out;
}

VolumeChange clip_volume_change(const Model& model, int32_t clip, const SkinChoice& skin,
                                std::span<const MeshShape> shapes, WorkerPool* pool) {
  VolumeChange out;
  const std::size_t meshes = model.meshes.size();
  if (shapes.size() != meshes) return out;
  SkinnedPose a(model);
  a.set_skin(skin);
  const bool has_clip = clip >= 0 && static_cast<std::size_t>(clip) < model.clips.size();
  a.pose.set_clip(model, has_clip ? clip : -1);

  // The bind volumes; meshes that are open (or flat) are left out.
  std::vector<double> bind(meshes, 0.0);
  if (!a.evaluate(model, PoseMode::Bind, 0.0) || !a.skin_cpu(model, pool)) return out;
  std::size_t vertices = 0;
  for (std::size_t m = 0; m < meshes; ++m) {
    if (shapes[m] == MeshShape::Closed) {
      bind[m] = signed_volume(a.skinned_positions(m), model.meshes[m].indices);
      if (!std::isfinite(bind[m]) || bind[m] == 0.0) bind[m] = 0.0;
    }
    if (bind[m] != 0.0) {
      ++out.closed;
      vertices += model.meshes[m].vertex_count();
    } else {
      ++out.open;
    }
  }

  // 0, 1/rate, 2/rate, ... below the end, then the end; the rate lowered to stay within
  // kBoundsWork samples x vertices (at least both ends).
  const double duration = has_clip ? model.clips[static_cast<std::size_t>(clip)].duration() : 0.0;
  double rate = kVolumeRate;
  int steps = 0;  // samples before the end
  if (duration > 0.0 && std::isfinite(duration)) {
    const double budget =
        std::max(2.0, static_cast<double>(kBoundsWork) /
                          static_cast<double>(std::max<std::size_t>(vertices, 1)));
    if (std::ceil(duration * rate) + 1.0 > budget) rate = (budget - 1.0) / duration;
    steps = static_cast<int>(std::ceil(duration * rate - 1e-9));
  }
  out.rate = rate;
  out.ok = true;
  const PoseMode mode = has_clip ? PoseMode::Clip : PoseMode::Rest;
  double largest = -1.0;
  for (int i = 0; i <= steps; ++i) {
    const double t = i < steps ? static_cast<double>(i) / rate : duration;
    ++out.samples;
    if (!a.evaluate(model, mode, t) || !a.skin_cpu(model, pool)) {
      out.ok = false;
      return out;
    }
    for (std::size_t m = 0; m < meshes; ++m) {
      if (bind[m] == 0.0) continue;
      const double change =
          signed_volume(a.skinned_positions(m), model.meshes[m].indices) / bind[m] - 1.0;
      if (std::abs(change) > largest) {
        largest = std::abs(change);
        out.mesh = static_cast<int32_t>(m);
        out.change = change;
        out.time = t;
        out.bind_volume = bind[m];
      }
    }
  }
  return out;
}

}  // namespace sv
