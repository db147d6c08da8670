// DQS and CoR: the method palette (polar decomposition, dual quaternions), hand-computed elbows
// and twists, every kernel against the slow references of method_reference.h on random rigs
// with and without scale (runs long enough for the lane kernels, and short ones), the threaded
// split, rigid meshes under every method, and refusal of inputs that do not fit.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <random>
#include <vector>

#include <glm/gtc/constants.hpp>
#include <glm/gtc/matrix_transform.hpp>

#include "anim/model.h"
#include "anim/pose.h"
#include "anim/worker_pool.h"
#include "method_reference.h"
#include "skin/skin_method.h"
#include "skin/skinning.h"
#include "test_util.h"

namespace sv {
namespace {

glm::mat4 trs(const glm::vec3& t, const glm::quat& r, const glm::vec3& s) {
  Transform x;
  x.translation = t;
  x.rotation = r;
  x.scale = s;
  return to_matrix(x);
}

TEST(PolarDecompose, RecoversRotationAndStretch) {
  const glm::dmat3 rot = glm::mat3_cast(glm::normalize(glm::dquat(0.9, 0.2, -0.3, 0.25)));
  // A symmetric positive-definite stretch with shear.
  const glm::dmat3 s(glm::dvec3(2.0, 0.3, 0.1), glm::dvec3(0.3, 0.7, -0.2),
                     glm::dvec3(0.1, -0.2, 1.4));
  glm::dmat3 r_out, s_out;
  ASSERT_TRUE(polar_decompose(rot * s, &r_out, &s_out));
  for (int c = 0; c < 3; ++c)
    for (int r = 0; r < 3; ++r) {
      EXPECT_NEAR(r_out[c][r], rot[c][r], 1e-12);
      EXPECT_NEAR(s_out[c][r], s[c][r], 1e-12);
    }
  // Mirrored: the reflection goes into S, R stays proper.
  const glm::dmat3 mirror(glm::dvec3(-1, 0, 0), glm::dvec3(0, 1, 0), glm::dvec3(0, 0, 1));
  ASSERT_TRUE(polar_decompose(rot * mirror, &r_out, &s_out));
  EXPECT_NEAR(glm::determinant(r_out), 1.0, 1e-12);
  const glm::dmat3 back = r_out * s_out;
  for (int c = 0; c < 3; ++c)
    for (int r = 0; r < 3; ++r) EXPECT_NEAR(back[c][r], (rot * mirror)[c][r], 1e-12);
  // Singular and non-finite: refused, outputs untouched.
  glm::dmat3 keep_r(5.0), keep_s(6.0);
  EXPECT_FALSE(polar_decompose(
      glm::dmat3(glm::dvec3(1, 0, 0), glm::dvec3(0, 1, 0), glm::dvec3(0, 0, 0)), &keep_r, &keep_s));
  EXPECT_FALSE(polar_decompose(glm::dmat3(std::nan("")), &keep_r, &keep_s));
  EXPECT_EQ(keep_r, glm::dmat3(5.0));
  EXPECT_EQ(keep_s, glm::dmat3(6.0));
}

TEST(MethodPalette, SplitsRigidAndScaledEntries) {
  const glm::quat q = glm::angleAxis(0.7f, glm::normalize(glm::vec3(1, 2, 3)));
  const std::array<glm::mat4, 3> palette = {
      trs({1, 2, 3}, q, glm::vec3(1.0f)), trs({0, -1, 0.5f}, q, {2.0f, 1.0f, 0.5f}),
      glm::mat4(0.0f)  // a joint scaled to zero: no rotation to find
  };
  std::array<MethodBone, 3> m;
  ASSERT_TRUE(build_method_palette(palette, m));
  EXPECT_EQ(m[0].scaled, 0u);
  EXPECT_EQ(m[0].stretch, glm::mat3(1.0f));
  EXPECT_NEAR_GLM(m[0].real, q, 1e-6f);
  // t = 2 qe q*.
  const glm::quat t = 2.0f * m[0].dual * glm::conjugate(m[0].real);
  EXPECT_NEAR_GLM(glm::vec3(t.x, t.y, t.z), glm::vec3(1, 2, 3), 1e-6f);
  EXPECT_NEAR(t.w, 0.0f, 1e-6f);
  EXPECT_EQ(m[1].scaled, 1u);
  EXPECT_NEAR_GLM(m[1].real, q, 1e-6f);
  // S in bind space: K = R S, S = diag(2, 1, 0.5) since the scale is applied first.
  EXPECT_NEAR_GLM(m[1].stretch,
                  glm::mat3(glm::vec3(2, 0, 0), glm::vec3(0, 1, 0), glm::vec3(0, 0, 0.5f)), 1e-5f);
  EXPECT_EQ(m[2].real, glm::quat(1, 0, 0, 0));
  EXPECT_EQ(m[2].scaled, 1u);
  // Sizes must agree.
  std::array<MethodBone, 2> small;
  EXPECT_FALSE(build_method_palette(palette, small));
}

// The two-bone arm of skinning_test.cpp bent 90 degrees at the elbow (1,0,0): a vertex weighted
// half and half. LBS averages (1.5,0,0) and (1,0.5,0): (1.25, 0.25, 0), pulled towards the joint.
// DQS rotates by half the bend, 45 degrees about the elbow: (1 + 0.5 cos 45, 0.5 sin 45, 0). CoR
// with its centre at the elbow does the same.
TEST(SkinMethods, ElbowHalfWayKeepsItsDistanceFromTheJoint) {
  const glm::mat4 k1 = glm::translate(glm::mat4(1.0f), glm::vec3(1, 0, 0)) *
                       glm::rotate(glm::mat4(1.0f), glm::half_pi<float>(), glm::vec3(0, 0, 1)) *
                       glm::translate(glm::mat4(1.0f), glm::vec3(-1, 0, 0));
  const std::array<glm::mat4, 2> palette = {glm::mat4(1.0f), k1};
  std::array<MethodBone, 2> method;
  ASSERT_TRUE(build_method_palette(palette, method));
  const std::array<glm::vec3, 1> pos = {glm::vec3(1.5f, 0, 0)};
  const std::array<glm::vec3, 1> nrm = {glm::vec3(0, 1, 0)};
  const std::array<glm::u16vec4, 1> joints = {glm::u16vec4(0, 1, 0, 0)};
  const std::array<glm::vec4, 1> weights = {glm::vec4(0.5f, 0.5f, 0, 0)};
  const std::array<glm::vec3, 1> centers = {glm::vec3(1, 0, 0)};
  SkinInput in{pos, nrm, joints, weights, -1};
  in.centers = centers;
  const SkinPalettes pal{palette, {}, method};
  const float h = std::sqrt(0.5f);
  for (SkinMethod m : {SkinMethod::Dqs, SkinMethod::Cor}) {
    for (SkinIsa isa : {SkinIsa::Scalar, SkinIsa::Avx2Fma, SkinIsa::Avx512}) {
      std::array<glm::vec3, 1> out_p, out_n;
      ASSERT_TRUE(skin_isa(isa, m, pal, in, out_p, out_n));
      EXPECT_NEAR_GLM(out_p[0], glm::vec3(1.0f + 0.5f * h, 0.5f * h, 0), 1e-6f)
          << skin_method_name(m) << " " << skin_isa_name(isa);
      // The normal (0,1,0) turned by 45 degrees.
      EXPECT_NEAR_GLM(out_n[0], glm::vec3(-h, h, 0), 1e-6f);
    }
  }
}

// A vertex at radius 1 around the X axis, half on a bone that does not move and half on one
// twisted 180 degrees about X: LBS averages (0,1,0) and (0,-1,0) into the axis itself (the
// candy wrapper); DQS and CoR (centre on the axis) turn it by 90 degrees and keep the radius.
TEST(SkinMethods, HalfTurnTwistKeepsTheRadius) {
  const std::array<glm::mat4, 2> palette = {
      glm::mat4(1.0f), glm::rotate(glm::mat4(1.0f), glm::pi<float>(), glm::vec3(1, 0, 0))};
  std::array<MethodBone, 2> method;
  ASSERT_TRUE(build_method_palette(palette, method));
  std::array<glm::mat3, 2> normals;
  ASSERT_TRUE(build_normal_palette(palette, normals));
  const std::array<glm::vec3, 1> pos = {glm::vec3(0.3f, 1, 0)};
  const std::array<glm::vec3, 1> nrm = {glm::vec3(0, 1, 0)};
  const std::array<glm::u16vec4, 1> joints = {glm::u16vec4(0, 1, 0, 0)};
  const std::array<glm::vec4, 1> weights = {glm::vec4(0.5f, 0.5f, 0, 0)};
  const std::array<glm::vec3, 1> centers = {glm::vec3(0.3f, 0, 0)};
  SkinInput in{pos, nrm, joints, weights, -1};
  in.centers = centers;
  const SkinPalettes pal{palette, normals, method};
  std::array<glm::vec3, 1> out_p, out_n;
  ASSERT_TRUE(skin(SkinMethod::Lbs, pal, in, out_p, out_n));
  EXPECT_NEAR_GLM(out_p[0], glm::vec3(0.3f, 0, 0), 1e-6f);
  for (SkinMethod m : {SkinMethod::Dqs, SkinMethod::Cor}) {
    ASSERT_TRUE(skin(m, pal, in, out_p, out_n));
    EXPECT_NEAR(std::hypot(out_p[0].y, out_p[0].z), 1.0f, 1e-6f) << skin_method_name(m);
    EXPECT_NEAR(out_p[0].x, 0.3f, 1e-6f);
    EXPECT_NEAR(std::abs(out_p[0].z), 1.0f, 1e-6f);  // a quarter turn
  }
}

struct Rig {
  std::vector<glm::mat4> palette;
  std::vector<glm::mat3> normal_palette;
  std::vector<MethodBone> method;
  std::vector<test::ReferenceBone> reference;
  std::vector<glm::vec3> positions, normals, centers;
  std::vector<glm::u16vec4> joints;
  std::vector<glm::vec4> weights;

  SkinInput input(bool with_normals = true) const {
    SkinInput in{positions,
                 with_normals ? std::span<const glm::vec3>(normals) : std::span<const glm::vec3>(),
                 joints, weights, -1};
    in.centers = centers;
    return in;
  }
  SkinPalettes palettes() const { return {palette, normal_palette, method}; }
};

// Bones with rotations spread over both hemispheres (so flips happen), optionally non-uniform
// scale; vertices in runs of `run` sharing 4 bones (grouped as the importer lays them out), with
// weights summing to 1 and a random pivot slot.
Rig random_rig(std::size_t vertices, int bones, bool scale, std::size_t run, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  std::uniform_real_distribution<float> s(0.6f, 1.7f);
  Rig r;
  for (int b = 0; b < bones; ++b) {
    const glm::quat q = glm::normalize(glm::quat(u(rng), u(rng), u(rng), u(rng)));
    const glm::vec3 sc = scale ? glm::vec3(s(rng), s(rng), s(rng)) : glm::vec3(1.0f);
    r.palette.push_back(trs(3.0f * glm::vec3(u(rng), u(rng), u(rng)), q, sc));
  }
  r.normal_palette.resize(r.palette.size());
  EXPECT_TRUE(build_normal_palette(r.palette, r.normal_palette));
  r.method.resize(r.palette.size());
  EXPECT_TRUE(build_method_palette(r.palette, r.method));
  for (const glm::mat4& k : r.palette) r.reference.push_back(test::reference_bone(k));
  glm::u16vec4 j(0);
  for (std::size_t v = 0; v < vertices; ++v) {
    if (v % run == 0)
      for (int i = 0; i < 4; ++i)
        j[i] = static_cast<uint16_t>(rng() % static_cast<uint32_t>(bones));
    r.joints.push_back(j);
    glm::vec4 w(u(rng) + 1.05f, u(rng) + 1.05f, u(rng) + 1.05f, u(rng) + 1.05f);
    if (v % 7 == 0) w.w = 0.0f;
    if (v % 11 == 0) w.y = w.x;  // equal weights: the pivot is the first of them
    r.weights.push_back(w / (w.x + w.y + w.z + w.w));
    r.positions.push_back(2.0f * glm::vec3(u(rng), u(rng), u(rng)));
    r.normals.push_back(glm::normalize(glm::vec3(u(rng), u(rng), u(rng) + 2.0f)));
    r.centers.push_back(r.positions.back() + 0.5f * glm::vec3(u(rng), u(rng), u(rng)));
  }
  return r;
}

// Every vertex of `out` against the reference, within `tol` of the vertex's size.
void expect_reference(const Rig& r, SkinMethod m, std::span<const glm::vec3> out_p,
                      std::span<const glm::vec3> out_n, float tol, const char* what) {
  int failures = 0;
  for (std::size_t v = 0; v < r.positions.size() && failures < 5; ++v) {
    const test::ReferenceVertex ref =
        m == SkinMethod::Dqs ? test::reference_dqs(r.reference, r.joints[v], r.weights[v],
                                                   r.positions[v], r.normals[v])
                             : test::reference_cor(r.reference, r.joints[v], r.weights[v],
                                                   r.positions[v], r.normals[v], r.centers[v]);
    const double scale = std::max(1.0, glm::length(ref.position));
    const double dp = glm::length(glm::dvec3(out_p[v]) - ref.position) / scale;
    const double dn = out_n.empty() ? 0.0 : glm::length(glm::dvec3(out_n[v]) - ref.normal);
    if (dp > tol || dn > tol) {
      ++failures;
      ADD_FAILURE() << what << " " << skin_method_name(m) << " vertex " << v << ": position off by "
                    << dp << ", normal by " << dn << " (" << test::to_string(out_p[v]) << " vs "
                    << test::to_string(glm::vec3(ref.position)) << ")";
    }
  }
}

TEST(SkinMethods, EveryKernelMatchesThePapersFormulas) {
  // Run lengths: long (the lane kernels), 3 (the per-vertex loop), 13 (one whole block and a
  // partial one with AVX2, a partial one with AVX-512). 1003 vertices: not a multiple of any width.
  for (bool scale : {false, true}) {
    for (std::size_t run : {std::size_t{200}, std::size_t{3}, std::size_t{13}}) {
      const Rig r = random_rig(1003, 9, scale, run, 7u + static_cast<uint32_t>(run));
      for (SkinMethod m : {SkinMethod::Dqs, SkinMethod::Cor}) {
        for (SkinIsa isa : {SkinIsa::Scalar, SkinIsa::Sse2, SkinIsa::Avx2Fma, SkinIsa::Avx512}) {
          std::vector<glm::vec3> p(r.positions.size()), n(r.positions.size());
          ASSERT_TRUE(skin_isa(isa, m, r.palettes(), r.input(), p, n));
          expect_reference(r, m, p, n, 2e-6f, skin_isa_name(isa));
          // Positions only: the same positions.
          std::vector<glm::vec3> p2(r.positions.size());
          ASSERT_TRUE(skin_isa(isa, m, r.palettes(), r.input(false), p2, {}));
          EXPECT_EQ(p, p2);
        }
      }
    }
  }
}

TEST(SkinMethods, ThreadedSplitIsBitIdentical) {
  WorkerPool pool(3);
  const Rig r = random_rig(70'001, 30, true, 777, 99);
  for (SkinMethod m : kSkinMethods) {
    std::vector<glm::vec3> p1(r.positions.size()), n1(p1.size()), p2(p1.size()), n2(p1.size());
    ASSERT_TRUE(skin(m, r.palettes(), r.input(), p1, n1));
    ASSERT_TRUE(skin_parallel(pool, m, r.palettes(), r.input(), p2, n2));
    EXPECT_EQ(p1, p2) << skin_method_name(m);
    EXPECT_EQ(n1, n2) << skin_method_name(m);
  }
}

// A rigid mesh (every vertex on one bone, weight 1), as the importer makes for unskinned meshes:
// every method gives K p.
TEST(SkinMethods, RigidMeshesAreTheSameUnderEveryMethod) {
  Rig r = random_rig(300, 5, true, 40, 5);
  for (glm::vec4& w : r.weights) w = glm::vec4(1, 0, 0, 0);
  std::vector<glm::vec3> lbs_p(300), lbs_n(300);
  ASSERT_TRUE(skin(SkinMethod::Lbs, r.palettes(), r.input(), lbs_p, lbs_n));
  for (SkinMethod m : {SkinMethod::Dqs, SkinMethod::Cor}) {
    std::vector<glm::vec3> p(300), n(300);
    ASSERT_TRUE(skin(m, r.palettes(), r.input(), p, n));
    for (std::size_t v = 0; v < p.size(); ++v) {
      EXPECT_NEAR_GLM(p[v], lbs_p[v], 2e-5f * std::max(1.0f, glm::length(lbs_p[v])));
      EXPECT_NEAR_GLM(n[v], lbs_n[v], 2e-5f);
    }
  }
}

TEST(SkinMethods, RefusesWhatDoesNotFitAndWritesNothing) {
  const Rig r = random_rig(40, 4, false, 10, 3);
  const glm::vec3 untouched(42.0f);
  std::vector<glm::vec3> p(40, untouched), n(40, untouched);
  // Method palette of the wrong size.
  SkinPalettes pal = r.palettes();
  pal.method = std::span<const MethodBone>(r.method).first(3);
  EXPECT_FALSE(skin(SkinMethod::Dqs, pal, r.input(), p, n));
  EXPECT_FALSE(skin(SkinMethod::Cor, pal, r.input(), p, n));
  // CoR without its centres.
  SkinInput in = r.input();
  in.centers = {};
  EXPECT_FALSE(skin(SkinMethod::Cor, r.palettes(), in, p, n));
  // A joint past the method palette (DQS given no palette: the method palette is the size).
  SkinInput bad = r.input();
  std::vector<glm::u16vec4> joints = r.joints;
  joints[17].z = 4;
  bad.joints = joints;
  SkinPalettes only_dq;
  only_dq.method = r.method;
  EXPECT_FALSE(skin(SkinMethod::Dqs, only_dq, bad, p, n));
  for (std::size_t v = 0; v < 40; ++v) {
    EXPECT_EQ(p[v], untouched);
    EXPECT_EQ(n[v], untouched);
  }
  // DQS needs no palette at all.
  EXPECT_TRUE(skin(SkinMethod::Dqs, only_dq, r.input(), p, n));
}

TEST(SkinMethods, NamesRoundTrip) {
  for (SkinMethod m : kSkinMethods) EXPECT_EQ(parse_skin_method(skin_method_name(m)), m);
  EXPECT_FALSE(parse_skin_method("DQS").has_value());
  EXPECT_FALSE(parse_skin_method("").has_value());
}

}  // namespace
}  // namespace sv
