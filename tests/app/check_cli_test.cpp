// `skinview check` through the real executable (app/check.h): each rule fires on a file made to
// break it (tests/app/check_models.h, a B3D file whose keys run past its clip) and stays silent
// on the default character; a file that crashes the importer and one that hangs it are findings
// for those files while the run goes on; shards 1/3, 2/3 and 3/3 merged equal the unsharded
// report; the JUnit file parses as XML; every file of assimp-testmodels is in the report once;
// the exit statuses 0, 1 and 2. No test measures time: the hang is bounded by --time-limit, and
// run_process's limit only guards against a hang of the run.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/check.h"
#include "app/check_models.h"
#include "b3d_writer.h"
#include "json_file.h"
#include "run_process.h"
#include "temp_dir.h"
#include "worker_fault.h"

#ifndef SV_CHECK_REPRESENTATIVE
#define SV_CHECK_REPRESENTATIVE 0
#endif

namespace sv {
namespace {

using test::line_count;
using test::ProcessResult;
using test::run_process;

const std::string kCheckExe = SKINVIEW_EXE;
const std::string kDefaultCharacter = SKINVIEW_DEFAULT_GLB;

void write_text(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// Runs `skinview check ARGS...`; `json` (when not empty) is where --json wrote.
ProcessResult check(std::vector<std::string> args) {
  args.insert(args.begin(), {kCheckExe, "check", "--no-progress"});
  return run_process(args, 300.0);
}

nlohmann::json parse_file(const std::string& path) { return test::read_json_file(path); }

// The findings of `path` in a JSON report, by rule.
std::multimap<std::string, nlohmann::json> findings_of(const nlohmann::json& report,
                                                       const std::string& path) {
  std::multimap<std::string, nlohmann::json> out;
  for (const nlohmann::json& f : report["files"])
    if (f["path"] == path)
      for (const nlohmann::json& finding : f["findings"])
        out.emplace(finding["rule"].get<std::string>(), finding);
  return out;
}

// A library with one file per rule (and the box that breaks none).
class CheckLibrary : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_FALSE(dir_.path().empty());
    lib_ = dir_ / "lib";
    std::filesystem::create_directories(lib_ + "/sub");
    add("clean.gltf", {});
    test::CheckModel m;
    m.extra_joints = 300;
    add("max_joints.gltf", m);
    m = {};
    m.five_influences = true;
    add("influences.gltf", m);
    m = {};
    m.weight = 0.8f;
    add("weight_sum.gltf", m);
    m = {};
    m.weight = 0.0f;
    add("unweighted.gltf", m);
    m = {};
    m.extra_joints = 1;
    add("sub/unused.gltf", m);
    m = {};
    m.tip_scale = 0.0f;
    add("sub/zero_scale.gltf", m);
    m = {};
    m.key_length = 0.9f;
    add("rotation_keys.gltf", m);
    m = {};
    m.bind_tip_y = 0.5f;
    add("rest_bind.gltf", m);
    m = {};
    m.drop_tip = 0.5f;
    m.turn_degrees = 0.0f;
    add("volume.gltf", m);
    m = {};
    m.texture = "../outside.png";
    add("texture.gltf", m);
    m = {};
    m.tip_name = "Tip Bone";
    add("joint_name.gltf", m);
    const std::vector<uint8_t> b3d = test::skinned_b3d(220, 221);
    write_text(lib_ + "/keys_past_end.b3d", std::string(b3d.begin(), b3d.end()));
    write_text(lib_ + "/notes.txt", "not a model: skipped by extension");
  }
  void add(const std::string& name, const test::CheckModel& m) {
    write_text(lib_ + "/" + name, test::check_model_gltf(m));
  }
  std::string file(const std::string& name) const { return lib_ + "/" + name; }

  test::TempDir dir_;
  std::string lib_;
};

TEST_F(CheckLibrary, EachRuleFiresOnItsFileAndNotOnTheDefaultCharacter) {
  const std::string json = dir_ / "report.json";
  const ProcessResult r = check({lib_, kDefaultCharacter, "--no-cache", "--json", json});
  ASSERT_TRUE(r.exited()) << r.err;
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;  // errors among the findings
  const nlohmann::json report = parse_file(json);
  ASSERT_TRUE(report.is_object());
  EXPECT_EQ(report["schema"], "skinview-check/1");
  // Every model file once (13 in the library, the default character); notes.txt is no model.
  ASSERT_EQ(report["files"].size(), 14u) << report.dump(1);
  for (const nlohmann::json& f : report["files"]) EXPECT_TRUE(f["imported"].get<bool>()) << f;

  EXPECT_TRUE(findings_of(report, kDefaultCharacter).empty()) << report["files"].back().dump(1);
  EXPECT_TRUE(findings_of(report, file("clean.gltf")).empty());
  EXPECT_TRUE(findings_of(report, file("joint_name.gltf")).empty());  // no pattern by default

  // rule -> the file made for it, the severity and what the finding must say.
  struct Expect {
    const char* file;
    const char* rule;
    const char* severity;
    const char* key;
    nlohmann::json value;
  };
  const Expect expected[] = {
      // 302 in the chain, the scene's root node and the mesh's node.
      {"max_joints.gltf", "max-joints", "error", "message", "304 joints (limit 256)"},
      // Corner 4 weighs on 5 joints: one vertex.
      {"influences.gltf", "max-influences", "error", "vertices", 1},
      {"weight_sum.gltf", "weight-sum", "error", "vertices", 1},
      {"unweighted.gltf", "unweighted-vertices", "warning", "vertices", 1},
      {"sub/unused.gltf", "unused-bones", "warning", "joint", "j2"},
      {"sub/zero_scale.gltf", "joint-scale", "error", "joint", "tip"},
      {"rotation_keys.gltf", "rotation-keys", "warning", "message",
       "2 rotation key(s) were not unit quaternions (normalised on import)"},
      {"keys_past_end.b3d", "keys-past-end", "warning", "rule", "keys-past-end"},
      // The 4 top corners sit 0.5 from where the bind pose has them; "tip" moves them.
      {"rest_bind.gltf", "rest-bind", "warning", "vertices", 4},
      {"rest_bind.gltf", "rest-bind", "warning", "joint", "tip"},
      // The top drops from 1 to 0.5 over the clip: half the volume at its end, 1 s.
      {"volume.gltf", "volume-change", "warning", "time", 1.0},
      {"volume.gltf", "volume-change", "warning", "clip", "turn"},
      {"texture.gltf", "texture-paths", "error", "rule", "texture-paths"},
  };
  for (const Expect& e : expected) {
    const auto found = findings_of(report, file(e.file));
    const auto it = found.find(e.rule);
    ASSERT_NE(it, found.end()) << e.file << " gave no " << e.rule << ": " << report.dump(1);
    EXPECT_EQ(it->second["severity"], e.severity) << it->second;
    EXPECT_EQ(it->second[e.key], e.value) << it->second;
  }
  // Volume: one finding per method (LBS and DQS agree on rigid weights: -50%).
  const auto volume = findings_of(report, file("volume.gltf"));
  ASSERT_EQ(volume.count("volume-change"), 2u);
  std::set<std::string> methods;
  for (auto [it, end] = volume.equal_range("volume-change"); it != end; ++it) {
    methods.insert(it->second["method"].get<std::string>());
    EXPECT_NE(it->second["message"].get<std::string>().find("-50.00%"), std::string::npos)
        << it->second;
  }
  EXPECT_EQ(methods, (std::set<std::string>{"dqs", "lbs"}));
  EXPECT_NE(r.out.find("14 file(s) checked"), std::string::npos) << r.out;
}

TEST_F(CheckLibrary, RulesFilesInTomlAndJsonSayTheSame) {
  const std::string toml = dir_ / "rules.toml";
  write_text(toml,
             "[joint-names]\npattern = \"^[A-Za-z0-9_]+$\"\nseverity = \"error\"\n"
             "[max-joints]\nlimit = 4\n[volume-change]\nenabled = false\n");
  const std::string json_rules = dir_ / "rules.json";
  write_text(json_rules,
             R"({"joint-names": {"pattern": "^[A-Za-z0-9_]+$", "severity": "error"},
                 "max-joints": {"limit": 4}, "volume-change": {"enabled": false}})");
  std::string reports[2];
  int i = 0;
  for (const std::string& rules : {toml, json_rules}) {
    const std::string out = dir_ / ("rules" + std::to_string(i) + ".json");
    const ProcessResult r =
        check({file("joint_name.gltf"), file("clean.gltf"), file("volume.gltf"), kDefaultCharacter,
               "--no-cache", "--rules", rules, "--json", out});
    ASSERT_TRUE(r.exited());
    EXPECT_EQ(r.exit_code, 1) << r.err;
    reports[i++] = read_text(out);
  }
  EXPECT_EQ(reports[0], reports[1]);
  const nlohmann::json report = test::parse_json(reports[0]);
  ASSERT_FALSE(report.is_discarded()) << reports[0];
  const auto named = findings_of(report, file("joint_name.gltf"));
  ASSERT_EQ(named.count("joint-names"), 1u) << report.dump(1);
  EXPECT_EQ(named.find("joint-names")->second["joint"], "Tip Bone");
  EXPECT_EQ(named.find("joint-names")->second["severity"], "error");
  EXPECT_TRUE(findings_of(report, file("clean.gltf")).empty());
  EXPECT_TRUE(findings_of(report, file("volume.gltf")).empty());  // volume-change is off
  // The default character's names match; its 26 joints break the limit of 4 (the boxes have 4:
  // the scene's root, the mesh's node, "root" and "tip").
  const auto def = findings_of(report, kDefaultCharacter);
  EXPECT_EQ(def.count("joint-names"), 0u);
  ASSERT_EQ(def.count("max-joints"), 1u);
  EXPECT_EQ(def.find("max-joints")->second["message"], "26 joints (limit 4)");
  EXPECT_EQ(report["rules"].size(), 11u);  // 12 less volume-change
}

TEST_F(CheckLibrary, ACrashingAndAHangingFileAreFindingsAndTheRunGoesOn) {
  write_text(lib_ + "/crashme.gltf", test::check_model_gltf({}));
  write_text(lib_ + "/hangme.gltf", test::check_model_gltf({}));
  const test::WorkerFault fault("segv:crashme,hang:hangme");
  const std::string json = dir_ / "faults.json";
  const ProcessResult r = check({lib_, "--jobs", "2", "--time-limit", "2", "--json", json});
  ASSERT_TRUE(r.exited()) << r.err;
  EXPECT_EQ(r.exit_code, 1);
  const nlohmann::json report = parse_file(json);
  ASSERT_EQ(report["files"].size(), 15u);
  int failed = 0;
  for (const nlohmann::json& f : report["files"]) failed += f["imported"].get<bool>() ? 0 : 1;
  EXPECT_EQ(failed, 2);
  const auto crash = findings_of(report, file("crashme.gltf"));
  ASSERT_EQ(crash.size(), 1u);
  EXPECT_EQ(crash.begin()->first, "import");
  EXPECT_NE(crash.begin()->second["message"].get<std::string>().find("crashed (SIGSEGV)"),
            std::string::npos);
  const auto hang = findings_of(report, file("hangme.gltf"));
  ASSERT_EQ(hang.size(), 1u);
  EXPECT_NE(hang.begin()->second["message"].get<std::string>().find("gave up after 2 s"),
            std::string::npos)
      << hang.begin()->second;
  EXPECT_TRUE(findings_of(report, file("clean.gltf")).empty());
  EXPECT_EQ(report["summary"]["failed_imports"], 2);
}

TEST_F(CheckLibrary, ThreeShardsMergedEqualTheWholeRun) {
  const std::string whole = dir_ / "whole.json";
  ASSERT_EQ(check({lib_, "--json", whole}).exit_code, 1);
  std::vector<std::string> args{"--merge"};
  std::set<std::string> seen;
  std::size_t listed = 0;
  for (int i = 1; i <= 3; ++i) {
    const std::string part = dir_ / ("shard" + std::to_string(i) + ".json");
    const ProcessResult r =
        check({lib_, "--shard", std::to_string(i) + "/3", "--json", part, "--jobs", "1"});
    ASSERT_TRUE(r.exited());
    EXPECT_LE(r.exit_code, 1) << r.err;
    const nlohmann::json report = parse_file(part);
    for (const nlohmann::json& f : report["files"]) {
      seen.insert(f["path"].get<std::string>());
      ++listed;
    }
    args.push_back(part);
  }
  EXPECT_EQ(listed, 13u);  // each file in one shard
  EXPECT_EQ(seen.size(), 13u);
  const std::string merged = dir_ / "merged.json";
  args.insert(args.end(), {"--json", merged});
  const ProcessResult m = check(args);
  EXPECT_EQ(m.exit_code, 1) << m.err;
  EXPECT_EQ(read_text(merged), read_text(whole));
  // The same shard twice overlaps: refused.
  const ProcessResult twice =
      check({"--merge", dir_ / "shard1.json", dir_ / "shard1.json", "--json", dir_ / "x.json"});
  EXPECT_EQ(twice.exit_code, 2);
  EXPECT_NE(twice.err.find("in two of the reports"), std::string::npos) << twice.err;
}

TEST_F(CheckLibrary, TheJUnitFileIsXmlWithACasePerFileAndRule) {
  const std::string xml = dir_ / "junit.xml";
  const ProcessResult r = check({lib_, "--junit", xml});
  ASSERT_EQ(r.exit_code, 1) << r.err;
  if (::access("/usr/bin/python3", X_OK) != 0) GTEST_SKIP() << "no python3 to parse XML";
  // 13 files, each "import" plus the 12 rules: 169 cases; the errors of the library (max-joints,
  // max-influences, weight-sum, joint-scale, texture-paths, and the default rules' weight-sum on
  // the 5-influence file, whose weights sum to 1: none) fail.
  const ProcessResult py = run_process(
      {"/usr/bin/python3", "-c",
       "import sys, xml.etree.ElementTree as E\n"
       "r = E.parse(sys.argv[1]).getroot()\n"
       "s = r.find('testsuite')\n"
       "cases = s.findall('testcase')\n"
       "failed = sorted(c.get('classname').split('/')[-1] + ':' + c.get('name') for c in cases "
       "if c.find('failure') is not None)\n"
       "print(len(cases), s.get('tests'), s.get('failures'))\n"
       "print(' '.join(failed))\n",
       xml});
  ASSERT_EQ(py.exit_code, 0) << py.err;
  EXPECT_EQ(py.out,
            "169 169 5\n"
            "influences.gltf:max-influences max_joints.gltf:max-joints "
            "texture.gltf:texture-paths weight_sum.gltf:weight-sum zero_scale.gltf:joint-scale\n");
}

TEST(CheckCli, ExitTwoWhenTheRunCannotProceed) {
  test::TempDir dir;
  write_text(dir / "bad.toml", "[no-such-rule]\nlimit = 1\n");
  write_text(dir / "key.json", R"({"max-joints": {"limt": 3}})");
  write_text(dir / "empty.txt", "");
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{dir / "missing.gltf"}, "no such file or folder"},
      {{dir.path()}, "no model file found"},
      {{kDefaultCharacter, "--shard", "4/3"}, "bad --shard"},
      {{kDefaultCharacter, "--shard", "x"}, "bad --shard"},
      {{kDefaultCharacter, "--rules", dir / "bad.toml"}, "unknown rule 'no-such-rule'"},
      {{kDefaultCharacter, "--rules", dir / "key.json"}, "unknown setting 'max-joints.limt'"},
      {{kDefaultCharacter, "--rules", dir / "none.json"}, "cannot open the rules file"},
      {{"--merge", dir / "empty.txt"}, "not a JSON object"},
      {{}, "name the files or folders"},
      {{kDefaultCharacter, "--json", "-", "--junit", "-"}, "cannot both write to stdout"},
      {{kDefaultCharacter, "--jobs", "0"}, "--jobs"},
  };
  for (const auto& [args, mention] : cases) {
    const ProcessResult r = check(args);
    ASSERT_TRUE(r.exited());
    EXPECT_EQ(r.exit_code, 2) << mention << ": " << r.err;
    EXPECT_EQ(line_count(r.err), 1u) << r.err;
    EXPECT_NE(r.err.find(mention), std::string::npos) << r.err;
  }
}

TEST(CheckCli, TheDefaultCharacterAloneExitsZero) {
  const ProcessResult r = check({kDefaultCharacter});
  ASSERT_TRUE(r.exited());
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("1 file(s) checked: 1 clean"), std::string::npos) << r.out;
}

// Debian's assimp-testmodels: every file skinview opens is in the report exactly once, each
// either imported or with its one "import" finding (the invalid/ folder's files among them). A
// sanitizer build checks two folders (each sanitized worker start costs ~0.4 s).
TEST(CheckPackage, EveryFileOfTheTestModelsAppearsOnce) {
  const std::string root = SKINVIEW_TEST_MODELS;
  if (!std::filesystem::is_directory(root)) GTEST_SKIP() << "assimp-testmodels not installed";
  const std::vector<std::string> folders =
      SV_CHECK_REPRESENTATIVE ? std::vector<std::string>{root + "/X", root + "/invalid"}
                              : std::vector<std::string>{root};
  // The extensions the worker reads, asked as skinview asks them.
  const ProcessResult ext = run_process({SKINVIEW_IMPORT_EXE, "--extensions"});
  ASSERT_EQ(ext.exit_code, 0);
  std::set<std::string> extensions;
  std::istringstream lines(ext.out);
  for (std::string e; lines >> e;) extensions.insert(e);
  std::multiset<std::string> expected;
  for (const std::string& folder : folders)
    for (const auto& e : std::filesystem::recursive_directory_iterator(folder)) {
      std::string x = e.path().extension().string();
      if (!e.is_regular_file() || x.empty()) continue;
      for (char& c : x) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      if (extensions.count(x.substr(1))) expected.insert(e.path().string());
    }
  ASSERT_GT(expected.size(), 10u);
  test::TempDir dir;
  const std::string json = dir / "package.json";
  std::vector<std::string> args = folders;
  args.insert(args.end(), {"--jobs", "2", "--json", json});
  const ProcessResult r = check(args);
  ASSERT_TRUE(r.exited()) << r.err;
  EXPECT_EQ(r.exit_code, 1) << r.err;  // invalid/ holds files the importer refuses
  const nlohmann::json report = parse_file(json);
  std::multiset<std::string> listed;
  std::size_t failed = 0;
  for (const nlohmann::json& f : report["files"]) {
    listed.insert(f["path"].get<std::string>());
    if (!f["imported"].get<bool>()) {
      ++failed;
      ASSERT_EQ(f["findings"].size(), 1u) << f;
      EXPECT_EQ(f["findings"][0]["rule"], "import") << f;
    }
  }
  EXPECT_EQ(listed, expected);
  EXPECT_GT(failed, 0u);
  EXPECT_EQ(report["summary"]["files"], expected.size());
}

TEST(CheckShards, EveryPathFallsInExactlyOneShard) {
  EXPECT_EQ(path_hash(""), 14695981039346656037ull);  // FNV-1a's offset basis
  EXPECT_EQ(path_hash("a"), 0xaf63dc4c8601ec8cull);   // FNV-1a 64 of "a"
  uint32_t i = 0, n = 0;
  ASSERT_TRUE(parse_shard("2/3", &i, &n));
  EXPECT_EQ(i, 2u);
  EXPECT_EQ(n, 3u);
  for (const char* bad : {"0/3", "3/2", "1/", "/3", "1/3x", "-1/3", "1/0"})
    EXPECT_FALSE(parse_shard(bad, &i, &n)) << bad;
  for (int k = 0; k < 200; ++k) {
    const std::string path = "lib/model_" + std::to_string(k) + ".glb";
    int in = 0;
    for (uint32_t s = 1; s <= 3; ++s) in += in_shard(path, s, 3) ? 1 : 0;
    EXPECT_EQ(in, 1) << path;
  }
}

}  // namespace
}  // namespace sv
