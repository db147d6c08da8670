// What is drawn over the 3D viewport with ImGui: the legend of the current debug view (what
// each colour means and how many vertices fall in each class), the "click a joint" hint of the
// weights view with nothing selected, and the read-out of what the cursor hovers (the vertex
// under it with its joints and weights, or an overlay joint).
//
// Legends draw into a rectangle the caller gives (ImGui draw-list code), so they work in any
// layout: legend_size() says how big the legend of an input is (collapsed: its title row),
// draw_legend() fills a rectangle of that size, and legend_window() puts it in a small
// undecorated window where ui/legend_place.h placed it, its title row a collapse toggle. All
// numbers come from WeightStats (computed once per model) or, for the difference views, from the
// last comparison's DifferenceStats, and all colours from gfx/view_colors.h, the definitions the
// shaders are built with. Nothing here allocates: text is formatted into stack buffers. Call
// between ImGui::NewFrame() and Render().
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include <imgui.h>

#include <glm/vec3.hpp>

#include "gfx/render_options.h"
#include "skin/surface_hit.h"
#include "ui/landmarks.h"
#include "ui/layout.h"
#include "ui/toast.h"

namespace sv {

struct WeightStats;
struct JointInfluence;
struct DifferenceStats;
struct Model;
struct RigComparison;

namespace ui {

struct LegendInput {
  ViewMode view = ViewMode::Shaded;
  const WeightStats* stats = nullptr;      // of the model shown; null: counts are left out
  std::span<const JointInfluence> joints;  // per joint (joint_influences); may be empty
  std::span<const std::string> names;      // the skeleton's joint names
  int32_t selected_joint = -1;             // -1: none
  int32_t hovered_joint = -1;              // the joint under the cursor (dominant view), -1: none
  // Difference views (app/difference_view.h): the last comparison's figures (null or invalid:
  // none yet, and `problem` says why), the methods compared (CpuGpu: a == b, the drawn one),
  // and the model, for its mesh names.
  const DifferenceStats* difference = nullptr;
  const char* problem = nullptr;
  SkinMethod diff_a = SkinMethod::Lbs, diff_b = SkinMethod::Lbs;
  const Model* model = nullptr;
  // The weight-change view: the comparison shown (skin/rig_compare.h; null: none made yet) and
  // the file A was compared with.
  const RigComparison* comparison = nullptr;
  std::string_view compared_with;
  std::string_view comparing;  // a comparison in progress, with this file ("" none)
  // The dominant view's colour per skeleton joint (gfx/view_colors.h joint_colors, the table the
  // mesh is painted from); a joint outside it is grey.
  std::span<const glm::vec3> joint_colors{};
  bool collapsed = false;  // only the title row (with its disclosure arrow)
};

// The size of the legend of `in` in pixels at the current font (its title row alone when
// in.collapsed); (0, 0) when the view has no legend (Shaded).
ImVec2 legend_size(const LegendInput& in);
// The size of its title row alone (collapsed).
ImVec2 legend_title_size(const LegendInput& in);

// Draws the legend into [min, min + legend_size(in)).
void draw_legend(ImDrawList* list, const ImVec2& min, const LegendInput& in);

// The legend as a small ImGui window at `min` (display units; where ui/legend_place.h put it),
// so the pointer over it belongs to the legend, not the viewport (no orbit, no pick): its title
// row is a toggle, true when clicked this frame (the caller flips in.collapsed's source).
bool legend_window(const ImVec2& min, const LegendInput& in);

// The colour of the swatch beside joint `joint` (weighing `weight` at the vertex) in the hover
// read-out: the heat map's colour of that weight in the weights view (what the mesh shows there),
// the joint's dominant-view colour otherwise.
glm::vec3 hover_swatch_color(ViewMode view, std::span<const glm::vec3> joint_colors, int32_t joint,
                             float weight) noexcept;

// A message centred at the top of the viewport ("click a joint"), wrapped to the viewport's
// width, below `notes` (the hint and the toast: ui/toast.h) where it would overlap them. Records
// it in `marks` ("note:message") and returns its box (display units).
Rect place_viewport_message(const Rect& viewport, const ImVec2& text_size,
                            const ViewportNotes& notes) noexcept;
Rect draw_viewport_message(const ImVec2& viewport_min, const ImVec2& viewport_max,
                           std::string_view text, const ViewportNotes& notes, Landmarks& marks);

// What the cursor hovers, for the read-out.
struct HoverInput {
  enum class Kind : uint8_t { None, Joint, Surface };
  Kind kind = Kind::None;
  int32_t joint = -1;                // Joint: the overlay joint; Surface: the joint picked there
  bool selected = false;             // `joint` is the selected joint already
  float joint_weight = 0.0f;         // Surface: its interpolated weight at the hit point
  std::string_view mesh_name;        // Surface ("" for a mesh without a name)
  uint32_t mesh_index = 0;           // Surface: the mesh's index (names an unnamed mesh)
  ViewMode view = ViewMode::Shaded;  // the view shown: the swatches take its colours
  std::span<const glm::vec3> joint_colors{};  // the dominant view's table (LegendInput's)
  uint32_t vertex = 0;                        // Surface: the nearest vertex (the mesh's index)
  int64_t file_vertex = -1;            // its index in the file (Mesh::source_vertex), -1: same
  VertexInfluences influences;         // Surface: the nearest vertex's
  std::span<const std::string> names;  // the skeleton's joint names
};

// A tooltip by the cursor: "vertex 512 (file 498) of 'body'", then each joint and weight of that
// vertex, then the joint a click selects. Nothing for Kind::None.
void hover_tooltip(const HoverInput& in);

}  // namespace ui
}  // namespace sv
