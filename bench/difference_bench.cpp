// difference/view:<0,5,6>/model:<0,1>: one frame's animation work of the window with a
// difference view on (app/difference_view.h, through run_frame, as every frame runs it):
// view 0 the shaded view (the GPU path's pose alone: the frame without a difference view), 5 CPU
// vs GPU (plus a CPU skin, the palettes' upload, skin.vert read back through transform feedback,
// the distances and the values' upload), 6 LBS vs DQS (two CPU skins of the positions on the
// viewer's worker threads, the distances and the values' upload). Model 0 is the default
// character (10,611 vertices, 23 bones), 1 make_model's 100,000-vertex mesh on 60 joints. The
// clip advances 1/60 s per iteration. Needs GL (xvfb-run) and the importer.
#include <benchmark/benchmark.h>

#include <string>

#include "anim/player.h"
#include "app/app_common.h"
#include "app/frame.h"
#include "app/viewer_scene.h"
#include "gl_bench.h"
#include "io/import.h"
#include "synthetic.h"

namespace sv::bench {
namespace {

// The frames compute_frame (app/frame.h) runs here: the pipeline's own, not drawn.
sv::FrameState frames;

void difference(benchmark::State& state) {
  if (!context().ok()) {
    state.SkipWithError("no display or GL 3.3 core context (run under xvfb-run)");
    return;
  }
  Document doc;
  if (state.range(1) == 0) {
    ImportResult r = import_model(std::string(SKINVIEW_SOURCE_DIR) + "/assets/default.glb");
    if (!r.ok()) {
      state.SkipWithError("cannot import assets/default.glb");
      return;
    }
    doc.model = std::move(*r.model);
  } else {
    doc.model = make_model(60, 100000);
  }
  std::unique_ptr<Scene> made = make_scene(std::move(doc));
  Scene& scene = *made;
  scene.play.player.clip = 0;
  RenderOptions ro;
  ro.view = static_cast<ViewMode>(state.range(0));
  const double duration = scene.doc.model.clips[0].duration();
  double t = 0.0;
  compute_frame(scene, ro,
                frames);  // sizes the view's buffers (first use), builds the read-back program
  for (auto _ : state) {
    t = wrap_time(t + 1.0 / 60.0, duration, true);
    scene.play.player.time = t;
    compute_frame(scene, ro, frames);
    if (is_difference_view(ro.view) && !scene.frame.difference.stats.valid)
      state.SkipWithError("the difference view did not run");
  }
  glFinish();
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(difference)
    ->ArgNames({"view", "model"})
    ->ArgsProduct({{0, 5, 6}, {0, 1}})
    ->Unit(benchmark::kMicrosecond)
    ->UseRealTime();

}  // namespace
}  // namespace sv::bench
