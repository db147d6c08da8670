// Picker: what is under the cursor in the 3D viewport — a joint of the skeleton overlay, or a
// point of a skinned mesh as it was drawn this frame, with the joint that weighs most there.
//
// Method: an ID pass, as the editors of real-time engines pick (Unreal's hit proxies, Unity's
// scene-view picking, Blender's selection buffer). The meshes are drawn once more, skinned
// exactly as shown — the same vertex shaders with the same palette texture on the GPU path, the
// same streamed CPU-skinned buffer on the CPU path — into a 1x1 RG32UI target (mesh index + 1,
// gl_PrimitiveID) with a depth buffer, through a projection narrowed to the pixel under the
// cursor (screen_pick.h: pick_matrix); one pixel is read back. The hit triangle's three vertices
// are then skinned on the CPU from the frame's palette and the cursor's ray meets them
// (skin/surface_hit.h) for the hit point, its nearest vertex and its joint. Why not a CPU ray
// cast over the skinned positions: the GPU path has no CPU positions (skinning all of them for a
// pick costs what CPU skinning costs, ~3 ms at 1M vertices, a brute-force cast over the
// triangles 15 ms more, and a bounding-volume hierarchy to do better would have to be refitted
// every frame the pose moves), while the ID pass costs one more vertex pass with almost no
// rasterising and reports precisely what the rasteriser showed (depth order, what is on
// screen). On a software rasteriser (llvmpipe) the vertex pass runs on the CPU and the cast would
// be cheaper; on a GPU the pass costs what the frame's skinning does. The figures are in
// BENCHMARKS.md ("Picking"); app/viewport_picking.h spaces hover picks by their measured cost.
//
// Joints come first: when the skeleton overlay is drawn (it is drawn over the mesh), a joint
// whose origin projects within `joint_radius_px` of the cursor wins over the mesh behind it, and
// no ID pass is drawn.
//
// Contract: call pick() after Renderer::draw of the same frame (the palette texture and the CPU
// path's streamed buffers must hold what was drawn), with the same matrices. It binds its own
// framebuffer and restores the previous framebuffer bindings and viewport. Nothing allocates
// per call; the readback waits for the GPU (a pick costs one frame's vertex work on the GPU plus
// that wait: meant for clicks and cursor moves, not for every object every frame).
#pragma once

#include <cstdint>
#include <string>

#include <glm/mat4x4.hpp>
#include <glm/vec2.hpp>

#include "gfx/gpu_model.h"
#include "gfx/objects.h"
#include "gfx/screen_pick.h"
#include "skin/surface_hit.h"

namespace sv {

struct Model;
class SkinnedPose;

namespace gl {

class GpuModel;

struct PickInput {
  const Model* model = nullptr;
  const GpuModel* gpu = nullptr;
  const SkinnedPose* animator = nullptr;  // the pose drawn this frame (palette, model matrices)
  bool gpu_skinning = true;               // which path drew the meshes
  bool skeleton = false;                  // the overlay is shown: its joints can be picked
  bool show_back_faces = false;           // RenderOptions::show_back_faces: no culling at all
  glm::mat4 world{1.0f};                  // model -> world (up_axis_matrix)
  glm::mat4 view{1.0f};                   // world -> eye
  glm::mat4 projection{1.0f};             // eye -> clip, for the rectangle's aspect ratio
  PixelRect rect;                         // the 3D viewport in the framebuffer
  glm::vec2 cursor{0.0f};                 // framebuffer pixels, top-left origin
  float joint_radius_px = 6.0f;
};

struct PickResult {
  enum class Kind : uint8_t { None, Joint, Surface };
  Kind kind = Kind::None;
  // The joint picked: the overlay joint (Joint) or the largest interpolated weight at the hit
  // point (Surface); -1 for None.
  int32_t joint = -1;
  float joint_distance_px = 0.0f;  // Joint: from the cursor to the joint on screen
  SurfaceHit surface;              // Surface only
};

class Picker {
 public:
  Picker() = default;

  // Builds the programs and the 1x1 target; false with `error` when either fails.
  bool init(std::string* error);

  PickResult pick(const PickInput& in);

  // The ID pass alone: the mesh and triangle under the cursor, false when none (or the cursor is
  // outside the rectangle). Exposed for the tests.
  bool id_at(const PickInput& in, uint32_t* mesh, uint32_t* triangle);

 private:
  struct Uniforms {
    GLint world = -1, view_proj = -1, pick_mesh = -1;
    // skin.vert's (-1 in mesh.vert's program but for u_influences and u_compact); the renderer
    // uploaded this frame's morph weights.
    SkinUniforms skin;
  };
  Program skin_;
  Program mesh_;
  Uniforms skin_u_;
  Uniforms mesh_u_;
  Framebuffer fbo_;
  Renderbuffer ids_;
  Renderbuffer depth_;
};

}  // namespace gl
}  // namespace sv
