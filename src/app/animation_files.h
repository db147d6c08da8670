// Animations from other files (--anim FILE, the window's "Add animations..."): each file is read
// like any model -- by the import worker in a child process, or from the model cache -- and its
// clips are retargeted onto the opened character (anim/retarget.h: joints matched by name once,
// here, at load) and appended to the character's clips. The result is one ordinary Model: the
// player, layers, cross-fades, --clip, --dump, --record and the window see no difference between
// a clip of the file and an added one.
//
// Why a new model rather than clips hung beside the Document: the Document is immutable after a
// load (its jobs' threads read it without a lock, and per-clip caches are sized from its clip
// count), and every consumer indexes Model::clips. So an added file makes a new load: the
// character read again (a model-cache hit) with the files added, and a new Document replaces the
// old one as any load does.
//
// The import report gets, per file, the clips added, the joints mapped, unmapped (character joints
// no track drives) and extra (the file's joints no character joint takes), by name, and what the
// retargeting did.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "anim/model.h"
#include "app/clip_ranges.h"
#include "io/import.h"

namespace sv {

struct AnimationSources {
  std::vector<std::string> files;  // in order; their clips follow the character's
  // --joint-map: (name in the animation file, name in the character) pairs.
  std::vector<std::pair<std::string, std::string>> joint_map;
  // The file `joint_map` came from ("" for none): every read with `files` reads it again, so an
  // edited map takes effect at the next (live) reload, and lists it among the files read.
  std::string joint_map_file;
  // --range: parts of clips added as clips after the files' (app/clip_ranges.h), after the ranges
  // saved beside the character, which every load reads.
  std::vector<ClipRange> ranges;
  bool empty() const noexcept { return files.empty() && ranges.empty(); }
};

// Reads a joint map: one JSON object of strings, {"file joint": "character joint", ...}, at most
// 1 MiB. "" or the one-line reason (naming `path`).
std::string read_joint_map(const std::string& path,
                           std::vector<std::pair<std::string, std::string>>* out);

// Adds the clips of `source` (read from `source_name`) to `target`, retargeted (each side stood
// upright by its file's convention: `target_z_up`, format_is_z_up(source_name)); report lines go
// to *notes. A clip whose name the target already has is named "STEM/NAME" (STEM: the file name
// without folder and extension), then "STEM/NAME 2", ... "" or the one-line reason: the file has
// no clips, or none of its joints matches one of the target's.
std::string add_clips_from(Model& target, bool target_z_up, const Model& source,
                           const std::string& source_name,
                           const std::vector<std::pair<std::string, std::string>>& joint_map,
                           std::vector<std::string>* notes);

// Reads every file of `sources` (import_model: the worker or the cache, under `options`) and adds
// its clips to character.model, its report lines to character.report.notes; then the clip ranges
// (the sidecar's beside `character_path`, then sources.ranges: app/clip_ranges.h). On failure
// returns the one-line reason and leaves `character` failed (model reset, error set): a character
// whose added animations did not load is not shown half-done. `files_read`, when given, gets each
// file read and the files its import read, and the joint map's file (live reload watches them),
// also when one fails. With files to add, sources.joint_map_file is read again (not
// sources.joint_map): a map edited since the last read is the one used.
std::string add_animation_files(ImportResult& character, const std::string& character_path,
                                const AnimationSources& sources, const ImportOptions& options,
                                std::vector<std::string>* files_read = nullptr);

struct Options;

// --anim, --joint-map and --range from the command line (the joint map read and checked, the
// ranges parsed). "" or the one-line reason.
std::string animation_sources(const Options& options, AnimationSources* out);

// What every headless command reads: options.model through import_model (worker or cache), then
// the --anim files added (add_animation_files). A failure is an ImportResult with `error` set.
ImportResult import_character(const Options& options);

}  // namespace sv
