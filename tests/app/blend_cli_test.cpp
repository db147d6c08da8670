// --layer and --crossfade through the real executable's --dump: what a layer changes and what it
// leaves, a cross-fade's two ends, continuity in time at fade ends and loop seams on real
// models, and one line with exit status 2 for every bad spec. The specs' parser on its own is
// tested in blend_options_test.cpp.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cli_util.h"
#include "run_process.h"

namespace sv::test {
namespace {

const std::string kDefault = std::string(SKINVIEW_SOURCE_DIR) + "/assets/default.glb";
const std::string kWuson = std::string(SKINVIEW_TEST_MODELS) + "/X/Testwuson.X";

nlohmann::json blend_dump(const std::string& file, const std::vector<std::string>& extra) {
  return test::dump(extra, file);
}

// The largest distance any vertex of any mesh moves between two posed models (a dump or a
// frame of one).
double max_move(const nlohmann::json& a, const nlohmann::json& b) {
  double worst = 0.0;
  for (std::size_t m = 0; m < a["meshes"].size(); ++m) {
    const auto& p = a["meshes"][m]["positions"];
    const auto& q = b["meshes"][m]["positions"];
    for (std::size_t i = 0; i + 2 < p.size(); i += 3) {
      double d2 = 0.0;
      for (std::size_t c = 0; c < 3; ++c) {
        const double d = p[i + c].get<double>() - q[i + c].get<double>();
        d2 += d * d;
      }
      worst = std::max(worst, d2);
    }
  }
  return std::sqrt(worst);
}

// The joint's model-space origin in a dump.
std::vector<double> joint_origin(const nlohmann::json& j, const std::string& name) {
  for (const auto& bone : j["bones"])
    if (bone["name"] == name) {
      const auto& m = bone["worldMatrix"];
      return {m[12].get<double>(), m[13].get<double>(), m[14].get<double>()};
    }
  ADD_FAILURE() << "no joint " << name;
  return {0, 0, 0};
}

// Joint `child`'s origin in joint `parent`'s frame (rigid joints: the transpose is the inverse).
std::vector<double> origin_in(const nlohmann::json& j, const std::string& parent,
                              const std::string& child) {
  const nlohmann::json* m = nullptr;
  for (const auto& bone : j["bones"])
    if (bone["name"] == parent) m = &bone["worldMatrix"];
  if (m == nullptr) {
    ADD_FAILURE() << "no joint " << parent;
    return {0, 0, 0};
  }
  const std::vector<double> p = joint_origin(j, child);
  std::vector<double> out(3, 0.0);
  for (std::size_t c = 0; c < 3; ++c)  // column c of the rotation dotted with p - origin
    for (std::size_t r = 0; r < 3; ++r)
      out[c] += (*m)[4 * c + r].get<double>() * (p[r] - (*m)[12 + r].get<double>());
  return out;
}

double distance(const std::vector<double>& a, const std::vector<double>& b) {
  return std::sqrt((a[0] - b[0]) * (a[0] - b[0]) + (a[1] - b[1]) * (a[1] - b[1]) +
                   (a[2] - b[2]) * (a[2] - b[2]));
}

std::string num(double t) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6f", t);
  return buf;
}

// How far the model jumps at time t: the largest vertex move over [t - h, t + h] for h = 1e-4 s,
// as a fraction of the move over [t - 1e-3, t + 1e-3]. Motion that is continuous at t (even with
// a kink, as where a linear fade weight starts) gives about 0.1; a pop gives about 1. Returns 0
// where nothing moves.
double jump_ratio(const std::string& file, std::vector<std::string> blend, double t) {
  blend.insert(blend.end(), {"--times", num(t - 1e-3) + "," + num(t + 1e-3) + "," + num(t - 1e-4) +
                                            "," + num(t + 1e-4)});
  const nlohmann::json j = blend_dump(file, blend);
  const auto& f = j["frames"];
  if (f.size() != 4u) {
    ADD_FAILURE() << "no frames";
    return 1.0;
  }
  const double wide = max_move(f[0], f[1]), narrow = max_move(f[2], f[3]);
  return wide < 1e-7 ? 0.0 : narrow / wide;
}

TEST(BlendCli, WaveOverWalkMovesTheMaskedArmAndNothingElse) {
  const nlohmann::json walk = blend_dump(kDefault, {"--clip", "walk", "--time", "0.3"});
  const nlohmann::json over =
      blend_dump(kDefault, {"--clip", "walk", "--time", "0.3", "--layer", "wave:mask=clavicle_r"});
  // The right hand is raised (wave lifts the arm 95 degrees above the A-pose); the left hand,
  // the head and the feet walk as before.
  EXPECT_GT(joint_origin(over, "hand_r")[1] - joint_origin(walk, "hand_r")[1], 0.5);
  for (const char* joint : {"hand_l", "head", "foot_l", "foot_r", "spine_03"})
    EXPECT_LT(distance(joint_origin(over, joint), joint_origin(walk, joint)), 1e-5) << joint;
  // Without the mask, wave's other channels (the left arm, the head) replace walk's too; the
  // legs, which wave does not key, still walk (sparse tracks).
  const nlohmann::json whole =
      blend_dump(kDefault, {"--clip", "walk", "--time", "0.3", "--layer", "wave"});
  EXPECT_GT(distance(joint_origin(whole, "hand_l"), joint_origin(walk, "hand_l")), 0.05);
  EXPECT_LT(distance(joint_origin(whole, "foot_l"), joint_origin(walk, "foot_l")), 1e-5);
  // At weight 0 the layer changes nothing.
  const nlohmann::json none =
      blend_dump(kDefault, {"--clip", "walk", "--time", "0.3", "--layer", "wave:weight=0"});
  EXPECT_LT(max_move(none, walk), 1e-5);
  // A layer's time: wave at its own 1.1 s over walk at 0.3 s bends the right arm below the
  // shoulder as wave does at 1.1 s (and not as it does at 0.3 s).
  const auto elbow_and_hand = [](const nlohmann::json& j) {
    std::vector<double> v = origin_in(j, "upperarm_r", "forearm_r");
    const std::vector<double> h = origin_in(j, "forearm_r", "hand_r");
    v.insert(v.end(), h.begin(), h.end());
    const std::vector<double> tip = origin_in(j, "upperarm_r", "hand_r");
    v.insert(v.end(), tip.begin(), tip.end());
    return v;
  };
  const auto differ = [](const std::vector<double>& a, const std::vector<double>& b) {
    double d = 0.0;
    for (std::size_t i = 0; i < a.size(); ++i) d = std::max(d, std::abs(a[i] - b[i]));
    return d;
  };
  const nlohmann::json timed = blend_dump(
      kDefault, {"--clip", "walk", "--time", "0.3", "--layer", "wave:time=1.1:mask=upperarm_r"});
  const auto wave_at = [&](const char* t) {
    return elbow_and_hand(blend_dump(kDefault, {"--clip", "wave", "--time", t}));
  };
  EXPECT_LT(differ(elbow_and_hand(timed), wave_at("1.1")), 1e-5);
  EXPECT_GT(differ(elbow_and_hand(timed), wave_at("0.3")), 0.01);
}

TEST(BlendCli, CrossFadeStartsAtFromAndEndsAtTo) {
  const std::vector<std::string> fade = {"--crossfade", "walk:wave:0.5:0.25"};
  std::vector<std::string> before = fade, after = fade;
  before.insert(before.end(), {"--time", "0.2"});
  after.insert(after.end(), {"--time", "1.0"});
  // Before the fade: walk at 0.2 s. After it: wave from its start, at 1.0 - 0.5 = 0.5 s.
  EXPECT_LT(max_move(blend_dump(kDefault, before),
                     blend_dump(kDefault, {"--clip", "walk", "--time", "0.2"})),
            1e-5);
  EXPECT_LT(max_move(blend_dump(kDefault, after),
                     blend_dump(kDefault, {"--clip", "wave", "--time", "0.5"})),
            1e-5);
  // Halfway, neither.
  const nlohmann::json mid =
      blend_dump(kDefault, {"--crossfade", "walk:wave:0.5:0.25", "--time", "0.625"});
  EXPECT_GT(max_move(mid, blend_dump(kDefault, {"--clip", "walk", "--time", "0.625"})), 0.05);
  EXPECT_GT(max_move(mid, blend_dump(kDefault, {"--clip", "wave", "--time", "0.125"})), 0.05);
}

TEST(BlendCli, BlendsAreContinuousAtFadeEndsAndLoopSeams) {
  // Testwuson: walk (3.6 s) into run (0.97 s) with the cycles in phase, from 1 s over 0.5 s,
  // and run at half weight on the right leg on top.
  const std::vector<std::string> wuson = {"--crossfade", "Wuson_Walk:Wuson_Run:1.0:0.5:sync",
                                          "--layer", "Wuson_Run:weight=0.5:time=0.2"};
  for (const double t : {1.0, 1.5}) EXPECT_LT(jump_ratio(kWuson, wuson, t), 0.3) << t;
  // The default character, whose clips loop exactly: idle into walk from 0.3 s over 0.4 s,
  // wave on the right arm half a second ahead. Walk's seams fall at 1.5 s and 2.7 s, wave's at
  // 1.5 s, idle's at 4 s (under the finished fade).
  const std::vector<std::string> character = {"--crossfade", "idle:walk:0.3:0.4", "--layer",
                                              "wave:mask=clavicle_r:time=0.5"};
  for (const double t : {0.3, 0.7, 1.5, 2.7, 4.0})
    EXPECT_LT(jump_ratio(kDefault, character, t), 0.3) << t;
  // Walk into run in phase, with breathing added: the fade's ends, run's seams (where the synced
  // phase p = 0.5 / 1.2 + 0.5 / (0.7 - 1.2) ln(0.7 / 1.2) at the fade's end, then + (t - 1) / 0.7,
  // crosses a whole number) and breathe's (3.5 s).
  const std::vector<std::string> run = {"--crossfade", "walk:run:0.5:0.5:sync", "--layer",
                                        "breathe:additive"};
  const double p_end = 0.5 / 1.2 + 0.5 / (0.7 - 1.2) * std::log(0.7 / 1.2);
  for (const double t : {0.5, 1.0, 1.0 + (1.0 - p_end) * 0.7, 1.0 + (2.0 - p_end) * 0.7, 3.5})
    EXPECT_LT(jump_ratio(kDefault, run, t), 0.3) << t;
  // The check sees a real pop: Wuson_Run's own seam, whose first and last keys differ by ~6 %
  // of the model's height (the fade comes much later, so run plays alone and loops).
  EXPECT_GT(jump_ratio(kWuson, {"--crossfade", "Wuson_Run:Wuson_Walk:5:1"}, 0.9666667), 0.5);
}

TEST(BlendCli, BadSpecsExit2WithOneLineNamingTheProblem) {
  const std::string out = temp_file("bad.json");
  const auto bad = [&](std::vector<std::string> extra, const std::string& mention) {
    std::vector<std::string> args{kExe, "--dump", kDefault, "-o", out};
    args.insert(args.end(), extra.begin(), extra.end());
    expect_bad_input(args, mention);
  };
  bad({"--layer", "nope"}, "--layer 'nope': no clip 'nope' in " + kDefault +
                               "; clips: idle, walk, wave, twist, run, breathe");
  bad({"--layer", "wave:weight=1.5"}, "weight '1.5' is not a number in [0, 1]");
  bad({"--layer", "wave:weight=abc"}, "weight 'abc'");
  bad({"--layer", "wave:time=-2"}, "time '-2' is not a time in seconds >= 0");
  bad({"--layer", "wave:mask=nose"},
      "mask=: no joint 'nose' in " + kDefault + "; joints: ROOT, root, hips");
  bad({"--layer", "wave:colour=red"}, "unknown option 'colour'");
  bad({"--layer", "wave:ref=1"}, "ref= is for additive layers");
  bad({"--layer", ":additive"}, "no clip name");
  bad({"--crossfade", "walk:wave:1"}, "want FROM:TO:START:DURATION[:sync]");
  bad({"--crossfade", "walk:nope:1:1"}, "'walk:nope' is not FROM:TO, two clips: no clip");
  bad({"--crossfade", "walk:wave:1:-1"}, "DURATION '-1'");
  bad({"--crossfade", "walk:wave:1:1", "--clip", "walk"}, "excludes");
  bad({"--rest-pose", "--layer", "wave"}, "excludes");
  bad({"--bind-pose", "--crossfade", "walk:wave:1:1"}, "excludes");
  std::filesystem::remove(out);
  // The window checks the same before it opens: these fail without a display.
  expect_bad_input(windowless({kDefault, "--layer", "wave:weight=2"}), "weight '2'");
  expect_bad_input(windowless({kDefault, "--layer", "nope"}), "--layer 'nope': no clip 'nope'");
  expect_bad_input(windowless({kDefault, "--crossfade", "walk:wave:1"}), "want FROM:TO");
}

}  // namespace
}  // namespace sv::test
