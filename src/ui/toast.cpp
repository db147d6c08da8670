#include "ui/toast.h"

#include <cstdarg>
#include <cstdio>

#include <imgui.h>

namespace sv::ui {
namespace {

void vshow(Toast& toast, bool error, const char* format, va_list args) {
  std::vsnprintf(toast.text.data(), toast.text.size(), format, args);
  toast.shown_at = ImGui::GetTime();
  toast.error = error;
}

// One line of text on a dark box, at `at` (its text's top-left).
void note(ImDrawList* list, const ImVec2& at, const char* text, ImU32 colour) {
  const float line = ImGui::GetTextLineHeight();
  const ImVec2 size = ImGui::CalcTextSize(text);
  list->AddRectFilled(ImVec2(at.x - 0.4f * line, at.y - 0.2f * line),
                      ImVec2(at.x + size.x + 0.4f * line, at.y + size.y + 0.2f * line),
                      IM_COL32(20, 22, 26, 200), 0.3f * line);
  list->AddText(at, colour, text);
}

}  // namespace

void show_toast(Toast& toast, const char* format, ...) {
  va_list args;
  va_start(args, format);
  vshow(toast, false, format, args);
  va_end(args);
}

void show_toast_error(Toast& toast, const char* format, ...) {
  va_list args;
  va_start(args, format);
  vshow(toast, true, format, args);
  va_end(args);
}

void draw_viewport_notes(const Toast& toast, const Rect& viewport) {
  if (viewport.w <= 0.0f || viewport.h <= 0.0f) return;
  ImDrawList* list = ImGui::GetBackgroundDrawList();
  const float line = ImGui::GetTextLineHeight();
  const ImVec2 at(viewport.x + 0.6f * line, viewport.y + 0.5f * line);
  list->PushClipRect(ImVec2(viewport.x, viewport.y), ImVec2(viewport.right(), viewport.bottom()));
  note(list, at, "F1: controls", IM_COL32(170, 172, 178, 255));
  if (toast.visible(ImGui::GetTime())) {
    note(list, ImVec2(at.x, at.y + 1.6f * line), toast.text.data(),
         toast.error ? IM_COL32(255, 120, 110, 255) : IM_COL32(255, 255, 255, 255));
  }
  list->PopClipRect();
}

}  // namespace sv::ui
