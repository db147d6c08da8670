// The window's font: Dear ImGui's default (ProggyClean: ASCII and Latin-1 only) with the glyphs
// of the names on screen that it lacks (a CJK file name showed as "??") merged in from a font
// with CJK (Debian's fonts-droid-fallback, which scripts/common.sh installs). A CJK font holds
// tens of thousands of glyphs; the atlas takes only those the current names use
// (ImFontGlyphRangesBuilder), and is rebuilt when a new name needs a glyph it does not have yet.
// Without the font file the atlas stays the default one and such names keep their "?".
//
// Which names: the app passes them in (the model's path, Recent, the browser's folder, joint and
// mesh names) when they change, never per frame. The atlas's texture is the renderer's: after
// build() returns true the app re-uploads it (app/viewer.cpp); nothing here touches GL.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include <imgui.h>

namespace sv {
struct Model;
}

namespace sv::ui {

struct ViewerState;

// The first CJK font file found among Debian's usual places; "" when none is installed.
std::string find_cjk_font();

class FontGlyphs {
 public:
  // `font_path`: the CJK font (find_cjk_font(); "" or a missing file: none); `size`: its pixel
  // size (the default font's 13; io.FontGlobalScale scales both alike).
  explicit FontGlyphs(std::string font_path, float size = 13.0f);

  // Notes the characters of `text` (UTF-8) that the default font lacks. True when one of them is
  // new (build() then has work to do).
  bool want(std::string_view text);
  bool dirty() const noexcept { return dirty_; }
  bool has_font() const noexcept { return !path_.empty(); }

  // Rebuilds `atlas` (which must not be locked: call it between frames): the default font, then
  // the CJK font's glyphs for every character wanted so far merged into it. Returns true when the
  // atlas changed (its texture must be uploaded again); false when nothing was wanted or there is
  // no font (the atlas is left as it was) or the font would not load (then the default font
  // alone is rebuilt and the font is not tried again).
  bool build(ImFontAtlas& atlas);

  // How many characters beyond Latin-1 are wanted so far.
  std::size_t wanted() const noexcept { return count_; }

  // Notes the names the panels show, when they changed since the last call: the model's path,
  // its joint, mesh and clip names (once per model), Recent, the browser's folder and entries.
  // A few comparisons per call; it allocates only when something changed.
  void watch(const ViewerState& state, const Model* model, std::string_view path);

 private:
  uint64_t seen_generation_ = ~uint64_t{0};  // ViewerState::model_generation last noted
  std::string seen_dir_;                     // FileState::listed_dir last noted
  std::string seen_recent_;                  // FileState::recent[0] last noted
  std::string path_;
  float size_ = 13.0f;
  ImFontGlyphRangesBuilder wanted_;  // every character noted, beyond Latin-1
  ImVector<ImWchar> ranges_;         // what the atlas was last built with (it keeps a pointer)
  std::size_t count_ = 0;
  bool dirty_ = false;
};

}  // namespace sv::ui
