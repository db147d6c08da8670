// The layer stack in the window: the inspector's Layers section (the base clip, a cross-fade
// button with its target, duration and sync, and the layers over the base with their clip,
// weight, mode, mask, order and removal) and the timeline's rows, one per layer (and one for a
// fade's target), each showing that clip's own time on a bar that scrubs it. The stack is the
// scene's StackPlayer (anim/stack_player.h); the mask is ticked in the outliner's joint tree
// (outliner.cpp) while its layer's "Edit mask" is on. Nothing here allocates per frame; an edit
// (a layer added, a mask ticked) may.
#include <algorithm>
#include <cstdio>
#include <utility>

#include <imgui.h>

#include "anim/model.h"
#include "ui/clip_info.h"
#include "ui/ui.h"
#include "ui/widgets.h"

namespace sv::ui {
namespace {

// "2: wave" into `out`.
void clip_label(const Model& m, int32_t clip, char* out, std::size_t size) {
  const std::string_view name = clip_name(m, clip);
  std::snprintf(out, size, "%d: %.*s", clip, static_cast<int>(name.size()), name.data());
}

// A combo of the model's clips, editing *clip; true when it changed. `mark` names its landmark.
bool clip_picker(const char* id, const Model& m, int32_t* clip, float width, Landmarks& marks,
                 const char* mark, int32_t index = -1) {
  char current[160];
  clip_label(m, *clip, current, sizeof(current));
  bool changed = false;
  ImGui::SetNextItemWidth(width);
  if (ImGui::BeginCombo(id, current)) {
    for (std::size_t i = 0; i < clip_count(m); ++i) {
      const auto c = static_cast<int32_t>(i);
      char label[200];
      clip_label(m, c, label, sizeof(label));
      ImGui::PushID(c);
      if (ImGui::Selectable(label, *clip == c) && *clip != c) {
        *clip = c;
        changed = true;
      }
      marks.add_last_item("clip", c);
      ImGui::PopID();
    }
    ImGui::EndCombo();
  }
  marks.add_last_item(mark, index);
  return changed;
}

void fade_row(const Model& m, Player& base, StackPlayer& stack, ViewerState& state) {
  LayersState& ls = state.layers;
  Landmarks& marks = state.landmarks;
  if (stack.fading()) {
    const double t = stack.fade_clock - stack.fade.start;
    const double u =
        stack.fade.duration > 0.0 ? std::clamp(t / stack.fade.duration, 0.0, 1.0) : 1.0;
    const std::string_view to = clip_name(m, stack.fade_to);
    if (fit_textf("Fading to %.*s: %.0f %%", static_cast<int>(to.size()), to.data(), 100.0 * u) ==
            Fit::Whole &&
        ImGui::IsItemHovered()) {
      ImGui::SetTooltip(stack.fade.sync ? "both clips in phase" : "the target from its start");
    }
    return;
  }
  ls.fade_to = std::clamp<int32_t>(ls.fade_to, 0, static_cast<int32_t>(clip_count(m)) - 1);
  const bool can = base.clip >= 0;
  ImGui::BeginDisabled(!can);
  if (ImGui::Button("Cross-fade")) {
    stack.start_fade(m, base, ls.fade_to, ls.fade_seconds, ls.fade_sync);
  }
  ImGui::EndDisabled();
  marks.add_last_item("button:Cross-fade");
  if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) {
    ImGui::SetTooltip(can ? "from the base clip, starting now" : "pick a clip in the timeline");
  }
  ImGui::SameLine();
  ImGui::TextUnformatted("to");
  ImGui::SameLine();
  clip_picker("##fade_to", m, &ls.fade_to, std::max(60.0f, ImGui::GetContentRegionAvail().x), marks,
              "combo:Cross-fade to");
  ImGui::SetNextItemWidth(90.0f);
  ImGui::DragFloat("##fade_s", &ls.fade_seconds, 0.01f, 0.0f, 10.0f, "over %.2f s");
  marks.add_last_item("drag:Fade seconds");
  ls.fade_seconds = std::clamp(ls.fade_seconds, 0.0f, 10.0f);
  ImGui::SameLine();
  ImGui::Checkbox("Sync", &ls.fade_sync);
  marks.add_last_item("check:Sync");
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("keep both cycles at one phase (walk into run)");
}

// One layer's rows; returns an edit to the list (move up/down, remove) for after the loop.
enum class ListEdit { None, Up, Down, Remove };

ListEdit layer_rows(const SceneView& scene, ViewerState& state, std::size_t i) {
  const Model& m = *scene.model;
  StackPlayer& stack = *scene.stack;
  PlayedLayer& l = stack.layers[i];
  LayersState& ls = state.layers;
  Landmarks& marks = state.landmarks;
  const auto index = static_cast<int32_t>(i);
  ListEdit edit = ListEdit::None;
  ImGui::PushID(index);
  ImGui::AlignTextToFramePadding();
  ImGui::Text("%zu", i + 1);
  ImGui::SameLine();
  // The combo takes what the buttons after it leave of the row.
  const ImGuiStyle& style = ImGui::GetStyle();
  const float buttons = 2.0f * ImGui::GetFrameHeight() + ImGui::CalcTextSize("Remove").x +
                        2.0f * style.FramePadding.x + 3.0f * style.ItemSpacing.x;
  if (clip_picker("##clip", m, &l.player.clip,
                  std::max(60.0f, ImGui::GetContentRegionAvail().x - buttons), marks, "layer:clip",
                  index)) {
    l.player.time = 0.0;
  }
  ImGui::SameLine();
  if (ImGui::ArrowButton("##up", ImGuiDir_Up)) edit = ListEdit::Up;
  marks.add_last_item("layer:up", index);
  ImGui::SameLine();
  if (ImGui::ArrowButton("##down", ImGuiDir_Down)) edit = ListEdit::Down;
  marks.add_last_item("layer:down", index);
  ImGui::SameLine();
  if (ImGui::Button("Remove")) edit = ListEdit::Remove;
  marks.add_last_item("layer:remove", index);

  int mode = l.mode == BlendMode::Additive ? 1 : 0;
  ImGui::RadioButton("Override", &mode, 0);
  marks.add_last_item("layer:override", index);
  ImGui::SameLine();
  ImGui::RadioButton("Additive", &mode, 1);
  marks.add_last_item("layer:additive", index);
  l.mode = mode == 1 ? BlendMode::Additive : BlendMode::Override;
  ImGui::SetNextItemWidth(-1.0f);
  ImGui::SliderFloat("##weight", &l.weight, 0.0f, 1.0f, "weight %.2f");
  marks.add_last_item("layer:weight", index);

  // The mask: how much of the skeleton, and the switch that lets the joint tree edit it.
  std::size_t on = 0;
  for (const float w : l.mask) on += w > 0.0f ? 1 : 0;
  const std::size_t joints = m.skeleton.size();
  ImGui::AlignTextToFramePadding();
  if (l.mask.empty()) {
    ImGui::TextDisabled("mask: all joints");
  } else {
    ImGui::TextDisabled("mask: %zu/%zu joints", on, joints);
  }
  ImGui::SameLine();
  const bool editing = ls.mask_layer == index;
  if (ImGui::SmallButton(editing ? "Done" : "Edit mask")) ls.mask_layer = editing ? -1 : index;
  marks.add_last_item("layer:mask", index);
  if (!l.mask.empty()) {
    ImGui::SameLine();
    if (ImGui::SmallButton("All")) l.mask.clear();
    marks.add_last_item("layer:mask all", index);
  }
  if (editing) {
    ImGui::TextWrapped("Tick joints in the outliner: a tick sets the joint and those below.");
    const int32_t j = state.selection.joint;
    if (j >= 0 && static_cast<std::size_t>(j) < joints) {
      if (l.mask.empty()) l.mask.assign(joints, 1.0f);
      char label[160];
      std::snprintf(label, sizeof(label), "##jw%d", j);
      ImGui::SetNextItemWidth(120.0f);
      ImGui::SliderFloat(label, &l.mask[static_cast<std::size_t>(j)], 0.0f, 1.0f, "%.2f");
      marks.add_last_item("slider:Mask weight");
      ImGui::SameLine();
      fit_textf("%s alone", m.skeleton.names[static_cast<std::size_t>(j)].c_str());
    }
  }
  ImGui::Separator();
  ImGui::PopID();
  return edit;
}

}  // namespace

std::vector<float>* edited_mask(const SceneView& scene, const ViewerState& state) noexcept {
  const int32_t i = state.layers.mask_layer;
  if (scene.stack == nullptr || i < 0 || static_cast<std::size_t>(i) >= scene.stack->layers.size())
    return nullptr;
  return &scene.stack->layers[static_cast<std::size_t>(i)].mask;
}

void layers_section(const SceneView& scene, ViewerState& state) {
  Section section("Layers###layers", "layers", "header:Layers", state.landmarks);
  if (!section) return;
  if (scene.model == nullptr || scene.player == nullptr || scene.stack == nullptr) return;
  const Model& m = *scene.model;
  Player& base = *scene.player;
  StackPlayer& stack = *scene.stack;
  LayersState& ls = state.layers;
  if (clip_count(m) == 0) {
    fit_text_disabled("The file has no clips to blend.");
    return;
  }
  if (base.clip >= 0) {
    char label[160];
    clip_label(m, base.clip, label, sizeof(label));
    fit_textf("Base: %s", label);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("the timeline's clip, under every layer");
  } else {
    fit_text_disabled("Base: no clip. Pick one in the timeline to blend over it.");
  }
  fade_row(m, base, stack, state);
  ImGui::Separator();

  ListEdit edit = ListEdit::None;
  std::size_t edited = 0;
  for (std::size_t i = 0; i < stack.layers.size(); ++i) {
    const ListEdit e = layer_rows(scene, state, i);
    if (e != ListEdit::None) {
      edit = e;
      edited = i;
    }
  }
  // Reorder or remove after the loop; the mask being edited follows its layer.
  const auto swap = [&](std::size_t a, std::size_t b) {
    std::swap(stack.layers[a], stack.layers[b]);
    if (ls.mask_layer == static_cast<int32_t>(a)) {
      ls.mask_layer = static_cast<int32_t>(b);
    } else if (ls.mask_layer == static_cast<int32_t>(b)) {
      ls.mask_layer = static_cast<int32_t>(a);
    }
  };
  if (edit == ListEdit::Up && edited > 0) swap(edited, edited - 1);
  if (edit == ListEdit::Down && edited + 1 < stack.layers.size()) swap(edited, edited + 1);
  if (edit == ListEdit::Remove) {
    stack.layers.erase(stack.layers.begin() + static_cast<std::ptrdiff_t>(edited));
    if (ls.mask_layer == static_cast<int32_t>(edited)) {
      ls.mask_layer = -1;
    } else if (ls.mask_layer > static_cast<int32_t>(edited)) {
      --ls.mask_layer;
    }
  }

  ls.add_clip = std::clamp<int32_t>(ls.add_clip, 0, static_cast<int32_t>(clip_count(m)) - 1);
  if (ImGui::Button("Add layer")) {
    PlayedLayer l;
    l.player.clip = ls.add_clip;
    l.player.playing = base.playing;
    stack.layers.push_back(std::move(l));
  }
  state.landmarks.add_last_item("button:Add layer");
  ImGui::SameLine();
  clip_picker("##add_clip", m, &ls.add_clip, std::max(60.0f, ImGui::GetContentRegionAvail().x),
              state.landmarks, "combo:Add layer clip");
  if (stack.layers.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    ImGui::TextWrapped(
        "Layers go over the base in order; one that keys only some joints moves only those "
        "(wave over walk moves the arms and leaves the legs walking).");
    ImGui::PopStyleColor();
  }
}

void layer_timelines(const SceneView& scene, ViewerState& state) {
  if (scene.model == nullptr || scene.player == nullptr || scene.stack == nullptr) return;
  const Model& m = *scene.model;
  StackPlayer& stack = *scene.stack;
  const auto row = [&](const char* id, int32_t index, const char* prefix, int32_t clip,
                       double* time, bool scrubs, float weight) {
    const double duration = clip_duration(m, clip);
    const std::string_view name = clip_name(m, clip);
    char label[96];
    std::snprintf(label, sizeof(label), "%s %.*s", prefix, static_cast<int>(name.size()),
                  name.data());
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted(label);
    ImGui::SameLine(150.0f);
    char readout[64];
    std::snprintf(readout, sizeof(readout), "%.3f/%.3f s  w %.2f", *time, duration, weight);
    const float readout_w = ImGui::CalcTextSize("000.000/000.000 s  w 0.00").x;
    const ImVec2 size(std::max(10.0f, ImGui::GetContentRegionAvail().x - readout_w - 8.0f),
                      ImGui::GetFrameHeight() * 0.7f);
    const ImVec2 a = ImGui::GetCursorScreenPos();
    ImGui::PushID(id);
    ImGui::PushID(index);
    ImGui::InvisibleButton("##bar", size);
    ImGui::PopID();
    ImGui::PopID();
    state.landmarks.add_last_item(id, index);
    if (scrubs && ImGui::IsItemActive() && duration > 0.0) {
      *time = std::clamp((ImGui::GetIO().MousePos.x - a.x) / size.x, 0.0f, 1.0f) * duration;
      scene.player->playing = false;  // inspecting a pose: everything holds still
    }
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImVec2 b(a.x + size.x, a.y + size.y);
    dl->AddRectFilled(a, b, ImGui::GetColorU32(ImGuiCol_FrameBg), 2.0f);
    if (duration > 0.0) {
      const float x = a.x + size.x * static_cast<float>(std::clamp(*time / duration, 0.0, 1.0));
      dl->AddLine(ImVec2(x, a.y), ImVec2(x, b.y), IM_COL32(120, 190, 255, 255), 2.0f);
    }
    ImGui::SameLine();
    ImGui::TextDisabled("%s", readout);
  };
  if (stack.fading()) {
    const double to = clip_duration(m, stack.fade_to);
    const CrossFadeState s =
        crossfade_at(stack.fade, clip_duration(m, stack.fade_from), to, stack.fade_clock);
    double t = wrap_time(s.to_time, to, true);
    row("fade:bar", 0, "fade to", stack.fade_to, &t, false, s.weight);
  }
  for (std::size_t i = 0; i < stack.layers.size(); ++i) {
    PlayedLayer& l = stack.layers[i];
    char prefix[32];
    std::snprintf(prefix, sizeof(prefix), "%zu%s", i + 1,
                  l.mode == BlendMode::Additive ? " +" : "");
    row("layer:bar", static_cast<int32_t>(i), prefix, l.player.clip, &l.player.time, true,
        l.weight);
  }
}

}  // namespace sv::ui
