// JSON read back by the tests (skinview --dump, --exit-json, check reports, GLB chunks), parsed
// in one translation unit, json_file.cpp, that is compiled with optimisation in every build.
//
// Why: nlohmann's parser is templates, instantiated wherever json::parse is called; in the
// sanitizer pass (Debug, -O0, ASan + UBSan) a test file's own copy of it parsed a 1.2 MB --dump
// at a few MB/s, and that parsing was ~70% of the CPU time of the dump-heavy command-line tests
// (BlendCli.BlendsAreContinuousAtFadeEndsAndLoopSeams: 35 s of a 4.5-minute pass). Here it is
// compiled at -O2 with the sanitizers still on; the tests only walk the parsed values.
#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace sv::test {

// The JSON in `text`; a value that is_discarded() when it is not valid JSON (as
// json::parse(text, nullptr, false)).
nlohmann::json parse_json(std::string_view text);

// The JSON in the file at `path`; is_discarded() when the file cannot be read or is not valid JSON.
nlohmann::json read_json_file(const std::string& path);

}  // namespace sv::test
