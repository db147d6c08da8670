// Live reload's parts without a window: the settle rule (app/file_watch.h) on times and
// identities the test makes up, the watcher's thread on real files, what a reload keeps of the
// session (app/reload_session.h) on models built here, the files the ModelLoader says a read
// depends on, and "Watch files" clicked in headless ImGui.
#include <algorithm>
#include <chrono>
#include <fstream>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "app/file_watch.h"
#include "app/model_loader.h"
#include "app/reload_session.h"
#include "skinned_quad_gltf.h"
#include "temp_dir.h"
#include "test_util.h"
#include "ui/ui_fixture.h"

namespace sv::test {
namespace {

FileIdentity id(uint64_t size, int64_t mtime) {
  FileIdentity f;
  f.exists = true;
  f.size = size;
  f.mtime_ns = mtime;
  return f;
}

TEST(SettleRule, AChangeFiresOnceItHasKeptStillForTheSettleInterval) {
  SettleRule rule(0.5);
  const std::vector<FileIdentity> shown{id(100, 1), id(50, 1)};
  rule.rebase(shown);
  EXPECT_FALSE(rule.step(0.0, shown));
  EXPECT_FALSE(rule.step(10.0, shown)) << "nothing changed";
  // A writer appends at t = 10.1 and 10.4: the change has been still since 10.4.
  std::vector<FileIdentity> now{id(40, 2), id(50, 1)};
  EXPECT_FALSE(rule.step(10.1, now));
  EXPECT_TRUE(rule.pending());
  now[0] = id(80, 3);
  EXPECT_FALSE(rule.step(10.4, now));
  EXPECT_FALSE(rule.step(10.6, now)) << "0.5 s after 10.1, but only 0.2 s after the last write";
  EXPECT_FALSE(rule.step(10.89, now));
  EXPECT_TRUE(rule.step(10.9, now)) << "still for 0.5 s since 10.4";
  EXPECT_FALSE(rule.pending());
  EXPECT_FALSE(rule.step(20.0, now)) << "fires once per change";
  // A side file changes and comes back as it was before anything fired: nothing to read.
  std::vector<FileIdentity> side = now;
  side[1] = id(51, 4);
  EXPECT_FALSE(rule.step(21.0, side));
  EXPECT_FALSE(rule.step(21.2, now));
  EXPECT_FALSE(rule.step(30.0, now));
  // A file removed (a save by rename, half way) and back with new bytes: one change.
  std::vector<FileIdentity> gone = now;
  gone[0] = FileIdentity{};
  EXPECT_FALSE(rule.step(40.0, gone));
  std::vector<FileIdentity> back = now;
  back[0] = id(80, 9);
  EXPECT_FALSE(rule.step(40.3, back));
  EXPECT_TRUE(rule.step(40.8, back));
  // Misuse (another count of files than rebased) fires nothing.
  EXPECT_FALSE(rule.step(50.0, std::vector<FileIdentity>{id(1, 1)}));
}

TEST(FileWatcher, CountsOneSettledChangePerRewriteOfAnyFileItWatches) {
  TempDir dir;
  const std::string a = dir / "a.txt", b = dir / "b.bin";
  ASSERT_TRUE(write_file(a, "one"));
  ASSERT_TRUE(write_file(b, "side"));
  FileWatcher watcher(0.01, 0.05);
  watcher.watch({a, b});
  EXPECT_EQ(watcher.watched(), 2u);
  EXPECT_EQ(watcher.changes(), 0u);
  auto wait_for_changes = [&](uint64_t n) {
    for (int i = 0; i < 2000 && watcher.changes() < n; ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    return watcher.changes();
  };
  ASSERT_TRUE(write_file(b, "side, longer"));
  EXPECT_EQ(wait_for_changes(1), 1u);
  ASSERT_TRUE(write_file(a, "two, longer"));
  EXPECT_EQ(wait_for_changes(2), 2u);
  // A new list keeps the baseline of a file it had: a change made before the switch fires.
  ASSERT_TRUE(write_file(a, "three, longer still"));
  watcher.watch({a});
  EXPECT_EQ(wait_for_changes(3), 3u);
  EXPECT_EQ(watcher.watched(), 1u);
}

// Two joints "hip" -> "hand" and clips "idle" (1 s) and "walk" (2 s); `extra` adds a joint
// "tail" before "hand", moving it to index 2, and a clip "run" before "walk".
Model two_clip_model(bool extra) {
  Model m;
  m.skeleton.names = {"hip"};
  m.skeleton.parents = {-1};
  if (extra) {
    m.skeleton.names.push_back("tail");
    m.skeleton.parents.push_back(0);
  }
  m.skeleton.names.push_back("hand");
  m.skeleton.parents.push_back(0);
  const std::size_t n = m.skeleton.names.size();
  m.skeleton.rest.resize(n);
  m.skeleton.inverse_bind.assign(n, glm::mat4(1.0f));
  m.skeleton.is_bone.assign(n, 1);
  std::vector<std::pair<std::string, double>> clips{{"idle", 1.0}, {"walk", 2.0}};
  if (extra) clips.insert(clips.begin() + 1, {"run", 0.5});
  for (const auto& [name, duration] : clips) {
    Clip c;
    c.name = name;
    c.duration = duration;
    JointChannel ch;
    ch.joint = 0;
    ch.translation.times = {0.0, duration};
    ch.translation.values = {glm::vec3(0), glm::vec3(1)};
    c.channels.push_back(std::move(ch));
    m.clips.emplace_back();
    EXPECT_EQ(m.clips.back().build(c, m.skeleton), "");
  }
  return m;
}

TEST(ReloadSession, ClipTimeLayersAndSelectionCarryOverByName) {
  const Model before = two_clip_model(false), after = two_clip_model(true);
  Player p;
  p.clip = 1;  // walk
  p.time = 1.5;
  p.speed = 0.5f;
  p.playing = false;
  StackPlayer stack;
  PlayedLayer layer;
  layer.player.clip = 0;  // idle
  layer.player.time = 0.75;
  layer.weight = 0.25f;
  layer.mask = {0.0f, 1.0f};  // hip 0, hand 1
  stack.layers.push_back(layer);
  const KeptSession kept = keep_session(before, p, stack, true, 1 /* hand */);

  Player np;
  StackPlayer ns;
  bool z_up = false;
  int32_t joint = -1;
  EXPECT_EQ(restore_session(kept, after, &np, &ns, &z_up, &joint), "");
  EXPECT_EQ(np.clip, 2) << "walk moved from 1 to 2";
  EXPECT_EQ(np.time, 1.5);
  EXPECT_EQ(np.speed, 0.5f);
  EXPECT_FALSE(np.playing);
  EXPECT_TRUE(z_up);
  EXPECT_EQ(joint, 2) << "hand moved from 1 to 2";
  ASSERT_EQ(ns.layers.size(), 1u);
  EXPECT_EQ(ns.layers[0].player.clip, 0);
  EXPECT_EQ(ns.layers[0].player.time, 0.75);
  EXPECT_EQ(ns.layers[0].weight, 0.25f);
  // hip 0, the new tail 1 (as an unmasked layer), hand 1.
  EXPECT_EQ(ns.layers[0].mask, (std::vector<float>{0.0f, 1.0f, 1.0f}));
}

TEST(ReloadSession, WhatIsGoneIsDroppedAndNamedAndTimesClampToTheNewEnd) {
  const Model before = two_clip_model(true), after = two_clip_model(false);
  Player p;
  p.clip = 1;  // run: not in `after`
  p.time = 0.4;
  StackPlayer stack;
  PlayedLayer layer;
  layer.player.clip = 1;  // run
  stack.layers.push_back(layer);
  KeptSession kept = keep_session(before, p, stack, false, 1 /* tail */);
  Player np;
  StackPlayer ns;
  bool z_up = true;
  int32_t joint = 0;
  EXPECT_EQ(restore_session(kept, after, &np, &ns, &z_up, &joint),
            "clip 'run' is gone: the rest pose; joint 'tail' is gone; layer clip 'run' is gone");
  EXPECT_EQ(np.clip, kRestPose);
  EXPECT_EQ(np.time, 0.0);
  EXPECT_EQ(joint, -1);
  EXPECT_FALSE(z_up);
  EXPECT_TRUE(ns.layers.empty());
  // walk at 1.8 s, and the new walk is only 2 s: kept; on a 1 s idle the time clamps to 1.
  p.clip = 2;
  p.time = 1.8;
  kept = keep_session(before, p, StackPlayer{}, false, -1);
  EXPECT_EQ(restore_session(kept, after, &np, &ns, &z_up, &joint), "");
  EXPECT_EQ(np.clip, 1);
  EXPECT_EQ(np.time, 1.8);
  kept.clip = "idle";
  EXPECT_EQ(restore_session(kept, after, &np, &ns, &z_up, &joint), "");
  EXPECT_EQ(np.clip, 0);
  EXPECT_EQ(np.time, 1.0);
  // The bind pose stays the bind pose.
  p.clip = kBindPose;
  kept = keep_session(before, p, StackPlayer{}, false, -1);
  EXPECT_EQ(restore_session(kept, after, &np, &ns, &z_up, &joint), "");
  EXPECT_EQ(np.clip, kBindPose);
}

ModelLoader::Finished wait_for_reload(ModelLoader& loader) {
  for (;;) {
    if (std::optional<ModelLoader::Finished> done = loader.poll()) return std::move(*done);
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
}

// The files a read depends on: the .gltf and its .bin, read by the worker or (the second time)
// from the cache, where the entry lists the .bin where it is now.
TEST(ReloadFiles, TheLoaderListsTheModelAndTheFilesItsImportRead) {
  TempDir dir, cache;
  const std::string model = write_tiny_gltf(dir.path(), "tiny", TinyGltf{});
  ImportOptions options;
  options.cache_dir = cache.path();
  for (const bool from_cache : {false, true}) {
    ModelLoader loader(options);
    ASSERT_EQ(loader.start(model), "");
    const ModelLoader::Finished done = wait_for_reload(loader);
    ASSERT_TRUE(done.result.ok()) << done.result.error;
    EXPECT_EQ(done.result.from_cache, from_cache);
    ASSERT_EQ(done.files.size(), 2u);
    EXPECT_EQ(done.files[0], model);
    EXPECT_EQ(std::filesystem::canonical(done.files[1]),
              std::filesystem::canonical(dir / "tiny.bin"));
  }
  // The same bytes in another folder: a cache hit, watching that folder's .bin.
  TempDir other;
  const std::string moved = write_tiny_gltf(other.path(), "tiny", TinyGltf{});
  ModelLoader loader(options);
  ASSERT_EQ(loader.start(moved), "");
  const ModelLoader::Finished done = wait_for_reload(loader);
  ASSERT_TRUE(done.result.ok()) << done.result.error;
  EXPECT_TRUE(done.result.from_cache);
  ASSERT_EQ(done.files.size(), 2u);
  EXPECT_EQ(std::filesystem::canonical(done.files[1]),
            std::filesystem::canonical(other / "tiny.bin"));
}

// --joint-map's file is among the files a read with added animations depends on (live reload
// watches it), and each read takes the map as it is on disk now: an edited map is used at the
// next reload, a broken one fails that read.
TEST(ReloadFiles, TheJointMapIsWatchedAndReadAgainWithEveryRead) {
  TempDir dir, anims;
  const std::string model = write_tiny_gltf(dir.path(), "tiny", TinyGltf{});
  const std::string anim = write_tiny_gltf(anims.path(), "moves", TinyGltf{});
  const std::string map = dir.path() + "/map.json";
  std::ofstream(map) << R"({"root": "root"})";
  AnimationSources sources;
  sources.files = {anim};
  sources.joint_map_file = map;
  ModelLoader loader;
  loader.set_animations(sources);
  ASSERT_EQ(loader.start(model), "");
  ModelLoader::Finished done = wait_for_reload(loader);
  ASSERT_TRUE(done.result.ok()) << done.result.error;
  EXPECT_NE(std::find(done.files.begin(), done.files.end(), map), done.files.end())
      << "the joint map is watched";
  const auto names_nothing = [](const ModelLoader::Finished& d) {
    for (const std::string& note : d.result.report.notes)
      if (note.find("joint map entry nosuch -> root names no joint") != std::string::npos)
        return true;
    return false;
  };
  EXPECT_FALSE(names_nothing(done));
  // The map edited: the next read (a reload) uses it.
  std::ofstream(map, std::ios::trunc) << R"({"nosuch": "root"})";
  ASSERT_EQ(loader.start(model), "");
  done = wait_for_reload(loader);
  ASSERT_TRUE(done.result.ok()) << done.result.error;
  EXPECT_TRUE(names_nothing(done));
  // Broken: the read fails naming the map (the window keeps the previous model).
  std::ofstream(map, std::ios::trunc) << "{not json";
  ASSERT_EQ(loader.start(model), "");
  done = wait_for_reload(loader);
  EXPECT_FALSE(done.result.ok());
  EXPECT_NE(done.result.error.find("map.json"), std::string::npos) << done.result.error;
  EXPECT_NE(std::find(done.files.begin(), done.files.end(), map), done.files.end())
      << "still watched, so the fixed map reloads";
}

TEST(ReloadClicks, WatchFilesIsACheckBoxInTheFileSection) {
  UiFixture f(std::string(SKINVIEW_SOURCE_DIR) + "/assets/default.glb");
  EXPECT_FALSE(f.state.files.watch);
  ASSERT_TRUE(f.click_mark("check:Watch files"));
  EXPECT_TRUE(f.state.files.watch);
  ASSERT_TRUE(f.click_mark("check:Watch files"));
  EXPECT_FALSE(f.state.files.watch);
}

}  // namespace
}  // namespace sv::test
