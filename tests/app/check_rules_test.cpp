// check_rules.h without the command line: the rules file's parser (TOML and JSON into one
// reader, every wrong value refused with its name), and the per-file volume budget on a model
// imported in the test (tests/app/check_models.h).
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "app/check_models.h"
#include "app/check_rules.h"
#include "io/import.h"
#include "temp_dir.h"

namespace sv {
namespace {

TEST(CheckRulesFile, ValuesReachTheRules) {
  CheckRules rules;
  ASSERT_EQ(parse_check_rules("[max-influences]\nlimit = 8\nseverity = \"warning\"\n"
                              "[weight-sum]\ntolerance = 0.01\n"
                              "[volume-change]\nmethods = [\"cor\"]\nthreshold = 0.2\n"
                              "[rest-bind]\nenabled = false\n",
                              true, &rules),
            "");
  EXPECT_EQ(rules.influence_limit, 8u);
  EXPECT_EQ(rules[CheckRule::MaxInfluences].severity, Severity::Warning);
  EXPECT_DOUBLE_EQ(rules.weight_sum_tolerance, 0.01);
  ASSERT_EQ(rules.volume_methods.size(), 1u);
  EXPECT_EQ(rules.volume_methods[0], SkinMethod::Cor);
  EXPECT_DOUBLE_EQ(rules.volume_threshold, 0.2);
  EXPECT_FALSE(rules[CheckRule::RestBind].enabled);
  const std::vector<std::string> ids = rules.enabled_ids();
  EXPECT_EQ(ids.size(), kCheckRuleCount - 1);
  EXPECT_EQ(ids.front(), "max-joints");
  // The defaults' severities.
  const CheckRules defaults;
  EXPECT_EQ(defaults[CheckRule::WeightSum].severity, Severity::Error);
  EXPECT_EQ(defaults[CheckRule::VolumeChange].severity, Severity::Warning);
  EXPECT_TRUE(defaults.joint_pattern.empty());
}

TEST(CheckRulesFile, EveryWrongValueIsNamed) {
  const std::pair<const char*, const char*> cases[] = {
      {R"({"max-joints": {"limit": "x"}})", "max-joints.limit: need a number"},
      {R"({"max-joints": {"limit": 2.5}})", "max-joints.limit: need a whole number"},
      {R"({"max-influences": {"limit": 9}})", "max-influences.limit: need a number in [1, 8]"},
      {R"({"weight-sum": {"severity": "fatal"}})", "weight-sum.severity"},
      {R"({"weight-sum": {"enabled": 1}})", "weight-sum.enabled"},
      {R"({"volume-change": {"methods": ["lbs", "xyz"]}})", "volume-change.methods"},
      {R"({"joint-names": {"pattern": "(["}})", "joint-names.pattern: not a regular expression"},
      {R"({"joint-names": 3})", "joint-names: need a table"},
      {R"({"rest-bind": {"limit": 3}})", "unknown setting 'rest-bind.limit'"},
      {R"([1, 2])", "not a JSON object"},
  };
  for (const auto& [text, mention] : cases) {
    CheckRules rules;
    const std::string e = parse_check_rules(text, false, &rules);
    EXPECT_NE(e.find(mention), std::string::npos) << text << " -> " << e;
  }
  CheckRules rules;
  const std::string e = parse_check_rules("[max-joints\nlimit = 1\n", true, &rules);
  EXPECT_EQ(e.rfind("TOML error at line 1", 0), 0u) << e;
}

// The box whose top drops to half its height: LBS measures -50% at 1 s; with a budget of one
// vertex pose, DQS (the second method) is left unmeasured and one finding says so.
TEST(CheckRulesVolume, TheFileBudgetLeavesTheRestUnmeasuredAndSaysSo) {
  test::TempDir dir;
  test::CheckModel m;
  m.drop_tip = 0.5f;
  m.turn_degrees = 0.0f;
  const std::string path = dir / "volume.gltf";
  std::ofstream(path) << test::check_model_gltf(m);
  const ImportResult r = import_model(path);
  ASSERT_TRUE(r.ok()) << r.error;
  CheckRules rules;
  std::vector<Finding> all = apply_check_rules(rules, path, r);
  std::vector<Finding> volume;
  for (Finding& f : all)
    if (f.rule == "volume-change") volume.push_back(f);
  ASSERT_EQ(volume.size(), 2u);  // lbs and dqs
  EXPECT_EQ(volume[0].method, "lbs");
  EXPECT_EQ(volume[1].method, "dqs");
  EXPECT_DOUBLE_EQ(volume[1].time, 1.0);

  rules.volume_work = 1;
  all = apply_check_rules(rules, path, r);
  volume.clear();
  for (Finding& f : all)
    if (f.rule == "volume-change") volume.push_back(f);
  ASSERT_EQ(volume.size(), 2u);
  EXPECT_EQ(volume[0].method, "lbs");
  EXPECT_NE(volume[0].message.find("-50.00%"), std::string::npos) << volume[0].message;
  EXPECT_EQ(volume[1].message,
            "1 clip and method pair(s) not measured, from clip 'turn': the file's budget of 1 "
            "vertex poses is spent");
  EXPECT_EQ(volume[1].clip, "turn");
}

}  // namespace
}  // namespace sv
