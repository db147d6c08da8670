// What the renderer is asked to draw: the view mode and overlays the panels edit. No GL here,
// so the UI (src/ui/) and the command line include this and never the renderer.
#pragma once

#include <cstdint>

#include <glm/vec3.hpp>

#include "skin/skin_method.h"

namespace sv {

enum class ViewMode : int32_t {
  Shaded = 0,
  Weights = 1,
  Dominant = 2,
  Influences = 3,
  WeightSum = 4,
  // Difference views (app/difference_view.h): heat maps of a per-vertex distance.
  CpuGpu = 5,      // the CPU path's vertices against the GPU's, read back
  MethodDiff = 6,  // method diff_a against diff_b, both skinned on the CPU
  // Per vertex, how much its weights changed against another version of the rig ("Compare
  // with...", --compare: skin/rig_compare.h); uploaded once per comparison, not per frame.
  WeightChange = 7,
};

inline bool is_difference_view(ViewMode view) noexcept {
  return view == ViewMode::CpuGpu || view == ViewMode::MethodDiff || view == ViewMode::WeightChange;
}

// A rectangle of the framebuffer in pixels, origin at its top-left corner, y down (as mouse
// positions are); the renderer turns it into GL's bottom-left origin.
struct PixelRect {
  int x = 0, y = 0, width = 0, height = 0;

  bool empty() const noexcept { return width <= 0 || height <= 0; }
  float aspect() const noexcept {
    return height > 0 ? static_cast<float>(width) / static_cast<float>(height) : 1.0f;
  }
  bool contains(double px, double py) const noexcept {
    return px >= x && py >= y && px < x + width && py < y + height;
  }
};

// The axis gizmo's square in the viewport's lower-left corner (the renderer draws it there; the
// legend keeps clear of it).
inline PixelRect axis_gizmo_rect(const PixelRect& viewport) noexcept {
  const int m = viewport.width < viewport.height ? viewport.width : viewport.height;
  int size = m / 7;
  size = size < 56 ? 56 : size > 128 ? 128 : size;
  return PixelRect{viewport.x + 6, viewport.y + viewport.height - 6 - size, size, size};
}

struct RenderOptions {
  bool gpu_skinning = true;
  // The skinning method (skin/skin_method.h) on either path. The scene's Animator builds the
  // method palette for it; CoR draws only once the scene's centres of rotation are known.
  SkinMethod method = SkinMethod::Lbs;
  // 4 or 8 influences per vertex on either path (anim/animator.h SkinChoice; --influences).
  int influences = 4;
  bool wireframe = false;
  // Debug views unlit: each vertex exactly its legend colour. Off (the default), they take the
  // shaded view's light (shaders/mesh.frag), so the form shows under the colours.
  bool flat_colors = false;
  // Draw every triangle from both sides, as the viewer did before it honoured glTF's
  // single-sided materials (the View panel's "Show back faces", --back-faces). Off (the default),
  // a single-sided material's back faces are culled where its winding is not mirrored
  // (gfx/face_culling.h).
  bool show_back_faces = false;
  bool skeleton = false;
  bool grid = true;
  bool axes = true;
  bool z_up = false;
  ViewMode view = ViewMode::Shaded;
  // The pair the method-difference view compares. LBS against DQS by default: LBS is what
  // engines ship and DQS the usual fix, and the pair does not follow `method`, so cycling the
  // drawn method (M) keeps the heat map's meaning.
  SkinMethod diff_a = SkinMethod::Lbs;
  SkinMethod diff_b = SkinMethod::Dqs;
  int32_t selected_joint = -1;  // skeleton joint: heat map and overlay highlight
  int32_t hovered_joint = -1;   // skeleton joint under the cursor: overlay highlight
  glm::vec3 background{0.18f, 0.19f, 0.21f};
  float floor_y = 0.0f;  // world height of the grid (the framed bounds' lowest point)
};

}  // namespace sv
