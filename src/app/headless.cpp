// The headless timing modes: --bench-frames (how fast a frame is, per stage) and --soak (load
// models in turn and play them for a long time, switching clips and skinning paths, watching
// resident memory and GL errors). Both render into an offscreen target of a hidden window.
#include <malloc.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include <GLFW/glfw3.h>
#include "gfx/gl.h"  // before GLFW
#include "skin/skinning.h"

#include "app/app_common.h"
#include "app/cli.h"
#include "app/crowd_frame.h"
#include "app/frame.h"
#include "app/viewer.h"
#include "app/viewer_scene.h"
#include "gfx/camera.h"
#include "gfx/capture.h"
#include "gfx/renderer.h"

namespace sv {
namespace {
using Clock = std::chrono::steady_clock;
}  // namespace

int run_bench_frames(const Options& options, const ViewerOptions& viewer) {
  int width = 0, height = 0;
  if (!parse_size(viewer.size, &width, &height))
    return bad_input("bad --size '" + viewer.size + "' (want WxH)");
  HeadlessScene h;
  if (int status = open_headless_scene(options, "bench-frames", width, height, &h); status >= 0) {
    return status;
  }
  HeadlessGl& gl = *h.gl;
  Scene& s = *h.scene;
  const int32_t clip = h.clip;
  RenderOptions ro;
  ro.gpu_skinning = gl::gpu_skinning_for(viewer.skinning, gl.renderer().software());
  ro.method = skin_method_of(options);
  ro.influences = options.influences;
  ro.show_back_faces = viewer.back_faces;
  // Timed frames skin with CoR from the first one.
  if (ro.method == SkinMethod::Cor) {
    if (!wait_for_centers(s, ro.influences))
      return bad_input(options.model +
                       ": the centres of rotation cannot be computed for this model");
  }
  s.play.player = Player{};
  s.play.player.clip = clip;
  s.frame.bounds = s.bounds_of(clip);  // framed (and the crowd spaced) on the clip's bounds
  gl.renderer().prepare(s.doc.model);
  CrowdRequest crowd;
  if (std::string e = parse_crowd_options(viewer.crowd, viewer.skinning, &crowd); !e.empty())
    return bad_input(e);
  FrameChoices choices;
  choices.render = &ro;
  choices.crowd = &crowd;
  OrbitCamera camera;
  DrawTarget target = whole_target(gl.renderer(), camera, width, height);
  if (crowd.on) {
    // Laid out by an untimed frame that draws nothing, so the framing holds the whole crowd.
    DrawTarget layout = target;
    layout.camera = nullptr;
    FrameState untimed;
    if (const Frame& f = run_frame(s, choices, FrameClock::fixed(0.0), layout, untimed);
        !f.crowd_error.empty())
      return bad_input(std::string(f.crowd_error));
  }
  frame_scene(s, camera, ro, static_cast<float>(width) / static_cast<float>(height));

  // Fixed 60 Hz steps, so every run plays the same poses. glFinish each frame: the figure is
  // what a frame really costs, GPU included, not how fast commands can be queued.
  StageTimes sum;
  double draw = 0.0, finish = 0.0;
  double crowd_pose = 0.0, crowd_palette = 0.0, crowd_upload = 0.0;
  FrameState frames;
  const auto start = Clock::now();
  for (int frame = 0; frame < viewer.bench_frames; ++frame) {
    const Frame& f = run_frame(s, choices, FrameClock::fixed(1.0 / 60.0), target, frames);
    sum.pose += f.times.pose;
    sum.normals += f.times.normals;
    sum.cpu_skin += ro.gpu_skinning ? 0.0 : f.times.cpu_skin;
    if (crowd.on) {
      crowd_pose += s.frame.crowd.times().pose;
      crowd_palette += s.frame.crowd.times().palette;
      crowd_upload += f.crowd_upload_seconds;
    }
    draw += f.draw_seconds;
    const auto t1 = Clock::now();
    glFinish();
    finish += std::chrono::duration<double>(Clock::now() - t1).count();
  }
  const double total = std::chrono::duration<double>(Clock::now() - start).count();

  std::size_t vertices = 0;
  for (const Mesh& m : s.doc.model.meshes) vertices += m.vertex_count();
  const std::string what =
      clip >= 0 ? "'" + s.doc.model.clips[static_cast<std::size_t>(clip)].name() + "'"
                : "the rest pose";
  const double n = viewer.bench_frames, ms = 1000.0 / n;
  const std::string path = ro.gpu_skinning
                               ? std::string("GPU")
                               : std::string("CPU (") + skin_isa_name(skin_best_isa()) + ")";
  std::printf("%s: %d frames of %s, %s skinning, %zu vertices, %zu joints, %dx%d\n",
              options.model.c_str(), viewer.bench_frames, what.c_str(), path.c_str(), vertices,
              s.doc.model.skeleton.size(), width, height);
  std::printf("%.3f s, %.1f frames/s, %.3f ms per frame\n", total, n / total, total * ms);
  std::printf(
      "per frame (ms): pose %.4f  normals %.4f  cpu-skin %.4f  "
      "upload+draw (CPU side) %.4f  GPU wait %.4f\n",
      sum.pose * ms, sum.normals * ms, sum.cpu_skin * ms, draw * ms, finish * ms);
  if (crowd.on) {
    std::printf(
        "crowd: %zu instances, %zu palettes a frame (%s); per frame (ms): pose %.4f  palette "
        "%.4f  upload %.4f\n",
        s.frame.crowd.instances(), s.frame.crowd.palettes_computed(),
        crowd.settings.shared ? "shared" : "one per instance", crowd_pose * ms, crowd_palette * ms,
        crowd_upload * ms);
  }
  return kExitOk;
}

namespace {

// Resident set size in bytes (Linux /proc/self/statm), 0 where unknown. Freed heap is handed
// back to the system first (malloc_trim), so the figure follows what is still allocated rather
// than how glibc's arenas happen to hold on to freed pages.
std::size_t resident_bytes() {
  malloc_trim(0);
  std::FILE* f = std::fopen("/proc/self/statm", "r");
  if (f == nullptr) return 0;
  unsigned long pages = 0, resident = 0;
  const int n = std::fscanf(f, "%lu %lu", &pages, &resident);
  std::fclose(f);
  return n == 2 ? resident * static_cast<std::size_t>(sysconf(_SC_PAGESIZE)) : 0;
}

// Drains GL's error flags; returns how many were set.
int gl_errors() {
  int n = 0;
  while (glGetError() != GL_NO_ERROR && n < 64) ++n;
  return n;
}

}  // namespace

int run_soak(const Options& options, const ViewerOptions& viewer) {
  int width = 0, height = 0;
  if (!parse_size(viewer.size, &width, &height))
    return bad_input("bad --size '" + viewer.size + "' (want WxH)");
  std::vector<std::string> models;
  if (!options.model.empty()) models.push_back(options.model);
  models.insert(models.end(), viewer.more_models.begin(), viewer.more_models.end());
  if (models.empty()) return bad_input("--soak needs at least one model file");

  HeadlessGl gl(width, height);
  if (!gl.ok()) return 1;
  std::unique_ptr<Scene> scene;  // after `gl`: released while the context lives
  int status = 0;
  {
    std::vector<std::size_t> rss;  // resident bytes after each cycle
    rss.reserve(static_cast<std::size_t>(viewer.soak_cycles));
    long errors = 0, frames = 0;
    const auto start = Clock::now();
    for (int cycle = 0; status == 0 && cycle < viewer.soak_cycles; ++cycle) {
      for (const std::string& path : models) {
        // The viewer's own loading code: the previous scene is released only once this one
        // has loaded, exactly as when a user opens files one after another.
        if (std::string e = load_scene(path, &scene, import_options(options)); !e.empty()) {
          status = bad_input(e);
          break;
        }
        Scene& s = *scene;
        RenderOptions ro;
        gl.renderer().prepare(s.doc.model);
        OrbitCamera camera;
        frame_scene(s, camera, ro, static_cast<float>(width) / static_cast<float>(height));
        const int32_t clips = static_cast<int32_t>(s.doc.model.clips.size());
        FrameChoices choices;
        choices.render = &ro;
        const DrawTarget target = whole_target(gl.renderer(), camera, width, height);
        FrameState frame_state;
        for (int f = 0; f < viewer.soak; ++f, ++frames) {
          // Switch clip every 97 frames (the rest pose, -1, included) and the skinning path
          // every 50, so both paths and every clip run in every cycle.
          if (f % 97 == 0) {
            s.play.player.clip = clips == 0 ? -1 : (f / 97) % (clips + 1) - 1;
            s.play.player.time = 0.0;
          }
          ro.gpu_skinning = (f / 50) % 2 == 0;
          run_frame(s, choices, FrameClock::fixed(1.0 / 60.0), target, frame_state);
          glFinish();  // a frame ends as a swap would end it: no work queued across frames
          errors += gl_errors();
        }
      }
      if (status != 0) break;
      rss.push_back(resident_bytes());
      std::printf("cycle %d: %ld frames, resident %.1f MiB, GL errors %ld\n", cycle + 1, frames,
                  static_cast<double>(rss.back()) / (1024.0 * 1024.0), errors);
      std::fflush(stdout);
    }
    scene.reset();
    if (status == 0) {
      const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
      // Growth after the first cycle: caches (shaders, allocator arenas) are warm by then, so
      // what keeps growing is a leak. The driver's threads make single readings jump for a
      // cycle (tens of MiB on llvmpipe), so the floor of the later half of the cycles is
      // compared with the first: a leak raises every later cycle, a transient only one.
      const double mib = 1024.0 * 1024.0;
      const double rss_first = static_cast<double>(rss.front());
      const double rss_floor = static_cast<double>(
          *std::min_element(rss.begin() + static_cast<std::ptrdiff_t>(rss.size() / 2), rss.end()));
      const double growth = rss_floor - rss_first;
      const double slack = std::max(4.0 * mib, 0.02 * rss_first);
      std::printf(
          "soak: %zu model(s), %d cycle(s), %ld frames in %.1f s; resident after cycle 1 "
          "%.1f MiB, lowest of the later half %.1f MiB; %ld GL error(s)\n",
          models.size(), viewer.soak_cycles, frames, seconds, rss_first / mib, rss_floor / mib,
          errors);
      if (errors > 0) {
        std::fprintf(stderr, "skinview: soak: %ld GL error(s)\n", errors);
        status = 1;
      }
      if (viewer.soak_cycles > 1 && growth > slack) {
        std::fprintf(stderr, "skinview: soak: resident memory grew by %.1f MiB after cycle 1\n",
                     growth / mib);
        status = 1;
      }
    }
  }
  return status;
}

}  // namespace sv
