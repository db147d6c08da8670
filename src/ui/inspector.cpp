// The inspector (the right panel): the selected joint (local and model transforms, inverse bind,
// the vertices it skins and its largest weight), the view options, the layer stack
// (layers_panel.cpp), the import report, and the per-stage timings with the frame rate.
#include <algorithm>
#include <cstdio>
#include <iterator>

#include <imgui.h>

#include <glm/gtc/quaternion.hpp>
#include <glm/gtx/matrix_decompose.hpp>

#include "skin/skinning.h"
#include "ui/model_units.h"
#include "ui/ui.h"
#include "ui/widgets.h"

namespace sv::ui {

float mean_frame_seconds(std::span<const float> frame_times) {
  float sum = 0.0f;
  int drawn = 0;
  for (float t : frame_times) {
    if (t > 0.0f) {
      sum += t;
      ++drawn;
    }
  }
  return drawn == 0 ? 0.0f : sum / static_cast<float>(drawn);
}

namespace {

void trs_rows(const char* label, const glm::vec3& t, const glm::quat& r, const glm::vec3& s) {
  const glm::vec3 e = glm::degrees(glm::eulerAngles(r));
  // Cut with "..." where the panel is narrow (800x500), whole in the tooltip.
  fit_text(label);
  fit_textf(" T % .3f % .3f % .3f", t.x, t.y, t.z);
  fit_textf(" R % .1f % .1f % .1f  deg XYZ", e.x, e.y, e.z);
  fit_textf_disabled("   q % .3f % .3f % .3f % .3f  wxyz", r.w, r.x, r.y, r.z);
  fit_textf(" S % .3f % .3f % .3f", s.x, s.y, s.z);
}

void matrix_rows(const char* label, const glm::mat4& m) {
  glm::vec3 s, t, skew;
  glm::quat r;
  glm::vec4 persp;
  if (glm::decompose(m, s, r, t, skew, persp)) {
    trs_rows(label, t, r, s);
  } else {
    fit_textf("%s: not decomposable", label);
  }
}

void joint_section(const SceneView& scene, ViewerState& state) {
  Section section("Joint###joint", "joint", "header:Joint", state.landmarks);
  if (!section) return;
  const Skeleton& sk = scene.model->skeleton;
  const int32_t sel = state.selection.joint;
  if (sel < 0 || static_cast<std::size_t>(sel) >= sk.size()) {
    fit_text_disabled("No joint selected: choose one in the outliner.");
    return;
  }
  const auto j = static_cast<std::size_t>(sel);
  fit_text(sk.names[j]);
  ImGui::TextDisabled("joint %d", sel);
  const int32_t parent = sk.parents[j];
  if (parent >= 0) {
    ImGui::SameLine();
    ImGui::TextDisabled("parent");
    // The parent's button on the next line where its name does not fit beside.
    const char* name = sk.names[static_cast<std::size_t>(parent)].c_str();
    flow_same_line(small_button_width(name));
    if (ImGui::SmallButton(name)) {
      state.selection.joint = parent;
    }
    state.landmarks.add_last_item("button:Parent");
  }
  if (j < scene.influence.size() && scene.influence[j].vertices > 0) {
    ImGui::Text("Skins %u vertices", scene.influence[j].vertices);
    ImGui::Text("Largest weight %.4f", scene.influence[j].max_weight);
  } else {
    ImGui::TextDisabled("Skins no vertex (a plain node)");
  }
  if (scene.pose != nullptr) {
    const Transform l = scene.pose->local(*scene.model, j);
    trs_rows("Local (parent space)", l.translation, l.rotation, l.scale);
  }
  if (j < scene.model_matrices.size()) matrix_rows("Model (model space)", scene.model_matrices[j]);
  matrix_rows("Inverse bind", sk.inverse_bind[j]);
  if (ImGui::TreeNode("Inverse bind matrix")) {
    const glm::mat4& m = sk.inverse_bind[j];
    for (int r = 0; r < 4; ++r) {
      fit_textf("% .3f % .3f % .3f % .3f", m[0][r], m[1][r], m[2][r], m[3][r]);
    }
    ImGui::TreePop();
  }
  if (ImGui::SmallButton("Clear selection")) state.selection.joint = -1;
  state.landmarks.add_last_item("button:Clear selection");
}

// The current clip's volume change per closed mesh against the rest pose under the chosen
// method (skin/volume.h): the lines --info prints for the clip, or why there are none.
void volume_line(const SceneView& scene, SkinMethod method, ViewerState& state) {
  if (scene.volume == nullptr) {
    if (scene.volume_pending) {
      fit_text_disabled("Volume change: measuring (off the frame, cancelled by another clip)");
      state.landmarks.add_last_item("text:Volume");
    }
    return;
  }
  const VolumeFigures& v = *scene.volume;
  if (scene.volume_method != method) {
    fit_textf("Volume change: measured once %s skins the mesh", skin_method_label(method));
    state.landmarks.add_last_item("text:Volume");
    return;
  }
  // The scene formats the lines once (VolumeFigures::lines); figures without them are formatted
  // here (a test's hand-made view).
  const bool kept = v.lines.size() == v.meshes.size() + 1;
  const Fit fit =
      fit_textf("Volume change against the rest pose (%s): %s", skin_method_label(method),
                kept ? v.lines[0].c_str() : volume_sampling_line(v).c_str());
  state.landmarks.add_last_item("text:Volume");
  if (fit == Fit::Whole && ImGui::IsItemHovered())
    ImGui::SetTooltip(
        "Per closed mesh, the largest change of its volume against the rest pose over the clip\n"
        "(signed), then the least and the most; the same lines as skinview --info.");
  ImGui::Indent();
  for (std::size_t m = 0; m < v.meshes.size(); ++m)
    fit_text(kept ? v.lines[m + 1].c_str() : mesh_volume_line(v, m).c_str());
  ImGui::Unindent();
}

// The method-difference view's pair: two combos, "LBS vs DQS".
void method_pair(RenderOptions& o, ViewerState& state) {
  constexpr const char* kMethods = "LBS\0DQS\0CoR\0";
  const float width = 4.5f * ImGui::GetFontSize();
  int a = static_cast<int>(o.diff_a), b = static_cast<int>(o.diff_b);
  ImGui::SetNextItemWidth(width);
  if (ImGui::Combo("##diff_a", &a, kMethods)) o.diff_a = static_cast<SkinMethod>(a);
  state.landmarks.add_last_item("combo:Diff A");
  ImGui::SameLine();
  ImGui::TextUnformatted("vs");
  ImGui::SameLine();
  ImGui::SetNextItemWidth(width);
  if (ImGui::Combo("##diff_b", &b, kMethods)) o.diff_b = static_cast<SkinMethod>(b);
  state.landmarks.add_last_item("combo:Diff B");
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip(
        "Per vertex, how far the two methods put it apart (both skinned on the CPU).");
}

// 4 or 8 influences per vertex (I toggles), on either path and with every method. Within the
// 4-limit both give the same picture: said beside the buttons.
void influences_buttons(const SceneView& scene, ViewerState& state) {
  RenderOptions& o = state.render;
  ImGui::TextUnformatted("Influences");
  ImGui::SameLine();
  ImGui::RadioButton("4##influences", &o.influences, 4);
  state.landmarks.add_last_item("radio:Influences 4");
  ImGui::SameLine();
  ImGui::RadioButton("8##influences", &o.influences, 8);
  state.landmarks.add_last_item("radio:Influences 8");
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip(
        "Skin each vertex with its 8 largest weights (renormalised) where the file has\n"
        "more than 4; 4 (the default) keeps the 4 largest, as most engines do.");
  uint32_t most = 0;
  if (scene.model != nullptr)
    for (const Mesh& m : scene.model->meshes) most = std::max(most, m.max_influences);
  // The file's figure beside the buttons, or under them when a few letters of it would not fit.
  flow_same_line(
      std::min(ImGui::CalcTextSize("(file: 3 at most, no change)").x, 6.0f * ImGui::GetFontSize()));
  if (most > 4) {
    fit_textf_disabled("(file: up to %u)", most);
  } else {
    fit_textf_disabled("(file: %u at most, no change)", most);
  }
}

void view_section(const SceneView& scene, ViewerState& state, UiEdits& edits) {
  Section section("View###view", "view", "header:View", state.landmarks);
  if (!section) return;
  RenderOptions& o = state.render;
  int path = o.gpu_skinning ? 1 : 0;
  if (state.crowd.on) ImGui::BeginDisabled();  // a crowd is skinned on the GPU (Crowd section)
  ImGui::RadioButton("CPU skinning", &path, 0);
  state.landmarks.add_last_item("radio:CPU");
  if (state.crowd.on) ImGui::EndDisabled();
  flow_same_line(radio_width("GPU skinning"));
  ImGui::RadioButton("GPU skinning", &path, 1);
  state.landmarks.add_last_item("radio:GPU");
  o.gpu_skinning = path == 1;
  if (state.software_gl) {
    fit_textf_disabled("Software GL: CPU path is faster");
    state.landmarks.add_last_item("text:SoftwareGl");
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip(
          "The GL driver rasterises on the CPU (llvmpipe or the like): the GPU path's skinning\n"
          "shader runs there as JIT code, slower than the CPU path's kernels, so skinview starts\n"
          "on the CPU path (--skinning auto). Both paths draw the same picture.");
  }
  // The skinning method (M cycles it), on either path.
  constexpr const char* kMethodMarks[] = {"radio:LBS", "radio:DQS", "radio:CoR"};
  static_assert(std::size(kMethodMarks) == std::size(kSkinMethods));
  int method = static_cast<int>(o.method);
  for (std::size_t i = 0; i < std::size(kSkinMethods); ++i) {
    if (i > 0) flow_same_line(radio_width(skin_method_label(kSkinMethods[i])));
    ImGui::RadioButton(skin_method_label(kSkinMethods[i]), &method,
                       static_cast<int>(kSkinMethods[i]));
    state.landmarks.add_last_item(kMethodMarks[i]);
  }
  o.method = static_cast<SkinMethod>(method);
  influences_buttons(scene, state);
  if (o.method == SkinMethod::Cor && scene.centers_progress >= 0.0f &&
      scene.centers_progress < 1.0f) {
    // The mesh is drawn with LBS until the centres are known.
    char label[64];
    std::snprintf(label, sizeof(label), "Centres of rotation %.0f%% (LBS meanwhile)",
                  100.0f * scene.centers_progress);
    ImGui::ProgressBar(scene.centers_progress, ImVec2(-1.0f, 0.0f), label);
    state.landmarks.add_last_item("progress:Centres");
  }
  if (o.method == SkinMethod::Cor && (scene.centers_merge > 1 || scene.centers_depth < 4)) {
    // The budgets (skin/rotation_centers.h, "Budget") coarsened the surface the centres
    // average over.
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextColored(ImVec4(1.0f, 0.8f, 0.4f, 1.0f),
                       "Centres of rotation approximate (a budget for large meshes): surface "
                       "elements merged in runs of %u, subdivided %d of 4 levels",
                       scene.centers_merge, scene.centers_depth);
    ImGui::PopTextWrapPos();
  }
  if (o.method == SkinMethod::Cor && scene.centers_failed) {
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextColored(ImVec4(1.0f, 0.6f, 0.3f, 1.0f),
                       "The centres of rotation could not be computed for this model: LBS shown.");
    ImGui::PopTextWrapPos();
  }
  volume_line(scene, o.method, state);
  int view = static_cast<int>(o.view);
  ImGui::SetNextItemWidth(-50.0f);
  if (ImGui::Combo("View", &view, kViewModeLabels, kViewModeCount)) {
    o.view = static_cast<ViewMode>(view);
  }
  state.landmarks.add_last_item("combo:View");
  if (o.view == ViewMode::MethodDiff) method_pair(o, state);
  // Debug views take the shaded view's light (the form shows); flat paints the legend's colours.
  if (o.view == ViewMode::Shaded) ImGui::BeginDisabled();
  const bool flat_cut =
      fit_checkbox("Flat colours (unlit)", &o.flat_colors, state.landmarks, "check:Flat colours");
  if (o.view == ViewMode::Shaded) ImGui::EndDisabled();
  if (!flat_cut && ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
    ImGui::SetTooltip(
        "Debug views without the light: every vertex exactly its legend colour.\n"
        "Off, they are lit as the shaded view is, so creases and form show.");
  // One row while the panel is wide enough; the rest flows onto the next (never a cut "Axe").
  ImGui::Checkbox("Skeleton", &o.skeleton);
  state.landmarks.add_last_item("check:Skeleton");
  flow_same_line(checkbox_width("Wireframe"));
  ImGui::Checkbox("Wireframe", &o.wireframe);
  state.landmarks.add_last_item("check:Wireframe");
  flow_same_line(checkbox_width("Grid"));
  ImGui::Checkbox("Grid", &o.grid);
  state.landmarks.add_last_item("check:Grid");
  flow_same_line(checkbox_width("Axes"));
  ImGui::Checkbox("Axes", &o.axes);
  state.landmarks.add_last_item("check:Axes");
  const bool back_cut =
      fit_checkbox("Show back faces", &o.show_back_faces, state.landmarks, "check:Back faces");
  if (!back_cut && ImGui::IsItemHovered())
    ImGui::SetTooltip(
        "On: every triangle is drawn from both sides (--back-faces).\n"
        "Off: a glTF material that is not doubleSided is drawn from the front only\n"
        "(counter-clockwise), as glTF requires; the Meshes list says which are single-sided.\n"
        "A mesh whose winding is mirrored this frame (a joint or node scaled by -1, common\n"
        "in mirrored rigs) is still drawn from both sides, so culling never hides its front.");
  int up = scene.z_up ? 1 : 0;
  ImGui::TextUnformatted("File's up axis");
  flow_same_line(radio_width("Y"));
  bool up_changed = ImGui::RadioButton("Y", &up, 0);
  flow_same_line(radio_width("Z"));
  up_changed |= ImGui::RadioButton("Z", &up, 1);
  if (up_changed && (up == 1) != scene.z_up) {
    o.z_up = up == 1;
    edits.up_axis = true;
  }
  // The colour's value beside its swatch: a lone square swatch read as an unticked check box.
  ImGui::SetNextItemWidth(7.0f * ImGui::GetFontSize());
  ImGui::ColorEdit3("##Background", &o.background.x, ImGuiColorEditFlags_DisplayHex);
  state.landmarks.add_last_item("color:Background");
  flow_same_line(ImGui::CalcTextSize("Background").x);
  ImGui::TextUnformatted("Background");
  if (ImGui::Button("Frame all (A)")) edits.frame = true;
  state.landmarks.add_last_item("button:Frame");
  flow_same_line(button_width("Selected (F)"));
  if (ImGui::Button("Selected (F)")) edits.view = Action::FrameSelected;
  state.landmarks.add_last_item("button:Frame selected");
  flow_same_line(button_width("Home"));
  if (ImGui::Button("Home")) edits.reset_view = true;
  state.landmarks.add_last_item("button:Reset view");
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("reset the view: as the file opened (Home)");
  // The numpad's views for a mouse (and a laptop): Ctrl+click for the opposite side, as Ctrl
  // with the key.
  const bool opposite = ImGui::GetIO().KeyCtrl;
  struct AxisButton {
    const char* label;
    const char* mark;
    Action action, ctrl_action;
  };
  static constexpr AxisButton kAxes[] = {
      {"Front", "button:Front", Action::ViewFront, Action::ViewBack},
      {"Right", "button:Right", Action::ViewRight, Action::ViewLeft},
      {"Top", "button:Top", Action::ViewTop, Action::ViewBottom},
  };
  for (const AxisButton& a : kAxes) {
    if (&a != kAxes) flow_same_line(small_button_width(a.label));
    if (ImGui::SmallButton(a.label)) edits.view = opposite ? a.ctrl_action : a.action;
    state.landmarks.add_last_item(a.mark);
    if (ImGui::IsItemHovered()) {
      ImGui::SetTooltip("%s view, orthographic (numpad; Ctrl+click: the opposite side)", a.label);
    }
  }
  flow_same_line(small_button_width("Persp/Ortho"));
  if (ImGui::SmallButton("Persp/Ortho")) edits.view = Action::ToggleOrtho;
  state.landmarks.add_last_item("button:Ortho");
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("perspective / orthographic (numpad 5)");
}

// The model's size in the file's units and what a unit is (ui/model_units.h).
void model_section(const SceneView& scene, ViewerState& state) {
  Section section("Model###model", "model", "header:Model", state.landmarks);
  if (!section) return;
  char line[160];
  if (scene.model_size.x > 0.0f || scene.model_size.y > 0.0f || scene.model_size.z > 0.0f) {
    format_size(scene.model_size, line, sizeof line);
    ImGui::TextUnformatted("Size");
    ImGui::SameLine();
    fit_text(line);
    state.landmarks.add_last_item("text:Size");
  }
  format_unit(scene.unit_metres, scene.path, line, sizeof line);
  ImGui::TextUnformatted("Unit");
  ImGui::SameLine();
  fit_text(line);
  state.landmarks.add_last_item("text:Unit", scene.unit_metres > 0.0 ? 1 : 0);
  if (format_metres(scene.model_size, scene.unit_metres, line, sizeof line)) {
    ImGui::TextUnformatted("    ");
    ImGui::SameLine();
    fit_text(line);
    state.landmarks.add_last_item("text:Size in metres");
  }
}

void report_section(const SceneView& scene, ViewerState& state) {
  char label[64];
  std::snprintf(label, sizeof(label), "Import report (%zu)###report", scene.report.size());
  Section section(label, "report", "header:Import report", state.landmarks, false);
  if (!section) return;
  if (scene.report.empty()) ImGui::TextUnformatted("No repairs were needed.");
  // One line a note, cut to the panel with the whole note in a tooltip (the list stays short
  // enough to scan; a wider panel shows more of each).
  for (std::size_t i = 0; i < scene.report.size(); ++i) {
    ImGui::Bullet();
    fit_text(scene.report[i]);
    state.landmarks.add_last_item("text:Report", static_cast<int32_t>(i));
  }
  ImGui::PushTextWrapPos(0.0f);
  // The repairs above are the ones the import made when the file was first read.
  if (scene.from_cache) {
    ImGui::TextDisabled(
        "Read from the model cache: the importer did not run this time "
        "(--no-cache runs it).");
    state.landmarks.add_last_item("text:From cache");
  }
  ImGui::PopTextWrapPos();
}

void performance_section(const SceneView& scene, const StatusView& status, ViewerState& state) {
  Section section("Performance###perf", "perf", "header:Performance", state.landmarks);
  if (!section) return;
  const float mean = mean_frame_seconds(status.frame_times);
  if (mean > 0.0f) {
    ImGui::Text("%.1f FPS (%.2f ms a frame)", 1.0f / mean, mean * 1e3f);
  } else {
    ImGui::TextDisabled("FPS: no timed frame yet");
  }
  state.landmarks.add_last_item("text:FPS");
  if (char notice[96]; slow_playback_notice(scene, notice, sizeof(notice))) {
    fit_text(notice, 0.0f, ImVec4(1.0f, 0.7f, 0.3f, 1.0f));
  }
  ImGui::PlotLines("##frames", status.frame_times.data(),
                   static_cast<int>(status.frame_times.size()),
                   static_cast<int>(status.frame_newest), nullptr, 0.0f, 0.05f,
                   ImVec2(ImGui::GetContentRegionAvail().x, 40));
  if (scene.times == nullptr) return;
  const StageTimes& t = *scene.times;
  // Joints of the skeleton; the palette counts a joint once per mesh it skins.
  ImGui::Text("%zu joints, %zu vertices",
              scene.model != nullptr ? scene.model->skeleton.size() : std::size_t{0},
              scene.vertices);
  state.landmarks.add_last_item("text:Joints");
  if (scene.model != nullptr && scene.bones != scene.model->skeleton.size()) {
    fit_textf_disabled("  palette: %zu entries over %zu meshes' skins", scene.bones,
                       scene.model->meshes.size());
  }
  ImGui::Text("pose      %7.3f ms", t.pose * 1e3);
  if (scene.stack != nullptr && scene.stack->blends()) {
    ImGui::TextDisabled("  %zu layers: sample each, blend, to model, palette", scene.stack->size());
  } else {
    ImGui::TextDisabled("  sample, to model, palette: one pass");
  }
  ImGui::Text("normals   %7.3f ms", t.normals * 1e3);
  if (!state.render.gpu_skinning || state.render.view == ViewMode::CpuGpu) {
    // The kernel skin_lbs chose for this CPU, and the rate it ran at (the CPU-vs-GPU view skins
    // on the CPU on either path).
    ImGui::Text("CPU skin  %7.3f ms", t.cpu_skin * 1e3);
    ImGui::TextDisabled(
        "  %s, %.0f M vertices/s", skin_isa_name(skin_best_isa()),
        t.cpu_skin > 0.0 ? static_cast<double>(scene.vertices) / t.cpu_skin * 1e-6 : 0.0);
  }
  if (scene.crowd != nullptr) {
    // One crowd frame: pose + palette per palette group on the CPU, one upload of every
    // palette, one instanced draw per mesh.
    const CrowdTimes& c = scene.crowd->times();
    ImGui::Text("crowd %zu instances, %zu palettes", scene.crowd->instances(),
                scene.crowd->palettes_computed());
    state.landmarks.add_last_item("text:Crowd stats");
    ImGui::Text("  pose    %7.3f ms", c.pose * 1e3);
    ImGui::Text("  palette %7.3f ms", c.palette * 1e3);
    ImGui::TextDisabled("  sample, to model, palette | normals%s",
                        state.render.method != SkinMethod::Lbs ? ", method" : "");
    ImGui::Text("  upload  %7.3f ms", scene.crowd_upload_seconds * 1e3);
  }
  ImGui::Text("upload+draw %5.3f ms (CPU)", scene.upload_seconds * 1e3);
  if (is_difference_view(state.render.view) && scene.difference_seconds >= 0.0) {
    ImGui::Text("difference %6.3f ms", scene.difference_seconds * 1e3);
    ImGui::TextDisabled(state.render.view == ViewMode::CpuGpu
                            ? "  GPU read-back, distances (+ the CPU skin)"
                            : "  two CPU skins, distances");
  }
  if (scene.gpu_seconds >= 0.0) ImGui::Text("GPU draws %7.3f ms", scene.gpu_seconds * 1e3);
}

}  // namespace

void inspector_panel(const SceneView& scene, const StatusView& status, ViewerState& state,
                     UiEdits& edits) {
  if (scene.model != nullptr) joint_section(scene, state);
  // The view options before the layer stack: with a joint selected the Joint section fills most
  // of the panel, and the overlay toggles a rigger reaches for most should stay in sight.
  view_section(scene, state, edits);
  if (scene.model != nullptr) layers_section(scene, state);
  if (scene.model != nullptr) morphs_section(scene, state);
  if (scene.model != nullptr) crowd_section(scene, state);
  if (scene.model != nullptr) model_section(scene, state);
  if (scene.model != nullptr) report_section(scene, state);
  performance_section(scene, status, state);
}

}  // namespace sv::ui
