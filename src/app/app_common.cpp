#include "app/app_common.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <string>
#include <thread>
#include <utility>

#include <GLFW/glfw3.h>
#include "gfx/gl.h"  // before GLFW

#include "anim/worker_pool.h"
#include "app/animation_files.h"
#include "app/cli.h"
#include "app/viewer_scene.h"
#include "gfx/camera.h"
#include "gfx/capture.h"
#include "gfx/renderer.h"
#include "io/heap_warm.h"
#include "io/import.h"

namespace sv {

namespace {
// Where glfw_error writes while open_hidden_context was given a list (GLFW calls its callback on
// the thread that made the GLFW call: the main thread).
std::vector<std::string>* g_glfw_said = nullptr;

void say(std::vector<std::string>* said, std::string line) {
  if (said != nullptr)
    said->push_back(std::move(line));
  else
    std::fprintf(stderr, "skinview: %s\n", line.c_str());
}
}  // namespace

void glfw_error(int code, const char* what) {
  say(g_glfw_said, "GLFW error " + std::to_string(code) + ": " + what);
}

GLFWwindow* create_window(int width, int height, const char* title, bool visible) {
  glfwWindowHint(GLFW_VISIBLE, visible ? GLFW_TRUE : GLFW_FALSE);
  glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
  glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
#ifndef NDEBUG
  glfwWindowHint(GLFW_OPENGL_DEBUG_CONTEXT, GLFW_TRUE);
#else
  const char* debug = std::getenv("SKINVIEW_GL_DEBUG");
  glfwWindowHint(GLFW_OPENGL_DEBUG_CONTEXT, debug != nullptr && *debug == '1');
#endif
  glfwWindowHint(GLFW_SCALE_TO_MONITOR, GLFW_TRUE);
  for (auto [major, minor] : {std::pair{4, 1}, std::pair{3, 3}}) {
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, major);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, minor);
    if (GLFWwindow* w = glfwCreateWindow(width, height, title, nullptr, nullptr)) {
      glfwMakeContextCurrent(w);
      return w;
    }
  }
  return nullptr;
}

GLFWwindow* open_hidden_context(std::vector<std::string>* said) {
  g_glfw_said = said;
  struct Restore {
    ~Restore() { g_glfw_said = nullptr; }
  } restore;
  glfwSetErrorCallback(glfw_error);
  if (glfwInit() != GLFW_TRUE) {
    say(said, "cannot initialise GLFW (no display? try xvfb-run -a)");
    return nullptr;
  }
  GLFWwindow* window = create_window(64, 64, "skinview", false);
  if (window == nullptr) {
    say(said, "cannot create an OpenGL 3.3 core context");
    glfwTerminate();
    return nullptr;
  }
  gl::install_debug_output();
  return window;
}

bool parse_size(const std::string& s, int* w, int* h) {
  int a = 0, b = 0;
  char x = 0, extra = 0;
  if (std::sscanf(s.c_str(), "%d%c%d%c", &a, &x, &b, &extra) != 3 || (x != 'x' && x != 'X')) {
    return false;
  }
  if (a < 1 || b < 1 || a > 16384 || b > 16384) return false;
  *w = a;
  *h = b;
  return true;
}

bool parse_view(const std::string& s, ViewMode* v) {
  if (s == "shaded")
    *v = ViewMode::Shaded;
  else if (s == "weights")
    *v = ViewMode::Weights;
  else if (s == "dominant")
    *v = ViewMode::Dominant;
  else if (s == "influences")
    *v = ViewMode::Influences;
  else if (s == "weight-sum")
    *v = ViewMode::WeightSum;
  else if (s == "cpu-gpu")
    *v = ViewMode::CpuGpu;
  else if (s == "method-diff")
    *v = ViewMode::MethodDiff;
  else if (s == "weight-change")
    *v = ViewMode::WeightChange;
  else
    return false;
  return true;
}

std::string parse_method_pair(const std::string& s, RenderOptions* out) {
  const std::size_t comma = s.find(',');
  const std::optional<SkinMethod> a =
      comma == std::string::npos ? std::nullopt : parse_skin_method(s.substr(0, comma));
  const std::optional<SkinMethod> b =
      comma == std::string::npos ? std::nullopt : parse_skin_method(s.substr(comma + 1));
  if (!a || !b) return "bad --diff-methods '" + s + "' (want two of lbs, dqs, cor: e.g. lbs,dqs)";
  if (*a == *b) return "bad --diff-methods '" + s + "' (want two different methods)";
  out->diff_a = *a;
  out->diff_b = *b;
  return "";
}

std::optional<int32_t> resolve_clip(const Model& model, const std::string& clip) {
  if (clip.empty()) return model.clips.empty() ? kRestPose : 0;
  for (std::size_t i = 0; i < model.clips.size(); ++i) {
    if (model.clips[i].name() == clip) return static_cast<int32_t>(i);
  }
  char* end = nullptr;
  errno = 0;
  const long i = std::strtol(clip.c_str(), &end, 10);
  if (errno == 0 && end != clip.c_str() && *end == '\0' && i >= 0 &&
      static_cast<std::size_t>(i) < model.clips.size()) {
    return static_cast<int32_t>(i);
  }
  return std::nullopt;
}

std::optional<int32_t> requested_clip(const Model& model, const Options& options) {
  if (options.rest_pose) return kRestPose;
  if (options.bind_pose) return kBindPose;
  return resolve_clip(model, options.clip);
}

namespace {
// "a, b, c" from names; cut after ~400 characters with the count, so a 65,536-joint skeleton
// still fits on one line.
template <class NameOf>
std::string name_list(std::size_t count, NameOf name_of) {
  std::string out;
  std::size_t i = 0;
  for (; i < count && out.size() < 400; ++i) {
    if (i > 0) out += ", ";
    out += name_of(i);
  }
  if (i < count) out += ", ... (" + std::to_string(count) + " in all)";
  return count == 0 ? std::string("none") : out;
}
}  // namespace

std::string no_clip_message(const Model& model, const std::string& file, const std::string& clip) {
  return "no clip '" + clip + "' in " + file +
         "; clips: " + name_list(model.clips.size(), [&](std::size_t i) {
           return model.clips[i].name().empty() ? std::to_string(i) : model.clips[i].name();
         });
}

std::string no_joint_message(const Model& model, const std::string& file,
                             const std::string& joint) {
  return "no joint '" + joint + "' in " + file + "; joints: " +
         name_list(model.skeleton.size(), [&](std::size_t i) { return model.skeleton.names[i]; });
}

bool parse_number(const std::string& text, double* out) {
  if (text.empty()) return false;
  errno = 0;
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (errno != 0 || end != text.c_str() + text.size() || !std::isfinite(v)) return false;
  *out = v;
  return true;
}

bool parse_seconds(const std::string& text, double* out) {
  double v = 0.0;
  if (!parse_number(text, &v) || v < 0.0 || v > 3.0e38) return false;
  *out = v;
  return true;
}

void frame_scene(Scene& scene, OrbitCamera& camera, RenderOptions& options, float aspect) {
  const Bounds world = world_bounds(scene);
  camera.frame(world, aspect);
  options.floor_y = world.valid() ? world.min.y : 0.0f;
  options.z_up = scene.play.z_up;
}

WorkerPool& skin_pool() {
  static WorkerPool pool(std::max(1u, std::thread::hardware_concurrency()));
  return pool;
}

int bad_input(const std::string& msg) {
  print_error_line(msg);
  return kExitBadInput;
}

struct HeadlessGl::Objects {
  gl::Renderer renderer;
  gl::OffscreenTarget target;
};

HeadlessGl::HeadlessGl(int width, int height, std::vector<std::string>* said)
    : window_(open_hidden_context(said)) {
  if (window_ == nullptr) return;
  glfwSwapInterval(0);
  auto objects = std::make_unique<Objects>();
  std::string error;
  if (!objects->renderer.init(&error, &warnings_) ||
      !objects->target.create(width, height, &error)) {
    say(said, error);
    return;  // `objects` dies here, while the context is still current
  }
  for (const std::string& w : warnings_) say(said, w);
  objects->target.bind();
  objects_ = std::move(objects);
}

HeadlessGl::~HeadlessGl() {
  objects_.reset();  // GL objects first, while the context is current
  if (window_ != nullptr) {
    glfwDestroyWindow(window_);
    glfwTerminate();
  }
}

int open_headless_scene(const Options& options, const char* mode, int width, int height,
                        HeadlessScene* out, const std::function<std::string(const Model&)>& check) {
  if (options.model.empty()) return bad_input(std::string("--") + mode + " needs a model file");
  // One model, one picture (or a few), then the process ends: its heap is kept and grown ahead,
  // faulted in on a thread while the worker reads the file (io/heap_warm.h): the GL buffers,
  // the first frame's arrays and the driver's then find pages already there.
  keep_heap();
  {
    std::error_code ec;
    const std::uintmax_t size = std::filesystem::file_size(options.model, ec);
    if (!ec) warm_heap_ahead(heap_warm_bytes(size, 3, 0));
  }
  // The worker reads the file while this thread makes the context, the renderer's programs and
  // the target, which do not depend on the model: ~0.1-0.17 s of a first open's wall time on
  // software GL (BENCHMARKS.md round 36). import_character's own thread only waits on the
  // worker and checks its result; an exception it throws is rethrown here, as before.
  ImportResult imported;
  std::vector<std::string> gl_said;
  {
    std::exception_ptr thrown;
    std::jthread importer([&] {
      try {
        imported = import_character(options);
      } catch (...) {
        thrown = std::current_exception();
      }
    });
    out->gl.emplace(width, height, &gl_said);
    importer.join();
    if (thrown) std::rethrow_exception(thrown);
  }
  if (!imported.ok()) return bad_input(imported.error);
  const std::optional<int32_t> clip = requested_clip(*imported.model, options);
  if (!clip) return bad_input(no_clip_message(*imported.model, options.model, options.clip));
  if (check) {
    if (std::string e = check(*imported.model); !e.empty()) return bad_input(e);
  }
  out->clip = *clip;
  for (const std::string& line : gl_said) std::fprintf(stderr, "skinview: %s\n", line.c_str());
  if (!out->gl->ok()) return 1;
  if (std::string e = adopt_scene(std::move(imported), options.model, &out->scene); !e.empty()) {
    return bad_input(e);
  }
  return -1;
}

gl::Renderer& HeadlessGl::renderer() noexcept { return objects_->renderer; }
gl::OffscreenTarget& HeadlessGl::target() noexcept { return objects_->target; }

}  // namespace sv
