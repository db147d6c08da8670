// Checks made on a file in the import worker before assimp reads a byte of it.
//
// The worker is a child process with limits, so a crash, a hang or a runaway allocation inside
// assimp already ends as one line in skinview. A check here exists only where it gives a clearly
// better answer than that line. Each of the fuzzer's kept inputs (tests/data/fuzz) was run
// through the worker with no check at all (4 GiB, 60 s): the crashes (8 inputs) ended at once as
// "crashed (SIGSEGV)", the single huge allocations (9) at once as "ran out of memory"; what was
// left were inputs that never end -- the worker killed at --time-limit, two minutes by default
// -- and one that grows until the memory limit. Those are what the checks below refuse at once,
// naming the line:
//
//   SMD   a stray line at the top level, a "nodes" section without its "end", a line in it that
//         is not a node, a NUL byte (10 inputs that hang); with the same walk, an "end" as the
//         file's last bytes (read past the buffer) and node indices of 65,536 or more (the bone
//         array sized by them)                                          text_checks.h
//   MD5   numbers of 20 digits or more (the frame reader never moves on: hangs), form feeds,
//         vertical tabs and NUL bytes (a form feed adds sections until memory runs out: 15 s and
//         1.6 GB before the limit stopped it); also in the .md5anim assimp reads beside an
//         .md5mesh                                                      text_checks.h
//   FBX   binary animation curve values past +-1e6 or not finite (assimp adds a key per 180
//         degrees: still generating keys when killed at 60 s), and array counts the stored bytes
//         cannot back
//   OFF   a header claiming more vertices or faces than the file can hold (invalid/OutOfMemory.off:
//         minutes, or all memory)
//   .md5camera files are refused (no model).
//
// Retired with the child process: the DirectX .x walk (x_check, 800 lines: counts and indices
// that made assimp allocate gigabytes or crash -- now "ran out of memory" or "crashed", at
// once), the element-by-element MD5 walk (reads past the buffer, heap overflows, counts) and the
// SMD bone-link counts (text_checks.h), the GLB chunk-length check (tinygltf, which reads every
// glTF file first for its interpolation modes, refuses the same files).
//
// The checks that mirror assimp's own parsers (SMD, MD5, FBX curves) run only when the worker runs
// the assimp they were written against (assimp_is_checked_version()); after an upgrade they stop,
// and the child's limits alone stand between a bad file and skinview until someone re-reads the
// new parsers. The format checks (OFF, .md5camera) hold for any assimp and always run.
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
