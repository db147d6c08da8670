// Where a debug view's legend goes: in the corner of the viewport that the model leaves free,
// never over the model's projected bounds when any corner can hold it (collapsed to its title
// row if only that fits), and clear of the axis gizmo. Pure maths on rectangles in one pixel
// space (y down, as the viewport's); the app projects the frame's bounds and joints with the
// camera (screen_box_add) and asks place_legend each frame; nothing allocates.
//
// Corners are tried in a fixed order (bottom-right, top-right, bottom-left, top-left: the
// bottom-right was the only place before, and a character stands tall in the middle, so the
// right side is usually free), so the legend does not wander while the model moves within the
// same free corner.
#pragma once

#include <array>
#include <cstdint>
#include <span>

#include <glm/mat4x4.hpp>
#include <glm/vec2.hpp>
#include <glm/vec3.hpp>

#include "ui/layout.h"

namespace sv::ui {

enum class Corner : uint8_t { BottomRight, TopRight, BottomLeft, TopLeft };

// What the user asked of the legend (its title row toggles it): Auto shows it whole where a
// corner is free and as its title row where none is; Collapsed always as its title row; Open
// always whole (a legend collapsed to fit, opened by a click: the user chose to cover the model).
enum class LegendFold : uint8_t { Auto, Collapsed, Open };
const char* fold_name(LegendFold f) noexcept;  // "auto" ...
// The fold after a click on a legend shown collapsed (or not).
inline LegendFold toggled(bool shown_collapsed) noexcept {
  return shown_collapsed ? LegendFold::Open : LegendFold::Collapsed;
}
inline constexpr std::array<Corner, 4> kLegendCorners = {Corner::BottomRight, Corner::TopRight,
                                                         Corner::BottomLeft, Corner::TopLeft};
const char* corner_name(Corner c) noexcept;  // "bottom-right" ...

// A screen box grown point by point: the model's projected bounds.
struct ScreenBox {
  float x0 = 1e30f, y0 = 1e30f, x1 = -1e30f, y1 = -1e30f;
  bool everywhere = false;  // a point behind the camera: the model may cover anything

  bool empty() const noexcept { return !everywhere && (x0 > x1 || y0 > y1); }
  // Whether the box meets `r` (an empty box meets nothing, `everywhere` everything).
  bool overlaps(const Rect& r) const noexcept;
  // The area of `r` the box covers.
  float overlap_area(const Rect& r) const noexcept;
};

// Adds world point `p` seen through `view_proj` into `viewport` (pixels, y down) to `box`; a
// point at or behind the camera's plane sets box.everywhere.
void screen_box_add(ScreenBox& box, const glm::vec3& p, const glm::mat4& view_proj,
                    const Rect& viewport) noexcept;
// The 8 corners of the world box [lo, hi].
void screen_box_add_box(ScreenBox& box, const glm::vec3& lo, const glm::vec3& hi,
                        const glm::mat4& view_proj, const Rect& viewport) noexcept;

// The rectangle of a legend of `size` in `corner` of `viewport`, `margin` in from its edges.
Rect corner_rect(const Rect& viewport, Corner corner, const glm::vec2& size, float margin) noexcept;

struct LegendPlace {
  Rect rect;  // where the legend goes (full or collapsed size)
  Corner corner = Corner::BottomRight;
  bool collapsed = false;         // only the title row is shown (asked, or to fit)
  bool collapsed_to_fit = false;  // collapsed because no corner held the whole legend
  bool over_model = false;        // no corner is free of the model: the least covered one
};

// Places a legend of `full` size (`title` when collapsed) in `viewport`: with LegendFold::Auto,
// the first corner (in kLegendCorners order) where it fits inside the viewport without meeting
// `model` or any of `avoid` (the axis gizmo, the F1 hint); if none, the same for the title row
// alone (collapsed_to_fit); if none either, the title row in the corner where it covers the least
// of the model (over_model). Collapsed places only the title row, Open only the whole legend (each
// in the first free corner, else the least covered one).
LegendPlace place_legend(const Rect& viewport, const ScreenBox& model, std::span<const Rect> avoid,
                         const glm::vec2& full, const glm::vec2& title, LegendFold fold,
                         float margin) noexcept;

}  // namespace sv::ui
