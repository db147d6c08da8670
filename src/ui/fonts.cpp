#include "ui/fonts.h"

#include <filesystem>
#include <system_error>
#include <utility>

#include <imgui_internal.h>  // ImTextCharFromUtf8

#include "anim/model.h"
#include "ui/viewer_state.h"

namespace sv::ui {

std::string find_cjk_font() {
  // fonts-droid-fallback first (scripts/common.sh installs it), then other common Debian ones.
  static constexpr const char* kPaths[] = {
      "/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf",
      "/usr/share/fonts-droid-fallback/truetype/DroidSansFallback.ttf",
      "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc",
      "/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc",
  };
  for (const char* p : kPaths) {
    std::error_code ec;
    if (std::filesystem::is_regular_file(p, ec)) return p;
  }
  return {};
}

FontGlyphs::FontGlyphs(std::string font_path, float size)
    : path_(std::move(font_path)), size_(size) {
  wanted_.Clear();
  // Dear ImGui asserts on a font file it cannot open: a missing one is no font at all.
  std::error_code ec;
  if (!path_.empty() && !std::filesystem::is_regular_file(path_, ec)) path_.clear();
}

bool FontGlyphs::want(std::string_view text) {
  bool added = false;
  const char* s = text.data();
  const char* end = s + text.size();
  while (s < end) {
    unsigned int c = 0;
    const int n = ImTextCharFromUtf8(&c, s, end);
    if (n <= 0) break;
    s += n;
    // Latin-1 is the default font's own; ImWchar holds the Basic Multilingual Plane.
    if (c <= 0xFF || c > 0xFFFF || wanted_.GetBit(c)) continue;
    wanted_.AddChar(static_cast<ImWchar>(c));
    ++count_;
    added = true;
  }
  if (added && has_font()) dirty_ = true;
  return added;
}

bool FontGlyphs::build(ImFontAtlas& atlas) {
  if (!dirty_ || !has_font()) return false;
  dirty_ = false;
  ranges_.clear();
  wanted_.BuildRanges(&ranges_);
  atlas.Clear();
  atlas.AddFontDefault();
  ImFontConfig merge;
  merge.MergeMode = true;
  merge.PixelSnapH = true;
  // The default font is 13 px with a 1-pixel baseline offset; the CJK glyphs sit on it.
  if (atlas.AddFontFromFileTTF(path_.c_str(), size_, &merge, ranges_.Data) == nullptr ||
      !atlas.Build()) {
    path_.clear();  // unreadable: do not try again
    atlas.Clear();
    atlas.AddFontDefault();
    atlas.Build();
  }
  return true;
}

void FontGlyphs::watch(const ViewerState& state, const Model* model, std::string_view path) {
  if (state.model_generation != seen_generation_) {
    seen_generation_ = state.model_generation;
    want(path);
    if (model != nullptr) {
      for (const std::string& n : model->skeleton.names) want(n);
      for (const Mesh& m : model->meshes) want(m.name);
      for (const ClipRuntime& c : model->clips) want(c.name());
    }
  }
  const FileState& f = state.files;
  if (f.listed_dir != seen_dir_) {
    seen_dir_ = f.listed_dir;
    want(f.listed_dir);
    for (const FolderEntry& e : f.entries) want(e.name);
  }
  if (f.recent[0] != seen_recent_) {
    seen_recent_ = f.recent[0];
    for (const std::string& r : f.recent) want(r);
  }
}

}  // namespace sv::ui
