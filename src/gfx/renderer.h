// Renderer: draws a GpuModel in its current pose, the grid floor, the axis gizmo and the
// skeleton overlay, with the programs built from shaders/.
//
// It owns the programs and the overlay line buffer (sized per model by prepare(), so drawing
// allocates nothing). Per frame the caller evaluates the Animator; draw() uploads the palette
// (GPU path) or the CPU-skinned vertices (CPU path) and issues the draw calls.
//
// The meshes have four programs: skin.vert (GPU path) or mesh.vert (CPU path), each for the
// shaded view alone (SV_SHADED_ONLY: the material colour) or for every view. On llvmpipe a branch
// on a uniform costs every vertex what both sides cost, and the debug views' colours were a tenth
// of a 1M-vertex first open's CPU (BENCHMARKS.md round 24). init() builds the one a first frame
// draws by default (shaded, on the path gpu_skinning_for gives `auto` with this driver); the
// others are built at the first draw that needs them (that frame allocates; the frames after it
// do not).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <glm/mat4x4.hpp>
#include <glm/vec3.hpp>
#include <glm/vec4.hpp>

#include "gfx/gpu_model.h"
#include "gfx/objects.h"
#include "gfx/render_options.h"

namespace sv {

struct Model;
class SkinnedPose;
struct OrbitCamera;

namespace gl {

class GpuModel;
class CrowdGpu;

// Whether a GL_RENDERER string names a software rasteriser, one that runs the vertex shader on the
// CPU (Mesa's llvmpipe and softpipe, Google's SwiftShader, Microsoft's GDI "GDI Generic", Apple's
// "Software Renderer"). There the GPU skinning path is the slow one: skin.vert runs as JIT code
// several times slower than the CPU path's kernels (BENCHMARKS.md round 33).
bool is_software_renderer(std::string_view gl_renderer) noexcept;

// --skinning's path: "gpu" or "cpu" as asked; "auto" (the default) the GPU path, except on a
// software rasteriser (`software`), where it is the CPU path. True for the GPU path.
bool gpu_skinning_for(std::string_view skinning, bool software) noexcept;

class Renderer {
 public:
  Renderer() = default;

  // Builds the programs; false with `error` (the GLSL log) when even the embedded copies fail.
  // `warnings` receives the logs of disk shaders that failed and were replaced.
  bool init(std::string* error, std::vector<std::string>* warnings);
  // The driver is a software rasteriser (is_software_renderer of its GL_RENDERER), as init() found.
  bool software() const noexcept { return software_; }

  // Sizes the overlay buffers and per-mesh lookups for `model` (allocates; call on load).
  void prepare(const Model& model);

  // Draws one frame into the bound framebuffer of size width x height. With the CPU path,
  // `animator.skin_cpu()` must have run for this pose.
  void draw(const Model& model, GpuModel& gpu, const SkinnedPose& animator,
            const OrbitCamera& camera, const RenderOptions& options, int width, int height);
  // The same into the viewport rectangle of a framebuffer `framebuffer_height` pixels tall: only
  // that rectangle is cleared and drawn (viewport and scissor), the projection takes its aspect,
  // and the axis gizmo sits in its lower-left corner. The rest of the framebuffer is untouched.
  void draw(const Model& model, GpuModel& gpu, const SkinnedPose& animator,
            const OrbitCamera& camera, const RenderOptions& options, const PixelRect& viewport,
            int framebuffer_height);

  // Crowds (gfx/crowd_gpu.h): while `crowd` is set (and holds instances), the GPU path draws it
  // instead of the single model, each mesh with one instanced draw from the crowd's palettes
  // (uploaded by the caller). The single model's palette is still uploaded (picking reads it);
  // the skeleton overlay shows the single model, which is the crowd's instance 0. The CPU path
  // ignores the crowd. The caller keeps `crowd` alive while set; null turns it off.
  void set_crowd(const CrowdGpu* crowd) noexcept { crowd_ = crowd; }

  // The grid spacing the last draw used, for the UI.
  float grid_spacing() const noexcept { return grid_spacing_; }
  // GPU time of the mesh draws (skinning included) from a timer query a few frames old;
  // negative until one is available.
  double gpu_seconds() const noexcept { return gpu_seconds_; }

  // How many of the four mesh programs have been built so far (init() builds one).
  int mesh_programs_built() const noexcept { return mesh_programs_built_; }
  // What building a mesh program after init() reported: the logs of disk shaders that failed and
  // were replaced, or of a program that could not be built at all (its meshes are then not
  // drawn). Empty while nothing went wrong.
  const std::vector<std::string>& late_problems() const noexcept { return late_problems_; }

 private:
  bool software_ = false;
  struct LineVertex {
    glm::vec3 position;
    glm::vec4 color;
  };
  void draw_lines(GLenum mode, std::size_t first, std::size_t count, float point_size);

  // Uniform locations, looked up once at init().
  struct MeshUniforms {
    GLint world = -1, view_proj = -1, base_color = -1, view_mode = -1, selected_bone = -1;
    GLint light_dir = -1, light_color = -1, sky = -1, ground = -1, lit = -1;
    GLint has_texture = -1, base_texture = -1;
    GLint vertex_base = -1;  // difference views (with skin.vertex_values)
    GLint crowd_records = -1;
    // skin.vert's palettes, method and morphs (-1 in mesh.vert's program); common.vert's
    // u_vertex_values, u_influences and u_compact (both programs).
    SkinUniforms skin;
  };
  struct MeshProgram {
    Program program;
    MeshUniforms u;
    bool tried = false;  // built, or failed to build (not tried again)
  };
  void select_bones(const Model& model, int32_t joint);  // fills selected_bones_
  // The mesh program for the path and view, built at its first use; null when it cannot be built.
  const MeshProgram* mesh_program(bool gpu_path, bool shaded_only);
  bool build_mesh_program(bool gpu_path, bool shaded_only, std::string* error,
                          std::vector<std::string>* warnings);
  void draw_meshes(const Model& model, GpuModel& gpu, const SkinnedPose& animator,
                   const RenderOptions& options, const glm::mat4& view_proj,
                   const glm::vec3& light_dir);

  MeshProgram mesh_programs_[2][2];  // [GPU path][shaded only]
  int mesh_programs_built_ = 0;
  std::vector<std::string> late_problems_;
  Program line_;
  GLint line_view_proj_ = -1;
  GLint line_point_size_ = -1;
  VertexArray line_vao_;
  Buffer line_buffer_;
  std::size_t line_capacity_ = 0;
  std::vector<LineVertex> lines_;  // staging, sized by prepare()
  // Per mesh, the skin bone of the selected joint (-1: the mesh's skin lacks it), for the weights
  // view; recomputed when the selection changes. One entry per mesh, not a joints x meshes table
  // (65,536 x 65,536 within the import limits would be 16 GiB).
  std::vector<int32_t> selected_bones_;
  int32_t bones_selected_for_ = -1;  // the joint selected_bones_ was computed for
  float grid_spacing_ = 1.0f;
  const CrowdGpu* crowd_ = nullptr;
  // GL_TIME_ELAPSED queries in a ring, read when their result is ready, so nothing stalls.
  static constexpr int kTimers = 4;
  Query timers_[kTimers];
  bool timer_pending_[kTimers] = {};
  int timer_next_ = 0;
  double gpu_seconds_ = -1.0;
};

}  // namespace gl
}  // namespace sv
