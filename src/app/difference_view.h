// The difference views' per-frame work (gfx/render_options.h: ViewMode::CpuGpu, MethodDiff):
// what the window, --screenshot and --record run after posing, when one of them is on.
//
// CPU vs GPU: the pose is skinned on the CPU (Animator::skin_cpu, the kernels the CPU path draws
// with) and on the GPU (skin.vert, read back through transform feedback: gfx/skin_readback.h)
// with the method the scene draws with, both from the compact streams where the frame skins
// from them (SkinnedPose::compact()); the per-vertex distance goes on a log heat ramp
// (gfx/view_colors.h: cpu_gpu_ramp). The GPU side is the shader's actual output under the
// palettes the renderer uploads, so a wrong shader, a wrong upload or a driver bug shows.
//
// Method vs method: the pose skinned on the CPU with RenderOptions::diff_a and diff_b
// (skin/skin_difference.h: MethodDifference), the distance on a linear ramp (method_ramp). CPU
// rather than GPU for both: the kernels are what --dump, the volume figure and the tests
// measure, and they skin any pair in one pass without a second shader run per method.
//
// Each writes one value per vertex (every mesh concatenated) into the GpuModel's value buffer,
// which common.vert paints, and keeps the figures the legend prints. A comparison that cannot
// run (CoR's centres still being computed or impossible for the model, a readback program that
// failed to build) paints the mesh grey and says why in `problem`. Buffers are sized at the first
// update of a scene; nothing allocates after that, and nothing runs while no difference view is on.
#pragma once

#include <cstdint>
#include <vector>

#include <glm/vec3.hpp>

#include "gfx/render_options.h"
#include "gfx/skin_readback.h"
#include "skin/skin_difference.h"
#include "skin/skin_method.h"

namespace sv {

struct Scene;

struct DifferenceView {
  // What the figures describe (the legend reads them).
  DifferenceStats stats;
  ViewMode view = ViewMode::Shaded;
  SkinMethod a = SkinMethod::Lbs, b = SkinMethod::Lbs;  // CpuGpu: both the method compared
  const char* problem = nullptr;                        // set when stats are not valid
  double seconds = -1.0;  // wall time of the last update (the Performance section shows it)

  // Buffers, sized at the first update.
  bool sized = false;
  double model_size = 0.0;    // skin/skin_difference.h: model_size(), once
  gl::SkinReadback readback;  // built at the first CPU-vs-GPU update
  bool readback_failed = false;
  MethodDifference methods;
  std::vector<std::vector<glm::vec3>> gpu_positions;  // per mesh
  std::vector<float> distances;                       // CPU vs GPU, concatenated
  std::vector<float> values;                          // the uploaded ramp values
  // The weight-change view's values depend on the comparison alone: uploaded once per comparison
  // (`uploaded`: the one on the GPU, &values when none was there to show; null after another view
  // has uploaded).
  const void* uploaded = nullptr;
};

// Runs the difference view `options.view` asks for on `scene`'s current pose (run_frame's pose
// stage has run; for CpuGpu with skin_cpu too) and uploads its values; does nothing for other
// views. Needs the scene's GL context current.
void update_difference(Scene& scene, const RenderOptions& options);

}  // namespace sv
