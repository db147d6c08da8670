// Small building blocks the panels share.
//
// Section: a collapsing header whose body lives in its own ImGui ID scope. Dear ImGui derives a
// widget's ID from its label and the ID stack, so two widgets with one label in one scope share
// an ID and fight over clicks: the "Skeleton" overlay checkbox once sat in the same scope as the
// "Skeleton" section header, and the header could not be opened while the view options were
// shown. Headers here are named "Title###id" (the ID ignores the title, so a title with a count
// keeps its state) and their bodies are pushed under the same id, so no widget of a section can
// collide with a header or with a widget of another section.
//
// Text that fits: fit_text() draws one line of text; when the space left on the line is too
// narrow it cuts the text with "..." and shows the whole of it in a tooltip while hovered (the
// one way every panel cuts text: hints, report lines, file names, joint names). Rows of small
// controls (check boxes, buttons) flow onto the next line instead of running past the edge
// (flow_same_line()).
//
// Content width: while a panel is drawn (begin_content_width .. end_content_width), fit_text and
// flow rows note how wide the panel would have to be for them to show whole; the layout widens
// the panel toward that (layout.h, LayoutPrefs::*_content), up to a share of the window.
#pragma once

#include <string_view>

#include <imgui.h>

#include "ui/landmarks.h"

namespace sv::ui {

class Section {
 public:
  // `label` is "Title###id"; `landmark` names the header in `marks` (a string literal), with
  // index 1 when the section is open and 0 when it is closed.
  Section(const char* label, const char* id, const char* landmark, Landmarks& marks,
          bool default_open = true);
  ~Section();
  Section(const Section&) = delete;
  Section& operator=(const Section&) = delete;
  explicit operator bool() const noexcept { return open_; }

 private:
  bool open_ = false;
};

// The theme's warning colour (amber).
inline ImVec4 warning_colour() { return ImVec4(1.0f, 0.85f, 0.3f, 1.0f); }

// Text in the theme's warning (amber) or error (red) colour, wrapped to the panel.
void warning_text(const char* fmt, ...) IM_FMTARGS(1);
void error_text(const char* fmt, ...) IM_FMTARGS(1);

// How fit_text drew its text.
enum class Fit : uint8_t {
  Whole,       // the text fitted
  Cut,         // cut with "...", not hovered
  CutHovered,  // cut, and hovered: the tooltip with the whole text is up this frame
};
// One line of `text` in the width left on the current line (`width` > 0: at most that), cut
// with "..." (at a UTF-8 character boundary) when it does not fit, the whole text then in a
// tooltip while hovered. The colour: the style's text colour, or `color` when its alpha > 0.
// No allocation: a cut line is built in a fixed buffer (the cut part of a line is never longer
// than what the width holds).
// `note_width` false: the text does not count toward the panel's content width (a folder after a
// file name may always be cut).
Fit fit_text(std::string_view text, float width = 0.0f, ImVec4 color = ImVec4(0, 0, 0, 0),
             bool note_width = true);
// The same in the style's disabled (grey) colour.
Fit fit_text_disabled(std::string_view text, float width = 0.0f, bool note_width = true);

// ImGui::Checkbox(label, v) where its label fits; otherwise the box, then the label cut to fit
// (its tooltip the whole label; a click on it toggles too). The box's landmark is `mark`.
// Returns true when the label was cut (its tooltip is then already taken).
bool fit_checkbox(const char* label, bool* v, Landmarks& marks, const char* mark);

// A row that selects as a whole (ImGui::Selectable across the panel, `flags` added) showing
// `label` cut to fit, then `detail` dimmed after it (may be empty; never counted toward the
// content width). The row's landmark is `mark` with `index`; `tooltip` (when not null) shows
// while the row is hovered, in place of the cut text's. True when it was clicked.
bool fit_selectable(std::string_view label, std::string_view detail, bool selected,
                    ImGuiSelectableFlags flags, Landmarks& marks, const char* mark, int32_t index,
                    const char* tooltip = nullptr);
// printf-style, formatted into a fixed buffer (512 bytes; longer output is cut there).
Fit fit_textf(const char* fmt, ...) IM_FMTARGS(1);
Fit fit_textf_disabled(const char* fmt, ...) IM_FMTARGS(1);

// The prefix of `text` (whole UTF-8 characters) that fits in `width` with "..." after it, in
// the current font; `text`'s size when the whole text fits. For fit_text and its tests.
std::size_t fit_prefix(std::string_view text, float width);

// Call before a control of width `next_width` that follows the previous item on its row: it
// stays on the row (ImGui::SameLine, `spacing` after the previous item; < 0: the style's item
// spacing) when it fits there, and starts a new row otherwise. The row's full width is noted as
// the panel's content width. Returns true when it stayed.
bool flow_same_line(float next_width, float spacing = -1.0f);
// Whether a control of width `next_width` would fit after the previous item on its row (the
// question flow_same_line asks, without acting on it or noting a width).
bool fits_same_line(float next_width, float spacing = -1.0f);
// The width of ImGui::Checkbox(label), ImGui::Button(label), ImGui::SmallButton(label) and
// ImGui::RadioButton(label) (the label up to "##").
float checkbox_width(const char* label);
float button_width(const char* label);
float small_button_width(const char* label);
float radio_width(const char* label);

// The content width of the panel being drawn (see the top of this file), in display units: the
// widest line that fit_text or a flow row would need, from the panel window's left edge,
// padding and scroll bar included. begin resets it (the panel window must be current).
void begin_content_width();
float end_content_width();
// Notes that the current line would need `width` more units from the cursor.
void want_width(float width);

}  // namespace sv::ui
