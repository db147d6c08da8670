// Optimised centres of rotation: against a plain double loop over every (vertex, triangle) pair
// of the paper's formula (its own subdivision, dense weights, std::exp), the symmetry of a
// tube (centres on its axis), single-joint vertices, progress and cancelling, and bad input.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <vector>

#include <glm/geometric.hpp>
#include <glm/gtc/constants.hpp>

#include "skin/rotation_centers.h"
#include "test_util.h"

namespace sv {
namespace {

// A closed-ish tube along +X from 0 to `length`, radius 0.2, `sides` around and `rings` along,
// weights by axial position only: joint 0 up to the middle, joint 1 after, blended by a
// smoothstep over [0.35, 0.65] of the length; with `three`, a third joint takes the last fifth.
struct Tube {
  std::vector<glm::vec3> positions;
  std::vector<uint32_t> indices;
  std::vector<glm::u16vec4> joints;
  std::vector<glm::vec4> weights;
  CenterInput input() const { return {positions, indices, joints, weights, {}, {}}; }
};

Tube make_tube(int sides, int rings, bool three = false) {
  Tube t;
  const float length = 2.0f;
  for (int r = 0; r < rings; ++r) {
    const float a = length * static_cast<float>(r) / static_cast<float>(rings - 1);
    const float f = glm::smoothstep(0.35f * length, 0.65f * length, a);
    for (int s = 0; s < sides; ++s) {
      const float phi = glm::two_pi<float>() * static_cast<float>(s) / static_cast<float>(sides);
      t.positions.emplace_back(a, 0.2f * std::cos(phi), 0.2f * std::sin(phi));
      if (three && a > 0.8f * length) {
        const float g = glm::smoothstep(0.8f * length, 0.9f * length, a);
        t.joints.emplace_back(1, 2, 0, 0);
        t.weights.emplace_back(1.0f - g, g, 0.0f, 0.0f);
      } else {
        t.joints.emplace_back(0, 1, 0, 0);
        t.weights.emplace_back(1.0f - f, f, 0.0f, 0.0f);
      }
    }
  }
  for (int r = 0; r + 1 < rings; ++r)
    for (int s = 0; s < sides; ++s) {
      const auto a = static_cast<uint32_t>(r * sides + s);
      const auto b = static_cast<uint32_t>(r * sides + (s + 1) % sides);
      const auto c = a + static_cast<uint32_t>(sides), d = b + static_cast<uint32_t>(sides);
      t.indices.insert(t.indices.end(), {a, b, d, a, d, c});
    }
  return t;
}

// The paper's formula, literally: dense weight vectors, every (vertex, element) pair, every
// j != k, double precision, std::exp; elements subdivided until the corners' weights are within
// epsilon (or kMaxSubdivision levels).
std::vector<glm::dvec3> reference_centers(const Tube& t, int joints) {
  using W = std::vector<double>;
  auto dense = [&](std::size_t v) {
    W w(static_cast<std::size_t>(joints), 0.0);
    for (int i = 0; i < 4; ++i) w[t.joints[v][i]] += t.weights[v][i];
    return w;
  };
  struct Element {
    double area;
    glm::dvec3 centroid;
    W w;
  };
  std::vector<Element> elements;
  std::function<void(glm::dvec3, glm::dvec3, glm::dvec3, W, W, W, int)> add =
      [&](glm::dvec3 a, glm::dvec3 b, glm::dvec3 c, W wa, W wb, W wc, int depth) {
        auto dist = [](const W& x, const W& y) {
          double d = 0;
          for (std::size_t i = 0; i < x.size(); ++i) d += (x[i] - y[i]) * (x[i] - y[i]);
          return std::sqrt(d);
        };
        auto mid = [](const W& x, const W& y) {
          W m(x.size());
          for (std::size_t i = 0; i < x.size(); ++i) m[i] = 0.5 * (x[i] + y[i]);
          return m;
        };
        const double d = std::max({dist(wa, wb), dist(wb, wc), dist(wc, wa)});
        if (d <= kCorEpsilon || depth >= kMaxSubdivision) {
          W w(wa.size());
          for (std::size_t i = 0; i < w.size(); ++i) w[i] = (wa[i] + wb[i] + wc[i]) / 3.0;
          elements.push_back({0.5 * glm::length(glm::cross(b - a, c - a)), (a + b + c) / 3.0, w});
          return;
        }
        const glm::dvec3 ab = 0.5 * (a + b), bc = 0.5 * (b + c), ca = 0.5 * (c + a);
        const W wab = mid(wa, wb), wbc = mid(wb, wc), wca = mid(wc, wa);
        add(a, ab, ca, wa, wab, wca, depth + 1);
        add(ab, b, bc, wab, wb, wbc, depth + 1);
        add(ca, bc, c, wca, wbc, wc, depth + 1);
        add(ab, bc, ca, wab, wbc, wca, depth + 1);
      };
  for (std::size_t i = 0; i < t.indices.size(); i += 3) {
    const uint32_t a = t.indices[i], b = t.indices[i + 1], c = t.indices[i + 2];
    add(glm::dvec3(t.positions[a]), glm::dvec3(t.positions[b]), glm::dvec3(t.positions[c]),
        dense(a), dense(b), dense(c), 0);
  }
  const double sigma2 = double(kCorSigma) * double(kCorSigma);
  std::vector<glm::dvec3> out;
  for (std::size_t v = 0; v < t.positions.size(); ++v) {
    const W wp = dense(v);
    double sum = 0;
    glm::dvec3 acc(0.0);
    for (const Element& e : elements) {
      double s = 0;
      for (int j = 0; j < joints; ++j)
        for (int k = 0; k < joints; ++k) {
          if (j == k) continue;
          const double x = wp[j] * e.w[k] - wp[k] * e.w[j];
          s += wp[j] * wp[k] * e.w[j] * e.w[k] * std::exp(-x * x / sigma2);
        }
      sum += s * e.area;
      acc += s * e.area * e.centroid;
    }
    out.push_back(sum > 0 ? acc / sum : glm::dvec3(t.positions[v]));
  }
  return out;
}

TEST(RotationCenters, MatchThePapersFormula) {
  for (bool three : {false, true}) {
    const Tube t = make_tube(12, 17, three);
    std::vector<glm::vec3> c(t.positions.size());
    ASSERT_TRUE(compute_rotation_centers(t.input(), c));
    const std::vector<glm::dvec3> ref = reference_centers(t, three ? 3 : 2);
    // 1e-5 of the tube's length (2): float sums of a few thousand terms.
    for (std::size_t v = 0; v < c.size(); ++v)
      ASSERT_LT(glm::length(glm::dvec3(c[v]) - ref[v]), 2e-5) << "vertex " << v;
  }
}

TEST(RotationCenters, LieOnTheAxisOfASymmetricTube) {
  const Tube t = make_tube(16, 41);
  std::vector<glm::vec3> c(t.positions.size());
  ASSERT_TRUE(compute_rotation_centers(t.input(), c));
  for (std::size_t v = 0; v < c.size(); ++v) {
    if (t.weights[v].x == 0.0f || t.weights[v].y == 0.0f) {
      // Outside the blend zone a vertex has one joint: its own position.
      EXPECT_EQ(c[v], t.positions[v]);
      continue;
    }
    // In it every ring's weights are the same all round, so its centre is on the axis, within
    // the blend zone.
    EXPECT_LT(std::hypot(c[v].y, c[v].z), 1e-4f) << "vertex " << v;
    EXPECT_GT(c[v].x, 0.6f);
    EXPECT_LT(c[v].x, 1.4f);
  }
  // The ring halfway (weights 1/2, 1/2) has its centre at the middle of the zone.
  const std::size_t mid = 20 * 16;
  EXPECT_NEAR(t.positions[mid].x, 1.0f, 1e-6f);
  EXPECT_NEAR(c[mid].x, 1.0f, 1e-3f);
}

TEST(RotationCenters, ReportProgressAndStopWhenCancelled) {
  const Tube t = make_tube(12, 30);
  std::vector<glm::vec3> c(t.positions.size());
  CenterProgress p;
  p.total = t.positions.size();
  ASSERT_TRUE(compute_rotation_centers(t.input(), c, &p, 2));
  EXPECT_EQ(p.done.load(), t.positions.size());
  CenterProgress cancelled;
  cancelled.cancel = true;
  EXPECT_FALSE(compute_rotation_centers(t.input(), c, &cancelled));
}

TEST(RotationCenters, RefuseInputThatDoesNotFit) {
  Tube t = make_tube(6, 4);
  std::vector<glm::vec3> c(t.positions.size());
  std::vector<glm::vec3> short_out(t.positions.size() - 1);
  EXPECT_FALSE(compute_rotation_centers(t.input(), short_out));
  t.indices.push_back(0);  // not a whole triangle
  EXPECT_FALSE(compute_rotation_centers(t.input(), c));
  t.indices.back() = 7;
  t.indices.push_back(1);
  t.indices.push_back(static_cast<uint32_t>(t.positions.size()));  // past the vertices
  EXPECT_FALSE(compute_rotation_centers(t.input(), c));
}

// A flat 12 x 1 strip of 24 triangles, every vertex weighted (1/2, 1/2) on joints 0 and 1.
Tube make_strip() {
  Tube strip;
  for (int x = 0; x <= 12; ++x)
    for (int y = 0; y <= 1; ++y) {
      strip.positions.emplace_back(static_cast<float>(x), static_cast<float>(y), 0.0f);
      strip.joints.emplace_back(0, 1, 0, 0);
      strip.weights.emplace_back(0.5f, 0.5f, 0.0f, 0.0f);
    }
  for (uint32_t x = 0; x < 12; ++x) {
    const uint32_t a = 2 * x, b = a + 1, c = a + 2, d = a + 3;
    strip.indices.insert(strip.indices.end(), {a, c, d, a, d, b});
  }
  return strip;
}

// The work budget ("Budget" in rotation_centers.h). Every vertex of a flat 12 x 1 strip has the
// same weights (1/2, 1/2): one distinct weight vector, 24 triangles filed once under the pair
// (0, 1), so 24 terms; every element is equally similar, so the centre is the strip's
// area-weighted centroid (6, 0.5, 0) whatever the runs merged, which keep area and centroid.
TEST(RotationCenters, TheWorkBudgetMergesRunsAndKeepsTheSurfacesMoments) {
  const Tube strip = make_strip();
  for (const uint64_t work : {uint64_t{24}, uint64_t{8}, uint64_t{5}, uint64_t{1}}) {
    std::vector<glm::vec3> c(strip.positions.size());
    CenterProgress p;
    ASSERT_TRUE(compute_rotation_centers(strip.input(), c, &p, 1, work));
    // 24 terms within 24: exact; within 8: runs of 3; within 5: runs of 5 (ceil(24 / 5)); 1: 24.
    const uint32_t merge = work == 24 ? 1u : work == 8 ? 3u : work == 5 ? 5u : 24u;
    EXPECT_EQ(p.merge.load(), merge) << "work " << work;
    for (const glm::vec3& v : c) {
      EXPECT_NEAR(v.x, 6.0f, 1e-5f) << "work " << work;
      EXPECT_NEAR(v.y, 0.5f, 1e-5f) << "work " << work;
      EXPECT_EQ(v.z, 0.0f);
    }
  }
}

// On the tube, whose weights vary along it, a budget a fraction of the work moves the centres
// by a small part of its length, and the half-way ring's centre stays mid-zone.
TEST(RotationCenters, UnderTheWorkBudgetTheTubesCentresStayClose) {
  const Tube t = make_tube(16, 41);
  std::vector<glm::vec3> exact(t.positions.size()), merged(t.positions.size());
  CenterProgress p;
  ASSERT_TRUE(compute_rotation_centers(t.input(), exact, &p, 1));
  EXPECT_EQ(p.merge.load(), 1u);
  CenterProgress q;
  ASSERT_TRUE(compute_rotation_centers(t.input(), merged, &q, 1, 2000));
  EXPECT_GT(q.merge.load(), 1u);
  float worst = 0.0f;
  for (std::size_t v = 0; v < exact.size(); ++v)
    worst = std::max(worst, glm::length(merged[v] - exact[v]));
  EXPECT_GT(worst, 0.0f) << q.merge.load();  // merged: not the exact sums
  EXPECT_LT(worst, 0.05f);                   // 2.5% of the tube's length (2)
  EXPECT_NEAR(merged[20 * 16].x, 1.0f, 0.02f);
}

// The element budget: the strip's 24 triangles file one element each (equal weights: never
// subdivided), so 24 elements fit and 23 do not (refused: even unsubdivided they do not fit);
// the tube's blend zone subdivides, and a budget below what that files is met by subdividing
// less deeply (said in CenterProgress::depth), the centres still near the exact ones.
TEST(RotationCenters, TheElementBudgetSubdividesLessThenRefuses) {
  const Tube strip = make_strip();
  std::vector<glm::vec3> c(strip.positions.size());
  CenterProgress fits;
  EXPECT_TRUE(compute_rotation_centers(strip.input(), c, &fits, 1, kCorWork, 24));
  EXPECT_EQ(fits.depth.load(), kMaxSubdivision);
  EXPECT_FALSE(compute_rotation_centers(strip.input(), c, nullptr, 1, kCorWork, 23));

  const Tube t = make_tube(16, 41);
  std::vector<glm::vec3> exact(t.positions.size()), shallow(t.positions.size());
  ASSERT_TRUE(compute_rotation_centers(t.input(), exact, nullptr, 1));
  CenterProgress p;
  ASSERT_TRUE(compute_rotation_centers(t.input(), shallow, &p, 1, kCorWork, 600));
  EXPECT_LT(p.depth.load(), kMaxSubdivision);
  for (std::size_t v = 0; v < exact.size(); ++v)
    ASSERT_LT(glm::length(shallow[v] - exact[v]), 0.05f) << "vertex " << v;
  EXPECT_FALSE(compute_rotation_centers(t.input(), shallow, nullptr, 1, kCorWork, 10));
}

}  // namespace
}  // namespace sv
