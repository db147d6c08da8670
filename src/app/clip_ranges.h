// Clip ranges: `--range NAME:CLIP:START:END` and the timeline's "Save range" name a part of a clip
// (START and END in seconds, or in frames with an `f` suffix: `stand:clip 0:0f:79f`), cut out of
// it as a clip of its own (anim/clip_cut.h) and appended to the model's clips after the added
// animation files' (app/animation_files.h): `--clip NAME`, `--layer`, `--crossfade`, `--dump`,
// `--record`, the clip combo, the Layers section and the crowd take it like any clip.
//
// Frames count at the clip's key rate (anim/clip_cut.h, clip_key_rate: character.b3d's keys are
// 60 a second, so 79f is 1.3167 s); a clip whose keys lie on no regular grid takes seconds only.
//
// The ranges saved in the window live beside the model in a small JSON sidecar, MODEL.ranges.json
// (`character.b3d.ranges.json`), read again at every load of the model by every command and the
// window, so they come back next time:
//
//   {"skinview": "clip ranges", "version": 1,
//    "ranges": [{"name": "stand", "clip": "clip 0", "start": 0, "end": 79, "unit": "frames"}, ...]}
//
// ("unit": "seconds" or "frames"). The sidecar is untrusted like any file: at most 1 MiB, every
// field checked; a sidecar that cannot be read, or a range of it that no longer fits its clip,
// is left out with a note in the import report, and the model still loads. A --range of the same
// name as a saved one replaces it; a --range that does not fit is an error (exit 2).
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace sv {

struct Model;

struct ClipRange {
  std::string name;
  std::string clip;  // a clip's name, or its index as digits
  double start = 0.0, end = 0.0;
  bool frames = false;  // start and end count frames at the clip's key rate, else seconds
};

// "NAME:CLIP:START:END"; CLIP may hold colons (`Armature|mixamo.com:Layer0`): NAME is up to the
// first one, START and END after the last two. "" or the one-line reason.
std::string parse_clip_range(std::string_view spec, ClipRange* out);

// The spec back as text ("stand:clip 0:0f:79f"), for messages.
std::string clip_range_text(const ClipRange& range);

// Cuts `range` out of `model`'s clip and appends it as a clip named range.name. "" or the
// one-line reason: no such clip, a name the model already has, times outside the clip, frames
// for a clip without a key rate.
std::string add_clip_range(Model& model, const ClipRange& range);

// MODEL.ranges.json.
std::string ranges_sidecar_path(const std::string& model_path);

// Reads a sidecar into *out (cleared first). A missing file is no ranges and no error. "" or the
// one-line reason.
std::string read_ranges_sidecar(const std::string& path, std::vector<ClipRange>* out);

// Writes `ranges` to `path` (a temporary file renamed over it). "" or the one-line reason.
std::string write_ranges_sidecar(const std::string& path, std::span<const ClipRange> ranges);

// `ranges` with `range` put in: replacing the one of the same name, else appended.
void put_range(std::vector<ClipRange>& ranges, const ClipRange& range);

// What a load adds after the animation files: the sidecar's ranges (beside `model_path`) and then
// `given` (--range: replacing a saved one of the same name). A saved range that does not fit
// becomes a note in *notes; a given one that does not fit is the returned one-line reason.
// `sidecar_read`, when given, gets the sidecar's path when there is one (live reload watches it).
std::string add_clip_ranges(Model& model, const std::string& model_path,
                            std::span<const ClipRange> given, std::vector<std::string>* notes,
                            std::vector<std::string>* sidecar_read = nullptr);

}  // namespace sv
