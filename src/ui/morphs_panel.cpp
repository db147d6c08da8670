// The inspector's Morph targets section: per mesh with targets, one row per target with the
// weight the clips give it this frame and a slider that overrides it. The check box beside a
// target pins it (at the weight it had, then wherever the slider puts it); unticked, the slider
// follows the animation and cannot be dragged. Overrides live in ViewerState::morph_overrides
// (NaN: not overridden); the app hands them to the Animator before it poses the frame
// (Animator::set_morph_overrides), so both skinning paths, picking and --exit-json see them.
// Nothing allocates per frame: labels are the targets' own names, ids are indices.
#include <cmath>
#include <cstdio>

#include <imgui.h>

#include "anim/animator.h"
#include "anim/model.h"
#include "ui/ui.h"
#include "ui/widgets.h"

namespace sv::ui {

void morphs_section(const SceneView& scene, ViewerState& state) {
  const Model& model = *scene.model;
  if (state.morph_overrides.empty()) return;  // no mesh has targets
  Section section("Morph targets###morphs", "morphs", "header:Morph targets", state.landmarks);
  if (!section) return;
  if (ImGui::SmallButton("Clear overrides")) {
    for (float& w : state.morph_overrides) w = std::nanf("");
  }
  state.landmarks.add_last_item("button:Clear overrides");
  std::size_t at = 0;  // the first target of mesh m in morph_overrides
  int32_t row = 0;     // the landmark index of each target row, over every mesh
  for (std::size_t m = 0; m < model.meshes.size(); ++m) {
    const Mesh& mesh = model.meshes[m];
    if (mesh.morph_targets.empty()) continue;
    ImGui::PushID(static_cast<int>(m));
    fit_textf_disabled("%s (%zu targets)", mesh.name.c_str(), mesh.morph_targets.size());
    const std::span<const float> animated =
        scene.pose != nullptr ? scene.pose->morph_weights(m) : std::span<const float>();
    for (std::size_t t = 0; t < mesh.morph_targets.size(); ++t, ++row) {
      if (at + t >= state.morph_overrides.size()) break;
      float& override_weight = state.morph_overrides[at + t];
      ImGui::PushID(static_cast<int>(t));
      bool pinned = !std::isnan(override_weight);
      const float current = t < animated.size() ? animated[t] : 0.0f;
      if (ImGui::Checkbox("##override", &pinned))
        override_weight = pinned ? current : std::nanf("");
      state.landmarks.add_last_item("morph:override", row);
      if (ImGui::IsItemHovered())
        ImGui::SetTooltip("Override the animated weight of '%s'",
                          mesh.morph_targets[t].name.c_str());
      ImGui::SameLine();
      float shown = pinned ? override_weight : current;
      ImGui::BeginDisabled(!pinned);
      ImGui::SetNextItemWidth(-ImGui::GetFontSize() * 6.0f);
      if (ImGui::SliderFloat("##weight", &shown, 0.0f, 1.0f, "%.3f") && pinned)
        override_weight = shown;
      ImGui::EndDisabled();
      state.landmarks.add_last_item("morph:weight", row);
      ImGui::SameLine();
      fit_text(mesh.morph_targets[t].name);
      ImGui::PopID();
    }
    at += mesh.morph_targets.size();
    ImGui::PopID();
  }
}

}  // namespace sv::ui
