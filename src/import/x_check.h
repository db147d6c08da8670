// The check made on DirectX .x files before assimp 5.2.5 reads them. assimp's XFileParser sizes
// arrays by the counts the file declares (vertices, faces, normals, texture coordinates, colours,
// skin weights) before it reads one element, and its importer indexes those arrays by indices
// it never checks. A count the file cannot back makes it allocate and zero-fill gigabytes before
// it fails (or, in binary files, loop billions of times reading zeros past the end). The check
// walks the file token by token as the parser does and refuses, with one line, any count that
// cannot fit in the bytes left or that passes import.h's limits, and the indices that would make
// the importer read or write outside its arrays (the list is at the top of x_check.cpp).
// Compressed X files are inflated first, as assimp does, and their inflated data walked.
// Internal to src/io; import.cpp calls it on every file assimp will read as an X file.
#pragma once

#include <string>
#include <string_view>

namespace sv {

// `bytes` is the whole file. "" when assimp 5.2.5 can be handed it: a text ("txt "), binary
// ("bin ") or compressed ("tzip", "bzip": inflated here as assimp inflates it) X file that
// passes, or anything the walk does not follow: a file that is not X ("xof " missing), or one
// assimp itself rejects with an error before any of the failures above. Otherwise the reason,
// naming the object ("X mesh 'Cube' declares 400000000 vertices (line 57) but ...").
std::string check_x_file(std::string_view bytes);

}  // namespace sv
