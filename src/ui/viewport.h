// The 3D viewport's input: the mouse in the rectangle between the panels, read from ImGuiIO once
// per frame. A drag that starts in the viewport orbits (left button) or pans (right or middle)
// the camera until released, even when the pointer leaves the rectangle; the wheel zooms while
// the pointer is over the viewport; a left press released within kClickSlop pixels is a click
// (what picking answers). Presses on a panel or on the help overlay belong to ImGui and never
// reach the viewport.
//
// The result is plain data the app applies (the camera is the app's); picking reads `hovered`,
// `mouse` and `clicked` with the viewport's PixelRect (ViewerState::viewport).
#pragma once

#include "ui/layout.h"

struct ImGuiIO;

namespace sv::ui {

inline constexpr float kClickSlop = 4.0f;  // display units a click may move and stay a click

struct ViewportInput {
  bool hovered = false;  // the pointer is over the viewport (not over a panel or a popup)
  // The pointer in framebuffer pixels from the window's top-left corner (as PixelRect), valid
  // when hovered or clicked.
  float mouse_x = 0.0f, mouse_y = 0.0f;
  bool clicked = false;  // a left click ended in the viewport this frame (at mouse_x, mouse_y)
  // Camera moves asked for this frame.
  float orbit_yaw = 0.0f, orbit_pitch = 0.0f;  // radians
  float pan_x = 0.0f, pan_y = 0.0f;            // fractions of the viewport's height
  float zoom = 1.0f;                           // factor on the camera distance (< 1: closer)
};

// Radians of orbit per display unit of drag, and the zoom factor per wheel notch.
inline constexpr float kOrbitPerUnit = 0.008f;
inline constexpr float kZoomPerNotch = 0.88f;

// Reads this frame's mouse for `viewport` (display units). Call after NewFrame.
ViewportInput viewport_input(const ImGuiIO& io, const Rect& viewport) noexcept;

}  // namespace sv::ui
