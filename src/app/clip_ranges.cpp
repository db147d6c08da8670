#include "app/clip_ranges.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <utility>

#include <nlohmann/json.hpp>

#include "anim/clip_cut.h"
#include "anim/model.h"
#include "app/app_common.h"

namespace sv {
namespace {

constexpr std::uintmax_t kMaxSidecarBytes = 1u << 20;
constexpr std::size_t kMaxRanges = 10000;  // as many as the importer's clips

// Seconds, or frames with an `f` suffix; finite and >= 0.
bool parse_time(std::string_view text, double* v, bool* frames) {
  *frames = !text.empty() && (text.back() == 'f' || text.back() == 'F');
  if (*frames) text.remove_suffix(1);
  const std::string s(text);
  if (s.empty()) return false;
  char* end = nullptr;
  errno = 0;
  *v = std::strtod(s.c_str(), &end);
  return errno == 0 && end == s.c_str() + s.size() && std::isfinite(*v) && *v >= 0.0;
}

std::string range_number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.6g", v);
  return buf;
}

}  // namespace

std::string parse_clip_range(std::string_view spec, ClipRange* out) {
  const std::string why = "bad --range '" + std::string(spec) +
                          "' (want NAME:CLIP:START:END, times in seconds or frames as 12f)";
  const std::size_t first = spec.find(':');
  const std::size_t last = spec.rfind(':');
  if (first == std::string_view::npos || last == first) return why;
  const std::size_t middle = spec.rfind(':', last - 1);
  if (middle == std::string_view::npos || middle <= first) return why;
  ClipRange r;
  r.name = std::string(spec.substr(0, first));
  r.clip = std::string(spec.substr(first + 1, middle - first - 1));
  bool start_frames = false, end_frames = false;
  if (r.name.empty() || r.clip.empty() ||
      !parse_time(spec.substr(middle + 1, last - middle - 1), &r.start, &start_frames) ||
      !parse_time(spec.substr(last + 1), &r.end, &end_frames))
    return why;
  if (start_frames != end_frames) return why + ": START and END in the same unit";
  r.frames = start_frames;
  if (!(r.end > r.start)) return why + ": END must come after START";
  *out = std::move(r);
  return {};
}

std::string clip_range_text(const ClipRange& r) {
  const char* unit = r.frames ? "f" : "";
  return r.name + ":" + r.clip + ":" + range_number(r.start) + unit + ":" + range_number(r.end) +
         unit;
}

std::string add_clip_range(Model& model, const ClipRange& range) {
  const std::string what = "range '" + clip_range_text(range) + "': ";
  // By exact name, then by index (the command line's --clip rule); never the rest pose.
  const std::optional<int32_t> found =
      range.clip.empty() ? std::nullopt : resolve_clip(model, range.clip);
  const int clip = found && *found >= 0 ? *found : -1;
  if (clip < 0) return what + "no clip '" + range.clip + "'";
  for (const ClipRuntime& c : model.clips)
    if (c.name() == range.name) return what + "the model has a clip named '" + range.name + "'";
  const ClipRuntime& source = model.clips[static_cast<std::size_t>(clip)];
  double start = range.start, end = range.end;
  if (range.frames) {
    const double rate = clip_key_rate(source);
    if (rate <= 0.0)
      return what + "the clip's keys lie on no regular grid of frames: give seconds instead";
    start /= rate;
    end /= rate;
  }
  ClipRuntime cut;
  if (std::string e = cut_clip(source, model.skeleton, start, end, range.name, &cut); !e.empty())
    return what + e;
  model.clips.push_back(std::move(cut));
  // The morph weights' clips are one per clip, or none at all (anim/morph.h): a range keys none.
  if (!model.morph_clips.empty()) model.morph_clips.resize(model.clips.size());
  return {};
}

std::string ranges_sidecar_path(const std::string& model_path) {
  return model_path + ".ranges.json";
}

std::string read_ranges_sidecar(const std::string& path, std::vector<ClipRange>* out) {
  out->clear();
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return {};
  if (!std::filesystem::is_regular_file(path, ec)) return path + ": not a regular file";
  const std::uintmax_t size = std::filesystem::file_size(path, ec);
  if (ec || size > kMaxSidecarBytes) return path + ": a ranges file is at most 1 MiB of JSON";
  std::ifstream in(path, std::ios::binary);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (!in && !in.eof()) return path + ": cannot read it";
  const nlohmann::json doc = nlohmann::json::parse(text, nullptr, false);
  const std::string shape =
      path +
      ": not a ranges file ({\"ranges\": [{\"name\", \"clip\", \"start\", \"end\", "
      "\"unit\"}, ...]})";
  if (doc.is_discarded() || !doc.is_object() || !doc.contains("ranges") ||
      !doc["ranges"].is_array())
    return shape;
  if (doc["ranges"].size() > kMaxRanges) return path + ": more than 10000 ranges";
  for (const nlohmann::json& r : doc["ranges"]) {
    if (!r.is_object() || !r.contains("name") || !r["name"].is_string() || !r.contains("clip") ||
        !r["clip"].is_string() || !r.contains("start") || !r["start"].is_number() ||
        !r.contains("end") || !r["end"].is_number())
      return shape;
    ClipRange c;
    c.name = r["name"].get<std::string>();
    c.clip = r["clip"].get<std::string>();
    c.start = r["start"].get<double>();
    c.end = r["end"].get<double>();
    const std::string unit = r.contains("unit") && r["unit"].is_string()
                                 ? r["unit"].get<std::string>()
                                 : std::string("seconds");
    if (unit != "seconds" && unit != "frames")
      return path + ": unit '" + unit + "' (want seconds or frames)";
    c.frames = unit == "frames";
    if (c.name.empty() || c.clip.empty() || !std::isfinite(c.start) || !std::isfinite(c.end) ||
        c.start < 0.0 || !(c.end > c.start))
      return path + ": range '" + c.name + "' is not NAME, CLIP and 0 <= START < END";
    put_range(*out, c);
  }
  return {};
}

std::string write_ranges_sidecar(const std::string& path, std::span<const ClipRange> ranges) {
  nlohmann::json doc;
  doc["skinview"] = "clip ranges";
  doc["version"] = 1;
  doc["ranges"] = nlohmann::json::array();
  for (const ClipRange& r : ranges)
    doc["ranges"].push_back({{"name", r.name},
                             {"clip", r.clip},
                             {"start", r.start},
                             {"end", r.end},
                             {"unit", r.frames ? "frames" : "seconds"}});
  const std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out << doc.dump(1) << '\n';
    if (!out.flush()) return "cannot write " + tmp;
  }
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  if (ec) return "cannot write " + path + ": " + ec.message();
  return {};
}

void put_range(std::vector<ClipRange>& ranges, const ClipRange& range) {
  for (ClipRange& r : ranges)
    if (r.name == range.name) {
      r = range;
      return;
    }
  ranges.push_back(range);
}

std::string add_clip_ranges(Model& model, const std::string& model_path,
                            std::span<const ClipRange> given, std::vector<std::string>* notes,
                            std::vector<std::string>* sidecar_read) {
  const std::string sidecar = ranges_sidecar_path(model_path);
  std::vector<ClipRange> saved;
  if (std::string e = read_ranges_sidecar(sidecar, &saved); !e.empty()) {
    notes->push_back(e + "; its ranges are not added");
    saved.clear();
  }
  std::error_code ec;
  if (sidecar_read != nullptr && std::filesystem::exists(sidecar, ec))
    sidecar_read->push_back(sidecar);
  std::size_t added = 0;
  for (const ClipRange& r : saved) {
    bool replaced = false;
    for (const ClipRange& g : given) replaced |= g.name == r.name;
    if (replaced) continue;
    if (std::string e = add_clip_range(model, r); !e.empty()) {
      notes->push_back(sidecar + ": " + e + "; left out");
      continue;
    }
    ++added;
  }
  if (added > 0)
    notes->push_back(sidecar + ": added " + std::to_string(added) +
                     (added == 1 ? " saved clip range" : " saved clip ranges"));
  for (const ClipRange& r : given) {
    if (std::string e = add_clip_range(model, r); !e.empty()) return e;
    notes->push_back("--range " + clip_range_text(r) + ": added, " +
                     range_number(model.clips.back().duration()) + " s");
  }
  return {};
}

}  // namespace sv
