// Drives the real skinview window with the real pointer, for end-to-end tests: its own X server
// (Xvfb on a free display number, found with -displayfd, so tests running in parallel and other
// windows cannot move this pointer), skinview started on it with --exit-json (and --exit-png for a
// test that looks at the picture), and xdotool (Debian's) moving the pointer, clicking and typing
// through XTEST as a user would.
//
// state() asks the running window for its state (SIGUSR1: skinview writes --exit-json and
// --exit-png after its next frame; app/exit_state.h lists the fields): where each widget is (its
// landmarks), the selection, the clip and time, the camera, each joint's position on screen. A
// test clicks where the state says, asks again, and checks what changed, in the state and in the
// picture. quit() presses Ctrl+Q and waits for the exit status. Without Xvfb or xdotool the
// driver reports why, and the test skips.
//
//   WindowDriver w;
//   if (!w.ready()) GTEST_SKIP() << w.why();
//   ASSERT_TRUE(w.launch({model, "--clip", "walk", "--time", "0.5"}));
//   nlohmann::json s = w.state();
//   w.click_landmark(s, "joint", joint_index);
//   EXPECT_EQ(w.state()["selectedJointName"], "spine_03");
//   EXPECT_EQ(w.quit(), 0);
#pragma once

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>
#include <stb_image.h>
#include <nlohmann/json.hpp>

#include "json_file.h"

extern char** environ;

namespace sv::test {

// The default character, which most of these tests open.
inline const std::string kDefault = std::string(SKINVIEW_SOURCE_DIR) + "/assets/default.glb";

// Skips a test whose WindowDriver could not start (no Xvfb, no xdotool), saying why.
#define SV_REQUIRE_DRIVER(w) \
  if (!(w).ready()) GTEST_SKIP() << (w).why()

struct Picture {
  int width = 0, height = 0;
  std::vector<unsigned char> rgba;
  const unsigned char* at(int x, int y) const {
    return &rgba[(static_cast<std::size_t>(y) * width + x) * 4];
  }
};

class WindowDriver {
 public:
  WindowDriver(int width = 1280, int height = 720) : width_(width), height_(height) {
    for (const char* tool : {"/usr/bin/Xvfb", "/usr/bin/xdotool"}) {
      if (::access(tool, X_OK) != 0) {
        why_ = std::string(tool) + " is not installed (scripts/test.sh installs it)";
        return;
      }
    }
    char dir[] = "/tmp/skinview_e2e_XXXXXX";
    if (::mkdtemp(dir) == nullptr) {
      why_ = "no temporary folder";
      return;
    }
    dir_ = dir;
    start_display();
  }
  ~WindowDriver() {
    stop(app_);
    stop(xvfb_);
    if (!dir_.empty()) std::filesystem::remove_all(dir_);
  }
  WindowDriver(const WindowDriver&) = delete;
  WindowDriver& operator=(const WindowDriver&) = delete;

  bool ready() const { return why_.empty(); }
  const std::string& why() const { return why_; }
  const std::string& display() const { return display_; }
  std::string json_path() const { return dir_ + "/state.json"; }
  std::string png_path() const { return dir_ + "/frame.png"; }
  // A private XDG_CONFIG_HOME for the window (Recent is kept there), inside the driver's folder.
  std::string config_home() const { return dir_ + "/config"; }

  // Starts skinview with `args` (and the state options) on the driver's display; waits until its
  // window is on screen, has drawn (the first state file) and has framed the clip (not
  // "framingPending"). False if it exits or stalls first.
  bool launch(const std::vector<std::string>& args, double timeout_s = 60.0) {
    std::vector<std::string> argv{SKINVIEW_EXE};
    argv.insert(argv.end(), args.begin(), args.end());
    argv.insert(argv.end(), {"--exit-json", json_path(), "--size",
                             std::to_string(width_) + "x" + std::to_string(height_)});
    if (pictures_) argv.insert(argv.end(), {"--exit-png", png_path()});
    app_ = spawn(argv, dir_ + "/skinview.log", {"XDG_CONFIG_HOME=" + config_home()});
    if (app_ <= 0) return false;
    const auto deadline = now() + timeout_s;
    while (now() < deadline) {
      if (!running(app_)) {
        ADD_FAILURE() << "skinview exited before its window opened:\n" << log();
        return false;
      }
      if (xdotool({"search", "--onlyvisible", "--name", "^skinview"}, &window_) &&
          !window_.empty()) {
        window_ = window_.substr(0, window_.find('\n'));
        // On screen, and framed on the clip's bounds (a job: until they are known the window
        // frames the rest pose, and reframes when they arrive).
        const nlohmann::json s = state();
        if (!s.is_null() && !s.value("framingPending", false)) return true;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    ADD_FAILURE() << "skinview's window did not appear in " << timeout_s << " s:\n" << log();
    return false;
  }

  // The window's state now (an empty json on failure, with the test failed).
  nlohmann::json state(double timeout_s = 20.0) {
    std::filesystem::remove(json_path());
    ::kill(app_, SIGUSR1);
    const auto deadline = now() + timeout_s;
    while (now() < deadline) {
      nlohmann::json j = read_json_file(json_path());
      if (!j.is_discarded()) return j;
      if (!running(app_)) break;
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    ADD_FAILURE() << "no state from the window:\n" << log();
    return {};
  }
  // Asks the window launched next to write its frame with each state (a PNG, which costs the
  // window more than the frame itself: only for tests that look at picture()).
  void keep_pictures() { pictures_ = true; }
  // The window's frame as the last state() (or the exit) wrote it (keep_pictures() first).
  Picture picture() const {
    Picture p;
    int n = 0;
    unsigned char* data = stbi_load(png_path().c_str(), &p.width, &p.height, &n, 4);
    if (data == nullptr) {
      ADD_FAILURE() << "no frame at " << png_path();
      return p;
    }
    p.rgba.assign(data, data + static_cast<std::size_t>(p.width) * p.height * 4);
    stbi_image_free(data);
    return p;
  }

  // Waiting is counted in the window's own frames, never in seconds: each state() is written
  // after a frame, so input sent before a call has been read by a frame once the window answers
  // with a later frame number, however slow the machine. The only clocks are the watchdogs
  // (state()'s, wait_until's), far above any machine's need: they catch a hang, not a slow pass.

  // Waits until the window has drawn `frames` whole frames after this call and returns the state
  // after them (null, with the test failed, when the window does not answer). Input sent before
  // the call has then been read: wait_frames(1) is "the window has seen it".
  nlohmann::json wait_frames(int frames = 1) {
    nlohmann::json s = state();
    if (s.is_null()) return s;
    const long start = s["frame"].get<long>();
    // Each state() is a later frame than the one before, so this ends within `frames` asks.
    while (s["frame"].get<long>() < start + frames) {
      s = state();
      if (s.is_null()) break;
    }
    return s;
  }

  // Asks for the window's state until `done(state)` holds and returns that state. Bounded by
  // `max_frames` of the window's frames (for what input starts: it shows within a few frames)
  // and by a watchdog of `watchdog_s` seconds that only catches a hang (for what the window
  // does on its own clock: a load given up on after --time-limit, a reload after its settle);
  // past either the test fails, with the last state.
  template <class Done>
  nlohmann::json wait_until(Done done, long max_frames = 1000000, double watchdog_s = 120.0) {
    const auto deadline = now() + watchdog_s;
    nlohmann::json s = state();
    if (s.is_null()) return s;
    const long start = s["frame"].get<long>();
    while (!done(s)) {
      if (s["frame"].get<long>() - start > max_frames || now() > deadline) {
        ADD_FAILURE() << "the window never reached the state waited for (" << max_frames
                      << " frames, " << watchdog_s << " s); last:\n"
                      << s.dump(1);
        return s;
      }
      s = state();
      if (s.is_null()) return s;
    }
    return s;
  }

  // Pointer actions in window coordinates (ImGui's display units: the window has no scaling on
  // Xvfb). Each returns once the window has drawn a frame that read it.
  void move(double x, double y) {
    xdotool({"mousemove", "--window", window_, std::to_string(static_cast<int>(x)),
             std::to_string(static_cast<int>(y))});
    wait_frames(1);
  }
  // A press and a release in different frames, each seen by the window before the next: ImGui
  // 1.86 loses a click whose press and release reach it in one frame.
  void click(double x, double y, int button = 1) {
    move(x, y);
    xdotool({"mousedown", std::to_string(button)});
    wait_frames(1);
    xdotool({"mouseup", std::to_string(button)});
    wait_frames(2);
  }
  // Press, `steps` moves, release, each seen by a frame of its own before the next is sent: a
  // slow machine makes the drag slower, never shorter. (No double click: ImGui 1.86 wants its
  // two clicks within 0.3 s, a time a loaded machine's frames can take; tests/ui drives that
  // headless at a fixed frame rate.)
  void drag(double x0, double y0, double x1, double y1, int button = 1, int steps = 4) {
    move(x0, y0);
    xdotool({"mousedown", std::to_string(button)});
    wait_frames(1);
    for (int i = 1; i <= steps; ++i) {
      const double u = static_cast<double>(i) / steps;
      move(x0 + (x1 - x0) * u, y0 + (y1 - y0) * u);
    }
    xdotool({"mouseup", std::to_string(button)});
    wait_frames(2);
  }
  // Keys as xdotool names them ("F1", "space", "ctrl+q", "Return"); the pointer must be over
  // the window (no window manager: the keyboard follows the pointer). The window holds a key's
  // release back a frame when both reach it in one, so ImGui sees every key down; two frames
  // after, the modifiers are up again (text typed next is not read as Ctrl+letters).
  void key(const std::string& keys) {
    xdotool({"key", keys});
    wait_frames(2);
  }
  // Text into the focused field: ImGui queues the characters, however many reach a frame.
  void type(const std::string& text) {
    xdotool({"type", "--delay", "5", text});
    wait_frames(2);
  }
  // Clicks the centre of the landmark `name` (index as in ui::Landmarks::find) of `state`.
  bool click_landmark(const nlohmann::json& state, const std::string& name, int index = -1) {
    for (const auto& m : state["landmarks"]) {
      if (m["name"] != name || (index >= 0 && m["index"] != index)) continue;
      const auto& r = m["rect"];
      click(r[0].get<double>() + 0.5 * r[2].get<double>(),
            r[1].get<double>() + 0.5 * r[3].get<double>());
      return true;
    }
    ADD_FAILURE() << "no landmark " << name << " (" << index << ") in the window's state";
    return false;
  }

  // Ctrl+Q, then the exit status (-1 when it did not exit within `timeout_s`: then killed).
  int quit(double timeout_s = 30.0) {
    xdotool({"key", "ctrl+q"});  // not key(): no frame comes after it
    const auto deadline = now() + timeout_s;
    int status = 0;
    while (now() < deadline) {
      if (::waitpid(app_, &status, WNOHANG) == app_) {
        app_ = 0;
        return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    ADD_FAILURE() << "skinview did not quit on Ctrl+Q:\n" << log();
    return -1;
  }
  bool app_running() { return app_ > 0 && running(app_); }
  std::string log() const {
    std::ifstream in(dir_ + "/skinview.log");
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  }

 private:
  static double now() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
  }

  // Xvfb on the first free display; it writes the number to a pipe once it accepts clients.
  void start_display() {
    int fds[2];
    if (::pipe(fds) != 0) {
      why_ = "no pipe";
      return;
    }
    const std::string screen = std::to_string(width_) + "x" + std::to_string(height_) + "x24";
    xvfb_ = spawn({"/usr/bin/Xvfb", "-displayfd", std::to_string(fds[1]), "-screen", "0", screen,
                   "-nolisten", "tcp", "-noreset"},
                  dir_ + "/xvfb.log", {});
    ::close(fds[1]);
    std::string number;
    char c = 0;
    const auto deadline = now() + 30.0;
    while (now() < deadline && ::read(fds[0], &c, 1) == 1 && c != '\n') number += c;
    ::close(fds[0]);
    if (xvfb_ <= 0 || number.empty()) {
      why_ = "Xvfb did not start";
      return;
    }
    display_ = ":" + number;
  }

  pid_t spawn(const std::vector<std::string>& args, const std::string& log,
              const std::vector<std::string>& extra_env) {
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&actions, 1, log.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
    posix_spawn_file_actions_adddup2(&actions, 1, 2);
    std::vector<std::string> env;
    for (char** e = environ; *e != nullptr; ++e) {
      const std::string_view v(*e);
      if (v.rfind("DISPLAY=", 0) == 0 || v.rfind("XDG_CONFIG_HOME=", 0) == 0) continue;
      env.emplace_back(v);
    }
    if (!display_.empty()) env.push_back("DISPLAY=" + display_);
    env.insert(env.end(), extra_env.begin(), extra_env.end());
    std::vector<char*> argv, envp;
    for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    for (const std::string& e : env) envp.push_back(const_cast<char*>(e.c_str()));
    envp.push_back(nullptr);
    pid_t pid = -1;
    const int rc = posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), envp.data());
    posix_spawn_file_actions_destroy(&actions);
    return rc == 0 ? pid : -1;
  }

  bool xdotool(const std::vector<std::string>& args, std::string* out = nullptr) {
    std::string cmd = "DISPLAY=" + display_ + " /usr/bin/xdotool";
    for (const std::string& a : args) cmd += " '" + a + "'";
    cmd += " 2>/dev/null";
    std::FILE* p = ::popen(cmd.c_str(), "r");
    if (p == nullptr) return false;
    std::string text;
    char buf[256];
    while (std::fgets(buf, sizeof buf, p) != nullptr) text += buf;
    const int status = ::pclose(p);
    if (out != nullptr) *out = text;
    return status == 0;
  }

  static bool running(pid_t pid) {
    int status = 0;
    return pid > 0 && ::waitpid(pid, &status, WNOHANG) == 0;
  }
  static void stop(pid_t& pid) {
    if (pid <= 0) return;
    ::kill(pid, SIGTERM);
    for (int i = 0; i < 100 && running(pid); ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    if (running(pid)) ::kill(pid, SIGKILL);
    int status = 0;
    ::waitpid(pid, &status, 0);
    pid = 0;
  }

  int width_, height_;
  std::string why_;
  std::string dir_;
  std::string display_;
  std::string window_;
  pid_t xvfb_ = 0;
  pid_t app_ = 0;
  bool pictures_ = false;
};

}  // namespace sv::test
