#include "ui/widgets.h"

#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <cstring>

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
  colored_wrapped(warning_colour(), fmt, args);
  va_end(args);
}

void error_text(const char* fmt, ...) {
  va_list args;
  va_start(args, fmt);
  colored_wrapped(ImVec4(1.0f, 0.4f, 0.35f, 1.0f), fmt, args);
  va_end(args);
}

namespace {

// The panel being measured (begin_content_width): its window's left edge, in screen units, and
// the widest line noted so far. One panel at a time, on the UI thread.
struct ContentWidth {
  bool active = false;
  float left = 0.0f;
  float wanted = 0.0f;
};
ContentWidth g_content;

constexpr const char kEllipsis[] = "...";

}  // namespace

std::size_t fit_prefix(std::string_view text, float width) {
  const char* begin = text.data();
  const char* end = begin + text.size();
  if (ImGui::CalcTextSize(begin, end).x <= width) return text.size();
  const float room = std::max(0.0f, width - ImGui::CalcTextSize(kEllipsis).x);
  const char* stop = begin;
  // Stops before the first character that would pass `room`, decoding UTF-8 as it goes.
  ImGui::GetFont()->CalcTextSizeA(ImGui::GetFontSize(), room, 0.0f, begin, end, &stop);
  return static_cast<std::size_t>(stop - begin);
}

Fit fit_text(std::string_view text, float width, ImVec4 color, bool note_width) {
  const char* begin = text.data();
  const char* end = begin + text.size();
  float room = ImGui::GetContentRegionAvail().x;
  if (width > 0.0f) room = std::min(room, width);
  const float full = ImGui::CalcTextSize(begin, end).x;
  if (note_width) want_width(full);
  if (color.w > 0.0f) ImGui::PushStyleColor(ImGuiCol_Text, color);
  Fit out = Fit::Whole;
  if (full <= room) {
    ImGui::TextUnformatted(begin, end);
  } else {
    char buf[512];
    std::size_t n = std::min(fit_prefix(text, room), sizeof(buf) - sizeof(kEllipsis));
    // Never half a UTF-8 character (the buffer's own limit may fall inside one).
    while (n > 0 && n < text.size() && (static_cast<unsigned char>(text[n]) & 0xC0) == 0x80) --n;
    std::memcpy(buf, begin, n);
    std::memcpy(buf + n, kEllipsis, sizeof(kEllipsis));
    ImGui::TextUnformatted(buf, buf + n + sizeof(kEllipsis) - 1);
    out = Fit::Cut;
    if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) {
      if (color.w > 0.0f) ImGui::PopStyleColor();
      ImGui::BeginTooltip();
      ImGui::PushTextWrapPos(ImGui::GetFontSize() * 40.0f);
      ImGui::TextUnformatted(begin, end);
      ImGui::PopTextWrapPos();
      ImGui::EndTooltip();
      return Fit::CutHovered;
    }
  }
  if (color.w > 0.0f) ImGui::PopStyleColor();
  return out;
}

Fit fit_text_disabled(std::string_view text, float width, bool note_width) {
  return fit_text(text, width, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled), note_width);
}

bool fit_checkbox(const char* label, bool* v, Landmarks& marks, const char* mark) {
  const float full = checkbox_width(label);
  if (full <= ImGui::GetContentRegionAvail().x) {
    want_width(full);
    ImGui::Checkbox(label, v);
    marks.add_last_item(mark);
    return false;
  }
  want_width(full);
  ImGui::PushID(label);
  ImGui::Checkbox("##box", v);
  ImGui::PopID();
  marks.add_last_item(mark);
  ImGui::SameLine(0.0f, ImGui::GetStyle().ItemInnerSpacing.x);
  const char* hidden = std::strstr(label, "##");
  const std::size_t shown =
      hidden != nullptr ? static_cast<std::size_t>(hidden - label) : std::strlen(label);
  ImGui::AlignTextToFramePadding();
  fit_text(std::string_view(label, shown), 0.0f, ImVec4(0, 0, 0, 0), false);
  // A disabled label is not hovered, so not clicked either.
  if (ImGui::IsItemClicked()) *v = !*v;
  return true;
}

bool fit_selectable(std::string_view label, std::string_view detail, bool selected,
                    ImGuiSelectableFlags flags, Landmarks& marks, const char* mark, int32_t index,
                    const char* tooltip) {
  const float x = ImGui::GetCursorPosX();
  const bool clicked =
      ImGui::Selectable("##row", selected, flags | ImGuiSelectableFlags_AllowItemOverlap);
  marks.add_last_item(mark, index);
  const bool hovered = ImGui::IsItemHovered();
  ImGui::SameLine(x);
  fit_text(label);
  if (!detail.empty()) {
    ImGui::SameLine();
    fit_text_disabled(detail, 0.0f, false);
  }
  if (tooltip != nullptr && hovered) ImGui::SetTooltip("%s", tooltip);
  return clicked;
}

namespace {
// fit_textf's and fit_textf_disabled's formatting: into `buf` (cut at its end), the view of it.
std::string_view format_into(char (&buf)[512], const char* fmt, va_list args) {
  const int n = std::vsnprintf(buf, sizeof(buf), fmt, args);
  return std::string_view(
      buf, static_cast<std::size_t>(std::clamp(n, 0, static_cast<int>(sizeof(buf)) - 1)));
}
}  // namespace

Fit fit_textf(const char* fmt, ...) {
  char buf[512];
  va_list args;
  va_start(args, fmt);
  const std::string_view text = format_into(buf, fmt, args);
  va_end(args);
  return fit_text(text);
}

Fit fit_textf_disabled(const char* fmt, ...) {
  char buf[512];
  va_list args;
  va_start(args, fmt);
  const std::string_view text = format_into(buf, fmt, args);
  va_end(args);
  return fit_text_disabled(text);
}

namespace {
// Where a control placed after the previous item (`spacing` after it) would start, and the
// right edge of the window's content region, in screen units.
float next_x(float spacing) {
  return ImGui::GetItemRectMax().x + (spacing >= 0.0f ? spacing : ImGui::GetStyle().ItemSpacing.x);
}
float content_edge() { return ImGui::GetWindowPos().x + ImGui::GetContentRegionMax().x; }
}  // namespace

bool fits_same_line(float next_width, float spacing) {
  return next_x(spacing) + next_width <= content_edge();
}

bool flow_same_line(float next_width, float spacing) {
  const ImGuiStyle& style = ImGui::GetStyle();
  const float x = next_x(spacing);
  if (g_content.active) {
    g_content.wanted = std::max(g_content.wanted, x + next_width - g_content.left +
                                                      style.WindowPadding.x + style.ScrollbarSize);
  }
  if (x + next_width > content_edge()) return false;
  ImGui::SameLine(0.0f, spacing);
  return true;
}

namespace {
float label_width(const char* label) { return ImGui::CalcTextSize(label, nullptr, true).x; }
}  // namespace

float checkbox_width(const char* label) {
  const float text = label_width(label);
  return ImGui::GetFrameHeight() + (text > 0.0f ? ImGui::GetStyle().ItemInnerSpacing.x + text : 0);
}
float radio_width(const char* label) { return checkbox_width(label); }
float button_width(const char* label) {
  return label_width(label) + 2.0f * ImGui::GetStyle().FramePadding.x;
}
float small_button_width(const char* label) { return button_width(label); }

void begin_content_width() {
  g_content.active = true;
  g_content.left = ImGui::GetWindowPos().x;
  g_content.wanted = 0.0f;
}

float end_content_width() {
  g_content.active = false;
  return g_content.wanted;
}

void want_width(float width) {
  if (!g_content.active) return;
  const ImGuiStyle& style = ImGui::GetStyle();
  g_content.wanted =
      std::max(g_content.wanted, ImGui::GetCursorScreenPos().x + width - g_content.left +
                                     style.WindowPadding.x + style.ScrollbarSize);
}

}  // namespace sv::ui
