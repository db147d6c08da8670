// The orbit camera frames bounds tightly (every corner inside the view, none far from an edge)
// and the up-axis matrix stands Z-up files upright. Pure maths: no GL.
#include <algorithm>
#include <cmath>

#include <gtest/gtest.h>

#include "gfx/camera.h"

namespace sv {
namespace {

// Largest |x| or |y| in NDC over the 8 corners of `b`.
float ndc_extent(const OrbitCamera& cam, const Bounds& b, float aspect) {
  const glm::mat4 vp = cam.projection(aspect) * cam.view();
  float extent = 0.0f;
  for (int i = 0; i < 8; ++i) {
    const glm::vec3 c((i & 1) ? b.max.x : b.min.x, (i & 2) ? b.max.y : b.min.y,
                      (i & 4) ? b.max.z : b.min.z);
    const glm::vec4 p = vp * glm::vec4(c, 1.0f);
    EXPECT_GT(p.w, 0.0f);
    extent = std::max({extent, std::abs(p.x / p.w), std::abs(p.y / p.w)});
    EXPECT_LE(std::abs(p.z / p.w), 1.0f);  // between the clip planes
  }
  return extent;
}

TEST(OrbitCamera, FramesBoundsTightlyFromAnyDirection) {
  Bounds b;
  b.add(glm::vec3(-0.3f, 0.0f, -0.2f));
  b.add(glm::vec3(0.4f, 1.8f, 0.25f));
  for (float aspect : {0.5f, 1.0f, 16.0f / 9.0f}) {
    for (float yaw : {0.0f, 0.6f, 2.0f, -2.5f}) {
      for (float pitch : {-0.5f, 0.0f, 0.25f, 1.2f}) {
        OrbitCamera cam;
        cam.yaw = yaw;
        cam.pitch = pitch;
        cam.frame(b, aspect);
        const float e = ndc_extent(cam, b, aspect);
        EXPECT_LE(e, 1.0f) << aspect << " " << yaw << " " << pitch;
        EXPECT_GE(e, 0.85f) << aspect << " " << yaw << " " << pitch;
      }
    }
  }
}

TEST(OrbitCamera, FramesTinyAndHugeModels) {
  for (float scale : {1e-3f, 1.0f, 1e3f}) {
    Bounds b;
    b.add(glm::vec3(-scale));
    b.add(glm::vec3(scale, 3.0f * scale, scale));
    OrbitCamera cam;
    cam.frame(b, 1.5f);
    EXPECT_LE(ndc_extent(cam, b, 1.5f), 1.0f) << scale;
  }
}

TEST(OrbitCamera, ZoomAndOrbitStayFinite) {
  OrbitCamera cam;
  Bounds b;
  b.add(glm::vec3(0.0f));
  b.add(glm::vec3(1.0f));
  cam.frame(b, 1.0f);
  for (int i = 0; i < 200; ++i) cam.zoom(0.5f);
  for (int i = 0; i < 50; ++i) cam.orbit(0.3f, 0.3f);
  EXPECT_GT(cam.distance, 0.0f);
  // Straight down at most: the view keeps an up (OrbitCamera::up), so the matrix stays finite.
  EXPECT_LE(cam.pitch, OrbitCamera::kMaxPitch);
  const glm::mat4 v = cam.view();
  for (int c = 0; c < 4; ++c)
    for (int r = 0; r < 4; ++r) EXPECT_TRUE(std::isfinite(v[c][r]));
}

TEST(OrbitCamera, ZoomIsClampedToTheFramedSize) {
  OrbitCamera cam;
  Bounds b;
  b.add(glm::vec3(0.0f));
  b.add(glm::vec3(2.0f, 0.0f, 0.0f));  // radius 1
  cam.frame(b, 1.0f);
  const float framed = cam.distance;
  for (int i = 0; i < 100; ++i) cam.zoom(0.5f);
  EXPECT_FLOAT_EQ(cam.distance, OrbitCamera::kMinZoom * cam.radius);
  for (int i = 0; i < 100; ++i) cam.zoom(2.0f);
  EXPECT_FLOAT_EQ(cam.distance, OrbitCamera::kMaxZoom * cam.radius);
  cam.zoom(0.5f);
  EXPECT_FLOAT_EQ(cam.distance, 0.5f * OrbitCamera::kMaxZoom * cam.radius);
  EXPECT_GT(framed, OrbitCamera::kMinZoom);
}

// Where a world point lands in NDC.
glm::vec2 ndc_of(const OrbitCamera& cam, const glm::vec3& p, float aspect) {
  const glm::vec4 c = cam.projection(aspect) * cam.view() * glm::vec4(p, 1.0f);
  return glm::vec2(c.x / c.w, c.y / c.w);
}

TEST(OrbitCamera, OrthographicBoxIsThePerspectiveFrustumAtTheTarget) {
  // distance 4, fov_y 90 degrees: tan(45) = 1, so the half height is 4; aspect 2: half width 8.
  OrbitCamera cam;
  cam.target = glm::vec3(0.0f);
  cam.distance = 4.0f;
  cam.fov_y = 1.57079632679f;
  cam.radius = 0.5f;
  cam.yaw = 0.0f;
  cam.pitch = 0.0f;
  cam.ortho = true;
  const glm::mat4 p = cam.projection(2.0f);
  // glm::ortho(l, r, b, t, n, f): 2/(r-l) = 2/16, 2/(t-b) = 2/8, -2/(f-n) with n = 4 - 10,
  // f = 4 + 10: -2/20; translation z -(f+n)/(f-n) = -8/20; w stays 1 (no perspective divide).
  EXPECT_FLOAT_EQ(p[0][0], 0.125f);
  EXPECT_FLOAT_EQ(p[1][1], 0.25f);
  EXPECT_FLOAT_EQ(p[2][2], -0.1f);
  EXPECT_FLOAT_EQ(p[3][2], -0.4f);
  EXPECT_FLOAT_EQ(p[2][3], 0.0f);
  EXPECT_FLOAT_EQ(p[3][3], 1.0f);
  // Looking along -Z from +Z: a point 3 right and 2 up of the target, at any depth, lands at
  // (3/8, 2/4), and a perspective camera shows a point at the target's depth at the same place.
  EXPECT_NEAR(ndc_of(cam, {3.0f, 2.0f, 0.0f}, 2.0f).x, 0.375f, 1e-6f);
  EXPECT_NEAR(ndc_of(cam, {3.0f, 2.0f, -1.5f}, 2.0f).y, 0.5f, 1e-6f);
  cam.toggle_ortho();
  EXPECT_FALSE(cam.ortho);
  const glm::vec2 persp = ndc_of(cam, {3.0f, 2.0f, 0.0f}, 2.0f);
  EXPECT_NEAR(persp.x, 0.375f, 1e-6f);
  EXPECT_NEAR(persp.y, 0.5f, 1e-6f);
  // ... and a nearer point bigger, unlike the box.
  EXPECT_GT(ndc_of(cam, {3.0f, 2.0f, 1.0f}, 2.0f).x, 0.375f + 0.1f);
}

TEST(OrbitCamera, AxisViewsLookAsBlendersNumpadDoes) {
  struct Case {
    ViewAxis axis;
    glm::vec3 eye_dir;  // from the target to the eye
    glm::vec3 up;       // up the screen
  };
  const Case cases[] = {
      {ViewAxis::Front, {0, 0, 1}, {0, 1, 0}}, {ViewAxis::Back, {0, 0, -1}, {0, 1, 0}},
      {ViewAxis::Right, {1, 0, 0}, {0, 1, 0}}, {ViewAxis::Left, {-1, 0, 0}, {0, 1, 0}},
      {ViewAxis::Top, {0, 1, 0}, {0, 0, -1}},  {ViewAxis::Bottom, {0, -1, 0}, {0, 0, 1}},
  };
  for (const Case& c : cases) {
    OrbitCamera cam;
    cam.target = glm::vec3(1.0f, 2.0f, 3.0f);
    cam.distance = 5.0f;
    cam.set_view(c.axis);
    EXPECT_TRUE(cam.ortho) << view_axis_name(c.axis);
    const glm::vec3 d = (cam.eye() - cam.target) / 5.0f;
    for (int i = 0; i < 3; ++i) EXPECT_NEAR(d[i], c.eye_dir[i], 1e-6f) << view_axis_name(c.axis);
    const glm::mat4 v = cam.view();
    const glm::vec3 up(v[0][1], v[1][1], v[2][1]);
    for (int i = 0; i < 3; ++i) EXPECT_NEAR(up[i], c.up[i], 1e-6f) << view_axis_name(c.axis);
    for (int r = 0; r < 4; ++r)
      for (int k = 0; k < 4; ++k) EXPECT_TRUE(std::isfinite(v[r][k]));
  }
  // A Z-up file's front (Blender: looking along +Y from -Y) is turned upright onto world -Z,
  // the direction Front looks along: its -Y side faces the Front view's eye.
  const glm::vec4 minus_y = up_axis_matrix(true) * glm::vec4(0.0f, -1.0f, 0.0f, 0.0f);
  EXPECT_NEAR(minus_y.z, 1.0f, 1e-6f);
  // The right side of a Z-up file (+X) is the Right view's side, its top (+Z) the Top's.
  const glm::vec4 plus_z = up_axis_matrix(true) * glm::vec4(0.0f, 0.0f, 1.0f, 0.0f);
  EXPECT_NEAR(plus_z.y, 1.0f, 1e-6f);
}

TEST(OrbitCamera, AxisNamesOfTheCommandLine) {
  ViewAxis a = ViewAxis::Front;
  ASSERT_TRUE(parse_view_axis("right", &a));
  EXPECT_EQ(a, ViewAxis::Right);
  ASSERT_TRUE(parse_view_axis("bottom", &a));
  EXPECT_EQ(a, ViewAxis::Bottom);
  EXPECT_FALSE(parse_view_axis("Right", &a));
  EXPECT_FALSE(parse_view_axis("", &a));
  EXPECT_EQ(a, ViewAxis::Bottom);
}

TEST(OrbitCamera, OrbitingOutOfAnAxisViewGoesBackToPerspectiveUnlessAskedFor) {
  OrbitCamera cam;
  cam.set_view(ViewAxis::Right);
  EXPECT_TRUE(cam.ortho);
  cam.orbit(0.1f, 0.0f);
  EXPECT_FALSE(cam.ortho);
  cam.toggle_ortho();  // numpad 5: asked for, it stays
  cam.set_view(ViewAxis::Top);
  cam.orbit(0.1f, -0.2f);
  EXPECT_TRUE(cam.ortho);
  EXPECT_NEAR(cam.pitch, OrbitCamera::kMaxPitch - 0.2f, 1e-6f);
}

TEST(OrbitCamera, ZoomTowardTheCursorKeepsThePointUnderIt) {
  for (const bool ortho : {false, true}) {
    OrbitCamera cam;
    cam.target = glm::vec3(0.5f, 1.0f, -0.25f);
    cam.distance = 6.0f;
    cam.radius = 2.0f;
    cam.yaw = 0.7f;
    cam.pitch = 0.3f;
    cam.ortho = ortho;
    const float aspect = 1.6f;
    // The point at the target's depth under NDC (0.5, -0.25): target + d (n.x tan_x right +
    // n.y tan_y up), tan_y = tan(fov/2), tan_x = aspect tan_y.
    const glm::vec2 n(0.5f, -0.25f);
    const glm::mat4 v = cam.view();
    const glm::vec3 right(v[0][0], v[1][0], v[2][0]), up(v[0][1], v[1][1], v[2][1]);
    const float t = std::tan(0.5f * cam.fov_y);
    const glm::vec3 p = cam.target + 6.0f * (n.x * aspect * t * right + n.y * t * up);
    const glm::vec2 before = ndc_of(cam, p, aspect);
    EXPECT_NEAR(before.x, n.x, 1e-5f);
    EXPECT_NEAR(before.y, n.y, 1e-5f);
    EXPECT_FLOAT_EQ(cam.zoom_toward(0.5f, n, aspect), 0.5f);
    EXPECT_FLOAT_EQ(cam.distance, 3.0f);
    const glm::vec2 after = ndc_of(cam, p, aspect);
    EXPECT_NEAR(after.x, n.x, 1e-5f) << (ortho ? "ortho" : "perspective");
    EXPECT_NEAR(after.y, n.y, 1e-5f);
    // The target moved half way to the point (1 - 0.5 of the offset).
    const glm::vec3 half =
        glm::vec3(0.5f, 1.0f, -0.25f) + 0.5f * (p - glm::vec3(0.5f, 1.0f, -0.25f));
    for (int i = 0; i < 3; ++i) EXPECT_NEAR(cam.target[i], half[i], 1e-5f);
    // At the clamp the factor shortens, and the point still stays.
    for (int i = 0; i < 40; ++i) cam.zoom_toward(0.5f, n, aspect);
    EXPECT_FLOAT_EQ(cam.distance, OrbitCamera::kMinZoom * cam.radius);
    const glm::vec2 clamped = ndc_of(cam, p, aspect);
    EXPECT_NEAR(clamped.x, n.x, 1e-4f);
    EXPECT_NEAR(clamped.y, n.y, 1e-4f);
    // The centre of the view zooms as before: the target stays.
    const glm::vec3 target = cam.target;
    cam.zoom_toward(2.0f, glm::vec2(0.0f), aspect);
    for (int i = 0; i < 3; ++i) EXPECT_FLOAT_EQ(cam.target[i], target[i]);
  }
}

TEST(OrbitCamera, OrthographicFramingFitsTheBoxWithoutItsDepth) {
  // A 2 x 1 x 6 box seen from the right in a square view: its depth (x) does not matter, its
  // height 1 and length 6 (z) do: half height needed 3, distance = 3 / tan(fov/2) x 1.08.
  Bounds b;
  b.add(glm::vec3(-1.0f, -0.5f, -3.0f));
  b.add(glm::vec3(1.0f, 0.5f, 3.0f));
  OrbitCamera cam;
  cam.set_view(ViewAxis::Right);
  cam.frame(b, 1.0f);
  EXPECT_NEAR(cam.distance, 3.0f / std::tan(0.5f * cam.fov_y) * 1.08f, 1e-4f);
  EXPECT_NEAR(ndc_extent(cam, b, 1.0f), 1.0f / 1.08f, 1e-4f);
  // frame_part: the part is framed, the scene's radius (clip planes, grid) stays.
  Bounds part;
  part.add(glm::vec3(0.9f, 0.4f, 2.9f));
  part.add(glm::vec3(1.0f, 0.5f, 3.0f));
  const float radius = cam.radius;
  cam.frame_part(part, 1.0f);
  EXPECT_FLOAT_EQ(cam.radius, radius);
  EXPECT_NEAR(cam.target.z, 2.95f, 1e-5f);
  EXPECT_NEAR(cam.distance, 0.05f / std::tan(0.5f * cam.fov_y) * 1.08f, 1e-5f);
  // Closer than the zoom limit: a zoom in does not push it out to the limit.
  ASSERT_LT(cam.distance, OrbitCamera::kMinZoom * cam.radius);
  const float close = cam.distance;
  cam.zoom(0.9f);
  EXPECT_FLOAT_EQ(cam.distance, close);
  cam.zoom(2.0f);
  EXPECT_FLOAT_EQ(cam.distance, 2.0f * close);
}

OrbitCamera at_yaw(float yaw) {
  OrbitCamera c;
  c.yaw = yaw;
  return c;
}

TEST(CameraHistory, UndoRedoAndANewBranch) {
  CameraHistory h;
  OrbitCamera cam = at_yaw(0.0f);
  EXPECT_FALSE(h.undo(cam));
  EXPECT_FALSE(h.redo(cam));
  // Three moves: 0 -> 1 -> 2 -> 3, each recording the view it leaves.
  for (int i = 1; i <= 3; ++i) {
    h.push(cam);
    cam = at_yaw(static_cast<float>(i));
  }
  EXPECT_EQ(h.undo_count(), 3);
  ASSERT_TRUE(h.undo(cam));
  EXPECT_EQ(cam.yaw, 2.0f);
  ASSERT_TRUE(h.undo(cam));
  EXPECT_EQ(cam.yaw, 1.0f);
  EXPECT_EQ(h.redo_count(), 2);
  ASSERT_TRUE(h.redo(cam));
  EXPECT_EQ(cam.yaw, 2.0f);
  // A new move from here drops what was left to redo (3).
  h.push(cam);
  cam = at_yaw(9.0f);
  EXPECT_EQ(h.redo_count(), 0);
  EXPECT_FALSE(h.redo(cam));
  ASSERT_TRUE(h.undo(cam));
  EXPECT_EQ(cam.yaw, 2.0f);
  ASSERT_TRUE(h.undo(cam));
  EXPECT_EQ(cam.yaw, 1.0f);
  ASSERT_TRUE(h.undo(cam));
  EXPECT_EQ(cam.yaw, 0.0f);
  EXPECT_FALSE(h.undo(cam));
  EXPECT_EQ(cam.yaw, 0.0f);
}

TEST(CameraHistory, KeepsTheLastViewsAndSkipsRepeats) {
  CameraHistory h;
  h.push(at_yaw(1.0f));
  h.push(at_yaw(1.0f));  // the same view twice is one entry
  EXPECT_EQ(h.undo_count(), 1);
  h.clear();
  for (int i = 0; i < CameraHistory::kSize + 8; ++i) h.push(at_yaw(static_cast<float>(i)));
  EXPECT_EQ(h.undo_count(), CameraHistory::kSize);
  OrbitCamera cam = at_yaw(-1.0f);
  int undone = 0;
  while (h.undo(cam)) ++undone;
  EXPECT_EQ(undone, CameraHistory::kSize);
  EXPECT_EQ(cam.yaw, 8.0f);  // the oldest 8 fell off
}

TEST(UpAxis, ZUpBecomesYUp) {
  const glm::vec4 up = up_axis_matrix(true) * glm::vec4(0.0f, 0.0f, 1.0f, 0.0f);
  EXPECT_NEAR(up.y, 1.0f, 1e-6f);
  EXPECT_NEAR(up.z, 0.0f, 1e-6f);
  const glm::vec4 same = up_axis_matrix(false) * glm::vec4(0.0f, 1.0f, 0.0f, 0.0f);
  EXPECT_NEAR(same.y, 1.0f, 0.0f);
}

}  // namespace
}  // namespace sv
