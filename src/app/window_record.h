// WindowRecorder: the window's Record control (issue 15, item 4): the clip the window shows
// (its view mode, method, skinning path, skeleton, selection) recorded to a folder of PNGs or to
// an .mp4 / .webm through ffmpeg, with --record's options, while the window keeps drawing.
//
// Same frames as `--record`: the plan is make_record_plan's (record.h) from the same option
// strings, and each frame is drawn by run_frame (frame.h) on a picture clock, as
// --screenshot and --record draw, at t = from + i / fps (the recording's own clock, never the
// window's playback), framed from the load direction on the clip's bounds, into an offscreen
// target of the chosen size. So frame i equals `skinview MODEL --record DIR` with the same
// options, pixel for pixel (tests/app/window_record_test.cpp).
//
// Without freezing the window: step() runs once per UI frame on the window's thread (GL lives
// there) and draws frames until its time budget (~10 ms) is spent, at least one; each read-back
// goes to a worker thread through a bounded queue of kBuffers frame buffers, allocated at start()
// and reused, and the worker encodes the PNG or writes to ffmpeg. When the worker falls behind,
// step() draws nothing that frame instead of waiting. The window's player and framing bounds are
// saved and restored around the recording's frames, so playback goes on undisturbed.
//
// Cancel: the worker stops after the frame it is writing. A PNG sequence keeps the frames written
// so far (frame_00000.png on, without gaps: one worker writes them in order) and the message says
// how many. A video is removed: ffmpeg is killed mid-stream, and an .mp4 cut off before its index
// (+faststart writes it last) does not play; a file that plays but silently stops short would be
// worse than none.
//
// Not recorded from the window: the Layers section's blends (layers, cross-fades) play on
// clocks of their own that the recording cannot restart, and a crowd runs on the window's clock
// too; start() refuses both with a message (`--record` with --layer / --crossfade / --crowd
// records them).
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "app/frame.h"
#include "app/record.h"
#include "app/video_pipe.h"
#include "gfx/capture.h"
#include "gfx/render_options.h"

namespace sv {

struct Scene;
namespace gl {
class Renderer;
}

// What the Record control shows.
struct RecordProgress {
  bool running = false;
  int64_t drawn = 0;    // frames drawn and queued
  int64_t written = 0;  // frames on disk / given to ffmpeg
  int64_t total = 0;
  std::string message;  // the last start's, finish's or failure's line
  bool error = false;   // message is an error
};

class WindowRecorder {
 public:
  // Frames in flight between the window's thread and the worker.
  static constexpr int kBuffers = 4;

  WindowRecorder() = default;
  ~WindowRecorder();  // cancels a recording in progress (and waits for its worker)
  WindowRecorder(const WindowRecorder&) = delete;
  WindowRecorder& operator=(const WindowRecorder&) = delete;

  // Starts recording `scene`'s current clip as `render` shows it (selected_joint included) into
  // `out`: a file ending in .mp4 or .webm is a video, a path without an extension a folder of
  // PNGs. `options` holds --fps, --from, --to, --orbit and --loops as typed ("" = default; dir
  // and video are ignored), `size` is WxH. Needs the window's context current (makes the
  // target). Returns "" or the one-line reason (also progress().message); nothing is written
  // then.
  std::string start(const std::string& out, const RecordOptions& options, const std::string& size,
                    const Scene& scene, const RenderOptions& render);

  // Draws frames for about `budget_seconds` (one at least, when the worker has room) with the
  // window's context current; binds the default framebuffer again before returning. Finishes
  // the recording (its message) once the worker is done. Nothing allocates per frame.
  void step(Scene& scene, gl::Renderer& renderer, double budget_seconds);

  // Stops: the worker ends after its current frame; step() (or the destructor) finishes up.
  void cancel() noexcept;

  // Cancels a recording in progress, waits for its worker, and releases the offscreen target
  // (with the context current: before the window closes).
  void close();

  bool running() const noexcept { return running_; }
  // As of the last start(), step() or cancel(): no allocation to read it each frame.
  const RecordProgress& progress() const noexcept { return progress_; }

 private:
  void work();
  void finish();
  void fail(const std::string& message);

  bool running_ = false;
  std::string out_;
  bool video_ = false;
  RecordPlan plan_;
  RenderOptions render_;
  // The recording's frames: run_frame on a picture clock, framed as --record frames.
  FrameChoices choices_;
  DrawTarget draw_;
  OrbitCamera camera_;
  FrameState frames_;
  gl::OffscreenTarget target_;
  std::unique_ptr<VideoPipe> pipe_;  // a video's ffmpeg; the worker's while it runs
  int64_t drawn_ = 0;
  RecordProgress progress_;

  // Shared with the worker, under mutex_: queued frames (a ring of buffer indices, frame numbers
  // follow from `written_`), free buffers, and how it ended.
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::vector<std::vector<uint8_t>> buffers_;
  int queue_[kBuffers] = {};
  int queue_head_ = 0, queue_size_ = 0;
  int free_[kBuffers] = {};
  int free_size_ = 0;
  std::string worker_error_;
  std::atomic<int64_t> written_{0};
  std::atomic<bool> cancel_{false};
  std::atomic<bool> worker_done_{false};
  std::thread worker_;
};

}  // namespace sv
