// Orbit camera: pure maths (glm), no GL.
//
// The camera orbits `target` at `distance`, yaw about world +Y, pitch above the horizon;
// world space is Y-up. Files authored Z-up are turned upright by up_axis_matrix(), applied as
// the model's world transform, so the camera never needs to know the file's convention: the
// axis views (set_view) are Blender's in the file's own frame for both (Front looks along the
// file's forward axis: world -Z, which is a Z-up file's +Y turned upright).
//
// Orthographic: the view volume is a box whose half height is distance * tan(fov_y / 2), the
// perspective frustum's half height at the target, so switching between the two keeps what is
// at the target's depth the same size on screen (Blender does the same); the wheel still changes
// `distance`, which now scales the box.
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include <glm/mat4x4.hpp>
#include <glm/vec2.hpp>
#include <glm/vec3.hpp>

#include "anim/bounds.h"

namespace sv {

// Model space -> world space (Y-up): identity for Y-up files, -90 degrees about X for Z-up.
glm::mat4 up_axis_matrix(bool z_up) noexcept;

// Blender's numpad views: 1 Front, Ctrl+1 Back, 3 Right, Ctrl+3 Left, 7 Top, Ctrl+7 Bottom.
enum class ViewAxis : uint8_t { Front, Back, Right, Left, Top, Bottom };
const char* view_axis_name(ViewAxis axis) noexcept;
// "front", "back", "right", "left", "top", "bottom" (--camera-view); false for anything else.
bool parse_view_axis(const std::string& text, ViewAxis* axis) noexcept;

struct OrbitCamera {
  glm::vec3 target{0.0f};
  float distance = 3.0f;
  float yaw = 0.6f;       // radians about +Y; 0 looks along -Z
  float pitch = 0.25f;    // radians above the horizon, within [-kMaxPitch, kMaxPitch]
  float fov_y = 0.7854f;  // radians
  float radius = 1.0f;    // of the framed scene: the clip planes follow it and the distance
  bool ortho = false;     // orthographic projection (see above)
  // `ortho` was turned on by an axis view, not asked for: orbiting out of the view goes back to
  // perspective (Blender's "Auto Perspective", on by default).
  bool ortho_from_view = false;

  // Looks at `world` from the current direction, far enough to see all of it, and makes it the
  // scene (radius: clip planes, zoom limits).
  void frame(const Bounds& world, float aspect) noexcept;
  // The same for a part of the scene (a joint and what it skins): the scene's radius stays, so
  // the clip planes still hold the whole model around the part.
  void frame_part(const Bounds& world, float aspect) noexcept;
  void orbit(float dx_radians, float dy_radians) noexcept;
  // Moves the target in the view plane by a fraction of the view height.
  void pan(float dx_fraction, float dy_fraction) noexcept;
  // Multiplies the distance (factor < 1 zooms in), kept within [kMinZoom, kMaxZoom] x radius:
  // close enough to look at one joint from inside the mesh, not so close that the near plane
  // (distance x 2e-3) cuts through it, and never so far that the model is a dot. A distance
  // already outside (frame_part on a small joint) is never pushed further out by a zoom in.
  void zoom(float factor) noexcept;
  // Zooms toward a point of the viewport, `ndc` in [-1, 1]^2 (x right, y up): the point at the
  // target's depth under `ndc` stays under it (exactly, in both projections), as Blender's
  // "Zoom to Mouse Position" and Maya do. Returns the factor applied (the clamp may shorten it).
  float zoom_toward(float factor, const glm::vec2& ndc, float aspect) noexcept;
  // Looks along an axis (keeps target and distance); turns orthographic on when it was not
  // (ortho_from_view).
  void set_view(ViewAxis axis) noexcept;
  // Numpad 5: perspective <-> orthographic, asked for (clears ortho_from_view).
  void toggle_ortho() noexcept;
  static constexpr float kMinZoom = 0.05f;
  static constexpr float kMaxZoom = 50.0f;
  static constexpr float kMaxPitch = 1.57079632679f;  // straight down (Top) or up (Bottom)

  glm::vec3 eye() const noexcept;
  // The view's up in world space: +Y tilted by the pitch, so Top and Bottom (pitch +-90
  // degrees) still have one (Top: world -Z up the screen, as Blender's Top has +Y of a Z-up file).
  glm::vec3 up() const noexcept;
  glm::mat4 view() const noexcept;
  glm::mat4 projection(float aspect) const noexcept;
  // Half the view's height at the target's depth (world units): what the viewport's top edge is
  // from its centre, in both projections.
  float half_height() const noexcept;
};

// Whether two cameras show the same view (every field equal): the history skips no-op entries.
bool same_view(const OrbitCamera& a, const OrbitCamera& b) noexcept;

// A short camera history, as Maya's "[" / "]" (undo / redo view change): the views left behind
// by each camera move (a drag, a run of wheel notches, an axis view, a framing), kSize deep; the
// oldest falls off. Fixed arrays: nothing allocates.
class CameraHistory {
 public:
  static constexpr int kSize = 32;
  // Records `before`, the view a move is leaving; drops the redo list (a new branch). A view
  // equal to the last one recorded is not recorded twice.
  void push(const OrbitCamera& before) noexcept;
  // Back to the last view recorded (`camera` goes to the redo list); false when there is none.
  bool undo(OrbitCamera& camera) noexcept;
  // Forward again; false when nothing was undone.
  bool redo(OrbitCamera& camera) noexcept;
  void clear() noexcept { undo_count_ = redo_count_ = 0; }
  int undo_count() const noexcept { return undo_count_; }
  int redo_count() const noexcept { return redo_count_; }

 private:
  std::array<OrbitCamera, kSize> undo_{};
  std::array<OrbitCamera, kSize> redo_{};
  int undo_count_ = 0, redo_count_ = 0;
};

}  // namespace sv
