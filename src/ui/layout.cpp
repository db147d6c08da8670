#include "ui/layout.h"

#include <algorithm>
#include <cmath>

namespace sv::ui {

Layout compute_layout(float width, float height, const LayoutPrefs& prefs, float scale) noexcept {
  Layout out;
  if (!(width > 0.0f) || !(height > 0.0f)) return out;
  scale = std::isfinite(scale) && scale > 0.0f ? scale : 1.0f;
  const float strip = kStrip * scale;
  auto finite_or = [](float v, float fallback) { return std::isfinite(v) ? v : fallback; };

  // The timeline first: its height decides how wide the viewport must stay.
  float timeline = strip;
  if (!prefs.timeline_collapsed) {
    timeline = std::clamp(finite_or(prefs.timeline_height, 0.0f), kMinTimeline * scale,
                          std::max(kMinTimeline * scale, kMaxTimelineShare * height));
  }
  timeline = std::min(timeline, kMaxTimelineShare * height);
  const float above = height - timeline;

  // The viewport is `above` tall, so it needs this width for half the window's area.
  const float min_viewport_w = std::min(width, kMinViewportShare * width * height / above);
  const float side_budget = std::max(0.0f, width - min_viewport_w);

  // An open panel's width: the preference, widened to its content when it follows it.
  auto side = [&](float preferred, float content, bool fit) {
    float w = std::max(finite_or(preferred, 0.0f), kMinSidePanel * scale);
    if (fit) w = std::max(w, std::min(finite_or(content, 0.0f), kMaxContentShare * width));
    return w;
  };
  float left = prefs.outliner_collapsed
                   ? strip
                   : side(prefs.outliner_width, prefs.outliner_content, prefs.outliner_fit);
  float right = prefs.inspector_collapsed
                    ? strip
                    : side(prefs.inspector_width, prefs.inspector_content, prefs.inspector_fit);
  // Never wider than the window on their own (a preference can be anything).
  left = std::min(left, width);
  right = std::min(right, width);
  if (left + right > side_budget) {
    // Collapsed strips keep their size while they fit; open panels shrink in proportion.
    const float fixed =
        (prefs.outliner_collapsed ? left : 0.0f) + (prefs.inspector_collapsed ? right : 0.0f);
    if (fixed >= side_budget) {
      const float k = fixed > 0.0f ? side_budget / fixed : 0.0f;
      left = prefs.outliner_collapsed ? left * k : 0.0f;
      right = prefs.inspector_collapsed ? right * k : 0.0f;
    } else {
      const float open =
          (prefs.outliner_collapsed ? 0.0f : left) + (prefs.inspector_collapsed ? 0.0f : right);
      const float k = (side_budget - fixed) / open;
      if (!prefs.outliner_collapsed) left *= k;
      if (!prefs.inspector_collapsed) right *= k;
    }
  }
  // Whole display units, so the panels do not shimmer by a fraction while the window resizes.
  left = std::floor(left);
  right = std::floor(right);
  // The layer rows come last, in what the viewport's half leaves: the side panels were laid out
  // without them, so a row added never moves them (the timeline scrolls what does not fit).
  const float rows = finite_or(prefs.timeline_rows, 0.0f);
  if (!prefs.timeline_collapsed && rows > 0.0f) {
    const float viewport_w = width - left - right;
    const float room =
        viewport_w > 0.0f ? height - kMinViewportShare * width * height / viewport_w : timeline;
    timeline = std::max(timeline, std::min({timeline + rows, room, kMaxTimelineShare * height}));
  }
  timeline = std::floor(timeline);

  out.timeline = Rect{0.0f, height - timeline, width, timeline};
  out.outliner = Rect{0.0f, 0.0f, left, height - timeline};
  out.inspector = Rect{width - right, 0.0f, right, height - timeline};
  out.viewport = Rect{left, 0.0f, std::max(0.0f, width - left - right), height - timeline};
  return out;
}

PixelRect to_pixels(const Rect& r, float scale_x, float scale_y) noexcept {
  const auto x0 = static_cast<int>(std::lround(r.x * scale_x));
  const auto y0 = static_cast<int>(std::lround(r.y * scale_y));
  const auto x1 = static_cast<int>(std::lround(r.right() * scale_x));
  const auto y1 = static_cast<int>(std::lround(r.bottom() * scale_y));
  return PixelRect{x0, y0, std::max(0, x1 - x0), std::max(0, y1 - y0)};
}

}  // namespace sv::ui
