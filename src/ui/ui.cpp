#include "ui/ui.h"

#include <cstring>

#include <algorithm>
#include <cfloat>
#include <cmath>

#include <imgui.h>

#include "gfx/view_colors.h"
#include "ui/clip_info.h"
#include "ui/viewport.h"
#include "ui/widgets.h"

namespace sv::ui {
namespace {

constexpr ImGuiWindowFlags kPanelFlags =
    ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoCollapse |
    ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoBringToFrontOnFocus;

enum class Side { Left, Right, Bottom };

// Begins the panel window at `r`. Returns false when the panel is collapsed: then it drew its
// strip (with the expand button) and the caller draws nothing else before End().
bool begin_panel(const char* name, const Rect& r, bool* collapsed, Side side, Landmarks& marks) {
  ImGui::SetNextWindowPos(ImVec2(r.x, r.y), ImGuiCond_Always);
  ImGui::SetNextWindowSize(ImVec2(r.w, r.h), ImGuiCond_Always);
  // The inner edge resizes the panel through its own grab zone (edge_grab), not ImGui's.
  // Side panels keep their scroll bar's room whether or not they scroll, so the content's width
  // does not change (and rows do not jump) when a row added makes the panel scroll.
  if (*collapsed) ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(2, 4));
  ImGui::Begin(name, nullptr,
               kPanelFlags | ImGuiWindowFlags_NoResize |
                   (*collapsed             ? ImGuiWindowFlags_NoScrollbar
                    : side != Side::Bottom ? ImGuiWindowFlags_AlwaysVerticalScrollbar
                                           : 0));
  if (*collapsed) ImGui::PopStyleVar();
  const ImGuiDir open_dir = side == Side::Left    ? ImGuiDir_Right
                            : side == Side::Right ? ImGuiDir_Left
                                                  : ImGuiDir_Up;
  const ImGuiDir close_dir = side == Side::Left    ? ImGuiDir_Left
                             : side == Side::Right ? ImGuiDir_Right
                                                   : ImGuiDir_Down;
  if (*collapsed) {
    if (ImGui::ArrowButton("##expand", open_dir)) *collapsed = false;
    marks.add_last_item(side == Side::Left    ? "expand:Outliner"
                        : side == Side::Right ? "expand:Inspector"
                                              : "expand:Timeline");
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("show the %s", name);
    return false;
  }
  // The title row: the panel's name and the button that collapses it, on its outer side.
  if (side == Side::Bottom) {
    if (ImGui::ArrowButton("##collapse", close_dir)) *collapsed = true;
    marks.add_last_item("collapse:Timeline");
    ImGui::SameLine();
    return true;
  }
  if (side == Side::Right) {
    if (ImGui::ArrowButton("##collapse", close_dir)) *collapsed = true;
    marks.add_last_item("collapse:Inspector");
    ImGui::SameLine();
    ImGui::TextUnformatted(name);
  } else {
    ImGui::TextUnformatted(name);
    ImGui::SameLine(ImGui::GetContentRegionMax().x - ImGui::GetFrameHeight());
    if (ImGui::ArrowButton("##collapse", close_dir)) *collapsed = true;
    marks.add_last_item("collapse:Outliner");
  }
  ImGui::Separator();
  return true;
}

// The grab zone on a panel's inner edge: kGrab units across, centred on the edge (half over
// the panel, half over the viewport), in a window of its own above the panels. Dragging it sets
// the panel's preferred size from the size it had when the drag began; a side panel then stops
// following its content (the user's width wins).
void edge_grab(const char* id, const Rect& panel, Side side, float scale, float* preferred,
               bool* fit, Landmarks& marks, const char* mark) {
  const float grab = kGrab * scale;
  const bool across = side != Side::Bottom;  // a vertical edge, dragged across
  const float edge = side == Side::Left ? panel.right() : side == Side::Right ? panel.x : panel.y;
  const ImVec2 pos =
      across ? ImVec2(edge - 0.5f * grab, panel.y) : ImVec2(panel.x, edge - 0.5f * grab);
  const ImVec2 size = across ? ImVec2(grab, panel.h) : ImVec2(panel.w, grab);
  ImGui::SetNextWindowPos(pos, ImGuiCond_Always);
  ImGui::SetNextWindowSize(size, ImGuiCond_Always);
  ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(0.0f, 0.0f));
  ImGui::PushStyleVar(ImGuiStyleVar_WindowBorderSize, 0.0f);
  ImGui::PushStyleVar(ImGuiStyleVar_WindowMinSize, ImVec2(1.0f, 1.0f));
  ImGui::Begin(id, nullptr,
               ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove |
                   ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoBackground |
                   ImGuiWindowFlags_NoNav | ImGuiWindowFlags_NoFocusOnAppearing);
  ImGui::InvisibleButton("##grab", size);
  marks.add_last_item(mark);
  const bool hot = ImGui::IsItemHovered() || ImGui::IsItemActive();
  if (hot) ImGui::SetMouseCursor(across ? ImGuiMouseCursor_ResizeEW : ImGuiMouseCursor_ResizeNS);
  ImGuiStorage* store = ImGui::GetStateStorage();
  const ImGuiID start_id = ImGui::GetID("##start");
  const float now = across ? panel.w : panel.h;
  if (ImGui::IsItemActivated()) store->SetFloat(start_id, now);
  if (ImGui::IsItemActive()) {
    const ImVec2 drag = ImGui::GetMouseDragDelta(ImGuiMouseButton_Left, 0.0f);
    const float delta = side == Side::Left ? drag.x : side == Side::Right ? -drag.x : -drag.y;
    const float want = store->GetFloat(start_id, now) + delta;
    if (std::abs(want - now) >= 1.0f) {
      *preferred = want;
      if (fit != nullptr) *fit = false;
    }
  }
  if (hot) {
    // A line on the edge while it can be grabbed: the zone itself stays invisible.
    const ImU32 c = ImGui::GetColorU32(ImGui::IsItemActive() ? ImGuiCol_SeparatorActive
                                                             : ImGuiCol_SeparatorHovered);
    ImDrawList* dl = ImGui::GetWindowDrawList();
    if (across) {
      dl->AddLine(ImVec2(edge, panel.y), ImVec2(edge, panel.bottom()), c, 2.0f * scale);
    } else {
      dl->AddLine(ImVec2(panel.x, edge), ImVec2(panel.right(), edge), c, 2.0f * scale);
    }
  }
  ImGui::End();
  ImGui::PopStyleVar(3);
}

}  // namespace

void ViewerState::new_model(const Model& model) {
  ++model_generation;
  selection = Selection{};
  render.view = ViewMode::Shaded;
  render.selected_joint = -1;
  if (model.meshes.empty()) render.skeleton = true;
  tree.reset(model.skeleton);
  const TimelineState kept_name = timeline;
  timeline = TimelineState{};
  std::memcpy(timeline.range_name, kept_name.range_name, sizeof(timeline.range_name));
  const int32_t rows = layers.timeline_rows;
  layers = LayersState{};
  layers.timeline_rows = rows;  // the timeline keeps its size until the rows change
  std::size_t targets = 0;
  for (const Mesh& mesh : model.meshes) targets += mesh.morph_targets.size();
  morph_overrides.assign(targets, std::nanf(""));
  joint_colors = sv::joint_colors(model.skeleton.parents);
  // The panels measure the new model's content afresh (ui.cpp, draw_panels).
  layout_prefs.outliner_content = 0.0f;
  layout_prefs.inspector_content = 0.0f;
  legend.shown = false;
}

void apply_action(Action action, const SceneView& scene, ViewerState& state, UiEdits& edits) {
  Player* p = scene.player;
  const double duration =
      scene.model != nullptr && p != nullptr ? clip_duration(*scene.model, p->clip) : 0.0;
  switch (action) {
    case Action::TogglePlay:
      if (p != nullptr) p->toggle(duration);
      break;
    case Action::StepBack:
    case Action::StepForward:
      if (p != nullptr) {
        p->playing = false;
        p->time = step_time(p->time, duration, action == Action::StepForward ? 1 : -1,
                            state.frames_per_second);
      }
      break;
    case Action::PreviousKey:
    case Action::NextKey:
      if (p != nullptr && scene.model != nullptr) {
        const std::span<const double> keys = selected_keys(*scene.model, *p, state);
        p->playing = false;
        p->time = std::clamp(adjacent_time(keys, p->time, action == Action::NextKey ? 1 : -1), 0.0,
                             duration);
      }
      break;
    case Action::Frame:
      edits.frame = true;
      break;
    case Action::ResetView:
      edits.reset_view = true;
      break;
    case Action::FrameSelected:
    case Action::ViewFront:
    case Action::ViewBack:
    case Action::ViewRight:
    case Action::ViewLeft:
    case Action::ViewTop:
    case Action::ViewBottom:
    case Action::ToggleOrtho:
    case Action::ViewUndo:
    case Action::ViewRedo:
    case Action::Screenshot:
      edits.view = action;  // the app says what it did (its toast)
      break;
    case Action::Wireframe:
      state.render.wireframe = !state.render.wireframe;
      show_toast(state.toast, "Wireframe %s (W)", state.render.wireframe ? "on" : "off");
      break;
    case Action::Skeleton:
      state.render.skeleton = !state.render.skeleton;
      show_toast(state.toast, "Skeleton %s (S)", state.render.skeleton ? "on" : "off");
      break;
    case Action::SkinningPath:
      state.render.gpu_skinning = !state.render.gpu_skinning;
      show_toast(state.toast, "%s skinning (G)", state.render.gpu_skinning ? "GPU" : "CPU");
      break;
    case Action::SkinMethod:
      state.render.method = next_skin_method(state.render.method);
      show_toast(state.toast, "Skinning method: %s (M)", skin_method_label(state.render.method));
      break;
    case Action::Influences:
      state.render.influences = state.render.influences == 8 ? 4 : 8;
      show_toast(state.toast, "%d influences per vertex (I)", state.render.influences);
      break;
    case Action::NextView: {
      const int next = (static_cast<int>(state.render.view) + 1) % kViewModeCount;
      state.render.view = static_cast<ViewMode>(next);
      show_toast(state.toast, "View: %s (V)", kViewModeLabels[next]);
      break;
    }
    case Action::Help:
      state.help_open = !state.help_open;
      break;
    case Action::CloseHelp:
      state.help_open = false;
      break;
    case Action::Quit:
      edits.quit = true;
      break;
    default:
      break;
  }
}

UiEdits begin_ui(const SceneView& scene, std::span<const KeyEvent> keys, ViewerState& state) {
  UiEdits edits;
  const ImGuiIO& io = ImGui::GetIO();
  state.landmarks.clear();
  state.layout =
      compute_layout(io.DisplaySize.x, io.DisplaySize.y, state.layout_prefs, state.ui_scale);
  state.viewport =
      to_pixels(state.layout.viewport, io.DisplayFramebufferScale.x, io.DisplayFramebufferScale.y);
  state.input = viewport_input(io, state.layout.viewport);
  if (scene.model == nullptr || static_cast<std::size_t>(std::max(state.selection.joint, -1) + 1) >
                                    scene.model->skeleton.size()) {
    state.selection.joint = -1;
  }
  // While a text field has the keyboard, plain keys are typing; Ctrl shortcuts still act, but
  // Ctrl+Z and Ctrl+Shift+Z, the field's own undo and redo, leave the view alone.
  for (const KeyEvent& k : keys) {
    if (!io.WantCaptureKeyboard) {
      apply_action(action_for(k), scene, state, edits);
    } else if (k.typed == 0 && (k.mods & kModControl) != 0) {
      const Action a = action_for(k);
      if (a != Action::ViewUndo && a != Action::ViewRedo) apply_action(a, scene, state, edits);
    }
  }
  return edits;
}

void draw_panels(const SceneView& scene, const StatusView& status, ViewerState& state,
                 UiEdits& edits) {
  LayoutPrefs& prefs = state.layout_prefs;
  const Layout& l = state.layout;
  bool open =
      begin_panel("Outliner", l.outliner, &prefs.outliner_collapsed, Side::Left, state.landmarks);
  if (open) {
    begin_content_width();
    if (outliner_panel(scene, status, state, edits)) edits.open = true;
    // Only grows while a model is open (ViewerState::new_model starts it again): a panel that
    // shrank back whenever a long line scrolled away would jump.
    prefs.outliner_content = std::max(prefs.outliner_content, end_content_width());
  }
  ImGui::End();

  open = begin_panel("Inspector", l.inspector, &prefs.inspector_collapsed, Side::Right,
                     state.landmarks);
  if (open) {
    begin_content_width();
    inspector_panel(scene, status, state, edits);
    prefs.inspector_content = std::max(prefs.inspector_content, end_content_width());
  }
  ImGui::End();

  open =
      begin_panel("Timeline", l.timeline, &prefs.timeline_collapsed, Side::Bottom, state.landmarks);
  if (open) timeline_panel(scene, state, edits);
  ImGui::End();

  // The edges' grab zones, above the panels.
  if (!prefs.outliner_collapsed) {
    edge_grab("##edge:Outliner", l.outliner, Side::Left, state.ui_scale, &prefs.outliner_width,
              &prefs.outliner_fit, state.landmarks, "edge:Outliner");
  }
  if (!prefs.inspector_collapsed) {
    edge_grab("##edge:Inspector", l.inspector, Side::Right, state.ui_scale, &prefs.inspector_width,
              &prefs.inspector_fit, state.landmarks, "edge:Inspector");
  }
  if (!prefs.timeline_collapsed) {
    edge_grab("##edge:Timeline", l.timeline, Side::Bottom, state.ui_scale, &prefs.timeline_height,
              nullptr, state.landmarks, "edge:Timeline");
  }

  state.notes = draw_viewport_notes(state.toast, l.viewport, state.landmarks);
  help_overlay(&state.help_open);
}

UiEdits draw_ui(const SceneView& scene, const StatusView& status, std::span<const KeyEvent> keys,
                ViewerState& state) {
  UiEdits edits = begin_ui(scene, keys, state);
  draw_panels(scene, status, state, edits);
  return edits;
}

}  // namespace sv::ui
