// Compact vertex streams (skin/compact_streams.h): the octahedral normal code on axes and
// diagonals by hand, its angle bound, the 4th weight, u8 joints and the u16 fallback; and LBS
// on compact streams on every instruction set against the compact reference loop and against
// the float streams (runs of every length, partial blocks, positions only, the threaded split).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include <glm/gtc/quaternion.hpp>

#include "anim/model.h"
#include "anim/pose.h"
#include "anim/worker_pool.h"
#include "random_bones.h"
#include "skin/compact_streams.h"
#include "skin/skinning.h"
#include "skin/skinning_kernels.h"

namespace sv {
namespace {

uint32_t oct_code(int32_t x, int32_t y) {
  return (static_cast<uint32_t>(x) & 0xffffu) | (static_cast<uint32_t>(y) << 16);
}

double angle_between(const glm::vec3& a, const glm::vec3& b) {
  const glm::dvec3 da = glm::normalize(glm::dvec3(a)), db = glm::normalize(glm::dvec3(b));
  return std::atan2(glm::length(glm::cross(da, db)), glm::dot(da, db));
}

TEST(OctNormals, AxesEncodeToTheSquaresCornersAndEdgesExactly) {
  // +-x, +-y on the edges' midpoints; +z the centre; -z folded to the corner (1, 1).
  EXPECT_EQ(oct_encode({1, 0, 0}), oct_code(32767, 0));
  EXPECT_EQ(oct_encode({-2, 0, 0}), oct_code(-32767, 0));
  EXPECT_EQ(oct_encode({0, 3, 0}), oct_code(0, 32767));
  EXPECT_EQ(oct_encode({0, -1, 0}), oct_code(0, -32767));
  EXPECT_EQ(oct_encode({0, 0, 1}), oct_code(0, 0));
  EXPECT_EQ(oct_encode({0, 0, -1}), oct_code(32767, 32767));
  for (const glm::vec3 axis : {glm::vec3(1, 0, 0), glm::vec3(-1, 0, 0), glm::vec3(0, 1, 0),
                               glm::vec3(0, -1, 0), glm::vec3(0, 0, 1), glm::vec3(0, 0, -1)}) {
    EXPECT_EQ(oct_encode_best(axis), oct_encode(axis));
    EXPECT_EQ(oct_decode(oct_encode(axis)), axis);  // exactly
  }
}

TEST(OctNormals, DiagonalsRoundToTheNearestCode) {
  // (1,1,1)/3 on the octahedron: 32767/3 = 10922.33 -> 10922.
  EXPECT_EQ(oct_encode({1, 1, 1}), oct_code(10922, 10922));
  // (-1,-1,-1)/3 folds to (-(1 - 1/3), -(1 - 1/3)): -21844.67 -> -21845.
  EXPECT_EQ(oct_encode({-1, -1, -1}), oct_code(-21845, -21845));
  // (1,-1,0)/2: 16383.5 -> 16384 (nearest even).
  EXPECT_EQ(oct_encode({1, -1, 0}), oct_code(16384, -16384));
  // Decoded: x = y = 10922/32767, z = 1 - 2x: 1.0e-5 off in x and y, 2.0e-5 in z, an angle of
  // sqrt(6) * 1.0e-5 / |(1,1,1)/3| = 4.2e-5 rad off the diagonal.
  const glm::vec3 d = oct_decode_raw(oct_code(10922, 10922));
  EXPECT_FLOAT_EQ(d.x, 10922.0f / 32767.0f);
  EXPECT_FLOAT_EQ(d.z, (1.0f - d.x) - d.y);
  EXPECT_NEAR(angle_between(d, {1, 1, 1}), 4.3e-5, 0.1e-5);
  const glm::vec3 e = oct_decode_raw(oct_code(-21845, -21845));
  EXPECT_FLOAT_EQ(e.x, -(1.0f - 21845.0f / 32767.0f));
  EXPECT_LT(e.z, 0.0f);
  EXPECT_LT(angle_between(e, {-1, -1, -1}), 5e-5);
  // -32768 decodes as -1, like -32767.
  EXPECT_EQ(oct_decode_raw(oct_code(-32768, 0)), oct_decode_raw(oct_code(-32767, 0)));
}

TEST(OctNormals, NoDirectionEncodesAsPlusZ) {
  EXPECT_EQ(oct_encode({0, 0, 0}), 0u);
  EXPECT_EQ(oct_encode({0x1p-127f, 0, 0}), 0u);
  EXPECT_EQ(oct_encode({NAN, 1, 0}), 0u);
  EXPECT_EQ(oct_encode({INFINITY, 1, 0}), 0u);
  EXPECT_EQ(oct_encode_best({0, 0, 0}), 0u);
  EXPECT_EQ(oct_decode(0), glm::vec3(0, 0, 1));
}

// The bounds compact_streams.h states, over random directions (every octant and fold).
TEST(OctNormals, AngleErrorIsBounded) {
  std::mt19937 rng(5u);
  std::normal_distribution<float> g;
  double worst_round = 0.0, worst_best = 0.0;
  for (int i = 0; i < 200000; ++i) {
    const glm::vec3 n(g(rng), g(rng), g(rng));
    worst_round = std::max(worst_round, angle_between(oct_decode(oct_encode(n)), n));
    worst_best = std::max(worst_best, angle_between(oct_decode(oct_encode_best(n)), n));
  }
  // Measured: 6.3e-5 and 4.3e-5 rad (0.0036 and 0.0025 degrees).
  EXPECT_LT(worst_round, 7e-5);
  EXPECT_LT(worst_best, 5e-5);
  EXPECT_LE(worst_best, worst_round);
}

// The encoder's pick as it was first written, the plain way: each of the 4 codes around the
// projected point decoded, normalised in double, its cosine with n's unit vector; the largest
// (the first of equals). oct_encode_best compares the same thing without roots or divisions.
uint32_t nearest_of_four(const glm::vec3& n) {
  const float l1 = (std::fabs(n.x) + std::fabs(n.y)) + std::fabs(n.z);
  const float inv = 1.0f / l1;
  float x = n.x * inv, y = n.y * inv;
  if (n.z < 0.0f) {
    const float fx = (1.0f - std::fabs(y)) * (x >= 0.0f ? 1.0f : -1.0f);
    y = (1.0f - std::fabs(x)) * (y >= 0.0f ? 1.0f : -1.0f);
    x = fx;
  }
  const auto fx = static_cast<int32_t>(std::floor(x * 32767.0f));
  const auto fy = static_cast<int32_t>(std::floor(y * 32767.0f));
  const glm::dvec3 unit = glm::normalize(glm::dvec3(n));
  uint32_t best = 0;
  double best_dot = -2.0;
  for (int32_t dy = 0; dy < 2; ++dy)
    for (int32_t dx = 0; dx < 2; ++dx) {
      const uint32_t code =
          oct_code(std::clamp(fx + dx, -32767, 32767), std::clamp(fy + dy, -32767, 32767));
      const double d = glm::dot(glm::normalize(glm::dvec3(oct_decode_raw(code))), unit);
      if (d > best_dot) {
        best_dot = d;
        best = code;
      }
    }
  return best;
}

TEST(OctNormals, TheEncoderPicksTheNearestOfTheFourCodesAround) {
  std::mt19937 rng(11u);
  std::normal_distribution<float> g;
  std::size_t same = 0, ties = 0;
  for (int i = 0; i < 200000; ++i) {
    // Every octant and fold, at unit length and far from it (the pick compares unnormalised).
    const float scale = i % 3 == 0 ? 1.0f : i % 3 == 1 ? 1e-30f : 1e30f;
    const glm::vec3 n = scale * glm::vec3(g(rng), g(rng), g(rng));
    const uint32_t got = oct_encode_best(n), want = nearest_of_four(n);
    if (got == want) {
      ++same;
      continue;
    }
    // Another code only where the two are as near (a tie the two ways resolve differently).
    const double a = angle_between(oct_decode_raw(got), n),
                 b = angle_between(oct_decode_raw(want), n);
    EXPECT_NEAR(a, b, 1e-12) << i;
    ++ties;
  }
  EXPECT_GE(same, 199990u) << ties << " ties";
  // The diagonal's mirrored codes are an exact tie: the first in the loop's order, (10923, 10922).
  EXPECT_EQ(oct_encode_best({1, 1, 1}), oct_code(10923, 10922));
  EXPECT_EQ(nearest_of_four({1, 1, 1}), oct_code(10923, 10922));
}

// The import worker's encoder (oct_encode_best over a span: AVX2 where the CPU has it) gives the
// scalar encoder's code for every normal, bit for bit: the stored codes are what the GPU/CPU
// exactness tests compare. The same 200,000 directions at three scales as above, then the edge
// cases, each at every lane of a group of 4 and in the scalar tail.
TEST(OctNormals, TheVectorEncoderGivesTheScalarCodes) {
  std::mt19937 rng(11u);
  std::normal_distribution<float> g;
  std::vector<glm::vec3> normals;
  for (int i = 0; i < 200000; ++i) {
    const float scale = i % 3 == 0 ? 1.0f : i % 3 == 1 ? 1e-30f : 1e30f;
    normals.push_back(scale * glm::vec3(g(rng), g(rng), g(rng)));
  }
  const float inf = std::numeric_limits<float>::infinity();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float big = std::numeric_limits<float>::max();
  const float denormal = std::numeric_limits<float>::denorm_min();
  const std::vector<glm::vec3> edges = {
      {0, 0, 0},
      {-0.0f, -0.0f, -0.0f},
      {denormal, 0, 0},
      {1, denormal, -denormal},
      {1e-40f, 1e-40f, 1e-40f},
      {0x1p-120f, 0, 0},
      {0x1p-121f, 0, 0},  // at and below kOctMinL1
      {nan, 0, 1},
      {0, 0, nan},
      {inf, 0, 0},
      {0, -inf, 0},
      {big, 0, 0},
      {big, big, 0},
      {-big, 0, -1},
      {1, 0, 0},
      {-1, 0, 0},
      {0, 1, 0},
      {0, -1, 0},
      {0, 0, 1},
      {0, 0, -1},
      {1, 1, 0},
      {1, -1, 0},
      {-1, 1, 0},
      {1, 1, -0.0f},
      {1, 1, -1e-30f},
      {-1, -1, -1e-30f},
      {0.3f, 0.7f, 0},
      {0.3f, -0.7f, -0.0f},
      {0.3f, 0.7f, -denormal},  // the fold boundary z = 0
      {1, 1, 1},
      {-1, 1, 1},
      {1, -1, -1},
      {-1, -1, -1},
      {2, 2, 2},
      {1, 1, 2},
      {1, 2, 1},  // ties
  };
  for (std::size_t lane = 0; lane < 4; ++lane) {
    for (const glm::vec3& e : edges) {
      for (std::size_t i = 0; i < lane; ++i) normals.push_back(glm::vec3(0.2f, -0.5f, 0.3f));
      normals.push_back(e);
      for (std::size_t i = lane + 1; i < 4; ++i) normals.push_back(glm::vec3(-0.6f, 0.1f, -0.3f));
    }
  }
  normals.push_back(glm::vec3(1, 1, 1));  // the tail: 1 past a multiple of 4
  ASSERT_EQ(normals.size() % 4, 1u);

  std::vector<uint32_t> want(normals.size());
  for (std::size_t v = 0; v < normals.size(); ++v) want[v] = oct_encode_best(normals[v]);
  std::vector<uint32_t> got(normals.size(), 0xdeadbeefu);
  oct_encode_best(normals, got.data());
  for (std::size_t v = 0; v < normals.size(); ++v)
    ASSERT_EQ(got[v], want[v]) << v << ": " << normals[v].x << " " << normals[v].y << " "
                               << normals[v].z;
#if defined(__x86_64__) || defined(__i386__)
  if (skin_best_isa() < SkinIsa::Avx2Fma) GTEST_SKIP() << "no AVX2 + FMA on this CPU";
  std::fill(got.begin(), got.end(), 0xdeadbeefu);
  detail::oct_encode_best_avx2(normals.data(), got.data(), normals.size());
  for (std::size_t v = 0; v < normals.size(); ++v)
    ASSERT_EQ(got[v], want[v]) << v << ": " << normals[v].x << " " << normals[v].y << " "
                               << normals[v].z;
  // Hand-known codes through the vector lanes: no direction, NaN and inf encode as 0 (+z);
  // +x is the square's corner; (1, 1, 1)'s mirrored codes tie and the first is kept.
  const glm::vec3 known[4] = {{0, 0, 0}, {nan, 0, 1}, {1, 0, 0}, {1, 1, 1}};
  uint32_t codes[4];
  detail::oct_encode_best_avx2(known, codes, 4);
  EXPECT_EQ(codes[0], 0u);
  EXPECT_EQ(codes[1], 0u);
  EXPECT_EQ(codes[2], oct_code(32767, 0));
  EXPECT_EQ(codes[3], oct_code(10923, 10922));
#endif
}

TEST(CompactStreams, TheFourthWeightIsWhatTheFirstThreeLeave) {
  EXPECT_EQ(fourth_weight({0.5f, 0.25f, 0.125f}), 0.125f);  // exact in binary
  EXPECT_EQ(fourth_weight({1.0f, 0.0f, 0.0f}), 0.0f);
  const std::vector<glm::u16vec4> joints = {{0, 1, 2, 3}};
  const std::vector<glm::vec4> weights = {{0.1f, 0.2f, 0.3f, 0.4f}};
  const CompactStreams c = encode_compact(joints, weights, {});
  ASSERT_EQ(c.weights.size(), 1u);
  EXPECT_EQ(c.weights[0], glm::vec3(0.1f, 0.2f, 0.3f));
  // 1 - ((0.1f + 0.2f) + 0.3f) in float, within 2 units of the last place of 0.4f.
  EXPECT_NEAR(fourth_weight(c.weights[0]), 0.4f, 2 * 2.98e-8f);
  EXPECT_TRUE(c.normals.empty());
}

TEST(CompactStreams, JointsAreEightBitUpTo255AndSixteenBitPast) {
  const std::vector<glm::u16vec4> joints = {{3, 255, 0, 7}, {1, 2, 3, 4}};
  const std::vector<glm::vec4> weights(2, glm::vec4(0.25f));
  const std::vector<glm::vec3> normals(2, glm::vec3(0, 0, 1));
  const CompactStreams narrow = encode_compact(joints, weights, normals);
  EXPECT_TRUE(narrow.narrow_joints());
  EXPECT_EQ(narrow.max_joint, 255);
  ASSERT_EQ(narrow.joints8.size(), 2u);
  EXPECT_EQ(narrow.joints8[0], glm::u8vec4(3, 255, 0, 7));
  EXPECT_EQ(narrow.joints8[1], glm::u8vec4(1, 2, 3, 4));
  EXPECT_EQ(narrow.normals, (std::vector<uint32_t>{0u, 0u}));
  EXPECT_EQ(narrow.bytes_per_vertex(true), 48u);   // 12 + 4 + 4 + 12 read, 12 + 4 written
  EXPECT_EQ(narrow.bytes_per_vertex(false), 40u);  // 12 + 4 + 12 read, 12 written
  std::vector<glm::u16vec4> wide_joints = joints;
  wide_joints[1].w = 256;
  const CompactStreams wide = encode_compact(wide_joints, weights, normals);
  EXPECT_FALSE(wide.narrow_joints());
  EXPECT_EQ(wide.max_joint, 256);
  EXPECT_TRUE(wide.joints8.empty());
  EXPECT_EQ(wide.joints16, wide_joints);
  EXPECT_EQ(wide.bytes_per_vertex(true), 52u);
  const CompactSkinInput in = wide.input(normals);
  EXPECT_EQ(in.joints16.size(), 2u);
  EXPECT_TRUE(in.joints8.empty());
}

// ---- LBS on compact streams -----------------------------------------------------------------

struct CompactCase {
  std::vector<glm::vec3> positions, normals;
  std::vector<glm::u16vec4> joints;
  std::vector<glm::vec4> weights;
  std::vector<glm::mat4> palette;
  std::vector<glm::mat3> normal_palette;
  CompactStreams compact;
};

// Random bones (rotation, translation, non-uniform scale) and vertices laid out in runs of the
// given lengths sharing their 4 joints; weights sum to 1, some 4th slots unused.
CompactCase compact_case(const std::vector<std::size_t>& runs, int bones, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  CompactCase d;
  EXPECT_TRUE(test::random_bones(rng, bones, d.palette, d.normal_palette));
  for (const std::size_t r : runs) {
    glm::u16vec4 j;
    for (int i = 0; i < 4; ++i) j[i] = static_cast<uint16_t>(rng() % static_cast<uint32_t>(bones));
    for (std::size_t k = 0; k < r; ++k) {
      d.positions.push_back(10.0f * glm::vec3(u(rng), u(rng), u(rng)));
      d.normals.push_back(glm::normalize(glm::vec3(u(rng), u(rng), u(rng))));
      glm::vec4 w(u(rng) + 1.1f, u(rng) + 1.1f, u(rng) + 1.1f, u(rng) + 1.1f);
      if (k % 5 == 0) w.w = 0.0f;
      d.joints.push_back(j);
      d.weights.push_back(w / (w.x + w.y + w.z + w.w));
    }
  }
  d.compact = encode_compact(d.joints, d.weights, d.normals);
  return d;
}

const std::vector<std::size_t> kCompactRuns = {1,  2,   3,  5,  6,  7, 8,  15, 16, 17, 31,
                                               32, 33,  47, 48, 1,  6, 1,  5,  16, 1,  64,
                                               65, 200, 4,  6,  15, 2, 97, 1,  1,  33, 7};
constexpr SkinIsa kCompactIsas[] = {SkinIsa::Scalar, SkinIsa::Sse2, SkinIsa::Avx2Fma,
                                    SkinIsa::Avx512, SkinIsa::Auto};

// Within 1e-6 of the vertex's magnitude (its input or its result), as the float kernels
// against their reference (skinning_simd_test.cpp).
void expect_positions_close(std::span<const glm::vec3> got, std::span<const glm::vec3> want,
                            std::span<const glm::vec3> input, float tolerance) {
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t v = 0; v < want.size(); ++v) {
    const float scale = std::max({1.0f, glm::length(want[v]), glm::length(input[v])});
    for (int c = 0; c < 3; ++c)
      ASSERT_NEAR(got[v][c], want[v][c], tolerance * scale) << "vertex " << v << " component " << c;
  }
}

TEST(SkinLbsCompact, EveryInstructionSetMatchesTheCompactReference) {
  const CompactCase d = compact_case(kCompactRuns, 60, 41u);
  const std::size_t n = d.positions.size();
  const CompactSkinInput in = d.compact.input(d.positions);
  std::vector<glm::vec3> want_p(n);
  std::vector<uint32_t> want_n(n);
  ASSERT_TRUE(skin_lbs_compact_reference(d.palette, d.normal_palette, in, want_p, want_n));
  for (const bool normals : {true, false}) {
    CompactSkinInput use = in;
    if (!normals) use.normals = {};
    for (const SkinIsa isa : kCompactIsas) {
      SCOPED_TRACE(std::string(skin_isa_name(isa)) + (normals ? " normals" : " positions only"));
      // One guard element past each output: nothing is written there.
      std::vector<glm::vec3> p(n + 1, glm::vec3(7.0f));
      std::vector<uint32_t> nn(n + 1, 77u);
      ASSERT_TRUE(skin_lbs_compact_isa(
          isa, d.palette, normals ? d.normal_palette : std::vector<glm::mat3>{}, use,
          std::span(p).first(n), normals ? std::span(nn).first(n) : std::span<uint32_t>()));
      EXPECT_EQ(p[n], glm::vec3(7.0f));
      EXPECT_EQ(nn[n], 77u);
      expect_positions_close(std::span(p).first(n), want_p, d.positions, 1e-6f);
      if (!normals) continue;
      // The same code, or a neighbour: the blends differ by rounding before the encoding.
      for (std::size_t v = 0; v < n; ++v) {
        const auto dx =
            static_cast<int16_t>(nn[v] & 0xffffu) - static_cast<int16_t>(want_n[v] & 0xffffu);
        const auto dy = static_cast<int16_t>(nn[v] >> 16) - static_cast<int16_t>(want_n[v] >> 16);
        ASSERT_LE(std::abs(dx), 1) << "vertex " << v;
        ASSERT_LE(std::abs(dy), 1) << "vertex " << v;
      }
    }
  }
}

TEST(SkinLbsCompact, AgreesWithTheFloatStreamsWithinTheStatedBound) {
  const CompactCase d = compact_case(kCompactRuns, 60, 43u);
  const std::size_t n = d.positions.size();
  std::vector<glm::vec3> fp(n), fn(n), cp(n);
  std::vector<uint32_t> cn(n);
  const SkinInput fin{d.positions, d.normals, d.joints, d.weights, -1};
  ASSERT_TRUE(skin_lbs_reference(d.palette, d.normal_palette, fin, fp, fn));
  ASSERT_TRUE(skin_lbs_compact(d.palette, d.normal_palette, d.compact.input(d.positions), cp, cn));
  // Positions: the 4th weight's rounding only (a few 2^-24 of |K_3 p|, here up to ~40).
  expect_positions_close(cp, fp, d.positions, 1e-6f);
  // Normals: the input's encoding (under 5e-5 rad) turned by the vertex's blended normal matrix
  // M = sum w_i N_i, which moves a direction's error by up to its condition number (not the bones'
  // own, at most 4 here: a blend of differently rotated bones can be far worse conditioned; the
  // Frobenius norms bound it from above), and the output's rounding (under 7e-5).
  for (std::size_t v = 0; v < n; ++v) {
    glm::dmat3 m(0.0);
    for (int i = 0; i < 4; ++i)
      m += double(d.weights[v][i]) * glm::dmat3(d.normal_palette[d.joints[v][i]]);
    const auto frobenius = [](const glm::dmat3& a) {
      double sum = 0.0;
      for (int c = 0; c < 3; ++c) sum += glm::dot(a[c], a[c]);
      return std::sqrt(sum);
    };
    const double condition = frobenius(m) * frobenius(glm::inverse(m));
    ASSERT_LT(angle_between(oct_decode(cn[v]), fn[v]), condition * 5e-5 + 7e-5)
        << "vertex " << v << ", condition number <= " << condition;
  }
}

TEST(SkinLbsCompact, ParallelMatchesSingleThreadExactly) {
  // Long enough for several chunks (16384 vertices each) in runs of every length.
  std::vector<std::size_t> runs;
  for (int i = 0; runs.size() < 3000; ++i)
    runs.push_back(1 + (static_cast<std::size_t>(i) * 7) % 40);
  const CompactCase d = compact_case(runs, 40, 47u);
  const std::size_t n = d.positions.size();
  ASSERT_GT(n, 3u * 16384u);
  const CompactSkinInput in = d.compact.input(d.positions);
  std::vector<glm::vec3> p1(n), p2(n);
  std::vector<uint32_t> n1(n), n2(n);
  ASSERT_TRUE(skin_lbs_compact(d.palette, d.normal_palette, in, p1, n1));
  WorkerPool pool(2);
  ASSERT_TRUE(skin_lbs_compact_parallel(pool, d.palette, d.normal_palette, in, p2, n2));
  EXPECT_TRUE(p1 == p2);
  EXPECT_TRUE(n1 == n2);
}

// Normals the vector encoders cannot take (a blended normal of zero, NaN, or an L1 norm too small
// or too large for their scaling) get the reference loop's code exactly, on every instruction set,
// whichever way a run's block reads its bones (the AVX2 kernel: a broadcast table on runs of 24
// or more, broadcasts per block on shorter ones) and in partial blocks. Slot 0 carries the largest
// weight, as the importer orders them.
TEST(SkinLbsCompact, DegenerateNormalsGetTheReferencesCode) {
  std::mt19937 rng(71u);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  std::vector<glm::mat4> palette;
  std::vector<glm::mat3> normal_palette;
  ASSERT_TRUE(test::random_bones(rng, 8, palette, normal_palette));
  // Bone 4 scaled to nothing, 5 tiny (1e-36: a direction for the reference, below the vector
  // encoders' range), 6 huge (1e30, above it), 7 not a number.
  normal_palette[4] = glm::mat3(0.0f);
  normal_palette[5] = glm::mat3(1e-36f);
  normal_palette[6] = glm::mat3(1e30f);
  normal_palette[7] = glm::mat3(NAN);
  // Per degenerate bone k, runs of 40 and 13 vertices on joints (k, 0, 1, 2): weights (1, 0, 0)
  // (the blend is bone k's alone) and (0.5, 0.5, 0) in turn.
  std::vector<glm::vec3> positions, normals;
  std::vector<glm::u16vec4> joints;
  std::vector<glm::vec4> weights;
  std::vector<int> alone;  // per vertex: k when weighted by bone k alone, else -1
  for (uint16_t k = 4; k < 8; ++k)
    for (const int run : {40, 13}) {
      for (int i = 0; i < run; ++i) {
        positions.push_back(glm::vec3(u(rng), u(rng), u(rng)));
        normals.push_back(glm::normalize(glm::vec3(u(rng), u(rng), u(rng))));
        joints.push_back({k, 0, 1, 2});
        weights.push_back(i % 2 == 0 ? glm::vec4(1, 0, 0, 0) : glm::vec4(0.5f, 0.5f, 0, 0));
        alone.push_back(i % 2 == 0 ? k : -1);
      }
    }
  const CompactStreams c = encode_compact(joints, weights, normals);
  const CompactSkinInput in = c.input(positions);
  const std::size_t n = positions.size();
  std::vector<glm::vec3> want_p(n);
  std::vector<uint32_t> want_n(n);
  ASSERT_TRUE(skin_lbs_compact_reference(palette, normal_palette, in, want_p, want_n));
  // Hand-known: no direction (zero, NaN) encodes as 0; a tiny normal matrix keeps the direction.
  for (std::size_t v = 0; v < n; ++v) {
    if (alone[v] == 4 || alone[v] == 7 || joints[v].x == 7) {
      EXPECT_EQ(want_n[v], 0u) << v;
    }
    if (alone[v] == 5) {
      EXPECT_NE(want_n[v], 0u) << v;
      EXPECT_LT(angle_between(oct_decode(want_n[v]), oct_decode(c.normals[v])), 1e-4) << v;
    }
  }
  for (const SkinIsa isa : kCompactIsas) {
    SCOPED_TRACE(skin_isa_name(isa));
    std::vector<glm::vec3> p(n);
    std::vector<uint32_t> nn(n);
    ASSERT_TRUE(skin_lbs_compact_isa(isa, palette, normal_palette, in, p, nn));
    for (std::size_t v = 0; v < n; ++v) {
      // The blends the vector encoders refuse: bone 4, 5, 6 or 7 alone, and any blend with 6 or 7.
      if (alone[v] >= 4 || joints[v].x >= 6) {
        ASSERT_EQ(nn[v], want_n[v]) << "vertex " << v;
      }
      const auto dx =
          static_cast<int16_t>(nn[v] & 0xffffu) - static_cast<int16_t>(want_n[v] & 0xffffu);
      const auto dy = static_cast<int16_t>(nn[v] >> 16) - static_cast<int16_t>(want_n[v] >> 16);
      ASSERT_LE(std::abs(dx), 1) << "vertex " << v;
      ASSERT_LE(std::abs(dy), 1) << "vertex " << v;
    }
  }
}

#if defined(__x86_64__) || defined(__i386__)
// The AVX2 compact kernel over any range [begin, end) gives each vertex the code and position the
// whole range gives it, bit for bit: how a run's block reads its bones depends on where the range
// starts within the run and where it ends (a table on 24 vertices or more ahead, broadcasts
// otherwise), and the two must agree, as skin_lbs_compact_parallel's chunks rely on.
TEST(SkinLbsCompact, Avx2RangesStartingAndEndingAnywhereAgree) {
  if (skin_best_isa() < SkinIsa::Avx2Fma) GTEST_SKIP() << "no AVX2 + FMA on this CPU";
  const CompactCase d = compact_case({40, 13, 100, 7, 24, 25, 23, 64}, 30, 73u);
  const std::size_t n = d.positions.size();
  const CompactSkinInput in = d.compact.input(d.positions);
  std::vector<detail::PackedBone> packed(d.palette.size());
  detail::pack_palette(d.palette.data(), d.normal_palette.data(), d.palette.size(), packed.data());
  std::vector<glm::vec3> all_p(n);
  std::vector<uint32_t> all_n(n);
  const detail::CompactJob all{d.palette.data(), d.normal_palette.data(), &in, all_p.data(),
                               all_n.data()};
  detail::skin_range_avx2_compact(all, packed.data(), 0, n);
  // The kernel against the reference too (not merely against itself).
  std::vector<glm::vec3> want_p(n);
  std::vector<uint32_t> want_n(n);
  ASSERT_TRUE(skin_lbs_compact_reference(d.palette, d.normal_palette, in, want_p, want_n));
  expect_positions_close(all_p, want_p, d.positions, 1e-6f);
  std::size_t ranges = 0;
  for (std::size_t begin = 0; begin < n; begin += 5)
    for (const std::size_t length : {1, 6, 9, 23, 24, 31, 57}) {
      const std::size_t end = std::min(n, begin + length);
      std::vector<glm::vec3> p(n, glm::vec3(7.0f));
      std::vector<uint32_t> nn(n, 77u);
      const detail::CompactJob job{d.palette.data(), d.normal_palette.data(), &in, p.data(),
                                   nn.data()};
      detail::skin_range_avx2_compact(job, packed.data(), begin, end);
      for (std::size_t v = 0; v < n; ++v) {
        const bool inside = v >= begin && v < end;
        ASSERT_EQ(p[v], inside ? all_p[v] : glm::vec3(7.0f)) << begin << " " << end << " " << v;
        ASSERT_EQ(nn[v], inside ? all_n[v] : 77u) << begin << " " << end << " " << v;
      }
      ++ranges;
    }
  EXPECT_GT(ranges, 100u);
}
#endif

// A load's encoding (encode_compact(model, pool)): per mesh, the single-threaded encoding of that
// mesh, whatever the split; a mesh past 255 joints keeps u16 joints, one without normals none.
TEST(CompactStreams, AModelEncodedOnAPoolEqualsItsMeshesEncodedOneByOne) {
  Model model;
  for (int k = 0; k < 3; ++k) {
    const CompactCase d = compact_case(kCompactRuns, k == 1 ? 300 : 60, 61u + k);
    Mesh mesh;
    mesh.positions = d.positions;
    if (k != 2) mesh.normals = d.normals;
    std::vector<glm::u16vec4> joints = d.joints;
    if (k == 1) joints[5].y = 299;
    mesh.joints = joints;
    mesh.weights = d.weights;
    mesh.max_joint = -1;  // scanned by the encoder
    model.meshes.push_back(std::move(mesh));
  }
  for (const unsigned threads : {1u, 2u, 3u}) {
    WorkerPool pool(threads);
    const std::vector<CompactStreams> all = encode_compact(model, &pool);
    ASSERT_EQ(all.size(), 3u);
    for (std::size_t m = 0; m < 3; ++m) {
      const CompactStreams one = encode_compact(model.meshes[m]);
      EXPECT_EQ(all[m].normals, one.normals) << m;
      EXPECT_EQ(all[m].joints8, one.joints8) << m;
      EXPECT_EQ(all[m].joints16, one.joints16) << m;
      EXPECT_EQ(all[m].weights, one.weights) << m;
      EXPECT_EQ(all[m].max_joint, one.max_joint) << m;
      EXPECT_EQ(all[m].weights.size(), model.meshes[m].vertex_count()) << m;
    }
    EXPECT_TRUE(all[0].narrow_joints());
    EXPECT_FALSE(all[1].narrow_joints());
    EXPECT_EQ(all[1].max_joint, 299);
    EXPECT_TRUE(all[2].normals.empty());
    // And each code is the encoder's (not, say, a zeroed entry a part skipped).
    for (std::size_t v = 0; v < model.meshes[0].vertex_count(); ++v)
      ASSERT_EQ(all[0].normals[v], oct_encode_best(model.meshes[0].normals[v])) << v;
  }
  EXPECT_TRUE(encode_compact(model, nullptr)[1].joints16 ==
              encode_compact(model.meshes[1]).joints16);
}

TEST(SkinLbsCompact, MoreThan256JointsKeepSixteenBitJoints) {
  CompactCase d = compact_case({10, 3, 40}, 300, 53u);
  for (glm::u16vec4& j : d.joints) j.x = static_cast<uint16_t>(256 + j.x % 44);
  d.compact = encode_compact(d.joints, d.weights, d.normals);
  ASSERT_FALSE(d.compact.narrow_joints());
  const std::size_t n = d.positions.size();
  std::vector<glm::vec3> fp(n), fn(n), cp(n);
  std::vector<uint32_t> cn(n);
  ASSERT_TRUE(skin_lbs_reference(d.palette, d.normal_palette,
                                 {d.positions, d.normals, d.joints, d.weights, -1}, fp, fn));
  ASSERT_TRUE(skin_lbs_compact(d.palette, d.normal_palette, d.compact.input(d.positions), cp, cn));
  expect_positions_close(cp, fp, d.positions, 1e-6f);
  for (std::size_t v = 0; v < n; ++v)
    ASSERT_LT(angle_between(oct_decode(cn[v]), fn[v]), 4 * 5e-5 + 7e-5);
}

TEST(SkinLbsCompact, RefusesWithoutWriting) {
  const CompactCase d = compact_case({8}, 4, 59u);
  std::vector<glm::vec3> p(8, glm::vec3(7.0f));
  std::vector<uint32_t> nn(8, 77u);
  CompactSkinInput in = d.compact.input(d.positions);
  // A joint past the palette.
  EXPECT_FALSE(skin_lbs_compact(std::span(d.palette).first(2), std::span(d.normal_palette).first(2),
                                in, p, nn));
  // Outputs of the wrong size.
  EXPECT_FALSE(skin_lbs_compact(d.palette, d.normal_palette, in, std::span(p).first(7), nn));
  // Both joint streams given.
  const std::vector<glm::u16vec4> j16(8);
  in.joints16 = j16;
  EXPECT_FALSE(skin_lbs_compact(d.palette, d.normal_palette, in, p, nn));
  EXPECT_EQ(p, std::vector<glm::vec3>(8, glm::vec3(7.0f)));
  EXPECT_EQ(nn, std::vector<uint32_t>(8, 77u));
}

}  // namespace
}  // namespace sv
