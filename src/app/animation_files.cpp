#include "app/animation_files.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>

#include <nlohmann/json.hpp>

#include "anim/retarget.h"
#include "app/cli.h"
#include "app/viewer_scene.h"

namespace sv {

namespace {

constexpr std::uintmax_t kMaxJointMapBytes = 1u << 20;

// "a, b, c" of the names of `joints` in `sk`.
std::string name_list(const Skeleton& sk, const std::vector<int32_t>& joints) {
  std::string out;
  for (const int32_t j : joints) {
    if (!out.empty()) out += ", ";
    out += sk.names[static_cast<std::size_t>(j)];
  }
  return out;
}

bool has_clip(const Model& m, const std::string& name) {
  for (const ClipRuntime& c : m.clips)
    if (c.name() == name) return true;
  return false;
}

std::string unique_clip_name(const Model& m, const std::string& name, const std::string& stem) {
  if (!name.empty() && !has_clip(m, name)) return name;
  const std::string base = stem + "/" + (name.empty() ? std::string("clip") : name);
  if (!has_clip(m, base)) return base;
  for (int i = 2;; ++i) {
    std::string numbered = base + " " + std::to_string(i);
    if (!has_clip(m, numbered)) return numbered;
  }
}

std::string figure(float v) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.4g", static_cast<double>(v));
  return buf;
}

}  // namespace

std::string read_joint_map(const std::string& path,
                           std::vector<std::pair<std::string, std::string>>* out) {
  out->clear();
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec))
    return path + ": no such file (--joint-map wants a JSON file)";
  const std::uintmax_t size = std::filesystem::file_size(path, ec);
  if (ec || size > kMaxJointMapBytes) return path + ": a joint map is at most 1 MiB of JSON";
  std::ifstream in(path, std::ios::binary);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (!in && !in.eof()) return path + ": cannot read it";
  const nlohmann::json doc = nlohmann::json::parse(text, nullptr, false);
  if (doc.is_discarded() || !doc.is_object())
    return path + ": not a JSON object of names ({\"file joint\": \"character joint\", ...})";
  for (const auto& [key, value] : doc.items()) {
    if (!value.is_string())
      return path + ": the value of '" + key + "' is not a string (a joint name)";
    out->emplace_back(key, value.get<std::string>());
  }
  return {};
}

std::string add_clips_from(Model& target, bool target_z_up, const Model& source,
                           const std::string& source_name,
                           const std::vector<std::pair<std::string, std::string>>& joint_map,
                           std::vector<std::string>* notes) {
  if (source.clips.empty()) return source_name + ": no animation clips to add";
  const JointMatch match = match_joints(target.skeleton, source.skeleton, joint_map);
  if (match.mapped == 0)
    return source_name + ": none of its " + std::to_string(source.skeleton.size()) +
           " joints matches a joint of the model (names, without namespaces and common prefixes; "
           "--joint-map pairs the rest)";
  RetargetAxes axes;
  axes.target_z_up = target_z_up;
  axes.source_z_up = format_is_z_up(source_name);
  const RetargetPlan plan =
      plan_retarget(target.skeleton, source.skeleton, match, source.clips, axes);
  const std::string stem = std::filesystem::path(source_name).stem().string();
  std::vector<ClipRuntime> added;
  std::vector<int32_t> dropped;
  std::string names;
  for (const ClipRuntime& clip : source.clips) {
    std::string name = unique_clip_name(target, clip.name(), stem);
    for (const ClipRuntime& a : added)  // two clips of one file with one name
      if (a.name() == name) name = unique_clip_name(target, name + " 2", stem);
    ClipRuntime out;
    if (std::string e = retarget_clip(clip, plan, target.skeleton, name, &out, &dropped);
        !e.empty())
      return source_name + ": clip '" + clip.name() + "': " + e;
    names += (names.empty() ? "'" : ", '") + name + "'";
    added.push_back(std::move(out));
  }
  const std::size_t count = added.size();
  for (ClipRuntime& c : added) target.clips.push_back(std::move(c));
  // The morph weights' clips are one per clip, or none at all (anim/morph.h): the added clips
  // key no morph weight.
  if (!target.morph_clips.empty()) target.morph_clips.resize(target.clips.size());

  notes->push_back(source_name + ": added " + std::to_string(count) +
                   (count == 1 ? " clip: " : " clips: ") + names);
  std::string line = source_name + ": joints: " + std::to_string(match.mapped) + " mapped";
  if (match.by_map > 0 || match.by_key > 0) {
    line += " (";
    if (match.by_map > 0) line += std::to_string(match.by_map) + " by the joint map";
    if (match.by_map > 0 && match.by_key > 0) line += ", ";
    if (match.by_key > 0) {
      line += std::to_string(match.by_key) + " by name without namespace";
      if (!match.source_prefix.empty()) line += ", prefix '" + match.source_prefix + "'";
      if (!match.target_prefix.empty())
        line += ", the model's prefix '" + match.target_prefix + "'";
      line += " and case";
    }
    line += ")";
  }
  line += ", " + std::to_string(match.unmapped.size()) + " unmapped";
  if (!match.unmapped.empty()) line += " (" + name_list(target.skeleton, match.unmapped) + ")";
  line += ", " + std::to_string(match.extra.size()) + " extra";
  if (!match.extra.empty()) line += " (" + name_list(source.skeleton, match.extra) + ")";
  notes->push_back(line);
  for (const std::string& unused : match.map_unused)
    notes->push_back(source_name + ": joint map entry " + unused + " names no joint");
  const RetargetFigures& f = plan.figures;
  if (f.rest_differs > 0) {
    std::string r = source_name + ": rest poses differ at " + std::to_string(f.rest_differs) +
                    " mapped joints: retargeted (rotations relative to each side's rest)";
    if (f.hip >= 0 && f.hip_scale != 1.0f)
      r += "; root motion on '" + target.skeleton.names[static_cast<std::size_t>(f.hip)] +
           "' scaled by " + figure(f.hip_scale) + " (hip heights " + figure(f.target_hip_height) +
           " / " + figure(f.source_hip_height) + ")";
    notes->push_back(r);
  }
  if (!dropped.empty()) {
    std::sort(dropped.begin(), dropped.end());
    dropped.erase(std::unique(dropped.begin(), dropped.end()), dropped.end());
    notes->push_back(source_name + ": translation keys of " + std::to_string(dropped.size()) +
                     " joints not used, their bone lengths differ (the model keeps its own): " +
                     name_list(target.skeleton, dropped));
  }
  return {};
}

std::string add_animation_files(ImportResult& character, const std::string& character_path,
                                const AnimationSources& sources, const ImportOptions& options,
                                std::vector<std::string>* files_read) {
  if (!character.ok()) return character.error;
  auto fail = [&](std::string e) {
    character.model.reset();
    character.error = e;
    return e;
  };
  std::vector<std::pair<std::string, std::string>> joint_map = sources.joint_map;
  if (!sources.files.empty() && !sources.joint_map_file.empty()) {
    if (files_read != nullptr) files_read->push_back(sources.joint_map_file);
    if (std::string e = read_joint_map(sources.joint_map_file, &joint_map); !e.empty())
      return fail(e);
  }
  for (const std::string& file : sources.files) {
    ImportResult anim = import_model(file, options);
    if (files_read != nullptr) {
      files_read->push_back(file);
      files_read->insert(files_read->end(), anim.provenance.read_files.begin(),
                         anim.provenance.read_files.end());
    }
    if (!anim.ok()) return fail(anim.error);
    if (std::string e = add_clips_from(*character.model, format_is_z_up(character_path),
                                       *anim.model, file, joint_map, &character.report.notes);
        !e.empty())
      return fail(e);
  }
  if (std::string e = add_clip_ranges(*character.model, character_path, sources.ranges,
                                      &character.report.notes, files_read);
      !e.empty())
    return fail(e);
  if (std::string e = character.model->validate(); !e.empty())
    return fail("the model with its added animations is inconsistent: " + e);
  return {};
}

std::string animation_sources(const Options& options, AnimationSources* out) {
  out->files = options.anims;
  out->joint_map.clear();
  out->ranges.clear();
  for (const std::string& spec : options.ranges) {
    ClipRange r;
    if (std::string e = parse_clip_range(spec, &r); !e.empty()) return e;
    put_range(out->ranges, r);
  }
  out->joint_map_file = options.joint_map;
  if (options.joint_map.empty()) return {};
  return read_joint_map(options.joint_map, &out->joint_map);
}

ImportResult import_character(const Options& options) {
  AnimationSources sources;
  if (std::string e = animation_sources(options, &sources); !e.empty()) {
    ImportResult failed;
    failed.error = e;
    return failed;
  }
  const ImportOptions io = import_options(options);
  ImportResult r = import_model(options.model, io);
  add_animation_files(r, options.model, sources, io);
  return r;
}

}  // namespace sv
