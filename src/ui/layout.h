// The window's layout: an outliner on the left, an inspector on the right, a timeline along the
// bottom, and the 3D viewport in the rectangle between them. No docking (Debian's Dear ImGui is
// 1.86): the panels are fixed ImGui windows placed every frame from this pure function, so the
// viewport never sits under a panel, and projection, framing and picking all use its rectangle.
//
// Units: the layout works in ImGui's display units (io.DisplaySize, origin at the window's
// top-left corner, y down). to_pixels() turns a rectangle into framebuffer pixels (the size GL
// draws at, which differs on high-DPI screens by io.DisplayFramebufferScale).
//
// Rules (tested in tests/ui/layout_test.cpp):
//  - the timeline spans the full width at the bottom; the outliner and the inspector fill the
//    height above it; a collapsed panel is a strip of kStrip units holding its expand button;
//  - the viewport keeps at least half the window's area: when the panels' preferred sizes do
//    not leave that much, the open side panels shrink in proportion (the timeline is capped at
//    kMaxTimelineShare of the height first), so at 800x500 the viewport still has half;
//  - the timeline's layer rows (LayoutPrefs::timeline_rows) are added after the side panels
//    are placed, in the room the viewport's half leaves, so adding a layer never moves the side
//    panels (what does not fit scrolls);
//  - an open side panel that follows its content (LayoutPrefs::*_fit) is at least as wide as
//    its content asks (LayoutPrefs::*_content, measured by the panels: ui/widgets.h), up to
//    kMaxContentShare of the window's width, so a wide window gives long text room; the
//    viewport's half comes first all the same;
//  - the five rectangles tile the window: no overlap, no gap, none outside it.
#pragma once

#include "gfx/render_options.h"

namespace sv::ui {

// A rectangle in display units, origin top-left, y down.
struct Rect {
  float x = 0.0f, y = 0.0f, w = 0.0f, h = 0.0f;

  float right() const noexcept { return x + w; }
  float bottom() const noexcept { return y + h; }
  float area() const noexcept { return w * h; }
  bool contains(float px, float py) const noexcept {
    return px >= x && py >= y && px < x + w && py < y + h;
  }
};

// What the user chose: the panels' preferred sizes (display units; dragging a panel's inner
// edge sets them) and which panels are collapsed.
struct LayoutPrefs {
  float outliner_width = 260.0f;
  float inspector_width = 310.0f;
  float timeline_height = 66.0f;
  // What the timeline's layer rows add to its height (ui/timeline.cpp sets it); they get only the
  // room the side panels and the viewport's half leave.
  float timeline_rows = 0.0f;
  bool outliner_collapsed = false;
  bool inspector_collapsed = false;
  bool timeline_collapsed = false;
  // The width each side panel's content asks for (0: not measured yet), and whether the panel
  // follows it; dragging a panel's edge sets its width and stops it following.
  float outliner_content = 0.0f;
  float inspector_content = 0.0f;
  bool outliner_fit = true;
  bool inspector_fit = true;
};

struct Layout {
  Rect outliner, inspector, timeline, viewport;
};

inline constexpr float kStrip = 24.0f;             // a collapsed panel's thickness
inline constexpr float kMinSidePanel = 120.0f;     // an open side panel's preferred minimum
inline constexpr float kMinTimeline = 48.0f;       // an open timeline's minimum height
inline constexpr float kMaxTimelineShare = 0.25f;  // of the window's height
inline constexpr float kMinViewportShare = 0.5f;   // of the window's area
inline constexpr float kMaxContentShare = 0.25f;   // of the window's width, for a content width
inline constexpr float kGrab = 8.0f;               // the width of a panel edge's grab zone

// The rectangles for a window of width x height display units. `scale` multiplies the fixed
// sizes above (the content scale of a high-DPI screen). Sizes <= 0 give empty rectangles.
Layout compute_layout(float width, float height, const LayoutPrefs& prefs,
                      float scale = 1.0f) noexcept;

// `r` in framebuffer pixels: display units times (scale_x, scale_y), edges rounded to whole
// pixels so neighbouring rectangles still share their edges.
PixelRect to_pixels(const Rect& r, float scale_x, float scale_y) noexcept;

}  // namespace sv::ui
