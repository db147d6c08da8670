#include "ui/files.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <system_error>

#include <imgui.h>

#include "ui/controls.h"
#include "ui/widgets.h"

namespace sv::ui {
namespace {

namespace fs = std::filesystem;

int compare_nocase(std::string_view a, std::string_view b) noexcept {
  const std::size_t n = std::min(a.size(), b.size());
  for (std::size_t i = 0; i < n; ++i) {
    const int ca = std::tolower(static_cast<unsigned char>(a[i]));
    const int cb = std::tolower(static_cast<unsigned char>(b[i]));
    if (ca != cb) return ca < cb ? -1 : 1;
  }
  return a.size() == b.size() ? 0 : (a.size() < b.size() ? -1 : 1);
}

void copy_path(FileState& s, const std::string& path) {
  std::snprintf(s.open_path, sizeof(s.open_path), "%s", path.c_str());
}

// Draws the folder list; returns true when a file was opened (its path in open_path).
bool browser(FileState& s, Landmarks& marks) {
  if (s.listed_dir != s.browse_dir) {
    s.entries = list_folder(s.browse_dir, s.extensions, &s.list_error);
    s.listed_dir = s.browse_dir;
    s.selected = -1;
  }
  bool opened = false;
  std::string next_dir;  // entered this frame (assigned only on a click: no per-frame allocation)
  if (ImGui::SmallButton("Up")) next_dir = fs::path(s.browse_dir).parent_path().string();
  marks.add_last_item("button:Up");
  ImGui::SameLine();
  ImGui::TextWrapped("%s", s.browse_dir.c_str());
  if (!s.list_error.empty()) error_text("%s", s.list_error.c_str());
  const float rows = std::clamp(static_cast<float>(s.entries.size()), 4.0f, 10.0f);
  if (ImGui::BeginChild("entries", ImVec2(0, rows * ImGui::GetTextLineHeightWithSpacing() + 8),
                        true)) {
    for (std::size_t i = 0; i < s.entries.size(); ++i) {
      const FolderEntry& e = s.entries[i];
      ImGui::PushID(static_cast<int>(i));
      if (fit_selectable(e.name, e.folder ? "/" : "", s.selected == static_cast<int32_t>(i),
                         ImGuiSelectableFlags_AllowDoubleClick, marks, "entry",
                         static_cast<int32_t>(i))) {
        s.selected = static_cast<int32_t>(i);
        if (ImGui::IsMouseDoubleClicked(0)) {
          if (e.folder) {
            next_dir = (fs::path(s.browse_dir) / e.name).string();
          } else {
            copy_path(s, (fs::path(s.browse_dir) / e.name).string());
            opened = true;
          }
        }
      }
      ImGui::PopID();
    }
    // Enter opens the selection while the list has the keyboard focus.
    if (s.selected >= 0 && static_cast<std::size_t>(s.selected) < s.entries.size() &&
        ImGui::IsWindowFocused() &&
        (ImGui::IsKeyPressed(kKeyEnter, false) || ImGui::IsKeyPressed(kKeyKeypadEnter, false))) {
      const FolderEntry& e = s.entries[static_cast<std::size_t>(s.selected)];
      if (e.folder) {
        next_dir = (fs::path(s.browse_dir) / e.name).string();
      } else {
        copy_path(s, (fs::path(s.browse_dir) / e.name).string());
        opened = true;
      }
    }
  }
  ImGui::EndChild();
  if (!next_dir.empty()) s.browse_dir = next_dir;
  return opened;
}

// "WHAT NAME ..." and the seconds after it on one line, in the warning colour: the figure stays
// whole at the end of the line (a 260-unit outliner once wrapped "0.4 s" in its middle) and the
// name is cut to fit before it (its tooltip whole). `mark` names the text, `seconds_mark` the
// figure.
void progress_line(const char* what, std::string_view name, double seconds, Landmarks& marks,
                   const char* mark, const char* seconds_mark) {
  char text[512];
  std::snprintf(text, sizeof(text), "%s %.*s ...", what, static_cast<int>(name.size()),
                name.data());
  char figure[32];
  std::snprintf(figure, sizeof(figure), "%.1f s", seconds);
  const float spacing = ImGui::GetStyle().ItemSpacing.x;
  const float room = ImGui::GetContentRegionAvail().x - spacing - ImGui::CalcTextSize(figure).x;
  fit_text(text, std::max(1.0f, room), warning_colour());
  marks.add_last_item(mark);
  ImGui::SameLine(0.0f, spacing);
  ImGui::TextColored(warning_colour(), "%s", figure);
  marks.add_last_item(seconds_mark);
}

}  // namespace

bool has_extension(std::string_view name, std::span<const std::string> extensions) noexcept {
  const std::size_t dot = name.rfind('.');
  if (dot == std::string_view::npos || dot + 1 == name.size()) return false;
  const std::string_view ext = name.substr(dot + 1);
  for (const std::string& e : extensions) {
    if (compare_nocase(ext, e) == 0) return true;
  }
  return false;
}

std::vector<FolderEntry> list_folder(const std::string& dir,
                                     std::span<const std::string> extensions, std::string* error) {
  std::vector<FolderEntry> out;
  error->clear();
  std::error_code ec;
  fs::directory_iterator it(dir, fs::directory_options::skip_permission_denied, ec);
  if (ec) {
    *error = "cannot read " + dir + ": " + ec.message();
    return out;
  }
  for (const fs::directory_iterator end; it != end; it.increment(ec)) {
    if (ec) break;
    std::string name = it->path().filename().string();
    if (name.empty() || name[0] == '.') continue;
    std::error_code e2;
    const bool folder = it->is_directory(e2);
    if (folder || has_extension(name, extensions)) out.push_back({std::move(name), folder});
  }
  std::sort(out.begin(), out.end(), [](const FolderEntry& a, const FolderEntry& b) {
    if (a.folder != b.folder) return a.folder;
    const int c = compare_nocase(a.name, b.name);
    return c != 0 ? c < 0 : a.name < b.name;
  });
  return out;
}

RecentLabel recent_label(std::string_view path) noexcept {
  const std::size_t slash = path.find_last_of('/');
  if (slash == std::string_view::npos) return {path, {}};
  // The root's files keep their "/" as the folder.
  return {path.substr(slash + 1), slash == 0 ? path.substr(0, 1) : path.substr(0, slash)};
}

void remember_recent(FileState& state, const std::string& path) {
  auto it = std::find(state.recent.begin(), state.recent.end(), path);
  if (it == state.recent.end()) it = state.recent.end() - 1;
  std::rotate(state.recent.begin(), it, it + 1);
  state.recent[0] = path;
}

std::string recent_file_path() {
  const char* xdg = std::getenv("XDG_CONFIG_HOME");
  if (xdg != nullptr && xdg[0] == '/') return std::string(xdg) + "/skinview/recent";
  const char* home = std::getenv("HOME");
  if (home != nullptr && home[0] != '\0') return std::string(home) + "/.config/skinview/recent";
  return {};
}

bool load_recent(FileState& state) {
  state.recent.fill({});
  if (state.recent_file.empty()) return true;
  std::error_code ec;
  if (!fs::exists(state.recent_file, ec)) return true;
  std::ifstream in(state.recent_file);
  if (!in) return false;
  std::size_t n = 0;
  for (std::string line; n < kRecent && std::getline(in, line);) {
    if (line.empty() ||
        std::find(state.recent.begin(), state.recent.end(), line) != state.recent.end()) {
      continue;
    }
    state.recent[n++] = line;
  }
  return true;
}

bool save_recent(const FileState& state, std::string* error) {
  if (state.recent_file.empty()) return true;
  std::error_code ec;
  fs::create_directories(fs::path(state.recent_file).parent_path(), ec);
  // Written beside and renamed over, so a crash mid-write never leaves half a list.
  const std::string tmp = state.recent_file + ".tmp";
  {
    std::ofstream out(tmp, std::ios::trunc);
    for (const std::string& r : state.recent) {
      if (!r.empty()) out << r << '\n';
    }
    if (!out) {
      *error = "cannot write " + tmp;
      return false;
    }
  }
  fs::rename(tmp, state.recent_file, ec);
  if (ec) {
    *error = "cannot write " + state.recent_file + ": " + ec.message();
    return false;
  }
  return true;
}

FileRequest file_section(std::string_view current, const LoadStatus& in, FileState& s,
                         Landmarks& marks) {
  if (s.followed != current && !current.empty()) {
    s.followed = std::string(current);
    s.browse_dir = fs::path(s.followed).parent_path().string();
  }
  if (s.browse_dir.empty()) {
    std::error_code ec;
    s.browse_dir = fs::current_path(ec).string();
  }
  // The path whole, with the Open button, is what the panel would need.
  want_width(ImGui::CalcTextSize(s.open_path).x + 2.0f * ImGui::GetStyle().FramePadding.x + 60.0f);
  ImGui::SetNextItemWidth(-60.0f);
  bool open = ImGui::InputText("##path", s.open_path, sizeof(s.open_path),
                               ImGuiInputTextFlags_EnterReturnsTrue);
  marks.add_last_item("input:path");
  ImGui::SameLine();
  open |= ImGui::Button(s.adding_animations ? "Add" : s.comparing ? "Compare" : "Open");
  marks.add_last_item("button:Open");
  if (current.empty()) s.adding_animations = s.comparing = false;
  if (s.adding_animations) {
    if (ImGui::SmallButton("Cancel")) s.adding_animations = false;
    marks.add_last_item("button:Cancel adding");
    ImGui::SameLine();
    warning_text("Pick a file whose clips to add to the model");
    ImGui::SetNextItemOpen(true);
  } else if (s.comparing) {
    if (ImGui::SmallButton("Cancel")) s.comparing = false;
    marks.add_last_item("button:Cancel comparing");
    ImGui::SameLine();
    warning_text("Pick another version of the model to compare it with");
    ImGui::SetNextItemOpen(true);
  } else if (!current.empty()) {
    if (ImGui::Button("Add animations...")) {
      s.adding_animations = true;
      ImGui::SetNextItemOpen(true);
    }
    marks.add_last_item("button:Add animations");
    // Beside it, to keep the browser where it was.
    ImGui::SameLine();
    ImGui::Checkbox("Watch files", &s.watch);
    marks.add_last_item("check:Watch files");
    if (ImGui::IsItemHovered()) {
      ImGui::SetTooltip(
          "Reload the model when it, or a file it was read from (buffers, textures, .mtl,\n"
          "added animations), changes on disk and has kept still for half a second (--watch).\n"
          "Clip, time, selection, layers and camera stay where they still apply.\n"
          "Now: %zu files watched, %d reloads since the model was opened.",
          in.watched, in.reloads);
    }
    if (ImGui::Button("Compare with...")) {
      s.comparing = true;
      ImGui::SetNextItemOpen(true);
    }
    marks.add_last_item("button:Compare with");
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip(
          "Compare the model with another version of it (--compare): joints added, removed,\n"
          "renamed and moved, clips changed, and its vertices painted by how much their\n"
          "weights changed (the Weight change view, with a legend).");
  }
  // A folder typed in the box opens in the browser (there is nothing to read in a folder).
  if (open && s.open_path[0] != '\0') {
    std::error_code ec;
    if (fs::is_directory(s.open_path, ec)) {
      s.browse_dir = fs::path(s.open_path).lexically_normal().string();
      if (s.browse_dir.size() > 1 && s.browse_dir.back() == '/') s.browse_dir.pop_back();
      open = false;
      ImGui::SetNextItemOpen(true);
    }
  }
  if (ImGui::TreeNode("Browse")) {
    marks.add_last_item("node:Browse");
    open |= browser(s, marks);
    ImGui::TreePop();
  } else {
    marks.add_last_item("node:Browse");
  }
  const bool any_recent = !s.recent[0].empty();
  if (any_recent && ImGui::TreeNode("Recent")) {
    marks.add_last_item("node:Recent");
    for (std::size_t i = 0; i < s.recent.size() && !s.recent[i].empty(); ++i) {
      ImGui::PushID(static_cast<int>(i));
      // The file name first (what tells entries apart), then its folder, dimmed.
      const RecentLabel r = recent_label(s.recent[i]);
      if (fit_selectable(r.name, r.folder, false, 0, marks, "recent", static_cast<int32_t>(i),
                         s.recent[i].c_str())) {
        copy_path(s, s.recent[i]);
        open = true;
      }
      ImGui::PopID();
    }
    ImGui::TreePop();
  } else if (any_recent) {
    marks.add_last_item("node:Recent");
  }
  for (const std::string& w : in.shader_warnings) warning_text("%s", w.c_str());
  if (!in.loading.empty()) {
    const RecentLabel l = recent_label(in.loading);
    progress_line("Loading", l.name, in.loading_seconds, marks, "text:Loading",
                  "text:Loading seconds");
    if (in.loading_limit > 0.0) {
      warning_text("(given up on after %g s, --time-limit; the model shown stays)",
                   in.loading_limit);
    }
  }
  if (!in.comparing.empty()) {
    const RecentLabel c = recent_label(in.comparing);
    progress_line("Comparing with", c.name, in.comparing_seconds, marks, "text:Comparing",
                  "text:Comparing seconds");
  }
  if (!in.compared_with.empty()) {
    const RecentLabel c = recent_label(in.compared_with);
    fit_textf("Compared with: %.*s", static_cast<int>(c.name.size()), c.name.data());
    marks.add_last_item("text:Compared with");
  }
  if (!in.error.empty()) {
    error_text("%.*s", static_cast<int>(in.error.size()), in.error.data());
  }
  if (!open) return FileRequest::None;
  if (s.comparing) {
    s.comparing = false;
    return FileRequest::Compare;
  }
  if (!s.adding_animations) return FileRequest::Open;
  s.adding_animations = false;
  return FileRequest::AddAnimations;
}

}  // namespace sv::ui
