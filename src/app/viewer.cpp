#include "app/viewer.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "gfx/gl.h"  // before GLFW

#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>
#include <CLI/CLI.hpp>

#include "anim/worker_pool.h"
#include "app/app_common.h"
#include "app/blend_options.h"
#include "app/cli.h"
#include "app/model_loader.h"
#include "app/viewer_scene.h"
#include "gfx/capture.h"
#include "gfx/renderer.h"
#include "io/import.h"
#include "ui/panels.h"

namespace sv {
namespace {

using Clock = std::chrono::steady_clock;

// What the panels keep between frames, and what they asked for this frame.
struct UiFrame {
  ui::PanelState panels;
  std::string load_error;
  std::string loading;           // the file being read, "" when none
  double loading_seconds = 0.0;  // how long it has been read
  double loading_limit = 0.0;    // when it is given up on (0: never)
  std::array<float, 240> frame_times{};
  std::size_t frame_index = 0;
  double upload_seconds = 0.0;
  double gpu_seconds = -1.0;
  std::vector<std::string> shader_warnings;  // from Renderer::init
};
struct PanelEdits {
  bool open = false;     // open ui.panels.open_path
  bool reframe = false;  // the up axis changed
};

// All panels in one window; shared by the viewer and `--screenshot --ui`.
PanelEdits draw_panels(Scene* scene, RenderOptions& options, UiFrame& ui) {
  PanelEdits edits;
  ui::ModelPanelInput in;
  if (scene != nullptr) {
    in.path = scene->path;
    in.model = &scene->model;
    in.report = scene->report;
  }
  in.load_error = ui.load_error;
  in.loading = ui.loading;
  in.loading_seconds = ui.loading_seconds;
  in.loading_limit = ui.loading_limit;
  in.shader_warnings = ui.shader_warnings;
  ImGui::SetNextWindowPos(ImVec2(10, 10), ImGuiCond_FirstUseEver);
  // The left column, full height: sized to its content on the first frame, the panel would
  // stay as small as the "Loading ..." line shown while the first file is read.
  ImGui::SetNextWindowSize(ImVec2(360, std::max(200.0f, ImGui::GetIO().DisplaySize.y - 20.0f)),
                           ImGuiCond_FirstUseEver);
  ImGui::Begin("skinview");
  edits.open = ui::model_panel(in, ui.panels);
  if (scene != nullptr) {
    ui::clips_panel(scene->model, scene->player, ui.panels);
    ui::SkinningPanelInput sk;
    sk.times = &scene->animator.times();
    sk.upload_seconds = ui.upload_seconds;
    sk.gpu_seconds = ui.gpu_seconds;
    sk.bones = scene->gpu.bone_count();
    for (const Mesh& m : scene->model.meshes) sk.vertices += m.vertex_count();
    const bool z_up = options.z_up;
    ui::skinning_panel(sk, options);
    if (z_up != options.z_up) {
      scene->z_up = options.z_up;
      edits.reframe = true;
    }
    options.selected_joint =
        ui::skeleton_panel(scene->model, scene->animator, scene->animator.model_matrices(),
                           scene->influenced, options.selected_joint);
  }
  ui::stats_panel(ui.frame_times, ui.frame_index);
  ImGui::End();
  return edits;
}

// ---------------------------------------------------------------------------------------------
// The interactive viewer.

struct Input {
  double scroll = 0.0;
  std::array<int, 16> keys{};  // presses since the last frame (no allocation per frame)
  int key_count = 0;
  std::string dropped;  // a file dropped onto the window
};

Input* input_of(GLFWwindow* w) { return static_cast<Input*>(glfwGetWindowUserPointer(w)); }

class Viewer {
 public:
  int run(const Options& options, const ViewerOptions& viewer);

 private:
  void open(const std::string& path);
  bool finish_open();  // true when a read ended this frame
  void handle_input(float dt);
  void draw_ui();

  GLFWwindow* window_ = nullptr;
  Input input_;
  gl::Renderer renderer_;
  // Files are read on a worker thread (the window keeps drawing) and given up on after
  // --time-limit seconds; the scene is built here, on the thread that owns the context.
  std::unique_ptr<ModelLoader> loader_;
  std::unique_ptr<Scene> scene_;
  OrbitCamera camera_;
  RenderOptions options_;
  UiFrame ui_;
  double last_x_ = 0.0, last_y_ = 0.0;
};

void Viewer::open(const std::string& path) {
  ui_.load_error = loader_->start(path);
  if (!ui_.load_error.empty()) std::fprintf(stderr, "skinview: %s\n", ui_.load_error.c_str());
}

bool Viewer::finish_open() {
  ui_.loading = loader_->busy() ? loader_->path() : std::string();
  ui_.loading_seconds = loader_->elapsed_seconds();
  std::optional<ModelLoader::Finished> done = loader_->poll();
  if (!done) return false;
  ui_.loading.clear();
  const std::string path = done->path;
  ui_.load_error = adopt_scene(std::move(done->result), path, &scene_);
  if (!ui_.load_error.empty()) {
    std::fprintf(stderr, "skinview: %s\n", ui_.load_error.c_str());
    return true;
  }
  int w = 0, h = 0;
  glfwGetFramebufferSize(window_, &w, &h);
  renderer_.prepare(scene_->model);
  options_.selected_joint = -1;
  frame_scene(*scene_, camera_, options_, h > 0 ? static_cast<float>(w) / h : 1.0f);
  std::snprintf(ui_.panels.open_path, sizeof(ui_.panels.open_path), "%s", path.c_str());
  ui::remember_recent(ui_.panels, path);
  glfwSetWindowTitle(window_, ("skinview - " + path).c_str());
  return true;
}

void Viewer::handle_input(float /*dt*/) {
  const ImGuiIO& io = ImGui::GetIO();
  double x = 0.0, y = 0.0;
  glfwGetCursorPos(window_, &x, &y);
  int wh = 1;
  glfwGetWindowSize(window_, nullptr, &wh);
  const float dx = static_cast<float>(x - last_x_), dy = static_cast<float>(y - last_y_);
  last_x_ = x;
  last_y_ = y;
  if (!io.WantCaptureMouse) {
    if (glfwGetMouseButton(window_, GLFW_MOUSE_BUTTON_LEFT) == GLFW_PRESS) {
      camera_.orbit(-dx * 0.008f, dy * 0.008f);
    } else if (glfwGetMouseButton(window_, GLFW_MOUSE_BUTTON_RIGHT) == GLFW_PRESS ||
               glfwGetMouseButton(window_, GLFW_MOUSE_BUTTON_MIDDLE) == GLFW_PRESS) {
      camera_.pan(dx / static_cast<float>(std::max(wh, 1)),
                  dy / static_cast<float>(std::max(wh, 1)));
    }
    if (input_.scroll != 0.0) camera_.zoom(std::pow(0.88f, static_cast<float>(input_.scroll)));
  }
  input_.scroll = 0.0;
  const int keys = input_.key_count;
  input_.key_count = 0;
  if (io.WantCaptureKeyboard || !scene_) return;
  Player& p = scene_->player;
  const double duration = scene_->duration();
  for (int i = 0; i < keys; ++i) {
    switch (input_.keys[static_cast<std::size_t>(i)]) {
      case GLFW_KEY_SPACE:
        p.playing = !p.playing;
        break;
      case GLFW_KEY_RIGHT:
        p.playing = false;
        p.time = ui::step_time(p.time, duration, 1, ui_.panels.frames_per_second);
        break;
      case GLFW_KEY_LEFT:
        p.playing = false;
        p.time = ui::step_time(p.time, duration, -1, ui_.panels.frames_per_second);
        break;
      case GLFW_KEY_F: {
        int w = 0, h = 0;
        glfwGetFramebufferSize(window_, &w, &h);
        frame_scene(*scene_, camera_, options_, h > 0 ? static_cast<float>(w) / h : 1.0f);
        break;
      }
      case GLFW_KEY_W:
        options_.wireframe = !options_.wireframe;
        break;
      case GLFW_KEY_S:
        options_.skeleton = !options_.skeleton;
        break;
      case GLFW_KEY_G:
        options_.gpu_skinning = !options_.gpu_skinning;
        break;
      default:
        break;
    }
  }
}

void Viewer::draw_ui() {
  const PanelEdits edits = draw_panels(scene_.get(), options_, ui_);
  if (edits.open) open(ui_.panels.open_path);
  if (edits.reframe && scene_) {
    int w = 0, h = 0;
    glfwGetFramebufferSize(window_, &w, &h);
    frame_scene(*scene_, camera_, options_, h > 0 ? static_cast<float>(w) / h : 1.0f);
  }
}

int Viewer::run(const Options& options, const ViewerOptions& viewer) {
  // --layer / --crossfade: their syntax is checked before any window opens, the names once the
  // model is read. The blend's clock starts at --time (0 without).
  BlendSpecs blend;
  if (std::string e = parse_blend_specs(options.layers, options.crossfade, &blend); !e.empty())
    return bad_input(e);
  double blend_time = 0.0;
  if (blend.any() && !options.time.empty() && !parse_seconds(options.time, &blend_time))
    return bad_input("bad --time '" + options.time + "' (want seconds >= 0)");
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
  // Installed before ImGui, which chains to them.
  glfwSetScrollCallback(window_,
                        [](GLFWwindow* w, double, double dy) { input_of(w)->scroll += dy; });
  glfwSetKeyCallback(window_, [](GLFWwindow* w, int key, int, int action, int) {
    Input* in = input_of(w);
    if ((action == GLFW_PRESS || action == GLFW_REPEAT) && in->key_count < 16) {
      in->keys[static_cast<std::size_t>(in->key_count++)] = key;
    }
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
  ImGui_ImplGlfw_InitForOpenGL(window_, true);
  ImGui_ImplOpenGL3_Init("#version 330 core");

  int status = 0;
  {
    std::string error;
    std::vector<std::string> warnings;
    if (!renderer_.init(&error, &warnings)) {
      std::fprintf(stderr, "skinview: %s\n", error.c_str());
      status = 1;
    }
    for (const std::string& w : warnings) std::fprintf(stderr, "skinview: %s\n", w.c_str());
    ui_.shader_warnings = warnings;
    options_.gpu_skinning = viewer.skinning != "cpu";
    options_.skeleton = viewer.skeleton;
    parse_view(viewer.view, &options_.view);
    std::string model = options.model;
#ifdef SKINVIEW_DEFAULT_MODEL
    // With no argument, the project's default character (when assets/ has it).
    if (std::FILE* f = model.empty() ? std::fopen(SKINVIEW_DEFAULT_MODEL, "rb") : nullptr) {
      std::fclose(f);
      model = SKINVIEW_DEFAULT_MODEL;
    }
#endif
    // Files are read on a worker thread. The first read (MODEL) also takes --clip and --up when
    // it ends, and --frames counts the frames drawn after it ended (or failed).
    set_import_silences_stdio(false);  // see model_loader.h: a read given up on keeps running
    loader_ = std::make_unique<ModelLoader>(options.time_limit);
    ui_.loading_limit = options.time_limit;
    if (status == 0 && !model.empty()) open(model);
    bool first_read = loader_->busy();
    auto apply_command_line = [&] {
      if (!scene_ || scene_->path != model) return;
      const int32_t clip = options.bind ? -1 : resolve_clip(scene_->model, options.clip);
      if (clip != -2) scene_->player.clip = clip;
      if (blend.any()) {
        LayerStack stack;
        if (std::string e = make_layer_stack(scene_->model, clip, blend_time, blend, &stack);
            !e.empty()) {
          status = bad_input(model + ": " + e);
          return;
        }
        set_blend(*scene_, std::move(stack), blend_time);
      }
      if (viewer.up != "auto") {
        scene_->z_up = viewer.up == "z";
        int w = 0, h = 0;
        glfwGetFramebufferSize(window_, &w, &h);
        frame_scene(*scene_, camera_, options_, h > 0 ? static_cast<float>(w) / h : 1.0f);
      }
    };

    auto last = Clock::now();
    int frames_after_first_read = 0;
    while (status == 0 && !glfwWindowShouldClose(window_)) {
      if (viewer.frames > 0 && !first_read && ++frames_after_first_read > viewer.frames) break;
      glfwPollEvents();
      if (glfwGetWindowAttrib(window_, GLFW_ICONIFIED) == GLFW_TRUE) {
        glfwWaitEvents();
        last = Clock::now();
        continue;
      }
      const auto now = Clock::now();
      const float dt = std::min(std::chrono::duration<float>(now - last).count(), 0.25f);
      last = now;
      ui_.frame_times[ui_.frame_index] = dt;
      ui_.frame_index = (ui_.frame_index + 1) % ui_.frame_times.size();
      if (!input_.dropped.empty()) {
        open(input_.dropped);
        input_.dropped.clear();
      }
      if (finish_open() && first_read) {
        first_read = false;
        apply_command_line();
      }

      ImGui_ImplOpenGL3_NewFrame();
      ImGui_ImplGlfw_NewFrame();
      ImGui::NewFrame();
      handle_input(dt);

      int w = 0, h = 0;
      glfwGetFramebufferSize(window_, &w, &h);
      if (scene_) {
        advance(*scene_, dt);
        evaluate(*scene_, options_, false);
        const auto t0 = Clock::now();
        renderer_.draw(scene_->model, scene_->gpu, scene_->animator, camera_, options_, w, h);
        ui_.upload_seconds = std::chrono::duration<double>(Clock::now() - t0).count();
        ui_.gpu_seconds = renderer_.gpu_seconds();
      } else {
        glViewport(0, 0, w, h);
        glClearColor(options_.background.r, options_.background.g, options_.background.b, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
      }
      draw_ui();
      ImGui::Render();
      ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
      glfwSwapBuffers(window_);
    }
  }
  // GL objects die while the context is current.
  scene_.reset();
  renderer_ = gl::Renderer();
  ImGui_ImplOpenGL3_Shutdown();
  ImGui_ImplGlfw_Shutdown();
  ImGui::DestroyContext();
  glfwDestroyWindow(window_);
  glfwTerminate();
  return status;
}

// Draws the panels over the bound framebuffer (for `--screenshot --ui`). A few frames run so
// auto-sized windows settle; only the last is rendered.
void draw_ui_offscreen(GLFWwindow* window, Scene* scene, RenderOptions& options, int width,
                       int height, const std::vector<std::string>& shader_warnings) {
  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGui::GetIO().IniFilename = nullptr;
  ImGui_ImplGlfw_InitForOpenGL(window, false);
  ImGui_ImplOpenGL3_Init("#version 330 core");
  UiFrame ui;
  ui.shader_warnings = shader_warnings;
  std::snprintf(ui.panels.open_path, sizeof(ui.panels.open_path), "%s", scene->path.c_str());
  for (int frame = 0; frame < 3; ++frame) {
    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplGlfw_NewFrame();
    ImGuiIO& io = ImGui::GetIO();
    io.DisplaySize = ImVec2(static_cast<float>(width), static_cast<float>(height));
    io.DisplayFramebufferScale = ImVec2(1.0f, 1.0f);
    ImGui::NewFrame();
    draw_panels(scene, options, ui);
    ImGui::Render();
  }
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
  ImGui_ImplOpenGL3_Shutdown();
  ImGui_ImplGlfw_Shutdown();
  ImGui::DestroyContext();
}

}  // namespace

void add_viewer_options(CLI::App& app, ViewerOptions& o) {
  app.add_option("--screenshot", o.screenshot,
                 "Render one frame (framed as on load) to a PNG, then exit");
  app.add_option("--skinning", o.skinning, "Skinning path: gpu (default) or cpu")
      ->check(CLI::IsMember({"cpu", "gpu"}));
  app.add_option("--view", o.view, "shaded (default), weights, dominant, influences or weight-sum")
      ->check(CLI::IsMember({"shaded", "weights", "dominant", "influences", "weight-sum"}));
  app.add_option("--bone", o.bone, "Joint whose weights the weights view shows");
  app.add_option("--size", o.size, "Screenshot or window size WxH (default 1280x720)");
  app.add_flag("--skeleton", o.skeleton, "Draw the skeleton over the mesh");
  app.add_flag("--ui", o.ui, "Draw the panels into the screenshot too");
  app.add_option("--frames", o.frames,
                 "Close the window N frames after MODEL was read or failed (0: when closed)")
      ->check(CLI::NonNegativeNumber);
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
}

int run_viewer(const Options& options, const ViewerOptions& viewer) {
  int status = 0;
  {
    Viewer v;
    status = v.run(options, viewer);
  }
  if (ModelLoader::running() > 0) {
    // A read given up on is still inside assimp: static destructors must not run under it.
    std::fflush(nullptr);
    std::_Exit(status);
  }
  return status;
}

int run_screenshot(const Options& options, const ViewerOptions& viewer) {
  int width = 0, height = 0;
  if (!parse_size(viewer.size, &width, &height))
    return bad_input("bad --size '" + viewer.size + "' (want WxH)");
  RenderOptions ro;
  if (!parse_view(viewer.view, &ro.view)) return bad_input("bad --view '" + viewer.view + "'");
  if (viewer.skinning != "cpu" && viewer.skinning != "gpu") {
    return bad_input("bad --skinning '" + viewer.skinning + "' (want cpu or gpu)");
  }
  ro.gpu_skinning = viewer.skinning == "gpu";
  ro.skeleton = viewer.skeleton;
  double time = 0.0;
  if (!options.time.empty()) {
    char* end = nullptr;
    time = std::strtod(options.time.c_str(), &end);
    if (end == options.time.c_str() || *end != '\0' || !std::isfinite(time) || time < 0.0) {
      return bad_input("bad --time '" + options.time + "' (want seconds >= 0)");
    }
  }
  BlendSpecs blend;
  if (std::string e = parse_blend_specs(options.layers, options.crossfade, &blend); !e.empty())
    return bad_input(e);
  HeadlessScene h;
  if (int status = open_headless_scene(options, "screenshot", width, height, &h); status >= 0) {
    return status;
  }
  HeadlessGl& gl = *h.gl;
  Scene& s = *h.scene;
  const int32_t clip = h.clip;
  if (!viewer.bone.empty() && s.model.skeleton.find(viewer.bone) < 0) {
    return bad_input(options.model + ": no joint '" + viewer.bone + "'");
  }
  ro.selected_joint = viewer.bone.empty() ? -1 : s.model.skeleton.find(viewer.bone);
  s.player.clip = clip;
  s.player.playing = false;
  s.player.time = clip >= 0 ? std::min(time, s.duration()) : 0.0;
  if (blend.any()) {
    LayerStack stack;
    if (std::string e = make_layer_stack(s.model, clip, time, blend, &stack); !e.empty())
      return bad_input(options.model + ": " + e);
    set_blend(s, std::move(stack), time);
  }
  s.bounds = animated_bounds(s.model, s.player.clip, false);
  if (viewer.up != "auto") s.z_up = viewer.up == "z";
  gl.renderer().prepare(s.model);
  OrbitCamera camera;
  frame_scene(s, camera, ro, static_cast<float>(width) / static_cast<float>(height));
  evaluate(s, ro, false);
  gl.renderer().draw(s.model, s.gpu, s.animator, camera, ro, width, height);
  if (viewer.ui) draw_ui_offscreen(gl.window(), &s, ro, width, height, gl.warnings());
  std::vector<uint8_t> rgba;
  gl.target().read_rgba(&rgba);
  std::string error;
  if (!gl::write_png(viewer.screenshot, width, height, rgba, &error)) return bad_input(error);
  return kExitOk;
}

}  // namespace sv
