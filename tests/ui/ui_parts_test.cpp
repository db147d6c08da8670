// The UI's pure parts: clip facts and key jumps, frame steps, the joint tree's rows, the file
// browser's listing and Recent kept across restarts, the bindings table and the README's copy of
// it, and per-joint influence counts.
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "anim/model.h"
#include "anim/player.h"
#include "ui/clip_info.h"
#include "ui/controls.h"
#include "ui/files.h"
#include "ui/outliner.h"
#include "ui/ui.h"

#include "temp_dir.h"

namespace sv {
namespace {

namespace fs = std::filesystem;

TEST(ClipInfo, StepTimeMovesOneFrameAndClamps) {
  EXPECT_DOUBLE_EQ(ui::step_time(0.0, 1.0, 1, 30), 1.0 / 30.0);
  EXPECT_DOUBLE_EQ(ui::step_time(0.5, 1.0, -1, 10), 0.4);
  EXPECT_DOUBLE_EQ(ui::step_time(0.99, 1.0, 1, 30), 1.0);
  EXPECT_DOUBLE_EQ(ui::step_time(0.0, 1.0, -1, 30), 0.0);
  EXPECT_DOUBLE_EQ(ui::step_time(0.3, 0.0, 1, 30), 0.0);  // the rest pose has no frames
}

Model two_joint_clip_model() {
  Model m;
  m.skeleton.names = {"a", "b"};
  m.skeleton.parents = {-1, 0};
  m.skeleton.rest.resize(2);
  m.skeleton.inverse_bind.assign(2, glm::mat4(1.0f));
  m.skeleton.is_bone = {1, 1};
  Clip clip;
  clip.name = "go";
  clip.duration = 2.0f;
  JointChannel a;
  a.joint = 0;
  a.translation.times = {0.0f, 1.0f, 2.0f};
  a.translation.values.resize(3);
  JointChannel b;
  b.joint = 1;
  b.rotation.times = {0.25f, 1.0f, 1.5f};
  b.rotation.values.resize(3);
  clip.channels.push_back(std::move(a));
  clip.channels.push_back(std::move(b));
  m.clips.emplace_back();
  EXPECT_EQ(m.clips.back().build(clip, m.skeleton), "");
  return m;
}

TEST(ClipInfo, KeyTimesOfOneJointOrAllAndTheAdjacentKey) {
  const Model m = two_joint_clip_model();
  EXPECT_EQ(ui::clip_count(m), 1u);
  EXPECT_EQ(ui::clip_name(m, 0), "go");
  EXPECT_EQ(ui::clip_name(m, kRestPose), "");
  EXPECT_DOUBLE_EQ(ui::clip_duration(m, 0), 2.0);
  EXPECT_DOUBLE_EQ(ui::clip_duration(m, 5), 0.0);
  std::vector<double> keys;
  ui::key_times(m, 0, 1, keys);
  EXPECT_EQ(keys, (std::vector<double>{0.25, 1.0, 1.5}));
  ui::key_times(m, 0, -1, keys);  // merged, 1.0 once
  EXPECT_EQ(keys, (std::vector<double>{0.0, 0.25, 1.0, 1.5, 2.0}));
  ui::key_times(m, kRestPose, -1, keys);
  EXPECT_TRUE(keys.empty());
  ui::key_times(m, 0, -1, keys);
  EXPECT_DOUBLE_EQ(ui::adjacent_time(keys, 0.0, 1), 0.25);
  EXPECT_DOUBLE_EQ(ui::adjacent_time(keys, 0.25, 1), 1.0);
  EXPECT_DOUBLE_EQ(ui::adjacent_time(keys, 1.2, -1), 1.0);
  EXPECT_DOUBLE_EQ(ui::adjacent_time(keys, 1.0, -1), 0.25);
  EXPECT_DOUBLE_EQ(ui::adjacent_time(keys, 2.0, 1), 2.0);  // none after the last key
  EXPECT_DOUBLE_EQ(ui::adjacent_time(keys, 0.0, -1), 0.0);
}

TEST(JointInfluences, CountsVerticesAndTheLargestWeightPerJoint) {
  Model m = two_joint_clip_model();
  m.skeleton.names.push_back("plain");
  m.skeleton.parents.push_back(0);
  m.skeleton.rest.emplace_back();
  m.skeleton.inverse_bind.emplace_back(1.0f);
  m.skeleton.is_bone.push_back(0);
  Mesh mesh;
  mesh.positions.resize(3);
  mesh.skin_joints = {1, 0};  // bone 0 is joint b, bone 1 joint a
  mesh.joints = {{0, 1, 0, 0}, {0, 0, 0, 0}, {1, 0, 0, 0}};
  mesh.weights = {{0.75f, 0.25f, 0, 0}, {1, 0, 0, 0}, {0.6f, 0.4f, 0, 0}};
  m.meshes.push_back(std::move(mesh));
  const std::vector<JointInfluence> ji = joint_influences(m);
  ASSERT_EQ(ji.size(), 3u);
  EXPECT_EQ(ji[0].vertices, 2u);  // a: 0.25 on vertex 0, 0.6 on vertex 2
  EXPECT_FLOAT_EQ(ji[0].max_weight, 0.6f);
  EXPECT_EQ(ji[1].vertices, 3u);  // b: 0.75, 1, 0.4
  EXPECT_FLOAT_EQ(ji[1].max_weight, 1.0f);
  EXPECT_EQ(ji[2].vertices, 0u);  // a plain node
  EXPECT_FLOAT_EQ(ji[2].max_weight, 0.0f);
}

// root -> (spine -> (arm_l, arm_r), leg); names in file order, parents first.
Skeleton tree() {
  Skeleton s;
  s.names = {"root", "spine", "Arm_L", "arm_r", "leg"};
  s.parents = {-1, 0, 1, 1, 0};
  s.rest.resize(5);
  s.inverse_bind.assign(5, glm::mat4(1.0f));
  s.is_bone = {0, 1, 1, 1, 1};
  return s;
}

TEST(JointTree, RowsFollowTheOpenNodesAndTheFilter) {
  const Skeleton s = tree();
  ui::JointTreeState t;
  t.reset(s);
  ui::build_rows(s, t);
  EXPECT_EQ(t.rows, (std::vector<int32_t>{0, 1, 2, 3, 4}));
  EXPECT_EQ(t.depth, (std::vector<uint16_t>{0, 1, 2, 2, 1}));
  t.expanded[1] = 0;  // close spine
  ui::build_rows(s, t);
  EXPECT_EQ(t.rows, (std::vector<int32_t>{0, 1, 4}));
  std::snprintf(t.filter, sizeof(t.filter), "arm");
  ui::build_rows(s, t);  // a filter shows matches with their ancestors, open
  EXPECT_EQ(t.rows, (std::vector<int32_t>{0, 1, 2, 3}));
  EXPECT_EQ(t.matched, (std::vector<uint8_t>{0, 0, 1, 1}));
  EXPECT_EQ(t.matches, 2u);
  std::snprintf(t.filter, sizeof(t.filter), "nothing");
  ui::build_rows(s, t);
  EXPECT_TRUE(t.rows.empty());
  t.filter[0] = '\0';
  ui::expand_to(s, t, 3);  // reveal arm_r: spine opens again
  EXPECT_TRUE(t.dirty);
  ui::build_rows(s, t);
  EXPECT_EQ(t.rows.size(), 5u);
}

TEST(JointTree, LargeSkeletonsOpenTheirFirstLevelsOnly) {
  Skeleton s;
  for (int i = 0; i < 1000; ++i) {  // a chain 1000 deep
    s.names.push_back(std::to_string(i).insert(0, 1, 'j'));
    s.parents.push_back(i - 1);
  }
  s.rest.resize(1000);
  s.inverse_bind.assign(1000, glm::mat4(1.0f));
  s.is_bone.assign(1000, 1);
  ui::JointTreeState t;
  t.reset(s);
  ui::build_rows(s, t);
  EXPECT_EQ(t.rows.size(), 3u);  // root, its child, and its grandchild (closed)
  ui::expand_to(s, t, 999);
  ui::build_rows(s, t);
  EXPECT_EQ(t.rows.size(), 1000u);
  EXPECT_EQ(t.depth.back(), 999);
}

using test::TempDir;

void touch(const std::string& p) { std::ofstream(p) << "x"; }

TEST(Files, FoldersFirstCaseInsensitiveFilteredByExtension) {
  TempDir d;
  for (const char* f : {"b.GLB", "a.fbx", "C.gltf", "notes.txt", ".hidden.glb", "noext"}) {
    touch(d.path() + "/" + f);
  }
  fs::create_directory(d.path() + "/zeta");
  fs::create_directory(d.path() + "/Alpha");
  fs::create_directory(d.path() + "/.git");
  const std::vector<std::string> ext = {"fbx", "glb", "gltf"};
  std::string error;
  const std::vector<ui::FolderEntry> e = ui::list_folder(d.path(), ext, &error);
  EXPECT_EQ(error, "");
  std::vector<std::string> names;
  for (const ui::FolderEntry& x : e) names.push_back(x.name + (x.folder ? "/" : ""));
  EXPECT_EQ(names, (std::vector<std::string>{"Alpha/", "zeta/", "a.fbx", "b.GLB", "C.gltf"}));
  ui::list_folder(d.path() + "/missing", ext, &error);
  EXPECT_NE(error.find("cannot read"), std::string::npos);
  EXPECT_TRUE(ui::has_extension("x.MD5MESH", std::vector<std::string>{"md5mesh"}));
  EXPECT_FALSE(ui::has_extension("x.", ext));
  EXPECT_FALSE(ui::has_extension("glb", ext));
}

TEST(Files, RecentIsMostRecentFirstWithoutDuplicates) {
  ui::FileState s;
  ui::remember_recent(s, "a");
  ui::remember_recent(s, "b");
  ui::remember_recent(s, "a");
  EXPECT_EQ(s.recent[0], "a");
  EXPECT_EQ(s.recent[1], "b");
  EXPECT_EQ(s.recent[2], "");
  for (int i = 0; i < 20; ++i) ui::remember_recent(s, std::to_string(i));
  EXPECT_EQ(s.recent[0], "19");
  EXPECT_EQ(s.recent[ui::kRecent - 1], std::to_string(20 - ui::kRecent));
}

// Recent survives a restart: written under $XDG_CONFIG_HOME/skinview/ (created on demand) and
// read back by a fresh state; HOME/.config is the fallback; a relative XDG_CONFIG_HOME is ignored.
TEST(Files, RecentSurvivesRestartsInTheXdgConfigFolder) {
  TempDir d;
  const char* old_xdg = std::getenv("XDG_CONFIG_HOME");
  const char* old_home = std::getenv("HOME");
  const std::string saved_xdg = old_xdg != nullptr ? old_xdg : "";
  const std::string saved_home = old_home != nullptr ? old_home : "";
  ::setenv("XDG_CONFIG_HOME", (d.path() + "/config").c_str(), 1);
  EXPECT_EQ(ui::recent_file_path(), d.path() + "/config/skinview/recent");
  {
    ui::FileState s;
    s.recent_file = ui::recent_file_path();
    EXPECT_TRUE(ui::load_recent(s));  // nothing kept yet
    EXPECT_EQ(s.recent[0], "");
    ui::remember_recent(s, "/models/one.glb");
    ui::remember_recent(s, "/models/two with spaces.fbx");
    std::string error;
    ASSERT_TRUE(ui::save_recent(s, &error)) << error;
  }
  {
    ui::FileState s;
    s.recent_file = ui::recent_file_path();
    ASSERT_TRUE(ui::load_recent(s));
    EXPECT_EQ(s.recent[0], "/models/two with spaces.fbx");
    EXPECT_EQ(s.recent[1], "/models/one.glb");
    EXPECT_EQ(s.recent[2], "");
  }
  ::setenv("XDG_CONFIG_HOME", "relative/path", 1);
  ::setenv("HOME", d.path().c_str(), 1);
  EXPECT_EQ(ui::recent_file_path(), d.path() + "/.config/skinview/recent");
  ::unsetenv("XDG_CONFIG_HOME");
  EXPECT_EQ(ui::recent_file_path(), d.path() + "/.config/skinview/recent");
  if (old_xdg != nullptr) ::setenv("XDG_CONFIG_HOME", saved_xdg.c_str(), 1);
  if (old_home != nullptr) ::setenv("HOME", saved_home.c_str(), 1);
}

TEST(Controls, KeysMapToTheirActions) {
  EXPECT_EQ(ui::action_for({ui::kKeySpace, 0, 0}), ui::Action::TogglePlay);
  EXPECT_EQ(ui::action_for({ui::kKeyHome, 0, 0}), ui::Action::ResetView);
  EXPECT_EQ(ui::action_for({ui::kKeyF1, 0, 0}), ui::Action::Help);
  EXPECT_EQ(ui::action_for({0, 0, '?'}), ui::Action::Help);
  EXPECT_EQ(ui::action_for({ui::kKeyQ, ui::kModControl, 0}), ui::Action::Quit);
  EXPECT_EQ(ui::action_for({ui::kKeyQ, 0, 0}), ui::Action::None);
  EXPECT_EQ(ui::action_for({ui::kKeyF, ui::kModControl, 0}), ui::Action::None);
  EXPECT_EQ(ui::action_for({ui::kKeyF, 0, 0}), ui::Action::FrameSelected);
  EXPECT_EQ(ui::action_for({ui::kKeyA, 0, 0}), ui::Action::Frame);
  EXPECT_EQ(ui::action_for({0, 0, 'x'}), ui::Action::None);
  // Every listed binding names its input and what it does; an unlisted one (input null) is a
  // further key of the listed line above it.
  ASSERT_NE(ui::kBindings[0].input, nullptr);
  for (const ui::Binding& b : ui::kBindings) {
    if (b.input == nullptr) {
      EXPECT_EQ(b.what, nullptr);
      EXPECT_NE(b.key, 0);
      continue;
    }
    EXPECT_GT(std::string(b.input).size(), 0u);
    EXPECT_GT(std::string(b.what).size(), 3u) << b.input;
  }
}

// The README's Controls list is the table: regenerate it from controls_markdown() when a binding
// changes (the text between the two markers).
TEST(Controls, TheReadmeListsEveryBindingAsTheTableDoes) {
  std::ifstream in(std::string(SKINVIEW_SOURCE_DIR) + "/README.md");
  std::stringstream s;
  s << in.rdbuf();
  const std::string readme = s.str();
  const std::string begin = "<!-- controls: generated from src/ui/controls.h -->\n";
  const std::string end = "<!-- controls end -->";
  const std::size_t a = readme.find(begin), b = readme.find(end);
  ASSERT_NE(a, std::string::npos) << "README.md has no controls list";
  ASSERT_NE(b, std::string::npos);
  EXPECT_EQ(readme.substr(a + begin.size(), b - a - begin.size()), ui::controls_markdown());
  const std::string text = ui::controls_text();
  for (const ui::Binding& b : ui::kBindings) {
    if (b.what != nullptr) EXPECT_NE(text.find(b.what), std::string::npos);
  }
}

}  // namespace
}  // namespace sv

TEST(Performance, MeanFrameTimeCountsOnlyTheFramesDrawn) {
  std::vector<float> ring(240, 0.0f);
  EXPECT_EQ(sv::ui::mean_frame_seconds(ring), 0.0f);
  ring[0] = 0.02f;
  ring[1] = 0.04f;
  // Two frames drawn: 30 ms, not (60 ms / 240) = 0.25 ms, which would read 4,000 FPS.
  EXPECT_FLOAT_EQ(sv::ui::mean_frame_seconds(ring), 0.03f);
  std::fill(ring.begin(), ring.end(), 0.01f);
  EXPECT_NEAR(sv::ui::mean_frame_seconds(ring), 0.01f, 1e-6f);
}
