// The interactive viewer (a GLFW window with ImGui panels) and the headless screenshot mode.
//
// Both share the scene loading (viewer_scene.h), the framing on load and the renderer; the
// screenshot renders one frame into an offscreen framebuffer of a hidden window's context, so
// it needs a display (or Xvfb) but shows nothing.
//
// The window reads its first model (MODEL, or the default character) before it opens, so a
// missing file or a bad --clip, --bone or --time exits 2 with one line and no window; files
// opened later are read in the background, by the import worker in a child process
// (model_loader.h), while the window keeps drawing.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "app/crowd_frame.h"

struct GLFWwindow;

namespace CLI {
class App;
}

namespace sv {

struct Options;
struct Scene;
struct RenderOptions;
struct PixelRect;
struct OrbitCamera;

struct ViewerOptions {
  std::string screenshot;                // --screenshot OUT.png
  std::string skinning = "auto";         // --skinning auto|cpu|gpu (gl::gpu_skinning_for)
  std::string view = "shaded";           // --view shaded|weights|dominant|influences|weight-sum|
                                         //   cpu-gpu|method-diff
  std::string diff_methods = "lbs,dqs";  // --diff-methods A,B: the method-diff view's pair
  std::string bone;                      // --bone NAME: the joint the weights view shows
  std::string size = "1280x720";         // --size WxH
  std::string camera_view;   // --camera-view front|back|right|left|top|bottom (orthographic)
  bool skeleton = false;     // --skeleton: draw the skeleton overlay
  bool flat = false;         // --flat: debug views unlit (RenderOptions::flat_colors)
  bool back_faces = false;   // --back-faces: both sides everywhere (RenderOptions::show_back_faces)
  bool ui = false;           // --ui: draw the panels into the screenshot too
  bool watch = false;        // --watch: live reload (app/file_watch.h)
  bool legend_open = false;  // --legend-open: with --ui, the legend whole
  int frames = 0;            // --frames N: close after N frames (tests)
  std::string exit_json;     // --exit-json FILE: the state at exit and on SIGUSR1 (exit_state.h)
  std::string exit_png;      // --exit-png FILE: the frame (panels included), when as above
  std::string up = "auto";   // --up auto|y|z: the file's up axis
  int bench_frames = 0;      // --bench-frames N: play N frames headless, print timings
  int soak = 0;              // --soak N: frames per model per cycle of the soak run
  int soak_cycles = 3;       // --soak-cycles C
  std::vector<std::string> more_models;  // further model files (positional; --soak only)
  CrowdOptions crowd;                    // --crowd N and its options (app/crowd_frame.h)
};

// Registers the viewer's options next to the core ones (see cli.h).
void add_viewer_options(CLI::App& app, ViewerOptions& options);

// Opens the window on options.model (the default character when none is given); returns the
// exit status: 2 (one line on stderr, no window) for a file that cannot be read or a bad option.
int run_viewer(const Options& options, const ViewerOptions& viewer);

// Renders one frame of options.model to viewer.screenshot; 0 on success, 2 on bad input
// (with a one-line message on stderr), 1 when no GL context can be made.
int run_screenshot(const Options& options, const ViewerOptions& viewer);

// Draws the window's panels over the bound width x height framebuffer, around `viewport`, where
// the 3D view was drawn (`--screenshot --ui`, `--record --ui`); `window` is the hidden window
// whose context is current, with `camera` (the legend keeps clear of the model it projects).
// `legend_open`: the legend whole even where it covers the model (--legend open: a picture of
// the legend itself). `software_gl`: the driver is a software rasteriser (the View section says
// so, as in the window). Makes and destroys its own ImGui context.
void draw_ui_offscreen(GLFWwindow* window, Scene* scene, const RenderOptions& options,
                       int32_t joint, int width, int height, const PixelRect& viewport,
                       const OrbitCamera& camera, const std::vector<std::string>& shader_warnings,
                       bool legend_open = false, bool software_gl = false);

// Plays viewer.bench_frames frames of options.model's clip (--clip, default the first) at fixed
// 60 Hz steps into an offscreen target as fast as it can (no vsync, glFinish per frame), then
// prints frames/s and the mean time per stage. Exit status as run_screenshot.
int run_bench_frames(const Options& options, const ViewerOptions& viewer);

// Loads options.model and viewer.more_models in turn, viewer.soak_cycles times, playing
// viewer.soak frames of each while switching clips (the rest pose included) and the skinning
// path; prints resident memory and GL errors per cycle. 0 when no GL error was raised and
// resident memory did not grow after the first cycle (beyond max(4 MiB, 2%)), 1 otherwise, 2 on
// bad input.
int run_soak(const Options& options, const ViewerOptions& viewer);

}  // namespace sv
