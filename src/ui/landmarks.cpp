#include "ui/landmarks.h"

#include <imgui.h>
#include <imgui_internal.h>  // the last item's flags: ImGui has no public getter for disabled

namespace sv::ui {

void Landmarks::add(const char* name, int32_t index, const Rect& rect,
                    const Rect& window) noexcept {
  if (count_ < items_.size()) items_[count_++] = Landmark{name, index, rect, window, false, ""};
}

void Landmarks::add_last_item(const char* name, int32_t index, const char* label) noexcept {
  if (count_ >= items_.size()) return;
  const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
  const ImVec2 w = ImGui::GetWindowPos(), ws = ImGui::GetWindowSize();
  const bool disabled = (GImGui->LastItemData.InFlags & ImGuiItemFlags_Disabled) != 0;
  items_[count_++] =
      Landmark{name,     index, Rect{a.x, a.y, b.x - a.x, b.y - a.y}, Rect{w.x, w.y, ws.x, ws.y},
               disabled, label};
}

const Landmark* Landmarks::find(std::string_view name, int32_t index) const noexcept {
  for (const Landmark& l : *this) {
    if (name == l.name && (index < 0 || index == l.index)) return &l;
  }
  return nullptr;
}

}  // namespace sv::ui
