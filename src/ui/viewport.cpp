#include "ui/viewport.h"

#include <cmath>

#include <imgui.h>

namespace sv::ui {
namespace {

// Whether button `b`'s current press started in the viewport, not on an ImGui window.
bool pressed_in(const ImGuiIO& io, const Rect& viewport, int b) noexcept {
  return !io.MouseDownOwned[b] &&
         viewport.contains(io.MouseClickedPos[b].x, io.MouseClickedPos[b].y);
}

// Whether button `b` is held in a drag that started in the viewport. Not on the frame of the
// press itself: that frame's pointer motion happened before the press (a pointer that jumps and
// clicks within one frame would otherwise spin the camera by the whole jump).
bool dragging(const ImGuiIO& io, const Rect& viewport, int b) noexcept {
  return io.MouseDown[b] && !io.MouseClicked[b] && pressed_in(io, viewport, b);
}

}  // namespace

ViewportInput viewport_input(const ImGuiIO& io, const Rect& viewport) noexcept {
  ViewportInput in;
  const ImVec2 m = io.MousePos;
  const bool valid = std::isfinite(m.x) && std::isfinite(m.y) && m.x > -1e30f && m.y > -1e30f;
  in.hovered = valid && !io.WantCaptureMouse && viewport.contains(m.x, m.y);
  in.mouse_x = m.x * io.DisplayFramebufferScale.x;
  in.mouse_y = m.y * io.DisplayFramebufferScale.y;
  const float dx = io.MouseDelta.x, dy = io.MouseDelta.y;
  const bool moved = valid && std::isfinite(dx) && std::isfinite(dy) && (dx != 0 || dy != 0);
  if (moved && dragging(io, viewport, 0)) {
    in.orbit_yaw = -dx * kOrbitPerUnit;
    in.orbit_pitch = dy * kOrbitPerUnit;
  } else if (moved && viewport.h > 0.0f &&
             (dragging(io, viewport, 1) || dragging(io, viewport, 2))) {
    in.pan_x = dx / viewport.h;
    in.pan_y = dy / viewport.h;
  }
  if (in.hovered && io.MouseWheel != 0.0f) in.zoom = std::pow(kZoomPerNotch, io.MouseWheel);
  // A click: the left button went up this frame, its press began in the viewport, and the
  // pointer never went further than the slop from where it was pressed.
  in.clicked = valid && io.MouseReleased[0] && pressed_in(io, viewport, 0) &&
               viewport.contains(m.x, m.y) &&
               io.MouseDragMaxDistanceSqr[0] <= kClickSlop * kClickSlop;
  return in;
}

}  // namespace sv::ui
