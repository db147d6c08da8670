// VideoPipe: frames into a video file through an `ffmpeg` child process (`--video`).
//
// Encoding video well is ffmpeg's job, and Debian's ffmpeg has the encoders users expect; linking
// libavcodec would tie the viewer to a library most of its users never need. So the viewer looks
// ffmpeg up on PATH when a video is asked for (not a dependency of scripts/run.sh), starts it with
// raw RGBA frames on its standard input, and reads its one-line error back when it fails.
//
// Codecs: .mp4 is H.264 (libx264, CRF 18: visually lossless for flat-shaded renders at a few
// hundred kB per second; preset medium; yuv420p, which every player and browser shows;
// +faststart, so the file plays before it has fully arrived). .webm is VP9 (libvpx-vp9 at
// constant quality CRF 31, the level its documentation suggests for 720p; -b:v 0 makes it
// constant quality; row-mt for threads). yuv420p needs even sizes: an odd width or height is
// padded by one column or row of black.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <string>
#include <vector>

namespace sv {

// The full path of `program` in `path` (a PATH value: folders separated by ':'), "" when none
// holds an executable file of that name.
std::string find_on_path(const std::string& program, const char* path);

// "needs ffmpeg, which is not installed (...)": what --video and the window's Record control say
// when find_on_path finds no ffmpeg.
std::string ffmpeg_missing_message();

// "" when `out` ends in .mp4 or .webm (any case), otherwise the one-line reason.
std::string check_video_path(const std::string& out);

// The ffmpeg arguments (after the program name) for width x height RGBA frames at `fps` into
// `out`, given to ffmpeg as "file:OUT" (never read as an option or a protocol); the codec and
// container follow the extension of `container` (.mp4 or .webm), or of `out` when it is "".
std::vector<std::string> ffmpeg_arguments(const std::string& out, int width, int height, double fps,
                                          const std::string& container = {});

class VideoPipe {
 public:
  VideoPipe() = default;
  ~VideoPipe();  // a pipe not finished: ffmpeg is killed and its partial file removed
  VideoPipe(const VideoPipe&) = delete;
  VideoPipe& operator=(const VideoPipe&) = delete;

  // Starts `ffmpeg` (a path) writing a temporary file beside `out` (".OUT.partial-XXXXXX");
  // "" or why it could not start.
  std::string start(const std::string& ffmpeg, const std::string& out, int width, int height,
                    double fps);
  // Writes one frame of width x height top-down RGBA8 rows; "" or the failure (ffmpeg ended:
  // its last error line).
  std::string write(const std::vector<uint8_t>& rgba);
  // Ends the input and waits for ffmpeg; "" when it wrote the file (renamed to `out` then),
  // else its last error line (and the partial file removed: a failed video leaves no file).
  std::string finish();

 private:
  std::string ffmpeg_error(const std::string& fallback) const;

  pid_t pid_ = -1;
  int input_ = -1;        // the write end of ffmpeg's standard input
  std::string log_path_;  // ffmpeg's standard error
  std::string error_;     // what finish() found, once ffmpeg has ended
  std::string out_;       // the video's name
  std::string partial_;   // the file ffmpeg writes until it succeeds; "" once renamed or removed
  std::size_t frame_bytes_ = 0;
  bool sigpipe_ignored_ = false;
};

}  // namespace sv
