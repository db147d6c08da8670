// The Outliner's Export section: the Record control (the clip as the window shows it, to a folder
// of PNGs or a video, with --record's options) and "Export pose (.glb)" (the posed mesh as
// --export-pose writes it). The panel only edits the fields and asks; the app does the work
// (app/window_record.h, app/export_pose.h) and reports back through ExportStatus. Export pose
// names the full path it writes under its field and asks (a popup) before replacing a file.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "ui/landmarks.h"

namespace sv::ui {

// The fields as typed; an empty field is the command line's default (record.h).
struct RecordFields {
  char out[1024] = "recording";  // a folder, or a file ending in .mp4 / .webm
  char fps[32] = "30";
  char from[32] = "";
  char to[32] = "";  // "" = the clip's end
  char size[32] = "1280x720";
  char orbit[32] = "";  // degrees per second
  char loops[32] = "";
};

struct ExportFields {
  char out[1024] = "pose.glb";
  bool skinned = false;  // keep the skeleton and the weights (--export-pose-skinned)
  // The file "Export pose" writes: export_target(out, the working folder), shown under the
  // field; recomputed only when `out` changes (target_for is the `out` it was made from).
  std::string target;
  std::string target_for;
  bool target_exists = false;  // when the button was clicked: asks before overwriting
};

// The full path "Export pose" writes for the typed `out`: relative to `cwd`; an empty field is
// "pose.glb"; an existing folder gets "pose.glb" inside it.
std::string export_target(std::string_view out, std::string_view cwd);

// What the app reports.
struct ExportStatus {
  bool recording = false;
  int64_t drawn = 0, written = 0, total = 0;  // frames
  std::string_view record_message;
  bool record_error = false;
  std::string_view export_message;
  bool export_error = false;
};

struct ExportRequests {
  bool record = false;         // start recording with RecordFields
  bool cancel_record = false;  // cancel the recording in progress
  bool export_pose = false;    // write ExportFields::target (asked before overwriting it)
};

// Draws the section (inside the Outliner); `model` false greys the buttons out.
ExportRequests export_section(bool model, const ExportStatus& status, RecordFields& record,
                              ExportFields& exported, Landmarks& marks);

}  // namespace sv::ui
