#include "app/viewport_picking.h"

#include <chrono>

#include <glm/geometric.hpp>

#include "app/viewer_scene.h"
#include "gfx/camera.h"
#include "gfx/render_options.h"
#include "ui/legend_place.h"
#include "ui/viewer_state.h"
#include "ui/viewport_overlay.h"

namespace sv {

bool ViewportPicking::init(std::string* error) {
  ready_ = picker_.init(error);
  return ready_;
}

void ViewportPicking::reset() noexcept {
  hover_ = gl::PickResult();
  hover_cursor_ = glm::vec2(-1e9f);
  hover_time_ = -1e9;
  hover_next_ = -1e9;
}

gl::PickInput ViewportPicking::input(const ViewportFrame& frame, const Scene& scene,
                                     const RenderOptions& options) const noexcept {
  gl::PickInput in;
  in.model = &scene.doc.model;
  in.gpu = &scene.gpu;
  in.animator = &scene.frame.animator;
  in.gpu_skinning = options.gpu_skinning;
  in.skeleton = options.skeleton;
  in.show_back_faces = options.show_back_faces;
  in.world = up_axis_matrix(options.z_up);
  in.view = frame.view;
  in.projection = frame.projection;
  in.rect = frame.rect;
  in.cursor = frame.cursor;
  // A few pixels at the UI's scale: the overlay's joint dots are 5 px.
  in.joint_radius_px = 6.0f / (frame.ui_scale > 0.0f ? frame.ui_scale : 1.0f);
  return in;
}

bool ViewportPicking::update(const ViewportFrame& frame, const Scene& scene,
                             const RenderOptions& options, ui::Selection& selection) {
  if (!ready_) return false;
  const int32_t before = selection.joint;
  if (std::isnan(first_cursor_.x)) first_cursor_ = frame.cursor;
  pointer_moved_ = pointer_moved_ || glm::length(frame.cursor - first_cursor_) >= 1.0f;
  if (frame.clicked && frame.rect.contains(frame.cursor.x, frame.cursor.y)) {
    hover_ = picker_.pick(input(frame, scene, options));
    selection.joint = hover_.joint;  // -1 (nothing under the cursor) clears the selection
    hover_cursor_ = frame.cursor;
    hover_time_ = frame.now;
  } else if (!frame.hovered || !pointer_moved_ ||
             !frame.rect.contains(frame.cursor.x, frame.cursor.y)) {
    // Dragging (orbit, pan), off the viewport or over a panel: no read-out.
    hover_ = gl::PickResult();
    hover_time_ = -1e9;
  } else if (frame.now >= hover_next_ && (glm::length(frame.cursor - hover_cursor_) >= 0.5f ||
                                          frame.now - hover_time_ >= kHoverRefreshSeconds)) {
    const auto t0 = std::chrono::steady_clock::now();
    hover_ = picker_.pick(input(frame, scene, options));
    const double cost =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    hover_cursor_ = frame.cursor;
    hover_time_ = frame.now;
    hover_next_ = frame.now + cost / kHoverCostShare;
  }
  selection.hovered_joint = hover_.joint;
  const bool surface = hover_.kind == gl::PickResult::Kind::Surface;
  selection.hovered_mesh = surface ? static_cast<int32_t>(hover_.surface.mesh) : -1;
  selection.hovered_vertex = surface ? hover_.surface.nearest_vertex : 0;
  return selection.joint != before;
}

const gl::PickResult* ViewportPicking::hover_at(const glm::vec2& cursor) const noexcept {
  return glm::length(cursor - hover_cursor_) <= 2.0f ? &hover_ : nullptr;
}

namespace {

// Framebuffer pixels between the legend and the viewport's edges.
constexpr float kLegendMargin = 6.0f;

// The model's projected bounds in framebuffer pixels: the frame's bounds (the clip's animated
// box, over a crowd's instances too) and every joint of the pose on screen, which may stick out
// of the skin (a finger's end joint).
ui::ScreenBox model_screen_box(const Scene& scene, const RenderOptions& options,
                               const ViewportFrame& frame, const ui::Rect& rect) {
  ui::ScreenBox box;
  const glm::mat4 view_proj = frame.projection * frame.view;
  const Bounds b = world_bounds(scene);
  if (b.valid()) ui::screen_box_add_box(box, b.min, b.max, view_proj, rect);
  const glm::mat4 world = up_axis_matrix(options.z_up);
  for (const glm::mat4& m : scene.frame.animator.pose.model_matrices())
    ui::screen_box_add(box, glm::vec3(world * m[3]), view_proj, rect);
  return box;
}

}  // namespace

void draw_viewport_overlay(const Scene& scene, ui::ViewerState& state, const ViewportFrame& frame,
                           const gl::PickResult* hover) {
  const RenderOptions& options = state.render;
  const float s = frame.ui_scale;
  const ImVec2 min(static_cast<float>(frame.rect.x) * s, static_cast<float>(frame.rect.y) * s);
  const ImVec2 max(static_cast<float>(frame.rect.x + frame.rect.width) * s,
                   static_cast<float>(frame.rect.y + frame.rect.height) * s);
  const Model& model = scene.doc.model;
  ui::LegendInput legend;
  legend.view = options.view;
  legend.stats = &scene.doc.weight_stats;
  legend.joints = scene.doc.influence;
  legend.names = model.skeleton.names;
  legend.selected_joint = options.selected_joint;
  legend.model = &model;
  legend.joint_colors = state.joint_colors;
  legend.comparison = scene.jobs.comparison.get();
  legend.compared_with = scene.jobs.compared_with;
  if (scene.comparison_pending()) legend.comparing = scene.jobs.compare_job.with;
  if (is_difference_view(options.view) && scene.frame.difference.view == options.view) {
    legend.difference = &scene.frame.difference.stats;
    legend.problem = scene.frame.difference.problem;
    legend.diff_a = scene.frame.difference.a;
    legend.diff_b = scene.frame.difference.b;
  } else {
    // Not run for this view yet (the legend is drawn before the frame's comparison).
    legend.diff_a = options.view == ViewMode::CpuGpu ? options.method : options.diff_a;
    legend.diff_b = options.view == ViewMode::CpuGpu ? options.method : options.diff_b;
  }
  if (hover != nullptr && hover->kind == gl::PickResult::Kind::Surface &&
      options.view == ViewMode::Dominant && hover->surface.mesh < model.meshes.size()) {
    // The dominant view paints each triangle flat in its last (provoking) vertex's colour: name
    // that colour.
    legend.hovered_joint =
        vertex_influences(model.meshes[hover->surface.mesh], hover->surface.vertices[2]).joints[0];
  } else if (hover != nullptr) {
    legend.hovered_joint = hover->joint;
  }
  // The legend in the corner the model leaves free (ui/legend_place.h), placed in framebuffer
  // pixels (where the joints project) and drawn in ImGui's display units.
  state.legend.shown = false;
  const ImVec2 full = ui::legend_size(legend);
  if (full.x > 0.0f && s > 0.0f) {
    const ui::Rect rect{static_cast<float>(frame.rect.x), static_cast<float>(frame.rect.y),
                        static_cast<float>(frame.rect.width),
                        static_cast<float>(frame.rect.height)};
    const ui::ScreenBox box = model_screen_box(scene, options, frame, rect);
    const ImVec2 title = ui::legend_title_size(legend);
    // Keep clear of the axis gizmo (lower left) and the "F1: controls" hint (upper left,
    // ui/toast.h; in display units there).
    ui::Rect avoid[2];
    if (options.axes) {
      const PixelRect g = axis_gizmo_rect(frame.rect);
      avoid[0] = ui::Rect{static_cast<float>(g.x), static_cast<float>(g.y),
                          static_cast<float>(g.width), static_cast<float>(g.height)};
    }
    const float line = ImGui::GetTextLineHeight();
    avoid[1] = ui::Rect{rect.x, rect.y, (ImGui::CalcTextSize("F1: controls").x + 2.0f * line) / s,
                        2.0f * line / s};
    const ui::LegendPlace place =
        ui::place_legend(rect, box, avoid, glm::vec2(full.x, full.y) / s,
                         glm::vec2(title.x, title.y) / s, state.legend.fold, kLegendMargin / s);
    legend.collapsed = place.collapsed;
    if (ui::legend_window(ImVec2(std::round(place.rect.x * s), std::round(place.rect.y * s)),
                          legend)) {
      // Shown collapsed (asked, or to fit): open it whole, even over the model (the user chose
      // to); shown whole: collapse it.
      state.legend.fold = ui::toggled(place.collapsed);
    }
    state.legend.shown = true;
    state.legend.rect = place.rect;
    state.legend.model = box.empty() ? ui::Rect{}
                         : box.everywhere
                             ? rect
                             : ui::Rect{box.x0, box.y0, box.x1 - box.x0, box.y1 - box.y0};
    state.legend.corner = ui::corner_name(place.corner);
    state.legend.collapsed = place.collapsed;
    state.legend.collapsed_to_fit = place.collapsed_to_fit;
    state.legend.over_model = place.over_model;
  }
  if (options.view == ViewMode::Weights && options.selected_joint < 0) {
    ui::draw_viewport_message(min, max, "Weights view: click a joint (on the mesh or the skeleton)",
                              state.notes, state.landmarks);
  }
  if (hover == nullptr || hover->kind == gl::PickResult::Kind::None) return;
  ui::HoverInput h;
  h.names = model.skeleton.names;
  h.joint = hover->joint;
  h.selected = hover->joint >= 0 && hover->joint == options.selected_joint;
  h.view = options.view;
  h.joint_colors = state.joint_colors;
  if (hover->kind == gl::PickResult::Kind::Joint) {
    h.kind = ui::HoverInput::Kind::Joint;
  } else if (hover->surface.mesh < model.meshes.size()) {
    const Mesh& mesh = model.meshes[hover->surface.mesh];
    h.kind = ui::HoverInput::Kind::Surface;
    h.joint_weight = hover->surface.joint_weight;
    h.mesh_name = mesh.name;
    h.mesh_index = hover->surface.mesh;
    h.vertex = hover->surface.nearest_vertex;
    if (h.vertex < mesh.source_vertex.size()) h.file_vertex = mesh.source_vertex[h.vertex];
    h.influences = vertex_influences(mesh, h.vertex, options.influences);
  }
  ui::hover_tooltip(h);
}

}  // namespace sv
