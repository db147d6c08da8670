// The Outliner's Export section: the Record control (the clip as the window shows it, to a folder
// of PNGs or a video, with --record's options) and "Export pose (.glb)" (the posed mesh as
// --export-pose writes it). The panel only edits the fields and asks; the app does the work
// (app/window_record.h, app/export_pose.h) and reports back through ExportStatus.
#pragma once

#include <cstdint>
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
};

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
  bool export_pose = false;    // write ExportFields::out
};

// Draws the section (inside the Outliner); `model` false greys the buttons out.
ExportRequests export_section(bool model, const ExportStatus& status, RecordFields& record,
                              ExportFields& exported, Landmarks& marks);

}  // namespace sv::ui
