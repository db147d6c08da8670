// Opening files from the outliner: a path box, a folder browser and the Recent list.
//
// The browser starts in the current model's folder; a single click selects an entry, a double
// click or Enter opens it (a folder is entered); folders come first, then the files whose
// extension the importer reads (the app fills FileState::extensions from the importer's
// supported_extensions(), i.e. assimp's own list: no list is kept here), each group sorted
// without regard to case; names starting with a dot are hidden.
//
// "Watch files" turns live reload on and off (what it watches, and how many reloads it made, show
// beside it); a failed reload's reason shows as a failed load's does, in red.
// A folder typed in the path box (Enter or Open) is not opened as a file: the browser opens
// there.
//
// "Add animations..." turns the browser to picking a file whose clips are added to the open model
// (app/animation_files.h): until Cancel, opening a file (the path box, a double click, Enter, a
// Recent entry) asks to add it instead.
//
// "Compare with..." does the same for a file to compare the open model with (another version of
// the rig: app/compare.h); the app shows the weight-change view once it is read and compared.
// The path box names the open model again after either; the file compared with is named below
// ("Compared with: NAME"), and a comparison in progress says so ("Comparing with NAME ... N s"),
// as a file being read does ("Loading NAME ... N s"): the name cut to fit, the seconds whole.
//
// Recent (the last kRecent files opened) survives restarts in $XDG_CONFIG_HOME/skinview/recent,
// or ~/.config/skinview/recent when XDG_CONFIG_HOME is unset or not absolute (the XDG base
// directory rule): one path a line, most recent first.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "ui/landmarks.h"

namespace sv::ui {

inline constexpr std::size_t kRecent = 10;

struct FolderEntry {
  std::string name;
  bool folder = false;
};

struct FileState {
  char open_path[1024] = {};                // the path box
  std::vector<std::string> extensions;      // lower-case, without the dot
  std::string browse_dir;                   // the folder shown; "" = not chosen yet
  std::string followed;                     // the model path browse_dir was last set from
  std::string listed_dir;                   // the folder `entries` belongs to
  std::vector<FolderEntry> entries;         // re-read only when the folder changes
  std::string list_error;                   // why the folder could not be read
  int32_t selected = -1;                    // index into entries; -1 none
  std::array<std::string, kRecent> recent;  // most recent first; "" = unused
  std::string recent_file;         // where Recent is kept ("" = nowhere: no config folder known)
  bool adding_animations = false;  // "Add animations..." is picking a file
  bool comparing = false;          // "Compare with..." is picking a file
  // "Watch files" (--watch): reload the model when it or a file it was read from changes on disk
  // (app/file_watch.h). The app reads it each frame.
  bool watch = false;
};

// What the File section asks for, about state.open_path.
enum class FileRequest : uint8_t { None, Open, AddAnimations, Compare };

// Whether `name`'s extension (after the last dot) is one of `extensions` (lower-case), ignoring
// case.
bool has_extension(std::string_view name, std::span<const std::string> extensions) noexcept;

// Sub-folders first, then files with one of `extensions`; each group sorted case-insensitively
// (ties by byte order); names with a leading dot left out. `error` gets why `dir` could not be
// read ("" when it could).
std::vector<FolderEntry> list_folder(const std::string& dir,
                                     std::span<const std::string> extensions, std::string* error);

// A Recent entry as the list shows it: the file name, then the folder it is in ("" when the path
// has none), both views into `path`.
struct RecentLabel {
  std::string_view name;
  std::string_view folder;
};
RecentLabel recent_label(std::string_view path) noexcept;

// Puts `path` first in state.recent (after a successful open), without duplicates.
void remember_recent(FileState& state, const std::string& path);

// $XDG_CONFIG_HOME/skinview/recent, else $HOME/.config/skinview/recent, else "".
std::string recent_file_path();
// Reads state.recent_file into state.recent (missing file: Recent stays empty). False when the
// file exists but cannot be read.
bool load_recent(FileState& state);
// Writes state.recent to state.recent_file, creating the folder. False (with `error`) on failure.
bool save_recent(const FileState& state, std::string* error);

// What the app tells the File section about reading files.
struct LoadStatus {
  std::string_view error;                        // the last failed load, shown in red
  std::string_view loading;                      // a file being read ("" when none)
  double loading_seconds = 0.0;                  // how long it has been read
  double loading_limit = 0.0;                    // when the read is given up on (0: never)
  std::span<const std::string> shader_warnings;  // shaders replaced by their embedded copy
  std::size_t watched = 0;                       // files "Watch files" watches now
  int reloads = 0;                               // reloads done since the model was opened
  // "Compare with...": the file being read or compared with ("" when none: the comparison runs
  // off the frame thread, the model stays usable meanwhile) and for how long; the file the
  // comparison shown was made with ("" when none).
  std::string_view comparing;
  double comparing_seconds = 0.0;
  std::string_view compared_with;
};

// Draws the File section's body: what the user asked for this frame. `current` is the open
// model's path ("" when none: nothing to add animations to).
FileRequest file_section(std::string_view current, const LoadStatus& status, FileState& state,
                         Landmarks& marks);

}  // namespace sv::ui
