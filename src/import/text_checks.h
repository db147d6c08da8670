// Checks on the text of MD5 and SMD files for what makes assimp 5.2.5's readers never return:
// the import worker would only be killed at --time-limit (two minutes by default) for a file
// these refuse at once, with the line that does it. Crashes and huge allocations in the same
// readers are left to the worker's limits (a one-line "crashed" or "ran out of memory").
// Internal to src/import; pre_read.cpp calls them on the bytes assimp will read, when the worker
// runs assimp 5.2.5 (pre_read.h).
#pragma once

#include <string>
#include <string_view>

namespace sv {

// id's MD5 (.md5mesh, .md5anim): NUL bytes, vertical tabs and form feeds (the section reader
// never consumes a form feed and adds sections until memory runs out), and numbers of 20 digits
// or more (the number reader stops on them without moving: a frame line holding one pushes
// values forever). "" when neither is in `text`, otherwise the reason.
std::string check_md5_text(std::string_view text);

// Valve SMD: NUL bytes, vertical tabs and form feeds (a NUL in a node name: the parser never
// returns), then the sections line by line: a stray line at the top level or a "nodes" section
// without its "end" makes the parser loop forever; an "end" as the file's last bytes is read
// past the buffer; a node index of 65,536 or more sizes the bone array by it. "" when the file
// is safe to hand to assimp.
std::string check_smd_text(std::string_view text);

}  // namespace sv
