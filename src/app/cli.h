// skinview's command line: one options struct and one CLI11 parser that every mode shares.
//
// The core options (model file, --info, --dump and its pose options) are registered by
// add_core_options(); the viewer adds its own options to the same CLI::App next to them, so
// there is one parser, one --help and one place that turns bad syntax into exit status 2.
//
// Exit statuses: 0 success, 2 bad input (a one-line message on stderr naming the file and the
// reason: missing file, unknown format, file assimp rejects, empty scene, unknown clip, negative
// or NaN time, bad option syntax).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <glm/vec3.hpp>

#include "io/import.h"
#include "skin/skin_method.h"

// CLI11 (<CLI/CLI.hpp>) is the costliest header in the tree: ~10 s of compiler time per file
// that includes it. Only the files that build or run the parser include it (cli.cpp, main.cpp,
// viewer.cpp, record.cpp, crowd_frame.cpp); the rest see the class name.
namespace CLI {
class App;
}  // namespace CLI

namespace sv {

struct BlendSpecs;
struct DumpRequest;
struct ViewerOptions;

inline constexpr int kExitOk = 0;
inline constexpr int kExitBadInput = 2;

struct Options {
  std::string model;       // the model file (positional)
  bool info = false;       // --info: print what the file holds
  bool dump = false;       // --dump: write a pose as JSON
  std::string clip;        // --clip NAME|INDEX ("" = the first clip)
  std::string time;        // --time T (seconds, as typed; checked by run_dump)
  std::string times;       // --times T1,T2,... (as typed)
  bool rest_pose = false;  // --rest-pose: every joint at its rest (node) transform, no clip
  bool bind_pose = false;  // --bind-pose: joints where the inverse bind matrices put them
                           // (the mesh exactly as stored), no clip
  std::vector<std::string> layers;  // --layer SPEC, in order (app/blend_options.h)
  std::string crossfade;            // --crossfade SPEC
  std::vector<std::string> anims;   // --anim FILE: files whose clips are added (animation_files.h)
  std::string joint_map;            // --joint-map FILE: their joint names -> the model's (JSON)
  std::vector<std::string> ranges;  // --range NAME:CLIP:START:END (app/clip_ranges.h), as typed
  std::string output = "-";         // -o/--output: dump file, "-" = stdout
  std::string export_pose;          // --export-pose OUT.glb: the posed mesh as a static glTF
  bool export_skinned = false;      // --export-pose-skinned: keep the skeleton and the weights
  double time_limit = 120;      // --time-limit: seconds one file's import may take (0 = no limit)
  double memory_limit_mib = 0;  // --memory-limit: MiB one file's import may take (0 = default)
  bool no_cache = false;        // --no-cache: always run the importer, store nothing
  // --texture-path DIR (repeatable): folders besides the model's own that textures may be read
  // from (import/images.h)
  std::vector<std::string> texture_paths;
  std::string method = "lbs";  // --method lbs|dqs|cor: the skinning method (skin/skin_method.h)
  int influences = 4;          // --influences 4|8: weights per vertex skinned (anim/model.h)
  std::vector<std::string> thumbnail;  // --thumbnail IN OUT SIZE (as typed; see thumbnail_request)
  // --compare A B, or MODEL --compare B (app/compare.h): what changed between two rigs.
  std::vector<std::string> compare;
  bool json = false;          // --json: --compare's report as JSON
  bool fail_on_diff = false;  // --fail-on-diff: --compare exits 1 when the rigs differ
};

// `line` with every control character written as an escape (\n, \t, \r, \xHH) and a backslash
// as \\: a file name holding a newline cannot split a one-line error message.
std::string escape_line(std::string_view line);
// Prints "skinview: LINE" (escape_line) and one newline on stderr: every one-line error.
void print_error_line(std::string_view line);

// The import worker's bounds and the model cache's folder from the options.
ImportOptions import_options(const Options& options);

// Registers the core options on `app`, writing into `options`, and --version. The help's footer
// lists the window's mouse and keyboard controls (ui/controls.h).
void add_core_options(CLI::App& app, Options& options);

// --thumbnail IN OUT SIZE, what a file manager's thumbnailer runs (packaging/skinview.thumbnailer):
// a --screenshot of IN (framed as on load, at time 0 of the first clip) written to OUT as a
// SIZE x SIZE PNG. Maps it onto options->model, viewer->screenshot and viewer->size; returns ""
// or the one-line reason (SIZE not a whole number in 1..4096, a MODEL or --screenshot given too).
std::string thumbnail_request(Options* options, ViewerOptions* viewer);

// The model the window opens when none is named: share/skinview/default.glb of an installed
// skinview (found from the executable's own folder), else the source tree's assets/default.glb;
// "" when neither is there.
std::string default_model();

// Parses argv with `app`. Returns -1 when the program should go on, otherwise the exit status
// to return at once (0 after --help, 2 after a one-line syntax error on stderr).
int parse_command_line(CLI::App& app, int argc, char** argv);

// --method as parsed (CLI11 has checked the spelling): LBS when it names nothing.
SkinMethod skin_method_of(const Options& options) noexcept;

// The headless commands. Each prints its own one-line error and returns the exit status.
int run_info(const Options& options);
int run_dump(const Options& options);

// The pose --dump and --export-pose write for `model`: --method into request->skin (CoR's
// centres computed into *centers, which must outlive the request), --rest-pose / --bind-pose /
// --clip into request->clip and bind_pose, and the blend (its layers' time=T counted from
// `base_time`) into request->blend. Returns "" or the one-line reason (a clip, layer or joint
// that is not there, centres that cannot be computed).
std::string resolve_pose(const Options& options, const Model& model, const BlendSpecs& blend,
                         double base_time, DumpRequest* request,
                         std::vector<std::vector<glm::vec3>>* centers);

}  // namespace sv
