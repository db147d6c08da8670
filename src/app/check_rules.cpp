// `skinview check`'s rules (see check_rules.h).
#include "app/check_rules.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <toml++/toml.h>
#include <nlohmann/json.hpp>

#include "anim/model.h"
#include "io/import.h"
#include "skin/rotation_centers.h"
#include "skin/skin_difference.h"
#include "skin/skinned_pose.h"
#include "skin/volume.h"
#include "skin/weight_stats.h"

namespace sv {
namespace {

constexpr std::array<const char*, kCheckRuleCount> kIds = {
    "max-joints",   "max-influences", "weight-sum",    "unweighted-vertices",
    "unused-bones", "joint-scale",    "rotation-keys", "keys-past-end",
    "rest-bind",    "volume-change",  "joint-names",   "texture-paths"};

// A scale component at or below this is "zero or negative".
constexpr float kZeroScale = 1e-6f;
// Joint names longer than this are not matched against the pattern (joint-names).
constexpr std::size_t kMaxMatchedName = 1024;
// Scale keys sampled per file at most (joint-scale): a bound in counts, not a hope.
constexpr std::size_t kMaxScaleSamples = std::size_t{1} << 20;

std::string percent(double fraction) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%+.2f%%", fraction * 100.0);
  return buf;
}

std::string rule_number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4g", v);
  return buf;
}

// Collects one rule's findings, at most kMaxFindingsPerRule (the last says how many more).
class Findings {
 public:
  Findings(const CheckRules& rules, std::vector<Finding>* out) : rules_(rules), out_(out) {}
  // Starts a rule; false when it is disabled (skip its work).
  bool begin(CheckRule r) {
    flush();
    rule_ = r;
    count_ = 0;
    return rules_[r].enabled;
  }
  void add(Finding f) {
    ++count_;
    if (count_ >= kMaxFindingsPerRule) {
      last_ = std::move(f);
      return;
    }
    f.rule = check_rule_id(rule_);
    f.severity = rules_[rule_].severity;
    out_->push_back(std::move(f));
  }
  void flush() {
    if (count_ < kMaxFindingsPerRule) return;
    Finding f;
    if (count_ == kMaxFindingsPerRule) {
      f = std::move(last_);
    } else {
      f.message = std::to_string(count_ - kMaxFindingsPerRule + 1) + " more like the above";
    }
    f.rule = check_rule_id(rule_);
    f.severity = rules_[rule_].severity;
    out_->push_back(std::move(f));
    count_ = 0;
  }

 private:
  const CheckRules& rules_;
  std::vector<Finding>* out_;
  CheckRule rule_ = CheckRule::MaxJoints;
  std::size_t count_ = 0;
  Finding last_;
};

const std::string& joint_name(const Model& m, int32_t joint) {
  static const std::string none;
  return joint >= 0 && static_cast<std::size_t>(joint) < m.skeleton.size()
             ? m.skeleton.names[static_cast<std::size_t>(joint)]
             : none;
}

// Influences a vertex had in the file: its kept weights, and past 4 what the flags say.
uint32_t vertex_influences(const Mesh& mesh, std::size_t v) {
  uint32_t n = 0;
  for (int i = 0; i < 4; ++i) n += mesh.weights[v][i] > 0.0f ? 1 : 0;
  if (mesh.has_influences8())
    for (int i = 0; i < 4; ++i) n += mesh.weights2[v][i] > 0.0f ? 1 : 0;
  const uint8_t flags = v < mesh.vertex_flags.size() ? mesh.vertex_flags[v] : 0;
  if ((flags & kVertexOver8) != 0) n = std::max(n, 9u);
  return n;
}

void max_influences(const CheckRules& rules, const Model& m, const WeightStats& stats,
                    Findings& out) {
  const uint32_t limit = rules.influence_limit;
  if (stats.max_influences <= limit) return;
  for (const Mesh& mesh : m.meshes) {
    if (!mesh.skinned || mesh.max_influences <= limit) continue;
    uint64_t over = 0;
    for (std::size_t v = 0; v < mesh.vertex_count(); ++v)
      over += vertex_influences(mesh, v) > limit ? 1 : 0;
    Finding f;
    f.message = std::to_string(over) + " vertices have more than " + std::to_string(limit) +
                " influences (up to " + std::to_string(mesh.max_influences) + ")";
    f.mesh = mesh.name;
    f.vertices = static_cast<int64_t>(over);
    out.add(std::move(f));
  }
}

void weight_sums(const CheckRules& rules, const Model& m, Findings& out) {
  for (const Mesh& mesh : m.meshes) {
    if (!mesh.skinned || mesh.source_weight_sums.empty()) continue;
    uint64_t off = 0;
    float worst = 1.0f, worst_error = 0.0f;
    for (std::size_t v = 0; v < mesh.source_weight_sums.size(); ++v) {
      const uint8_t flags = v < mesh.vertex_flags.size() ? mesh.vertex_flags[v] : 0;
      if ((flags & kVertexUnweighted) != 0) continue;  // the unweighted rule's
      const float error = std::abs(mesh.source_weight_sums[v] - 1.0f);
      if (!(error <= rules.weight_sum_tolerance)) {
        ++off;
        if (!(error <= worst_error)) {
          worst_error = error;
          worst = mesh.source_weight_sums[v];
        }
      }
    }
    if (off == 0) continue;
    Finding f;
    f.message = std::to_string(off) + " vertices' weights do not sum to 1 within " +
                rule_number(rules.weight_sum_tolerance) + " (worst sum " + rule_number(worst) + ")";
    f.mesh = mesh.name;
    f.vertices = static_cast<int64_t>(off);
    out.add(std::move(f));
  }
}

void unweighted(const Model& m, Findings& out) {
  for (const Mesh& mesh : m.meshes) {
    if (!mesh.skinned) continue;
    uint64_t n = 0;
    for (uint8_t flags : mesh.vertex_flags) n += (flags & kVertexUnweighted) != 0 ? 1 : 0;
    if (n == 0) continue;
    Finding f;
    f.message = std::to_string(n) + " vertices have no weight (bound rigidly to the mesh's node)";
    f.mesh = mesh.name;
    f.vertices = static_cast<int64_t>(n);
    out.add(std::move(f));
  }
}

void unused_bones(const Model& m, Findings& out) {
  // A bone is needed when it or a joint below it skins a vertex (a root or a spine joint that
  // carries the weighted bones below it is structure, not waste): parents come first, so one
  // backward pass lifts each joint's use to its parent.
  const std::vector<JointInfluence> influence = joint_influences(m);
  const Skeleton& sk = m.skeleton;
  std::vector<uint8_t> used(sk.size(), 0);
  for (std::size_t j = sk.size(); j-- > 0;) {
    used[j] |= j < influence.size() && influence[j].vertices > 0 ? 1 : 0;
    if (used[j] && sk.parents[j] >= 0) used[static_cast<std::size_t>(sk.parents[j])] = 1;
  }
  std::vector<uint8_t> said(sk.size(), 0);
  for (const Mesh& mesh : m.meshes) {
    if (!mesh.skinned) continue;
    for (int32_t j : mesh.skin_joints) {
      if (j < 0 || static_cast<std::size_t>(j) >= sk.size()) continue;
      const auto ju = static_cast<std::size_t>(j);
      if (used[ju] || said[ju]) continue;
      said[ju] = 1;
      Finding f;
      f.message = "bone '" + joint_name(m, j) + "' skins no vertex, nor does any joint below it";
      f.mesh = mesh.name;
      f.joint = joint_name(m, j);
      out.add(std::move(f));
    }
  }
}

bool bad_scale(const glm::vec3& s) {
  return !(s.x > kZeroScale) || !(s.y > kZeroScale) || !(s.z > kZeroScale);
}

void joint_scales(const Model& m, Findings& out) {
  const Skeleton& sk = m.skeleton;
  for (std::size_t j = 0; j < sk.size(); ++j) {
    if (!bad_scale(sk.rest[j].scale)) continue;
    const glm::vec3 s = sk.rest[j].scale;
    Finding f;
    f.message = "joint '" + sk.names[j] + "' has scale (" + rule_number(s.x) + ", " +
                rule_number(s.y) + ", " + rule_number(s.z) + ") in its rest pose";
    f.joint = sk.names[j];
    out.add(std::move(f));
  }
  std::size_t samples = 0;
  for (const ClipRuntime& clip : m.clips) {
    for (std::size_t j = 0; j < sk.size() && samples < kMaxScaleSamples; ++j) {
      const std::span<const double> times = clip.key_times(j, TrackPath::Scale);
      std::size_t bad = 0;
      double first = 0.0;
      glm::vec3 first_scale{1.0f};
      for (double t : times) {
        if (++samples > kMaxScaleSamples) break;
        Transform local;
        if (!sample_joint(clip, t, j, local) || !bad_scale(local.scale)) continue;
        if (bad++ == 0) {
          first = t;
          first_scale = local.scale;
        }
      }
      if (bad == 0) continue;
      Finding f;
      f.message = std::to_string(bad) + " scale key(s) of joint '" + sk.names[j] +
                  "' are zero or negative, first (" + rule_number(first_scale.x) + ", " +
                  rule_number(first_scale.y) + ", " + rule_number(first_scale.z) + ")";
      f.joint = sk.names[j];
      f.clip = clip.name();
      f.time = first;
      out.add(std::move(f));
    }
  }
}

// The rest pose against the bind pose (the mesh as stored), both skinned on the CPU by LBS, over
// the skinned meshes; the largest move, relative to the model's size.
void rest_bind(const CheckRules& rules, const Model& m, Findings& out) {
  bool any = false;
  for (const Mesh& mesh : m.meshes) any |= mesh.skinned;
  if (!any) return;
  SkinnedPose pose(m);
  if (!pose.evaluate(m, PoseMode::Bind, 0.0) || !pose.skin_cpu(m)) return;
  std::vector<std::vector<glm::vec3>> bind(m.meshes.size());
  for (std::size_t i = 0; i < m.meshes.size(); ++i)
    if (m.meshes[i].skinned) {
      const std::span<const glm::vec3> p = pose.skinned_positions(i);
      bind[i].assign(p.begin(), p.end());
    }
  if (!pose.evaluate(m, PoseMode::Rest, 0.0) || !pose.skin_cpu(m)) return;
  DifferenceStats stats;
  stats.model_size = model_size(m);
  stats.threshold = rules.rest_bind_tolerance * stats.model_size;
  std::vector<float> distances;
  for (std::size_t i = 0; i < m.meshes.size(); ++i) {
    if (!m.meshes[i].skinned) continue;
    distances.resize(bind[i].size());
    if (!vertex_distances(pose.skinned_positions(i), bind[i], distances)) return;
    accumulate(stats, static_cast<uint32_t>(i), distances);
  }
  if (stats.over == 0) return;
  const Mesh& mesh = m.meshes[stats.mesh];
  // The joint that moves the farthest vertex: its largest weight's.
  int32_t joint = -1;
  if (stats.vertex < mesh.weights.size()) {
    const glm::vec4 w = mesh.weights[stats.vertex];
    int k = 0;
    for (int i = 1; i < 4; ++i) k = w[i] > w[k] ? i : k;
    const uint16_t b = mesh.joints[stats.vertex][k];
    if (b < mesh.skin_joints.size()) joint = mesh.skin_joints[b];
  }
  Finding f;
  f.message = "the rest pose moves " + std::to_string(stats.over) +
              " vertices from the bind pose by more than " +
              rule_number(rules.rest_bind_tolerance) + " of the model's size (at most " +
              rule_number(stats.relative()) + ")";
  f.mesh = mesh.name;
  f.joint = joint_name(m, joint);
  f.vertices = static_cast<int64_t>(stats.over);
  out.add(std::move(f));
}

void volume_changes(const CheckRules& rules, const Model& m, Findings& out) {
  if (m.meshes.empty() || m.clips.empty()) return;
  const std::vector<MeshShape> shapes = mesh_shapes(m);
  if (std::none_of(shapes.begin(), shapes.end(),
                   [](MeshShape s) { return s == MeshShape::Closed; }))
    return;
  // Poses x measured vertices over every clip and method of the file: each clip is capped by
  // VolumeBudget, the file by CheckRules::volume_work (a file of 10,000 clips must not hold a job
  // for hours). What is left unmeasured is said in one finding.
  std::size_t work = 0, skipped = 0;
  std::string first_skipped;
  for (SkinMethod method : rules.volume_methods) {
    SkinChoice skin;
    skin.method = method;
    std::vector<std::vector<glm::vec3>> centers;
    if (method == SkinMethod::Cor) {
      centers = compute_rotation_centers(m, false);
      if (centers.size() != m.meshes.size()) continue;
      skin.centers = centers;
    }
    for (std::size_t c = 0; c < m.clips.size(); ++c) {
      if (work > rules.volume_work) {
        if (skipped++ == 0) first_skipped = m.clips[c].name();
        continue;
      }
      const VolumeFigures v = clip_volume_figures(m, static_cast<int32_t>(c), skin, shapes);
      if (v.status != VolumeStatus::Ok) continue;
      for (std::size_t k = 0; k < v.meshes.size(); ++k)
        if (v.meshes[k].measured) work += v.poses * m.meshes[k].vertex_count();
      // A mesh whose morph weights the clip animates changes shape on purpose (a blink, a
      // mouth): its volume is not the skinning's to keep.
      std::vector<uint8_t> morphed(m.meshes.size(), 0);
      if (c < m.morph_clips.size())
        for (const MorphTrack& track : m.morph_clips[c].tracks)
          if (track.mesh < morphed.size()) morphed[track.mesh] = 1;
      std::size_t worst = v.meshes.size();
      for (std::size_t k = 0; k < v.meshes.size(); ++k) {
        if (!v.meshes[k].measured || morphed[k]) continue;
        if (worst == v.meshes.size() ||
            std::abs(v.meshes[k].change()) > std::abs(v.meshes[worst].change()))
          worst = k;
      }
      if (worst == v.meshes.size() ||
          !(std::abs(v.meshes[worst].change()) > rules.volume_threshold))
        continue;
      Finding f;
      f.message = "the volume changes by " + percent(v.meshes[worst].change()) + " with " +
                  skin_method_label(method) + " (threshold " +
                  rule_number(rules.volume_threshold * 100) + "%)";
      f.mesh = v.meshes[worst].name;
      f.clip = m.clips[c].name();
      f.time = v.meshes[worst].time();
      f.method = skin_method_name(method);
      out.add(std::move(f));
    }
  }
  if (skipped > 0) {
    Finding f;
    f.message = std::to_string(skipped) + " clip and method pair(s) not measured, from clip '" +
                first_skipped + "': the file's budget of " + std::to_string(rules.volume_work) +
                " vertex poses is spent";
    f.clip = first_skipped;
    out.add(std::move(f));
  }
}

void joint_names(const CheckRules& rules, const Model& m, Findings& out) {
  if (rules.joint_pattern.empty()) return;
  for (const std::string& name : m.skeleton.names) {
    // libstdc++'s regex recurses per character: a name from a hostile file is matched only up
    // to a length no real joint name reaches, and is a finding past it.
    const bool too_long = name.size() > kMaxMatchedName;
    if (!too_long && std::regex_match(name, rules.joint_regex)) continue;
    Finding f;
    f.message = too_long ? "a joint name of " + std::to_string(name.size()) + " bytes (more than " +
                               std::to_string(kMaxMatchedName) + " are not matched)"
                         : "joint name '" + name + "' does not match " + rules.joint_pattern;
    f.joint = too_long ? name.substr(0, 64) + "..." : name;
    out.add(std::move(f));
  }
}

// A texture name that leaves the model's folder as written (absolute, or climbing out with
// ".."), or that the worker found resolves outside it (a symbolic link: its report says so).
void texture_paths(const Model& m, const ImportReport& report, Findings& out) {
  std::vector<std::string> said;
  for (const Material& mat : m.materials) {
    const std::string& t = mat.texture_name;
    if (t.empty() || t[0] == '*' || t.rfind("data:", 0) == 0) continue;  // embedded
    std::string slashed = t;
    std::replace(slashed.begin(), slashed.end(), '\\', '/');
    const std::filesystem::path p(slashed);
    bool leaves = p.is_absolute() || (slashed.size() > 1 && slashed[1] == ':');
    if (!leaves) {
      const std::filesystem::path n = p.lexically_normal();
      leaves = !n.empty() && *n.begin() == "..";
    }
    if (!leaves || std::find(said.begin(), said.end(), t) != said.end()) continue;
    said.push_back(t);
    Finding f;
    f.message = "texture '" + t + "' of material '" + mat.name + "' is outside the model's folder";
    out.add(std::move(f));
  }
  for (const std::string& note : report.notes) {
    if (note.rfind("Texture '", 0) != 0 || note.find("outside the model's folder") == note.npos)
      continue;
    const std::size_t end = note.find('\'', 9);
    const std::string t = end == note.npos ? std::string() : note.substr(9, end - 9);
    if (std::find(said.begin(), said.end(), t) != said.end()) continue;
    said.push_back(t);
    Finding f;
    f.message = note;
    out.add(std::move(f));
  }
}

std::string read_setting(const nlohmann::json& table, const std::string& id, RuleSetting* s) {
  if (const auto it = table.find("enabled"); it != table.end()) {
    if (!it->is_boolean()) return id + ".enabled: need true or false";
    s->enabled = it->get<bool>();
  }
  if (const auto it = table.find("severity"); it != table.end()) {
    const std::string v = it->is_string() ? it->get<std::string>() : std::string();
    if (v != "error" && v != "warning") return id + ".severity: need \"error\" or \"warning\"";
    s->severity = v == "error" ? Severity::Error : Severity::Warning;
  }
  return {};
}

std::string read_number(const nlohmann::json& v, const std::string& what, double lo, double hi,
                        double* out) {
  if (!v.is_number() || !std::isfinite(v.get<double>()) || v.get<double>() < lo ||
      v.get<double>() > hi)
    return what + ": need a number in [" + rule_number(lo) + ", " + rule_number(hi) + "]";
  *out = v.get<double>();
  return {};
}

std::string read_rule(const std::string& id, const nlohmann::json& table, CheckRules* rules) {
  const auto* found = std::find(kIds.begin(), kIds.end(), id);
  if (found == kIds.end()) return "unknown rule '" + id + "' (docs/check.md lists them)";
  const auto rule = static_cast<CheckRule>(found - kIds.begin());
  if (!table.is_object()) return id + ": need a table of settings";
  if (std::string e = read_setting(table, id, &(*rules)[rule]); !e.empty()) return e;
  for (const auto& [key, value] : table.items()) {
    if (key == "enabled" || key == "severity") continue;
    const std::string what = id + "." + key;
    double d = 0.0;
    std::string e;
    if (key == "limit" && rule == CheckRule::MaxJoints) {
      e = read_number(value, what, 1, kMaxJoints, &d);
      rules->joint_limit = static_cast<uint32_t>(d);
    } else if (key == "limit" && rule == CheckRule::MaxInfluences) {
      e = read_number(value, what, 1, 8, &d);
      rules->influence_limit = static_cast<uint32_t>(d);
    } else if (key == "tolerance" && rule == CheckRule::WeightSum) {
      e = read_number(value, what, 0, 1, &rules->weight_sum_tolerance);
    } else if (key == "tolerance" && rule == CheckRule::RestBind) {
      e = read_number(value, what, 0, 1e6, &rules->rest_bind_tolerance);
    } else if (key == "threshold" && rule == CheckRule::VolumeChange) {
      e = read_number(value, what, 0, 1e6, &rules->volume_threshold);
    } else if (key == "methods" && rule == CheckRule::VolumeChange) {
      rules->volume_methods.clear();
      if (!value.is_array()) return what + ": need a list of lbs|dqs|cor";
      for (const nlohmann::json& m : value) {
        const auto method =
            m.is_string() ? parse_skin_method(m.get<std::string>()) : std::optional<SkinMethod>();
        if (!method) return what + ": need a list of lbs|dqs|cor";
        rules->volume_methods.push_back(*method);
      }
    } else if (key == "pattern" && rule == CheckRule::JointNames) {
      if (!value.is_string()) return what + ": need a regular expression";
      rules->joint_pattern = value.get<std::string>();
      try {
        rules->joint_regex = std::regex(rules->joint_pattern, std::regex::ECMAScript);
      } catch (const std::regex_error& err) {
        return what + ": not a regular expression (" + err.what() + ")";
      }
    } else {
      return "unknown setting '" + what + "' (docs/check.md lists them)";
    }
    if (!e.empty()) return e;
    if ((key == "limit") && d != std::floor(d)) return what + ": need a whole number";
  }
  return {};
}

}  // namespace

const char* check_rule_id(CheckRule rule) noexcept { return kIds[static_cast<std::size_t>(rule)]; }

CheckRules::CheckRules() {
  for (CheckRule r : {CheckRule::UnweightedVertices, CheckRule::UnusedBones,
                      CheckRule::RotationKeys, CheckRule::KeysPastEnd, CheckRule::RestBind,
                      CheckRule::VolumeChange, CheckRule::JointNames})
    (*this)[r].severity = Severity::Warning;
}

std::vector<std::string> CheckRules::enabled_ids() const {
  std::vector<std::string> ids;
  for (std::size_t i = 0; i < kCheckRuleCount; ++i)
    if (settings[i].enabled) ids.emplace_back(kIds[i]);
  return ids;
}

std::string parse_check_rules(const std::string& text, bool toml, CheckRules* rules) {
  nlohmann::json j;
  if (toml) {
    // TOML goes through toml++'s JSON writer into the one reader below.
    std::ostringstream json;
    try {
      const toml::table table = toml::parse(text);
      json << toml::json_formatter{table};
    } catch (const toml::parse_error& err) {
      return "TOML error at line " + std::to_string(err.source().begin.line) + ": " +
             std::string(err.description());
    }
    j = nlohmann::json::parse(json.str(), nullptr, false);
  } else {
    j = nlohmann::json::parse(text, nullptr, false);
  }
  if (j.is_discarded() || !j.is_object()) return "not a JSON object";
  for (const auto& [id, table] : j.items())
    if (std::string e = read_rule(id, table, rules); !e.empty()) return e;
  return {};
}

std::string load_check_rules(const std::string& path, CheckRules* rules) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return path + ": cannot open the rules file";
  std::ostringstream text;
  text << in.rdbuf();
  if (text.str().size() > (std::size_t{1} << 20)) return path + ": a rules file over 1 MiB";
  const bool toml = path.size() >= 5 && path.compare(path.size() - 5, 5, ".toml") == 0;
  if (std::string e = parse_check_rules(text.str(), toml, rules); !e.empty())
    return path + ": " + e;
  return {};
}

std::vector<Finding> apply_check_rules(const CheckRules& rules, const std::string& path,
                                       const ImportResult& imported) {
  (void)path;
  std::vector<Finding> findings;
  if (!imported.ok()) return findings;
  const Model& m = *imported.model;
  const ImportReport& report = imported.report;
  Findings out(rules, &findings);
  if (out.begin(CheckRule::MaxJoints) && m.skeleton.size() > rules.joint_limit) {
    Finding f;
    f.message = std::to_string(m.skeleton.size()) + " joints (limit " +
                std::to_string(rules.joint_limit) + ")";
    out.add(std::move(f));
  }
  const WeightStats stats = compute_weight_stats(m);
  if (out.begin(CheckRule::MaxInfluences)) max_influences(rules, m, stats, out);
  if (out.begin(CheckRule::WeightSum)) weight_sums(rules, m, out);
  if (out.begin(CheckRule::UnweightedVertices) && stats.unweighted > 0) unweighted(m, out);
  if (out.begin(CheckRule::UnusedBones)) unused_bones(m, out);
  if (out.begin(CheckRule::JointScale)) joint_scales(m, out);
  if (out.begin(CheckRule::RotationKeys) && report.rotations_normalised > 0) {
    Finding f;
    f.message = std::to_string(report.rotations_normalised) +
                " rotation key(s) were not unit quaternions (normalised on import)";
    out.add(std::move(f));
  }
  if (out.begin(CheckRule::KeysPastEnd) && report.clips_extended > 0) {
    Finding f;
    f.message = std::to_string(report.clips_extended) +
                " clip(s) have keys past their stated end (extended on import)";
    for (const std::string& note : report.notes)
      if (note.find("keys past their stated duration") != note.npos) f.message = note;
    out.add(std::move(f));
  }
  if (out.begin(CheckRule::RestBind)) rest_bind(rules, m, out);
  if (out.begin(CheckRule::VolumeChange)) volume_changes(rules, m, out);
  if (out.begin(CheckRule::JointNames)) joint_names(rules, m, out);
  if (out.begin(CheckRule::TexturePaths)) texture_paths(m, report, out);
  out.flush();
  return findings;
}

}  // namespace sv
