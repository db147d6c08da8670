// The viewer's picking and viewport read-outs: turns the mouse into picks (a click selects the
// joint under the cursor, a hover names the vertex under it) and draws what goes over the 3D
// viewport (the legend of the debug view, "click a joint", the hover tooltip).
//
// A click (ui/viewport.h: a left press and release in the viewport within kClickSlop; a drag
// orbits the camera instead) selects the joint
// the picker finds (gfx/picker.h): an overlay joint near the cursor, else the joint with the
// largest weight at the hit point of the mesh as drawn; a click on nothing clears the selection,
// as in Blender and Maya. Hover picks run while no button is held, when the cursor has moved or
// every kHoverRefreshSeconds while it rests (the pose or camera may have moved under it), and
// never take more than kHoverCostShare of the time: after a pick that took t seconds the next
// hover pick waits t / kHoverCostShare. A pick is one more vertex pass over the meshes: well
// under a millisecond on a GPU, but a quarter of a frame on a software rasteriser at 1M
// vertices (BENCHMARKS.md), where hovering would otherwise halve the frame rate. Clicks always
// pick at once. The tooltip is hidden while the cursor is away from where the hover was picked,
// and there is no hover read-out before the pointer has moved at all: a pointer left resting
// where the window opened gets no tooltip the user did not ask for.
//
// Inputs are the frame's own: the viewport rectangle in framebuffer pixels, the camera's
// matrices, the scene as drawn (the pick runs before this frame's pose is evaluated, so it sees
// exactly the picture on screen). Outputs go to the one selection (ui::Selection) that the
// outliner, the inspector and the viewport share. Nothing allocates per frame.
#pragma once

#include <cmath>
#include <cstdint>
#include <string>

#include <glm/mat4x4.hpp>
#include <glm/vec2.hpp>

#include "gfx/picker.h"
#include "gfx/screen_pick.h"

namespace sv {

struct Scene;
struct RenderOptions;
namespace ui {
struct Selection;
struct ViewerState;
}  // namespace ui

// One frame of the viewport as picking sees it, from the layout's viewport input
// (ui::ViewerState: viewport, input) and the camera.
struct ViewportFrame {
  PixelRect rect;           // framebuffer pixels
  float ui_scale = 1.0f;    // ImGui units per framebuffer pixel (window / framebuffer size)
  glm::vec2 cursor{-1.0f};  // framebuffer pixels
  // The cursor rests over the viewport: not over a panel, no button held (no drag).
  bool hovered = false;
  bool clicked = false;  // a click ended in the viewport this frame, at `cursor`
  double now = 0.0;      // seconds, any steady clock
  glm::mat4 view{1.0f};
  glm::mat4 projection{1.0f};  // for rect's aspect ratio
};

class ViewportPicking {
 public:
  static constexpr double kHoverRefreshSeconds = 0.1;
  static constexpr double kHoverCostShare = 0.2;

  // Builds the picker (needs the GL context); false with `error` on failure.
  bool init(std::string* error);
  // Forgets the hover (a new model).
  void reset() noexcept;

  // Runs the picks this frame needs: a click sets selection.joint (-1 when it hit nothing), a
  // hover the selection's hovered_* fields. `options` says how the scene was drawn (path,
  // skeleton overlay, up axis). True when selection.joint changed.
  bool update(const ViewportFrame& frame, const Scene& scene, const RenderOptions& options,
              ui::Selection& selection);

  const gl::PickResult& hover() const noexcept { return hover_; }
  // The hover read-out for a cursor at `cursor`: null when it was picked elsewhere (the cursor
  // moved since and the next hover pick has not run yet).
  const gl::PickResult* hover_at(const glm::vec2& cursor) const noexcept;

 private:
  gl::PickInput input(const ViewportFrame& frame, const Scene& scene,
                      const RenderOptions& options) const noexcept;

  gl::Picker picker_;
  gl::PickResult hover_;
  glm::vec2 hover_cursor_{-1e9f};
  double hover_time_ = -1e9;
  double hover_next_ = -1e9;     // no hover pick before this time (the cost share)
  glm::vec2 first_cursor_{NAN};  // where the pointer was on the first frame
  bool pointer_moved_ = false;   // it has moved since
  bool ready_ = false;
};

// Draws over the viewport (ImGui, between NewFrame and Render): the legend of state.render.view
// in the corner the model leaves free (ui/legend_place.h: the frame's bounds and the pose's
// joints projected with frame.view and frame.projection; its title row collapses it, and where
// it went is kept in state.legend), "click a joint" in the weights view with nothing selected,
// and the hover tooltip. `hover` may be null (no read-out, e.g. in screenshots).
void draw_viewport_overlay(const Scene& scene, ui::ViewerState& state, const ViewportFrame& frame,
                           const gl::PickResult* hover);

}  // namespace sv
