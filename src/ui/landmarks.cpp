#include "ui/landmarks.h"

#include <imgui.h>

namespace sv::ui {

void Landmarks::add(const char* name, int32_t index, const Rect& rect,
                    const Rect& window) noexcept {
  if (count_ < items_.size()) items_[count_++] = Landmark{name, index, rect, window};
}

void Landmarks::add_last_item(const char* name, int32_t index) noexcept {
  const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
  const ImVec2 w = ImGui::GetWindowPos(), ws = ImGui::GetWindowSize();
  add(name, index, Rect{a.x, a.y, b.x - a.x, b.y - a.y}, Rect{w.x, w.y, ws.x, ws.y});
}

const Landmark* Landmarks::find(std::string_view name, int32_t index) const noexcept {
  for (const Landmark& l : *this) {
    if (name == l.name && (index < 0 || index == l.index)) return &l;
  }
  return nullptr;
}

}  // namespace sv::ui
