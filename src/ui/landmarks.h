// Landmarks: where this frame's panels drew the widgets a user looks for (section headers, the
// transport buttons, the clip combo, the scrub bar, each joint row of the outliner, the collapse
// buttons), recorded as they are drawn.
//
// Dear ImGui keeps no registry of items (its test engine hooks are compiled out of Debian's
// library), so the UI tests, which click like a user, and the end-to-end tests, which move the
// real pointer in the real window, find a widget here by name instead of by hard-coded pixels.
// The window writes the last frame's landmarks into its --exit-json state (app/viewer.h).
//
// A fixed array filled with string literals and the last item's rectangle: nothing allocates,
// a frame costs one copy per landmark; past kCapacity landmarks are dropped (only joint rows
// are that many, and only the visible ones are drawn).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "ui/layout.h"

namespace sv::ui {

struct Landmark {
  const char* name = "";  // a string literal: "header:View", "button:Play", "joint", ...
  int32_t index = -1;     // which one, where a name repeats (the joint of a joint row)
  Rect rect;              // display units
  // The ImGui window (a panel, or a scrolling child such as the joint tree) that drew it: the
  // widget is visible only inside it, and the mouse wheel over it scrolls the widget into view.
  Rect window;
  bool disabled = false;   // drawn disabled (ImGui::BeginDisabled): it takes no click
  const char* label = "";  // what it reads, where the panel says (a string literal); "" unsaid
};

class Landmarks {
 public:
  static constexpr std::size_t kCapacity = 256;

  void clear() noexcept { count_ = 0; }
  // Records ImGui's last item under `name` (a string literal), disabled or not; `label` (a
  // string literal) is what it reads where that changes (the Play button's "Play" / "Pause").
  void add_last_item(const char* name, int32_t index = -1, const char* label = "") noexcept;
  void add(const char* name, int32_t index, const Rect& rect, const Rect& window = {}) noexcept;

  // The first landmark named `name` (with `index`, unless index < 0); null when none.
  const Landmark* find(std::string_view name, int32_t index = -1) const noexcept;

  const Landmark* begin() const noexcept { return items_.data(); }
  const Landmark* end() const noexcept { return items_.data() + count_; }
  std::size_t size() const noexcept { return count_; }

 private:
  std::array<Landmark, kCapacity> items_{};
  std::size_t count_ = 0;
};

}  // namespace sv::ui
