// The rules `skinview check` applies to each imported file, their defaults, and the rules file a
// team overrides them with (--rules FILE, TOML or JSON: docs/check.md).
//
// Every figure a rule reads is one skinview already computes for --info and the window: the
// import report's counters (io/import.h), the weight statistics of the legends
// (skin/weight_stats.h), joint_influences (anim/model.h), the volume figures (skin/volume.h), the
// rest and bind poses of the Animator skinned on the CPU (skin/skinned_pose.h) and compared as
// the difference views compare (skin/skin_difference.h). A rule adds a limit and a severity.
//
// A rule that fires many times in one file (a bone per joint) gives at most kMaxFindingsPerRule
// findings, the last one saying how many more there were.
#pragma once

#include <array>
#include <cstdint>
#include <regex>
#include <string>
#include <vector>

#include "app/check_report.h"
#include "skin/skin_method.h"

namespace sv {

struct ImportResult;

enum class CheckRule : uint8_t {
  MaxJoints,           // "max-joints": the skeleton has more joints than `joint_limit`
  MaxInfluences,       // "max-influences": vertices with more than `influence_limit` weights
  WeightSum,           // "weight-sum": stored weights that do not sum to 1 within a tolerance
  UnweightedVertices,  // "unweighted-vertices": vertices of a skinned mesh with no weight
  UnusedBones,         // "unused-bones": bones of a skin that no vertex weighs on, on
                       // themselves or through a joint below them
  JointScale,          // "joint-scale": a zero or negative scale, at rest or in a clip's keys
  RotationKeys,        // "rotation-keys": rotation keys that were not unit quaternions
  KeysPastEnd,         // "keys-past-end": keys past their clip's stated duration
  RestBind,            // "rest-bind": the rest pose moves the skin away from its bind pose
  VolumeChange,        // "volume-change": a clip changes a closed mesh's volume by more than
                       // `volume_threshold`, per skinning method in `volume_methods`
  JointNames,          // "joint-names": joint names that do not match `joint_pattern`
  TexturePaths,        // "texture-paths": texture paths that leave the model's folder
};
inline constexpr std::size_t kCheckRuleCount = 12;
inline constexpr std::size_t kMaxFindingsPerRule = 20;

const char* check_rule_id(CheckRule rule) noexcept;

struct RuleSetting {
  bool enabled = true;
  Severity severity = Severity::Error;
};

struct CheckRules {
  CheckRules();  // the defaults (docs/check.md)

  std::array<RuleSetting, kCheckRuleCount> settings;
  RuleSetting& operator[](CheckRule r) noexcept { return settings[static_cast<std::size_t>(r)]; }
  const RuleSetting& operator[](CheckRule r) const noexcept {
    return settings[static_cast<std::size_t>(r)];
  }

  uint32_t joint_limit = 256;
  uint32_t influence_limit = 4;        // 1..8
  double weight_sum_tolerance = 1e-3;  // |stored sum - 1| (skin/weight_stats.h's tolerance)
  double rest_bind_tolerance = 1e-3;   // largest vertex move, as a fraction of the model's size
  double volume_threshold = 0.10;      // |V(t) / V(rest) - 1|
  std::vector<SkinMethod> volume_methods{SkinMethod::Lbs, SkinMethod::Dqs};
  // The volume figures' budget per file, in poses x measured vertices over every clip and
  // method (~5 s of CPU skinning); past it the clips left are not measured and one volume-change
  // finding says so. Not in the rules file: a bound on the run, not a rule.
  std::size_t volume_work = std::size_t{1} << 30;
  std::string joint_pattern;  // ECMAScript regex, matched against the whole name; "" = off
  std::regex joint_regex;     // compiled from joint_pattern

  // The ids of the enabled rules, in order (the JUnit file's test cases).
  std::vector<std::string> enabled_ids() const;
};

// Reads a rules file: TOML when its name ends in .toml, JSON otherwise (docs/check.md). Each top
// level table is a rule id; its keys: `enabled` (bool), `severity` ("error" | "warning") and the
// rule's own (`limit`, `tolerance`, `threshold`, `methods`, `pattern`). An unknown rule or key is
// an error: a misspelt rule must not pass silently. "" or the one-line reason.
std::string load_check_rules(const std::string& path, CheckRules* rules);
// The same from text already read; `toml` chooses the syntax.
std::string parse_check_rules(const std::string& text, bool toml, CheckRules* rules);

// The findings of every enabled rule on a successful import of `path`, in rule order.
std::vector<Finding> apply_check_rules(const CheckRules& rules, const std::string& path,
                                       const ImportResult& imported);

}  // namespace sv
