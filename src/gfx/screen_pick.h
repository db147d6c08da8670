// Screen-space picking maths: the viewport rectangle, the cursor's ray, the projection that
// narrows a view to the one pixel under the cursor, and the skeleton joint nearest the cursor.
// Pure glm, no GL: the picker (gfx/picker.h) and the tests use it alike.
//
// Conventions: a viewport rectangle (PixelRect) and a cursor are in framebuffer pixels with the
// origin at the top-left corner and y down (as GLFW's cursor and ImGui give them, after scaling
// window coordinates to the framebuffer); pixel (i, j) covers [i, i+1) x [j, j+1), so its centre is
// at (i + 0.5, j + 0.5). `view_proj` maps world space to the clip space of the viewport (the
// projection built with the rectangle's aspect ratio). Joints and meshes are in model space and
// go to world space through `world` (the up-axis turn, gfx/camera.h).
#pragma once

#include <cstdint>
#include <span>

#include <glm/mat4x4.hpp>
#include <glm/vec2.hpp>
#include <glm/vec3.hpp>

#include "gfx/render_options.h"  // PixelRect
#include "skin/surface_hit.h"

namespace sv {

// The cursor's position in normalised device coordinates of the rectangle (x right, y up,
// -1..1 across it).
glm::vec2 cursor_ndc(const PixelRect& rect, const glm::vec2& cursor) noexcept;

// World-space ray from the near plane through the cursor (direction towards the far plane, not
// unit). `view_proj` must be invertible.
Ray cursor_ray(const glm::mat4& view_proj, const PixelRect& rect, const glm::vec2& cursor) noexcept;

// The matrix P' = pick * P such that a 1x1 target rendered with P' holds exactly the point of
// the rectangle under the cursor at its one pixel centre: clip space scaled by the rectangle's
// size in pixels about the cursor. Depth is unchanged, so depth testing works as in the view.
glm::mat4 pick_matrix(const PixelRect& rect, const glm::vec2& cursor) noexcept;

// A world point in framebuffer pixels (top-left origin); false when it is behind the eye.
bool project_to_screen(const glm::mat4& view_proj, const PixelRect& rect,
                       const glm::vec3& world_point, glm::vec2* pixel, float* depth) noexcept;

struct JointOnScreen {
  int32_t joint = -1;        // -1: none within the radius
  float distance_px = 0.0f;  // from the cursor to the projected joint
};

// The joint whose origin (model_matrices[j] column 3, through `world`) projects nearest to the
// cursor, if within `radius_px` pixels; on a tie the one nearer the eye. Joints behind the eye
// or outside the rectangle are not candidates.
JointOnScreen nearest_joint_on_screen(const glm::mat4& view_proj, const glm::mat4& world,
                                      std::span<const glm::mat4> model_matrices,
                                      const PixelRect& rect, const glm::vec2& cursor,
                                      float radius_px) noexcept;

}  // namespace sv
