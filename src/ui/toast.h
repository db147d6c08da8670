// Brief feedback in the viewport: a line that says what a key just did ("Wireframe on",
// "Right view (orthographic)", "Saved /models/walk_001.png"), shown for kToastSeconds in the
// viewport's top-left corner under the hint that F1 lists the controls, as Blender's status
// reports and Maya's in-view messages do. Text in a fixed buffer: showing one allocates nothing.
// A long toast wraps within the viewport; the notes never overlap each other or the message
// centred at the top of the viewport (viewport_overlay.h), which goes below them where they
// would meet.
#pragma once

#include <array>

#include "ui/landmarks.h"
#include "ui/layout.h"

namespace sv::ui {

inline constexpr double kToastSeconds = 2.5;

struct Toast {
  std::array<char, 512> text{};  // "" when none was shown
  double shown_at = -1e9;        // ImGui::GetTime() when it was shown
  bool error = false;            // drawn in the error colour
  // Whether it is on screen at `now` (seconds, ImGui's clock).
  bool visible(double now) const noexcept {
    return text[0] != '\0' && now - shown_at < kToastSeconds;
  }
};

// Shows a printf-formatted message from now on (ImGui::GetTime(); needs a current context).
void show_toast(Toast& toast, const char* format, ...) __attribute__((format(printf, 2, 3)));

// The same, drawn in the error colour (a screenshot that could not be written).
void show_toast_error(Toast& toast, const char* format, ...) __attribute__((format(printf, 2, 3)));

// Where draw_viewport_notes drew this frame's notes: each note's box (its dark background), in
// display units; an empty box (w == 0) for a note not drawn. The message of the weights view
// ("click a joint": draw_viewport_message) is placed clear of them.
struct ViewportNotes {
  Rect hint;   // "F1: controls"
  Rect toast;  // the toast, under the hint; wrapped to the viewport's width
};

// Whether two boxes share any area (touching edges do not).
bool boxes_overlap(const Rect& a, const Rect& b) noexcept;

// Draws the hint "F1: controls" and the toast (while visible) in `viewport`'s top-left corner
// (display units), on the background draw list: under the panels and the help overlay. A toast
// wider than the viewport wraps inside it (a long path breaks where it must). Records the
// notes in `marks` ("note:hint", "note:toast") and returns where they went.
ViewportNotes draw_viewport_notes(const Toast& toast, const Rect& viewport, Landmarks& marks);

}  // namespace sv::ui
