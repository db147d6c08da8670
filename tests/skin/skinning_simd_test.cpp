// The fast skinning paths against the plain scalar reference: every instruction set the CPU
// has, the threaded split, vertex counts that are not multiples of any SIMD width, positions
// only, degenerate normals, palettes too big for the SIMD repack, and refusal without writing.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

#include <glm/gtc/quaternion.hpp>

#include "anim/pose.h"
#include "anim/worker_pool.h"
#include "random_bones.h"
#include "skin/skinning.h"

namespace sv {
namespace {

struct Data {
  std::vector<glm::vec3> positions, normals;
  std::vector<glm::u16vec4> joints;
  std::vector<glm::vec4> weights;
  std::vector<glm::mat4> palette;
  std::vector<glm::mat3> normal_palette;

  SkinInput input(bool with_normals = true) const {
    return {positions,
            with_normals ? std::span<const glm::vec3>(normals) : std::span<const glm::vec3>(),
            joints, weights, -1};
  }
};

// Random palette entries with rotation, translation and non-uniform scale (so the normal
// palette is a true inverse transpose), and vertices with 4 sorted weights summing to 1.
Data random_data(std::size_t vertices, int bones, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  Data d;
  EXPECT_TRUE(test::random_bones(rng, bones, d.palette, d.normal_palette));
  for (std::size_t v = 0; v < vertices; ++v) {
    d.positions.push_back(10.0f * glm::vec3(u(rng), u(rng), u(rng)));
    d.normals.push_back(glm::normalize(glm::vec3(u(rng), u(rng), u(rng) + 2.0f)));
    glm::u16vec4 j;
    for (int i = 0; i < 4; ++i) j[i] = static_cast<uint16_t>(rng() % static_cast<uint32_t>(bones));
    glm::vec4 w(u(rng) + 1.1f, u(rng) + 1.1f, u(rng) + 1.1f, u(rng) + 1.1f);
    if (v % 5 == 0) w.w = 0.0f;  // unused slots exist in real meshes
    std::sort(&w[0], &w[0] + 4, [](float a, float b) { return a > b; });
    d.joints.push_back(j);
    d.weights.push_back(w / (w.x + w.y + w.z + w.w));
  }
  return d;
}

// Within 1e-6 relative to the magnitude of the vertex: the larger of its input and its skinned
// result (a skinned position near the origin comes from cancelling terms as large as the input,
// whose rounding both paths carry), and at least 1e-6 absolute.
void expect_close(const std::vector<glm::vec3>& got, const std::vector<glm::vec3>& want,
                  const std::vector<glm::vec3>& input, const char* what) {
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t v = 0; v < want.size(); ++v) {
    const float scale = std::max({1.0f, glm::length(want[v]), glm::length(input[v])});
    for (int c = 0; c < 3; ++c)
      ASSERT_NEAR(got[v][c], want[v][c], 1e-6f * scale)
          << what << " vertex " << v << " of " << want.size() << " component " << c;
  }
}

struct Result {
  std::vector<glm::vec3> positions, normals;
};

Result reference(const Data& d, bool with_normals = true) {
  Result r{std::vector<glm::vec3>(d.positions.size()), std::vector<glm::vec3>(d.positions.size())};
  EXPECT_TRUE(skin_lbs_reference(d.palette, d.normal_palette, d.input(with_normals), r.positions,
                                 r.normals));
  return r;
}

constexpr std::size_t kCounts[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 15, 17, 63, 64, 65, 129, 1001};
constexpr SkinIsa kIsas[] = {SkinIsa::Scalar, SkinIsa::Sse2, SkinIsa::Avx2Fma, SkinIsa::Avx512,
                             SkinIsa::Auto};

TEST(SkinLbsSimd, EveryInstructionSetMatchesTheReference) {
  for (const std::size_t n : kCounts) {
    const Data d = random_data(n, 60, static_cast<uint32_t>(n));
    const Result want = reference(d);
    for (const SkinIsa isa : kIsas) {
      SCOPED_TRACE(skin_isa_name(isa));
      // One spare element past each output: nothing may be written there.
      std::vector<glm::vec3> p(n + 1, glm::vec3(7.0f)), nn(n + 1, glm::vec3(7.0f));
      ASSERT_TRUE(skin_lbs_isa(isa, d.palette, d.normal_palette, d.input(), std::span(p).first(n),
                               std::span(nn).first(n)));
      EXPECT_EQ(p[n], glm::vec3(7.0f));
      EXPECT_EQ(nn[n], glm::vec3(7.0f));
      p.pop_back();
      nn.pop_back();
      expect_close(p, want.positions, d.positions, "position");
      expect_close(nn, want.normals, d.normals, "normal");
    }
  }
}

// Runs of consecutive vertices bound to the same 4 joints (as the importer lays meshes out), of
// lengths around the AVX-512 path's 16-vertex block and its minimum run: runs[i] vertices share
// one random joint set.
Data grouped_data(const std::vector<std::size_t>& runs, int bones, uint32_t seed) {
  std::size_t total = 0;
  for (const std::size_t r : runs) total += r;
  Data d = random_data(total, bones, seed);
  std::mt19937 rng(seed + 1);
  std::size_t v = 0;
  for (const std::size_t r : runs) {
    glm::u16vec4 j;
    for (int i = 0; i < 4; ++i) j[i] = static_cast<uint16_t>(rng() % static_cast<uint32_t>(bones));
    for (std::size_t k = 0; k < r; ++k) d.joints[v++] = j;
  }
  return d;
}

const std::vector<std::size_t> kRuns = {1,  2,  3,  5,  6, 7,  8, 15, 16, 17, 31, 32, 33,
                                        47, 48, 49, 1,  6, 1,  5, 5,  16, 1,  64, 65, 200,
                                        4,  6,  15, 17, 2, 97, 1, 1,  1,  33, 7};

TEST(SkinLbsSimd, RunsOfSharedJointsMatchTheReference) {
  if (skin_best_isa() != SkinIsa::Avx512)
    std::printf("note: this CPU has no AVX-512; the run path falls back and is not exercised\n");
  const Data d = grouped_data(kRuns, 60, 29u);
  const std::size_t n = d.positions.size();
  for (const bool normals : {true, false}) {
    const Result want = reference(d, normals);
    for (const SkinIsa isa : kIsas) {
      SCOPED_TRACE(skin_isa_name(isa));
      std::vector<glm::vec3> p(n + 1, glm::vec3(7.0f)), nn(n + 1, glm::vec3(7.0f));
      ASSERT_TRUE(skin_lbs_isa(isa, d.palette,
                               normals ? d.normal_palette : decltype(d.normal_palette){},
                               d.input(normals), std::span(p).first(n),
                               normals ? std::span(nn).first(n) : std::span<glm::vec3>()));
      EXPECT_EQ(p[n], glm::vec3(7.0f));
      EXPECT_EQ(nn[n], glm::vec3(7.0f));
      p.pop_back();
      nn.pop_back();
      expect_close(p, want.positions, d.positions, "position");
      if (normals) expect_close(nn, want.normals, d.normals, "normal");
    }
  }
}

// Inside a run, lanes whose blended normal is zero (a zero input normal, a joint scaled to
// nothing) or tiny take the exact route, like the reference; the other lanes are unaffected.
TEST(SkinLbsSimd, DegenerateNormalsInsideRunsBecomeZeroLikeTheReference) {
  Data d = grouped_data({40, 20, 33}, 8, 31u);
  d.normal_palette[3] = glm::mat3(0.0f);
  d.normal_palette[4] = glm::mat3(1e-17f);  // squared lengths ~1e-34: below the fast route's range
  for (std::size_t v = 40; v < 60; ++v) d.joints[v] = glm::u16vec4(3, 3, 3, 3);
  for (std::size_t v = 60; v < 93; ++v) d.joints[v] = glm::u16vec4(4, 4, 4, 4);
  for (const std::size_t v : {0, 5, 15, 16, 17, 39}) d.normals[v] = glm::vec3(0.0f);
  const Result want = reference(d);
  for (const SkinIsa isa : kIsas) {
    SCOPED_TRACE(skin_isa_name(isa));
    std::vector<glm::vec3> p(93), n(93);
    ASSERT_TRUE(skin_lbs_isa(isa, d.palette, d.normal_palette, d.input(), p, n));
    expect_close(p, want.positions, d.positions, "position");
    expect_close(n, want.normals, d.normals, "normal");
    for (const std::size_t v : {0, 5, 15, 16, 17, 39, 40, 59})
      EXPECT_EQ(n[v], glm::vec3(0.0f)) << v;
    EXPECT_NEAR(glm::length(n[1]), 1.0f, 1e-6f);
    EXPECT_NEAR(glm::length(n[70]), 1.0f, 1e-6f);  // 1e-17 x the normal, renormalised exactly
  }
}

// A vertex's result must not depend on its lane or block: the same runs shifted by 1-17
// vertices (a run of its own in front) come out bit-identical on every instruction set.
TEST(SkinLbsSimd, RunResultsDoNotDependOnWhereTheBlocksFall) {
  const Data d = grouped_data(kRuns, 60, 41u);
  const std::size_t n = d.positions.size();
  for (const SkinIsa isa : kIsas) {
    SCOPED_TRACE(skin_isa_name(isa));
    std::vector<glm::vec3> p0(n), n0(n);
    ASSERT_TRUE(skin_lbs_isa(isa, d.palette, d.normal_palette, d.input(), p0, n0));
    for (const std::size_t shift : {1, 3, 7, 8, 9, 16, 17}) {
      Data s = d;
      s.positions.insert(s.positions.begin(), shift, glm::vec3(1.0f));
      s.normals.insert(s.normals.begin(), shift, glm::vec3(0.0f, 0.0f, 1.0f));
      s.joints.insert(s.joints.begin(), shift, glm::u16vec4(59, 58, 57, 56));
      s.weights.insert(s.weights.begin(), shift, glm::vec4(0.25f));
      std::vector<glm::vec3> p(n + shift), nn(n + shift);
      ASSERT_TRUE(skin_lbs_isa(isa, s.palette, s.normal_palette, s.input(), p, nn));
      for (std::size_t v = 0; v < n; ++v) {
        ASSERT_EQ(p[v + shift], p0[v]) << "shift " << shift << " vertex " << v;
        ASSERT_EQ(nn[v + shift], n0[v]) << "shift " << shift << " vertex " << v;
      }
    }
  }
}

TEST(SkinLbsSimd, SkinLbsUsesTheBestPathAndAgrees) {
  const Data d = random_data(1000, 60, 5u);
  const Result want = reference(d);
  std::vector<glm::vec3> p(1000), n(1000);
  ASSERT_TRUE(skin_lbs(d.palette, d.normal_palette, d.input(), p, n));
  expect_close(p, want.positions, d.positions, "position");
  expect_close(n, want.normals, d.normals, "normal");
  EXPECT_NE(skin_best_isa(), SkinIsa::Auto);
}

TEST(SkinLbsSimd, PositionsOnlyWithoutANormalPalette) {
  const Data d = random_data(67, 20, 9u);
  const Result want = reference(d, false);
  for (const SkinIsa isa : kIsas) {
    SCOPED_TRACE(skin_isa_name(isa));
    std::vector<glm::vec3> p(67);
    ASSERT_TRUE(skin_lbs_isa(isa, d.palette, {}, d.input(false), p, {}));
    expect_close(p, want.positions, d.positions, "position");
  }
}

TEST(SkinLbsSimd, DegenerateNormalsBecomeZeroLikeTheReference) {
  Data d = random_data(37, 8, 11u);
  d.normal_palette[3] = glm::mat3(0.0f);  // a joint scaled to nothing
  for (glm::u16vec4& j : d.joints) j = glm::u16vec4(3, 3, 3, 3);
  d.normal_palette[4] = glm::mat3(1e-30f);  // tiny but not zero: the exact route
  for (std::size_t v = 0; v < d.joints.size(); v += 3) d.joints[v] = glm::u16vec4(4, 4, 4, 4);
  const Result want = reference(d);
  for (const SkinIsa isa : kIsas) {
    SCOPED_TRACE(skin_isa_name(isa));
    std::vector<glm::vec3> p(37), n(37);
    ASSERT_TRUE(skin_lbs_isa(isa, d.palette, d.normal_palette, d.input(), p, n));
    expect_close(p, want.positions, d.positions, "position");
    expect_close(n, want.normals, d.normals, "normal");
    EXPECT_EQ(n[1], glm::vec3(0.0f));
  }
}

TEST(SkinLbsSimd, PalettesBeyondTheRepackLimitStillSkin) {
  const Data d = random_data(300, static_cast<int>(kSkinMaxSimdBones) + 44, 13u);
  const Result want = reference(d);
  std::vector<glm::vec3> p(300), n(300);
  ASSERT_TRUE(skin_lbs(d.palette, d.normal_palette, d.input(), p, n));
  expect_close(p, want.positions, d.positions, "position");
  expect_close(n, want.normals, d.normals, "normal");
}

TEST(SkinLbsSimd, ParallelMatchesSingleThreadExactly) {
  for (const unsigned threads : {1u, 2u, 3u}) {
    WorkerPool pool(threads);
    ASSERT_EQ(pool.size(), std::max(1u, threads));
    for (const std::size_t n : {std::size_t{1}, std::size_t{65}, std::size_t{130},
                                std::size_t{1001}, std::size_t{20000}}) {
      const Data d = random_data(n, 60, static_cast<uint32_t>(n + threads));
      const Result want = reference(d);
      std::vector<glm::vec3> p1(n), n1(n), p2(n), n2(n);
      ASSERT_TRUE(skin_lbs(d.palette, d.normal_palette, d.input(), p1, n1));
      for (int repeat = 0; repeat < 3; ++repeat) {
        ASSERT_TRUE(skin_lbs_parallel(pool, d.palette, d.normal_palette, d.input(), p2, n2));
        EXPECT_EQ(p1, p2) << threads << " threads, " << n << " vertices";
        EXPECT_EQ(n1, n2) << threads << " threads, " << n << " vertices";
      }
      expect_close(p2, want.positions, d.positions, "position");
      expect_close(n2, want.normals, d.normals, "normal");
    }
  }
}

TEST(SkinLbsSimd, RefusesWithoutWriting) {
  const Data d = random_data(10, 4, 17u);
  WorkerPool pool(2);
  std::vector<glm::vec3> p(9, glm::vec3(7.0f)), n(10, glm::vec3(7.0f));
  EXPECT_FALSE(skin_lbs_isa(SkinIsa::Avx2Fma, d.palette, d.normal_palette, d.input(), p, n));
  EXPECT_FALSE(skin_lbs_parallel(pool, d.palette, d.normal_palette, d.input(), p, n));
  EXPECT_FALSE(skin_lbs_reference(d.palette, d.normal_palette, d.input(), p, n));
  // A joint index past the palette.
  Data bad = random_data(10, 4, 19u);
  bad.joints[9].w = 4;
  std::vector<glm::vec3> p10(10, glm::vec3(7.0f));
  EXPECT_FALSE(skin_lbs(bad.palette, bad.normal_palette, bad.input(), p10, n));
  EXPECT_FALSE(skin_lbs_parallel(pool, bad.palette, bad.normal_palette, bad.input(), p10, n));
  for (const glm::vec3& v : p) EXPECT_EQ(v, glm::vec3(7.0f));
  for (const glm::vec3& v : p10) EXPECT_EQ(v, glm::vec3(7.0f));
  for (const glm::vec3& v : n) EXPECT_EQ(v, glm::vec3(7.0f));
  // Empty input: nothing to do, accepted.
  const Data none = random_data(0, 4, 23u);
  EXPECT_TRUE(skin_lbs_parallel(pool, none.palette, none.normal_palette, none.input(), {}, {}));
}

TEST(WorkerPool, RunsEveryPartOnceEveryTime) {
  WorkerPool pool(3);
  struct Counts {
    std::atomic<int> calls[3];
    std::atomic<int> wrong_parts{0};
  } counts{};
  for (int i = 0; i < 2000; ++i)
    pool.run(
        [](void* c, unsigned part, unsigned parts) noexcept {
          auto& k = *static_cast<Counts*>(c);
          if (parts != 3 || part >= 3) {
            ++k.wrong_parts;
            return;
          }
          ++k.calls[part];
        },
        &counts);
  EXPECT_EQ(counts.wrong_parts.load(), 0);
  for (const auto& c : counts.calls) EXPECT_EQ(c.load(), 2000);
}

}  // namespace
}  // namespace sv
