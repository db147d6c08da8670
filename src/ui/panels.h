// The viewer's ImGui panels. Each panel reads state passed in and returns what the user changed;
// none owns model data, none issues GL calls (the app applies the edits). Call them between
// ImGui::NewFrame() and ImGui::Render().
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <glm/mat4x4.hpp>

#include "anim/animator.h"
#include "anim/player.h"
#include "anim/transform.h"
#include "gfx/render_options.h"

namespace sv {

struct Model;
struct Skeleton;

namespace ui {

// State that belongs to the panels themselves (text fields, toggles), kept by the app.
struct PanelState {
  char open_path[1024] = {};
  int frames_per_second = 30;         // the step of the one-frame buttons and arrow keys
  std::array<std::string, 8> recent;  // most recent first; "" = unused

  // File browser: the folder shown and its listing, re-read only when the folder changes.
  std::string browse_dir;
  std::vector<std::string> browse_dirs;   // sub-folder names
  std::vector<std::string> browse_files;  // model files (by extension), names only
  std::string browse_listed;              // the folder the listing belongs to
};

// Puts `path` first in state.recent (after a successful open).
void remember_recent(PanelState& state, const std::string& path);

// Whether a file name has an extension of a format assimp reads (lower- or upper-case).
bool is_model_file(std::string_view name) noexcept;

struct ModelPanelInput {
  std::string_view path;
  const Model* model = nullptr;  // may be null: nothing loaded
  std::span<const std::string> report;
  std::string_view load_error;   // the last failed load, shown in red
  std::string_view loading;      // a file being read ("" when none), shown with its time
  double loading_seconds = 0.0;  // how long it has been read
  double loading_limit = 0.0;    // when the read is given up on (0: never)
  std::span<const std::string>
      shader_warnings;  // GLSL logs of shaders replaced by the embedded copy
};

// Returns true when the user asked to open state.open_path.
bool model_panel(const ModelPanelInput& in, PanelState& state);

// Clip list, transport, speed, loop, scrubbing. Returns true when `player` was edited.
bool clips_panel(const Model& model, Player& player, const PanelState& state);

// One-frame step of the clip for the arrow keys and the step buttons, within [0, duration].
double step_time(double time, double duration, int frames, int frames_per_second) noexcept;

// Joint tree; returns the (possibly new) selected joint. Shows the selection's local (sampled
// for it alone: Animator::local) and model transforms and its influenced-vertex count.
int32_t skeleton_panel(const Model& m, const Animator& pose, std::span<const glm::mat4> model,
                       std::span<const uint32_t> influenced, int32_t selected);

struct SkinningPanelInput {
  const StageTimes* times = nullptr;
  double upload_seconds = 0.0;
  double gpu_seconds = -1.0;  // GPU time of the mesh draws; negative when not measured
  std::size_t bones = 0;
  std::size_t vertices = 0;
};

// CPU/GPU toggle, view mode, overlays, up axis. Returns true when `options` was edited.
bool skinning_panel(const SkinningPanelInput& in, RenderOptions& options);

// FPS and a frame-time graph from a ring of the last frame times (seconds).
void stats_panel(std::span<const float> frame_times, std::size_t newest);

}  // namespace ui
}  // namespace sv
