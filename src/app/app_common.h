// Helpers the window, --screenshot, --bench-frames and --soak share: the GL context, option
// parsing for the viewer's options, framing, and one frame's animation work.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

struct GLFWwindow;

namespace sv {

struct Model;
struct Options;
struct Scene;
struct RenderOptions;
struct OrbitCamera;
class WorkerPool;
enum class ViewMode : int32_t;
namespace gl {
class Renderer;
class OffscreenTarget;
}  // namespace gl

// Reports GLFW errors on stderr (install with glfwSetErrorCallback); while open_hidden_context
// is given `said`, into that instead.
void glfw_error(int code, const char* what);

// A window with a core-profile context made current: 4.1 first, then 3.3. Null on failure.
GLFWwindow* create_window(int width, int height, const char* title, bool visible);

// GLFW, a hidden window and its current context, for the headless modes; null (with a message
// on stderr, or in `said` when given: GLFW's errors too) when there is no display or no
// core-profile context.
GLFWwindow* open_hidden_context(std::vector<std::string>* said = nullptr);

// "WxH" with 1 <= W, H <= 16384.
bool parse_size(const std::string& s, int* w, int* h);
// shaded | weights | dominant | influences | weight-sum | cpu-gpu | method-diff.
bool parse_view(const std::string& s, ViewMode* v);

// --diff-methods A,B: two different methods of lbs|dqs|cor (the method-difference view's pair).
// The message to print when it is not (starting "bad --diff-methods"), else "".
std::string parse_method_pair(const std::string& s, RenderOptions* out);

// Resolves --clip NAME|INDEX (a name first, then an index): for "" the first clip, or kRestPose
// when the model has none; nullopt when nothing matches.
std::optional<int32_t> resolve_clip(const Model& model, const std::string& clip);

// The clip or pose the command line asks for (--rest-pose, --bind-pose, --clip); nullopt when
// --clip names no clip.
std::optional<int32_t> requested_clip(const Model& model, const Options& options);

// "no clip 'X' in FILE; clips: a, b, c" and "no joint 'X' in FILE; joints: a, b, ... (N)": what
// the command line says when --clip or --bone names nothing, listing what exists (long lists are
// cut after about 400 characters, with the count).
std::string no_clip_message(const Model& model, const std::string& file, const std::string& clip);
std::string no_joint_message(const Model& model, const std::string& file, const std::string& joint);

// A finite number, the whole text (no unit, no trailing characters).
bool parse_number(const std::string& text, double* out);
// Parses --time: a finite number of seconds >= 0, nothing else.
bool parse_seconds(const std::string& text, double* out);

// Points the camera at the animated bounds of the scene's current clip (computed over the whole
// clip once, then cached in the scene), turned upright, for a viewport of `aspect`.
void frame_scene(Scene& scene, OrbitCamera& camera, RenderOptions& options, float aspect);

// The CPU path's threads: started on first use, one per core, kept for the process's life.
WorkerPool& skin_pool();

// Prints "skinview: MSG" on stderr and returns the bad-input exit status (2).
int bad_input(const std::string& msg);

// What the headless modes draw with: a hidden window's context, the renderer and a
// width x height offscreen target, bound. ok() is false (a message printed, or added to `said`
// when given, as the renderer's warnings are) when any part could not be made. The GL objects
// are released before the context; a Scene the caller made with this context must be destroyed
// before it (declare it after the HeadlessGl).
class HeadlessGl {
 public:
  HeadlessGl(int width, int height, std::vector<std::string>* said = nullptr);
  ~HeadlessGl();
  HeadlessGl(const HeadlessGl&) = delete;
  HeadlessGl& operator=(const HeadlessGl&) = delete;

  bool ok() const noexcept { return objects_ != nullptr; }
  GLFWwindow* window() const noexcept { return window_; }
  gl::Renderer& renderer() noexcept;
  gl::OffscreenTarget& target() noexcept;
  const std::vector<std::string>& warnings() const noexcept { return warnings_; }

 private:
  struct Objects;
  GLFWwindow* window_ = nullptr;
  std::unique_ptr<Objects> objects_;
  std::vector<std::string> warnings_;  // shader fallbacks and the like
};

// One model ready to draw headless: the context first, so the scene is released before it.
struct HeadlessScene {
  std::optional<HeadlessGl> gl;
  std::unique_ptr<Scene> scene;
  int32_t clip = -1;  // resolved --clip, or kRestPose / kBindPose
};

// The start --screenshot and --bench-frames share: imports options.model while it opens a
// width x height HeadlessGl (the worker reads the file as this thread makes the context and the
// programs), resolves --clip / --rest-pose / --bind-pose, runs `check` on the model (a non-empty
// message is bad input: exit 2), then makes the scene. Bad input is exit status 2 with its message
// alone, display or not: what the context said is printed only once the model is good. For the
// one-shot modes only (it sets this process's heap policy: io/heap_warm.h). Returns -1
// to go on, otherwise the exit status (message printed; `mode` names the option in "--MODE needs a
// model file").
int open_headless_scene(const Options& options, const char* mode, int width, int height,
                        HeadlessScene* out,
                        const std::function<std::string(const Model&)>& check = {});

}  // namespace sv
