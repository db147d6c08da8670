// The window's font with the glyphs of the names on screen (ui/fonts.h): only the characters the
// names use are merged in from the CJK font, the atlas is rebuilt when a new name needs one, and
// without the font nothing changes. In a headless ImGui context (the atlas is built, never
// uploaded).
#include <gtest/gtest.h>
#include <imgui.h>

#include "imgui_harness.h"
#include "ui/fonts.h"
#include "ui/viewer_state.h"

namespace sv::test {
namespace {

// U+89D2 U+8272 U+8D70 U+8DEF: "角色走路" (a character walking), as a file name might say it.
constexpr const char* kName = "/models/\xE8\xA7\x92\xE8\x89\xB2_\xE8\xB5\xB0\xE8\xB7\xAF.glb";

TEST(Fonts, WithoutTheFontTheAtlasStaysAsItWas) {
  ImGuiHarness h;
  ui::FontGlyphs glyphs("/nonexistent/font.ttf");
  EXPECT_FALSE(glyphs.has_font());
  EXPECT_TRUE(glyphs.want(kName)) << "the characters are still noted";
  EXPECT_EQ(glyphs.wanted(), 4u);
  EXPECT_FALSE(glyphs.dirty());
  EXPECT_FALSE(glyphs.build(*ImGui::GetIO().Fonts));
  h.frame();  // the default atlas still draws
}

TEST(Fonts, OnlyTheGlyphsTheNamesUseAreMergedIn) {
  const std::string font = ui::find_cjk_font();
  if (font.empty()) GTEST_SKIP() << "no CJK font installed (fonts-droid-fallback)";
  ImGuiHarness h;
  ImFontAtlas& atlas = *ImGui::GetIO().Fonts;
  ui::FontGlyphs glyphs(font);
  ASSERT_TRUE(glyphs.has_font());
  EXPECT_EQ(atlas.Fonts[0]->FindGlyphNoFallback(0x89D2), nullptr) << "the default font has none";
  EXPECT_FALSE(glyphs.want("plain.glb")) << "ASCII is the default font's";
  EXPECT_TRUE(glyphs.want(kName));
  EXPECT_FALSE(glyphs.want(kName)) << "nothing new the second time";
  EXPECT_EQ(glyphs.wanted(), 4u);
  ASSERT_TRUE(glyphs.build(atlas));
  ASSERT_EQ(atlas.Fonts.Size, 1) << "merged into the default font";
  const ImFont* f = atlas.Fonts[0];
  for (ImWchar c : {0x89D2, 0x8272, 0x8D70, 0x8DEF}) EXPECT_NE(f->FindGlyphNoFallback(c), nullptr);
  EXPECT_NE(f->FindGlyphNoFallback('A'), nullptr);
  EXPECT_EQ(f->FindGlyphNoFallback(0x732B), nullptr) << "U+732B was not asked for";
  EXPECT_FALSE(glyphs.build(atlas)) << "no rebuild without a new character";
  h.frame();

  // A Recent entry with a new character: noted by watch(), and the next build adds it.
  ui::ViewerState state;
  state.files.recent[0] = "/models/\xE7\x8C\xAB.glb";  // U+732B
  glyphs.watch(state, nullptr, "");
  EXPECT_TRUE(glyphs.dirty());
  ASSERT_TRUE(glyphs.build(atlas));
  EXPECT_NE(atlas.Fonts[0]->FindGlyphNoFallback(0x732B), nullptr);
  EXPECT_NE(atlas.Fonts[0]->FindGlyphNoFallback(0x89D2), nullptr) << "the earlier ones stay";
  glyphs.watch(state, nullptr, "");
  EXPECT_FALSE(glyphs.dirty()) << "the same names again: nothing to do";
  h.frame();
}

}  // namespace
}  // namespace sv::test
