// Recording: `--record DIR` writes a clip as numbered PNGs (frame_00000.png, ...), `--video
// OUT.mp4|OUT.webm` pipes the same frames to ffmpeg (video_pipe.h; both may be given at once),
// `--orbit DEG_PER_S` turns the camera while either runs (a turntable).
//
// Every frame is drawn by HeadlessView (headless_view.h), the code --screenshot draws with, so
// frame i of a recording is the screenshot at frame_time(plan, i). With --orbit the camera turns
// by frame_turn(plan, i) about the vertical axis through the framed centre and is framed on the
// cylinder the model turns in (HeadlessView::set_turntable), so nothing leaves the picture on
// any side; those frames are the screenshot's but for the camera. Frames are sampled, not
// played: frame i is at from + i / fps, computed from i (never by adding 1/fps up), over the
// half-open range [from, to), so a looping clip recorded over its duration joins its first frame
// without a repeated one, and N frames at fps last exactly (to - from) seconds. A range of zero
// length is one frame.
//
// Defaults: the whole clip (its duration; the base clip's under --crossfade). A still pose
// (--rest-pose, --bind-pose, a file without clips, or --time T, which holds the pose at T) is
// one frame unless --to says how long to record it, or one full turn with --orbit. --loops N
// records the range N times on one clock: the pose starts over every ceil((to - from) * fps)
// frames while the turn runs on.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace CLI {
class App;
}

namespace sv {

struct Options;
struct ViewerOptions;

struct RecordOptions {
  std::string dir;    // --record DIR: numbered PNGs
  std::string video;  // --video OUT.mp4|OUT.webm
  // As typed, "" when not given (checked by make_record_plan).
  std::string fps;    // --fps N (default 30)
  std::string from;   // --from T (default 0)
  std::string to;     // --to T (default: see above)
  std::string orbit;  // --orbit DEG_PER_S (default 0)
  std::string loops;  // --loops N (default 1)

  bool active() const noexcept { return !dir.empty() || !video.empty(); }
  // Some of the options that only recording reads were given.
  bool any_given() const noexcept {
    return !fps.empty() || !from.empty() || !to.empty() || !orbit.empty() || !loops.empty();
  }
};

// Registers --record, --video and their options; these exclude --info, --dump, --screenshot,
// --times, --bench-frames and --soak (registered before: call after add_core_options and
// add_viewer_options).
void add_record_options(CLI::App& app, RecordOptions& options);

// What to record, in numbers.
struct RecordPlan {
  double fps = 30.0;            // frames per second, > 0
  double from = 0.0;            // clip seconds of frame 0
  int64_t frames_per_loop = 1;  // >= 1
  int64_t loops = 1;            // >= 1
  double orbit = 0.0;          // degrees per second of the camera's turn (+: counter-clockwise seen
                               // from above, so the model seems to turn clockwise)
  std::optional<double> held;  // --time: every frame at this clip time
  int64_t frames() const noexcept { return frames_per_loop * loops; }
};

// The plan from the options as typed (`time`: --time) and the duration (seconds) of what is
// played, 0 for a still pose. Returns "" or one line naming the bad value (fps <= 0, from > to,
// --from past the clip's end, too many frames, ...). With no duration, only what does not
// depend on it is checked (before the model is read).
std::string make_record_plan(const RecordOptions& options, const std::string& time,
                             std::optional<double> duration, RecordPlan* out);

// Clip time of frame i (seconds on --screenshot's --time scale) and the camera's turn at frame i
// (radians in [0, 2 pi) from the load direction, orbit x i / fps wrapped to a whole turn first
// in degrees, so a whole turn is exactly 0 again).
double frame_time(const RecordPlan& plan, int64_t i) noexcept;
float frame_turn(const RecordPlan& plan, int64_t i) noexcept;

// "frame_00042.png": five digits at least, more when `frames` needs them, so names sort.
std::string frame_name(int64_t i, int64_t frames);

// Makes `dir` (and its parents) for a PNG sequence; "" or why it cannot be recorded into. A
// folder that already holds frames is refused: a shorter recording into it would leave the longer
// one's last frames after the new ones, and a sequence read back would silently mix the two.
std::string prepare_record_dir(const std::string& dir);

// Runs the recording; the exit status (0; 2 with one line on stderr for bad input, a missing
// ffmpeg, or ffmpeg's own error; 1 when no GL context can be made).
int run_record(const Options& options, const ViewerOptions& viewer, const RecordOptions& record);

}  // namespace sv
