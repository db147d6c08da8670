// One frame of the window, in the order that makes the panels show the picture on screen:
//
//   keys + layout (ui::begin_ui) -> the app's reactions (camera, picking, files, the recorder)
//   -> run_frame (frame.h: clock, jobs, pose, skin, figures, crowd, draw)
//   -> the panels (ui::draw_panels), built from the scene as that frame left it
//   -> the app's reactions to the panels (exports, opening, framing).
//
// The window (viewer.cpp) and the tests that check what the panels show against what was drawn
// (tests/app/window_frame_test.cpp) both run this function, so the order tested is the order
// shipped. Between ImGui::NewFrame() and ImGui::Render(); the window's GL context current.
#pragma once

#include <span>

#include "app/frame.h"
#include "ui/ui.h"

namespace sv {

struct Scene;
namespace gl {
class Renderer;
}

// What the panels see of `scene` as it is now (null: nothing loaded) and of the frame record in
// `frames` (the clock figures; the stage times are the scene's, from its last frame).
ui::SceneView scene_view(Scene* scene, const FrameState& frames, const gl::Renderer* renderer);

// The window's side of a frame.
class WindowFrameHooks {
 public:
  virtual ~WindowFrameHooks() = default;
  // After the keys, before the frame is computed: the camera, picking, files, the recorder.
  virtual void before_frame(const ui::UiEdits& key_edits) = 0;
  // What the panels show besides the scene: loads, exports, warnings, the frame times. Called
  // after run_frame, right before the panels are built from the scene as the frame left it.
  virtual ui::StatusView status() = 0;
  // After the panels: their edits, and the frame they showed (null: nothing loaded).
  virtual void after_panels(const ui::UiEdits& panel_edits, const Frame* frame) = 0;
};

struct WindowFrameInputs {
  Scene* scene = nullptr;
  ui::ViewerState* state = nullptr;
  gl::Renderer* renderer = nullptr;
  OrbitCamera* camera = nullptr;
  FrameState* frames = nullptr;
  std::span<const ui::KeyEvent> keys;
  double wall_seconds = 0.0;  // the true time since the previous frame
  int framebuffer_width = 0, framebuffer_height = 0;
};

// Runs one window frame; returns its record (null when nothing is loaded). `in.scene` is read
// after hooks.before_frame (which may not replace it: loads are adopted between frames).
const Frame* window_frame(const WindowFrameInputs& in, WindowFrameHooks& hooks);

}  // namespace sv
