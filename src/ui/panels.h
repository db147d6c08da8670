// The viewer's ImGui panels. Each panel reads state passed in and returns what the user changed;
// none owns model data, none issues GL calls (the app applies the edits). Call them between
// ImGui::NewFrame() and ImGui::Render().
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include <glm/mat4x4.hpp>

#include "anim/player.h"
#include "anim/transform.h"
#include "gfx/animator.h"
#include "gfx/renderer.h"

namespace sv {

struct Model;
struct Skeleton;

namespace ui {

// State that belongs to the panels themselves (text fields, toggles), kept by the app.
struct PanelState {
  char open_path[1024] = {};
  int frames_per_second = 30;  // the step of the one-frame buttons and arrow keys
};

struct ModelPanelInput {
  std::string_view path;
  const Model* model = nullptr;  // may be null: nothing loaded
  std::span<const std::string> report;
  std::string_view load_error;  // the last failed load, shown in red
};

// Returns true when the user asked to open state.open_path.
bool model_panel(const ModelPanelInput& in, PanelState& state);

// Clip list, transport, speed, loop, scrubbing. Returns true when `player` was edited.
bool clips_panel(const Model& model, Player& player, const PanelState& state);

// One-frame step of the clip for the arrow keys and the step buttons, within [0, duration].
float step_time(float time, float duration, int frames, int frames_per_second) noexcept;

// Joint tree; returns the (possibly new) selected joint. Shows the selection's local and model
// transforms and its influenced-vertex count.
int32_t skeleton_panel(const Skeleton& skeleton, std::span<const Transform> local,
                       std::span<const glm::mat4> model, std::span<const uint32_t> influenced,
                       int32_t selected);

struct SkinningPanelInput {
  const StageTimes* times = nullptr;
  double upload_seconds = 0.0;
  std::size_t bones = 0;
  std::size_t vertices = 0;
};

// CPU/GPU toggle, view mode, overlays, up axis. Returns true when `options` was edited.
bool skinning_panel(const SkinningPanelInput& in, RenderOptions& options);

// FPS and a frame-time graph from a ring of the last frame times (seconds).
void stats_panel(std::span<const float> frame_times, std::size_t newest);

}  // namespace ui
}  // namespace sv
