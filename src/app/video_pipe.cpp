// VideoPipe (see video_pipe.h): ffmpeg as a child process fed through a pipe.
#include "app/video_pipe.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>

extern char** environ;

namespace sv {
namespace {

std::string lower_extension(const std::string& path) {
  std::string ext = std::filesystem::path(path).extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return ext;
}

std::string ffmpeg_number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.10g", v);
  return buf;
}

}  // namespace

std::string find_on_path(const std::string& program, const char* path) {
  if (path == nullptr || program.empty()) return std::string();
  const std::string list = path;
  std::size_t begin = 0;
  while (begin <= list.size()) {
    std::size_t end = list.find(':', begin);
    if (end == std::string::npos) end = list.size();
    // An empty entry is the current folder (POSIX).
    const std::string dir = end > begin ? list.substr(begin, end - begin) : std::string(".");
    const std::string candidate = dir + "/" + program;
    struct stat st {};
    if (::stat(candidate.c_str(), &st) == 0 && S_ISREG(st.st_mode) &&
        ::access(candidate.c_str(), X_OK) == 0) {
      return candidate;
    }
    begin = end + 1;
  }
  return std::string();
}

std::string ffmpeg_missing_message() {
  return "needs ffmpeg, which is not installed (not on PATH; Debian: apt-get install ffmpeg), or "
         "record PNG frames into a folder (--record DIR)";
}

std::string check_video_path(const std::string& out) {
  const std::string ext = lower_extension(out);
  if (ext == ".mp4" || ext == ".webm") return std::string();
  return "--video '" + out + "': want a file ending in .mp4 (H.264) or .webm (VP9)";
}

std::vector<std::string> ffmpeg_arguments(const std::string& out, int width, int height, double fps,
                                          const std::string& container) {
  std::vector<std::string> a{"-hide_banner", "-loglevel", "error", "-y",
                             // Input: raw frames on standard input, rows top-down.
                             "-f", "rawvideo", "-pix_fmt", "rgba", "-s",
                             std::to_string(width) + "x" + std::to_string(height), "-framerate",
                             ffmpeg_number(fps), "-i", "pipe:0",
                             // yuv420p halves the chroma resolution: sizes must be even.
                             "-vf", "pad=ceil(iw/2)*2:ceil(ih/2)*2", "-pix_fmt", "yuv420p"};
  const bool webm = lower_extension(container.empty() ? out : container) == ".webm";
  if (webm) {
    a.insert(a.end(), {"-c:v", "libvpx-vp9", "-crf", "31", "-b:v", "0", "-row-mt", "1"});
  } else {
    a.insert(a.end(),
             {"-c:v", "libx264", "-preset", "medium", "-crf", "18", "-movflags", "+faststart"});
  }
  // The container named, not guessed from the name (a temporary name has no extension), and the
  // output as a `file:` URL: a name such as "-name.mp4" is not read as an option, and
  // "http:x.mp4" is not a protocol.
  a.insert(a.end(), {"-f", webm ? "webm" : "mp4", "file:" + out});
  return a;
}

VideoPipe::~VideoPipe() {
  if (input_ >= 0) ::close(input_);
  if (pid_ > 0) {
    ::kill(pid_, SIGKILL);
    int status = 0;
    ::waitpid(pid_, &status, 0);
  }
  if (!log_path_.empty()) std::remove(log_path_.c_str());
  if (!partial_.empty()) std::remove(partial_.c_str());  // not finished: no partial file is left
  if (sigpipe_ignored_) ::signal(SIGPIPE, SIG_DFL);
}

std::string VideoPipe::start(const std::string& ffmpeg, const std::string& out, int width,
                             int height, double fps) {
  frame_bytes_ = static_cast<std::size_t>(width) * static_cast<std::size_t>(height) * 4;
  // ffmpeg writes a hidden temporary file beside `out` (so the rename is atomic), created here
  // with O_EXCL by mkstemp; finish() renames it to `out` once ffmpeg succeeded, any failure
  // removes it.
  const std::filesystem::path target(out);
  std::string partial =
      (target.parent_path() / ("." + target.filename().string() + ".partial-XXXXXX")).string();
  const int partial_fd = ::mkstemp(partial.data());
  if (partial_fd < 0)
    return out + ": cannot create a file beside it (" + std::strerror(errno) + ")";
  // mkstemp's 0600, widened to what the user's umask gives any new file.
  const mode_t mask = ::umask(0);
  ::umask(mask);
  ::fchmod(partial_fd, 0666 & ~mask);
  ::close(partial_fd);
  partial_ = partial;
  out_ = out;
  std::string log = (std::filesystem::temp_directory_path() / "skinview-ffmpeg-XXXXXX").string();
  const int log_fd = ::mkstemp(log.data());
  if (log_fd < 0) return std::string("cannot make a log file for ffmpeg: ") + std::strerror(errno);
  log_path_ = log;
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) {
    ::close(log_fd);
    return std::string("cannot make a pipe for ffmpeg: ") + std::strerror(errno);
  }
  std::vector<std::string> args = ffmpeg_arguments(partial_, width, height, fps, out);
  args.insert(args.begin(), ffmpeg);
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, fds[0], 0);
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, log_fd, 2);
  const int rc = ::posix_spawn(&pid_, ffmpeg.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(fds[0]);
  ::close(log_fd);
  if (rc != 0) {
    pid_ = -1;
    ::close(fds[1]);
    return "cannot start " + ffmpeg + ": " + std::strerror(rc);
  }
  input_ = fds[1];
  // A write after ffmpeg has gone must fail with EPIPE, not end the viewer.
  ::signal(SIGPIPE, SIG_IGN);
  sigpipe_ignored_ = true;
  return std::string();
}

std::string VideoPipe::write(const std::vector<uint8_t>& rgba) {
  if (input_ < 0 || rgba.size() != frame_bytes_) return "ffmpeg: frame of the wrong size";
  const uint8_t* p = rgba.data();
  std::size_t left = rgba.size();
  while (left > 0) {
    const ssize_t n = ::write(input_, p, left);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const std::string why = n < 0 ? std::strerror(errno) : "nothing written";
      const std::string e = finish();
      return e.empty() ? "ffmpeg stopped reading frames: " + why : e;
    }
    p += n;
    left -= static_cast<std::size_t>(n);
  }
  return std::string();
}

std::string VideoPipe::finish() {
  if (input_ >= 0) {
    ::close(input_);
    input_ = -1;
  }
  if (pid_ <= 0) return error_;
  int status = 0;
  while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
  }
  pid_ = -1;
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
    if (error_.empty() && !partial_.empty()) {
      if (::rename(partial_.c_str(), out_.c_str()) != 0)
        error_ = "cannot rename the finished video into place (" +
                 std::string(std::strerror(errno)) + ")";
      else
        partial_.clear();
    }
    if (!partial_.empty()) {
      std::remove(partial_.c_str());
      partial_.clear();
    }
    return error_;
  }
  if (!partial_.empty()) {
    std::remove(partial_.c_str());
    partial_.clear();
  }
  error_ =
      ffmpeg_error(WIFSIGNALED(status)
                       ? "ffmpeg ended by signal " + std::to_string(WTERMSIG(status))
                       : "ffmpeg failed (exit status " + std::to_string(WEXITSTATUS(status)) + ")");
  return error_;
}

std::string VideoPipe::ffmpeg_error(const std::string& fallback) const {
  std::ifstream in(log_path_);
  std::string line, last;
  while (std::getline(in, line)) {
    if (line.find_first_not_of(" \t\r") != std::string::npos) last = line;
  }
  if (last.empty()) return fallback;
  if (last.size() > 300) last = last.substr(0, 300) + "...";
  return "ffmpeg: " + last;
}

}  // namespace sv
