// The app's side of crowds (skin/crowd.h, gfx/crowd_gpu.h): the command line's --crowd options,
// and one frame of a crowd for a Scene -- configure when the request, the clip or the model
// changed, pose + palettes per group (on skin_pool()), upload, and hand the GPU buffers to the
// renderer. Called only by run_frame (frame.h, stage 6), the frame of every mode, so what the
// stats show is what the pictures draw.
//
// A crowd is drawn only by the GPU skinning path: its CPU cost is pose + palette per palette
// group and nothing per vertex, which is the point of instancing. While a crowd is on the window
// draws with GPU skinning and says so (its CPU radio button is disabled); the command line
// refuses --crowd with --skinning cpu. Layers and cross-fades shape the single model (instance
// 0's skeleton overlay and picking), not the crowd, whose instances play plain clips.
#pragma once

#include <cstdint>
#include <string>

#include "skin/crowd.h"

namespace CLI {
class App;
}

namespace sv {

struct Scene;
namespace gl {
class Renderer;
}

// The --crowd options as typed (checked by parse_crowd_options).
struct CrowdOptions {
  std::string count;     // --crowd N
  bool shared = false;   // --crowd-shared
  bool cycle = false;    // --crowd-cycle
  bool in_step = false;  // --crowd-in-step: no random phases
  std::string spacing;   // --crowd-spacing D (world units; default automatic)
};
void add_crowd_options(CLI::App& app, CrowdOptions& options);
// "" with *out set (out->on false when --crowd was not given), or the one-line reason.
std::string parse_crowd_options(const CrowdOptions& options, const std::string& skinning,
                                CrowdRequest* out);

// One frame of the scene's crowd at the player's time: turns it off (renderer.set_crowd(null))
// when `request.on` is false; otherwise configures it when needed (allocates then), advances its
// clock by dt, evaluates and uploads, and sets it on the renderer. Returns "" or why the crowd is
// off (also kept in scene.crowd_error). Needs the scene's GL context current.
std::string crowd_frame(Scene& scene, CrowdRequest& request, double dt, gl::Renderer& renderer);

}  // namespace sv
