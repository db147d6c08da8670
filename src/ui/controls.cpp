#include "ui/controls.h"

#include <algorithm>
#include <cstring>

#include <imgui.h>

namespace sv::ui {

namespace {

// Ctrl+Q is not Q: the modifiers a binding needs must be held, and a plain key wants none of
// Control; with Control, Shift must match as well (controls.h).
bool mods_match(int held, int wanted) noexcept {
  if ((held & kModControl) != (wanted & kModControl)) return false;
  return (wanted & kModControl) == 0 || (held & kModShift) == (wanted & kModShift);
}

}  // namespace

Action action_for(const KeyEvent& e) noexcept {
  for (const Binding& b : kBindings) {
    if (e.typed != 0) {
      if (b.typed == e.typed) return b.action;
      continue;
    }
    if (e.key == 0) continue;
    if ((e.key == b.key && mods_match(e.mods, b.mods)) ||
        (b.key2 != 0 && e.key == b.key2 && mods_match(e.mods, b.mods2)))
      return b.action;
  }
  return Action::None;
}

std::string controls_text() {
  std::size_t width = 0;
  for (const Binding& b : kBindings) {
    if (b.input != nullptr) width = std::max(width, std::strlen(b.input));
  }
  std::string out = "Controls (in the window; also the help overlay, F1 or ?):\n";
  for (const Binding& b : kBindings) {
    if (b.input == nullptr) continue;
    out += "  ";
    out += b.input;
    out.append(width + 2 - std::strlen(b.input), ' ');
    out += b.what;
    out += '\n';
  }
  return out;
}

std::string controls_markdown() {
  std::string out;
  for (const Binding& b : kBindings) {
    if (b.input == nullptr) continue;
    out += "- **";
    out += b.input;
    out += "**: ";
    out += b.what;
    out += '\n';
  }
  return out;
}

void help_overlay(bool* open) {
  if (!*open) return;
  const ImGuiIO& io = ImGui::GetIO();
  const ImGuiStyle& style = ImGui::GetStyle();
  // As wide as the longest line asks, within the window (800x500 too): a line that does not fit
  // wraps in its column, and a taller list scrolls.
  float input_w = 0.0f, what_w = 0.0f;
  for (const Binding& b : kBindings) {
    if (b.input == nullptr) continue;
    input_w = std::max(input_w, ImGui::CalcTextSize(b.input).x);
    what_w = std::max(what_w, ImGui::CalcTextSize(b.what).x);
  }
  const float natural = input_w + what_w + 4.0f * style.CellPadding.x +
                        2.0f * style.WindowPadding.x + style.ScrollbarSize + 1.0f;
  const float width = std::min(natural, io.DisplaySize.x * 0.96f);
  ImGui::SetNextWindowPos(ImVec2(io.DisplaySize.x * 0.5f, io.DisplaySize.y * 0.45f),
                          ImGuiCond_Always, ImVec2(0.5f, 0.5f));
  ImGui::SetNextWindowBgAlpha(0.94f);
  ImGui::SetNextWindowSizeConstraints(ImVec2(width, 0.0f), ImVec2(width, io.DisplaySize.y * 0.9f));
  constexpr ImGuiWindowFlags flags = ImGuiWindowFlags_AlwaysAutoResize |
                                     ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoMove |
                                     ImGuiWindowFlags_NoSavedSettings;
  if (ImGui::Begin("Controls (F1 or ? to close)###help", open, flags)) {
    if (ImGui::BeginTable("bindings", 2, ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV)) {
      ImGui::TableSetupColumn("input", ImGuiTableColumnFlags_WidthFixed, input_w);
      ImGui::TableSetupColumn("what", ImGuiTableColumnFlags_WidthStretch);
      for (const Binding& b : kBindings) {
        if (b.input == nullptr) continue;
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(b.input);
        ImGui::TableNextColumn();
        ImGui::PushTextWrapPos(0.0f);
        ImGui::TextUnformatted(b.what);
        ImGui::PopTextWrapPos();
      }
      ImGui::EndTable();
    }
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextDisabled("Outliner: click a joint to select it; the arrow opens its children.");
    ImGui::TextDisabled("Timeline: drag the bar to scrub; ticks mark the selected joint's keys.");
    ImGui::PopTextWrapPos();
  }
  ImGui::End();
}

}  // namespace sv::ui
