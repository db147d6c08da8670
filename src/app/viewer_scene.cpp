#include "app/viewer_scene.h"

#include <algorithm>
#include <cctype>
#include <iterator>
#include <utility>

#include "app/app_common.h"
#include "io/import.h"
#include "skin/clip_bounds.h"

namespace sv {

Scene::Scene(Document document, gl::GpuModel gpu_model)
    : doc(std::move(document)), gpu(std::move(gpu_model)) {}

double Scene::duration() const noexcept {
  const int32_t clip = play.player.clip;
  if (clip < 0 || static_cast<std::size_t>(clip) >= doc.model.clips.size()) return 0.0;
  return doc.model.clips[static_cast<std::size_t>(clip)].duration();
}

void BackgroundJob::stop() noexcept {
  if (!thread.joinable()) return;
  cancel = true;
  thread.join();
  cancel = false;
  done = false;
}

void BackgroundJob::wait() noexcept {
  if (thread.joinable()) done.wait(false);  // the thread sets it last (and notifies)
}

const Bounds* Scene::bounds_if_known(int32_t clip, BoundsStart start) {
  const std::size_t clips = doc.model.clips.size();
  if (jobs.clip_bounds.size() != clips + 2) {
    jobs.clip_bounds.assign(clips + 2, Bounds{});
    jobs.clip_bounds_done.assign(clips + 2, 0);
  }
  const std::size_t slot = clip == kBindPose ? clips + 1
                           : clip < 0 || static_cast<std::size_t>(clip) >= clips
                               ? clips
                               : static_cast<std::size_t>(clip);
  if (jobs.clip_bounds_done[slot] != 0) return &jobs.clip_bounds[slot];
  if (slot >= clips) {
    // The rest or the bind pose: one pose, skinned here.
    const PoseMode mode = slot == clips + 1 ? PoseMode::Bind : PoseMode::Rest;
    jobs.clip_bounds[slot] =
        sv::clip_bounds(doc.model, static_cast<int32_t>(slot), mode, &skin_pool());
    jobs.clip_bounds_done[slot] = 1;
    return &jobs.clip_bounds[slot];
  }
  SceneJobs::BoundsJob& job = jobs.bounds_job;
  if (job.running() && job.done) {
    // Kept whichever clip it was for: a finished job is never thrown away.
    job.thread.join();
    job.done = false;
    jobs.clip_bounds[job.slot] = job.result;
    jobs.clip_bounds_done[job.slot] = 1;
    if (job.slot == slot) return &jobs.clip_bounds[slot];
  }
  if (job.running()) {
    if (job.slot == slot || start == BoundsStart::WhenIdle) return nullptr;  // still sampling
    job.stop();  // another clip: its bounds are not wanted now
  }
  job.slot = slot;
  // The thread reads the document (const; it outlives the job, which the scene joins first) and
  // writes only the job's result. Single-threaded: skin_pool() is the frame's.
  const Model& model = doc.model;
  job.thread = std::thread([&job, &model, clip] {
    job.result = sv::clip_bounds(model, clip, PoseMode::Clip, nullptr, &job.cancel);
    job.done = true;
    job.done.notify_all();
  });
  return nullptr;
}

const Bounds& Scene::bounds_of(int32_t clip) {
  const Bounds* b = bounds_if_known(clip);
  if (b == nullptr) {
    jobs.bounds_job.wait();
    b = bounds_if_known(clip);
  }
  return *b;
}

const VolumeFigures* Scene::volume_of(int32_t clip) {
  const Model& model = doc.model;
  const std::size_t clips = model.clips.size();
  if (clip < 0 || static_cast<std::size_t>(clip) >= clips || model.meshes.empty()) return nullptr;
  // One slot per clip, method and influences (4 or 8).
  constexpr std::size_t kMethods = std::size(kSkinMethods) * 2;
  std::vector<VolumeFigures>& volumes = jobs.volumes;
  std::vector<uint8_t>& volumes_done = jobs.volumes_done;
  if (volumes.size() != clips * kMethods) {
    volumes.assign(clips * kMethods, VolumeFigures{});
    volumes_done.assign(clips * kMethods, 0);
  }
  const SkinChoice& skin = frame.animator.skin();
  const std::size_t slot = static_cast<std::size_t>(clip) * kMethods +
                           2 * static_cast<std::size_t>(skin.method) +
                           (skin.influences == 8 ? 1 : 0);
  if (volumes_done[slot] != 0) return &volumes[slot];
  SceneJobs::VolumeJob& job = jobs.volume_job;
  if (job.thread.joinable()) {
    if (job.slot != slot) {
      job.stop();  // another clip or method: its figures are not wanted now
    } else if (job.done) {
      job.thread.join();
      job.done = false;
      volumes[slot] = std::move(job.result);
      // Formatted once here, so the inspector shows them every frame without allocating.
      VolumeFigures& v = volumes[slot];
      v.lines.push_back(volume_sampling_line(v));
      for (std::size_t m = 0; m < v.meshes.size(); ++m) v.lines.push_back(mesh_volume_line(v, m));
      volumes_done[slot] = 1;
      return &volumes[slot];
    } else {
      return nullptr;  // still measuring
    }
  }
  job.slot = slot;
  // The thread reads the document (const) and the skin's centres (both outlive the job, which
  // the scene joins first) and writes only the job's result and shapes. Single-threaded:
  // skin_pool() is the frame's.
  job.thread = std::thread([&job, &model, clip, skin] {
    if (job.shapes.size() != model.meshes.size()) job.shapes = mesh_shapes(model, {}, &job.cancel);
    job.result = clip_volume_figures(model, clip, skin, job.shapes, {}, &job.cancel, nullptr);
    if (job.cancel) job.shapes.clear();  // a weld cut short is not kept
    job.done = true;
    job.done.notify_all();
  });
  return nullptr;
}

const VolumeFigures* Scene::wait_for_volume(int32_t clip) {
  const VolumeFigures* v = volume_of(clip);
  SceneJobs::VolumeJob& job = jobs.volume_job;
  if (v == nullptr && job.running()) {
    job.wait();
    v = volume_of(clip);
  }
  return v;
}

void start_comparison(SceneJobs::CompareJob& job, const Model& a, std::shared_ptr<const Model> b,
                      std::string with, const CompareBudget& budget) {
  job.stop();          // another version, or the same again: the run in progress is not wanted now
  job.cancel = false;  // set by hand on a run that ended before it was collected
  job.b = std::move(b);
  job.with = std::move(with);
  job.thread = std::thread([&job, &a, budget] {
    job.result = compare_rigs(a, *job.b, {}, budget, &job.cancel);
    job.done = true;
    job.done.notify_all();
  });
}

std::optional<RigComparison> collect_comparison(SceneJobs::CompareJob& job) {
  if (!job.running() || !job.done) return std::nullopt;
  job.thread.join();
  job.done = false;
  return std::move(job.result);
}

void Scene::start_comparison(std::shared_ptr<const Model> b, std::string with,
                             const CompareBudget& budget) {
  sv::start_comparison(jobs.compare_job, doc.model, std::move(b), std::move(with), budget);
}

std::optional<Scene::ComparisonEnd> Scene::poll_comparison() {
  std::optional<RigComparison> r = collect_comparison(jobs.compare_job);
  if (!r) return std::nullopt;
  ComparisonEnd end{r->status, r->problem, jobs.compare_job.with};
  if (r->status == CompareStatus::Done) {
    jobs.comparison = std::make_shared<const RigComparison>(std::move(*r));
    jobs.compared_with = jobs.compare_job.with;
  }
  return end;
}

void set_blend(Scene& scene, const LayerStack& blend, double clock) {
  scene.play.stack = from_stack(scene.doc.model, blend, clock, scene.play.player);
}

void advance(Scene& scene, double dt) {
  scene.play.stack.advance(scene.doc.model, scene.play.player, dt);
}

bool centers_fit(const Scene& scene, int influences) noexcept {
  const auto& c = scene.centers_for(influences).centers();
  if (c.size() != scene.doc.model.meshes.size()) return false;
  for (std::size_t m = 0; m < c.size(); ++m)
    if (c[m].size() != scene.doc.model.meshes[m].vertex_count()) return false;
  return true;
}

CenterTask& start_centers(Scene& scene, int influences) {
  const bool eight = influences == 8 && scene.doc.has_influences8;
  CenterTask& task = scene.centers_for(eight ? 8 : 4);
  task.start(scene.doc.model, eight);
  return task;
}

bool wait_for_centers(Scene& scene, int influences) {
  start_centers(scene, influences).wait();
  return centers_fit(scene, influences);
}

void choose_method(Scene& scene, SkinMethod method, int influences) {
  SkinChoice choice;
  choice.method = method;
  choice.influences = influences == 8 ? 8 : 4;
  if (method == SkinMethod::Cor) {
    const int which = choice.influences == 8 && scene.doc.has_influences8 ? 8 : 4;
    CenterTask& task = start_centers(scene, choice.influences);
    if (task.done() && centers_fit(scene, which)) {
      choice.centers = task.centers();
      if (scene.jobs.centers_uploaded != which) {
        for (std::size_t m = 0; m < choice.centers.size(); ++m)
          scene.gpu.upload_centers(m, choice.centers[m]);
        scene.jobs.centers_uploaded = which;
      }
    } else {
      choice.method = SkinMethod::Lbs;
    }
  }
  scene.frame.animator.set_skin(choice);
}

std::unique_ptr<Scene> make_scene(ImportResult&& result, const std::string& path,
                                  std::string* error) {
  if (!result.ok()) {
    *error = result.error.empty() ? "cannot open " + path : result.error;
    return nullptr;
  }
  if (std::string why = result.model->validate(); !why.empty()) {
    *error = path + ": " + why;
    return nullptr;
  }
  Document doc;
  doc.path = path;
  doc.model = std::move(*result.model);
  doc.report = std::move(result.report.notes);
  // The worker's sandbox, as --info prints it: a user sees what the file was read under.
  if (!result.provenance.sandbox.empty())
    doc.report.push_back("Import sandbox: " + result.provenance.sandbox);
  doc.from_cache = result.from_cache;
  doc.unit_metres = result.report.unit_metres;
  if (!result.report.ticks_per_second_note.empty()) {
    doc.report.push_back(result.report.ticks_per_second_note);
  }
  return make_scene(std::move(doc));
}

std::unique_ptr<Scene> make_scene(Document doc) {
  doc.influence = joint_influences(doc.model);
  doc.weight_stats = compute_weight_stats(doc.model);
  doc.has_influences8 = std::any_of(doc.model.meshes.begin(), doc.model.meshes.end(),
                                    [](const Mesh& m) { return m.has_influences8(); });
  // The compact streams the import worker stored with each mesh (model format 12), borrowed
  // where the model is: a cache entry's mapping or the worker's output, read in place
  // (BENCHMARKS.md, round 25). Encoded here, over the frame's pool, only for a model that keeps
  // none: one built in memory by a test or a tool, without the worker (36 ms of CPU on 1M
  // vertices: BENCHMARKS.md, "the window on the compact streams").
  doc.compact = load_compact(doc.model, &skin_pool());
  // Keeps a span of the model's meshes for its first-use uploads (gfx/gpu_model.h), none of the
  // streams: moving the document moves its mesh vector without moving the meshes.
  gl::GpuModel gpu(doc.model, doc.compact);
  for (const std::string& w : gpu.warnings()) doc.report.push_back(w);
  auto scene = std::make_unique<Scene>(std::move(doc), std::move(gpu));
  const Model& model = scene->doc.model;
  scene->frame.animator = SkinnedPose(model);
  // The document's streams, where they stay until the scene goes (the pose goes first).
  scene->frame.animator.set_compact(model, scene->doc.compact);
  scene->play.player.clip = model.clips.empty() ? -1 : 0;
  scene->play.z_up = format_is_z_up(scene->doc.path);
  scene->frame.animator.pose.set_clip(model, scene->play.player.clip);
  // The rest pose frames at once; the clip's bounds are a job started now (bounds_if_known),
  // which pictures wait for and the window reframes on when it ends (AutoFrame).
  scene->frame.bounds = *scene->bounds_if_known(kRestPose);
  scene->bounds_if_known(scene->play.player.clip);
  return scene;
}

std::string adopt_scene(ImportResult&& result, const std::string& path,
                        std::unique_ptr<Scene>* current) {
  std::string error;
  std::unique_ptr<Scene> scene = make_scene(std::move(result), path, &error);
  if (scene) *current = std::move(scene);
  return error;
}

std::string load_scene(const std::string& path, std::unique_ptr<Scene>* current,
                       const ImportOptions& options) {
  return adopt_scene(import_model(path, options), path, current);
}

bool format_is_z_up(const std::string& path) noexcept {
  const std::size_t dot = path.find_last_of('.');
  if (dot == std::string::npos) return false;
  std::string ext = path.substr(dot + 1);
  for (char& ch : ext) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  return ext == "smd" || ext == "md5mesh" || ext == "md5anim";
}

Bounds world_bounds(const Scene& scene) noexcept {
  Bounds b = scene.frame.bounds.transformed(up_axis_matrix(scene.play.z_up));
  if (!scene.frame.crowd.empty() && b.valid()) {
    b.min += scene.frame.crowd.placement_min();
    b.max += scene.frame.crowd.placement_max();
  }
  return b;
}

}  // namespace sv
