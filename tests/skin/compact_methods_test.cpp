// DQS and CoR over the compact streams (skin_compact, skin/skinning.h; the layout:
// skin/compact_streams.h): a two-bone vertex worked by hand; the scalar loop against the float
// method loop fed the decoded streams (the same operations: equal positions), and against the
// float streams within the stated bounds; every instruction set against the scalar loop (runs of
// every length, partial blocks, positions only); the threaded split; u16 joints; refusals.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include <glm/geometric.hpp>

#include "anim/pose.h"
#include "anim/worker_pool.h"
#include "random_bones.h"
#include "skin/compact_streams.h"
#include "skin/skin_method.h"
#include "skin/skinning.h"
#include "skin/skinning_kernels.h"

namespace sv {
namespace {

uint32_t code_of(int32_t x, int32_t y) {
  return (static_cast<uint32_t>(x) & 0xffffu) | (static_cast<uint32_t>(y) << 16);
}

double angle_of(const glm::vec3& a, const glm::vec3& b) {
  const glm::dvec3 x(a), y(b);
  return std::atan2(glm::length(glm::cross(x, y)), glm::dot(x, y));
}

// Two bones: 0 the identity, 1 a quarter turn about +z moved by (0, 2, 0). One vertex at (1,0,0)
// with normal +y, weights 3/4 and 1/4 (the 3rd and 4th slots empty), its centre at the origin.
struct TwoBones {
  std::vector<glm::mat4> palette;
  std::vector<MethodBone> method;
  std::vector<glm::vec3> positions = {{1.0f, 0.0f, 0.0f}};
  std::vector<glm::vec3> centers = {{0.0f, 0.0f, 0.0f}};
  CompactStreams compact;
  explicit TwoBones(bool translated) {
    glm::mat4 k1(0.0f);
    k1[0] = glm::vec4(0, 1, 0, 0);   // x -> y
    k1[1] = glm::vec4(-1, 0, 0, 0);  // y -> -x
    k1[2] = glm::vec4(0, 0, 1, 0);
    k1[3] = glm::vec4(0, translated ? 2.0f : 0.0f, 0, 1);
    palette = {glm::mat4(1.0f), k1};
    method.resize(2);
    EXPECT_TRUE(build_method_palette(palette, method));
    compact = encode_compact(std::vector<glm::u16vec4>{{0, 1, 0, 0}},
                             std::vector<glm::vec4>{{0.75f, 0.25f, 0.0f, 0.0f}},
                             std::vector<glm::vec3>{{0.0f, 1.0f, 0.0f}});
  }
  CompactSkinInput input() const {
    CompactSkinInput in = compact.input(positions);
    in.centers = centers;
    return in;
  }
  SkinPalettes palettes() const { return SkinPalettes{palette, {}, method}; }
};

// The blended rotation: 3/4 (1, 0) + 1/4 (cos 45, sin 45 z), normalised, is a turn about z by
// theta with tan(theta/2) = (sin 45 / 4) / (3/4 + cos 45 / 4) = sin 45 / (3 + cos 45) = 0.190744:
// cos theta = (1 - t^2) / (1 + t^2) = 0.929788, sin theta = 2t / (1 + t^2) = 0.368095. DQS
// without translation turns (1,0,0) to (cos theta, sin theta, 0) and the normal +y to
// (-sin theta, cos theta, 0). Its code: L1-normalised x = -0.283613, y = 0.716387; times 32767,
// -9293.15 and 23473.85: (-9293, 23474).
double half_tan() { return std::sqrt(0.5) / (3.0 + std::sqrt(0.5)); }

TEST(SkinCompactMethods, DqsOfTwoBonesWorkedByHand) {
  const TwoBones d(false);
  const double t = half_tan();
  const double c = (1 - t * t) / (1 + t * t), s = 2 * t / (1 + t * t);
  EXPECT_NEAR(c, 0.929788, 1e-6);
  EXPECT_NEAR(s, 0.368095, 1e-6);
  for (const SkinIsa isa : {SkinIsa::Scalar, SkinIsa::Avx2Fma, SkinIsa::Avx512}) {
    SCOPED_TRACE(skin_isa_name(isa));
    std::vector<glm::vec3> p(1);
    std::vector<uint32_t> n(1);
    const CompactSkinInput in = d.input();
    ASSERT_TRUE(skin_compact_isa(isa, SkinMethod::Dqs, d.palettes(), in, p, n));
    EXPECT_NEAR(p[0].x, c, 1e-6);
    EXPECT_NEAR(p[0].y, s, 1e-6);
    EXPECT_NEAR(p[0].z, 0.0, 1e-6);
    EXPECT_EQ(n[0], code_of(-9293, 23474));
  }
}

// CoR about the origin: p' = R(theta) (p - 0) + (3/4 K_0 0 + 1/4 K_1 0) = (c, s, 0) + (0, 1/2,
// 0); the normal as under DQS (the same blended rotation; translations do not turn normals).
TEST(SkinCompactMethods, CorOfTwoBonesWorkedByHand) {
  const TwoBones d(true);
  const double t = half_tan();
  const double c = (1 - t * t) / (1 + t * t), s = 2 * t / (1 + t * t);
  for (const SkinIsa isa : {SkinIsa::Scalar, SkinIsa::Avx2Fma, SkinIsa::Avx512}) {
    SCOPED_TRACE(skin_isa_name(isa));
    std::vector<glm::vec3> p(1);
    std::vector<uint32_t> n(1);
    ASSERT_TRUE(skin_compact_isa(isa, SkinMethod::Cor, d.palettes(), d.input(), p, n));
    EXPECT_NEAR(p[0].x, c, 1e-6);
    EXPECT_NEAR(p[0].y, s + 0.5, 1e-6);
    EXPECT_NEAR(p[0].z, 0.0, 1e-6);
    EXPECT_EQ(n[0], code_of(-9293, 23474));
  }
}

// ---- The batches' vector decode and encode (compact_methods_avx2.cpp) ------------------

// The kernel's encoder: oct_encode's code or a neighbour (each coordinate one step at most) for
// random vectors at three scales, and oct_encode's own code for the vectors with no usable L1
// norm (zero, tiny, huge, not finite), in every lane and the padded tail; a few worked by hand.
TEST(SkinCompactMethods, TheVectorEncoderGivesTheScalarCodeOrANeighbour) {
#if defined(__x86_64__) || defined(__i386__)
  if (skin_best_isa() < SkinIsa::Avx2Fma) GTEST_SKIP() << "no AVX2 on this CPU";
  std::mt19937 rng(107u);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  std::vector<glm::vec3> vectors;
  for (const float scale : {1.0f, 3e4f, 1e-25f, 1e25f})
    for (int i = 0; i < 20000; ++i) vectors.push_back(scale * glm::vec3(u(rng), u(rng), u(rng)));
  const float inf = std::numeric_limits<float>::infinity();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  // Vectors the encoder leaves to oct_encode: L1 norm below 2^-100 or above 2^100, or not finite.
  const std::vector<glm::vec3> degenerate = {
      {0, 0, 0},        {-0.0f, 0, -0.0f},       {0x1p-126f, 0, 0}, {0x1p-101f, 0, -0x1p-103f},
      {0x1p101f, 1, 0}, {-1e38f, 1e38f, -1e38f}, {inf, 0, 0},       {nan, 1, 0},
      {1, -inf, 1}};
  std::vector<bool> exact(vectors.size(), false);
  for (const glm::vec3& e : degenerate)
    for (int lane = 0; lane < 9; ++lane) {
      vectors.insert(vectors.begin() + lane * 7, e);
      exact.insert(exact.begin() + lane * 7, true);
    }
  const std::size_t n = vectors.size() - 5;  // a partial block at the end
  std::vector<uint32_t> got(n + 1, 77u);
  detail::oct_encode_direction_avx2(vectors.data(), got.data(), n);
  EXPECT_EQ(got[n], 77u);  // nothing written past the count
  std::size_t same = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const uint32_t want = oct_encode(vectors[i]);
    if (exact[i]) {
      ASSERT_EQ(got[i], want) << "vector " << i;
      continue;
    }
    const int dx = static_cast<int16_t>(got[i] & 0xffffu) - static_cast<int16_t>(want & 0xffffu);
    const int dy = static_cast<int16_t>(got[i] >> 16) - static_cast<int16_t>(want >> 16);
    ASSERT_LE(std::abs(dx), 1) << "vector " << i;
    ASSERT_LE(std::abs(dy), 1) << "vector " << i;
    same += got[i] == want ? 1 : 0;
  }
  // Only values within a few rounding steps of a half step of the grid round apart.
  EXPECT_GT(same, (n - degenerate.size() * 9) * 99 / 100);
  // By hand, unnormalised (every product exact but the second's): (512, -512, 0) is (16383.5,
  // -16383.5), ties to even; (7, 7, -7) folds to (14, 14) / 21 32767 = 21844.67; (-2, 1, -1)
  // 2^-9 to (-(2 + 1), 1 + 1) / 4 32767 = (-24575.25, 16383.5).
  const glm::vec3 hand[3] = {
      {512.0f, -512.0f, 0.0f}, {7.0f, 7.0f, -7.0f}, {-0x1p-8f, 0x1p-9f, -0x1p-9f}};
  uint32_t hand_codes[3];
  detail::oct_encode_direction_avx2(hand, hand_codes, 3);
  EXPECT_EQ(hand_codes[0], code_of(16384, -16384));
  EXPECT_EQ(hand_codes[1], code_of(21845, 21845));
  EXPECT_EQ(hand_codes[2], code_of(-24575, 16384));
#else
  GTEST_SKIP() << "x86 only";
#endif
}

// The kernel's decoder: oct_decode_raw's direction scaled to L1 norm 32767, exactly in integers,
// for the codes of random directions and every code of a 16-bit lattice's corners and edges.
TEST(SkinCompactMethods, TheVectorDecoderGivesTheScaledDirection) {
#if defined(__x86_64__) || defined(__i386__)
  if (skin_best_isa() < SkinIsa::Avx2Fma) GTEST_SKIP() << "no AVX2 on this CPU";
  std::mt19937 rng(109u);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  std::vector<uint32_t> codes;
  for (int i = 0; i < 20000; ++i) codes.push_back(oct_encode(glm::vec3(u(rng), u(rng), u(rng))));
  for (const int32_t a : {-32768, -32767, -1, 0, 1, 32767})
    for (const int32_t b : {-32768, -32767, -16384, 0, 16384, 32767})
      codes.push_back(code_of(a, b));
  codes.push_back(code_of(3, -5));  // a partial block at the end
  std::vector<glm::vec3> decoded(codes.size() + 1, glm::vec3(7.0f));
  detail::oct_decode_scaled_avx2(codes.data(), decoded.data(), codes.size());
  EXPECT_EQ(decoded.back(), glm::vec3(7.0f));
  for (std::size_t i = 0; i < codes.size(); ++i) {
    const glm::vec3 g = decoded[i];
    for (int c = 0; c < 3; ++c) ASSERT_EQ(g[c], std::round(g[c])) << "code " << codes[i];
    ASSERT_EQ(std::abs(g.x) + std::abs(g.y) + std::abs(g.z), 32767.0f) << "code " << codes[i];
    // oct_decode_raw rounds each product by kOctScale: within an ulp or two of 1.
    const glm::vec3 w = oct_decode_raw(codes[i]);
    for (int c = 0; c < 3; ++c)
      ASSERT_NEAR(g[c] / 32767.0f, w[c], 3e-7f) << "code " << codes[i] << " coordinate " << c;
  }
  // By hand: (16384, 32767) lies past the square's edge (z = 32767 - 16384 - 32767 = -16384),
  // so it unfolds to ((32767 - 32767) s(x), (32767 - 16384) s(y)) = (0, 16383); -32768 reads as
  // -32767; (3, -5) is z = 32759.
  const uint32_t hand[3] = {code_of(16384, 32767), code_of(-32768, 0), code_of(3, -5)};
  glm::vec3 h[3];
  detail::oct_decode_scaled_avx2(hand, h, 3);
  EXPECT_EQ(h[0], glm::vec3(0.0f, 16383.0f, -16384.0f));
  EXPECT_EQ(h[1], glm::vec3(-32767.0f, 0.0f, 0.0f));
  EXPECT_EQ(h[2], glm::vec3(3.0f, -5.0f, 32759.0f));
#else
  GTEST_SKIP() << "x86 only";
#endif
}

// ---- Random cases -------------------------------------------------------------------------

struct MethodCase {
  std::vector<glm::vec3> positions, normals, centers;
  std::vector<glm::u16vec4> joints;
  std::vector<glm::vec4> weights;
  std::vector<glm::mat4> palette;
  std::vector<glm::mat3> normal_palette;
  std::vector<MethodBone> method;
  CompactStreams compact;
  CompactSkinInput input() const {
    CompactSkinInput in = compact.input(positions);
    in.centers = centers;
    return in;
  }
  SkinPalettes palettes() const { return SkinPalettes{palette, normal_palette, method}; }
};

// Random bones (rotation, translation, non-uniform scale when `scaled`: two-phase skinning) and
// vertices in runs of the given lengths sharing their 4 joints; weights sum to 1, some 4th slots
// unused; centres near the vertices.
MethodCase method_case(const std::vector<std::size_t>& runs, int bones, uint32_t seed,
                       bool scaled) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  MethodCase d;
  EXPECT_TRUE(test::random_bones(rng, bones, d.palette, d.normal_palette));
  if (!scaled) {
    // The rigid part of each bone only (the usual rig: every S the identity).
    for (glm::mat4& k : d.palette) {
      glm::dmat3 r, s;
      if (!polar_decompose(glm::dmat3(glm::mat3(k)), &r, &s)) continue;
      const glm::vec4 t = k[3];
      k = glm::mat4(glm::mat3(r));
      k[3] = t;
    }
    EXPECT_TRUE(build_normal_palette(d.palette, d.normal_palette));
  }
  d.method.resize(d.palette.size());
  EXPECT_TRUE(build_method_palette(d.palette, d.method));
  for (const std::size_t r : runs) {
    glm::u16vec4 j;
    for (int i = 0; i < 4; ++i) j[i] = static_cast<uint16_t>(rng() % static_cast<uint32_t>(bones));
    for (std::size_t k = 0; k < r; ++k) {
      const glm::vec3 p = 10.0f * glm::vec3(u(rng), u(rng), u(rng));
      d.positions.push_back(p);
      d.centers.push_back(p + glm::vec3(u(rng), u(rng), u(rng)));
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

const std::vector<std::size_t> kMethodRuns = {1,  2,   3,  5,  6,  7, 8,  15, 16, 17, 31,
                                              32, 33,  47, 48, 1,  6, 1,  5,  16, 1,  64,
                                              65, 200, 4,  6,  15, 2, 97, 1,  1,  33, 7};
constexpr SkinMethod kCompactMethods[] = {SkinMethod::Dqs, SkinMethod::Cor};
constexpr SkinIsa kMethodIsas[] = {SkinIsa::Scalar, SkinIsa::Sse2, SkinIsa::Avx2Fma,
                                   SkinIsa::Avx512, SkinIsa::Auto};

// The float method loop (skinning_methods.cpp) over the streams the compact loop decodes (u16
// joints, w3 = fourth_weight, oct_decode_raw normals) performs the same float operations on the
// same values: the compact loop's positions equal its, and its normal's code is oct_encode of
// that loop's normal (the direction; only the normalisation differs, within the code's
// rounding: the same code or a neighbour).
TEST(SkinCompactMethods, TheScalarLoopIsTheFloatLoopOnTheDecodedStreams) {
  for (const bool scaled : {false, true}) {
    const MethodCase d = method_case(kMethodRuns, 60, scaled ? 71u : 73u, scaled);
    const std::size_t n = d.positions.size();
    std::vector<glm::vec4> w4(n);
    std::vector<glm::vec3> decoded(n);
    for (std::size_t v = 0; v < n; ++v) {
      const glm::vec3 w = d.compact.weights[v];
      w4[v] = glm::vec4(w, fourth_weight(w));
      decoded[v] = oct_decode_raw(d.compact.normals[v]);
    }
    SkinInput fin{d.positions, decoded, d.joints, w4, -1};
    fin.centers = d.centers;
    for (const SkinMethod method : kCompactMethods) {
      SCOPED_TRACE(std::string(skin_method_label(method)) + (scaled ? " scaled" : " rigid"));
      std::vector<glm::vec3> fp(n), fn(n), cp(n);
      std::vector<uint32_t> cn(n);
      ASSERT_TRUE(skin_isa(SkinIsa::Scalar, method, d.palettes(), fin, fp, fn));
      ASSERT_TRUE(skin_compact_reference(method, d.palettes(), d.input(), cp, cn));
      std::size_t equal = 0;
      for (std::size_t v = 0; v < n; ++v) {
        equal += cp[v] == fp[v] ? 1 : 0;
        const uint32_t want = oct_encode(fn[v]);
        const int dx = static_cast<int16_t>(cn[v] & 0xffffu) - static_cast<int16_t>(want & 0xffffu);
        const int dy = static_cast<int16_t>(cn[v] >> 16) - static_cast<int16_t>(want >> 16);
        ASSERT_LE(std::abs(dx), 1) << "vertex " << v;
        ASSERT_LE(std::abs(dy), 1) << "vertex " << v;
      }
      EXPECT_EQ(equal, n);
    }
  }
}

// Within 1e-6 of the vertex's magnitude (its input or its result), as skin_lbs_compact's test.
void expect_compact_close(std::span<const glm::vec3> got, std::span<const glm::vec3> want,
                          std::span<const glm::vec3> input, float tolerance) {
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t v = 0; v < want.size(); ++v) {
    const float scale = std::max({1.0f, glm::length(want[v]), glm::length(input[v])});
    for (int c = 0; c < 3; ++c)
      ASSERT_NEAR(got[v][c], want[v][c], tolerance * scale) << "vertex " << v << " component " << c;
  }
}

TEST(SkinCompactMethods, EveryInstructionSetMatchesTheScalarLoop) {
  for (const bool scaled : {false, true}) {
    const MethodCase d = method_case(kMethodRuns, 60, scaled ? 81u : 83u, scaled);
    const std::size_t n = d.positions.size();
    for (const SkinMethod method : kCompactMethods) {
      std::vector<glm::vec3> want_p(n);
      std::vector<uint32_t> want_n(n);
      ASSERT_TRUE(skin_compact_reference(method, d.palettes(), d.input(), want_p, want_n));
      for (const bool normals : {true, false}) {
        CompactSkinInput in = d.input();
        if (!normals) in.normals = {};
        for (const SkinIsa isa : kMethodIsas) {
          SCOPED_TRACE(std::string(skin_method_label(method)) + " " + skin_isa_name(isa) +
                       (normals ? " normals" : " positions only") + (scaled ? " scaled" : ""));
          // One guard element past each output: nothing is written there.
          std::vector<glm::vec3> p(n + 1, glm::vec3(7.0f));
          std::vector<uint32_t> nn(n + 1, 77u);
          ASSERT_TRUE(skin_compact_isa(isa, method, d.palettes(), in, std::span(p).first(n),
                                       normals ? std::span(nn).first(n) : std::span<uint32_t>()));
          EXPECT_EQ(p[n], glm::vec3(7.0f));
          EXPECT_EQ(nn[n], 77u);
          expect_compact_close(std::span(p).first(n), want_p, d.positions, 1e-6f);
          if (!normals) continue;
          // The vector kernels normalise their quaternions with a refined reciprocal square
          // root, fuse products, sum in another order and encode with one division (the
          // AVX2 kernel from normals scaled by 32767): the same direction within rounding, so
          // the same code or a neighbour (one step: under 1e-4 rad).
          for (std::size_t v = 0; v < n; ++v)
            ASSERT_LT(angle_of(oct_decode(nn[v]), oct_decode(want_n[v])), 1e-4) << "vertex " << v;
        }
      }
    }
  }
}

// Against the float streams (the original weights and normals): positions by the 4th weight's
// rounding only (compact_streams.h: a few 2^-24 of the bones' images), normals by the input's
// encoding (under 4.3e-5 rad) turned by the method's normal transform (a rotation, times the
// blended stretch's cofactor when scaled: that can magnify the error by its condition number,
// bounded here from above by Frobenius norms) and the output's rounding (under 6.3e-5).
TEST(SkinCompactMethods, AgreesWithTheFloatStreamsWithinTheStatedBound) {
  for (const bool scaled : {false, true}) {
    const MethodCase d = method_case(kMethodRuns, 60, scaled ? 91u : 93u, scaled);
    const std::size_t n = d.positions.size();
    SkinInput fin{d.positions, d.normals, d.joints, d.weights, -1};
    fin.centers = d.centers;
    for (const SkinMethod method : kCompactMethods) {
      SCOPED_TRACE(std::string(skin_method_label(method)) + (scaled ? " scaled" : " rigid"));
      std::vector<glm::vec3> fp(n), fn(n), cp(n);
      std::vector<uint32_t> cn(n);
      ASSERT_TRUE(skin(method, d.palettes(), fin, fp, fn));
      ASSERT_TRUE(skin_compact(method, d.palettes(), d.input(), cp, cn));
      expect_compact_close(cp, fp, d.positions, 1e-6f);
      for (std::size_t v = 0; v < n; ++v) {
        double condition = 1.0;
        if (scaled) {
          glm::dmat3 a(0.0);
          for (int i = 0; i < 4; ++i)
            a += double(d.weights[v][i]) * glm::dmat3(d.method[d.joints[v][i]].stretch);
          const auto frobenius = [](const glm::dmat3& m) {
            double sum = 0.0;
            for (int c = 0; c < 3; ++c) sum += glm::dot(m[c], m[c]);
            return std::sqrt(sum);
          };
          condition = frobenius(a) * frobenius(glm::inverse(a));
        }
        ASSERT_LT(angle_of(oct_decode(cn[v]), fn[v]), condition * 4.3e-5 + 6.3e-5 + 1e-6)
            << "vertex " << v << ", condition number <= " << condition;
      }
    }
  }
}

TEST(SkinCompactMethods, ParallelMatchesSingleThreadExactly) {
  // Long enough for several chunks (16384 vertices each) in runs of every length.
  std::vector<std::size_t> runs;
  for (int i = 0; runs.size() < 3000; ++i)
    runs.push_back(1 + (static_cast<std::size_t>(i) * 7) % 40);
  const MethodCase d = method_case(runs, 40, 97u, true);
  const std::size_t n = d.positions.size();
  ASSERT_GT(n, 3u * 16384u);
  WorkerPool pool(2);
  for (const SkinMethod method : kCompactMethods) {
    SCOPED_TRACE(skin_method_label(method));
    std::vector<glm::vec3> p1(n), p2(n);
    std::vector<uint32_t> n1(n), n2(n);
    ASSERT_TRUE(skin_compact(method, d.palettes(), d.input(), p1, n1));
    ASSERT_TRUE(skin_compact_parallel(pool, method, d.palettes(), d.input(), p2, n2));
    EXPECT_TRUE(p1 == p2);
    EXPECT_TRUE(n1 == n2);
  }
}

// More than 256 joints: u16 joints kept, the scalar loop on every instruction set; it agrees
// with the float streams as above.
TEST(SkinCompactMethods, MoreThan256JointsKeepSixteenBitJoints) {
  MethodCase d = method_case({10, 3, 40}, 300, 101u, false);
  for (glm::u16vec4& j : d.joints) j.x = static_cast<uint16_t>(256 + j.x % 44);
  d.compact = encode_compact(d.joints, d.weights, d.normals);
  ASSERT_FALSE(d.compact.narrow_joints());
  const std::size_t n = d.positions.size();
  SkinInput fin{d.positions, d.normals, d.joints, d.weights, -1};
  fin.centers = d.centers;
  for (const SkinMethod method : kCompactMethods) {
    std::vector<glm::vec3> fp(n), fn(n), cp(n);
    std::vector<uint32_t> cn(n);
    ASSERT_TRUE(skin(method, d.palettes(), fin, fp, fn));
    ASSERT_TRUE(skin_compact(method, d.palettes(), d.input(), cp, cn));
    expect_compact_close(cp, fp, d.positions, 1e-6f);
    for (std::size_t v = 0; v < n; ++v)
      ASSERT_LT(angle_of(oct_decode(cn[v]), fn[v]), 4.3e-5 + 6.3e-5 + 1e-6);
  }
}

TEST(SkinCompactMethods, RefusesWithoutWriting) {
  const MethodCase d = method_case({8}, 4, 103u, false);
  std::vector<glm::vec3> p(8, glm::vec3(7.0f));
  std::vector<uint32_t> nn(8, 77u);
  const CompactSkinInput in = d.input();
  for (const SkinMethod method : kCompactMethods) {
    SCOPED_TRACE(skin_method_label(method));
    // A joint past the method palette.
    SkinPalettes short_pal{std::span(d.palette).first(2), {}, std::span(d.method).first(2)};
    EXPECT_FALSE(skin_compact(method, short_pal, in, p, nn));
    // A method palette that does not match the palette.
    SkinPalettes mismatched{d.palette, {}, std::span(d.method).first(3)};
    EXPECT_FALSE(skin_compact(method, mismatched, in, p, nn));
    // Outputs of the wrong size.
    EXPECT_FALSE(skin_compact(method, d.palettes(), in, std::span(p).first(7), nn));
    EXPECT_FALSE(skin_compact(method, d.palettes(), in, p, std::span(nn).first(7)));
  }
  // CoR without its centres (DQS needs none, nor the palette).
  CompactSkinInput no_centers = in;
  no_centers.centers = {};
  EXPECT_FALSE(skin_compact(SkinMethod::Cor, d.palettes(), no_centers, p, nn));
  for (const glm::vec3& x : p) EXPECT_EQ(x, glm::vec3(7.0f));
  for (const uint32_t x : nn) EXPECT_EQ(x, 77u);
  EXPECT_TRUE(skin_compact(SkinMethod::Dqs, SkinPalettes{{}, {}, d.method}, no_centers, p, nn));
}

}  // namespace
}  // namespace sv
