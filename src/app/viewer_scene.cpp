#include "app/viewer_scene.h"

#include <algorithm>
#include <cctype>
#include <iterator>
#include <utility>

#include "app/app_common.h"
#include "io/import.h"
#include "skin/clip_bounds.h"

namespace sv {

double Scene::duration() const noexcept {
  if (player.clip < 0 || static_cast<std::size_t>(player.clip) >= model.clips.size()) return 0.0;
  return model.clips[static_cast<std::size_t>(player.clip)].duration();
}

const Bounds& Scene::bounds_of(int32_t clip) {
  const std::size_t clips = model.clips.size();
  if (clip_bounds.size() != clips + 2) {
    clip_bounds.assign(clips + 2, Bounds{});
    clip_bounds_done.assign(clips + 2, 0);
  }
  const std::size_t slot = clip == kBindPose ? clips + 1
                           : clip < 0 || static_cast<std::size_t>(clip) >= clips
                               ? clips
                               : static_cast<std::size_t>(clip);
  if (clip_bounds_done[slot] == 0) {
    const PoseMode mode = slot == clips + 1 ? PoseMode::Bind
                          : slot == clips   ? PoseMode::Rest
                                            : PoseMode::Clip;
    clip_bounds[slot] = sv::clip_bounds(model, static_cast<int32_t>(slot), mode, &skin_pool());
    clip_bounds_done[slot] = 1;
  }
  return clip_bounds[slot];
}

void Scene::VolumeJob::stop() noexcept {
  if (!thread.joinable()) return;
  cancel = true;
  thread.join();
  cancel = false;
  done = false;
}

const VolumeFigures* Scene::volume_of(int32_t clip) {
  const std::size_t clips = model.clips.size();
  if (clip < 0 || static_cast<std::size_t>(clip) >= clips || model.meshes.empty()) return nullptr;
  // One slot per clip, method and influences (4 or 8).
  constexpr std::size_t kMethods = std::size(kSkinMethods) * 2;
  if (volumes.size() != clips * kMethods) {
    volumes.assign(clips * kMethods, VolumeFigures{});
    volumes_done.assign(clips * kMethods, 0);
  }
  const SkinChoice& skin = animator.skin();
  const std::size_t slot = static_cast<std::size_t>(clip) * kMethods +
                           2 * static_cast<std::size_t>(skin.method) +
                           (skin.influences == 8 ? 1 : 0);
  if (volumes_done[slot] != 0) return &volumes[slot];
  VolumeJob& job = volume_job;
  if (job.thread.joinable()) {
    if (job.slot != slot) {
      job.stop();  // another clip or method: its figures are not wanted now
    } else if (job.done) {
      job.thread.join();
      job.done = false;
      volumes[slot] = std::move(job.result);
      volumes_done[slot] = 1;
      return &volumes[slot];
    } else {
      return nullptr;  // still measuring
    }
  }
  job.slot = slot;
  // The thread reads the model and the skin's centres (both kept by the scene, which joins it
  // first) and writes only the job's result and shapes. Single-threaded: skin_pool() is the
  // frame's.
  job.thread = std::thread([this, clip, skin] {
    VolumeJob& j = volume_job;
    if (j.shapes.size() != model.meshes.size()) j.shapes = mesh_shapes(model, {}, &j.cancel);
    j.result = clip_volume_figures(model, clip, skin, j.shapes, {}, &j.cancel, nullptr);
    if (j.cancel) j.shapes.clear();  // a weld cut short is not kept
    j.done = true;
  });
  return nullptr;
}

const VolumeFigures* Scene::wait_for_volume(int32_t clip) {
  const VolumeFigures* v = volume_of(clip);
  if (v == nullptr && volume_job.thread.joinable()) {
    while (!volume_job.done) std::this_thread::yield();
    v = volume_of(clip);
  }
  return v;
}

void set_blend(Scene& scene, const LayerStack& blend, double clock) {
  scene.stack = from_stack(scene.model, blend, clock, scene.player);
}

void advance(Scene& scene, double dt) { scene.stack.advance(scene.model, scene.player, dt); }

bool centers_fit(const Scene& scene, int influences) noexcept {
  const auto& c = scene.centers_for(influences).centers();
  if (c.size() != scene.model.meshes.size()) return false;
  for (std::size_t m = 0; m < c.size(); ++m)
    if (c[m].size() != scene.model.meshes[m].vertex_count()) return false;
  return true;
}

CenterTask& start_centers(Scene& scene, int influences) {
  const bool eight = influences == 8 && scene.has_influences8;
  CenterTask& task = scene.centers_for(eight ? 8 : 4);
  task.start(scene.model, eight);
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
    const int which = choice.influences == 8 && scene.has_influences8 ? 8 : 4;
    CenterTask& task = start_centers(scene, choice.influences);
    if (task.done() && centers_fit(scene, which)) {
      choice.centers = task.centers();
      if (scene.centers_uploaded != which) {
        for (std::size_t m = 0; m < choice.centers.size(); ++m)
          scene.gpu.upload_centers(m, choice.centers[m]);
        scene.centers_uploaded = which;
      }
    } else {
      choice.method = SkinMethod::Lbs;
    }
  }
  scene.animator.set_skin(choice);
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
  auto scene = std::make_unique<Scene>();
  scene->path = path;
  scene->model = std::move(*result.model);
  scene->report = std::move(result.report.notes);
  // The worker's sandbox, as --info prints it: a user sees what the file was read under.
  if (!result.provenance.sandbox.empty())
    scene->report.push_back("Import sandbox: " + result.provenance.sandbox);
  scene->from_cache = result.from_cache;
  if (!result.report.ticks_per_second_note.empty()) {
    scene->report.push_back(result.report.ticks_per_second_note);
  }
  const Model& model = scene->model;
  scene->animator = SkinnedPose(model);
  scene->gpu = gl::GpuModel(model);
  for (const std::string& w : scene->gpu.warnings()) scene->report.push_back(w);
  scene->player.clip = model.clips.empty() ? -1 : 0;
  scene->animator.pose.set_clip(model, scene->player.clip);
  scene->bounds = scene->bounds_of(scene->player.clip);
  scene->z_up = format_is_z_up(path);
  scene->influence = joint_influences(model);
  scene->weight_stats = compute_weight_stats(model);
  scene->has_influences8 = std::any_of(model.meshes.begin(), model.meshes.end(),
                                       [](const Mesh& m) { return m.has_influences8(); });
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
  Bounds b = scene.bounds.transformed(up_axis_matrix(scene.z_up));
  if (!scene.crowd.empty() && b.valid()) {
    b.min += scene.crowd.placement_min();
    b.max += scene.crowd.placement_max();
  }
  return b;
}

}  // namespace sv
