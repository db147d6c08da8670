#include "ui/outliner.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <string_view>

#include <imgui.h>

#include "anim/blend.h"
#include "anim/model.h"
#include "anim/skeleton.h"
#include "ui/ui.h"
#include "ui/widgets.h"

namespace sv::ui {
namespace {

bool contains_nocase(std::string_view text, std::string_view needle) noexcept {
  if (needle.empty()) return true;
  if (needle.size() > text.size()) return false;
  for (std::size_t i = 0; i + needle.size() <= text.size(); ++i) {
    std::size_t k = 0;
    while (k < needle.size() && std::tolower(static_cast<unsigned char>(text[i + k])) ==
                                    std::tolower(static_cast<unsigned char>(needle[k]))) {
      ++k;
    }
    if (k == needle.size()) return true;
  }
  return false;
}

// Colours of the tree: bones (joints that skin vertices) in the text colour, plain nodes and the
// ancestors a filter shows only for their matching descendants dimmed.
const ImVec4 kPlainNode(0.58f, 0.6f, 0.64f, 1.0f);
const ImVec4 kUnmatched(0.42f, 0.43f, 0.46f, 1.0f);

void meshes_section(const Model& m, Landmarks& marks) {
  char label[64];
  std::snprintf(label, sizeof(label), "Meshes (%zu)###meshes", m.meshes.size());
  Section section(label, "meshes", "header:Meshes", marks, false);
  if (!section) return;
  std::size_t vertices = 0, triangles = 0;
  for (const Mesh& mesh : m.meshes) {
    vertices += mesh.vertex_count();
    triangles += mesh.triangle_count();
  }
  fit_textf("%zu vertices, %zu triangles, %zu materials", vertices, triangles, m.materials.size());
  if (m.meshes.empty()) ImGui::TextDisabled("No mesh: a skeleton-only file.");
  for (std::size_t i = 0; i < m.meshes.size(); ++i) {
    const Mesh& mesh = m.meshes[i];
    const std::string& node = m.skeleton.names[static_cast<std::size_t>(mesh.node)];
    ImGui::Bullet();
    if (mesh.name.empty()) {
      fit_textf("mesh %zu (no name): %zu vertices", i, mesh.vertex_count());
    } else {
      fit_textf("%s: %zu vertices", mesh.name.c_str(), mesh.vertex_count());
    }
    if (mesh.skinned) {
      fit_textf_disabled("    skinned, %zu bones, up to %u influences", mesh.skin_joints.size(),
                         mesh.max_influences);
    } else {
      fit_textf_disabled("    rigid on '%s'", node.c_str());
    }
    // glTF's doubleSided: false (Material::double_sided): drawn from the front only, unless
    // mirrored or "Show back faces" (gfx/face_culling.h). A line of its own: the panel is narrow.
    if (mesh.material >= 0 && static_cast<std::size_t>(mesh.material) < m.materials.size() &&
        !m.materials[static_cast<std::size_t>(mesh.material)].double_sided) {
      // Whether its back faces are culled this frame depends on the frame (the switch, a mirrored
      // joint): the line says what the file says, the tooltip the rule.
      fit_textf_disabled("    single-sided in the file");
      if (ImGui::IsItemHovered())
        ImGui::SetTooltip(
            "glTF material with doubleSided false: drawn from the front only (back faces\n"
            "culled), unless \"Show back faces\" (View) is on or a joint or the up axis\n"
            "mirrors the mesh this frame; then drawn from both sides.");
      marks.add_last_item("text:Single-sided", static_cast<int32_t>(i));
    }
  }
}

// One row of the tree; returns true when the row was clicked (not its arrow). With `mask` (a
// layer's mask being edited, layers_panel.cpp) a check box leads the row: ticked when the joint's
// weight is above 0; a click sets the joint and every joint below it to 1 or 0.
bool joint_row(const SceneView& scene, JointTreeState& t, std::size_t row, int32_t selected,
               std::vector<float>* mask, float indent, Landmarks& marks) {
  const Skeleton& sk = scene.model->skeleton;
  const int32_t j = t.rows[row];
  const auto ju = static_cast<std::size_t>(j);
  const bool filtering = t.filter[0] != '\0';
  const bool leaf = t.first_child[ju] < 0;
  const bool bone = ju < scene.influence.size() && scene.influence[ju].vertices > 0;
  ImGui::PushID(j);
  const float x0 = ImGui::GetCursorPosX();
  if (mask != nullptr) {
    // The mask's check boxes in a column of their own, left of the indented names.
    bool on = mask->empty() || (*mask)[ju] > 0.0f;
    // No frame padding: the box is a text line high, so every row keeps the clipper's height.
    ImGui::PushStyleVar(ImGuiStyleVar_FramePadding, ImVec2(0.0f, 0.0f));
    const bool toggled = ImGui::Checkbox("##mask", &on);
    ImGui::PopStyleVar();
    if (toggled) {
      if (mask->empty()) mask->assign(sk.size(), 1.0f);
      set_subtree(sk.parents, ju, on ? 1.0f : 0.0f, *mask);
    }
    marks.add_last_item("mask", j);
    ImGui::SameLine();
  }
  const float column =
      mask != nullptr ? ImGui::GetFontSize() + ImGui::GetStyle().ItemSpacing.x : 0.0f;
  ImGui::SetCursorPosX(x0 + column + static_cast<float>(t.depth[row]) * indent);
  // The name is drawn over the row after its arrow (fit_text: cut with "..." and whole in a
  // tooltip where the tree is too narrow), so the row lets the text be hovered.
  ImGuiTreeNodeFlags flags = ImGuiTreeNodeFlags_OpenOnArrow | ImGuiTreeNodeFlags_OpenOnDoubleClick |
                             ImGuiTreeNodeFlags_SpanAvailWidth |
                             ImGuiTreeNodeFlags_NoTreePushOnOpen |
                             ImGuiTreeNodeFlags_AllowItemOverlap;
  if (leaf) flags |= ImGuiTreeNodeFlags_Leaf;
  if (j == selected) flags |= ImGuiTreeNodeFlags_Selected;
  ImGui::SetNextItemOpen(filtering || t.expanded[ju] != 0, ImGuiCond_Always);
  // The row's whole width (name and vertex count) is what the panel would need to show it.
  want_width(ImGui::GetTreeNodeToLabelSpacing() + ImGui::CalcTextSize(sk.names[ju].c_str()).x +
             (bone ? ImGui::GetStyle().ItemSpacing.x + ImGui::CalcTextSize("00000").x : 0.0f) +
             ImGui::GetStyle().WindowPadding.x);
  const float label_x = ImGui::GetCursorPosX() + ImGui::GetTreeNodeToLabelSpacing();
  const bool open = ImGui::TreeNodeEx("##joint", flags);
  bool clicked = false;
  if (ImGui::IsItemToggledOpen()) {
    if (!filtering) {
      t.expanded[ju] = open ? 1 : 0;
      t.dirty = true;
    }
  } else if (ImGui::IsItemClicked()) {
    clicked = true;
  }
  marks.add_last_item("joint", j);
  // What follows the name keeps its room: the vertex count, a partial mask weight.
  char count[16] = "";
  if (bone) std::snprintf(count, sizeof(count), "%u", scene.influence[ju].vertices);
  char weight[24] = "";
  if (mask != nullptr && !mask->empty() && (*mask)[ju] > 0.0f && (*mask)[ju] < 1.0f)
    std::snprintf(weight, sizeof(weight), "mask %.2f", (*mask)[ju]);
  const float spacing = ImGui::GetStyle().ItemSpacing.x;
  float after = 0.0f;
  for (const char* text : {count, weight}) {
    if (text[0] != '\0') after += spacing + ImGui::CalcTextSize(text).x;
  }
  ImGui::SameLine(label_x);
  // The name first: where it would keep less than eight characters, the figures make way.
  const float avail = ImGui::GetContentRegionAvail().x;
  const bool figures = after == 0.0f || avail - after >= ImGui::CalcTextSize("00000000").x;
  const bool dim = !t.matched[row] || !bone;
  fit_text(sk.names[ju], std::max(1.0f, avail - (figures ? after : 0.0f)),
           dim ? (t.matched[row] ? kPlainNode : kUnmatched) : ImVec4(0, 0, 0, 0), false);
  marks.add_last_item("joint name", j);
  for (const char* text : {count, weight}) {
    if (!figures || text[0] == '\0') continue;
    ImGui::SameLine();
    ImGui::TextDisabled("%s", text);
  }
  ImGui::PopID();
  return clicked;
}

void joints_section(const SceneView& scene, ViewerState& state) {
  const Skeleton& sk = scene.model->skeleton;
  JointTreeState& t = state.tree;
  char label[64];
  std::snprintf(label, sizeof(label), "Joints (%zu)###joints", sk.size());
  Section section(label, "joints", "header:Joints", state.landmarks);
  if (!section) return;
  ImGui::SetNextItemWidth(-1.0f);
  if (ImGui::InputTextWithHint("##filter", "filter joints by name", t.filter, sizeof(t.filter))) {
    t.dirty = true;
  }
  state.landmarks.add_last_item("input:filter");
  // A selection made elsewhere (the viewport, the inspector's parent button) is revealed: its
  // ancestors open and the list scrolls to it.
  if (state.selection.joint != t.seen_selection) {
    t.seen_selection = state.selection.joint;
    if (state.selection.joint >= 0) {
      expand_to(sk, t, state.selection.joint);
      t.reveal = state.selection.joint;
    }
  }
  if (t.dirty) build_rows(sk, t);
  if (t.filter[0] != '\0') {
    fit_textf_disabled("%zu of %zu joints match", t.matches, sk.size());
  } else {
    fit_text_disabled("bright: skins N vertices; grey: node");
  }
  const float height = std::max(120.0f, ImGui::GetContentRegionAvail().y);
  if (ImGui::BeginChild("tree", ImVec2(0, height), true, ImGuiWindowFlags_HorizontalScrollbar)) {
    const float row_height = ImGui::GetTextLineHeightWithSpacing();
    if (t.reveal >= 0) {
      const auto it = std::find(t.rows.begin(), t.rows.end(), t.reveal);
      if (it != t.rows.end()) {
        const float y = static_cast<float>(it - t.rows.begin()) * row_height;
        const float view = ImGui::GetWindowHeight();
        if (y < ImGui::GetScrollY() || y + row_height > ImGui::GetScrollY() + view) {
          ImGui::SetScrollY(std::max(0.0f, y - 0.5f * view));
        }
      }
      t.reveal = -1;
    }
    std::vector<float>* mask = edited_mask(scene, state);
    // Indented by less than ImGui's tree default: rigs are deep (a hand is 10 levels down). In a
    // narrow panel (800x500) less still, so that the deepest row keeps room for a name of eight
    // characters and its vertex count, down to a quarter of the font's size a level.
    const float font = ImGui::GetFontSize();
    float indent = 0.75f * font;
    if (t.max_depth > 0) {
      const float column = mask != nullptr ? font + ImGui::GetStyle().ItemSpacing.x : 0.0f;
      const float room = ImGui::GetContentRegionAvail().x - column -
                         ImGui::GetTreeNodeToLabelSpacing() - ImGui::CalcTextSize("00000000 000").x;
      indent = std::clamp(room / static_cast<float>(t.max_depth), 0.25f * font, indent);
    }
    ImGuiListClipper clipper;
    clipper.Begin(static_cast<int>(t.rows.size()), row_height);
    int32_t clicked = -1;
    while (clipper.Step()) {
      for (int r = clipper.DisplayStart; r < clipper.DisplayEnd; ++r) {
        if (joint_row(scene, t, static_cast<std::size_t>(r), state.selection.joint, mask, indent,
                      state.landmarks)) {
          clicked = t.rows[static_cast<std::size_t>(r)];
        }
      }
    }
    if (clicked >= 0) {
      state.selection.joint = clicked;
      t.seen_selection = clicked;  // chosen here: no need to reveal it
    }
  }
  ImGui::EndChild();
}

}  // namespace

void JointTreeState::reset(const Skeleton& sk) {
  const std::size_t n = sk.size();
  first_child.assign(n, -1);
  next_sibling.assign(n, -1);
  // Children in file order: walk backwards, pushing each joint at the front of its parent's list.
  for (std::size_t j = n; j-- > 0;) {
    const int32_t p = sk.parents[j];
    if (p < 0) continue;
    next_sibling[j] = first_child[static_cast<std::size_t>(p)];
    first_child[static_cast<std::size_t>(p)] = static_cast<int32_t>(j);
  }
  expanded.assign(n, n <= kOpenAll ? 1 : 0);
  if (n > kOpenAll) {
    for (std::size_t j = 0; j < n; ++j) {
      const int32_t p = sk.parents[j];
      if (p < 0 || sk.parents[static_cast<std::size_t>(p)] < 0) expanded[j] = 1;
    }
  }
  rows.clear();
  depth.clear();
  matched.clear();
  keep.clear();
  visit.clear();
  matches = 0;
  dirty = true;
  reveal = -1;
  seen_selection = -1;
}

void build_rows(const Skeleton& sk, JointTreeState& s) {
  s.rows.clear();
  s.depth.clear();
  s.matched.clear();
  s.matches = 0;
  s.max_depth = 0;
  s.dirty = false;
  const std::size_t n = sk.size();
  if (s.first_child.size() != n) return;  // reset() was not called for this skeleton
  const std::string_view filter(s.filter);
  // keep[j]: 1 matched, 2 on the path to a match; computed children-first (parents come first in
  // the arrays, so a backward loop sees every child before its parent).
  std::vector<uint8_t>& keep = s.keep;
  if (!filter.empty()) {
    keep.assign(n, 0);
    for (std::size_t j = n; j-- > 0;) {
      if (contains_nocase(sk.names[j], filter)) {
        keep[j] = 1;
        ++s.matches;
      }
      const int32_t p = sk.parents[j];
      if (keep[j] != 0 && p >= 0 && keep[static_cast<std::size_t>(p)] == 0) {
        keep[static_cast<std::size_t>(p)] = 2;
      }
    }
  } else {
    s.matches = n;
  }
  // Depth-first, iterative (hierarchies may be 4,096 deep): `visit` holds joints to draw, with
  // their depth beside them.
  auto& visit = s.visit;
  visit.clear();
  for (std::size_t r = n; r-- > 0;) {
    if (sk.parents[r] < 0) visit.emplace_back(static_cast<int32_t>(r), 0);
  }
  while (!visit.empty()) {
    const auto [j, d] = visit.back();
    visit.pop_back();
    const auto ju = static_cast<std::size_t>(j);
    if (!filter.empty() && keep[ju] == 0) continue;
    s.rows.push_back(j);
    s.depth.push_back(d);
    s.max_depth = std::max(s.max_depth, d);
    s.matched.push_back(filter.empty() || keep[ju] == 1 ? 1 : 0);
    if (filter.empty() && s.expanded[ju] == 0) continue;
    // Children pushed in reverse so the first child is drawn first.
    const std::size_t mark = visit.size();
    for (int32_t c = s.first_child[ju]; c >= 0; c = s.next_sibling[static_cast<std::size_t>(c)]) {
      visit.emplace_back(c, static_cast<uint16_t>(d + 1));
    }
    std::reverse(visit.begin() + static_cast<std::ptrdiff_t>(mark), visit.end());
  }
}

void expand_to(const Skeleton& sk, JointTreeState& s, int32_t joint) {
  if (joint < 0 || static_cast<std::size_t>(joint) >= s.expanded.size()) return;
  for (int32_t p = sk.parents[static_cast<std::size_t>(joint)]; p >= 0;
       p = sk.parents[static_cast<std::size_t>(p)]) {
    s.expanded[static_cast<std::size_t>(p)] = 1;
  }
  s.dirty = true;
}

}  // namespace sv::ui

namespace sv::ui {

bool outliner_panel(const SceneView& scene, const StatusView& status, ViewerState& state,
                    UiEdits& edits) {
  bool open = false;
  {
    Section file("File###file", "file", "header:File", state.landmarks);
    if (file) {
      const FileRequest request =
          file_section(scene.path, status.load, state.files, state.landmarks);
      open = request == FileRequest::Open;
      edits.add_animations = request == FileRequest::AddAnimations;
      edits.compare = request == FileRequest::Compare;
    }
  }
  edits.exports = export_section(scene.model != nullptr, status.exports, state.record,
                                 state.export_pose, state.landmarks);
  if (scene.model == nullptr) {
    ImGui::TextWrapped("No model loaded: type a path, browse, or drop a file on the window.");
    return open;
  }
  meshes_section(*scene.model, state.landmarks);
  joints_section(scene, state);
  return open;
}

}  // namespace sv::ui
