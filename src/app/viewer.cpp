#include "app/viewer.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "gfx/gl.h"  // before GLFW

#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>
#include <CLI/CLI.hpp>

#include "app/animation_files.h"
#include "app/app_common.h"
#include "app/blend_options.h"
#include "app/camera_control.h"
#include "app/cli.h"
#include "app/clip_ranges.h"
#include "app/exit_state.h"
#include "app/export_pose.h"
#include "app/file_watch.h"
#include "app/headless_view.h"
#include "app/model_loader.h"
#include "app/reload_session.h"
#include "app/viewer_scene.h"
#include "app/viewport_picking.h"
#include "app/window_frame.h"
#include "app/window_record.h"
#include "gfx/capture.h"
#include "gfx/renderer.h"
#include "io/import.h"
#include "ui/fonts.h"
#include "ui/ui.h"

namespace sv {
namespace {

using Clock = std::chrono::steady_clock;

static_assert(ui::kKeySpace == GLFW_KEY_SPACE && ui::kKeyF == GLFW_KEY_F &&
                  ui::kKeyG == GLFW_KEY_G && ui::kKeyQ == GLFW_KEY_Q && ui::kKeyS == GLFW_KEY_S &&
                  ui::kKeyW == GLFW_KEY_W && ui::kKeyV == GLFW_KEY_V &&
                  ui::kKeyEscape == GLFW_KEY_ESCAPE && ui::kKeyEnter == GLFW_KEY_ENTER &&
                  ui::kKeyRight == GLFW_KEY_RIGHT && ui::kKeyLeft == GLFW_KEY_LEFT &&
                  ui::kKeyHome == GLFW_KEY_HOME && ui::kKeyPageUp == GLFW_KEY_PAGE_UP &&
                  ui::kKeyPageDown == GLFW_KEY_PAGE_DOWN && ui::kKeyF1 == GLFW_KEY_F1 &&
                  ui::kKeyKeypadEnter == GLFW_KEY_KP_ENTER && ui::kModControl == GLFW_MOD_CONTROL &&
                  ui::kModShift == GLFW_MOD_SHIFT && ui::kKey1 == GLFW_KEY_1 &&
                  ui::kKey3 == GLFW_KEY_3 && ui::kKey5 == GLFW_KEY_5 && ui::kKey7 == GLFW_KEY_7 &&
                  ui::kKeyA == GLFW_KEY_A && ui::kKeyZ == GLFW_KEY_Z &&
                  ui::kKeyLeftBracket == GLFW_KEY_LEFT_BRACKET &&
                  ui::kKeyRightBracket == GLFW_KEY_RIGHT_BRACKET && ui::kKeyF12 == GLFW_KEY_F12 &&
                  ui::kKeyKeypad1 == GLFW_KEY_KP_1 && ui::kKeyKeypad3 == GLFW_KEY_KP_3 &&
                  ui::kKeyKeypad5 == GLFW_KEY_KP_5 && ui::kKeyKeypad7 == GLFW_KEY_KP_7 &&
                  ui::kKeyKeypadDecimal == GLFW_KEY_KP_DECIMAL,
              "ui/controls.h key codes must be GLFW's");

// What the window keeps besides the ViewerState: reads in progress, errors, frame times.
struct Status {
  std::string load_error;
  std::string loading;                       // the file being read, "" when none
  double loading_seconds = 0.0;              // how long it has been read
  double loading_limit = 0.0;                // when it is given up on (0: never)
  std::vector<std::string> shader_warnings;  // from Renderer::init
  std::string export_message;                // the last "Export pose (.glb)"'s result
  std::string screenshot;                    // the last picture F12 saved
  bool export_error = false;
  std::size_t watched = 0;  // files live reload watches (0: off)
  int reloads = 0;          // live reloads of the model shown that succeeded
  // "Compare with...": the file being read or compared with ("" when none) and since when.
  std::string comparing;
  Clock::time_point comparing_since{};
  double comparing_seconds = 0.0;
};

// The window's Record control draws this long per UI frame at most (one recorded frame at least):
// the window keeps ~60 frames/s when one recorded frame takes a few ms.
constexpr double kRecordBudgetSeconds = 0.010;

ui::StatusView status_view(const Status& st, const FrameState& frames,
                           const RecordProgress* record = nullptr) {
  ui::StatusView v;
  if (record != nullptr) {
    v.exports.recording = record->running;
    v.exports.drawn = record->drawn;
    v.exports.written = record->written;
    v.exports.total = record->total;
    v.exports.record_message = record->message;
    v.exports.record_error = record->error;
  }
  v.exports.export_message = st.export_message;
  v.exports.export_error = st.export_error;
  v.load.error = st.load_error;
  v.load.loading = st.loading;
  v.load.loading_seconds = st.loading_seconds;
  v.load.loading_limit = st.loading_limit;
  v.load.shader_warnings = st.shader_warnings;
  v.load.watched = st.watched;
  v.load.reloads = st.reloads;
  v.load.comparing = st.comparing;
  v.load.comparing_seconds = st.comparing_seconds;
  // The true durations of the frames drawn (frame.h: never clamped).
  v.frame_times = std::span<const float>(frames.wall.data(), frames.wall.size());
  v.frame_newest = frames.next;
  return v;
}

// What the command line asks the window to start with, checked against the model before the
// window opens.
struct Start {
  int32_t clip = kRestPose;
  std::optional<double> time;  // --time: start paused there
  LayerStack blend;            // --layer / --crossfade, on a clock starting at --time (or 0)
  int32_t joint = -1;          // --bone
  RenderOptions render;
  std::string skinning = "auto";  // --skinning: render.gpu_skinning once the driver is known
  std::string up = "auto";
  CrowdRequest crowd;            // --crowd
  std::optional<ViewAxis> axis;  // --camera-view
};

// The viewer's own queue of key presses and typed characters, and a dropped file.
//
// ImGui 1.86 samples key state once per frame (1.87 added an input queue), so a key pressed and
// released between two frames -- a quick tap, a remote desktop, xdotool -- never reaches ImGui:
// Enter in the path box or Ctrl+A would do nothing. The key callback therefore holds back, until
// the next frame, every release that arrives while some key has been pressed since the last
// frame (the pressed key's own, and a modifier's: Ctrl released right after A must still be down
// when ImGui sees A), so ImGui sees every press for at least one frame, with its modifiers.
struct Input {
  struct Release {
    int key, scancode, mods;
  };
  std::array<ui::KeyEvent, 32> keys{};
  int count = 0;
  bool any_pressed = false;        // some key was pressed since the last frame
  std::array<Release, 16> held{};  // releases held back for the next frame
  int held_count = 0;
  std::string dropped;
  void push(const ui::KeyEvent& e) {
    if (count < static_cast<int>(keys.size())) keys[static_cast<std::size_t>(count++)] = e;
  }
};

Input* input_of(GLFWwindow* w) { return static_cast<Input*>(glfwGetWindowUserPointer(w)); }

class Viewer final : public WindowFrameHooks {
 public:
  int run(const Options& options, const ViewerOptions& viewer, const std::string& model,
          ModelLoader::Finished first, const Start& start, std::unique_ptr<ModelLoader> loader,
          WindowProbe& probe);

 private:
  // How a read replaces the model shown: another file (a fresh camera and session), or the same
  // file again -- with more clips (add_animations) or changed on disk (live reload) -- keeping the
  // camera, the view and the session where it still applies (app/reload_session.h).
  enum class Adopt { Open, AddedClips, Reload };
  void open(const std::string& path);
  // "Add animations...": the open model read again (a model-cache hit) with `file`'s clips added.
  void add_animations(const std::string& file);
  // "Compare with...": `file` read by a loader of its own (the model shown stays), then compared
  // with the model shown off the frame thread (Scene::start_comparison: bounded in counts,
  // cancellable); the weight-change view shows the result once it is done. A comparison in
  // progress (its read or its run) is cancelled first.
  void compare_with(const std::string& file);
  // Once a frame: starts the comparison when the file has been read, adopts it when done, says
  // why when it could not be made.
  void finish_compare();
  // Cancels the comparison in progress, its read or its run (another model is being opened).
  // True when there was one.
  bool cancel_compare();
  // The comparison of the model shown with the file last compared with (kept for the reloads of
  // the same model: a live reload or added clips compare again).
  void compare_again();
  bool adopt(ImportResult&& result, const std::string& path, Adopt how = Adopt::Open);
  void finish_open();
  // Live reload: follows the "Watch files" toggle, hands the watcher the files of the model shown,
  // and reads the model again once they changed and settled (app/file_watch.h). Allocates only
  // when the toggle or the files change.
  void watch_files();
  // The timeline's "Save range": the player's in and out points written to the sidecar beside the
  // model (app/clip_ranges.h), then the model read again with the range among its clips.
  void save_range();
  void frame(double wall_seconds);
  // WindowFrameHooks: the window's reactions around run_frame (window_frame.h).
  void before_frame(const ui::UiEdits& key_edits) override;
  ui::StatusView status() override;
  void after_panels(const ui::UiEdits& panel_edits, const Frame* frame) override;
  // Open, quit, frame, reset, up axis: from keys or from the panels.
  void apply_edits(const ui::UiEdits& edits);
  // The Export section's requests (Record, Cancel, Export pose) from this frame's UI.
  void exports(const ui::ExportRequests& requests);
  float viewport_aspect() const;
  void frame_camera(bool reset);
  // The keys' camera commands (ui::UiEdits::view) but the screenshot, each with its toast.
  void camera_command(ui::Action action);
  // A crowd turned on frames the crowd; turned off, the view from before it comes back.
  void follow_crowd();
  // Writes --exit-json and --exit-png; `redraw` renders one more frame first (at exit, when the
  // back buffer holds nothing yet), otherwise the frame just drawn is read before its swap.
  void write_state_files(const WindowProbe& probe, bool redraw);

  GLFWwindow* window_ = nullptr;
  Input input_;
  gl::Renderer renderer_;
  // Files opened from the window are read by the import worker in a child process (the window
  // keeps drawing) and given up on after --time-limit seconds; the scene is built here, on the
  // context's thread.
  std::unique_ptr<ModelLoader> loader_;
  std::unique_ptr<ModelLoader> compare_loader_;  // "Compare with..."'s file, read as any model
  std::shared_ptr<const Model> compare_b_;       // the file compared with, once read
  std::string compare_b_path_;
  bool compare_asked_ = false;  // the comparison in progress is the user's: show it when done
  std::unique_ptr<Scene> scene_;
  OrbitCamera camera_;
  CameraControl camera_control_;  // the mouse's moves and the view history (camera_control.h)
  AutoFrame auto_frame_;          // framings waiting for a clip's bounds (camera_control.h)
  std::size_t crowd_framed_ = 0;  // the crowd's instances the camera frames (follow_crowd)
  OrbitCamera before_crowd_;      // the view the crowd's framing replaced
  bool has_before_crowd_ = false;
  bool screenshot_ = false;  // F12: save the viewport once this frame is drawn
  ui::ViewerState state_;
  ViewportPicking picking_;
  WindowRecorder recorder_;  // after scene_'s use: step() takes the scene each frame
  FrameState frames_;        // the window's frames: their record and true times
  ViewportFrame viewport_frame_;
  Status status_;
  std::size_t late_problems_seen_ = 0;  // of renderer_.late_problems(), said already
  long frames_drawn_ = 0;
  bool adding_animations_ = false;                   // the read in progress is add_animations'
  ui::FontGlyphs font_glyphs_{ui::find_cjk_font()};  // glyphs of the names shown (CJK)
  bool reloading_ = false;                           // the read in progress is a live reload
  bool saving_range_ = false;                        // the read in progress adds a range just saved
  std::string range_saved_;                          // what to say once it is shown
  // Live reload: the files the model shown was read from (ModelLoader::Finished::files), whether
  // the watcher watches them, and the watcher's change count last acted on.
  std::vector<std::string> files_;
  bool watching_ = false;
  uint64_t changes_seen_ = 0;
  FileWatcher watcher_;  // last: its thread stops before the rest goes
};

// Merges into the font atlas the glyphs that names new on screen need (ui/fonts.h), between
// frames; a texture the backend already uploaded is uploaded again.
void update_font(ui::FontGlyphs& glyphs, const ui::ViewerState& state, const Scene* scene) {
  glyphs.watch(state, scene != nullptr ? &scene->doc.model : nullptr,
               scene != nullptr ? std::string_view(scene->doc.path) : std::string_view());
  ImFontAtlas& atlas = *ImGui::GetIO().Fonts;
  if (!glyphs.build(atlas)) return;
  if (atlas.TexID != nullptr) {
    ImGui_ImplOpenGL3_DestroyFontsTexture();
    ImGui_ImplOpenGL3_CreateFontsTexture();
  }
}

void Viewer::open(const std::string& path) {
  if (cancel_compare())
    ui::show_toast(state_.toast, "Comparison cancelled: another model is being opened");
  // Animations added to the previous model were for its skeleton: another file starts without.
  // So were --range's: the sidecar beside the new file brings its own ranges.
  AnimationSources sources = loader_->animations();
  sources.files.clear();
  sources.ranges.clear();
  loader_->set_animations(std::move(sources));
  adding_animations_ = false;
  reloading_ = false;
  status_.load_error = loader_->start(path);
  if (!status_.load_error.empty()) print_error_line(status_.load_error);
}

void Viewer::add_animations(const std::string& file) {
  if (!scene_) return;
  AnimationSources sources = loader_->animations();
  sources.files.push_back(file);
  loader_->set_animations(std::move(sources));
  adding_animations_ = true;
  reloading_ = false;
  status_.load_error = loader_->start(scene_->doc.path);
  if (!status_.load_error.empty()) print_error_line(status_.load_error);
}

void Viewer::compare_with(const std::string& file) {
  if (!scene_ || file.empty()) return;
  cancel_compare();
  status_.comparing = file;
  status_.comparing_since = Clock::now();
  compare_asked_ = true;
  status_.load_error = compare_loader_->start(file);
  if (!status_.load_error.empty()) {
    status_.comparing.clear();
    compare_asked_ = false;
    print_error_line(status_.load_error);
  }
}

bool Viewer::cancel_compare() {
  const bool running = compare_loader_->busy() || (scene_ && scene_->comparison_pending());
  compare_loader_->cancel();
  if (scene_) scene_->jobs.compare_job.stop();
  status_.comparing.clear();
  compare_asked_ = false;
  return running;
}

void Viewer::compare_again() {
  if (!scene_ || !compare_b_) return;
  scene_->start_comparison(compare_b_, compare_b_path_);
  if (status_.comparing.empty()) {
    status_.comparing = compare_b_path_;
    status_.comparing_since = Clock::now();
  }
}

void Viewer::finish_compare() {
  if (!status_.comparing.empty())
    status_.comparing_seconds =
        std::chrono::duration<double>(Clock::now() - status_.comparing_since).count();
  if (std::optional<ModelLoader::Finished> done = compare_loader_->poll()) {
    std::string error;
    if (!done->result.ok()) {
      error = done->result.error;
    } else if (std::string e = done->result.model->validate(); !e.empty()) {
      error = done->path + ": " + e;
    } else if (scene_) {
      compare_b_ = std::make_shared<const Model>(std::move(*done->result.model));
      compare_b_path_ = done->path;
      compare_again();
    }
    if (!error.empty()) {
      status_.comparing.clear();
      compare_asked_ = false;
      status_.load_error = "Compare failed: " + error;
      print_error_line(status_.load_error);
      ui::show_toast_error(state_.toast, "Compare failed (see File)");
    }
  }
  if (!scene_) return;
  std::optional<Scene::ComparisonEnd> end = scene_->poll_comparison();
  if (!end) return;
  const bool asked = std::exchange(compare_asked_, false);
  status_.comparing.clear();
  if (end->status == CompareStatus::TooLarge) {
    // A file too large to compare in the budget: said where a failed read is, the model stays.
    status_.load_error = "Compare failed: " + end->with + ": " + end->problem;
    print_error_line(status_.load_error);
    ui::show_toast_error(state_.toast, "Compare failed (see File)");
    return;
  }
  if (end->status != CompareStatus::Done || !asked) return;  // cancelled, or a reload's again
  status_.load_error.clear();
  state_.render.view = ViewMode::WeightChange;
  const RigComparison& c = *scene_->jobs.comparison;
  ui::show_toast(state_.toast,
                 "Compared with %s: %llu of %llu vertices' weights changed; joints: %zu moved, "
                 "%zu renamed, %zu added, %zu removed; clips: %zu changed",
                 end->with.c_str(), static_cast<unsigned long long>(c.vertices_changed),
                 static_cast<unsigned long long>(c.vertices_compared), c.moved.size(),
                 c.renamed.size(), c.added.size(), c.removed.size(), c.clips_changed.size());
}

bool Viewer::adopt(ImportResult&& result, const std::string& path, Adopt how) {
  // What stays when the same model comes back, by name (its clips and joints may have moved).
  std::optional<KeptSession> kept;
  if (how != Adopt::Open && scene_)
    kept = keep_session(scene_->doc.model, scene_->play.player, scene_->play.stack,
                        scene_->play.z_up, state_.selection.joint);
  const ViewMode view = state_.render.view;
  const std::string error = adopt_scene(std::move(result), path, &scene_);
  if (!error.empty()) {
    status_.load_error =
        how == Adopt::Reload ? "Reload failed, the previous model stays: " + error : error;
    print_error_line(status_.load_error);
    if (how == Adopt::Reload) ui::show_toast_error(state_.toast, "Reload failed (see File)");
    return false;
  }
  status_.load_error.clear();
  recorder_.cancel();  // it recorded the previous model: stop where it is
  renderer_.prepare(scene_->doc.model);
  // Another file is not the model compared; the same one read again is compared again (a
  // comparison in progress with it too: the previous scene's run went with that scene).
  if (how == Adopt::Open) {
    cancel_compare();  // asked for while this file was read: it was for the previous model
    compare_b_.reset();
    compare_b_path_.clear();
  } else {
    compare_again();
  }
  state_.new_model(scene_->doc.model);
  if (kept) {
    int32_t joint = -1;
    const std::string notes = restore_session(*kept, scene_->doc.model, &scene_->play.player,
                                              &scene_->play.stack, &scene_->play.z_up, &joint);
    state_.selection.joint = joint;
    state_.render.view = view;
    state_.render.z_up = scene_->play.z_up;
    if (how == Adopt::Reload) {
      ++status_.reloads;
      ui::show_toast(state_.toast, "Reloaded %s%s%s", path.c_str(), notes.empty() ? "" : ": ",
                     notes.c_str());
    } else {
      ui::show_toast(state_.toast, "Added animations: %zu clips now%s%s",
                     scene_->doc.model.clips.size(), notes.empty() ? "" : "; ", notes.c_str());
    }
    return true;
  }
  status_.reloads = 0;
  state_.crowd.settings.spacing = 0.0f;  // a crowd on stays on, spaced for the new model
  picking_.reset();
  crowd_framed_ = 0;
  has_before_crowd_ = false;
  frame_camera(true);       // a new file starts with a fresh camera
  camera_control_.clear();  // and no history: the last model's views mean nothing here
  std::snprintf(state_.files.open_path, sizeof(state_.files.open_path), "%s", path.c_str());
  ui::remember_recent(state_.files, path);
  if (std::string e; !ui::save_recent(state_.files, &e)) {
    std::fprintf(stderr, "skinview: %s (Recent is not kept)\n", e.c_str());
  }
  glfwSetWindowTitle(window_, ("skinview - " + path).c_str());
  return true;
}

void Viewer::finish_open() {
  status_.loading = loader_->busy() ? loader_->path() : std::string();
  status_.loading_seconds = loader_->elapsed_seconds();
  std::optional<ModelLoader::Finished> done = loader_->poll();
  if (!done) return;
  status_.loading.clear();
  const bool adding = std::exchange(adding_animations_, false);
  const bool reloading = std::exchange(reloading_, false);
  const bool range = std::exchange(saving_range_, false);
  const Adopt how = reloading ? Adopt::Reload : adding || range ? Adopt::AddedClips : Adopt::Open;
  if (adopt(std::move(done->result), done->path, how)) {
    files_ = std::move(done->files);
    if (watching_) watcher_.watch(files_);
    if (range) ui::show_toast(state_.toast, "%s", range_saved_.c_str());
  } else if (adding) {
    // The file that failed is not kept: the next read would fail on it again.
    AnimationSources sources = loader_->animations();
    if (!sources.files.empty()) sources.files.pop_back();
    loader_->set_animations(std::move(sources));
  }
}

void Viewer::save_range() {
  if (!scene_ || loader_->busy()) return;
  const Player& p = scene_->play.player;
  const Model& m = scene_->doc.model;
  if (p.clip < 0 || p.range_clip != p.clip || !(p.range_out > p.range_in)) return;
  ClipRange r;
  r.name = state_.timeline.range_name;
  r.clip = m.clips[static_cast<std::size_t>(p.clip)].name();
  r.start = p.range_in;
  r.end = std::min(p.range_out, m.clips[static_cast<std::size_t>(p.clip)].duration());
  const std::string sidecar = ranges_sidecar_path(scene_->doc.path);
  std::vector<ClipRange> saved;
  std::string e = read_ranges_sidecar(sidecar, &saved);
  if (e.empty()) {
    // A saved range's name is saved over; a clip of the file's (or an added one's) is not.
    bool is_saved = false;
    for (const ClipRange& s : saved) is_saved |= s.name == r.name;
    for (const ClipRuntime& c : m.clips)
      if (!is_saved && c.name() == r.name) e = "the model has a clip named '" + r.name + "'";
  }
  if (e.empty()) {
    put_range(saved, r);
    e = write_ranges_sidecar(sidecar, saved);
  }
  if (!e.empty()) {
    ui::show_toast_error(state_.toast, "Range not saved: %s", e.c_str());
    print_error_line("range not saved: " + e);
    return;
  }
  char what[256];
  std::snprintf(what, sizeof(what), "Saved range '%s' (%.3f-%.3f s of '%s') to %s", r.name.c_str(),
                r.start, r.end, r.clip.c_str(),
                std::filesystem::path(sidecar).filename().string().c_str());
  range_saved_ = what;
  saving_range_ = true;
  reloading_ = false;
  adding_animations_ = false;
  status_.load_error = loader_->start(scene_->doc.path);
  if (!status_.load_error.empty()) print_error_line(status_.load_error);
}

void Viewer::watch_files() {
  const bool want = state_.files.watch && scene_ != nullptr;
  if (want != watching_) {
    watching_ = want;
    watcher_.watch(want ? files_ : std::vector<std::string>{});
    changes_seen_ = watcher_.changes();
    status_.watched = want ? files_.size() : 0;
    if (want) {
      ui::show_toast(state_.toast, "Watching %zu files for changes", files_.size());
    } else if (scene_) {
      ui::show_toast(state_.toast, "Not watching files");
    }
  }
  if (!watching_) return;
  status_.watched = watcher_.watched();
  const uint64_t changes = watcher_.changes();
  // A read in progress (another file, added clips, a reload) goes first; the change waits.
  if (changes == changes_seen_ || loader_->busy()) return;
  changes_seen_ = changes;
  reloading_ = true;
  adding_animations_ = false;
  const std::string e = loader_->start(scene_->doc.path);
  if (!e.empty()) {
    reloading_ = false;
    status_.load_error = "Reload failed, the previous model stays: " + e;
    print_error_line(status_.load_error);
  }
}

// The viewport's aspect from the pure layout (valid before the first UI frame has run).
float Viewer::viewport_aspect() const {
  int w = 0, h = 0;
  glfwGetWindowSize(window_, &w, &h);
  const ui::Layout l = ui::compute_layout(static_cast<float>(w), static_cast<float>(h),
                                          state_.layout_prefs, state_.ui_scale);
  return l.viewport.h > 0.0f ? l.viewport.w / l.viewport.h : 1.0f;
}

// Frames the current clip's bounds in the viewport; `reset` also returns to the opening view.
void Viewer::frame_camera(bool reset) {
  if (!scene_) return;
  camera_control_.record(camera_);
  if (reset) camera_ = OrbitCamera{};
  // The clip's bounds when known, else the rest pose's until they are (Viewer::frame settles).
  auto_frame_.frame(*scene_, camera_, state_.render, viewport_aspect());
}

void Viewer::frame(double wall_seconds) {
  update_font(font_glyphs_, state_, scene_.get());
  if (scene_) auto_frame_.settle(*scene_, camera_, state_.render, viewport_aspect());
  ImGui_ImplOpenGL3_NewFrame();
  ImGui_ImplGlfw_NewFrame();
  ImGui::NewFrame();
  int fw = 0, fh = 0;
  glfwGetFramebufferSize(window_, &fw, &fh);
  WindowFrameInputs in;
  in.scene = scene_.get();
  in.state = &state_;
  in.renderer = &renderer_;
  in.camera = &camera_;
  in.frames = &frames_;
  in.keys =
      std::span<const ui::KeyEvent>(input_.keys.data(), static_cast<std::size_t>(input_.count));
  in.wall_seconds = wall_seconds;
  in.framebuffer_width = fw;
  in.framebuffer_height = fh;
  window_frame(in, *this);
  // A mesh program built at its first draw (gfx/renderer.h) whose disk shaders failed, or that
  // could not be built: said once, beside init's shader warnings.
  for (; late_problems_seen_ < renderer_.late_problems().size(); ++late_problems_seen_) {
    const std::string& problem = renderer_.late_problems()[late_problems_seen_];
    std::fprintf(stderr, "skinview: %s\n", problem.c_str());
    status_.shader_warnings.push_back(problem);
  }
  input_.count = 0;
  ImGui::Render();
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
  ++frames_drawn_;
}

void Viewer::apply_edits(const ui::UiEdits& edits) {
  if (edits.open) open(state_.files.open_path);
  if (edits.add_animations) add_animations(state_.files.open_path);
  if (edits.compare) compare_with(state_.files.open_path);
  // The path box names the open model again: the file whose clips were added, or the one compared
  // with, is not open (the File section names the latter: "Compared with: NAME").
  if ((edits.add_animations || edits.compare) && scene_)
    std::snprintf(state_.files.open_path, sizeof(state_.files.open_path), "%s",
                  scene_->doc.path.c_str());
  if (edits.save_range) save_range();
  if (edits.quit) glfwSetWindowShouldClose(window_, GLFW_TRUE);
  if (scene_ && edits.up_axis) {
    scene_->play.z_up = state_.render.z_up;
    frame_camera(false);
  }
  if (edits.frame) {
    frame_camera(false);
    ui::show_toast(state_.toast, "Framed all: the clip's bounds (A)");
  }
  if (edits.reset_view) {
    frame_camera(true);
    ui::show_toast(state_.toast, "View reset (Home)");
  }
  if (edits.view == ui::Action::Screenshot) {
    screenshot_ = true;
  } else if (edits.view != ui::Action::None) {
    camera_command(edits.view);
  }
}

void Viewer::camera_command(ui::Action action) {
  if (!scene_) return;
  const float aspect = viewport_aspect();
  auto axis = [&](ViewAxis a) {
    camera_control_.record(camera_);
    camera_.set_view(a);
    ui::show_toast(state_.toast, "%s view (%s)", view_axis_name(a),
                   camera_.ortho ? "orthographic" : "perspective");
  };
  switch (action) {
    case ui::Action::ViewFront:
      return axis(ViewAxis::Front);
    case ui::Action::ViewBack:
      return axis(ViewAxis::Back);
    case ui::Action::ViewRight:
      return axis(ViewAxis::Right);
    case ui::Action::ViewLeft:
      return axis(ViewAxis::Left);
    case ui::Action::ViewTop:
      return axis(ViewAxis::Top);
    case ui::Action::ViewBottom:
      return axis(ViewAxis::Bottom);
    case ui::Action::ToggleOrtho:
      camera_control_.record(camera_);
      camera_.toggle_ortho();
      ui::show_toast(state_.toast, "%s (Numpad 5)", camera_.ortho ? "Orthographic" : "Perspective");
      return;
    case ui::Action::FrameSelected: {
      const int32_t joint = state_.selection.joint;
      const Bounds part = selection_world_bounds(*scene_, joint);
      if (!part.valid()) {
        frame_camera(false);
        ui::show_toast(state_.toast, "Framed the model (nothing selected)");
        return;
      }
      camera_control_.record(camera_);
      camera_.frame_part(part, aspect);
      const uint32_t skinned = static_cast<std::size_t>(joint) < scene_->doc.influence.size()
                                   ? scene_->doc.influence[static_cast<std::size_t>(joint)].vertices
                                   : 0u;
      ui::show_toast(state_.toast, "Framed %s and the %u vertices it skins",
                     scene_->doc.model.skeleton.names[static_cast<std::size_t>(joint)].c_str(),
                     skinned);
      return;
    }
    case ui::Action::ViewUndo:
    case ui::Action::ViewRedo: {
      const bool undo = action == ui::Action::ViewUndo;
      CameraHistory& h = camera_control_.history;
      if (undo ? camera_control_.undo(camera_) : camera_control_.redo(camera_)) {
        ui::show_toast(state_.toast, "View %s (%d more to undo, %d to redo)",
                       undo ? "undone" : "redone", h.undo_count(), h.redo_count());
      } else {
        ui::show_toast(state_.toast, undo ? "No earlier view" : "Nothing to redo");
      }
      return;
    }
    default:
      return;
  }
}

void Viewer::follow_crowd() {
  const std::size_t instances = scene_->frame.crowd.instances();
  if (instances == crowd_framed_) return;
  const std::size_t was = crowd_framed_;
  crowd_framed_ = instances;
  if (instances > 0) {
    if (was == 0) {
      before_crowd_ = camera_;
      has_before_crowd_ = true;
    }
    frame_camera(false);  // world_bounds holds every instance
    ui::show_toast(state_.toast, "Framed the crowd (%zu instances)", instances);
  } else if (has_before_crowd_) {
    camera_control_.record(camera_);
    camera_ = before_crowd_;
    has_before_crowd_ = false;
    ui::show_toast(state_.toast, "Crowd off: back to the view before it");
  } else {
    frame_camera(false);  // the crowd came with the window (--crowd): frame the model alone
    ui::show_toast(state_.toast, "Crowd off: framed the model");
  }
}

void Viewer::before_frame(const ui::UiEdits& key_edits) {
  apply_edits(key_edits);
  exports(key_edits.exports);
  const ui::ViewportInput& in = state_.input;
  camera_control_.apply_input(in, state_.viewport, camera_);
  // Picking, before this frame's pose: the palette and buffers still hold the picture on screen.
  ViewportFrame& viewport = viewport_frame_;
  viewport.rect = state_.viewport;
  viewport.ui_scale = ImGui::GetIO().DisplayFramebufferScale.x > 0.0f
                          ? 1.0f / ImGui::GetIO().DisplayFramebufferScale.x
                          : 1.0f;
  viewport.cursor = glm::vec2(in.mouse_x, in.mouse_y);
  viewport.hovered = in.hovered && !ImGui::IsAnyMouseDown();
  viewport.clicked = in.clicked;
  viewport.now = glfwGetTime();
  viewport.view = camera_.view();
  viewport.projection = camera_.projection(state_.viewport.aspect());
  if (scene_) {
    picking_.update(viewport, *scene_, state_.render, state_.selection);
    state_.render.selected_joint = state_.selection.joint;
    state_.render.hovered_joint = state_.selection.hovered_joint;
    // The recording's frames, on its own clock, before this frame's pose (run_frame poses the
    // window's again): picking above still saw the picture on screen.
    recorder_.step(*scene_, renderer_, kRecordBudgetSeconds);
  }
}

ui::StatusView Viewer::status() {
  ui::StatusView v = status_view(status_, frames_, &recorder_.progress());
  if (scene_ && scene_->jobs.comparison) v.load.compared_with = scene_->jobs.compared_with;
  return v;
}

void Viewer::after_panels(const ui::UiEdits& panel_edits, const Frame* frame) {
  if (scene_ && frame != nullptr) {
    // F12: the 3D view just drawn, before ImGui draws over it.
    if (screenshot_) {
      int fw = 0, fh = 0;
      glfwGetFramebufferSize(window_, &fw, &fh);
      std::string e;
      const std::string path = save_viewport_png(scene_->doc.path, state_.viewport, fw, fh, &e);
      if (path.empty()) {
        ui::show_toast_error(state_.toast, "Screenshot not saved: %s", e.c_str());
        print_error_line("screenshot: " + e);
      } else {
        ui::show_toast(state_.toast, "Saved %s", path.c_str());
        status_.screenshot = path;
      }
    }
    follow_crowd();
    // Labels and the hover tooltip over the pose just drawn.
    draw_viewport_overlay(*scene_, state_, viewport_frame_,
                          picking_.hover_at(viewport_frame_.cursor));
  }
  screenshot_ = false;
  apply_edits(panel_edits);
  exports(panel_edits.exports);
}

void Viewer::exports(const ui::ExportRequests& r) {
  if (r.cancel_record) recorder_.cancel();
  if (r.export_pose && scene_) {
    // The pose of the frame on screen: run_frame has drawn it, nothing has posed since.
    // The full path the panel named (and asked about, when it existed).
    const std::string& path = state_.export_pose.target;
    const std::string e =
        export_scene_pose(*scene_, state_.render.method, state_.export_pose.skinned, path);
    status_.export_error = !e.empty();
    status_.export_message = e.empty() ? "wrote " + path : e;
    if (!e.empty()) std::fprintf(stderr, "skinview: %s\n", e.c_str());
  }
  if (!r.record || !scene_) return;
  const ui::RecordFields& f = state_.record;
  RecordOptions options;
  options.fps = f.fps;
  options.from = f.from;
  options.to = f.to;
  options.orbit = f.orbit;
  options.loops = f.loops;
  RenderOptions render = state_.render;
  render.selected_joint = state_.selection.joint;
  const std::string e = recorder_.start(f.out, options, f.size, *scene_, render);
  if (!e.empty()) std::fprintf(stderr, "skinview: %s\n", e.c_str());
}

void Viewer::write_state_files(const WindowProbe& probe, bool redraw) {
  if (!probe.wants_files()) return;
  int fw = 0, fh = 0, w = 0, h = 0;
  glfwGetFramebufferSize(window_, &fw, &fh);
  glfwGetWindowSize(window_, &w, &h);
  if (redraw) frame(0.0);
  ExitState s;
  s.state = &state_;
  s.scene = scene_.get();
  s.camera = &camera_;
  s.history = &camera_control_.history;
  s.window_width = w;
  s.window_height = h;
  s.framebuffer_width = fw;
  s.framebuffer_height = fh;
  s.load_error = status_.load_error;
  s.loading = status_.loading;
  s.frame = frames_drawn_;
  const RecordProgress& r = recorder_.progress();
  s.recording = r.running;
  s.recorded = r.written;
  s.record_total = r.total;
  s.record_message = r.message;
  s.record_error = r.error;
  s.exported = status_.export_message;
  s.screenshot = status_.screenshot;
  s.toast = state_.toast.text.data();
  s.toast_visible = state_.toast.visible(ImGui::GetTime());
  s.framing_pending = auto_frame_.pending();
  s.watching = watching_;
  s.watched = status_.watched;
  s.reloads = status_.reloads;
  s.comparing = status_.comparing;
  s.frames = &frames_;
  probe.write(s, fw, fh);
}

int Viewer::run(const Options& options, const ViewerOptions& viewer, const std::string& model,
                ModelLoader::Finished first, const Start& start,
                std::unique_ptr<ModelLoader> loader, WindowProbe& probe) {
  loader_ = std::move(loader);
  compare_loader_ = std::make_unique<ModelLoader>(import_options(options));
  glfwSetErrorCallback(glfw_error);
  if (glfwInit() != GLFW_TRUE) {
    std::fprintf(stderr, "skinview: cannot initialise GLFW (no display?)\n");
    return 1;
  }
  int width = 1280, height = 720;
  parse_size(viewer.size, &width, &height);
  window_ = create_window(width, height, "skinview", true);
  if (window_ == nullptr) {
    std::fprintf(stderr, "skinview: cannot create an OpenGL 3.3 core context\n");
    glfwTerminate();
    return 1;
  }
  glfwSwapInterval(1);
  gl::install_debug_output();
  glfwSetWindowUserPointer(window_, &input_);
  // Installed before ImGui, which chains to it.
  glfwSetCharCallback(window_, [](GLFWwindow* w, unsigned int c) {
    input_of(w)->push({0, 0, static_cast<uint32_t>(c)});
  });
  glfwSetDropCallback(window_, [](GLFWwindow* w, int count, const char** paths) {
    if (count > 0) input_of(w)->dropped = paths[0];
  });

  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGui::GetIO().IniFilename = nullptr;
  float xs = 1.0f, ys = 1.0f;
  glfwGetWindowContentScale(window_, &xs, &ys);
  ImGui::GetStyle().ScaleAllSizes(xs);
  ImGui::GetIO().FontGlobalScale = xs;
  state_.ui_scale = xs;
  ImGui_ImplGlfw_InitForOpenGL(window_, true);
  ImGui_ImplOpenGL3_Init("#version 330 core");
  // Replaces the backend's key callback and forwards to it, holding back quick releases (Input).
  glfwSetKeyCallback(window_, [](GLFWwindow* w, int key, int scancode, int action, int mods) {
    Input* in = input_of(w);
    const bool known = key >= 0 && key <= GLFW_KEY_LAST;
    if (action == GLFW_PRESS || action == GLFW_REPEAT) {
      in->push({key, mods, 0});
      in->any_pressed = true;
    } else if (action == GLFW_RELEASE && known && in->any_pressed &&
               in->held_count < static_cast<int>(in->held.size())) {
      in->held[static_cast<std::size_t>(in->held_count++)] = {key, scancode, mods};
      return;
    }
    ImGui_ImplGlfw_KeyCallback(w, key, scancode, action, mods);
  });

  int status = 0;
  {
    std::string error;
    std::vector<std::string> warnings;
    if (!renderer_.init(&error, &warnings)) {
      std::fprintf(stderr, "skinview: %s\n", error.c_str());
      status = 1;
    }
    for (const std::string& w : warnings) std::fprintf(stderr, "skinview: %s\n", w.c_str());
    if (status == 0 && !picking_.init(&error)) {
      std::fprintf(stderr, "skinview: %s (picking is off)\n", error.c_str());
      warnings.push_back(error + " (picking is off)");
    }
    status_.shader_warnings = warnings;
    status_.loading_limit = options.time_limit;
    state_.render = start.render;
    state_.render.gpu_skinning = gl::gpu_skinning_for(start.skinning, renderer_.software());
    state_.software_gl = renderer_.software();
    state_.files.extensions = supported_extensions();
    state_.files.recent_file = ui::recent_file_path();
    if (!ui::load_recent(state_.files)) {
      std::fprintf(stderr, "skinview: cannot read %s\n", state_.files.recent_file.c_str());
    }
    state_.files.watch = viewer.watch;
    files_ = std::move(first.files);
    if (status == 0 && first.result.ok() && adopt(std::move(first.result), model)) {
      // What the command line asked for, checked by run_viewer before the window opened.
      Player& p = scene_->play.player;
      p.clip = start.clip;
      if (start.time) {
        p.time = std::min(*start.time, scene_->duration());
        p.playing = false;
      }
      if (start.blend.blends()) set_blend(*scene_, start.blend, start.time.value_or(0.0));
      state_.render.view = start.render.view;
      state_.selection.joint = start.joint;
      if (start.up != "auto") {
        scene_->play.z_up = start.up == "z";
        state_.render.z_up = scene_->play.z_up;
      }
      state_.crowd = start.crowd;
      if (state_.crowd.on) {
        // Laid out before framing, so the opening view holds the whole crowd.
        state_.render.gpu_skinning = true;
        scene_->frame.bounds = scene_->bounds_of(p.clip);
        FrameChoices layout;
        layout.render = &state_.render;
        layout.crowd = &state_.crowd;
        DrawTarget compute_only;
        compute_only.renderer = &renderer_;  // the crowd's buffers; no camera: nothing drawn
        FrameState untimed;
        run_frame(*scene_, layout, FrameClock::fixed(0.0), compute_only, untimed);
      }
      frame_camera(true);
      if (start.axis) {
        camera_.set_view(*start.axis);
        frame_camera(false);
      }
      camera_control_.clear();
      crowd_framed_ = scene_->frame.crowd.instances();  // framed with the crowd already
    }

    auto last = Clock::now();
    while (status == 0 && !glfwWindowShouldClose(window_)) {
      if (probe.stop_before_frame()) break;
      // Releases held back last frame reach ImGui now, after it saw their keys down once.
      for (int i = 0; i < input_.held_count; ++i) {
        const Input::Release& r = input_.held[static_cast<std::size_t>(i)];
        ImGui_ImplGlfw_KeyCallback(window_, r.key, r.scancode, GLFW_RELEASE, r.mods);
      }
      input_.held_count = 0;
      input_.any_pressed = false;
      glfwPollEvents();
      if (glfwGetWindowAttrib(window_, GLFW_ICONIFIED) == GLFW_TRUE) {
        glfwWaitEvents();
        last = Clock::now();
        continue;
      }
      // The true time since the last frame: run_frame steps the clip by at most kMaxFrameStep
      // of it and the frame record says when that is slower than real time.
      const auto now = Clock::now();
      const double wall = std::chrono::duration<double>(now - last).count();
      last = now;
      if (!input_.dropped.empty()) {
        open(input_.dropped);
        input_.dropped.clear();
      }
      watch_files();
      finish_open();
      finish_compare();
      frame(wall);
      if (probe.requested()) write_state_files(probe, false);
      glfwSwapBuffers(window_);
    }
    if (status == 0) write_state_files(probe, true);
  }
  // GL objects die while the context is current.
  recorder_.close();
  scene_.reset();
  renderer_ = gl::Renderer();
  picking_ = ViewportPicking();
  ImGui_ImplOpenGL3_Shutdown();
  ImGui_ImplGlfw_Shutdown();
  ImGui::DestroyContext();
  glfwDestroyWindow(window_);
  glfwTerminate();
  return status;
}

// Reads `path` in the import worker and waits for it (or for --time-limit): the window's first
// model is read before the window opens, so a bad file exits 2 with no window.
ModelLoader::Finished read_first(ModelLoader& loader, const std::string& path) {
  if (std::string e = loader.start(path); !e.empty()) {
    ModelLoader::Finished r;
    r.path = path;
    r.result.error = e;
    return r;
  }
  for (;;) {
    if (std::optional<ModelLoader::Finished> done = loader.poll()) return std::move(*done);
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
}

}  // namespace

// A few frames run so auto-sized widgets settle; only the last is rendered.
void draw_ui_offscreen(GLFWwindow* window, Scene* scene, const RenderOptions& options,
                       int32_t joint, int width, int height, const PixelRect& viewport,
                       const OrbitCamera& camera, const std::vector<std::string>& shader_warnings,
                       bool legend_open, bool software_gl) {
  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGui::GetIO().IniFilename = nullptr;
  ImGui_ImplGlfw_InitForOpenGL(window, false);
  ImGui_ImplOpenGL3_Init("#version 330 core");
  ui::ViewerState state;
  state.new_model(scene->doc.model);
  // The side panels keep the widths `viewport` was laid out with (the 3D view is drawn already):
  // following their content, they would grow over it in a wide picture.
  state.layout_prefs.outliner_fit = state.layout_prefs.inspector_fit = false;
  state.render = options;
  state.selection.joint = joint;
  state.software_gl = software_gl;
  if (legend_open) state.legend.fold = ui::LegendFold::Open;
  // The Crowd section as the window would show the crowd drawn (--crowd).
  state.crowd.on = !scene->frame.crowd.empty();
  if (state.crowd.on) state.crowd.settings = scene->frame.crowd.settings();
  Status status;
  status.shader_warnings = shader_warnings;
  std::snprintf(state.files.open_path, sizeof(state.files.open_path), "%s",
                scene->doc.path.c_str());
  ui::FontGlyphs glyphs(ui::find_cjk_font());
  update_font(glyphs, state, scene);
  for (int frame = 0; frame < 3; ++frame) {
    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplGlfw_NewFrame();
    ImGuiIO& io = ImGui::GetIO();
    io.DisplaySize = ImVec2(static_cast<float>(width), static_cast<float>(height));
    io.DisplayFramebufferScale = ImVec2(1.0f, 1.0f);
    io.MousePos = ImVec2(-FLT_MAX, -FLT_MAX);
    ImGui::NewFrame();
    // A picture shows the volume figures measured, not "measuring": wait for them.
    scene->wait_for_volume(scene->play.player.clip);
    // A picture: no frame of it was timed, so the Performance section says so.
    const FrameState untimed;
    ui::draw_ui(scene_view(scene, untimed, nullptr), status_view(status, untimed), {}, state);
    ViewportFrame in_viewport;
    in_viewport.rect = viewport;
    in_viewport.view = camera.view();
    in_viewport.projection = camera.projection(viewport.aspect());
    draw_viewport_overlay(*scene, state, in_viewport, nullptr);
    ImGui::Render();
  }
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
  ImGui_ImplOpenGL3_Shutdown();
  ImGui_ImplGlfw_Shutdown();
  ImGui::DestroyContext();
}

void add_viewer_options(CLI::App& app, ViewerOptions& o) {
  app.add_option("--screenshot", o.screenshot,
                 "Render one frame (framed as on load) to a PNG, then exit");
  app.add_option("--skinning", o.skinning,
                 "Skinning path: auto (default: gpu, or cpu where the GL driver is a software "
                 "rasteriser such as llvmpipe, which runs the GPU path's shader on the CPU far "
                 "slower than the CPU path), gpu or cpu")
      ->check(CLI::IsMember({"auto", "cpu", "gpu"}));
  app.add_option("--view", o.view,
                 "shaded (default), weights, dominant, influences, weight-sum, cpu-gpu (CPU vs GPU "
                 "skinning, distance per vertex), method-diff (--diff-methods' pair) or "
                 "weight-change (against --compare's B; the default with --compare)")
      ->check(CLI::IsMember({"shaded", "weights", "dominant", "influences", "weight-sum", "cpu-gpu",
                             "method-diff", "weight-change"}));
  app.add_option("--diff-methods", o.diff_methods,
                 "The two skinning methods --view method-diff compares: A,B of lbs, dqs, cor "
                 "(default lbs,dqs)");
  app.add_option("--bone", o.bone,
                 "Joint to select (the weights view shows its heat map), by name");
  app.add_option("--size", o.size, "Screenshot or window size WxH (default 1280x720)");
  app.add_option("--camera-view", o.camera_view,
                 "Look along an axis, orthographic, as the numpad does in the window: front, back, "
                 "right, left, top or bottom (the screenshot, a recording, the window's start)")
      ->check(CLI::IsMember({"front", "back", "right", "left", "top", "bottom"}));
  app.add_flag("--skeleton", o.skeleton,
               "Draw the skeleton over the mesh (always on for files without a mesh)");
  app.add_flag("--flat", o.flat,
               "Debug views in flat colours, unlit (default: lit as the shaded view is)");
  app.add_flag("--back-faces", o.back_faces,
               "Draw every triangle from both sides (the View panel's \"Show back faces\"). "
               "Default: a glTF material that is not doubleSided is drawn from the front only, as "
               "glTF requires, except where a mirroring transform (a mirrored joint) flips it");
  app.add_flag("--ui", o.ui, "Draw the panels into the screenshot too");
  app.add_flag("--watch", o.watch,
               "Reload the model when it, or a file it was read from (buffers, textures, .mtl, "
               "--anim files), changes on disk, keeping the clip, time, selection, layers and "
               "camera (the window's \"Watch files\")");
  app.add_flag("--legend-open", o.legend_open,
               "With --ui: the debug view's legend whole, even where no corner beside the model "
               "holds it (a picture of the legend)");
  app.add_option("--frames", o.frames, "Close the window after N frames (0: when closed)")
      ->check(CLI::NonNegativeNumber);
  app.add_option("--exit-json", o.exit_json,
                 "At exit and on SIGUSR1, write the window's state (selection, clip, time, camera, "
                 "panel and widget rectangles, joints on screen) as JSON, for tests")
      ->group("Testing");
  app.add_option("--exit-png", o.exit_png,
                 "At exit and on SIGUSR1, write the window's frame (panels included) as a PNG, "
                 "for tests")
      ->group("Testing");
  app.add_option("--bench-frames", o.bench_frames,
                 "Play N frames headless as fast as possible; print frames/s and the stage split")
      ->check(CLI::PositiveNumber);
  app.add_option("--soak", o.soak,
                 "Soak run: N frames per model per cycle, switching clips and skinning paths; "
                 "models are MODEL and any further files")
      ->check(CLI::PositiveNumber);
  app.add_option("--soak-cycles", o.soak_cycles, "Cycles of the soak run (default 3)")
      ->check(CLI::PositiveNumber);
  app.add_option("more_models", o.more_models, "Further model files (--soak only)");
  app.add_option("--up", o.up, "Up axis of the file: auto (default: Z for SMD/MD5, else Y), y or z")
      ->check(CLI::IsMember({"auto", "y", "z"}));
  add_crowd_options(app, o.crowd);
}

int run_viewer(const Options& options, const ViewerOptions& viewer) {
  // Before anything else: a test may ask for the state as soon as the window shows, and SIGUSR1's
  // default action would end the process.
  WindowProbe probe(viewer.frames, viewer.exit_json, viewer.exit_png);
  probe.install();
  int width = 0, height = 0;
  if (!parse_size(viewer.size, &width, &height)) {
    return bad_input("bad --size '" + viewer.size + "' (want WxH)");
  }
  Start start;
  if (!parse_view(viewer.view, &start.render.view)) {
    return bad_input("bad --view '" + viewer.view + "'");
  }
  if (std::string e = parse_method_pair(viewer.diff_methods, &start.render); !e.empty())
    return bad_input(e);
  start.skinning = viewer.skinning;
  start.render.method = skin_method_of(options);
  start.render.influences = options.influences;
  start.render.skeleton = viewer.skeleton;
  start.render.flat_colors = viewer.flat;
  start.render.show_back_faces = viewer.back_faces;
  start.up = viewer.up;
  if (!viewer.camera_view.empty()) {
    ViewAxis a{};
    if (!parse_view_axis(viewer.camera_view, &a))
      return bad_input("bad --camera-view '" + viewer.camera_view + "'");
    start.axis = a;
  }
  if (!options.time.empty()) {
    double t = 0.0;
    if (!parse_seconds(options.time, &t)) {
      return bad_input("bad --time '" + options.time + "' (want seconds >= 0)");
    }
    start.time = t;
  }
  if (!options.times.empty()) return bad_input("--times is for --dump; the window takes --time");
  if (std::string e = parse_crowd_options(viewer.crowd, viewer.skinning, &start.crowd); !e.empty())
    return bad_input(e);
  BlendSpecs blend;
  if (std::string e = parse_blend_specs(options.layers, options.crossfade, &blend); !e.empty())
    return bad_input(e);
  // With no argument, the default character (installed, or the source tree's).
  const std::string model = options.model.empty() ? default_model() : options.model;
  auto loader = std::make_unique<ModelLoader>(import_options(options));
  AnimationSources sources;
  if (std::string e = animation_sources(options, &sources); !e.empty()) return bad_input(e);
  loader->set_animations(std::move(sources));
  ModelLoader::Finished first;
  if (!model.empty()) {
    first = read_first(*loader, model);
    if (!first.result.ok()) return bad_input(first.result.error);
    const Model& m = *first.result.model;
    const std::optional<int32_t> clip = requested_clip(m, options);
    if (!clip) return bad_input(no_clip_message(m, model, options.clip));
    start.clip = *clip;
    if (blend.any()) {
      if (std::string e =
              make_layer_stack(m, model, start.clip, start.time.value_or(0.0), blend, &start.blend);
          !e.empty())
        return bad_input(e);
    }
    if (!viewer.bone.empty()) {
      start.joint = m.skeleton.find(viewer.bone);
      if (start.joint < 0) return bad_input(no_joint_message(m, model, viewer.bone));
    }
  } else if (!viewer.bone.empty() || !options.clip.empty() || blend.any()) {
    return bad_input("--clip, --bone, --layer and --crossfade need a model file");
  }
  Viewer v;
  return v.run(options, viewer, model, std::move(first), start, std::move(loader), probe);
}

int run_screenshot(const Options& options, const ViewerOptions& viewer) {
  double time = 0.0;
  if (!options.time.empty() && !parse_seconds(options.time, &time)) {
    return bad_input("bad --time '" + options.time + "' (want seconds >= 0)");
  }
  HeadlessView view;
  if (int status = view.open(options, viewer, "screenshot", time); status >= 0) return status;
  const std::vector<uint8_t>& rgba = view.draw(time);
  std::string error;
  if (!gl::write_png(viewer.screenshot, view.width(), view.height(), rgba, &error))
    return bad_input(error);
  return kExitOk;
}

}  // namespace sv
