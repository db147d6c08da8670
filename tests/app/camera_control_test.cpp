// The window's camera control without a window: a gesture is one history entry (ended by frames
// without a move, not by time), the wheel zooms toward the pointer's pixel, and F12's names are
// new each time and never overwrite.
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include <gtest/gtest.h>

#include "app/camera_control.h"
#include "temp_dir.h"

namespace sv {
namespace {

ui::ViewportInput orbit_by(float yaw) {
  ui::ViewportInput in;
  in.orbit_yaw = yaw;
  return in;
}

TEST(CameraControl, AGestureIsOneHistoryEntry) {
  CameraControl c;
  OrbitCamera cam;
  const PixelRect vp{0, 0, 800, 600};
  const float yaw0 = cam.yaw;
  for (int i = 0; i < 5; ++i) c.apply_input(orbit_by(0.1f), vp, cam);
  EXPECT_EQ(c.history.undo_count(), 1);
  // A pause shorter than kQuietFrames continues the gesture...
  for (int i = 0; i + 1 < CameraControl::kQuietFrames; ++i) c.apply_input({}, vp, cam);
  c.apply_input(orbit_by(0.1f), vp, cam);
  EXPECT_EQ(c.history.undo_count(), 1);
  // ... a longer one ends it: the next move is a new entry.
  for (int i = 0; i < CameraControl::kQuietFrames; ++i) c.apply_input({}, vp, cam);
  const float yaw1 = cam.yaw;
  c.apply_input(orbit_by(0.1f), vp, cam);
  EXPECT_EQ(c.history.undo_count(), 2);
  ASSERT_TRUE(c.undo(cam));
  EXPECT_FLOAT_EQ(cam.yaw, yaw1);
  ASSERT_TRUE(c.undo(cam));
  EXPECT_FLOAT_EQ(cam.yaw, yaw0);
  EXPECT_EQ(c.history.undo_count(), 0);
  // Undo ends the gesture: a move right after it is a new entry (the undone view is kept).
  c.apply_input(orbit_by(0.1f), vp, cam);
  EXPECT_EQ(c.history.undo_count(), 1);
  // A discrete change records at once and ends a gesture in progress; the move after it starts
  // from the view just recorded, which is not recorded twice.
  c.record(cam);
  EXPECT_EQ(c.history.undo_count(), 2);
  c.apply_input(orbit_by(0.1f), vp, cam);
  EXPECT_EQ(c.history.undo_count(), 2);
  c.apply_input(orbit_by(0.1f), vp, cam);
  EXPECT_EQ(c.history.undo_count(), 2);
  c.clear();
  EXPECT_EQ(c.history.undo_count(), 0);
}

TEST(CameraControl, PixelsToNdcAndTheWheelTowardThePointer) {
  const PixelRect vp{100, 50, 400, 200};  // top-left origin, as the layout's
  EXPECT_EQ(viewport_ndc(vp, 100.0f, 50.0f), glm::vec2(-1.0f, 1.0f));
  EXPECT_EQ(viewport_ndc(vp, 500.0f, 250.0f), glm::vec2(1.0f, -1.0f));
  EXPECT_EQ(viewport_ndc(vp, 300.0f, 150.0f), glm::vec2(0.0f, 0.0f));
  EXPECT_EQ(viewport_ndc(vp, 200.0f, 100.0f), glm::vec2(-0.5f, 0.5f));
  // The wheel at the viewport's top-left quarter point moves the target toward it (left, up).
  CameraControl c;
  OrbitCamera cam;
  cam.yaw = 0.0f;
  cam.pitch = 0.0f;
  ui::ViewportInput in;
  in.zoom = 0.5f;
  in.mouse_x = 200.0f;
  in.mouse_y = 100.0f;
  c.apply_input(in, vp, cam);
  EXPECT_LT(cam.target.x, 0.0f);
  EXPECT_GT(cam.target.y, 0.0f);
  EXPECT_EQ(c.history.undo_count(), 1);
}

TEST(CameraControl, ScreenshotNamesAreNewAndNeverOverwrite) {
  test::TempDir d;
  const std::string model = d / "walker.glb";
  std::string e;
  const std::string a = reserve_shot_path(model, &e);
  EXPECT_EQ(a, d / "walker_001.png") << e;
  // Someone's file with the next name stays as it was; the name after it is taken.
  { std::ofstream(d / "walker_002.png") << "mine"; }
  const std::string b = reserve_shot_path(model, &e);
  EXPECT_EQ(b, d / "walker_003.png");
  std::ifstream mine(d / "walker_002.png");
  std::string text;
  mine >> text;
  EXPECT_EQ(text, "mine");
  // A folder that cannot be written: an error naming it, nothing made.
  if (::geteuid() != 0) {
    const std::string ro = d / "ro";
    std::filesystem::create_directory(ro);
    ::chmod(ro.c_str(), 0555);
    e.clear();
    EXPECT_EQ(reserve_shot_path(ro + "/m.glb", &e), "");
    EXPECT_NE(e.find(ro), std::string::npos) << e;
  }
  e.clear();
  EXPECT_EQ(reserve_shot_path(d / "missing/m.glb", &e), "");
  EXPECT_NE(e.find("missing"), std::string::npos) << e;
}

}  // namespace
}  // namespace sv
