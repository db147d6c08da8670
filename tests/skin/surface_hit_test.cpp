// Surface hits: a ray meeting one skinned triangle, worked out by hand — the barycentric
// coordinates, the hit point after skinning, the joint with the largest interpolated weight, the
// nearest vertex — and the inputs it refuses.
#include "skin/surface_hit.h"

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <vector>

#include <glm/gtc/matrix_transform.hpp>

#include "anim/model.h"
#include "test_util.h"

namespace sv {
namespace {

TEST(RayPlaneBarycentric, InsideOutsideParallelAndDegenerate) {
  const glm::vec3 a(0, 0, 0), b(1, 0, 0), c(0, 1, 0);
  glm::vec3 bary;
  float t = 0.0f;
  // (0.25, 0.5) = 0.25 a + 0.25 b + 0.5 c, one unit below the origin of the ray.
  ASSERT_TRUE(ray_plane_barycentric({{0.25f, 0.5f, 1.0f}, {0, 0, -1}}, a, b, c, &bary, &t));
  EXPECT_NEAR_GLM(bary, glm::vec3(0.25f, 0.25f, 0.5f), 1e-6f);
  EXPECT_NEAR(t, 1.0f, 1e-6f);
  // A direction twice as long halves t; the point is the same.
  ASSERT_TRUE(ray_plane_barycentric({{0.25f, 0.5f, 1.0f}, {0, 0, -2}}, a, b, c, &bary, &t));
  EXPECT_NEAR(t, 0.5f, 1e-6f);
  // (1, 1) lies outside: 1 - 1 - 1 = -1 for a.
  ASSERT_TRUE(ray_plane_barycentric({{1.0f, 1.0f, 3.0f}, {0, 0, -1}}, a, b, c, &bary, &t));
  EXPECT_NEAR_GLM(bary, glm::vec3(-1.0f, 1.0f, 1.0f), 1e-6f);
  EXPECT_NEAR(t, 3.0f, 1e-6f);
  // From behind (the plane is crossed at t < 0): no culling, t says so.
  ASSERT_TRUE(ray_plane_barycentric({{0.25f, 0.5f, -1.0f}, {0, 0, -1}}, a, b, c, &bary, &t));
  EXPECT_NEAR(t, -1.0f, 1e-6f);
  // Parallel to the plane, and a triangle with no area.
  EXPECT_FALSE(ray_plane_barycentric({{0, 0, 1}, {1, 0, 0}}, a, b, c, &bary, &t));
  EXPECT_FALSE(ray_plane_barycentric({{0, 0, 1}, {0, 0, -1}}, a, b, 2.0f * b, &bary, &t));
}

TEST(ClampBarycentric, DropsNegativesAndRescales) {
  EXPECT_NEAR_GLM(clamp_barycentric({-0.5f, 1.0f, 0.5f}), glm::vec3(0.0f, 2.0f / 3, 1.0f / 3),
                  1e-6f);
  EXPECT_NEAR_GLM(clamp_barycentric({0.2f, 0.3f, 0.5f}), glm::vec3(0.2f, 0.3f, 0.5f), 1e-6f);
  EXPECT_NEAR_GLM(clamp_barycentric({-1.0f, -1.0f, -1.0f}), glm::vec3(1, 0, 0), 0.0f);
}

// One triangle, v0 (0,0,0) on skin bone 0 only, v1 (2,0,0) half bone 0 half bone 1, v2 (0,2,0)
// on bone 1 only. Skin bones 0 and 1 are skeleton joints 5 and 7. A fourth vertex off the
// triangle and a second, degenerate triangle (v0, v1, v3 collinear).
Mesh one_triangle() {
  Mesh m;
  m.name = "tri";
  m.skinned = true;
  m.node = 0;
  m.positions = {{0, 0, 0}, {2, 0, 0}, {0, 2, 0}, {4, 0, 0}};
  m.normals.assign(4, glm::vec3(0, 0, 1));
  m.joints = {{0, 0, 0, 0}, {0, 1, 0, 0}, {1, 0, 0, 0}, {0, 0, 0, 0}};
  m.weights = {{1, 0, 0, 0}, {0.5f, 0.5f, 0, 0}, {1, 0, 0, 0}, {1, 0, 0, 0}};
  m.vertex_flags.assign(4, 0);
  m.indices = {0, 1, 2, 0, 1, 3};
  m.skin_joints = {5, 7};
  m.inverse_bind.assign(2, glm::mat4(1.0f));
  m.max_joint = 1;
  return m;
}

// K0 lifts by 1 along z, K1 by 3: v0 -> (0,0,1), v1 -> (2,0,2), v2 -> (0,2,3).
std::array<glm::mat4, 2> lifting_palette() {
  return {glm::translate(glm::mat4(1.0f), glm::vec3(0, 0, 1)),
          glm::translate(glm::mat4(1.0f), glm::vec3(0, 0, 3))};
}

TEST(SurfaceHit, SkinsTheTriangleAndInterpolatesTheWeights) {
  const Mesh mesh = one_triangle();
  const auto palette = lifting_palette();
  // Straight down through (0.5, 0.5): in x and y the triangle is unmoved, so
  // (0.5, 0.5) = 0.5 v0 + 0.25 v1 + 0.25 v2, and z = 0.5*1 + 0.25*2 + 0.25*3 = 1.75.
  SurfaceHit hit;
  hit.mesh = 3;
  ASSERT_TRUE(resolve_surface_hit(mesh, palette, 0, {{0.5f, 0.5f, 5.0f}, {0, 0, -1}}, &hit));
  EXPECT_EQ(hit.mesh, 3u);  // kept from the caller
  EXPECT_EQ(hit.triangle, 0u);
  EXPECT_NEAR_GLM(hit.positions[0], glm::vec3(0, 0, 1), 1e-6f);
  EXPECT_NEAR_GLM(hit.positions[1], glm::vec3(2, 0, 2), 1e-6f);
  EXPECT_NEAR_GLM(hit.positions[2], glm::vec3(0, 2, 3), 1e-6f);
  EXPECT_NEAR_GLM(hit.barycentric, glm::vec3(0.5f, 0.25f, 0.25f), 1e-6f);
  EXPECT_NEAR_GLM(hit.point, glm::vec3(0.5f, 0.5f, 1.75f), 1e-6f);
  EXPECT_NEAR(hit.t, 3.25f, 1e-5f);
  // Joint 5: 0.5*1 + 0.25*0.5 = 0.625; joint 7: 0.25*0.5 + 0.25*1 = 0.375.
  EXPECT_EQ(hit.joint, 5);
  EXPECT_NEAR(hit.joint_weight, 0.625f, 1e-6f);
  // Distances from the hit point: v0 |(0.5,0.5,0.75)| = 1.03, v1 |(1.5,-0.5,0.25)| = 1.60,
  // v2 |(-0.5,1.5,1.25)| = 2.02.
  EXPECT_EQ(hit.nearest_vertex, 0u);

  // Through (0.2, 1.2): b = (0.3, 0.1, 0.6); joint 5: 0.3 + 0.05 = 0.35, joint 7: 0.05 + 0.6 =
  // 0.65; z = 0.3 + 0.2 + 1.8 = 2.3; v2 is nearest (|(-0.2,0.8,0.7)| = 1.08 against v0's 1.41).
  ASSERT_TRUE(resolve_surface_hit(mesh, palette, 0, {{0.2f, 1.2f, 5.0f}, {0, 0, -1}}, &hit));
  EXPECT_NEAR_GLM(hit.barycentric, glm::vec3(0.3f, 0.1f, 0.6f), 1e-6f);
  EXPECT_NEAR_GLM(hit.point, glm::vec3(0.2f, 1.2f, 2.3f), 1e-5f);
  EXPECT_EQ(hit.joint, 7);
  EXPECT_NEAR(hit.joint_weight, 0.65f, 1e-6f);
  EXPECT_EQ(hit.nearest_vertex, 2u);
}

// With DQS the triangle is resolved where DQS drew it. Joint 7 turns by a = 0.9 pi about +x (not
// exactly half a turn, where DQS's direction is a tie that rounding decides); v2 (0,2,0) weighs
// 0.5 on each joint. LBS averages (0,2,0) and its turned copy to (0, 1 + cos a, sin a), near the
// axis (the candy wrapper); DQS blends the identity and the turn (dot product cos(a/2) > 0: no
// flip) into a turn by a/2, so v2 -> (0, 2 cos(a/2), 2 sin(a/2)). v1 (2,0,0) lies on the axis,
// v0 on joint 5 alone. A ray down -y through x = z = 0.5 meets the DQS triangle where
// x = 2 b1 and z = 2 sin(a/2) b2, at height y = 2 cos(a/2) b2.
TEST(SurfaceHit, OtherMethodsResolveTheTriangleTheyDrew) {
  Mesh mesh = one_triangle();
  mesh.joints[2] = {0, 1, 0, 0};
  mesh.weights[2] = {0.5f, 0.5f, 0, 0};
  const float a = 0.9f * 3.14159265f;
  const std::array<glm::mat4, 2> palette = {glm::mat4(1.0f),
                                            glm::rotate(glm::mat4(1.0f), a, glm::vec3(1, 0, 0))};
  std::array<MethodBone, 2> method;
  ASSERT_TRUE(build_method_palette(palette, method));
  SkinPalettes palettes;
  palettes.palette = palette;
  palettes.method = method;
  const Ray ray{{0.5f, 5.0f, 0.5f}, {0, -1, 0}};
  const glm::vec3 v2(0.0f, 2.0f * std::cos(a / 2), 2.0f * std::sin(a / 2));
  const float b1 = 0.25f, b2 = 0.5f / v2.z;
  SurfaceHit hit;
  ASSERT_TRUE(resolve_surface_hit(mesh, SkinMethod::Dqs, palettes, {}, 0, ray, &hit));
  EXPECT_NEAR_GLM(hit.positions[0], glm::vec3(0, 0, 0), 1e-6f);
  EXPECT_NEAR_GLM(hit.positions[1], glm::vec3(2, 0, 0), 1e-6f);
  EXPECT_NEAR_GLM(hit.positions[2], v2, 1e-5f);
  EXPECT_NEAR_GLM(hit.barycentric, glm::vec3(1.0f - b1 - b2, b1, b2), 1e-5f);
  EXPECT_NEAR_GLM(hit.point, glm::vec3(0.5f, v2.y * b2, 0.5f), 1e-5f);
  EXPECT_NEAR(hit.t, 5.0f - v2.y * b2, 1e-5f);
  // LBS (the call without a method) resolves its own collapsed triangle.
  ASSERT_TRUE(resolve_surface_hit(mesh, palette, 0, ray, &hit));
  EXPECT_NEAR_GLM(hit.positions[2], glm::vec3(0, 1 + std::cos(a), std::sin(a)), 1e-5f);
  // CoR needs the centres: refused without them; with every centre at the origin (on the
  // rotation's axis, where LBS leaves it) v2 turns by a/2 about it, as under DQS.
  EXPECT_FALSE(resolve_surface_hit(mesh, SkinMethod::Cor, palettes, {}, 0, ray, &hit));
  const std::vector<glm::vec3> centers(mesh.vertex_count(), glm::vec3(0.0f));
  ASSERT_TRUE(resolve_surface_hit(mesh, SkinMethod::Cor, palettes, centers, 0, ray, &hit));
  EXPECT_NEAR_GLM(hit.positions[2], v2, 1e-5f);
}

TEST(SurfaceHit, AHitJustOutsideIsClampedOntoTheTriangle) {
  const Mesh mesh = one_triangle();
  const auto palette = lifting_palette();
  // x = -0.02 gives b = (0.76, -0.01, 0.25): b1 clamped to 0, then (0.76, 0, 0.25) / 1.01.
  SurfaceHit hit;
  ASSERT_TRUE(resolve_surface_hit(mesh, palette, 0, {{-0.02f, 0.5f, 5.0f}, {0, 0, -1}}, &hit));
  EXPECT_NEAR_GLM(hit.barycentric, glm::vec3(0.76f / 1.01f, 0.0f, 0.25f / 1.01f), 1e-6f);
  EXPECT_EQ(hit.joint, 5);  // 0.752 against 0.248
  EXPECT_NEAR(hit.joint_weight, 0.76f / 1.01f, 1e-6f);
}

TEST(SurfaceHit, DegenerateTriangleResolvesToTheVertexNearestTheRay) {
  const Mesh mesh = one_triangle();
  const std::array<glm::mat4, 2> identity = {glm::mat4(1.0f), glm::mat4(1.0f)};
  // Triangle 1 is v0 (0,0,0), v1 (2,0,0), v3 (4,0,0): a line. The ray passes at x = 1.8.
  SurfaceHit hit;
  ASSERT_TRUE(resolve_surface_hit(mesh, identity, 1, {{1.8f, 0.3f, 5.0f}, {0, 0, -1}}, &hit));
  EXPECT_NEAR_GLM(hit.barycentric, glm::vec3(0, 1, 0), 0.0f);
  EXPECT_EQ(hit.nearest_vertex, 1u);
  EXPECT_NEAR_GLM(hit.point, glm::vec3(2, 0, 0), 1e-6f);
  EXPECT_EQ(hit.joint, 5);  // v1 is half 5, half 7: the tie goes to the lower joint
  EXPECT_NEAR(hit.joint_weight, 0.5f, 1e-6f);
}

TEST(SurfaceHit, RefusesATriangleOutOfRangeAndAShortPalette) {
  const Mesh mesh = one_triangle();
  const auto palette = lifting_palette();
  SurfaceHit hit;
  hit.joint = 42;
  const Ray down{{0.5f, 0.5f, 5.0f}, {0, 0, -1}};
  EXPECT_FALSE(resolve_surface_hit(mesh, palette, 2, down, &hit));
  EXPECT_FALSE(resolve_surface_hit(mesh, std::span(palette).first(1), 0, down, &hit));
  EXPECT_FALSE(resolve_surface_hit(mesh, {}, 0, down, &hit));
  EXPECT_EQ(hit.joint, 42);  // nothing written
}

TEST(SurfaceHit, RigidMeshPicksItsNode) {
  Mesh mesh = one_triangle();
  mesh.skinned = false;
  mesh.skin_joints = {2};
  mesh.inverse_bind = {glm::mat4(1.0f)};
  mesh.joints.assign(4, glm::u16vec4(0));
  mesh.weights.assign(4, glm::vec4(1, 0, 0, 0));
  mesh.max_joint = 0;
  const std::array<glm::mat4, 1> palette = {glm::mat4(1.0f)};
  SurfaceHit hit;
  ASSERT_TRUE(resolve_surface_hit(mesh, palette, 0, {{0.5f, 0.5f, 5.0f}, {0, 0, -1}}, &hit));
  EXPECT_EQ(hit.joint, 2);
  EXPECT_NEAR(hit.joint_weight, 1.0f, 1e-6f);
}

TEST(VertexInfluences, LargestFirstAsSkeletonJoints) {
  Mesh mesh = one_triangle();
  mesh.weights[1] = glm::vec4(0.3f, 0.7f, 0, 0);
  const VertexInfluences v = vertex_influences(mesh, 1);
  ASSERT_EQ(v.count, 2);
  EXPECT_EQ(v.joints[0], 7);
  EXPECT_FLOAT_EQ(v.weights[0], 0.7f);
  EXPECT_EQ(v.joints[1], 5);
  EXPECT_FLOAT_EQ(v.weights[1], 0.3f);
  EXPECT_EQ(v.joints[2], -1);
  EXPECT_EQ(vertex_influences(mesh, 0).count, 1);
  EXPECT_EQ(vertex_influences(mesh, 99).count, 0);  // out of range: nothing
}

TEST(VertexInfluences, WithEightTheSecondSetAndTheScaledFirstSet) {
  // Vertex 1 keeps 0.6 / 0.4 in its first set and a second set of one bone holding 0.25 of its
  // top-8 sum: with 8 the first set is scaled by 0.75 (0.45, 0.3) and the 5th weighs 0.25.
  Mesh mesh = one_triangle();
  mesh.skin_joints = {5, 7, 9};
  mesh.inverse_bind.assign(3, glm::mat4(1.0f));
  mesh.weights[1] = glm::vec4(0.6f, 0.4f, 0, 0);
  mesh.joints2.assign(4, glm::u16vec4(0));
  mesh.weights2.assign(4, glm::vec4(0));
  mesh.joints2[1] = glm::u16vec4(2, 0, 0, 0);
  mesh.weights2[1] = glm::vec4(0.25f, 0, 0, 0);
  const VertexInfluences v = vertex_influences(mesh, 1, 8);
  ASSERT_EQ(v.count, 3);
  EXPECT_EQ(v.joints[0], 5);
  EXPECT_FLOAT_EQ(v.weights[0], 0.45f);
  EXPECT_EQ(v.joints[1], 7);
  EXPECT_FLOAT_EQ(v.weights[1], 0.3f);
  EXPECT_EQ(v.joints[2], 9);
  EXPECT_FLOAT_EQ(v.weights[2], 0.25f);
  // With 4, the stored top 4 as before.
  const VertexInfluences four = vertex_influences(mesh, 1, 4);
  ASSERT_EQ(four.count, 2);
  EXPECT_FLOAT_EQ(four.weights[0], 0.6f);
}

}  // namespace
}  // namespace sv
