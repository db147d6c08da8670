// The checks behind text_checks.h. assimp 5.2.5's readers (code/AssetLib/MD5/MD5Parser.cpp,
// SMD/SMDLoader.cpp) and what in them never returns, found by fuzzing and confirmed on the
// Debian binary (tests/data/fuzz/README.md):
//
//   MD5 section reader  a form feed where a section starts is never consumed: it adds sections
//                       forever (3 GB and counting).
//   MD5 number reader   fast_atoreal_move gives up on an integer part of 20 digits or more
//                       (beyond 2^64) without moving: a frame line holding one loops forever,
//                       pushing values.
//   SMD parser          a line at the top level that is not a section keyword, and a "nodes"
//                       section without its "end", loop forever; so does a NUL byte in a name.
//
// Earlier versions of this file also walked MD5 files element by element for reads past the
// buffer, heap overflows and counts the file cannot back, and SMD vertex lines for bone-link
// counts: since assimp runs in a child process with limits those end as one line ("the
// importer crashed", "ran out of memory") and the walk was retired.
#include "import/text_checks.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <string>
#include <string_view>

#include "io/import.h"

namespace sv {
namespace {

// NUL, vertical tab and form feed: assimp's readers treat NUL and form feed as line ends in some
// loops and not in others (NUL: the SMD reader never returns; form feed: the MD5 section reader
// never returns), and the line checks here would split on a vertical tab where assimp does not.
std::string check_control_bytes(std::string_view text, const char* format) {
  const std::size_t at = text.find_first_of(std::string_view("\0\v\f", 3));
  if (at == std::string_view::npos) return {};
  const char* what = text[at] == '\0'   ? "a NUL byte"
                     : text[at] == '\v' ? "a vertical tab"
                                        : "a form feed";
  const auto line =
      1 + std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(at), '\n');
  return std::string(format) + " text holds " + what + " on line " + std::to_string(line);
}

// Valve SMD: assimp 5.2.5's parser loops forever on a line at the top level that is not a
// section keyword (a "triangles" line damaged into "versiones" was enough). Outside the
// sections ("nodes", "skeleton", "triangles", "vertexanimation" ... "end") only "version N",
// blank lines and // comments may appear. Its "nodes" section ends only at an "end" line: at
// the end of the file it loops forever, and an "end" that is the file's last three bytes is
// stepped over together with the buffer's terminating NUL (heap over-read).
std::string check_smd_sections(std::string_view text) {
  std::istringstream lines{std::string(text)};
  std::string line;
  bool in_section = false, in_nodes = false;
  std::size_t next_line = 0;  // offset of the line after the current one in `text`
  for (std::size_t n = 1; std::getline(lines, line); ++n) {
    const std::size_t line_start = next_line;
    next_line += line.size() + 1;
    std::istringstream words(line);
    std::string key;
    if (!(words >> key) || key.rfind("//", 0) == 0) continue;
    if (in_nodes && key == "end" && line_start + line.find("end") + 3 >= text.size())
      return "SMD nodes section's \"end\" is the last byte of the file (no line end after it)";
    if (std::count(line.begin(), line.end(), '"') % 2 != 0)
      return "SMD line " + std::to_string(n) + " has an unterminated string";
    if (in_section) {
      in_section = key != "end";
      // nodes: INDEX "NAME" PARENT
      if (in_section && in_nodes &&
          (line.find('"') == std::string::npos ||
           key.find_first_not_of("-0123456789") != std::string::npos))
        return "SMD line " + std::to_string(n) + " is not a node (INDEX \"NAME\" PARENT)";
      // assimp sizes its bone array by the largest node index (an overflowing one: 480 GB).
      if (in_section && in_nodes &&
          (key.size() > 7 || std::strtoll(key.c_str(), nullptr, 10) >= int64_t{kMaxJoints}))
        return "SMD line " + std::to_string(n) + " names node " + key.substr(0, 32) +
               ", above the limit of " + std::to_string(kMaxJoints) + " joints";
      in_nodes = in_nodes && in_section;
    } else if (key == "nodes" || key == "skeleton" || key == "triangles" ||
               key == "vertexanimation") {
      in_section = true;
      in_nodes = key == "nodes";
    } else if (key != "version") {
      return "SMD line " + std::to_string(n) + " is outside every section ('" + key.substr(0, 32) +
             "')";
    }
  }
  if (in_nodes) return "SMD nodes section has no \"end\" line";
  return {};
}

}  // namespace

std::string check_md5_text(std::string_view text) {
  if (std::string e = check_control_bytes(text, "MD5"); !e.empty()) return e;
  std::size_t run = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    run = std::isdigit(static_cast<unsigned char>(text[i])) ? run + 1 : 0;
    if (run == 20) {
      const auto line =
          1 + std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(i), '\n');
      return "MD5 line " + std::to_string(line) +
             ": a number of 20 digits or more (assimp 5.2.5's number reader never moves past "
             "it)";
    }
  }
  return {};
}

std::string check_smd_text(std::string_view text) {
  if (std::string e = check_control_bytes(text, "SMD"); !e.empty()) return e;
  return check_smd_sections(text);
}

}  // namespace sv
