// Reading the GPU's skinned vertices back: skin.vert run over a mesh's vertices as points with
// the rasteriser off, its output captured with transform feedback into a buffer and copied to
// the CPU. What the CPU-vs-GPU difference view compares (app/difference_view.h) and what the GL
// tests compare with the CPU kernels: the GPU's actual output under the palettes uploaded to a
// GpuModel, not a second C++ copy of the shader's maths.
//
// VertexCapture is the mechanism for any vertex output (the tests capture the views' colours
// too); SkinReadback is skin.vert built to capture v_model_position, as the renderer's program
// is built otherwise. The capture buffer grows to the largest mesh met (at first use, or a bigger
// model), never per frame. Reading back waits for the GPU (glGetBufferSubData): a cost only
// while the view that needs it is on (BENCHMARKS.md). Needs the context current; GL objects are
// released with the object.
#pragma once

#include <cstddef>
#include <span>
#include <string>

#include <glm/vec3.hpp>

#include "gfx/gpu_model.h"
#include "gfx/objects.h"
#include "skin/skin_method.h"

namespace sv::gl {

class GpuModel;

class VertexCapture {
 public:
  // Runs `program` (linked with one feedback varying of `bytes_per_vertex` bytes) over every
  // vertex of mesh `mesh` of `gpu` with skin.vert's uniforms set for it and `method`, the
  // palettes bound at their units (bind_palettes), and copies the outputs into `out` (the
  // mesh's vertex count times bytes_per_vertex). False, writing nothing, when `out` has another
  // size or the mesh does not exist.
  // `influences` is 4 or 8 (skin.vert's u_influences through influences_uniform: 8 only on a
  // mesh that keeps a second set). `compact`: from the mesh's compact streams (vao_gpu_compact,
  // u_compact 1) where it has them (draws_compact), as the renderer draws when
  // SkinnedPose::compact() holds.
  bool run(GLuint program, const SkinUniforms& u, const GpuModel& gpu, std::size_t mesh,
           SkinMethod method, std::span<std::byte> out, std::size_t bytes_per_vertex,
           int influences = 4, bool compact = false) noexcept;

 private:
  Buffer buffer_;
  std::size_t capacity_ = 0;  // bytes
};

class SkinReadback {
 public:
  // Builds skin.vert with v_model_position captured; false with the GLSL log in `error`.
  bool init(std::string* error);
  bool ready() const noexcept { return static_cast<bool>(program_); }

  // The GPU's skinned model-space positions of mesh `mesh` under the palettes uploaded to `gpu`
  // (and the method palette and centres, for DQS and CoR) with `method`, into `out` (the mesh's
  // vertex count). False, writing nothing, when not ready or the size is wrong. `compact` as in
  // VertexCapture::run.
  bool read(const GpuModel& gpu, std::size_t mesh, SkinMethod method, int influences,
            std::span<glm::vec3> out, bool compact = false) noexcept;

 private:
  Program program_;
  SkinUniforms uniforms_;
  VertexCapture capture_;
};

}  // namespace sv::gl
