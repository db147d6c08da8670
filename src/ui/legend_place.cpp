#include "ui/legend_place.h"

#include <algorithm>
#include <cmath>

#include <glm/vec4.hpp>

namespace sv::ui {
namespace {

bool meets(const Rect& a, const Rect& b) noexcept {
  return a.w > 0.0f && a.h > 0.0f && b.w > 0.0f && b.h > 0.0f && a.x < b.right() &&
         b.x < a.right() && a.y < b.bottom() && b.y < a.bottom();
}

bool meets_any(const Rect& r, std::span<const Rect> avoid) noexcept {
  for (const Rect& a : avoid)
    if (meets(r, a)) return true;
  return false;
}

bool inside(const Rect& r, const Rect& viewport) noexcept {
  return r.x >= viewport.x && r.y >= viewport.y && r.right() <= viewport.right() &&
         r.bottom() <= viewport.bottom();
}

}  // namespace

const char* corner_name(Corner c) noexcept {
  switch (c) {
    case Corner::BottomRight:
      return "bottom-right";
    case Corner::TopRight:
      return "top-right";
    case Corner::BottomLeft:
      return "bottom-left";
    case Corner::TopLeft:
      return "top-left";
  }
  return "?";
}

bool ScreenBox::overlaps(const Rect& r) const noexcept {
  if (everywhere) return r.w > 0.0f && r.h > 0.0f;
  if (empty()) return false;
  // Closed box: a joint exactly on the legend's edge counts as under it.
  return r.w > 0.0f && r.h > 0.0f && x0 <= r.right() && r.x <= x1 && y0 <= r.bottom() && r.y <= y1;
}

float ScreenBox::overlap_area(const Rect& r) const noexcept {
  if (everywhere) return r.area();
  if (empty()) return 0.0f;
  const float w = std::min(x1, r.right()) - std::max(x0, r.x);
  const float h = std::min(y1, r.bottom()) - std::max(y0, r.y);
  return w > 0.0f && h > 0.0f ? w * h : 0.0f;
}

void screen_box_add(ScreenBox& box, const glm::vec3& p, const glm::mat4& view_proj,
                    const Rect& viewport) noexcept {
  const glm::vec4 c = view_proj * glm::vec4(p, 1.0f);
  if (!(c.w > 1e-6f) || !std::isfinite(c.x) || !std::isfinite(c.y)) {
    box.everywhere = true;
    return;
  }
  // NDC -> pixels, y down.
  const float x = viewport.x + (0.5f + 0.5f * c.x / c.w) * viewport.w;
  const float y = viewport.y + (0.5f - 0.5f * c.y / c.w) * viewport.h;
  box.x0 = std::min(box.x0, x);
  box.x1 = std::max(box.x1, x);
  box.y0 = std::min(box.y0, y);
  box.y1 = std::max(box.y1, y);
}

void screen_box_add_box(ScreenBox& box, const glm::vec3& lo, const glm::vec3& hi,
                        const glm::mat4& view_proj, const Rect& viewport) noexcept {
  for (int i = 0; i < 8; ++i) {
    const glm::vec3 p((i & 1) ? hi.x : lo.x, (i & 2) ? hi.y : lo.y, (i & 4) ? hi.z : lo.z);
    screen_box_add(box, p, view_proj, viewport);
  }
}

Rect corner_rect(const Rect& viewport, Corner corner, const glm::vec2& size,
                 float margin) noexcept {
  const bool right = corner == Corner::BottomRight || corner == Corner::TopRight;
  const bool bottom = corner == Corner::BottomRight || corner == Corner::BottomLeft;
  Rect r;
  r.w = size.x;
  r.h = size.y;
  r.x = right ? viewport.right() - margin - size.x : viewport.x + margin;
  r.y = bottom ? viewport.bottom() - margin - size.y : viewport.y + margin;
  return r;
}

const char* fold_name(LegendFold f) noexcept {
  switch (f) {
    case LegendFold::Auto:
      return "auto";
    case LegendFold::Collapsed:
      return "collapsed";
    case LegendFold::Open:
      return "open";
  }
  return "?";
}

LegendPlace place_legend(const Rect& viewport, const ScreenBox& model, std::span<const Rect> avoid,
                         const glm::vec2& full, const glm::vec2& title, LegendFold fold,
                         float margin) noexcept {
  LegendPlace out;
  auto free_corner = [&](const glm::vec2& size, LegendPlace* place) {
    for (const Corner c : kLegendCorners) {
      const Rect r = corner_rect(viewport, c, size, margin);
      if (inside(r, viewport) && !model.overlaps(r) && !meets_any(r, avoid)) {
        place->rect = r;
        place->corner = c;
        return true;
      }
    }
    return false;
  };
  if (fold != LegendFold::Collapsed && free_corner(full, &out)) return out;
  const bool whole = fold == LegendFold::Open;
  out.collapsed = !whole;
  out.collapsed_to_fit = fold == LegendFold::Auto;
  if (!whole && free_corner(title, &out)) return out;
  // Nowhere free: where it hides the least of the model.
  const glm::vec2 size = whole ? full : title;
  out.over_model = true;
  float least = 1e30f;
  for (const Corner c : kLegendCorners) {
    const Rect r = corner_rect(viewport, c, size, margin);
    const float covered = model.overlap_area(r) + (meets_any(r, avoid) ? 0.5f * r.area() : 0.0f);
    if (covered < least) {
      least = covered;
      out.rect = r;
      out.corner = c;
    }
  }
  return out;
}

}  // namespace sv::ui
