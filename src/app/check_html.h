// `skinview check --html DIR`: a page per run (DIR/index.html) listing every file with findings,
// and for each file with an error a thumbnail (DIR/thumbs/N.png) in the view that shows the
// problem: the weight-sum view for weights that do not sum to 1 or unweighted vertices, the
// influences view for too many influences, the clip, time and method of the largest volume change,
// the rest pose for a rest/bind mismatch, the skeleton for joint problems.
//
// Thumbnails are made by the headless renderer, `skinview FILE --screenshot OUT.png` run as a
// child process (this same executable; the model cache makes its import cheap after the check's):
// a GL crash or a missing display costs a thumbnail, never the page. Without a display the page
// says so in place of each picture. Each child is killed after kThumbnailSeconds.
#pragma once

#include <string>
#include <vector>

#include "app/check_report.h"

namespace sv {

inline constexpr double kThumbnailSeconds = 120.0;
inline constexpr int kThumbnailSize = 256;

// The view options of `record`'s thumbnail, chosen by its first error finding (its first finding
// when it has no error): e.g. {"--view", "weight-sum"}, {"--clip", "walk", "--time", "0.5",
// "--method", "dqs"}, {"--rest-pose", "--skeleton"}.
std::vector<std::string> thumbnail_view(const FileRecord& record);

// Writes DIR/index.html (and DIR/thumbs/) for `report`, rendering with the executable `exe`,
// `jobs` thumbnails at a time. "" or the one-line reason the page could not be written (a failed
// thumbnail is noted on the page, not an error).
std::string write_check_html(const CheckReport& report, const std::string& dir,
                             const std::string& exe, unsigned jobs);

}  // namespace sv
