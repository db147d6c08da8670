#include "skin/rotation_centers.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <thread>
#include <unordered_map>

#include <glm/geometric.hpp>

#include "anim/model.h"

namespace sv {
namespace {

constexpr int kMaxInfluences = 8;

// A vertex's weights as (joint, weight) pairs with weight > 0, sorted by joint.
struct Sparse {
  int count = 0;
  std::array<uint16_t, kMaxInfluences> joint{};
  std::array<float, kMaxInfluences> weight{};
};

Sparse sparse_weights(const CenterInput& in, std::size_t v) {
  Sparse s;
  const bool eight = !in.joints2.empty();
  const glm::vec4 w2 = eight ? in.weights2[v] : glm::vec4(0.0f);
  const float first = eight ? 1.0f - (w2.x + w2.y + w2.z + w2.w) : 1.0f;
  auto add = [&](uint16_t j, float w) {
    if (!(w > 0.0f)) return;
    for (int i = 0; i < s.count; ++i)
      if (s.joint[static_cast<std::size_t>(i)] == j) {
        s.weight[static_cast<std::size_t>(i)] += w;
        return;
      }
    s.joint[static_cast<std::size_t>(s.count)] = j;
    s.weight[static_cast<std::size_t>(s.count)] = w;
    ++s.count;
  };
  for (int i = 0; i < 4; ++i) add(in.joints[v][i], in.weights[v][i] * first);
  if (eight)
    for (int i = 0; i < 4; ++i) add(in.joints2[v][i], w2[i]);
  // Sort by joint (insertion sort: at most 8).
  for (int i = 1; i < s.count; ++i)
    for (int k = i;
         k > 0 && s.joint[static_cast<std::size_t>(k - 1)] > s.joint[static_cast<std::size_t>(k)];
         --k) {
      std::swap(s.joint[static_cast<std::size_t>(k - 1)], s.joint[static_cast<std::size_t>(k)]);
      std::swap(s.weight[static_cast<std::size_t>(k - 1)], s.weight[static_cast<std::size_t>(k)]);
    }
  return s;
}

uint32_t pair_key(uint16_t j, uint16_t k) { return (static_cast<uint32_t>(j) << 16) | k; }

// The integration elements filed by joint pair: for each pair (j < k) the elements whose mean
// weights have both, as flat arrays (structure of arrays for the inner loop).
struct PairList {
  std::vector<float> wj, wk, area, cx, cy, cz;
  void push(float a, float b, float ar, const glm::vec3& c) {
    wj.push_back(a);
    wk.push_back(b);
    area.push_back(ar);
    cx.push_back(c.x);
    cy.push_back(c.y);
    cz.push_back(c.z);
  }
};

// Merges runs of `run` consecutive elements of `l` into one each (the run's total area, its
// area-weighted centroid and mean weights): "Budget" in rotation_centers.h.
void coarsen(PairList& l, std::size_t run) {
  const std::size_t n = l.wj.size();
  std::size_t out = 0;
  for (std::size_t begin = 0; begin < n; begin += run, ++out) {
    const std::size_t end = std::min(n, begin + run);
    double area = 0.0, wj = 0.0, wk = 0.0, cx = 0.0, cy = 0.0, cz = 0.0;
    for (std::size_t t = begin; t < end; ++t) {
      const double a = l.area[t];
      area += a;
      wj += a * l.wj[t];
      wk += a * l.wk[t];
      cx += a * l.cx[t];
      cy += a * l.cy[t];
      cz += a * l.cz[t];
    }
    // Areas are > 0 (file() drops the others), so the run's area is too.
    l.area[out] = static_cast<float>(area);
    l.wj[out] = static_cast<float>(wj / area);
    l.wk[out] = static_cast<float>(wk / area);
    l.cx[out] = static_cast<float>(cx / area);
    l.cy[out] = static_cast<float>(cy / area);
    l.cz[out] = static_cast<float>(cz / area);
  }
  for (std::vector<float>* v : {&l.wj, &l.wk, &l.area, &l.cx, &l.cy, &l.cz}) v->resize(out);
}

struct Lists {
  std::unordered_map<uint32_t, uint32_t> index;  // pair key -> lists
  std::vector<PairList> lists;
  PairList& at(uint32_t key) {
    const auto [it, fresh] = index.try_emplace(key, static_cast<uint32_t>(lists.size()));
    if (fresh) lists.emplace_back();
    return lists[it->second];
  }
  const PairList* find(uint32_t key) const {
    const auto it = index.find(key);
    return it == index.end() ? nullptr : &lists[it->second];
  }
};

// A triangle's corners with their weights over the union of its corners' joints.
struct Corner {
  glm::vec3 p;
  std::array<float, 3 * kMaxInfluences> w;
};

struct Subdivider {
  std::array<uint16_t, 3 * kMaxInfluences> joints{};
  int n = 0;  // joints in the union
  Lists* lists;
  int max_depth = kMaxSubdivision;
  std::size_t* filed = nullptr;  // elements filed so far (all triangles)
  std::size_t limit = 0;         // at most this many: beyond, `over` and nothing more is filed
  bool over = false;

  float distance(const Corner& a, const Corner& b) const {
    float d = 0.0f;
    for (int i = 0; i < n; ++i) {
      const float x = a.w[static_cast<std::size_t>(i)] - b.w[static_cast<std::size_t>(i)];
      d += x * x;
    }
    return std::sqrt(d);
  }

  void file(const Corner& a, const Corner& b, const Corner& c) {
    const float area = 0.5f * glm::length(glm::cross(b.p - a.p, c.p - a.p));
    if (!(area > 0.0f)) return;
    const glm::vec3 centroid = (a.p + b.p + c.p) / 3.0f;
    for (int i = 0; i < n; ++i) {
      const auto si = static_cast<std::size_t>(i);
      const float wi = (a.w[si] + b.w[si] + c.w[si]) / 3.0f;
      if (!(wi > 0.0f)) continue;
      for (int k = i + 1; k < n; ++k) {
        const auto sk = static_cast<std::size_t>(k);
        const float wk = (a.w[sk] + b.w[sk] + c.w[sk]) / 3.0f;
        if (!(wk > 0.0f)) continue;
        if (*filed >= limit) {
          over = true;
          return;
        }
        ++*filed;
        lists->at(pair_key(joints[si], joints[sk])).push(wi, wk, area, centroid);
      }
    }
  }

  Corner mid(const Corner& a, const Corner& b) const {
    Corner m;
    m.p = 0.5f * (a.p + b.p);
    for (int i = 0; i < n; ++i)
      m.w[static_cast<std::size_t>(i)] =
          0.5f * (a.w[static_cast<std::size_t>(i)] + b.w[static_cast<std::size_t>(i)]);
    return m;
  }

  void add(const Corner& a, const Corner& b, const Corner& c, int depth) {
    if (over) return;
    const float d = std::max({distance(a, b), distance(b, c), distance(c, a)});
    if (d <= kCorEpsilon || depth >= max_depth) {
      file(a, b, c);
      return;
    }
    const Corner ab = mid(a, b), bc = mid(b, c), ca = mid(c, a);
    add(a, ab, ca, depth + 1);
    add(ab, b, bc, depth + 1);
    add(ca, bc, c, depth + 1);
    add(ab, bc, ca, depth + 1);
  }
};

// exp(-u) for u >= 0 in plain arithmetic the compiler vectorises: 2^(-u log2 e) split into an
// integer power (exponent bits) and a fraction (degree-6 polynomial, relative error < 2e-7).
// Zero past u = 80 (the term is below 2e-35 of the largest one).
inline float exp_neg(float u) {
  const float x = std::min(u, 80.0f) * -1.44269504f;  // log2(e), x in [-115.4, 0]
  const float fi = std::floor(x);
  const float f = x - fi;  // [0, 1)
  float p = 1.53533e-4f;
  p = p * f + 1.339887e-3f;
  p = p * f + 9.618437e-3f;
  p = p * f + 5.550332e-2f;
  p = p * f + 2.4022652e-1f;
  p = p * f + 6.9314718e-1f;
  p = p * f + 1.0f;
  const int32_t e = static_cast<int32_t>(fi) + 127;  // >= 11: a normal float
  int32_t bits = e << 23;
  float scale;
  std::memcpy(&scale, &bits, sizeof scale);
  return u < 80.0f ? p * scale : 0.0f;
}

struct Sums {
  double s = 0.0, x = 0.0, y = 0.0, z = 0.0;
};

// The terms of one joint pair (the vertex's weights a, b on it) over its list.
void accumulate(const PairList& l, float a, float b, Sums* out) {
  constexpr float kInvSigma2 = 1.0f / (kCorSigma * kCorSigma);
  const float ab = a * b;
  const std::size_t n = l.wj.size();
  constexpr std::size_t kLanes = 8, kChunk = 1024;
  for (std::size_t begin = 0; begin < n; begin += kChunk) {
    const std::size_t end = std::min(n, begin + kChunk);
    float s[kLanes] = {}, x[kLanes] = {}, y[kLanes] = {}, z[kLanes] = {};
    std::size_t t = begin;
    for (; t + kLanes <= end; t += kLanes) {
      for (std::size_t i = 0; i < kLanes; ++i) {
        const float wj = l.wj[t + i], wk = l.wk[t + i];
        const float d = a * wk - b * wj;
        const float m = ab * wj * wk * l.area[t + i] * exp_neg(d * d * kInvSigma2);
        s[i] += m;
        x[i] += m * l.cx[t + i];
        y[i] += m * l.cy[t + i];
        z[i] += m * l.cz[t + i];
      }
    }
    for (; t < end; ++t) {
      const float wj = l.wj[t], wk = l.wk[t];
      const float d = a * wk - b * wj;
      const float m = ab * wj * wk * l.area[t] * exp_neg(d * d * kInvSigma2);
      s[0] += m;
      x[0] += m * l.cx[t];
      y[0] += m * l.cy[t];
      z[0] += m * l.cz[t];
    }
    for (std::size_t i = 0; i < kLanes; ++i) {
      out->s += s[i];
      out->x += x[i];
      out->y += y[i];
      out->z += z[i];
    }
  }
}

struct WeightKey {
  std::array<uint16_t, kMaxInfluences> joint;
  std::array<float, kMaxInfluences> weight;
  bool operator==(const WeightKey& o) const {
    return joint == o.joint && std::memcmp(weight.data(), o.weight.data(), sizeof weight) == 0;
  }
};

struct WeightKeyHash {
  std::size_t operator()(const WeightKey& k) const {
    uint64_t h = 1469598103934665603ull;
    const auto mix = [&](const void* p, std::size_t bytes) {
      const auto* c = static_cast<const unsigned char*>(p);
      for (std::size_t i = 0; i < bytes; ++i) h = (h ^ c[i]) * 1099511628211ull;
    };
    mix(k.joint.data(), sizeof k.joint);
    mix(k.weight.data(), sizeof k.weight);
    return static_cast<std::size_t>(h);
  }
};

}  // namespace

bool compute_rotation_centers(const CenterInput& in, std::span<glm::vec3> out,
                              CenterProgress* progress, unsigned threads, uint64_t work_budget,
                              std::size_t elements) {
  const std::size_t n = in.positions.size();
  if (in.joints.size() != n || in.weights.size() != n || out.size() != n ||
      in.indices.size() % 3 != 0 || in.joints2.size() != in.weights2.size() ||
      (!in.joints2.empty() && in.joints2.size() != n))
    return false;
  for (uint32_t i : in.indices)
    if (i >= n) return false;

  std::vector<Sparse> sparse(n);
  for (std::size_t v = 0; v < n; ++v) sparse[v] = sparse_weights(in, v);

  // File every (subdivided) triangle under each pair of its mean weights' joints, within the
  // element budget: subdivided less deeply until the elements fit, refused when even the
  // triangles unsubdivided do not ("Budget" in rotation_centers.h).
  Lists lists;
  int depth = kMaxSubdivision;
  for (;; --depth) {
    lists = Lists{};
    std::size_t filed = 0;
    bool over = false;
    for (std::size_t t = 0; t + 2 < in.indices.size() && !over; t += 3) {
      if (t % (3 * 4096) == 0 && progress != nullptr && progress->cancel.load()) return false;
      Subdivider sub;
      sub.lists = &lists;
      sub.max_depth = depth;
      sub.filed = &filed;
      sub.limit = elements;
      const uint32_t idx[3] = {in.indices[t], in.indices[t + 1], in.indices[t + 2]};
      for (uint32_t v : idx)
        for (int i = 0; i < sparse[v].count; ++i) {
          const uint16_t j = sparse[v].joint[static_cast<std::size_t>(i)];
          if (std::find(sub.joints.begin(), sub.joints.begin() + sub.n, j) ==
              sub.joints.begin() + sub.n)
            sub.joints[static_cast<std::size_t>(sub.n++)] = j;
        }
      if (sub.n < 2) continue;  // one joint: no pair, no similarity to anything
      Corner c[3];
      for (int k = 0; k < 3; ++k) {
        const Sparse& s = sparse[idx[k]];
        c[k].p = in.positions[idx[k]];
        c[k].w.fill(0.0f);
        for (int i = 0; i < s.count; ++i) {
          const auto at = std::find(sub.joints.begin(), sub.joints.begin() + sub.n,
                                    s.joint[static_cast<std::size_t>(i)]);
          c[k].w[static_cast<std::size_t>(at - sub.joints.begin())] =
              s.weight[static_cast<std::size_t>(i)];
        }
      }
      sub.add(c[0], c[1], c[2], 0);
      over = sub.over;
    }
    if (!over) break;
    if (depth == 0) return false;  // too many joint pairs blend even without subdividing
  }
  if (progress != nullptr) {
    int was = progress->depth.load();
    while (was > depth && !progress->depth.compare_exchange_weak(was, depth)) {
    }
  }

  // One centre per distinct weight vector.
  std::vector<uint32_t> unique;    // first vertex of each distinct weight vector
  std::vector<uint32_t> which(n);  // vertex -> index into unique
  std::vector<uint32_t> copies;    // per distinct weight vector: how many vertices have it
  {
    std::unordered_map<WeightKey, uint32_t, WeightKeyHash> seen;
    seen.reserve(n);
    for (std::size_t v = 0; v < n; ++v) {
      WeightKey key{};
      for (int i = 0; i < sparse[v].count; ++i) {
        key.joint[static_cast<std::size_t>(i)] = sparse[v].joint[static_cast<std::size_t>(i)];
        key.weight[static_cast<std::size_t>(i)] = sparse[v].weight[static_cast<std::size_t>(i)];
      }
      const auto [it, fresh] = seen.try_emplace(key, static_cast<uint32_t>(unique.size()));
      if (fresh) {
        unique.push_back(static_cast<uint32_t>(v));
        copies.push_back(0);
      }
      which[v] = it->second;
      ++copies[it->second];
    }
  }
  // The budget: the terms the sums would add, over every distinct weight vector's pairs.
  uint64_t terms = 0;
  for (uint32_t u : unique) {
    const Sparse& s = sparse[u];
    for (int i = 0; i < s.count; ++i)
      for (int k = i + 1; k < s.count; ++k)
        if (const PairList* l = lists.find(pair_key(s.joint[static_cast<std::size_t>(i)],
                                                    s.joint[static_cast<std::size_t>(k)])))
          terms += l->wj.size();
  }
  if (work_budget > 0 && terms > work_budget) {
    const uint64_t run = (terms + work_budget - 1) / work_budget;
    for (PairList& l : lists.lists) coarsen(l, static_cast<std::size_t>(run));
    if (progress != nullptr) {
      uint32_t was = progress->merge.load();
      const auto r = static_cast<uint32_t>(std::min<uint64_t>(run, UINT32_MAX));
      while (was < r && !progress->merge.compare_exchange_weak(was, r)) {
      }
    }
  }

  // A centre of each distinct weight vector; NaN x marks "no similar triangle".
  std::vector<glm::vec3> centre(unique.size(), glm::vec3(std::nanf(""), 0.0f, 0.0f));
  std::atomic<std::size_t> next{0};
  std::atomic<bool> stopped{false};
  constexpr std::size_t kBatch = 64;
  auto work = [&] {
    for (;;) {
      if (progress != nullptr && progress->cancel.load(std::memory_order_relaxed)) {
        stopped = true;
        return;
      }
      const std::size_t begin = next.fetch_add(kBatch, std::memory_order_relaxed);
      if (begin >= unique.size()) return;
      const std::size_t end = std::min(unique.size(), begin + kBatch);
      std::size_t vertices = 0;
      for (std::size_t u = begin; u < end; ++u) {
        const Sparse& s = sparse[unique[u]];
        Sums sums;
        for (int i = 0; i < s.count; ++i)
          for (int k = i + 1; k < s.count; ++k) {
            const auto si = static_cast<std::size_t>(i), sk = static_cast<std::size_t>(k);
            if (const PairList* l = lists.find(pair_key(s.joint[si], s.joint[sk])))
              accumulate(*l, s.weight[si], s.weight[sk], &sums);
          }
        if (sums.s > 0.0) centre[u] = glm::vec3(glm::dvec3(sums.x, sums.y, sums.z) / sums.s);
      }
      for (std::size_t u = begin; u < end; ++u) vertices += copies[u];
      if (progress != nullptr) progress->done.fetch_add(vertices, std::memory_order_relaxed);
    }
  };
  const unsigned count =
      std::max(1u, threads != 0 ? threads : std::max(1u, std::thread::hardware_concurrency()));
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < count && unique.size() > kBatch; ++t) pool.emplace_back(work);
  work();
  for (std::thread& t : pool) t.join();
  if (stopped) return false;
  for (std::size_t v = 0; v < n; ++v) {
    const glm::vec3& c = centre[which[v]];
    out[v] = std::isnan(c.x) ? in.positions[v] : c;
  }
  return true;
}

std::vector<std::vector<glm::vec3>> compute_rotation_centers(const Model& model, bool eight,
                                                             CenterProgress* progress,
                                                             unsigned threads) {
  std::vector<std::vector<glm::vec3>> out(model.meshes.size());
  for (const Mesh& m : model.meshes) {
    if (progress != nullptr) progress->total.fetch_add(m.vertex_count());
  }
  for (std::size_t i = 0; i < model.meshes.size(); ++i) {
    const Mesh& m = model.meshes[i];
    CenterInput in;
    in.positions = m.positions;
    in.indices = m.indices;
    in.joints = m.joints;
    in.weights = m.weights;
    if (eight) {
      in.joints2 = m.joints2;
      in.weights2 = m.weights2;
    }
    out[i].resize(m.vertex_count());
    if (!compute_rotation_centers(in, out[i], progress, threads)) return {};
  }
  return out;
}

}  // namespace sv
