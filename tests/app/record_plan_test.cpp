// The recording plan (app/record.h): frame counts over [from, to), frame times computed from the
// frame number, defaults, bad values, frame names. Expectations computed by hand.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "app/record.h"
#include "app/video_pipe.h"
#include "temp_dir.h"

namespace sv {
namespace {

using test::TempDir;

// Options as typed ("" = not given). Each test makes new ones rather than assigning to the fields
// (GCC 12 warns, wrongly, about assigning literals to strings here: -Wrestrict).
RecordOptions opts(std::string fps = "", std::string from = "", std::string to = "") {
  RecordOptions o;
  o.dir = "out";
  o.fps = std::move(fps);
  o.from = std::move(from);
  o.to = std::move(to);
  return o;
}

RecordPlan plan_of(const RecordOptions& o, double duration, const std::string& time = "") {
  RecordPlan p;
  const std::string e = make_record_plan(o, time, duration, &p);
  EXPECT_EQ(e, "");
  return p;
}

std::string error_of(const RecordOptions& o, std::optional<double> duration,
                     const std::string& time = "") {
  RecordPlan p;
  return make_record_plan(o, time, duration, &p);
}

TEST(RecordPlan, WholeClipAtTheDefaultRateIsHalfOpen) {
  const RecordPlan p = plan_of(opts(), 1.2);
  EXPECT_DOUBLE_EQ(p.fps, 30.0);
  EXPECT_EQ(p.frames(), 36);
  // 'walk' in assets/default.glb ends at 1.2 as a float: 1.2000000476837158 s, 36.0000014 frames.
  EXPECT_EQ(plan_of(opts(), 1.2000000476837158).frames(), 36);
  // A range a hundredth of a frame longer than 36 frames does hold a 37th.
  EXPECT_EQ(plan_of(opts(), 1.2 + 0.01 / 30.0).frames(), 37);
  EXPECT_DOUBLE_EQ(frame_time(p, 0), 0.0);
  EXPECT_DOUBLE_EQ(frame_time(p, 35), 35.0 / 30.0);
}

TEST(RecordPlan, RangeAndRate) {
  const RecordPlan p = plan_of(opts("4", "0.5", "1.5"), 2.0);
  ASSERT_EQ(p.frames(), 4);
  EXPECT_EQ(frame_time(p, 0), 0.5);
  EXPECT_EQ(frame_time(p, 1), 0.75);
  EXPECT_EQ(frame_time(p, 3), 1.25);
  // [0.1, 0.6) at 10 frames/s: 0.1, 0.2, 0.3, 0.4, 0.5.
  EXPECT_EQ(plan_of(opts("10", "0.1", "0.6"), 2.0).frames(), 5);
  // A range that is not a whole number of frames rounds up: [0, 1) at 2.5 frames/s is 0, 0.4, 0.8.
  EXPECT_EQ(plan_of(opts("2.5", "", "1"), 2.0).frames(), 3);
  // --to past the clip's end is allowed (the last pose holds, as --screenshot clamps).
  EXPECT_EQ(plan_of(opts("10", "", "3"), 2.0).frames(), 30);
}

TEST(RecordPlan, StillPosesAndZeroRangesAreOneFrame) {
  EXPECT_EQ(plan_of(opts(), 0.0).frames(), 1);  // the rest pose, or no clips
  const RecordPlan zero = plan_of(opts("", "0.7", "0.7"), 2.0);
  EXPECT_EQ(zero.frames(), 1);
  EXPECT_EQ(frame_time(zero, 0), 0.7);
  // --time holds the pose: every frame at that time, one frame unless --to gives a length.
  const RecordPlan p = plan_of(opts(), 2.0, "1.25");
  EXPECT_EQ(p.frames(), 1);
  EXPECT_EQ(frame_time(p, 0), 1.25);
  const RecordPlan q = plan_of(opts("5", "", "2"), 2.0, "1.25");
  EXPECT_EQ(q.frames(), 10);
  EXPECT_EQ(frame_time(q, 9), 1.25);
}

TEST(RecordPlan, BadValuesAreNamed) {
  for (const char* fps : {"0", "-1", "abc", "nan", "inf", "1001", "30fps"}) {
    EXPECT_NE(error_of(opts(fps), std::nullopt).find("--fps"), std::string::npos) << fps;
  }
  EXPECT_NE(error_of(opts("", "2", "1"), std::nullopt).find("--from 2 is after --to 1"),
            std::string::npos);
  EXPECT_EQ(error_of(opts("", "2"), std::nullopt), "");  // the clip's end is not known yet
  EXPECT_NE(error_of(opts("", "2"), 1.2).find("past the end of the clip (1.2 s)"),
            std::string::npos);
  EXPECT_NE(error_of(opts("", "-0.5"), 1.2).find("--from"), std::string::npos);
  EXPECT_NE(error_of(opts("", "", "1e30"), 1.2).find("frames"), std::string::npos);
  EXPECT_NE(error_of(opts(), 1.2, "-1").find("--time"), std::string::npos);
}

TEST(RecordPlan, OrbitTurnsByDegreesPerSecondAndAStillPoseTurnsOnce) {
  RecordOptions o = opts("4", "", "2");
  o.orbit = "360";
  const RecordPlan p = plan_of(o, 0.0);
  EXPECT_EQ(p.frames(), 8);
  EXPECT_EQ(frame_turn(p, 0), 0.0f);
  EXPECT_FLOAT_EQ(frame_turn(p, 1), static_cast<float>(M_PI / 2));
  EXPECT_FLOAT_EQ(frame_turn(p, 2), static_cast<float>(M_PI));
  // A whole turn is exactly no turn (360 x 1 s wraps to 0 in degrees before radians).
  EXPECT_EQ(frame_turn(p, 4), 0.0f);
  EXPECT_EQ(frame_turn(p, 5), frame_turn(p, 1));
  // Negative turns the other way: -90 degrees is 270.
  RecordOptions back = opts("4", "", "2");
  back.orbit = "-360";
  EXPECT_FLOAT_EQ(frame_turn(plan_of(back, 0.0), 1), static_cast<float>(1.5 * M_PI));
  // No --to: a still pose records one whole turn (45 degrees/s: 8 s, 16 frames at 2/s), a clip
  // its duration; the clip time does not move for a still.
  RecordOptions still = opts("2");
  still.orbit = "45";
  EXPECT_EQ(plan_of(still, 0.0).frames(), 16);
  EXPECT_EQ(plan_of(still, 1.5).frames(), 3);
  EXPECT_EQ(plan_of(still, 1.5, "0.5").frames(), 16);
  EXPECT_EQ(frame_time(plan_of(still, 1.5, "0.5"), 15), 0.5);
  // Without --orbit nothing turns.
  EXPECT_EQ(frame_turn(plan_of(opts("4", "", "2"), 2.0), 3), 0.0f);
  RecordOptions bad = opts();
  bad.orbit = "nan";
  EXPECT_NE(error_of(bad, std::nullopt).find("--orbit"), std::string::npos);
}

TEST(RecordPlan, LoopsStartTheClipOverWhileTheTurnRunsOn) {
  RecordOptions o = opts("4", "0.5", "1.25");
  o.loops = "3";
  o.orbit = "30";
  const RecordPlan p = plan_of(o, 2.0);
  // [0.5, 1.25) at 4/s: 0.5, 0.75, 1 (3 frames), three times.
  ASSERT_EQ(p.frames(), 9);
  EXPECT_EQ(frame_time(p, 2), 1.0);
  EXPECT_EQ(frame_time(p, 3), 0.5);
  EXPECT_EQ(frame_time(p, 8), 1.0);
  // The turn does not start over: frame 8 is 2 s in, 60 degrees.
  EXPECT_FLOAT_EQ(frame_turn(p, 8), static_cast<float>(M_PI / 3));
  for (const char* bad : {"0", "-1", "1.5", "x", "10001"}) {
    RecordOptions b = opts();
    b.loops = bad;
    EXPECT_NE(error_of(b, std::nullopt).find("--loops"), std::string::npos) << bad;
  }
  // The frame limit counts every loop.
  RecordOptions many = opts("1000", "", "100");
  many.loops = "100";
  EXPECT_NE(error_of(many, 200.0).find("frames"), std::string::npos);
}

TEST(VideoPipe, FindsExecutablesOnPath) {
  TempDir tmp;
  const std::string exe = tmp / "tool";
  { std::ofstream(exe) << "#!/bin/sh\n"; }
  std::filesystem::permissions(exe, std::filesystem::perms::owner_all);
  { std::ofstream(tmp / "plain") << "not executable"; }
  std::filesystem::create_directories(tmp / "dir");
  const std::string path = "/nonexistent::" + tmp.path();
  EXPECT_EQ(find_on_path("tool", path.c_str()), exe);
  EXPECT_EQ(find_on_path("plain", path.c_str()), "");
  EXPECT_EQ(find_on_path("dir", path.c_str()), "");
  EXPECT_EQ(find_on_path("tool", "/nonexistent"), "");
  EXPECT_EQ(find_on_path("tool", nullptr), "");
}

TEST(VideoPipe, CodecsFollowTheExtension) {
  EXPECT_EQ(check_video_path("a.mp4"), "");
  EXPECT_EQ(check_video_path("dir.x/A.WEBM"), "");
  EXPECT_NE(check_video_path("a.avi"), "");
  EXPECT_NE(check_video_path("mp4"), "");
  auto has = [](const std::vector<std::string>& a, const std::string& x, const std::string& y) {
    for (std::size_t i = 0; i + 1 < a.size(); ++i)
      if (a[i] == x && a[i + 1] == y) return true;
    return false;
  };
  const std::vector<std::string> mp4 = ffmpeg_arguments("out.mp4", 641, 360, 29.97);
  EXPECT_TRUE(has(mp4, "-c:v", "libx264"));
  EXPECT_TRUE(has(mp4, "-pix_fmt", "yuv420p"));
  EXPECT_TRUE(has(mp4, "-s", "641x360"));
  EXPECT_TRUE(has(mp4, "-framerate", "29.97"));
  EXPECT_TRUE(has(mp4, "-pix_fmt", "rgba"));
  EXPECT_EQ(mp4.back(), "file:out.mp4");  // never an option, whatever the name
  EXPECT_TRUE(has(mp4, "-f", "mp4"));
  EXPECT_EQ(ffmpeg_arguments("-name.mp4", 64, 64, 30).back(), "file:-name.mp4");
  // A temporary name without the extension: the container follows the name asked for.
  const std::vector<std::string> tmp = ffmpeg_arguments(".a.webm.partial-x", 64, 64, 30, "a.webm");
  EXPECT_TRUE(has(tmp, "-f", "webm"));
  EXPECT_TRUE(has(tmp, "-c:v", "libvpx-vp9"));
  const std::vector<std::string> webm = ffmpeg_arguments("out.WebM", 64, 64, 30);
  EXPECT_TRUE(has(webm, "-c:v", "libvpx-vp9"));
  EXPECT_TRUE(has(webm, "-b:v", "0"));
  EXPECT_TRUE(has(webm, "-framerate", "30"));
}

// A stand-in for ffmpeg: reads the frames into its output (the last argument, "file:PATH"),
// then exits with `status`.
std::string fake_ffmpeg(const TempDir& tmp, int status) {
  const std::string exe = tmp / ("ffmpeg" + std::to_string(status));
  std::ofstream(exe) << "#!/bin/sh\nfor a; do last=\"$a\"; done\ncat > \"${last#file:}\"\nexit "
                     << status << "\n";
  std::filesystem::permissions(exe, std::filesystem::perms::owner_all);
  return exe;
}

std::vector<std::string> files_in(const std::string& dir) {
  std::vector<std::string> names;
  for (const auto& e : std::filesystem::directory_iterator(dir))
    names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

TEST(VideoPipe, AFailedVideoLeavesNoFile) {
  TempDir bin, out;
  const std::vector<uint8_t> frame(2 * 2 * 4, 7);
  {
    VideoPipe pipe;  // ffmpeg writes, then fails
    ASSERT_EQ(pipe.start(fake_ffmpeg(bin, 1), out / "-name.mp4", 2, 2, 30), "");
    EXPECT_EQ(files_in(out.path()).size(), 1u) << "the temporary file, while it runs";
    EXPECT_EQ(files_in(out.path())[0].rfind(".-name.mp4.partial-", 0), 0u);
    pipe.write(frame);
    EXPECT_NE(pipe.finish(), "");
    EXPECT_TRUE(files_in(out.path()).empty());
  }
  {
    VideoPipe pipe;  // given up on before it finished (a cancelled recording)
    ASSERT_EQ(pipe.start(fake_ffmpeg(bin, 0), out / "a.webm", 2, 2, 30), "");
    EXPECT_EQ(pipe.write(frame), "");
  }
  EXPECT_TRUE(files_in(out.path()).empty());
  {
    VideoPipe pipe;  // success: renamed into place, nothing else left
    ASSERT_EQ(pipe.start(fake_ffmpeg(bin, 0), out / "-name.mp4", 2, 2, 30), "");
    EXPECT_EQ(pipe.write(frame), "");
    EXPECT_EQ(pipe.finish(), "");
  }
  EXPECT_EQ(files_in(out.path()), std::vector<std::string>{"-name.mp4"});
  EXPECT_EQ(std::filesystem::file_size(out / "-name.mp4"), frame.size());
}

TEST(RecordPlan, FrameNamesSort) {
  EXPECT_EQ(frame_name(0, 1), "frame_00000.png");
  EXPECT_EQ(frame_name(42, 100), "frame_00042.png");
  EXPECT_EQ(frame_name(99999, 100000), "frame_99999.png");
  EXPECT_EQ(frame_name(7, 100001), "frame_000007.png");
  EXPECT_EQ(frame_name(100000, 100001), "frame_100000.png");
}

}  // namespace
}  // namespace sv
