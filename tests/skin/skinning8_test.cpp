// Skinning with up to 8 influences (SkinInput::joints2, skin/skinning8.cpp) against references
// that keep every influence of a vertex in one list: LBS summed in double by hand, DQS and CoR
// from tests/anim/method_reference.h (written from the papers, not from the kernels). Vertices
// carry 1 to 8 influences, some bones are scaled (two-phase skinning), and the streams are split
// the way the importer splits them (the 4 largest renormalised, the 5th-8th as fractions of the
// top-8 sum), so the test also checks that the split recombines into the top 8.
#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <glm/gtc/quaternion.hpp>
#include <glm/gtc/type_precision.hpp>

#include "anim/model.h"
#include "anim/pose.h"
#include "anim/worker_pool.h"
#include "method_reference.h"
#include "skin/skin_method.h"
#include "skin/skinning.h"

namespace sv {
namespace {

constexpr std::size_t kBones = 12;

struct Influences {
  int count = 0;
  uint16_t joint[8];
  float weight[8];  // sum 1
};

struct Case {
  std::vector<glm::mat4> palette;
  std::vector<glm::mat3> normal_palette;
  std::vector<MethodBone> method;
  std::vector<glm::vec3> positions, normals, centers;
  std::vector<glm::u16vec4> joints, joints2;
  std::vector<glm::vec4> weights, weights2;
  std::vector<Influences> all;  // every vertex's influences, the reference's input
};

// kBones random rigid bones, every 4th stretched (two-phase skinning), and their palettes.
void add_bones(Case& c, std::mt19937& rng) {
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  for (std::size_t b = 0; b < kBones; ++b) {
    const glm::vec3 axis = glm::normalize(glm::vec3(u(rng), u(rng), u(rng)) + glm::vec3(0, 0, 2));
    glm::mat4 k = glm::mat4_cast(glm::angleAxis(1.3f * u(rng), axis));
    if (b % 4 == 3) k = k * glm::mat4(glm::mat3(1.2f, 0.1f, 0.0f, 0.1f, 0.9f, 0.0f, 0, 0, 1.1f));
    k[3] = glm::vec4(u(rng), u(rng), u(rng), 1.0f);
    c.palette.push_back(k);
  }
  c.normal_palette.resize(kBones);
  EXPECT_TRUE(build_normal_palette(c.palette, c.normal_palette));
  c.method.resize(kBones);
  EXPECT_TRUE(build_method_palette(c.palette, c.method));
}

Case make_case(std::size_t vertices, unsigned seed, int most = 8) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f), pos(0.05f, 1.0f);
  Case c;
  add_bones(c, rng);
  for (std::size_t v = 0; v < vertices; ++v) {
    c.positions.emplace_back(u(rng), u(rng), u(rng));
    c.normals.push_back(glm::normalize(glm::vec3(u(rng), u(rng), u(rng)) + glm::vec3(0, 0.1f, 0)));
    c.centers.emplace_back(u(rng), u(rng), u(rng));
    Influences in;
    in.count = 1 + static_cast<int>(v % static_cast<std::size_t>(most));
    std::vector<uint16_t> bones(kBones);
    std::iota(bones.begin(), bones.end(), uint16_t{0});
    std::shuffle(bones.begin(), bones.end(), rng);
    float sum = 0.0f;
    for (int i = 0; i < in.count; ++i) {
      in.joint[i] = bones[static_cast<std::size_t>(i)];
      in.weight[i] = pos(rng);
      sum += in.weight[i];
    }
    for (int i = 0; i < in.count; ++i) in.weight[i] /= sum;
    // Largest first, as the importer sorts them.
    std::vector<int> order(static_cast<std::size_t>(in.count));
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](int a, int b) { return in.weight[a] > in.weight[b]; });
    Influences sorted = in;
    for (int i = 0; i < in.count; ++i) {
      sorted.joint[i] = in.joint[order[static_cast<std::size_t>(i)]];
      sorted.weight[i] = in.weight[order[static_cast<std::size_t>(i)]];
    }
    c.all.push_back(sorted);
    // The importer's split.
    double top4 = 0.0;
    for (int i = 0; i < std::min(4, in.count); ++i) top4 += sorted.weight[i];
    glm::u16vec4 j(0), j2(0);
    glm::vec4 w(0.0f), w2(0.0f);
    for (int i = 0; i < std::min(4, in.count); ++i) {
      j[i] = sorted.joint[i];
      w[i] = static_cast<float>(sorted.weight[i] / top4);
    }
    for (int i = 4; i < in.count; ++i) {
      j2[i - 4] = sorted.joint[i];
      w2[i - 4] = sorted.weight[i];  // the top-8 sum is 1 here
    }
    c.joints.push_back(j);
    c.weights.push_back(w);
    c.joints2.push_back(j2);
    c.weights2.push_back(w2);
  }
  return c;
}

// Vertices laid out as the importer lays out a mesh that keeps 8 (group_vertices_by_bone_set):
// runs of 1 to 40 vertices that share all their joints, both sets in canonical order (by joint,
// unused slots last with joint 0). Each run has 1 to 8 influences; each vertex its own weights,
// the first set's all larger than the second's so that the split keeps the run's sets.
Case make_runs_case(std::size_t vertices, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f), big(0.5f, 1.0f), small(0.05f, 0.45f);
  Case c;
  add_bones(c, rng);
  while (c.positions.size() < vertices) {
    const std::size_t length = 1 + rng() % 40;
    const int count = 1 + static_cast<int>(rng() % 8);
    std::vector<uint16_t> bones(kBones);
    std::iota(bones.begin(), bones.end(), uint16_t{0});
    std::shuffle(bones.begin(), bones.end(), rng);
    const int first = std::min(4, count);
    std::sort(bones.begin(), bones.begin() + first);
    std::sort(bones.begin() + first, bones.begin() + count);
    for (std::size_t r = 0; r < length && c.positions.size() < vertices; ++r) {
      c.positions.emplace_back(u(rng), u(rng), u(rng));
      c.normals.push_back(
          glm::normalize(glm::vec3(u(rng), u(rng), u(rng)) + glm::vec3(0, 0.1f, 0)));
      c.centers.emplace_back(u(rng), u(rng), u(rng));
      Influences in;
      in.count = count;
      float sum = 0.0f, top4 = 0.0f;
      for (int i = 0; i < count; ++i) {
        in.joint[i] = bones[static_cast<std::size_t>(i)];
        in.weight[i] = i < first ? big(rng) : small(rng);
        sum += in.weight[i];
      }
      for (int i = 0; i < count; ++i) in.weight[i] /= sum;
      for (int i = 0; i < first; ++i) top4 += in.weight[i];
      glm::u16vec4 j(0), j2(0);
      glm::vec4 w(0.0f), w2(0.0f);
      for (int i = 0; i < first; ++i) {
        j[i] = in.joint[i];
        w[i] = in.weight[i] / top4;
      }
      for (int i = first; i < count; ++i) {
        j2[i - 4] = in.joint[i];
        w2[i - 4] = in.weight[i];
      }
      c.all.push_back(in);
      c.joints.push_back(j);
      c.weights.push_back(w);
      c.joints2.push_back(j2);
      c.weights2.push_back(w2);
    }
  }
  return c;
}

SkinInput input(const Case& c, bool eight) {
  SkinInput in;
  in.positions = c.positions;
  in.normals = c.normals;
  in.joints = c.joints;
  in.weights = c.weights;
  in.centers = c.centers;
  if (eight) {
    in.joints2 = c.joints2;
    in.weights2 = c.weights2;
  }
  return in;
}

SkinPalettes palettes(const Case& c) {
  SkinPalettes p;
  p.palette = c.palette;
  p.normal_palette = c.normal_palette;
  p.method = c.method;
  return p;
}

std::vector<test::ReferenceBone> reference_bones(const Case& c) {
  std::vector<test::ReferenceBone> bones;
  for (const glm::mat4& k : c.palette) bones.push_back(test::reference_bone(k));
  return bones;
}

test::ReferenceVertex reference(SkinMethod method, const Case& c,
                                const std::vector<test::ReferenceBone>& bones, std::size_t v) {
  const Influences& in = c.all[v];
  if (method == SkinMethod::Dqs)
    return test::reference_dqs(bones, in.joint, in.weight, in.count, c.positions[v], c.normals[v]);
  if (method == SkinMethod::Cor)
    return test::reference_cor(bones, in.joint, in.weight, in.count, c.positions[v], c.normals[v],
                               c.centers[v]);
  // LBS (skinning.h): blend the matrices in double, transform once; normals by the blend of
  // each bone's inverse transpose.
  glm::dmat4 k(0.0);
  glm::dmat3 nk(0.0);
  for (int i = 0; i < in.count; ++i) {
    const glm::dmat4 ki(c.palette[in.joint[i]]);
    k += static_cast<double>(in.weight[i]) * ki;
    nk += static_cast<double>(in.weight[i]) * glm::transpose(glm::inverse(glm::dmat3(ki)));
  }
  test::ReferenceVertex out;
  out.position = glm::dvec3(k * glm::dvec4(glm::dvec3(c.positions[v]), 1.0));
  out.normal = glm::normalize(nk * glm::dvec3(c.normals[v]));
  return out;
}

TEST(Skinning8, EveryMethodMatchesAReferenceThatKeepsEveryInfluence) {
  const Case c = make_case(400, 7u);
  const auto bones = reference_bones(c);
  for (SkinMethod method : kSkinMethods) {
    SCOPED_TRACE(skin_method_label(method));
    std::vector<glm::vec3> p(c.positions.size()), n(c.positions.size());
    ASSERT_TRUE(skin(method, palettes(c), input(c, true), p, n));
    double worst = 0.0, worst_n = 0.0;
    for (std::size_t v = 0; v < p.size(); ++v) {
      const test::ReferenceVertex r = reference(method, c, bones, v);
      worst = std::max(worst, glm::length(glm::dvec3(p[v]) - r.position));
      worst_n = std::max(worst_n, glm::length(glm::dvec3(n[v]) - r.normal));
    }
    EXPECT_LT(worst, 2e-5);
    EXPECT_LT(worst_n, 1e-4);
  }
}

// The same vertices with only their 4 largest (the 4-influence kernels) are far from the full
// reference wherever a vertex had more: the comparison above can fail.
TEST(Skinning8, FourInfluencesDifferWhereVerticesHaveMore) {
  const Case c = make_case(400, 7u);
  const auto bones = reference_bones(c);
  for (SkinMethod method : kSkinMethods) {
    SCOPED_TRACE(skin_method_label(method));
    std::vector<glm::vec3> p(c.positions.size()), n(c.positions.size());
    ASSERT_TRUE(skin(method, palettes(c), input(c, false), p, n));
    double worst_within = 0.0, worst_over = 0.0;
    for (std::size_t v = 0; v < p.size(); ++v) {
      const double e = glm::length(glm::dvec3(p[v]) - reference(method, c, bones, v).position);
      (c.all[v].count <= 4 ? worst_within : worst_over) =
          std::max(c.all[v].count <= 4 ? worst_within : worst_over, e);
    }
    EXPECT_LT(worst_within, 2e-5);
    EXPECT_GT(worst_over, 0.05);
  }
}

// A mesh whose vertices have 4 or fewer but that carries (zero) second-set weights skins as the
// 4-influence kernels do, up to rounding.
TEST(Skinning8, ZeroSecondSetEqualsFourInfluences) {
  const Case c = make_case(300, 11u, 4);
  for (SkinMethod method : kSkinMethods) {
    SCOPED_TRACE(skin_method_label(method));
    const std::size_t n = c.positions.size();
    std::vector<glm::vec3> p4(n), n4(n), p8(n), n8(n);
    ASSERT_TRUE(skin(method, palettes(c), input(c, false), p4, n4));
    ASSERT_TRUE(skin(method, palettes(c), input(c, true), p8, n8));
    for (std::size_t v = 0; v < n; ++v) {
      EXPECT_LT(glm::length(p4[v] - p8[v]), 1e-5f) << v;
      EXPECT_LT(glm::length(n4[v] - n8[v]), 1e-5f) << v;
    }
  }
}

TEST(Skinning8, ParallelEqualsOneThread) {
  const Case c = make_case(40000, 3u);
  WorkerPool pool(3);
  for (SkinMethod method : kSkinMethods) {
    SCOPED_TRACE(skin_method_label(method));
    const std::size_t n = c.positions.size();
    std::vector<glm::vec3> p1(n), n1(n), p2(n), n2(n);
    ASSERT_TRUE(skin(method, palettes(c), input(c, true), p1, n1));
    ASSERT_TRUE(skin_parallel(pool, method, palettes(c), input(c, true), p2, n2));
    EXPECT_EQ(p1, p2);
    EXPECT_EQ(n1, n2);
  }
}

constexpr SkinIsa kIsas[] = {SkinIsa::Scalar, SkinIsa::Avx2Fma, SkinIsa::Avx512};

// The run kernels (8 bones as constants, 16 or 8 lanes; runs shorter than 3 per vertex) on
// every instruction set, every method, with normals and without, against the reference.
TEST(Skinning8, RunsMatchTheReferenceOnEveryInstructionSet) {
  const Case c = make_runs_case(3000, 21u);
  const auto bones = reference_bones(c);
  const std::size_t n = c.positions.size();
  for (SkinIsa isa : kIsas) {
    for (SkinMethod method : kSkinMethods) {
      SCOPED_TRACE(std::string(skin_isa_name(isa)) + " " + skin_method_label(method));
      std::vector<glm::vec3> p(n), nn(n), q(n);
      ASSERT_TRUE(skin_isa(isa, method, palettes(c), input(c, true), p, nn));
      SkinInput positions_only = input(c, true);
      positions_only.normals = {};
      ASSERT_TRUE(skin_isa(isa, method, palettes(c), positions_only, q, {}));
      double worst = 0.0, worst_n = 0.0, worst_q = 0.0;
      for (std::size_t v = 0; v < n; ++v) {
        const test::ReferenceVertex r = reference(method, c, bones, v);
        worst = std::max(worst, glm::length(glm::dvec3(p[v]) - r.position));
        worst_n = std::max(worst_n, glm::length(glm::dvec3(nn[v]) - r.normal));
        worst_q = std::max(worst_q, glm::length(glm::dvec3(q[v]) - r.position));
      }
      EXPECT_LT(worst, 2e-5);
      EXPECT_LT(worst_n, 1e-4);
      EXPECT_LT(worst_q, 2e-5);
    }
  }
}

// By hand: one run of 37 vertices (two whole blocks of 16 and a part, or four of 8 and a part)
// on 8 bones that all turn 90 degrees about z, bone i moving by (i + 1, 0, 0). Every method then
// gives R p + sum_i w_i t_i. Weights (0.4 0.3 0.2 0.1) and a second set (0.1 0.05 0.03 0.02):
// the first set scales by 1 - 0.2 to (0.32 0.24 0.16 0.08), so the shift is
// 0.32 + 0.48 + 0.48 + 0.32 + 0.5 + 0.3 + 0.21 + 0.16 = 2.77 (4 influences alone: 2.0).
TEST(Skinning8, HandComputedRunOfEightBones) {
  Case c;
  for (int b = 0; b < 8; ++b) {
    glm::mat4 k(0.0f);
    k[0] = {0, 1, 0, 0};   // x -> y
    k[1] = {-1, 0, 0, 0};  // y -> -x
    k[2] = {0, 0, 1, 0};
    k[3] = {static_cast<float>(b + 1), 0, 0, 1};
    c.palette.push_back(k);
  }
  c.normal_palette.resize(8);
  ASSERT_TRUE(build_normal_palette(c.palette, c.normal_palette));
  c.method.resize(8);
  ASSERT_TRUE(build_method_palette(c.palette, c.method));
  for (int v = 0; v < 37; ++v) {
    c.positions.emplace_back(1.0f + 0.25f * static_cast<float>(v), 2.0f, -0.5f);
    c.normals.emplace_back(1.0f, 0.0f, 0.0f);
    c.centers.emplace_back(0.5f, -1.0f, 2.0f);
    c.joints.emplace_back(0, 1, 2, 3);
    c.weights.emplace_back(0.4f, 0.3f, 0.2f, 0.1f);
    c.joints2.emplace_back(4, 5, 6, 7);
    c.weights2.emplace_back(0.1f, 0.05f, 0.03f, 0.02f);
  }
  for (SkinIsa isa : kIsas) {
    for (SkinMethod method : kSkinMethods) {
      SCOPED_TRACE(std::string(skin_isa_name(isa)) + " " + skin_method_label(method));
      std::vector<glm::vec3> p(37), n(37);
      ASSERT_TRUE(skin_isa(isa, method, palettes(c), input(c, true), p, n));
      for (std::size_t v = 0; v < 37; ++v) {
        const glm::vec3 in = c.positions[v];
        EXPECT_LT(glm::length(p[v] - glm::vec3(-in.y + 2.77f, in.x, in.z)), 2e-5f) << v;
        EXPECT_LT(glm::length(n[v] - glm::vec3(0, 1, 0)), 1e-5f) << v;
      }
    }
  }
}

// Runs crossing the split's chunk edges (16384 vertices) skin as on one thread, bit for bit:
// which path a vertex takes depends on its whole run, not on where a chunk starts.
TEST(Skinning8, ParallelEqualsOneThreadOnRuns) {
  const Case c = make_runs_case(50000, 5u);
  WorkerPool pool(3);
  for (SkinMethod method : kSkinMethods) {
    SCOPED_TRACE(skin_method_label(method));
    const std::size_t n = c.positions.size();
    std::vector<glm::vec3> p1(n), n1(n), p2(n), n2(n);
    ASSERT_TRUE(skin(method, palettes(c), input(c, true), p1, n1));
    ASSERT_TRUE(skin_parallel(pool, method, palettes(c), input(c, true), p2, n2));
    EXPECT_EQ(p1, p2);
    EXPECT_EQ(n1, n2);
  }
}

TEST(Skinning8, RefusesSecondSetsThatDoNotFit) {
  const Case c = make_case(50, 5u);
  const std::size_t n = c.positions.size();
  std::vector<glm::vec3> p(n), nn(n);
  SkinInput in = input(c, true);
  in.joints2 = std::span(c.joints2).first(n - 1);  // one short
  in.weights2 = std::span(c.weights2).first(n - 1);
  EXPECT_FALSE(skin(SkinMethod::Lbs, palettes(c), in, p, nn));
  in = input(c, true);
  in.weights2 = {};  // joints without weights
  EXPECT_FALSE(skin(SkinMethod::Dqs, palettes(c), in, p, nn));
  // A second-set joint past the palette, found by the scan (max_joint -1).
  std::vector<glm::u16vec4> bad = c.joints2;
  bad[7].z = static_cast<uint16_t>(kBones);
  in = input(c, true);
  in.joints2 = bad;
  EXPECT_FALSE(skin(SkinMethod::Lbs, palettes(c), in, p, nn));
}

}  // namespace
}  // namespace sv
