#include "ui/toast.h"

#include <algorithm>
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

// `text` on a dark box, its text's top-left at `at`, wrapped at `wrap` (display units of text
// width; <= 0: one line). Returns the box.
Rect note(ImDrawList* list, const ImVec2& at, const char* text, ImU32 colour, float wrap) {
  const float line = ImGui::GetTextLineHeight();
  const ImVec2 size = ImGui::CalcTextSize(text, nullptr, false, wrap);
  const Rect box{at.x - 0.4f * line, at.y - 0.2f * line, size.x + 0.8f * line,
                 size.y + 0.4f * line};
  list->AddRectFilled(ImVec2(box.x, box.y), ImVec2(box.right(), box.bottom()),
                      IM_COL32(20, 22, 26, 200), 0.3f * line);
  list->AddText(ImGui::GetFont(), ImGui::GetFontSize(), at, colour, text, nullptr, wrap);
  return box;
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

bool boxes_overlap(const Rect& a, const Rect& b) noexcept {
  return a.w > 0.0f && a.h > 0.0f && b.w > 0.0f && b.h > 0.0f && a.x < b.right() &&
         b.x < a.right() && a.y < b.bottom() && b.y < a.bottom();
}

ViewportNotes draw_viewport_notes(const Toast& toast, const Rect& viewport, Landmarks& marks) {
  ViewportNotes out;
  if (viewport.w <= 0.0f || viewport.h <= 0.0f) return out;
  ImDrawList* list = ImGui::GetBackgroundDrawList();
  const float line = ImGui::GetTextLineHeight();
  const ImVec2 at(viewport.x + 0.6f * line, viewport.y + 0.5f * line);
  list->PushClipRect(ImVec2(viewport.x, viewport.y), ImVec2(viewport.right(), viewport.bottom()));
  out.hint = note(list, at, "F1: controls", IM_COL32(170, 172, 178, 255), 0.0f);
  marks.add("note:hint", -1, out.hint);
  if (toast.visible(ImGui::GetTime())) {
    // The same margin on the right as on the left.
    const float wrap = std::max(line, viewport.w - 2.0f * (at.x - viewport.x));
    out.toast =
        note(list, ImVec2(at.x, out.hint.bottom() + 0.4f * line), toast.text.data(),
             toast.error ? IM_COL32(255, 120, 110, 255) : IM_COL32(255, 255, 255, 255), wrap);
    marks.add("note:toast", -1, out.toast);
  }
  list->PopClipRect();
  return out;
}

}  // namespace sv::ui
