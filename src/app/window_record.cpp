// WindowRecorder (see window_record.h): time-sliced drawing on the window's thread, encoding on a
// worker.
#include "app/window_record.h"

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <system_error>

#include "gfx/gl.h"

#include "app/app_common.h"
#include "app/viewer_scene.h"
#include "gfx/renderer.h"

namespace sv {
namespace {

using Clock = std::chrono::steady_clock;

std::string count_text(int64_t n) { return std::to_string(n) + (n == 1 ? " frame" : " frames"); }

}  // namespace

WindowRecorder::~WindowRecorder() {
  if (!running_) return;
  cancel();
  if (worker_.joinable()) worker_.join();
  finish();
}

void WindowRecorder::close() {
  if (running_) {
    cancel();
    if (worker_.joinable()) worker_.join();
    finish();
  }
  target_ = gl::OffscreenTarget();
}

std::string WindowRecorder::start(const std::string& out, const RecordOptions& options,
                                  const std::string& size, const Scene& scene,
                                  const RenderOptions& render) {
  if (running_) return "a recording is already running";
  progress_.message.clear();
  progress_.error = false;
  auto refuse = [&](const std::string& why) {
    progress_.message = why;
    progress_.error = true;
    return why;
  };
  if (out.empty()) return refuse("type a folder (PNG frames) or a .mp4 / .webm file to record to");
  int width = 0, height = 0;
  if (!parse_size(size, &width, &height)) return refuse("bad size '" + size + "' (want WxH)");
  if (scene.play.stack.blends()) {
    return refuse(
        "layers and cross-fades are not recorded from the window (use --record with --layer / "
        "--crossfade)");
  }
  if (!scene.frame.crowd.empty())
    return refuse("crowds are not recorded from the window (use --record with --crowd)");
  const std::string ext = std::filesystem::path(out).extension().string();
  video_ = !ext.empty();
  if (video_) {
    if (std::string e = check_video_path(out); !e.empty()) {
      return refuse("'" + out +
                    "': want a folder for PNG frames, or a file ending in .mp4 (H.264) or "
                    ".webm (VP9)");
    }
  }
  const int32_t clip = scene.play.player.clip;
  const double duration = clip >= 0 && static_cast<std::size_t>(clip) < scene.doc.model.clips.size()
                              ? scene.doc.model.clips[static_cast<std::size_t>(clip)].duration()
                              : 0.0;
  RecordPlan plan;
  if (std::string e = make_record_plan(options, std::string(), duration, &plan); !e.empty())
    return refuse(e);
  if (render.method == SkinMethod::Cor && scene.jobs.centers.done() && !centers_fit(scene))
    return refuse("the centres of rotation cannot be computed for this model");
  std::string ffmpeg;
  if (video_) {
    ffmpeg = find_on_path("ffmpeg", std::getenv("PATH"));
    if (ffmpeg.empty()) return refuse("a video " + ffmpeg_missing_message());
  } else if (std::string e = prepare_record_dir(out); !e.empty()) {
    return refuse(e);
  }
  std::string error;
  if (target_.width() != width || target_.height() != height) {
    target_ = gl::OffscreenTarget();
    if (!target_.create(width, height, &error)) {
      gl::OffscreenTarget::unbind();
      return refuse(error);
    }
    gl::OffscreenTarget::unbind();
  }
  if (video_) {
    pipe_ = std::make_unique<VideoPipe>();
    if (std::string e = pipe_->start(ffmpeg, out, width, height, plan.fps); !e.empty()) {
      pipe_.reset();
      return refuse(e);
    }
  }

  out_ = out;
  plan_ = plan;
  render_ = render;
  render_.hovered_joint = -1;  // the pointer's highlight is not part of the picture
  choices_ = FrameChoices{};
  choices_.render = &render_;
  choices_.clip = clip;
  draw_ = DrawTarget{};
  draw_.camera = &camera_;
  draw_.framing = plan.orbit != 0.0 ? Framing::Turntable : Framing::Load;
  draw_.width = width;
  draw_.height = height;
  draw_.viewport = PixelRect{0, 0, width, height};
  frames_ = FrameState{};
  const std::size_t bytes = static_cast<std::size_t>(width) * static_cast<std::size_t>(height) * 4;
  buffers_.resize(kBuffers);
  for (int i = 0; i < kBuffers; ++i) {
    buffers_[static_cast<std::size_t>(i)].resize(bytes);
    free_[i] = i;
  }
  free_size_ = kBuffers;
  queue_head_ = queue_size_ = 0;
  worker_error_.clear();
  drawn_ = 0;
  written_ = 0;
  cancel_ = false;
  worker_done_ = false;
  running_ = true;
  progress_.running = true;
  progress_.drawn = progress_.written = 0;
  progress_.total = plan.frames();
  progress_.message = "recording " + count_text(plan.frames()) + " to " + out;
  worker_ = std::thread([this] { work(); });
  return std::string();
}

void WindowRecorder::step(Scene& scene, gl::Renderer& renderer, double budget_seconds) {
  if (!running_) return;
  progress_.written = written_;
  if (worker_done_) {
    worker_.join();
    finish();
    return;
  }
  if (cancel_ || drawn_ >= plan_.frames()) return;  // the worker is finishing
  if (!scene.frame.crowd.empty()) {
    fail("a crowd was turned on: the recording stopped (crowds are not recorded from the window)");
    return;
  }
  if (render_.method == SkinMethod::Cor) {
    // Pictures, not a live view: wait for the centres (the window computes them off this thread)
    // rather than record LBS meanwhile, as --record does.
    if (!start_centers(scene, render_.influences).done()) return;
    if (!centers_fit(scene, render_.influences)) {
      fail("the centres of rotation cannot be computed for this model");
      return;
    }
  }
  // Framed on the clip's bounds, a job (Scene::bounds_if_known): draw once they are known, so
  // the window's thread never waits for the clip to be sampled.
  if (scene.bounds_if_known(choices_.clip) == nullptr) return;
  const Player player = scene.play.player;
  const Bounds bounds = scene.frame.bounds;
  const auto begin = Clock::now();
  bool drew = false;
  while (drawn_ < plan_.frames()) {
    int buffer = -1;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (free_size_ > 0) buffer = free_[--free_size_];
    }
    if (buffer < 0) break;  // the worker is behind: draw again next UI frame
    if (!drew) target_.bind();
    drew = true;
    draw_.renderer = &renderer;
    draw_.turn = frame_turn(plan_, drawn_);
    run_frame(scene, choices_, FrameClock::picture(frame_time(plan_, drawn_)), draw_, frames_);
    target_.read_rgba(&buffers_[static_cast<std::size_t>(buffer)]);
    {
      std::lock_guard<std::mutex> lock(mutex_);
      queue_[(queue_head_ + queue_size_) % kBuffers] = buffer;
      ++queue_size_;
    }
    wake_.notify_one();
    ++drawn_;
    if (std::chrono::duration<double>(Clock::now() - begin).count() >= budget_seconds) break;
  }
  progress_.drawn = drawn_;
  if (drew) {
    gl::OffscreenTarget::unbind();
    scene.play.player = player;
    scene.frame.bounds = bounds;
  }
}

void WindowRecorder::cancel() noexcept {
  if (!running_) return;
  cancel_ = true;
  wake_.notify_one();
}

void WindowRecorder::work() {
  const std::filesystem::path dir(out_);
  const int64_t total = plan_.frames();
  std::string error;
  while (!cancel_ && written_ < total) {
    int buffer = -1;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      wake_.wait(lock, [&] { return cancel_ || queue_size_ > 0; });
      if (cancel_) break;
      buffer = queue_[queue_head_];
      queue_head_ = (queue_head_ + 1) % kBuffers;
      --queue_size_;
    }
    const std::vector<uint8_t>& rgba = buffers_[static_cast<std::size_t>(buffer)];
    const int64_t i = written_;
    if (video_) {
      if (std::string e = pipe_->write(rgba); !e.empty()) error = out_ + ": " + e;
    } else {
      gl::write_png((dir / frame_name(i, total)).string(), draw_.width, draw_.height, rgba, &error);
    }
    if (!error.empty()) break;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      free_[free_size_++] = buffer;
    }
    ++written_;
  }
  // ffmpeg finishes the file (it may take a moment to encode what it holds): here, off the
  // window's thread.
  if (error.empty() && !cancel_ && video_) {
    if (std::string e = pipe_->finish(); !e.empty()) error = out_ + ": " + e;
  }
  {
    std::lock_guard<std::mutex> lock(mutex_);
    worker_error_ = error;
  }
  worker_done_ = true;
}

void WindowRecorder::finish() {
  running_ = false;
  const int64_t written = written_;
  progress_.running = false;
  progress_.written = written;
  std::string error;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    error = worker_error_;
  }
  pipe_.reset();  // kills an ffmpeg not finished (cancel, failure)
  if (!error.empty()) {
    progress_.message = error;
    progress_.error = true;
    if (video_) {
      std::error_code ec;
      std::filesystem::remove(out_, ec);
    }
    return;
  }
  progress_.error = false;
  if (!cancel_) {
    progress_.message = "recorded " + count_text(written) + " to " + out_;
    return;
  }
  if (video_) {
    std::error_code ec;
    std::filesystem::remove(out_, ec);
    progress_.message = "cancelled after " + count_text(written) + " of " +
                        std::to_string(plan_.frames()) + "; the unfinished video " + out_ +
                        " was removed";
  } else if (written == 0) {
    progress_.message = "cancelled before the first frame; nothing was written to " + out_;
  } else {
    progress_.message = "cancelled: " + count_text(written) + " of " +
                        std::to_string(plan_.frames()) + " kept in " + out_ + " (" +
                        frame_name(0, plan_.frames()) + " to " +
                        frame_name(written - 1, plan_.frames()) + ")";
  }
}

void WindowRecorder::fail(const std::string& message) {
  cancel();
  if (worker_.joinable()) worker_.join();
  finish();
  progress_.message = message;
  progress_.error = true;
}

}  // namespace sv
