// `skinview --compare A B` (or `MODEL --compare B`): what changed between two versions of a rig
// (skin/rig_compare.h), as a text report or, with --json, as JSON for scripts. Both files are read
// as every command reads a model (import_character: the import worker or the model cache, the
// ranges saved beside each; --anim and --joint-map add clips to A only).
//
// The JSON (schema version 1; keys are only ever added):
//   {"skinview": "rig comparison", "version": 1, "different": bool,
//    "a": {"file", "joints", "meshes", "vertices", "clips"}, "b": {...},
//    "modelSize": A's size (model units),
//    "tolerances": {"translation" (model units), "translationOfSize", "degrees", "scale",
//                   "weight", "seconds"},
//    "joints": {"added": [B's names], "removed": [A's names],
//               "renamed": [{"from", "to"}],
//               "moved": [{"name", "nameB", "rest": DELTA, "bind": DELTA}]},
//        DELTA = {"distance" (model units), "degrees", "scale"}
//    "weights": {"compared", "changed", "maxChange", "max": {"mesh", "meshName", "vertex"} | null,
//                "meshes": [{"mesh", "meshB", "name", "match": "index" | "nearest position",
//                            "verticesA", "verticesB", "farthestMatch", "changed", "maxChange",
//                            "changedVertices": [{"vertex", "change"}]}],
//                "meshesAdded": [B's mesh indices], "meshesRemoved": [A's mesh indices]},
//    "clips": {"same", "added": [names], "removed": [names],
//              "changed": [{"name", "duration": [A, B], "keys": [A, B],
//                           "tracks": [{"joint", "jointB", "path": "translation" | "rotation" |
//                                       "scale", "keyed": [A, B], "keys": [A, B],
//                                       "timesDiffer", "maxDifference"}]}]}}
// Vertices are the file's indices (Mesh::source_vertex), changedVertices by index; a change is
// the L1 distance of the vertex's joint->weight maps (0..2).
#pragma once

#include <string>

#include "skin/rig_compare.h"

namespace sv {

struct Model;
struct Options;

// The command line's budget is the window's (CompareBudget's defaults, skin/rig_compare.h), not a
// larger one: they already hold any two models within the importer's limits in vertices and keys,
// and what they refuse (the quadratic cases: joints without namesakes on both sides by the
// thousand, thousands of clips over thousands of joints, a search tree defeated by equidistant
// points) is what a hostile file makes, and a script comparing the files of a library (CI, as
// `skinview check` does) would hang on it as surely as the window would freeze.
inline constexpr CompareBudget kCommandLineCompareBudget{};

// Which two files: `--compare A B`, or MODEL with `--compare B`. "" or the one-line reason.
std::string compare_files(const Options& options, std::string* a, std::string* b);

// Reads B for a comparison with A's options (no --anim: those are A's) and compares (within
// kCommandLineCompareBudget). "" or the one-line reason (B could not be read, or the comparison
// was over the budget: RigComparison::problem).
std::string compare_with(const Options& options, const Model& a, const std::string& b_path,
                         RigComparison* out);

// The report, as text or as JSON (the schema above).
std::string compare_text(const RigComparison& r, const Model& a, const Model& b,
                         const std::string& a_name, const std::string& b_name);
std::string compare_json(const RigComparison& r, const Model& a, const Model& b,
                         const std::string& a_name, const std::string& b_name);

// --compare: prints the report; 0 when compared (--fail-on-diff: 1 when they differ), 2 with a
// one-line message when either file cannot be read or the comparison is over the budget
// ("comparison too large: ...").
int run_compare(const Options& options);

}  // namespace sv
