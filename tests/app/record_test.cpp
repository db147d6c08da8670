// `skinview --record`: every frame equals `--screenshot` at the frame's time (pixel for pixel:
// llvmpipe is deterministic), the frames' count and names follow the range and the rate, and bad
// values exit 2 with one line. Runs the real executable (SKINVIEW_EXE) on the default character
// (assets/default.glb: 'walk' is 1.2 s, 'wave' 2 s).
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <stb_image.h>

#include "app/cli_util.h"
#include "app/video_pipe.h"
#include "gfx/gl_context.h"
#include "temp_dir.h"

namespace sv::test {
namespace {

const std::string kModel = std::string(SKINVIEW_SOURCE_DIR) + "/assets/default.glb";

struct Image {
  int width = 0, height = 0;
  std::vector<unsigned char> rgba;
};

Image load(const std::string& path) {
  Image img;
  int n = 0;
  unsigned char* p = stbi_load(path.c_str(), &img.width, &img.height, &n, 4);
  if (p == nullptr) {
    ADD_FAILURE() << "cannot read " << path;
    return img;
  }
  img.rgba.assign(p, p + static_cast<std::size_t>(img.width) * img.height * 4);
  stbi_image_free(p);
  return img;
}

bool same_pixels(const Image& a, const Image& b) {
  return a.width == b.width && a.height == b.height && !a.rgba.empty() && a.rgba == b.rgba;
}

// Runs skinview with `args` after the model; expects exit status 0.
void run_ok(std::vector<std::string> args) {
  args.insert(args.begin(), {kExe, kModel});
  ProcessResult r = run_process(args, 120.0);
  ASSERT_TRUE(r.exited()) << "timed out or crashed";
  ASSERT_EQ(r.exit_code, 0) << r.err;
}

// The files in `dir`, sorted.
std::vector<std::string> names_in(const std::string& dir) {
  std::vector<std::string> names;
  for (const auto& e : std::filesystem::directory_iterator(dir))
    names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

std::vector<std::string> frame_names(int n) {
  std::vector<std::string> names;
  for (int i = 0; i < n; ++i) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "frame_%05d.png", i);
    names.push_back(buf);
  }
  return names;
}

// Records with `options` into a fresh folder and checks that frame i is the screenshot at
// `times[i]` with the same options, and that there are no other files.
void expect_frames_are_screenshots(const std::vector<std::string>& options,
                                   const std::vector<std::string>& record_range,
                                   const std::vector<std::string>& times) {
  TempDir tmp;
  const std::string dir = tmp / "frames";
  std::vector<std::string> args = options;
  args.insert(args.end(), {"--size", "160x120", "--record", dir});
  args.insert(args.end(), record_range.begin(), record_range.end());
  run_ok(args);
  ASSERT_EQ(names_in(dir), frame_names(static_cast<int>(times.size())));
  for (std::size_t i = 0; i < times.size(); ++i) {
    const std::string shot = tmp / ("shot" + std::to_string(i) + ".png");
    std::vector<std::string> s = options;
    s.insert(s.end(), {"--size", "160x120", "--screenshot", shot, "--time", times[i]});
    run_ok(s);
    EXPECT_TRUE(
        same_pixels(load(dir + "/" + frame_names(static_cast<int>(i + 1)).back()), load(shot)))
        << "frame " << i << " is not the screenshot at " << times[i];
  }
  // Not all the same picture: the clip moves between frames.
  EXPECT_FALSE(same_pixels(load(dir + "/frame_00000.png"), load(dir + "/frame_00001.png")));
}

#define SV_REQUIRE_DISPLAY() SV_REQUIRE_GL()

TEST(Record, FramesAreTheScreenshotsAtTheirTimes) {
  SV_REQUIRE_DISPLAY();
  // 'walk' is 1.2 s: at 4 frames/s, [0, 1.2) holds 0, 0.25, 0.5, 0.75, 1.
  expect_frames_are_screenshots({"--clip", "walk"}, {"--fps", "4"},
                                {"0", "0.25", "0.5", "0.75", "1"});
}

TEST(Record, FramesAreTheScreenshotsOnTheCpuPathWithWeightsSkeletonAndSelection) {
  SV_REQUIRE_DISPLAY();
  expect_frames_are_screenshots({"--clip", "wave", "--skinning", "cpu", "--view", "weights",
                                 "--bone", "forearm_r", "--skeleton"},
                                {"--fps", "4", "--from", "0.5", "--to", "1.5"},
                                {"0.5", "0.75", "1", "1.25"});
}

TEST(Record, FramesAreTheScreenshotsUnderEachSkinningMethod) {
  SV_REQUIRE_DISPLAY();
  for (const char* method : {"dqs", "cor"}) {
    expect_frames_are_screenshots({"--clip", "twist", "--method", method},
                                  {"--fps", "2", "--from", "0.5", "--to", "1.5"}, {"0.5", "1"});
  }
}

TEST(Record, FramesAreTheScreenshotsUnderALayerAndACrossFade) {
  SV_REQUIRE_DISPLAY();
  expect_frames_are_screenshots({"--clip", "walk", "--layer", "wave:weight=0.5:mask=spine_01"},
                                {"--fps", "4", "--from", "0.25", "--to", "0.75"}, {"0.25", "0.5"});
  expect_frames_are_screenshots({"--crossfade", "walk:wave:0.2:0.5"}, {"--fps", "8", "--to", "0.5"},
                                {"0", "0.125", "0.25", "0.375"});
}

// A clip range (--range, app/clip_ranges.h) records like a clip: walk's 0.25 s to 0.75 s is a
// 0.5-s clip, two frames at 4 a second.
TEST(Record, AClipRangeRecordsLikeAClip) {
  SV_REQUIRE_DISPLAY();
  expect_frames_are_screenshots({"--range", "stride:walk:0.25:0.75", "--clip", "stride"},
                                {"--fps", "4"}, {"0", "0.25"});
}

TEST(Record, CountAndNamesFollowRangeAndRate) {
  SV_REQUIRE_DISPLAY();
  TempDir tmp;
  // The whole of 'walk' (1.2 s) at the default 30 frames/s: [0, 1.2) is 36 frames.
  run_ok({"--clip", "walk", "--size", "32x24", "--record", tmp / "all"});
  EXPECT_EQ(names_in(tmp / "all"), frame_names(36));
  // [0.1, 0.6) at 10 frames/s: 0.1, 0.2, 0.3, 0.4, 0.5.
  run_ok({"--clip", "walk", "--size", "32x24", "--fps", "10", "--from", "0.1", "--to", "0.6",
          "--record", tmp / "part"});
  EXPECT_EQ(names_in(tmp / "part"), frame_names(5));
  // A still pose is one frame; so is a range of zero length. The folder is made, parents too.
  run_ok({"--rest-pose", "--size", "32x24", "--record", tmp / "a/b/still"});
  EXPECT_EQ(names_in(tmp / "a/b/still"), frame_names(1));
  run_ok({"--clip", "walk", "--size", "32x24", "--from", "0.5", "--to", "0.5", "--record",
          tmp / "zero"});
  EXPECT_EQ(names_in(tmp / "zero"), frame_names(1));
}

TEST(Record, OrbitTurnsTheCameraOnceAroundPerTurnTime) {
  SV_REQUIRE_DISPLAY();
  TempDir tmp;
  // The rest pose at 360 degrees/s and 4 frames/s over 2 s: 8 frames, a quarter turn apart.
  run_ok({"--rest-pose", "--size", "160x120", "--fps", "4", "--to", "2", "--orbit", "360",
          "--record", tmp / "turn"});
  ASSERT_EQ(names_in(tmp / "turn"), frame_names(8));
  auto frame = [&](int i) { return load(tmp / ("turn/" + frame_names(i + 1).back())); };
  // A whole turn later the picture is the same, pixel for pixel; half a turn or a quarter
  // turn away it is not.
  for (int i = 0; i < 4; ++i) EXPECT_TRUE(same_pixels(frame(i), frame(i + 4))) << i;
  EXPECT_FALSE(same_pixels(frame(0), frame(2)));
  EXPECT_FALSE(same_pixels(frame(0), frame(1)));
  EXPECT_FALSE(same_pixels(frame(1), frame(3)));
  // A still pose with --orbit and no --to is one whole turn: at 90 degrees/s, 4 s.
  run_ok({"--rest-pose", "--size", "32x24", "--fps", "2", "--orbit", "90", "--record",
          tmp / "default"});
  EXPECT_EQ(names_in(tmp / "default"), frame_names(8));
  // --orbit 0 records what no --orbit records.
  run_ok({"--clip", "walk", "--size", "32x24", "--fps", "4", "--record", tmp / "plain"});
  run_ok({"--clip", "walk", "--size", "32x24", "--fps", "4", "--orbit", "0", "--record",
          tmp / "zero"});
  for (const std::string& name : frame_names(5)) {
    EXPECT_TRUE(same_pixels(load(tmp / ("plain/" + name)), load(tmp / ("zero/" + name)))) << name;
  }
}

TEST(Record, BadValuesExitTwoWithOneLine) {
  TempDir tmp;
  const std::string dir = tmp / "frames";
  auto rec = [&](std::vector<std::string> extra) {
    std::vector<std::string> args{kExe, kModel, "--clip", "walk", "--size", "32x24"};
    args.insert(args.end(), extra.begin(), extra.end());
    return args;
  };
  expect_bad_input(rec({"--record", dir, "--fps", "0"}), "--fps");
  expect_bad_input(rec({"--record", dir, "--fps", "-5"}), "--fps");
  expect_bad_input(rec({"--record", dir, "--fps", "fast"}), "--fps");
  expect_bad_input(rec({"--record", dir, "--fps", "nan"}), "--fps");
  expect_bad_input(rec({"--record", dir, "--from", "1", "--to", "0.5"}), "--from");
  expect_bad_input(rec({"--record", dir, "--from", "-1"}), "--from");
  expect_bad_input(rec({"--record", dir, "--to", "inf"}), "--to");
  expect_bad_input(rec({"--record", dir, "--from", "5"}), "past the end");
  expect_bad_input(rec({"--record", dir, "--to", "1e30"}), "frames");
  expect_bad_input(rec({"--record", dir, "--times", "0,1"}), "--times");
  expect_bad_input(rec({"--record", dir, "--dump"}), "--dump");
  expect_bad_input(rec({"--record", dir, "--info"}), "--info");
  expect_bad_input(rec({"--record", dir, "--screenshot", tmp / "x.png"}), "--screenshot");
  expect_bad_input(rec({"--fps", "10"}), "--record");
  expect_bad_input(rec({"--orbit", "90"}), "--record");
  expect_bad_input(rec({"--record", dir, "--orbit", "fast"}), "--orbit");
  expect_bad_input(rec({"--record", dir, "--orbit", "inf"}), "--orbit");
  expect_bad_input(rec({"--from", "0.5", "--dump"}), "--record");
  expect_bad_input({kExe, "--record", dir}, "model file");
  expect_bad_input({kExe, kModel, "--record", dir, "--clip", "nope"}, "nope");
  EXPECT_FALSE(std::filesystem::exists(dir)) << "made the folder for a recording that failed";
  // A folder that cannot be made (under a plain file), and one that already holds frames.
  { std::ofstream(tmp / "file") << "x"; }
  expect_bad_input(rec({"--record", tmp / "file/frames"}), "cannot create");
  std::filesystem::create_directories(tmp / "used");
  { std::ofstream(tmp / "used/frame_00000.png") << "x"; }
  expect_bad_input(rec({"--record", tmp / "used"}), "already holds frames");
}

// Peak signal-to-noise ratio of b against a over RGB, in dB (infinite when equal).
double psnr(const Image& a, const Image& b) {
  if (a.rgba.size() != b.rgba.size() || a.rgba.empty()) return 0.0;
  double sum = 0.0;
  std::size_t n = 0;
  for (std::size_t i = 0; i < a.rgba.size(); ++i) {
    if (i % 4 == 3) continue;
    const double d = double(a.rgba[i]) - double(b.rgba[i]);
    sum += d * d;
    ++n;
  }
  return sum == 0.0 ? INFINITY : 10.0 * std::log10(255.0 * 255.0 / (sum / double(n)));
}

// ffprobe's count of the frames it decodes in `file`, and the codec; "" when it fails.
std::string probe(const std::string& file, const std::string& entry) {
  ProcessResult r = run_process({find_on_path("ffprobe", std::getenv("PATH")), "-v", "error",
                                 "-count_frames", "-select_streams", "v:0", "-show_entries",
                                 "stream=" + entry, "-of", "csv=p=0", file});
  if (!r.exited() || r.exit_code != 0) return "";
  while (!r.out.empty() && (r.out.back() == '\n' || r.out.back() == '\r')) r.out.pop_back();
  return r.out;
}

#define SV_REQUIRE_FFMPEG()                                  \
  SV_REQUIRE_DISPLAY();                                      \
  if (find_on_path("ffmpeg", std::getenv("PATH")).empty() || \
      find_on_path("ffprobe", std::getenv("PATH")).empty())  \
  GTEST_SKIP() << "ffmpeg is not installed (scripts/test.sh installs it)"

TEST(RecordVideo, Mp4AndWebmHoldTheFramesOfTheRangeAndLoops) {
  SV_REQUIRE_FFMPEG();
  TempDir tmp;
  // 'walk' at 10 frames/s: 12 frames; H.264 in yuv420p. An odd size is padded to even.
  run_ok({"--clip", "walk", "--size", "161x121", "--fps", "10", "--video", tmp / "walk.mp4"});
  EXPECT_EQ(probe(tmp / "walk.mp4", "nb_read_frames"), "12");
  EXPECT_EQ(probe(tmp / "walk.mp4", "codec_name,pix_fmt,width,height"), "h264,162,122,yuv420p");
  // Two loops into VP9, and the PNGs of the same frames at once.
  run_ok({"--clip", "walk", "--size", "160x120", "--fps", "10", "--loops", "2", "--video",
          tmp / "walk.webm", "--record", tmp / "frames"});
  EXPECT_EQ(probe(tmp / "walk.webm", "nb_read_frames"), "24");
  EXPECT_EQ(probe(tmp / "walk.webm", "codec_name"), "vp9");
  ASSERT_EQ(names_in(tmp / "frames"), frame_names(24));
  // The second loop starts the clip over: its frames are the first loop's.
  for (int i = 0; i < 12; ++i) {
    EXPECT_TRUE(same_pixels(load(tmp / ("frames/" + frame_names(i + 1).back())),
                            load(tmp / ("frames/" + frame_names(i + 13).back()))))
        << i;
  }
  // The video's frame 5, decoded, is the PNG frame 5 up to the codec's loss, and clearly not
  // frame 0: the frames go in in order and the right way up.
  const std::string ffmpeg = find_on_path("ffmpeg", std::getenv("PATH"));
  ProcessResult r = run_process({ffmpeg, "-v", "error", "-i", tmp / "walk.webm", "-vf",
                                 "select=eq(n\\,5)", "-frames:v", "1", tmp / "decoded.png"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const Image decoded = load(tmp / "decoded.png");
  const double same = psnr(load(tmp / "frames/frame_00005.png"), decoded);
  const double other = psnr(load(tmp / "frames/frame_00000.png"), decoded);
  EXPECT_GT(same, 30.0);
  EXPECT_GT(same, other + 3.0) << "frame 5 of the video looks like frame 0";
}

TEST(RecordVideo, MissingFfmpegAndBadValuesExitTwoWithOneLine) {
  TempDir tmp;
  // No ffmpeg on PATH (the import worker is found beside the executable, not on PATH).
  expect_bad_input({"/usr/bin/env", "PATH=/nonexistent", kExe, kModel, "--video", tmp / "a.mp4"},
                   "ffmpeg");
  EXPECT_FALSE(std::filesystem::exists(tmp / "a.mp4"));
  expect_bad_input({kExe, kModel, "--video", tmp / "a.avi"}, ".mp4");
  expect_bad_input({kExe, kModel, "--video", tmp / "a.mp4", "--loops", "0"}, "--loops");
  expect_bad_input({kExe, kModel, "--video", tmp / "a.mp4", "--loops", "1.5"}, "--loops");
  expect_bad_input({kExe, kModel, "--video", tmp / "a.mp4", "--dump"}, "--dump");
  expect_bad_input({kExe, kModel, "--loops", "2"}, "--video");
  if (find_on_path("ffmpeg", std::getenv("PATH")).empty() || std::getenv("DISPLAY") == nullptr)
    return;
  // ffmpeg's own error (a folder that does not exist), on one line.
  expect_bad_input({kExe, kModel, "--size", "32x24", "--video", tmp / "no/such/a.mp4"},
                   "No such file or directory");
}

}  // namespace
}  // namespace sv::test
