// The inspector's Crowd section: N instances of the model drawn around it (skin/crowd.h), their
// count, spacing, palette sharing, clips and phases. The section edits state.crowd only; the app
// lays the crowd out again when it changes (app/crowd_frame.h). Stats are in Performance.
#include <algorithm>
#include <cstdio>

#include <imgui.h>

#include "ui/ui.h"
#include "ui/widgets.h"

namespace sv::ui {

void crowd_section(const SceneView& scene, ViewerState& state) {
  // Open from the start when the command line asked for a crowd.
  Section section("Crowd###crowd", "crowd", "header:Crowd", state.landmarks, state.crowd.on);
  if (!section) return;
  CrowdRequest& c = state.crowd;
  CrowdSettings& s = c.settings;
  ImGui::Checkbox("Crowd", &c.on);
  state.landmarks.add_last_item("check:Crowd");
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip(
        "Draw the model many times, each instance with its own time and place:\n"
        "one instanced draw per mesh, GPU skinning. Instance 0 is the model at the origin\n"
        "(skeleton, picking and layers apply to it only).");
  if (!scene.crowd_error.empty())
    error_text("%.*s", static_cast<int>(scene.crowd_error.size()), scene.crowd_error.data());
  if (!c.on) return;
  ImGui::SetNextItemWidth(120.0f);
  if (ImGui::InputInt("Instances", &s.count, 1, 100)) s.count = std::clamp(s.count, 1, kMaxCrowd);
  state.landmarks.add_last_item("input:Instances");
  for (int n : {1, 10, 100, 1000}) {
    char label[24];
    std::snprintf(label, sizeof label, "%d##crowd", n);
    if (n != 1) ImGui::SameLine();
    if (ImGui::SmallButton(label)) s.count = n;
    if (n == 100) state.landmarks.add_last_item("button:Crowd 100");
    if (n == 1000) state.landmarks.add_last_item("button:Crowd 1000");
  }
  ImGui::SetNextItemWidth(120.0f);
  if (ImGui::DragFloat("Spacing", &s.spacing, 0.01f * std::max(s.spacing, 0.01f), 0.0f, 1e6f,
                       "%.3g", ImGuiSliderFlags_AlwaysClamp) &&
      s.spacing <= 0.0f)
    s.spacing = 1e-3f;
  ImGui::Checkbox("Shared palettes", &s.shared);
  state.landmarks.add_last_item("check:Shared palettes");
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip(
        "Instances in step (same clip, same time) share one palette: the CPU poses one\n"
        "instance per group. Random phases are then drawn from the phase groups below.");
  ImGui::SameLine();
  ImGui::Checkbox("Cycle clips", &s.cycle_clips);
  state.landmarks.add_last_item("check:Cycle clips");
  ImGui::Checkbox("Random phases", &s.random_phases);
  ImGui::SameLine();
  if (ImGui::Button("Randomise phases")) {
    s.random_phases = true;
    ++s.seed;
  }
  state.landmarks.add_last_item("button:Randomise phases");
  if (s.shared && s.random_phases) {
    ImGui::SetNextItemWidth(120.0f);
    ImGui::SliderInt("Phase groups", &s.phase_groups, 1, 64, "%d", ImGuiSliderFlags_AlwaysClamp);
  }
  if (scene.crowd != nullptr) {
    ImGui::Text("%zu instances, %zu palettes a frame", scene.crowd->instances(),
                scene.crowd->palettes_computed());
    state.landmarks.add_last_item("text:Crowd count");
  }
  ImGui::PushTextWrapPos(0.0f);
  ImGui::TextDisabled("Skinned on the GPU: a crowd's CPU cost is pose + palette per palette.");
  ImGui::PopTextWrapPos();
}

}  // namespace sv::ui
