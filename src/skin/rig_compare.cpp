#include "skin/rig_compare.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <numeric>
#include <string_view>
#include <unordered_map>

#include <glm/geometric.hpp>
#include <glm/gtc/quaternion.hpp>
#include <glm/mat3x3.hpp>

#include "anim/model.h"
#include "skin/skin_difference.h"

namespace sv {
namespace {

constexpr double kDegrees = 57.29577951308232;

// T * R * S of a bind matrix (no shear expected; a mirrored one keeps a negative x scale).
Transform decompose(const glm::mat4& m) noexcept {
  Transform t;
  t.translation = glm::vec3(m[3]);
  glm::mat3 r(m);
  for (int c = 0; c < 3; ++c) {
    const float len = glm::length(r[c]);
    t.scale[c] = len;
    if (len > 0.0f) r[c] /= len;
  }
  if (glm::determinant(r) < 0.0f) {
    t.scale.x = -t.scale.x;
    r[0] = -r[0];
  }
  t.rotation = glm::normalize(glm::quat_cast(r));
  return t;
}

double angle_degrees(const glm::quat& a, const glm::quat& b) noexcept {
  const double d = std::abs(static_cast<double>(glm::dot(glm::normalize(a), glm::normalize(b))));
  return 2.0 * std::acos(std::min(d, 1.0)) * kDegrees;
}

bool beyond(const TransformDelta& d, const CompareTolerances& t, double units) noexcept {
  return !(d.distance <= units) || !(d.degrees <= t.degrees) || !(d.scale <= t.scale);
}

// The vertex with file index i, in the mesh's order (Mesh::source_vertex); -1 where none.
std::vector<int32_t> file_order(const Mesh& m) {
  std::vector<int32_t> at(m.vertex_count(), -1);
  for (std::size_t i = 0; i < m.vertex_count(); ++i) {
    const std::size_t f = m.source_vertex.empty() ? i : m.source_vertex[i];
    if (f < at.size()) at[f] = static_cast<int32_t>(i);
  }
  return at;
}

std::size_t file_index(const Mesh& m, std::size_t i) noexcept {
  return m.source_vertex.empty() ? i : m.source_vertex[i];
}

// A vertex's weights as (joint id, weight), merged per id, up to 8.
struct WeightMap {
  std::array<int32_t, 8> id{};
  std::array<float, 8> w{};
  int n = 0;
  void add(int32_t joint, float weight) noexcept {
    if (!(weight != 0.0f)) return;
    for (int k = 0; k < n; ++k)
      if (id[static_cast<std::size_t>(k)] == joint) {
        w[static_cast<std::size_t>(k)] += weight;
        return;
      }
    if (n == 8) return;
    id[static_cast<std::size_t>(n)] = joint;
    w[static_cast<std::size_t>(n++)] = weight;
  }
};

// Vertex i's weights with its skeleton joints mapped through `ids` (skeleton joint -> id).
WeightMap weights_of(const Mesh& m, std::size_t i, const std::vector<int32_t>& ids) {
  WeightMap map;
  const auto id = [&](uint16_t slot) {
    const int32_t joint = slot < m.skin_joints.size() ? m.skin_joints[slot] : -1;
    return joint >= 0 && static_cast<std::size_t>(joint) < ids.size()
               ? ids[static_cast<std::size_t>(joint)]
               : -1;
  };
  // With 8 kept: the top 4's share is 1 - sum(weights2) (anim/model.h).
  float share = 1.0f;
  if (m.has_influences8()) {
    const glm::vec4& w2 = m.weights2[i];
    share = 1.0f - (w2.x + w2.y + w2.z + w2.w);
    for (int k = 0; k < 4; ++k) map.add(id(m.joints2[i][k]), w2[k]);
  }
  for (int k = 0; k < 4; ++k) map.add(id(m.joints[i][k]), share * m.weights[i][k]);
  return map;
}

double l1(const WeightMap& a, const WeightMap& b) noexcept {
  double sum = 0.0;
  for (int i = 0; i < a.n; ++i) {
    float other = 0.0f;
    for (int k = 0; k < b.n; ++k)
      if (b.id[static_cast<std::size_t>(k)] == a.id[static_cast<std::size_t>(i)])
        other = b.w[static_cast<std::size_t>(k)];
    sum += std::abs(static_cast<double>(a.w[static_cast<std::size_t>(i)]) - other);
  }
  for (int k = 0; k < b.n; ++k) {
    bool shared = false;
    for (int i = 0; i < a.n; ++i)
      shared |= a.id[static_cast<std::size_t>(i)] == b.id[static_cast<std::size_t>(k)];
    if (!shared) sum += std::abs(static_cast<double>(b.w[static_cast<std::size_t>(k)]));
  }
  return sum;
}

// Nearest point queries over a fixed set: an implicit k-d tree (median splits, built once;
// coincident points prune each other, so a mesh of repeated positions costs no more).
class NearestPoints {
 public:
  explicit NearestPoints(std::span<const glm::vec3> points) : points_(points) {
    order_.resize(points.size());
    std::iota(order_.begin(), order_.end(), 0u);
    build(0, order_.size(), 0);
  }
  // The nearest point's index and its squared distance; -1 for an empty set. Every node visited
  // counts a step (steps(), over all queries); past `max_steps` the search gives up (the answer is
  // then not the nearest: the caller stops).
  int64_t nearest(const glm::vec3& p, double* distance2, uint64_t max_steps) const {
    best_ = -1;
    best_d2_ = std::numeric_limits<double>::infinity();
    max_steps_ = max_steps;
    search(p, 0, order_.size(), 0);
    *distance2 = best_d2_;
    return best_;
  }
  uint64_t steps() const noexcept { return steps_; }

 private:
  void build(std::size_t lo, std::size_t hi, int axis) {
    if (hi - lo <= 1) return;
    const std::size_t mid = lo + (hi - lo) / 2;
    std::nth_element(order_.begin() + static_cast<std::ptrdiff_t>(lo),
                     order_.begin() + static_cast<std::ptrdiff_t>(mid),
                     order_.begin() + static_cast<std::ptrdiff_t>(hi),
                     [&](uint32_t x, uint32_t y) { return points_[x][axis] < points_[y][axis]; });
    build(lo, mid, (axis + 1) % 3);
    build(mid + 1, hi, (axis + 1) % 3);
  }
  void search(const glm::vec3& p, std::size_t lo, std::size_t hi, int axis) const {
    if (lo >= hi || steps_ > max_steps_) return;
    ++steps_;
    const std::size_t mid = lo + (hi - lo) / 2;
    const uint32_t i = order_[mid];
    const glm::dvec3 d = glm::dvec3(points_[i]) - glm::dvec3(p);
    const double d2 = glm::dot(d, d);
    if (d2 < best_d2_ || (d2 == best_d2_ && static_cast<int64_t>(i) < best_)) {
      best_d2_ = d2;
      best_ = i;
    }
    const double split = static_cast<double>(p[axis]) - static_cast<double>(points_[i][axis]);
    const int next = (axis + 1) % 3;
    const bool left_first = split < 0.0;
    search(p, left_first ? lo : mid + 1, left_first ? mid : hi, next);
    if (split * split <= best_d2_)
      search(p, left_first ? mid + 1 : lo, left_first ? hi : mid, next);
  }

  std::span<const glm::vec3> points_;
  std::vector<uint32_t> order_;
  mutable int64_t best_ = -1;
  mutable double best_d2_ = 0.0;
  mutable uint64_t steps_ = 0;
  mutable uint64_t max_steps_ = 0;
};

// The comparison's budget and cancel flag, and why it stopped.
struct Run {
  Run(const CompareBudget& b, const std::atomic<bool>* c) : budget(b), cancel(c) {}
  const CompareBudget& budget;
  const std::atomic<bool>* cancel;
  CompareStatus status = CompareStatus::Done;
  std::string problem;

  bool stopped() const noexcept { return status != CompareStatus::Done; }
  // Polled in every loop: true (and stopped) once the caller cancelled.
  bool cancelled() {
    if (status == CompareStatus::Done && cancel != nullptr &&
        cancel->load(std::memory_order_relaxed)) {
      status = CompareStatus::Cancelled;
      problem = "comparison cancelled";
    }
    return stopped();
  }
  // True (and stopped, "comparison too large: COUNT WHAT over the budget of LIMIT") when `count`
  // is over `limit`.
  bool over(uint64_t count, uint64_t limit, const std::string& what) {
    if (count <= limit) return false;
    status = CompareStatus::TooLarge;
    problem = "comparison too large: " + std::to_string(count) + " " + what +
              " over the budget of " + std::to_string(limit);
    return true;
  }
};

// Where each name first appears (a later namesake is not matched, as Skeleton::find).
template <class Name>
std::unordered_map<std::string_view, int32_t> first_of(std::size_t n, Name name) {
  std::unordered_map<std::string_view, int32_t> at;
  at.reserve(n);
  for (std::size_t i = 0; i < n; ++i) at.emplace(name(i), static_cast<int32_t>(i));
  return at;
}

std::string mesh_label(const Model& m, std::size_t i) {
  return "[" + std::to_string(i) + "] '" + m.meshes[i].name + "'";
}

bool compare_joints(const Model& a, const Model& b, RigComparison& r, Run& run) {
  const Skeleton& sa = a.skeleton;
  const Skeleton& sb = b.skeleton;
  r.b_of_a.assign(sa.size(), -1);
  std::vector<int32_t> a_of_b(sb.size(), -1);
  {
    const auto in_b =
        first_of(sb.size(), [&](std::size_t j) { return std::string_view(sb.names[j]); });
    for (std::size_t i = 0; i < sa.size(); ++i) {
      const auto it = in_b.find(sa.names[i]);
      if (it != in_b.end() && a_of_b[static_cast<std::size_t>(it->second)] < 0) {
        r.b_of_a[i] = it->second;
        a_of_b[static_cast<std::size_t>(it->second)] = static_cast<int32_t>(i);
      }
    }
  }
  std::vector<int32_t> unmatched_b;
  for (std::size_t j = 0; j < sb.size(); ++j)
    if (a_of_b[j] < 0) unmatched_b.push_back(static_cast<int32_t>(j));
  uint64_t unmatched_a = 0;
  for (int32_t j : r.b_of_a) unmatched_a += j < 0 ? 1 : 0;
  if (run.over(unmatched_a * unmatched_b.size(), run.budget.joint_pairs,
               "joint pairs to try as renames (" + std::to_string(unmatched_a) + " of A's x " +
                   std::to_string(unmatched_b.size()) + " of B's joints without a namesake)"))
    return false;
  const double units = r.translation_tolerance();
  // Renamed: parents first, so a chain renamed whole is found joint by joint.
  for (std::size_t i = 0; i < sa.size(); ++i) {
    if (r.b_of_a[i] >= 0) continue;
    if (run.cancelled()) return false;
    const int32_t pa = sa.parents[i];
    const int32_t want_parent = pa < 0 ? -1 : r.b_of_a[static_cast<std::size_t>(pa)];
    if (pa >= 0 && want_parent < 0) continue;  // a removed parent: no place to compare
    for (int32_t jb : unmatched_b) {
      const std::size_t j = static_cast<std::size_t>(jb);
      if (a_of_b[j] >= 0 || sb.parents[j] != want_parent) continue;
      if (beyond(transform_delta(sa.rest[i], sb.rest[j]), r.tolerances, units)) continue;
      r.b_of_a[i] = jb;
      a_of_b[j] = static_cast<int32_t>(i);
      r.renamed.push_back({static_cast<int32_t>(i), jb});
      break;
    }
  }
  for (std::size_t i = 0; i < sa.size(); ++i)
    if (r.b_of_a[i] < 0) r.removed.push_back(static_cast<int32_t>(i));
  for (std::size_t j = 0; j < sb.size(); ++j)
    if (a_of_b[j] < 0) r.added.push_back(static_cast<int32_t>(j));
  for (std::size_t i = 0; i < sa.size(); ++i) {
    const int32_t j = r.b_of_a[i];
    if (j < 0) continue;
    if ((i & 1023) == 0 && run.cancelled()) return false;
    MovedJoint m;
    m.a = static_cast<int32_t>(i);
    m.b = j;
    m.rest = transform_delta(sa.rest[i], sb.rest[static_cast<std::size_t>(j)]);
    m.bind = transform_delta(decompose(glm::inverse(sa.inverse_bind[i])),
                             decompose(glm::inverse(sb.inverse_bind[static_cast<std::size_t>(j)])));
    if (beyond(m.rest, r.tolerances, units) || beyond(m.bind, r.tolerances, units))
      r.moved.push_back(m);
  }
  return true;
}

// Pairs the items of A with B's by name: the first of B's namesakes not taken yet; -1 where none.
template <class NameA, class NameB>
std::vector<int32_t> pair_by_name(std::size_t na, std::size_t nb, NameA name_a, NameB name_b) {
  std::vector<int32_t> b_of(na, -1);
  std::unordered_map<std::string_view, std::vector<int32_t>> in_b;  // each name's, in order
  in_b.reserve(nb);
  for (std::size_t k = 0; k < nb; ++k) in_b[name_b(k)].push_back(static_cast<int32_t>(k));
  std::unordered_map<std::string_view, std::size_t> next;  // per name, the first not taken
  for (std::size_t m = 0; m < na; ++m) {
    const auto it = in_b.find(name_a(m));
    if (it == in_b.end()) continue;
    std::size_t& n = next[it->first];
    if (n < it->second.size()) b_of[m] = it->second[n++];
  }
  return b_of;
}

bool compare_weights(const Model& a, const Model& b, RigComparison& r, Run& run) {
  // Joint ids: A's joint index; B's joints through the match, B's unmatched ones after A's.
  std::vector<int32_t> ids_a(a.skeleton.size());
  std::iota(ids_a.begin(), ids_a.end(), 0);
  std::vector<int32_t> ids_b(b.skeleton.size());
  for (std::size_t j = 0; j < ids_b.size(); ++j)
    ids_b[j] = static_cast<int32_t>(a.skeleton.size() + j);
  for (std::size_t i = 0; i < r.b_of_a.size(); ++i)
    if (r.b_of_a[i] >= 0) ids_b[static_cast<std::size_t>(r.b_of_a[i])] = static_cast<int32_t>(i);

  // Meshes: by index when the counts agree, else by name.
  std::vector<int32_t> b_of_mesh(a.meshes.size());
  if (a.meshes.size() == b.meshes.size())
    std::iota(b_of_mesh.begin(), b_of_mesh.end(), 0);
  else
    b_of_mesh = pair_by_name(
        a.meshes.size(), b.meshes.size(),
        [&](std::size_t m) { return std::string_view(a.meshes[m].name); },
        [&](std::size_t k) { return std::string_view(b.meshes[k].name); });
  std::vector<uint8_t> taken(b.meshes.size(), 0);
  uint64_t vertices_a = 0, vertices_b = 0, pairs = 0;
  for (std::size_t m = 0; m < a.meshes.size(); ++m) {
    if (b_of_mesh[m] < 0) continue;
    taken[static_cast<std::size_t>(b_of_mesh[m])] = 1;
    vertices_a += a.meshes[m].vertex_count();
    vertices_b += b.meshes[static_cast<std::size_t>(b_of_mesh[m])].vertex_count();
    ++pairs;
  }
  if (run.over(vertices_a + vertices_b, run.budget.vertices,
               "vertices to compare (A's " + std::to_string(vertices_a) + " and B's " +
                   std::to_string(vertices_b) + " in " + std::to_string(pairs) + " mesh pairs)"))
    return false;
  for (std::size_t k = 0; k < b.meshes.size(); ++k)
    if (!taken[k]) r.meshes_added.push_back(static_cast<int32_t>(k));

  r.change.resize(a.meshes.size());
  for (std::size_t m = 0; m < a.meshes.size(); ++m) {
    if (run.cancelled()) return false;
    const Mesh& ma = a.meshes[m];
    r.change[m].assign(ma.vertex_count(), -1.0f);
    if (b_of_mesh[m] < 0) {
      r.meshes_removed.push_back(static_cast<int32_t>(m));
      continue;
    }
    const Mesh& mb = b.meshes[static_cast<std::size_t>(b_of_mesh[m])];
    MeshPair pair;
    pair.a = static_cast<int32_t>(m);
    pair.b = b_of_mesh[m];
    pair.vertices_a = static_cast<uint32_t>(ma.vertex_count());
    pair.vertices_b = static_cast<uint32_t>(mb.vertex_count());
    pair.by_position = ma.vertex_count() != mb.vertex_count();
    std::vector<int32_t> match(ma.vertex_count(), -1);
    if (!pair.by_position) {
      const std::vector<int32_t> b_at = file_order(mb);
      for (std::size_t i = 0; i < ma.vertex_count(); ++i) {
        const std::size_t f = file_index(ma, i);
        match[i] = f < b_at.size() ? b_at[f] : -1;
      }
    } else if (mb.vertex_count() > 0) {
      const NearestPoints tree(mb.positions);
      if (run.cancelled()) return false;
      const uint64_t max_steps =
          run.budget.search_steps_per_vertex * ma.vertex_count() + run.budget.search_step_slack;
      double farthest2 = 0.0;
      for (std::size_t i = 0; i < ma.vertex_count(); ++i) {
        if ((i & 255) == 0 && run.cancelled()) return false;
        double d2 = 0.0;
        match[i] = static_cast<int32_t>(tree.nearest(ma.positions[i], &d2, max_steps));
        if (tree.steps() > max_steps) {
          run.status = CompareStatus::TooLarge;
          run.problem = "comparison too large: matching mesh " + mesh_label(a, m) +
                        " by nearest position (" + std::to_string(ma.vertex_count()) +
                        " vertices among B's " + std::to_string(mb.vertex_count()) +
                        ") needs more than the budget of " + std::to_string(max_steps) +
                        " search steps (" + std::to_string(run.budget.search_steps_per_vertex) +
                        " per vertex of A plus " + std::to_string(run.budget.search_step_slack) +
                        ")";
          return false;
        }
        farthest2 = std::max(farthest2, d2);
      }
      pair.farthest_match = std::sqrt(farthest2);
    }
    for (std::size_t i = 0; i < ma.vertex_count(); ++i) {
      if ((i & 1023) == 0 && run.cancelled()) return false;
      if (match[i] < 0) continue;
      const double d =
          l1(weights_of(ma, i, ids_a), weights_of(mb, static_cast<std::size_t>(match[i]), ids_b));
      r.change[m][i] = static_cast<float>(d);
      ++r.vertices_compared;
      if (d > r.tolerances.weight) ++pair.changed;
      if (d > pair.max_change) {
        pair.max_change = d;
        pair.max_vertex = static_cast<uint32_t>(i);
      }
    }
    r.vertices_changed += pair.changed;
    if (pair.max_change > r.max_change || r.max_mesh < 0) {
      r.max_change = pair.max_change;
      r.max_mesh = static_cast<int32_t>(m);
      r.max_vertex = pair.max_vertex;
    }
    r.meshes.push_back(pair);
  }
  return true;
}

double component_delta(TrackPath path, const Transform& x, const Transform& y) noexcept {
  switch (path) {
    case TrackPath::Translation:
      return static_cast<double>(glm::distance(x.translation, y.translation));
    case TrackPath::Rotation:
      return angle_degrees(x.rotation, y.rotation);
    case TrackPath::Scale: {
      const glm::vec3 d = glm::abs(x.scale - y.scale);
      return static_cast<double>(std::max({d.x, d.y, d.z}));
    }
  }
  return 0.0;
}

// Whether a clip's component keys anything: a track of one key holding the joint's rest value
// does not (assimp writes one for each component of an animated node that the file does not key:
// a joint moved at rest would otherwise show in every clip that turns it).
bool keys_something(const ClipRuntime& clip, std::size_t joint, TrackPath path,
                    std::span<const double> times, const Transform& rest, double limit) {
  if (times.empty()) return false;
  if (times.size() > 1) return true;
  Transform v;
  if (!sample_joint(clip, times[0], joint, v)) return true;
  return !(component_delta(path, v, rest) <= limit);
}

// Clips paired by name, counted against the budget before any is compared.
bool compare_clips(const Model& a, const Model& b, RigComparison& r, Run& run) {
  const double units = r.translation_tolerance();
  const std::vector<int32_t> b_of_clip = pair_by_name(
      a.clips.size(), b.clips.size(),
      [&](std::size_t c) { return std::string_view(a.clips[c].name()); },
      [&](std::size_t c) { return std::string_view(b.clips[c].name()); });
  uint64_t pairs = 0, joints = 0;
  for (std::size_t ca = 0; ca < a.clips.size(); ++ca) {
    if (b_of_clip[ca] < 0) continue;
    ++pairs;
    joints += a.clips[ca].joints() + b.clips[static_cast<std::size_t>(b_of_clip[ca])].joints();
  }
  if (run.over(joints, run.budget.clip_joints,
               "clip joints to compare (both clips' joints, in " + std::to_string(pairs) +
                   " clips paired by name)"))
    return false;
  // ClipRuntime::keys scans its clip's joints: within the budget just checked.
  uint64_t keys_a = 0, keys_b = 0;
  for (std::size_t ca = 0; ca < a.clips.size(); ++ca) {
    if (b_of_clip[ca] < 0) continue;
    keys_a += a.clips[ca].keys();
    keys_b += b.clips[static_cast<std::size_t>(b_of_clip[ca])].keys();
  }
  if (run.over(keys_a + keys_b, run.budget.clip_keys,
               "clip keys to compare (A's " + std::to_string(keys_a) + " and B's " +
                   std::to_string(keys_b) + " in " + std::to_string(pairs) +
                   " clips paired by name)"))
    return false;

  std::vector<uint8_t> seen(b.clips.size(), 0);
  for (std::size_t ca = 0; ca < a.clips.size(); ++ca) {
    const ClipRuntime& x = a.clips[ca];
    if (b_of_clip[ca] < 0) {
      r.clips_removed.push_back(x.name());
      continue;
    }
    const std::size_t cb = static_cast<std::size_t>(b_of_clip[ca]);
    seen[cb] = 1;
    const ClipRuntime& y = b.clips[cb];
    ClipDifference d;
    d.name = x.name();
    d.a = static_cast<int32_t>(ca);
    d.b = static_cast<int32_t>(cb);
    d.duration_a = x.duration();
    d.duration_b = y.duration();
    d.keys_a = x.keys();
    d.keys_b = y.keys();
    for (std::size_t j = 0; j < r.b_of_a.size() && j < x.joints(); ++j) {
      if ((j & 255) == 0 && run.cancelled()) return false;
      const int32_t jb = r.b_of_a[j];
      if (jb < 0 || static_cast<std::size_t>(jb) >= y.joints()) continue;
      for (TrackPath path : {TrackPath::Translation, TrackPath::Rotation, TrackPath::Scale}) {
        const std::span<const double> tx = x.key_times(j, path);
        const std::span<const double> ty = y.key_times(static_cast<std::size_t>(jb), path);
        const double limit = path == TrackPath::Translation ? units
                             : path == TrackPath::Rotation  ? r.tolerances.degrees
                                                            : r.tolerances.scale;
        TrackDifference t;
        t.a = static_cast<int32_t>(j);
        t.b = jb;
        t.path = path;
        t.keyed_a = keys_something(x, j, path, tx, a.skeleton.rest[j], limit);
        t.keyed_b = keys_something(y, static_cast<std::size_t>(jb), path, ty,
                                   b.skeleton.rest[static_cast<std::size_t>(jb)], limit);
        t.keys_a = tx.size();
        t.keys_b = ty.size();
        if (!t.keyed_a && !t.keyed_b) continue;
        t.times_differ = tx.size() != ty.size();
        for (std::size_t k = 0; !t.times_differ && k < tx.size(); ++k)
          t.times_differ = !(std::abs(tx[k] - ty[k]) <= r.tolerances.seconds);
        // The values at every key time of either side (the rest value where a side keys none).
        const auto at = [&](double time) {
          Transform vx, vy;
          if (!sample_joint(x, time, j, vx)) vx = a.skeleton.rest[j];
          if (!sample_joint(y, time, static_cast<std::size_t>(jb), vy))
            vy = b.skeleton.rest[static_cast<std::size_t>(jb)];
          t.max_value = std::max(t.max_value, component_delta(path, vx, vy));
        };
        for (double time : tx) at(time);
        for (double time : ty) at(time);
        if (t.keyed_a != t.keyed_b || t.times_differ || !(t.max_value <= limit))
          d.tracks.push_back(t);
      }
    }
    const bool changed = !(std::abs(d.duration_a - d.duration_b) <= r.tolerances.seconds) ||
                         d.keys_a != d.keys_b || !d.tracks.empty();
    if (changed)
      r.clips_changed.push_back(std::move(d));
    else
      ++r.clips_same;
  }
  for (std::size_t k = 0; k < b.clips.size(); ++k)
    if (!seen[k]) r.clips_added.push_back(b.clips[k].name());
  return true;
}

}  // namespace

bool RigComparison::any_difference() const noexcept {
  return !renamed.empty() || !removed.empty() || !added.empty() || !moved.empty() ||
         vertices_changed > 0 || !meshes_removed.empty() || !meshes_added.empty() ||
         !clips_removed.empty() || !clips_added.empty() || !clips_changed.empty();
}

double RigComparison::translation_tolerance() const noexcept {
  return tolerances.translation * (model_size > 0.0 ? model_size : 1.0);
}

TransformDelta transform_delta(const Transform& a, const Transform& b) noexcept {
  TransformDelta d;
  const glm::dvec3 t = glm::dvec3(a.translation) - glm::dvec3(b.translation);
  d.distance = std::sqrt(glm::dot(t, t));
  d.degrees = angle_degrees(a.rotation, b.rotation);
  const glm::vec3 s = glm::abs(a.scale - b.scale);
  d.scale = static_cast<double>(std::max({s.x, s.y, s.z}));
  return d;
}

RigComparison compare_rigs(const Model& a, const Model& b, const CompareTolerances& tolerances,
                           const CompareBudget& budget, const std::atomic<bool>* cancel) {
  RigComparison r;
  r.tolerances = tolerances;
  Run run(budget, cancel);
  if (!run.cancelled()) {
    r.model_size = stored_size(a);
    if (compare_joints(a, b, r, run) && compare_weights(a, b, r, run) &&
        compare_clips(a, b, r, run))
      return r;
  }
  // Stopped: no partial figures.
  RigComparison stopped;
  stopped.status = run.status;
  stopped.problem = std::move(run.problem);
  stopped.tolerances = tolerances;
  return stopped;
}

}  // namespace sv
