// Checks made on a file in the import worker before assimp reads a byte of it. The worker is a
// child process with limits, so a crash, a hang or a runaway allocation inside assimp already
// ends as one line in skinview; a check here exists only where it gives a clearly better answer
// than that line: an immediate message naming the problem instead of a time-out after
// --time-limit seconds, or instead of gigabytes allocated and zero-filled up to the memory
// limit. (The list, and what each check stopped, is in the README's reliability section.)
//
// Checks that mirror assimp's own parsers (they follow the text as assimp 5.2.5's reader walks
// it) run only when the worker runs that assimp (assimp_is_checked_version()); after an upgrade
// they stop, and the child's limits alone stand between a bad file and skinview until someone
// re-reads the new parsers. Checks that follow the format itself (a header's counts against the
// file's size) hold for any assimp and always run.
#pragma once

#include <string>

#include "import/source.h"

namespace sv {

// Whether the assimp this process runs is the one the parser mirrors were written against:
// 5.2.5 (Debian's 5.2.5 package reports 5.2.4, which is also accepted).
bool assimp_is_checked_version() noexcept;

// "" when `src` may be handed to assimp, otherwise why not (one line, without the file's name).
std::string pre_read_check(const Source& src);

}  // namespace sv
