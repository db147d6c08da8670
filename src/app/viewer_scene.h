// Scene: one loaded model with everything the viewer keeps for it, split by lifetime (Document:
// what the load produced; Playback: what the session chose for it; FrameProducts: what the last
// frame produced; SceneJobs: what is derived from the document on demand), and the loading code
// the UI and the command line share. A load that fails leaves the current scene untouched and
// returns the error, so the viewer keeps showing the previous model and the UI shows why the new
// one did not open.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "anim/animator.h"
#include "anim/layer_stack.h"
#include "anim/model.h"
#include "anim/player.h"
#include "anim/stack_player.h"
#include "app/center_task.h"
#include "app/difference_view.h"
#include "gfx/camera.h"
#include "gfx/crowd_gpu.h"
#include "gfx/gpu_model.h"
#include "io/import.h"
#include "skin/compact_streams.h"
#include "skin/crowd.h"
#include "skin/rig_compare.h"
#include "skin/volume.h"
#include "skin/weight_stats.h"

namespace sv {

// What a load produced: the model and what was learned while reading it. Immutable until the
// next load replaces the whole scene, so the jobs' threads read it without a lock.
struct Document {
  std::string path;
  Model model;
  std::vector<std::string> report;        // import notes, then GPU upload warnings
  bool from_cache = false;                // read from the model cache: the importer did not run
  double unit_metres = 0.0;               // the file's unit (ImportReport::unit_metres)
  bool has_influences8 = false;           // some mesh keeps 8 influences per vertex
  std::vector<JointInfluence> influence;  // per joint: vertices it weighs on, largest weight
  WeightStats weight_stats;               // the legends' counts
  // Per mesh its compact vertex streams (skin/compact_streams.h), the import worker's, shared with
  // the model's meshes (load_compact; encoded at load only for a model without them): both
  // skinning paths read them where SkinnedPose::compact() holds (the frame's SkinnedPose keeps a
  // span of them, the GPU a copy). The vector moves with the document without moving its entries.
  std::vector<CompactStreams> compact;
};

// What the session chose for this model's playback, with the clocks that play it: the clip, its
// time, speed and loop (Player), the layers over it and a cross-fade in progress (StackPlayer:
// the command line's --layer / --crossfade to begin with, then the Layers section's edits) and the
// up axis it is shown with. The rest of the session's choices (selection, view, crowd, method) are
// the window's ViewerState or the command line's options; they outlive a load, these start again
// with each model.
struct Playback {
  Player player;
  StackPlayer stack;
  // Shown upright by rotating -90 degrees about X: the format's convention at load
  // (format_is_z_up), then the Up axis control's or --up's choice.
  bool z_up = false;
};

// What a frame produced (run_frame, app/frame.h): the pose, palettes and skinned vertices, the
// frame's layers, the crowd's instances and their GPU buffers, the difference views, the bounds
// the camera framed. Rewritten by every frame; the panels read them after it.
struct FrameProducts {
  SkinnedPose animator;
  std::vector<Layer> frame_layers;  // the frame's layers, resized when the stack's size changes
  // Crowds (app/crowd_frame.h): the instances' poses and their GPU buffers, empty while no crowd
  // is drawn; configured by crowd_frame() (run_frame's crowd stage) when the request or the
  // player's clip changes.
  Crowd crowd;
  gl::CrowdGpu crowd_gpu;
  std::string crowd_error;            // why the requested crowd is off ("" when none)
  double crowd_upload_seconds = 0.0;  // the last frame's crowd upload (CPU side)
  // The difference views' buffers and figures (app/difference_view.h), sized on first use.
  DifferenceView difference;
  Bounds bounds;  // model space: what the camera framed last (a clip's, see Scene::bounds_of)
};

// A job on a thread of its own, one at a time per kind: `slot` says what it computes, `cancel`
// asks it to stop (the work polls it), `done` is set (and notified) last by the thread. The
// scene's frame thread starts, collects and stops it; nothing else touches it.
struct BackgroundJob {
  std::thread thread;
  std::atomic<bool> cancel{false};
  std::atomic<bool> done{false};
  std::size_t slot = 0;
  bool running() const noexcept { return thread.joinable(); }
  void stop() noexcept;  // cancels a run in progress and waits for it
  void wait() noexcept;  // waits for the run in progress to finish (done), without cancelling
  // A derived job's destructor calls stop() itself: the base's would run after the derived
  // members the thread writes are gone.
};

// What is derived from the document on demand and kept for its life: the clips' bounds, the
// volume figures and CoR's centres of rotation. The long ones run off the frame thread (jobs the
// frame asks for, app/frame.h's jobs stage); the scene joins them before its document goes.
struct SceneJobs {
  // Per clip, then the rest and the bind pose: animated bounds over the whole clip, computed on
  // first use (skin/clip_bounds.h, bounded in counts) and kept. A clip's are a job
  // (Scene::bounds_if_known); the rest and bind pose, one pose each, are computed in the call.
  std::vector<Bounds> clip_bounds;
  std::vector<uint8_t> clip_bounds_done;
  // CoR's centres of rotation: computed on first use (CoR chosen), off the UI thread; uploaded
  // to the GPU once when known.
  CenterTask centers;
  // The same with 8 influences, for a model where some mesh keeps them (has_influences8); a
  // model within the 4-limit uses `centers` for both.
  CenterTask centers8;
  int centers_uploaded = 0;  // the influences of the centres on the GPU: 0 none yet, 4 or 8
  // The volume figures, per clip * 6 + method * 2 + (8 influences): see Scene::volume_of.
  std::vector<VolumeFigures> volumes;
  std::vector<uint8_t> volumes_done;
  // One clip's bounds (slot: the clip's index), read from the const document only.
  struct BoundsJob : BackgroundJob {
    Bounds result;
    ~BoundsJob() { stop(); }
  };
  BoundsJob bounds_job;
  struct VolumeJob : BackgroundJob {
    VolumeFigures result;
    std::vector<MeshShape> shapes;  // per mesh, welded once per model by the first run
    ~VolumeJob() { stop(); }
  };
  // "Compare with..." / --compare: this document (A) against another version of the rig, and that
  // file's path; null when none. The weight-change view paints it (app/difference_view.h).
  std::shared_ptr<const RigComparison> comparison;
  std::string compared_with;
  // The comparison in progress (start_comparison): the other version (shared with the window,
  // which keeps it to compare a reloaded model again) and its path, read by the thread; the
  // thread writes only `result`. Adopted as `comparison` once done (Scene::poll_comparison).
  struct CompareJob : BackgroundJob {
    std::shared_ptr<const Model> b;
    std::string with;
    RigComparison result;
    ~CompareJob() { stop(); }
  };
  CompareJob compare_job;
  // Last: destroyed first, cancelled and joined before the centres it may read go.
  VolumeJob volume_job;
};

// One loaded model, split by lifetime: the document (what the load produced, const), its GPU
// copy, the playback the session chose for it, what the last frame produced, and the jobs
// derived from the document. Members are destroyed in reverse: the jobs are joined first, the
// document goes last.
struct Scene {
  Scene(Document document, gl::GpuModel gpu_model);

  const Document doc;
  gl::GpuModel gpu;  // the meshes' buffers (each uploaded once) and the frame's palettes; after
                     // `doc`, whose meshes its first-use uploads read
  Playback play;
  FrameProducts frame;
  SceneJobs jobs;

  double duration() const noexcept;  // of the player's clip; 0 for the rest pose
  // The model-space bounds of `clip` (an index, kRestPose or kBindPose) over its whole
  // duration, computed once per clip and kept (skin/clip_bounds.h: a bound from the bones' boxes
  // posed over the whole clip, or the clip skinned where it has morph targets; bounded by
  // kBoundsWork). A job, not a pause: for a clip, the first call starts it on a
  // thread of its own (single-threaded, cancellable: a call for another clip cancels it) and
  // returns null while it runs (bounds_pending() true); the rest and bind pose are one pose each
  // and are computed in the call (never null). The window frames the rest pose until the clip's
  // bounds are known (app/camera_control.h, AutoFrame).
  // BoundsStart::WhenIdle waits for another clip's job to end instead (the window's framing
  // does not cancel the Record control's, app/camera_control.h).
  enum class BoundsStart : uint8_t { Replace, WhenIdle };
  const Bounds* bounds_if_known(int32_t clip, BoundsStart start = BoundsStart::Replace);
  // As bounds_if_known, waiting for the job (pictures and the command line).
  const Bounds& bounds_of(int32_t clip);
  bool bounds_pending() const noexcept { return jobs.bounds_job.running(); }
  // The volume change of each closed mesh over `clip` (an index into doc.model.clips) against
  // the rest pose under the method the frame skins with now (skin/volume.h), computed once per
  // clip, method and influences and kept. A job, not a pause: the first call for a slot starts
  // it on a thread of its own (the weld of the meshes' shapes too, once per model) and returns
  // null while it runs (volume_pending() true); the call after it finished returns the figures.
  // A call for another slot cancels the run in progress (VolumeBudget bounds each run in counts:
  // at most 4096 poses and 2^25 poses x vertices per clip, a weld linear in the vertices; the
  // cancel is polled before every pose). Null for a clip out of range or a model without meshes.
  const VolumeFigures* volume_of(int32_t clip);
  // As volume_of, waiting for the run (pictures with --ui: no "measuring" in a picture).
  const VolumeFigures* wait_for_volume(int32_t clip);
  bool volume_pending() const noexcept { return jobs.volume_job.running(); }
  // "Compare with...": compares this document (A) with `b` off the frame thread (skin/
  // rig_compare.h, within CompareBudget's counts, cancellable); a comparison in progress is
  // cancelled first. The comparison shown stays until the new one is adopted.
  void start_comparison(std::shared_ptr<const Model> b, std::string with,
                        const CompareBudget& budget = {});
  // How a comparison run ended: its status and problem (RigComparison) and B's path.
  struct ComparisonEnd {
    CompareStatus status = CompareStatus::Done;
    std::string problem;
    std::string with;
  };
  // Once a frame, never waiting: when the run has ended, adopts it as jobs.comparison if it is
  // done (a cancelled or over-budget one leaves the comparison shown as it was) and says how it
  // ended; nothing while it runs or when none was started.
  std::optional<ComparisonEnd> poll_comparison();
  bool comparison_pending() const noexcept { return jobs.compare_job.running(); }
  // The task whose centres skin with `influences` (4 or 8).
  CenterTask& centers_for(int influences) noexcept {
    return influences == 8 && doc.has_influences8 ? jobs.centers8 : jobs.centers;
  }
  const CenterTask& centers_for(int influences) const noexcept {
    return influences == 8 && doc.has_influences8 ? jobs.centers8 : jobs.centers;
  }
};

// The comparison job without a scene (Scene::start_comparison and poll_comparison call these; a
// test with no GL context calls them on a model of its own): starts comparing `a` with `b` on the
// job's thread, a run in progress cancelled and joined first (it polls the flag in every loop).
// `a` must outlive the run (a scene's document does: the scene joins its jobs first).
void start_comparison(SceneJobs::CompareJob& job, const Model& a, std::shared_ptr<const Model> b,
                      std::string with, const CompareBudget& budget = {});
// The run's outcome once it has ended (the thread joined, the job idle again); nothing while it
// runs or when idle. Never blocks.
std::optional<RigComparison> collect_comparison(SceneJobs::CompareJob& job);

// Sets the scene's skinning method for the next pose (run_frame's jobs stage): CoR starts the
// centres' task on first use and skins with LBS until they are known (then uploads them to the GPU
// once: needs the scene's GL context current). Nothing allocates after the centres are known.
// `influences` (4 or 8, SkinChoice) picks the weights every method skins with and CoR's centres.
void choose_method(Scene& scene, SkinMethod method, int influences = 4);
// The scene's centres for `influences` are known and there is one per vertex of every mesh (false
// while they are computed, and for a model whose meshes the computation refused: then CoR draws
// LBS).
bool centers_fit(const Scene& scene, int influences = 4) noexcept;
// Starts (once) and returns the centres' task CoR skins with under `influences`: the one of 8
// only where some mesh keeps 8 (otherwise the 4's serve both).
CenterTask& start_centers(Scene& scene, int influences);
// Starts the centres for `influences` and waits for them (pictures, not a live view). False when
// they cannot be computed for this model.
bool wait_for_centers(Scene& scene, int influences);

// Plays the command line's `blend` from its clock time `clock`: the player moves to its base
// clip and time, and the layers start at theirs.
void set_blend(Scene& scene, const LayerStack& blend, double clock);

// Advances the player, the layers and a cross-fade by dt seconds (anim/stack_player.h).
void advance(Scene& scene, double dt);

// Builds a scene from an import result (uploads to the GPU: needs a current context). Returns
// null with `error` set when the import failed or the model is inconsistent.
std::unique_ptr<Scene> make_scene(ImportResult&& result, const std::string& path,
                                  std::string* error);

// Builds a scene from a document whose path, model and report are set: fills in what is derived
// from them (up axis, influences, weight figures), uploads the model (needs a current context)
// and poses the first clip. The model must be valid (Model::validate()).
std::unique_ptr<Scene> make_scene(Document doc);

// Imports `path` (in the import worker, waiting for it) and, on success, replaces *current; on
// failure *current is left as it was. Returns the error ("" on success).
std::string load_scene(const std::string& path, std::unique_ptr<Scene>* current,
                       const ImportOptions& options = {});

// Like load_scene, from an import result already made (the tests feed failures through it).
std::string adopt_scene(ImportResult&& result, const std::string& path,
                        std::unique_ptr<Scene>* current);

// The up axis a file's format conventionally uses when assimp leaves it as authored: Z for
// Valve SMD and id MD5 files, Y otherwise (glTF, FBX, COLLADA, X, BVH as assimp returns them).
bool format_is_z_up(const std::string& path) noexcept;

// The world-space bounds the camera frames: model bounds turned upright, over every instance of a
// crowd.
Bounds world_bounds(const Scene& scene) noexcept;

}  // namespace sv
