// --record / --video / --orbit (see record.h): the plan in numbers, then HeadlessView's frames
// to PNG files or to ffmpeg.
#include "app/record.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <limits>
#include <system_error>
#include <vector>

#include <CLI/CLI.hpp>

#include "app/app_common.h"
#include "app/cli.h"
#include "app/headless_view.h"
#include "app/video_pipe.h"
#include "app/viewer.h"
#include "gfx/capture.h"

namespace sv {
namespace {

using Clock = std::chrono::steady_clock;

// More frames than this is a typing error (a --to in the billions), not a recording: 10 hours
// at 30 frames/s (the PNGs alone would fill a disk first).
constexpr int64_t kMaxFrames = 1'080'000;
constexpr double kMaxFps = 1000.0;

std::string frame_seconds(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", s);
  return buf;
}

}  // namespace

void add_record_options(CLI::App& app, RecordOptions& o) {
  auto* record = app.add_option("--record", o.dir,
                                "Record the clip headless as numbered PNGs in DIR "
                                "(frame_00000.png, ...), each the --screenshot at its time");
  auto* video = app.add_option("--video", o.video,
                               "Record the same frames into OUT.mp4 (H.264) or OUT.webm (VP9) "
                               "through ffmpeg, which must be installed");
  app.add_option("--fps", o.fps, "Frames per second of --record and --video (default 30)");
  app.add_option("--from", o.from, "Clip time of the first recorded frame (default 0)");
  app.add_option("--to", o.to,
                 "Clip time where the recording ends, not included (default: the clip's end; "
                 "a still pose: one frame, or one turn with --orbit)");
  app.add_option("--orbit", o.orbit,
                 "Turn the camera about the vertical axis while recording, in degrees per second "
                 "(a turntable; --rest-pose or --time T holds the pose)");
  app.add_option("--loops", o.loops,
                 "Record the range this many times, the clip starting over each time (default 1)");
  // The other modes (--export-pose is a core option: its exclusions of the viewer's modes are
  // made here, where every mode is registered).
  for (CLI::Option* mode : {record, video, app.get_option_no_throw("--export-pose")}) {
    if (mode == nullptr) continue;
    for (const char* other : {"--info", "--dump", "--screenshot", "--times", "--bench-frames",
                              "--soak", "--export-pose"}) {
      CLI::Option* opt = app.get_option_no_throw(other);
      if (opt != nullptr && opt != mode) mode->excludes(opt);
    }
  }
}

std::string make_record_plan(const RecordOptions& o, const std::string& time,
                             std::optional<double> duration, RecordPlan* out) {
  RecordPlan plan;
  if (!o.fps.empty() &&
      (!parse_number(o.fps, &plan.fps) || plan.fps <= 0.0 || plan.fps > kMaxFps)) {
    return "bad --fps '" + o.fps + "' (want frames per second in (0, 1000])";
  }
  double from = 0.0, to = 0.0;
  if (!o.from.empty() && !parse_seconds(o.from, &from))
    return "bad --from '" + o.from + "' (want seconds >= 0)";
  if (!o.to.empty() && !parse_seconds(o.to, &to))
    return "bad --to '" + o.to + "' (want seconds >= 0)";
  if (!o.from.empty() && !o.to.empty() && from > to)
    return "--from " + o.from + " is after --to " + o.to;
  if (!o.orbit.empty() && (!parse_number(o.orbit, &plan.orbit) || std::abs(plan.orbit) > 1e6))
    return "bad --orbit '" + o.orbit + "' (want degrees per second)";
  if (!o.loops.empty()) {
    double loops = 0.0;
    if (!parse_number(o.loops, &loops) || loops < 1.0 || loops > 10000.0 ||
        loops != std::floor(loops)) {
      return "bad --loops '" + o.loops + "' (want a whole number from 1 to 10000)";
    }
    plan.loops = static_cast<int64_t>(loops);
  }
  if (!time.empty()) {
    double t = 0.0;
    if (!parse_seconds(time, &t)) return "bad --time '" + time + "' (want seconds >= 0)";
    plan.held = t;
  }
  if (!duration) return std::string();

  // A still pose: one frame.
  const bool still = plan.held || *duration <= 0.0;
  if (o.to.empty()) {
    if (still) {
      to = plan.orbit != 0.0 ? from + 360.0 / std::abs(plan.orbit) : from;
    } else {
      if (from > *duration) {
        return "--from " + o.from + " is past the end of the clip (" + frame_seconds(*duration) +
               " s)";
      }
      to = *duration;
    }
  }
  plan.from = plan.held ? *plan.held : from;
  // Frames in [from, to): ceil, less a slack of a thousandth of a frame, so a clip whose end was
  // stored as a float (glTF: 1.2 s is 1.2000000477) at 30 frames/s is 36 frames, not 37 with
  // the last one repeating the first.
  const double span = (to - from) * plan.fps;
  if (span * static_cast<double>(plan.loops) > static_cast<double>(kMaxFrames))
    return "the recording would have more than " + std::to_string(kMaxFrames) + " frames";
  plan.frames_per_loop = std::max<int64_t>(1, static_cast<int64_t>(std::ceil(span - 1e-3)));
  *out = plan;
  return std::string();
}

double frame_time(const RecordPlan& plan, int64_t i) noexcept {
  if (plan.held) return *plan.held;
  const int64_t k = i % plan.frames_per_loop;  // --loops: the clip starts over
  return plan.from + static_cast<double>(k) / plan.fps;
}

float frame_turn(const RecordPlan& plan, int64_t i) noexcept {
  const double degrees = std::fmod(plan.orbit * (static_cast<double>(i) / plan.fps), 360.0);
  const double radians = (degrees < 0.0 ? degrees + 360.0 : degrees) * (M_PI / 180.0);
  return static_cast<float>(radians);
}

std::string frame_name(int64_t i, int64_t frames) {
  std::size_t digits = 5;
  for (int64_t n = 100000; n < frames; n *= 10) ++digits;
  std::string number = std::to_string(i);
  if (number.size() < digits) number.insert(0, digits - number.size(), '0');
  return "frame_" + number + ".png";
}

std::string prepare_record_dir(const std::string& dir) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) return "cannot create --record folder '" + dir + "': " + ec.message();
  if (!fs::is_directory(dir, ec)) return "--record '" + dir + "' is not a folder";
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.rfind("frame_", 0) == 0 && it->path().extension() == ".png") {
      return "--record folder '" + dir + "' already holds frames (" + name +
             "); remove them or choose another folder";
    }
  }
  if (ec) return "cannot read --record folder '" + dir + "': " + ec.message();
  if (::access(dir.c_str(), W_OK) != 0) return "cannot write into --record folder '" + dir + "'";
  return std::string();
}

namespace {

// Progress on stderr, at most once a second, so short runs print nothing; only when stderr is a
// terminal, so what a script or a test reads does not depend on the machine's speed (a failure
// is its one line, whenever it happens).
class Progress {
 public:
  explicit Progress(int64_t total)
      : total_(total), last_(Clock::now()), terminal_(::isatty(STDERR_FILENO) == 1) {}
  void frame_done(int64_t done) {
    if (!terminal_) return;
    const auto now = Clock::now();
    if (now - last_ < std::chrono::seconds(1)) return;
    last_ = now;
    shown_ = true;
    std::fprintf(stderr, "recording: %lld of %lld frames (%d%%)\n", static_cast<long long>(done),
                 static_cast<long long>(total_), static_cast<int>(100 * done / total_));
  }
  void finish(const std::string& where) const {
    if (shown_) {
      std::fprintf(stderr, "recording: %lld frames written to %s\n", static_cast<long long>(total_),
                   where.c_str());
    }
  }

 private:
  int64_t total_;
  Clock::time_point last_;
  bool terminal_;
  bool shown_ = false;
};

}  // namespace

int run_record(const Options& options, const ViewerOptions& viewer, const RecordOptions& record) {
  if (!viewer.more_models.empty()) {
    return bad_input(viewer.more_models.front() + ": --record takes one model file");
  }
  RecordPlan plan;
  if (std::string e = make_record_plan(record, options.time, std::nullopt, &plan); !e.empty())
    return bad_input(e);
  std::string ffmpeg;
  if (!record.video.empty()) {
    if (std::string e = check_video_path(record.video); !e.empty()) return bad_input(e);
    ffmpeg = find_on_path("ffmpeg", std::getenv("PATH"));
    if (ffmpeg.empty()) {
      return bad_input("--video " + ffmpeg_missing_message());
    }
  }
  HeadlessView view;
  // The blend's clock starts at 0 (the held --time for a still): a layer's time=T then runs with
  // the recording, as with --dump --times.
  const double blend_base = plan.held.value_or(0.0);
  const int status =
      view.open(options, viewer, "record", blend_base, [&](const Model&, double duration) {
        if (std::string e = make_record_plan(record, options.time, duration, &plan); !e.empty())
          return e;
        return record.dir.empty() ? std::string() : prepare_record_dir(record.dir);
      });
  if (status >= 0) return status;
  view.set_turntable(plan.orbit != 0.0);

  VideoPipe video;
  if (!ffmpeg.empty()) {
    if (std::string e = video.start(ffmpeg, record.video, view.width(), view.height(), plan.fps);
        !e.empty()) {
      // Mostly the user's path (a folder that does not exist, one not writable): bad input.
      print_error_line(e);
      return kExitBadInput;
    }
  }

  const int64_t total = plan.frames();
  Progress progress(total);
  const std::filesystem::path dir(record.dir);
  for (int64_t i = 0; i < total; ++i) {
    const std::vector<uint8_t>& rgba = view.draw(frame_time(plan, i), frame_turn(plan, i));
    if (!record.dir.empty()) {
      std::string error;
      const std::string path = (dir / frame_name(i, total)).string();
      if (!gl::write_png(path, view.width(), view.height(), rgba, &error)) return bad_input(error);
    }
    if (!ffmpeg.empty()) {
      if (std::string e = video.write(rgba); !e.empty()) return bad_input(record.video + ": " + e);
    }
    progress.frame_done(i + 1);
  }
  if (!ffmpeg.empty()) {
    if (std::string e = video.finish(); !e.empty()) return bad_input(record.video + ": " + e);
  }
  progress.finish(record.dir.empty() ? record.video : record.dir);
  return kExitOk;
}

}  // namespace sv
