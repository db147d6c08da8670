// Screen-space picking maths with numbers worked out by hand: a 200x100 viewport looked at by a
// 90-degree (vertical) perspective of aspect 2 from (0,0,5) towards the origin, near 1, far 10.
// At the origin's distance (5) the view is 10 units tall and 20 wide: 10 pixels per unit.
#include "gfx/screen_pick.h"

#include <gtest/gtest.h>

#include <array>
#include <cmath>

#include <glm/gtc/matrix_transform.hpp>

#include "test_util.h"

namespace sv {
namespace {

const PixelRect kRect{0, 0, 200, 100};

glm::mat4 view_proj() {
  return glm::perspective(glm::radians(90.0f), 2.0f, 1.0f, 10.0f) *
         glm::lookAt(glm::vec3(0, 0, 5), glm::vec3(0), glm::vec3(0, 1, 0));
}

TEST(ScreenPick, CursorToNdc) {
  EXPECT_NEAR_GLM(cursor_ndc(kRect, {100, 50}), glm::vec2(0, 0), 0.0f);
  EXPECT_NEAR_GLM(cursor_ndc(kRect, {0, 0}), glm::vec2(-1, 1), 0.0f);
  EXPECT_NEAR_GLM(cursor_ndc(kRect, {200, 100}), glm::vec2(1, -1), 0.0f);
  // A rectangle that does not start at the framebuffer's corner (panels to its left and top).
  EXPECT_NEAR_GLM(cursor_ndc({10, 20, 200, 100}, {110, 70}), glm::vec2(0, 0), 0.0f);
  EXPECT_TRUE(kRect.contains(0, 0));
  EXPECT_FALSE(kRect.contains(200, 50));  // one past the last pixel
  EXPECT_FLOAT_EQ(kRect.aspect(), 2.0f);
}

TEST(ScreenPick, CursorRayRunsFromTheNearToTheFarPlane) {
  Ray r = cursor_ray(view_proj(), kRect, {100, 50});
  EXPECT_NEAR_GLM(r.origin, glm::vec3(0, 0, 4), 1e-5f);
  EXPECT_NEAR_GLM(r.direction, glm::vec3(0, 0, -9), 1e-4f);
  // The right edge: x = tan(45 deg) * aspect * distance = 2 at the near plane, 20 at the far.
  r = cursor_ray(view_proj(), kRect, {200, 50});
  EXPECT_NEAR_GLM(r.origin, glm::vec3(2, 0, 4), 1e-5f);
  EXPECT_NEAR_GLM(r.direction, glm::vec3(18, 0, -9), 1e-4f);
}

TEST(ScreenPick, PickMatrixCentresTheCursorsPixel) {
  // With an identity projection clip space is NDC: the cursor's point must land at 0, and half
  // a pixel (1/200 of the width in NDC) to its right at the 1x1 target's edge, x' = 1.
  const glm::vec2 cursor(30, 80);
  const glm::vec2 n = cursor_ndc(kRect, cursor);
  const glm::mat4 m = pick_matrix(kRect, cursor);
  glm::vec4 p = m * glm::vec4(n, 0.3f, 1.0f);
  EXPECT_NEAR(p.x, 0.0f, 1e-5f);
  EXPECT_NEAR(p.y, 0.0f, 1e-5f);
  EXPECT_FLOAT_EQ(p.z, 0.3f);  // depth untouched
  p = m * glm::vec4(n.x + 1.0f / 200.0f, n.y - 1.0f / 100.0f, 0.0f, 1.0f);
  EXPECT_NEAR(p.x, 1.0f, 1e-4f);
  EXPECT_NEAR(p.y, -1.0f, 1e-4f);
  // In clip space before the divide (w = 2) it scales with w: still the same pixel.
  p = m * glm::vec4(2.0f * n, 0.0f, 2.0f);
  EXPECT_NEAR(p.x / p.w, 0.0f, 1e-5f);
}

TEST(ScreenPick, ProjectToScreen) {
  glm::vec2 px;
  float depth = 0.0f;
  ASSERT_TRUE(project_to_screen(view_proj(), kRect, glm::vec3(0, 0, 0), &px, &depth));
  EXPECT_NEAR_GLM(px, glm::vec2(100, 50), 1e-4f);
  EXPECT_NEAR(depth, 5.0f, 1e-5f);
  ASSERT_TRUE(project_to_screen(view_proj(), kRect, glm::vec3(1, 1, 0), &px, &depth));
  EXPECT_NEAR_GLM(px, glm::vec2(110, 40), 1e-4f);  // y up in the world is up on screen
  EXPECT_FALSE(project_to_screen(view_proj(), kRect, glm::vec3(0, 0, 6), &px, &depth));
}

TEST(ScreenPick, NearestJointWithinTheRadiusNearerEyeOnATie) {
  // j0 at the origin -> (100, 50); j1 (0.3, 0, 0) -> (103, 50); j2 behind j0, twice as far ->
  // (100, 50); j3 (2, 0, 0) -> (120, 50); j4 behind the eye; j5 (10.05, 0, 0) -> (200.5, 50),
  // just outside the rectangle.
  const std::array<glm::vec3, 6> at = {glm::vec3(0, 0, 0),  glm::vec3(0.3f, 0, 0),
                                       glm::vec3(0, 0, -5), glm::vec3(2, 0, 0),
                                       glm::vec3(0, 0, 6),  glm::vec3(10.05f, 0, 0)};
  std::array<glm::mat4, 6> joints;
  for (std::size_t j = 0; j < at.size(); ++j) joints[j] = glm::translate(glm::mat4(1.0f), at[j]);
  const glm::mat4 world(1.0f);
  JointOnScreen hit = nearest_joint_on_screen(view_proj(), world, joints, kRect, {103, 50}, 6);
  EXPECT_EQ(hit.joint, 1);
  EXPECT_NEAR(hit.distance_px, 0.0f, 1e-3f);
  hit = nearest_joint_on_screen(view_proj(), world, joints, kRect, {100, 50}, 6);
  EXPECT_EQ(hit.joint, 0);  // j2 is as close on screen, but farther from the eye
  hit = nearest_joint_on_screen(view_proj(), world, joints, kRect, {112, 50}, 6);
  EXPECT_EQ(hit.joint, -1);  // j3 is 8 px away, j1 9
  hit = nearest_joint_on_screen(view_proj(), world, joints, kRect, {112, 50}, 10);
  EXPECT_EQ(hit.joint, 3);
  EXPECT_NEAR(hit.distance_px, 8.0f, 1e-3f);
  hit = nearest_joint_on_screen(view_proj(), world, joints, kRect, {199, 50}, 6);
  EXPECT_EQ(hit.joint, -1);  // j5 is 1.5 px away but off the viewport
  // The up-axis turn applies: -90 degrees about X stands a Z-up joint at model (0, 0, 1) at
  // world (0, 1, 0): pixel (100, 40).
  const glm::mat4 z_up = glm::rotate(glm::mat4(1.0f), -1.5707963f, glm::vec3(1, 0, 0));
  const std::array<glm::mat4, 1> up = {glm::translate(glm::mat4(1.0f), glm::vec3(0, 0, 1))};
  hit = nearest_joint_on_screen(view_proj(), z_up, up, kRect, {100, 40}, 1);
  EXPECT_EQ(hit.joint, 0);
}

}  // namespace
}  // namespace sv
