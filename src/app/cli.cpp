// The core command-line options and their parser (see cli.h).
#include "app/cli.h"

#include <charconv>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <system_error>

#include <CLI/CLI.hpp>

#include "app/viewer.h"
#include "io/model_cache.h"
#include "ui/controls.h"

namespace sv {

void add_core_options(CLI::App& app, Options& o) {
  app.description(
      "skinview: a viewer for skinned, animated 3D models (glTF, FBX, COLLADA, X, MD5, SMD, "
      "BVH, ... anything assimp reads).");
  app.add_option("model", o.model, "Model file to open");
  auto* info = app.add_flag("--info", o.info,
                            "Print the meshes, joint tree, clips and import report, then exit");
  auto* dump = app.add_flag("--dump", o.dump, "Write a posed model as JSON (see -o), then exit");
  info->excludes(dump);
  auto* export_pose = app.add_option("--export-pose", o.export_pose,
                                     "Write the posed mesh (--clip, --time, the blend) as a static "
                                     "glTF binary OUT.glb, then exit");
  export_pose->excludes(info);
  export_pose->excludes(dump);
  app.add_flag("--export-pose-skinned", o.export_skinned,
               "With --export-pose: keep the skeleton and the weights (a glTF skin) with the pose "
               "as the new rest pose")
      ->needs(export_pose);
  auto* clip = app.add_option("--clip", o.clip, "Clip to pose, by name or index (default: 0)");
  auto* time =
      app.add_option("--time", o.time, "Time in seconds (default 0; clamped into [0, duration])");
  auto* times = app.add_option("--times", o.times, "Several times, comma-separated: T1,T2,...");
  time->excludes(times);
  export_pose->excludes(times);
  auto* rest = app.add_flag("--rest-pose", o.rest_pose,
                            "Pose every joint at its rest transform (the file's node transforms), "
                            "no clip");
  auto* bind =
      app.add_flag("--bind-pose", o.bind_pose,
                   "Pose every joint where the inverse bind matrices put it: the mesh "
                   "exactly as stored, no clip (differs from the rest pose in some files)");
  rest->excludes(clip);
  bind->excludes(clip);
  rest->excludes(bind);
  // The old name posed the rest transforms, which is not the bind pose: refused with a pointer
  // to the two options named for what they do.
  app.add_flag_callback(
         "--bind",
         [] {
           throw CLI::ValidationError(
               "--bind",
               "is gone: use --rest-pose (the file's node transforms, what --bind did) "
               "or --bind-pose (where the inverse bind matrices put the joints)");
         })
      ->group("");
  auto* layer = app.add_option("--layer", o.layers,
                               "A layer over the --clip base, repeatable, in order: "
                               "CLIP[:weight=W][:time=T][:mask=JOINT][:additive][:ref=T]")
                    ->allow_extra_args(false);
  auto* crossfade = app.add_option("--crossfade", o.crossfade,
                                   "Cross-fade as the base instead of --clip: "
                                   "FROM:TO:START:DURATION[:sync]");
  for (CLI::Option* pose : {rest, bind}) {
    pose->excludes(layer);
    pose->excludes(crossfade);
  }
  crossfade->excludes(clip);
  app.add_option("--anim", o.anims,
                 "A file whose animation clips are added to MODEL's (repeatable): its joints "
                 "matched by name, without namespaces and common prefixes (mixamorig:, "
                 "Armature|, Character1_), and retargeted where the rest poses differ; the added "
                 "clips work wherever a clip does")
      ->allow_extra_args(false);
  app.add_option("--joint-map", o.joint_map,
                 "A JSON object pairing --anim files' joint names with MODEL's: "
                 "{\"file joint\": \"model joint\", ...}, for what the names do not match");
  app.add_option(
         "--range", o.ranges,
         "NAME:CLIP:START:END (repeatable): the part of CLIP from START to END (seconds, or "
         "frames at the clip's key rate with an f suffix: 0f:79f) as a clip named NAME, "
         "usable wherever a clip is (--clip NAME, --layer, --dump, --record, the window); "
         "ranges saved in the window (MODEL.ranges.json) come back with every load")
      ->allow_extra_args(false);
  app.add_option("--method", o.method,
                 "Skinning method for --dump, --screenshot and the window: lbs (linear blending), "
                 "dqs (dual quaternions), cor (optimised centres of rotation) (default lbs)")
      ->check(CLI::IsMember({"lbs", "dqs", "cor"}));
  app.add_option("--influences", o.influences,
                 "Weights per vertex that skin, with every --method, for --dump, --screenshot, "
                 "--record, --info and the window: 4 (the 4 largest, renormalised) or 8 (the 8 "
                 "largest, where the file has more than 4) (default 4)")
      ->check(CLI::IsMember({4, 8}));
  app.add_option("-o,--output", o.output, "Where --dump writes its JSON ('-' = stdout)");
  app.add_option("--time-limit", o.time_limit,
                 "Seconds the import of a file may take before it is given up on (its process "
                 "killed; exit status 2 on the command line, an error in the viewer; 0: none)")
      ->check(CLI::NonNegativeNumber);
  app.add_option("--memory-limit", o.memory_limit_mib,
                 "MiB of memory the import of a file may take (default: half the physical "
                 "memory, at most 4096)")
      ->check(CLI::NonNegativeNumber);
  app.add_flag("--no-cache", o.no_cache,
               "Read the file with the importer even when the model cache holds it, and cache "
               "nothing (the cache: $XDG_CACHE_HOME/skinview, else ~/.cache/skinview; 1 GiB)");
  app.add_option("--texture-path", o.texture_paths,
                 "A folder whose tree textures may be read from, besides the model's own folder "
                 "(repeatable; a texture elsewhere, after symbolic links, is not loaded and the "
                 "import report names it)")
      ->allow_extra_args(false)
      ->check(CLI::ExistingDirectory);
  auto* thumbnail = app.add_option("--thumbnail", o.thumbnail,
                                   "Write a SIZE x SIZE PNG picture of IN to OUT (for file "
                                   "managers: skinview.thumbnailer), then exit")
                        ->expected(3)
                        ->type_name("IN OUT SIZE");
  for (CLI::Option* other : {info, dump, export_pose, times}) thumbnail->excludes(other);
  auto* compare = app.add_option("--compare", o.compare,
                                 "Compare two versions of a rig, A and B (or MODEL with B): joints "
                                 "added, removed, renamed and moved; per-vertex weight changes; "
                                 "clips added, removed and changed (a text report; with "
                                 "--screenshot, A painted by weight change)")
                      ->expected(1, 2)
                      ->allow_extra_args(false)
                      ->type_name("[A] B");
  for (CLI::Option* other : {info, dump, export_pose, thumbnail}) compare->excludes(other);
  app.add_flag("--json", o.json, "With --compare: the report as JSON (schema in the README)")
      ->needs(compare);
  app.add_flag("--fail-on-diff", o.fail_on_diff,
               "With --compare: exit status 1 when the two rigs differ (0 when they do not)")
      ->needs(compare);
  app.set_version_flag("--version", std::string("skinview ") + SKINVIEW_VERSION);
  app.footer("\n" + ui::controls_text());
}

std::string escape_line(std::string_view line) {
  static const char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(line.size());
  for (const char ch : line) {
    const auto c = static_cast<unsigned char>(ch);
    if (c == '\\')
      out += "\\\\";
    else if (c == '\n')
      out += "\\n";
    else if (c == '\r')
      out += "\\r";
    else if (c == '\t')
      out += "\\t";
    else if (c < 0x20 || c == 0x7f) {
      const char hex[4] = {'\\', 'x', kHex[c >> 4], kHex[c & 15]};
      out.append(hex, 4);
    } else
      out += ch;
  }
  return out;
}

void print_error_line(std::string_view line) {
  const std::string text = "skinview: " + escape_line(line) + "\n";
  std::fwrite(text.data(), 1, text.size(), stderr);
  std::fflush(stderr);
}

ImportOptions import_options(const Options& o) {
  ImportOptions io;
  io.time_limit_s = o.time_limit;
  io.memory_limit_bytes = static_cast<uint64_t>(o.memory_limit_mib * 1048576.0);
  if (!o.no_cache) io.cache_dir = ModelCache::default_dir();
  for (const std::string& dir : o.texture_paths) {
    std::error_code ec;
    const std::filesystem::path absolute = std::filesystem::absolute(dir, ec);
    io.texture_paths.push_back(ec ? dir : absolute.string());
  }
  return io;
}

SkinMethod skin_method_of(const Options& options) noexcept {
  return parse_skin_method(options.method).value_or(SkinMethod::Lbs);
}

std::string thumbnail_request(Options* options, ViewerOptions* viewer) {
  const std::vector<std::string>& t = options->thumbnail;
  if (t.size() != 3) return "--thumbnail takes IN OUT SIZE";
  if (!options->model.empty()) return "--thumbnail takes its model as IN, not as MODEL";
  if (!viewer->screenshot.empty()) return "--thumbnail and --screenshot both write a picture";
  const std::string& size = t[2];
  int n = 0;
  const auto [end, ec] = std::from_chars(size.data(), size.data() + size.size(), n);
  if (ec != std::errc() || end != size.data() + size.size() || n < 1 || n > 4096)
    return "bad --thumbnail SIZE '" + size + "' (want a whole number of pixels, 1 to 4096)";
  options->model = t[0];
  viewer->screenshot = t[1];
  viewer->size = size + "x" + size;
  return {};
}

std::string default_model() {
  auto present = [](const std::filesystem::path& p) {
    std::error_code ec;
    return std::filesystem::is_regular_file(p, ec);
  };
#ifdef SKINVIEW_DATA_RELATIVE
  // An installed skinview: bin/skinview next to share/skinview/.
  std::error_code ec;
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    const std::filesystem::path installed =
        (self.parent_path() / SKINVIEW_DATA_RELATIVE / "default.glb").lexically_normal();
    if (present(installed)) return installed.string();
  }
#endif
#ifdef SKINVIEW_DEFAULT_MODEL
  if (present(SKINVIEW_DEFAULT_MODEL)) return SKINVIEW_DEFAULT_MODEL;
#endif
  return {};
}

int parse_command_line(CLI::App& app, int argc, char** argv) {
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);
    std::string what = e.what();
    while (!what.empty() && what.back() == '\n') what.pop_back();
    print_error_line(what + " (see --help)");
    return kExitBadInput;
  }
  return -1;
}

}  // namespace sv
