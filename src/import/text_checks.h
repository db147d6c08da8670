// Checks made on the text of MD5 and SMD files before assimp 5.2.5 reads them: each follows the
// text the way assimp's parser walks it and refuses, with one line naming the place, what would
// make that parser read past its buffer, loop forever or size an array by a count the file
// cannot back (the list is at the top of text_checks.cpp). Internal to src/io; import.cpp reads
// the files (through read_at) and calls these.
#pragma once

#include <string>
#include <string_view>

namespace sv {

// Which of assimp's MD5 readers will see a text: an .md5mesh, an .md5anim, or both (a file held
// in memory: assimp's memory reader hands the same bytes to both).
enum class Md5Part { Mesh, Anim, Both };

// "" when assimp 5.2.5 can read `text` (an MD5 file, "MD5Version 10" first) as `part` without
// the failures above; otherwise the reason.
std::string check_md5_text(std::string_view text, Md5Part part);

// Valve SMD: the sections line by line (assimp 5.2.5 loops forever on a stray top-level line or
// a "nodes" section without its "end"), then every "triangles" section vertex by vertex (bone-link
// counts). "" when the file is safe to hand to assimp.
std::string check_smd_text(std::string_view text);

}  // namespace sv
