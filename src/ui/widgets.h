// Small building blocks the panels share.
//
// Section: a collapsing header whose body lives in its own ImGui ID scope. Dear ImGui derives a
// widget's ID from its label and the ID stack, so two widgets with one label in one scope share
// an ID and fight over clicks: the "Skeleton" overlay checkbox once sat in the same scope as the
// "Skeleton" section header, and the header could not be opened while the view options were
// shown. Headers here are named "Title###id" (the ID ignores the title, so a title with a count
// keeps its state) and their bodies are pushed under the same id, so no widget of a section can
// collide with a header or with a widget of another section.
#pragma once

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

// Text in the theme's warning (amber) or error (red) colour, wrapped to the panel.
void warning_text(const char* fmt, ...) IM_FMTARGS(1);
void error_text(const char* fmt, ...) IM_FMTARGS(1);

}  // namespace sv::ui
