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
  EXPECT_LE(cam.pitch, 1.56f);
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

TEST(UpAxis, ZUpBecomesYUp) {
  const glm::vec4 up = up_axis_matrix(true) * glm::vec4(0.0f, 0.0f, 1.0f, 0.0f);
  EXPECT_NEAR(up.y, 1.0f, 1e-6f);
  EXPECT_NEAR(up.z, 0.0f, 1e-6f);
  const glm::vec4 same = up_axis_matrix(false) * glm::vec4(0.0f, 1.0f, 0.0f, 0.0f);
  EXPECT_NEAR(same.y, 1.0f, 0.0f);
}

}  // namespace
}  // namespace sv
