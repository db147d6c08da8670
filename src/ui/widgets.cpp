#include "ui/widgets.h"

#include <cstdarg>

namespace sv::ui {

Section::Section(const char* label, const char* id, const char* landmark, Landmarks& marks,
                 bool default_open) {
  open_ = ImGui::CollapsingHeader(label, default_open ? ImGuiTreeNodeFlags_DefaultOpen : 0);
  marks.add_last_item(landmark, open_ ? 1 : 0);
  if (open_) ImGui::PushID(id);
}

Section::~Section() {
  if (open_) ImGui::PopID();
}

namespace {
void colored_wrapped(const ImVec4& color, const char* fmt, va_list args) {
  ImGui::PushStyleColor(ImGuiCol_Text, color);
  ImGui::PushTextWrapPos(0.0f);
  ImGui::TextV(fmt, args);
  ImGui::PopTextWrapPos();
  ImGui::PopStyleColor();
}
}  // namespace

void warning_text(const char* fmt, ...) {
  va_list args;
  va_start(args, fmt);
  colored_wrapped(ImVec4(1.0f, 0.85f, 0.3f, 1.0f), fmt, args);
  va_end(args);
}

void error_text(const char* fmt, ...) {
  va_list args;
  va_start(args, fmt);
  colored_wrapped(ImVec4(1.0f, 0.4f, 0.35f, 1.0f), fmt, args);
  va_end(args);
}

}  // namespace sv::ui
