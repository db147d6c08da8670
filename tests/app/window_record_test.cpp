// The window's Record control and "Export pose (.glb)" below the UI (app/window_record.h,
// app/export_pose.h), on a scene and renderer made as the window makes them: recorded frames
// equal `skinview --record` with the same settings pixel for pixel, the window's player is left as
// it was, no UI frame waits for more than its budget plus one drawn frame, cancel keeps the PNGs
// written so far (and removes a video), bad input is refused with a message, and the exported
// pose is --export-pose's file, byte for byte.
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>
#include <stb_image.h>

#include "app/app_common.h"
#include "app/cli_util.h"
#include "app/export_pose.h"
#include "app/frame.h"
#include "app/video_pipe.h"
#include "app/viewer_scene.h"
#include "app/window_record.h"
#include "gfx/gl_context.h"
#include "gfx/renderer.h"
#include "temp_dir.h"

namespace sv::test {
namespace {

// The frames compute_frame (app/frame.h) runs here: the pipeline's own, not drawn.
sv::FrameState frames;

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

const std::string kModel = std::string(SKINVIEW_SOURCE_DIR) + "/assets/default.glb";

std::vector<unsigned char> pixels(const std::string& path, int* w, int* h) {
  int n = 0;
  unsigned char* p = stbi_load(path.c_str(), w, h, &n, 4);
  if (p == nullptr) {
    ADD_FAILURE() << "cannot read " << path;
    return {};
  }
  std::vector<unsigned char> out(p, p + static_cast<std::size_t>(*w) * *h * 4);
  stbi_image_free(p);
  return out;
}

std::vector<std::string> names_in(const std::string& dir) {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(dir)) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

std::vector<uint8_t> bytes_of(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// The window's scene and renderer on the test's context.
struct WindowLike {
  std::unique_ptr<Scene> scene;
  gl::Renderer renderer;
  bool ok = false;
  WindowLike() {
    std::string error;
    std::vector<std::string> warnings;
    if (!renderer.init(&error, &warnings)) {
      ADD_FAILURE() << error;
      return;
    }
    if (std::string e = load_scene(kModel, &scene); !e.empty()) {
      ADD_FAILURE() << e;
      return;
    }
    renderer.prepare(scene->doc.model);
    ok = true;
  }
  ~WindowLike() { scene.reset(); }
  int32_t clip(const char* name) const { return *resolve_clip(scene->doc.model, name); }
};

RecordOptions options(const char* fps, const char* to, const char* orbit = "") {
  RecordOptions o;
  o.fps = fps;
  o.to = to;
  o.orbit = orbit;
  return o;
}

// Steps until the recording ends (a minute at most), a UI frame every millisecond at most;
// returns the UI frames it took.
int run_to_end(WindowRecorder& rec, WindowLike& w, double budget) {
  int frames = 0;
  const auto end = Clock::now() + std::chrono::seconds(60);
  while (rec.running() && Clock::now() < end) {
    rec.step(*w.scene, w.renderer, budget);
    ++frames;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return frames;
}

TEST(WindowRecord, FramesEqualTheCommandLinesRecordAndThePlayerIsLeftAsItWas) {
  SV_REQUIRE_GL();
  WindowLike w;
  ASSERT_TRUE(w.ok);
  TempDir tmp;
  // What the window shows: the weights view of a selected joint under DQS with the skeleton,
  // 'walk' playing at 0.3 s (the recording runs on its own clock from --from).
  Player& p = w.scene->play.player;
  p.clip = w.clip("walk");
  p.time = 0.3;
  p.playing = true;
  RenderOptions ro;
  ro.view = ViewMode::Weights;
  ro.skeleton = true;
  ro.method = SkinMethod::Dqs;
  ro.selected_joint = w.scene->doc.model.skeleton.find("spine_03");
  ASSERT_GE(ro.selected_joint, 0);
  ro.hovered_joint = 2;  // the pointer's highlight is not recorded
  WindowRecorder rec;
  RecordOptions o = options("10", "0.9", "90");
  o.from = "0.4";
  ASSERT_EQ(rec.start(tmp / "window", o, "160x120", *w.scene, ro), "");
  EXPECT_TRUE(rec.running());
  EXPECT_EQ(rec.progress().total, 5);
  run_to_end(rec, w, 0.010);
  EXPECT_FALSE(rec.running());
  EXPECT_FALSE(rec.progress().error) << rec.progress().message;
  EXPECT_EQ(rec.progress().written, 5);
  EXPECT_NE(rec.progress().message.find("recorded 5 frames"), std::string::npos)
      << rec.progress().message;
  EXPECT_EQ(p.clip, w.clip("walk"));
  EXPECT_EQ(p.time, 0.3);
  EXPECT_TRUE(p.playing);

  ProcessResult r = run_process(
      {kExe,     kModel,    "--clip", "walk",     "--record",   tmp / "cli", "--fps",  "10",
       "--from", "0.4",     "--to",   "0.9",      "--orbit",    "90",        "--size", "160x120",
       "--view", "weights", "--bone", "spine_03", "--skeleton", "--method",  "dqs"},
      120.0);
  ASSERT_TRUE(r.exited());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::vector<std::string> names = names_in(tmp / "cli");
  ASSERT_EQ(names.size(), 5u);
  EXPECT_EQ(names_in(tmp / "window"), names);
  for (const std::string& n : names) {
    int wa = 0, ha = 0, wb = 0, hb = 0;
    const auto a = pixels(tmp / ("window/" + n), &wa, &ha);
    const auto b = pixels(tmp / ("cli/" + n), &wb, &hb);
    EXPECT_EQ(wa, 160);
    EXPECT_EQ(ha, 120);
    EXPECT_TRUE(wa == wb && ha == hb && !a.empty() && a == b) << n << " differs from --record's";
  }
  // The frames are not all one picture (the recording moves).
  int w0 = 0, h0 = 0;
  EXPECT_NE(pixels(tmp / ("window/" + names.front()), &w0, &h0),
            pixels(tmp / ("window/" + names.back()), &w0, &h0));
}

// Bounded by frames, not seconds (how long a frame takes depends on the machine): a zero budget
// draws one frame per UI frame at most, and whatever the budget, at most WindowRecorder::kBuffers
// frames are in flight between the window and the encoder.
TEST(WindowRecord, AZeroBudgetDrawsOneFrameAndNoBudgetOverrunsTheBuffers) {
  SV_REQUIRE_GL();
  WindowLike w;
  ASSERT_TRUE(w.ok);
  w.scene->play.player.clip = w.clip("walk");
  TempDir tmp;
  RenderOptions ro;
  WindowRecorder rec;
  ASSERT_EQ(rec.start(tmp / "one", options("30", ""), "640x360", *w.scene, ro), "");
  const int64_t total = rec.progress().total;
  EXPECT_EQ(total, 36);  // 'walk' is 1.2 s
  int ui_frames = 0;
  int64_t drawn = 0;
  while (rec.running()) {
    rec.step(*w.scene, w.renderer, 0.0);
    EXPECT_LE(rec.progress().drawn - drawn, 1);
    drawn = rec.progress().drawn;
    ++ui_frames;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  EXPECT_EQ(rec.progress().written, total) << rec.progress().message;
  EXPECT_GT(ui_frames, total);  // and the last ones waited for the worker without drawing

  // A budget of an hour: a UI frame draws only into buffers the encoder has given back (each
  // one after writing its PNG), so every frame drawn past the first kBuffers has its file on
  // disk already; the recording still ends whole.
  WindowRecorder greedy;
  ASSERT_EQ(greedy.start(tmp / "greedy", options("30", ""), "640x360", *w.scene, ro), "");
  ui_frames = 0;
  while (greedy.running()) {
    greedy.step(*w.scene, w.renderer, 3600.0);
    if (ui_frames == 0) {
      EXPECT_GE(greedy.progress().drawn, 1);
    }
    const auto on_disk = static_cast<int64_t>(names_in(tmp / "greedy").size());
    EXPECT_LE(greedy.progress().drawn, WindowRecorder::kBuffers + on_disk);
    ++ui_frames;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  EXPECT_EQ(greedy.progress().written, total) << greedy.progress().message;
  EXPECT_EQ(names_in(tmp / "greedy").size(), static_cast<std::size_t>(total));
}

TEST(WindowRecord, CancelKeepsThePngsWrittenSoFarInOrder) {
  SV_REQUIRE_GL();
  WindowLike w;
  ASSERT_TRUE(w.ok);
  w.scene->play.player.clip = w.clip("wave");
  TempDir tmp;
  WindowRecorder rec;
  ASSERT_EQ(rec.start(tmp / "frames", options("30", ""), "320x180", *w.scene, RenderOptions{}), "");
  ASSERT_EQ(rec.progress().total, 60);
  while (rec.running() && rec.progress().written < 3) {
    rec.step(*w.scene, w.renderer, 0.0);
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  rec.cancel();
  run_to_end(rec, w, 0.010);
  EXPECT_FALSE(rec.running());
  EXPECT_FALSE(rec.progress().error);
  const int64_t kept = rec.progress().written;
  EXPECT_GE(kept, 3);
  EXPECT_LT(kept, 60);
  EXPECT_NE(rec.progress().message.find("cancelled"), std::string::npos);
  EXPECT_NE(rec.progress().message.find(std::to_string(kept) + " frames of 60 kept"),
            std::string::npos)
      << rec.progress().message;
  std::vector<std::string> want;
  for (int64_t i = 0; i < kept; ++i) want.push_back(frame_name(i, 60));
  EXPECT_EQ(names_in(tmp / "frames"), want);
  // A new recording after a cancel works (into another folder: this one holds frames).
  EXPECT_NE(rec.start(tmp / "frames", options("30", ""), "320x180", *w.scene, RenderOptions{}), "");
  EXPECT_TRUE(rec.progress().error);
  ASSERT_EQ(rec.start(tmp / "again", options("30", "0.1"), "320x180", *w.scene, RenderOptions{}),
            "");
  run_to_end(rec, w, 0.010);
  EXPECT_EQ(names_in(tmp / "again").size(), 3u);
}

TEST(WindowRecord, AVideoHasItsFramesAndACancelledOneIsRemoved) {
  SV_REQUIRE_GL();
  const std::string ffmpeg = find_on_path("ffmpeg", std::getenv("PATH"));
  const std::string ffprobe = find_on_path("ffprobe", std::getenv("PATH"));
  if (ffmpeg.empty() || ffprobe.empty()) GTEST_SKIP() << "ffmpeg is not installed";
  WindowLike w;
  ASSERT_TRUE(w.ok);
  w.scene->play.player.clip = w.clip("walk");
  TempDir tmp;
  WindowRecorder rec;
  const std::string video = tmp / "walk.mp4";
  ASSERT_EQ(rec.start(video, options("10", ""), "160x120", *w.scene, RenderOptions{}), "");
  run_to_end(rec, w, 0.010);
  EXPECT_FALSE(rec.progress().error) << rec.progress().message;
  ProcessResult r = run_process({ffprobe, "-v", "error", "-count_frames", "-select_streams", "v:0",
                                 "-show_entries", "stream=nb_read_frames", "-of", "csv=p=0", video},
                                60.0);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(std::stoi(r.out), 12);  // 1.2 s at 10 frames/s

  const std::string cancelled = tmp / "cancelled.webm";
  ASSERT_EQ(rec.start(cancelled, options("30", ""), "160x120", *w.scene, RenderOptions{}), "");
  while (rec.running() && rec.progress().written < 2) {
    rec.step(*w.scene, w.renderer, 0.0);
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  rec.cancel();
  run_to_end(rec, w, 0.010);
  EXPECT_NE(rec.progress().message.find("was removed"), std::string::npos)
      << rec.progress().message;
  EXPECT_FALSE(fs::exists(cancelled));
}

TEST(WindowRecord, BadInputIsRefusedWithAMessageAndNothingRuns) {
  SV_REQUIRE_GL();
  WindowLike w;
  ASSERT_TRUE(w.ok);
  w.scene->play.player.clip = w.clip("walk");
  TempDir tmp;
  std::ofstream(tmp / "a_file") << "x";
  struct Case {
    std::string out;
    RecordOptions options;
    std::string size;
    const char* says;
  };
  const std::vector<Case> cases = {
      {"", options("30", ""), "320x180", "type a folder"},
      {tmp / "a_file/sub", options("30", ""), "320x180", "cannot create"},
      {tmp / "out.avi", options("30", ""), "320x180", ".mp4"},
      {tmp / "f", options("abc", ""), "320x180", "bad --fps 'abc'"},
      {tmp / "f", options("30", "-1"), "320x180", "bad --to '-1'"},
      {tmp / "f", options("30", ""), "320by180", "bad size '320by180'"},
  };
  WindowRecorder rec;
  for (const Case& c : cases) {
    const std::string e = rec.start(c.out, c.options, c.size, *w.scene, RenderOptions{});
    EXPECT_NE(e.find(c.says), std::string::npos) << c.out << ": " << e;
    EXPECT_FALSE(rec.running());
    EXPECT_TRUE(rec.progress().error);
    EXPECT_EQ(rec.progress().message, e);
  }
  // No ffmpeg on PATH: the command line's message.
  const std::string path = std::getenv("PATH");
  ::setenv("PATH", (tmp / "empty").c_str(), 1);
  const std::string e =
      rec.start(tmp / "v.mp4", options("30", ""), "320x180", *w.scene, RenderOptions{});
  ::setenv("PATH", path.c_str(), 1);
  EXPECT_NE(e.find(ffmpeg_missing_message()), std::string::npos) << e;
  EXPECT_FALSE(fs::exists(tmp / "v.mp4"));
  // A blend is refused, not recorded as its base clip.
  w.scene->play.stack.layers.emplace_back();
  EXPECT_NE(rec.start(tmp / "f", options("30", ""), "320x180", *w.scene, RenderOptions{})
                .find("layers and cross-fades"),
            std::string::npos);
  w.scene->play.stack.layers.clear();
  // So is a crowd (on the window's clock); one turned on during a recording stops it.
  CrowdSettings crowd;
  crowd.count = 4;
  ASSERT_EQ(w.scene->frame.crowd.configure(w.scene->doc.model, crowd, w.scene->play.player.clip),
            "");
  EXPECT_NE(rec.start(tmp / "f", options("30", ""), "320x180", *w.scene, RenderOptions{})
                .find("crowds are not recorded"),
            std::string::npos);
  w.scene->frame.crowd.clear();
  EXPECT_FALSE(fs::exists(tmp / "f"));
  ASSERT_EQ(rec.start(tmp / "g", options("30", ""), "160x120", *w.scene, RenderOptions{}), "");
  ASSERT_EQ(w.scene->frame.crowd.configure(w.scene->doc.model, crowd, w.scene->play.player.clip),
            "");
  run_to_end(rec, w, 0.010);
  EXPECT_TRUE(rec.progress().error);
  EXPECT_NE(rec.progress().message.find("a crowd was turned on"), std::string::npos)
      << rec.progress().message;
  w.scene->frame.crowd.clear();
}

TEST(WindowExportPose, WritesTheCommandLinesFilesForTheSamePose) {
  SV_REQUIRE_GL();
  WindowLike w;
  ASSERT_TRUE(w.ok);
  TempDir tmp;
  Scene& s = *w.scene;
  s.play.player.clip = w.clip("walk");
  s.play.player.time = 0.5;
  RenderOptions ro;  // GPU skinning: the export skins on the CPU itself
  ro.method = SkinMethod::Dqs;
  compute_frame(s, ro, frames);
  ASSERT_EQ(export_scene_pose(s, ro.method, false, tmp / "window.glb"), "");
  ProcessResult r = run_process({kExe, kModel, "--clip", "walk", "--time", "0.5", "--method", "dqs",
                                 "--export-pose", tmp / "cli.glb"},
                                120.0);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::vector<uint8_t> a = bytes_of(tmp / "window.glb"), b = bytes_of(tmp / "cli.glb");
  EXPECT_FALSE(a.empty());
  EXPECT_TRUE(a == b) << "the window's export differs from --export-pose's";
  // The Skinned check box: --export-pose-skinned's file.
  ASSERT_EQ(export_scene_pose(s, ro.method, true, tmp / "window_skinned.glb"), "");
  r = run_process({kExe, kModel, "--clip", "walk", "--time", "0.5", "--method", "dqs",
                   "--export-pose", tmp / "cli_skinned.glb", "--export-pose-skinned"},
                  120.0);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::vector<uint8_t> c = bytes_of(tmp / "window_skinned.glb");
  EXPECT_GT(c.size(), a.size());
  EXPECT_TRUE(c == bytes_of(tmp / "cli_skinned.glb")) << "the skinned exports differ";

  EXPECT_NE(export_scene_pose(s, ro.method, false, tmp / "pose.obj").find(".glb"),
            std::string::npos);
  EXPECT_NE(export_scene_pose(s, ro.method, false, tmp / "no/such/pose.glb").find("cannot open"),
            std::string::npos);
  EXPECT_FALSE(fs::exists(tmp / "pose.obj"));
}

// After a frame the CPU path skinned from the compact streams (LBS: the window's default), whose
// normals are octahedral codes, the export still writes the float streams' full-precision
// normals: the same file as --export-pose, which never skins compact.
TEST(WindowExportPose, AfterACompactFrameTheFileIsTheCommandLinesToo) {
  SV_REQUIRE_GL();
  WindowLike w;
  ASSERT_TRUE(w.ok);
  TempDir tmp;
  Scene& s = *w.scene;
  s.play.player.clip = w.clip("walk");
  s.play.player.time = 0.5;
  RenderOptions ro;
  ro.gpu_skinning = false;
  compute_frame(s, ro, frames);
  bool any_compact = false;
  for (std::size_t m = 0; m < s.doc.model.meshes.size(); ++m)
    any_compact = any_compact || s.frame.animator.skinned_compact(m);
  ASSERT_TRUE(any_compact) << "the frame was expected to skin from the compact streams";
  ASSERT_EQ(export_scene_pose(s, ro.method, false, tmp / "window.glb"), "");
  for (std::size_t m = 0; m < s.doc.model.meshes.size(); ++m)
    EXPECT_FALSE(s.frame.animator.skinned_compact(m)) << m;  // skinned_normals current again
  ProcessResult r = run_process(
      {kExe, kModel, "--clip", "walk", "--time", "0.5", "--export-pose", tmp / "cli.glb"}, 120.0);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::vector<uint8_t> a = bytes_of(tmp / "window.glb");
  EXPECT_FALSE(a.empty());
  EXPECT_TRUE(a == bytes_of(tmp / "cli.glb")) << "the window's export differs from --export-pose's";
}

}  // namespace
}  // namespace sv::test
