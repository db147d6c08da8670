// `skinview check PATH...`: the rig checks of check_rules.h over a whole asset library.
//
// Each PATH is a model file, or a folder searched recursively for the files skinview opens (by
// extension: supported_extensions(), io/import.h; a file named on the command line is checked
// whatever its name). Every file goes through the import worker and the model cache exactly as
// --info and the window load it (import_model, io/import.h): a file that crashes the importer,
// hangs past --time-limit or runs out of memory is a finding for that file ("import"), never the
// end of the run. --jobs N files are in flight at once (each import its own child process, the
// rules on the thread that waited for it); a progress line is drawn while stdout is a terminal.
//
// --shard I/N keeps the files whose path hashes (FNV-1a 64 of the path as listed) to I-1 modulo
// N, so N runs with the same arguments check every file exactly once; `check --merge A.json
// B.json ...` joins their JSON reports into one (and writes its JUnit file or summary).
//
// Exit status: 0 no rule with severity error failed, 1 one did (or a file could not be
// imported), 2 the run could not proceed (bad arguments or rules file, a PATH that does not
// exist, no model file found, the import worker missing, a report that cannot be written).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace sv {

inline constexpr int kExitCheckFailed = 1;

// FNV-1a, 64 bits: the same on every machine and build (std::hash is not).
uint64_t path_hash(std::string_view path) noexcept;
// Whether `path` falls in shard `index` (1-based) of `count`.
bool in_shard(std::string_view path, uint32_t index, uint32_t count) noexcept;
// Parses "I/N" with 1 <= I <= N <= 100000. False when malformed.
bool parse_shard(const std::string& text, uint32_t* index, uint32_t* count);

// The model files under `paths` (see above), sorted, each once; `extensions` lower case without
// the dot. "" or the one-line reason (a PATH that does not exist or cannot be listed).
std::string collect_model_files(const std::vector<std::string>& paths,
                                const std::vector<std::string>& extensions,
                                std::vector<std::string>* files);

// The whole command; argv[0] is "check".
int run_check(int argc, char** argv);

}  // namespace sv
