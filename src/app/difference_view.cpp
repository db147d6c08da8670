#include "app/difference_view.h"

#include <algorithm>
#include <chrono>

#include "app/app_common.h"
#include "app/viewer_scene.h"
#include "gfx/view_colors.h"

namespace sv {
namespace {

void size_buffers(DifferenceView& d, const Model& model) {
  d.methods = MethodDifference(model);
  d.gpu_positions.resize(model.meshes.size());
  std::size_t total = 0;
  for (std::size_t m = 0; m < model.meshes.size(); ++m) {
    d.gpu_positions[m].resize(model.meshes[m].vertex_count());
    total += model.meshes[m].vertex_count();
  }
  d.distances.resize(total);
  d.values.resize(total);
  d.model_size = model_size(model);
  d.sized = true;
}

// No comparison: grey mesh, the reason in the legend.
void fail(Scene& scene, const char* why) {
  DifferenceView& d = scene.frame.difference;
  d.stats.valid = false;
  d.problem = why;
  std::fill(d.values.begin(), d.values.end(), -1.0f);
  scene.gpu.upload_vertex_values(d.values);
}

// The values to the GPU; a driver whose texture buffers hold fewer texels than the model has
// vertices cannot show them (GL 3.3 promises 65,536; desktop drivers give 2^27): said in the
// legend.
void upload(Scene& scene) {
  DifferenceView& d = scene.frame.difference;
  if (d.values.empty()) return;  // no mesh (a skeleton-only file): nothing to paint
  if (!scene.gpu.upload_vertex_values(d.values)) {
    d.stats.valid = false;
    d.problem = "more vertices than this driver's texture buffers hold";
  }
}

void cpu_vs_gpu(Scene& scene) {
  DifferenceView& d = scene.frame.difference;
  const Model& model = scene.doc.model;
  const SkinnedPose& animator = scene.frame.animator;
  const SkinMethod method = animator.skin().method;  // LBS while CoR's centres are computed
  d.a = d.b = method;
  if (!d.readback.ready() && !d.readback_failed) d.readback_failed = !d.readback.init(nullptr);
  if (d.readback_failed) return fail(scene, "the read-back shader did not build");
  // The palettes the renderer uploads for this pose, uploaded here first to read the GPU back.
  scene.gpu.upload_palette(animator.pose.palette(), animator.normal_palette());
  if (method != SkinMethod::Lbs) scene.gpu.upload_method_palette(animator.method_palette());
  scene.gpu.upload_morph_weights([&](std::size_t m) { return animator.pose.morph_weights(m); });
  DifferenceStats stats;
  stats.model_size = d.model_size;
  stats.threshold = static_cast<double>(kCpuGpuTolerance) * stats.model_size;
  std::size_t offset = 0;
  for (std::size_t m = 0; m < model.meshes.size(); ++m) {
    const std::span<glm::vec3> gpu = d.gpu_positions[m];
    const std::span<float> dist = std::span<float>(d.distances).subspan(offset, gpu.size());
    offset += gpu.size();
    // The streams the GPU path draws from (compact where the CPU path skinned compact too).
    if (!d.readback.read(scene.gpu, m, method, animator.skin().influences, gpu,
                         animator.compact(m)))
      return fail(scene, "the GPU's vertices could not be read back");
    if (!vertex_distances(animator.skinned_positions(m), gpu, dist))
      return fail(scene, "the CPU path has not skinned this pose");
    accumulate(stats, static_cast<uint32_t>(m), dist);
  }
  stats.valid = true;
  d.stats = stats;
  d.problem = nullptr;
  const double size = std::max(stats.model_size, 1e-30);
  for (std::size_t i = 0; i < d.values.size(); ++i)
    d.values[i] = cpu_gpu_ramp(static_cast<float>(static_cast<double>(d.distances[i]) / size));
  upload(scene);
}

void method_vs_method(Scene& scene, const RenderOptions& options) {
  DifferenceView& d = scene.frame.difference;
  d.a = options.diff_a;
  d.b = options.diff_b;
  const bool cor = d.a == SkinMethod::Cor || d.b == SkinMethod::Cor;
  std::span<const std::vector<glm::vec3>> centers;
  if (cor) {
    // Once; the window polls, --screenshot has waited.
    const int influences = scene.frame.animator.skin().influences;
    const CenterTask& task = start_centers(scene, influences);
    if (!task.done()) return fail(scene, "waiting for the centres of rotation");
    if (!centers_fit(scene, influences))
      return fail(scene, "the centres of rotation cannot be computed for this model");
    centers = task.centers();
  }
  if (!d.methods.run(scene.doc.model, scene.frame.animator, d.a, d.b, centers, &skin_pool()))
    return fail(scene, "this pose cannot be skinned with both methods");
  d.stats = d.methods.stats();
  d.problem = nullptr;
  const std::span<const float> dist = d.methods.distances();
  const double size = std::max(d.stats.model_size, 1e-30);
  for (std::size_t i = 0; i < d.values.size() && i < dist.size(); ++i)
    d.values[i] = method_ramp(static_cast<float>(static_cast<double>(dist[i]) / size));
  upload(scene);
}

// The comparison's per-vertex changes on the weight-change ramp, uploaded when the comparison is
// new (or another view's values were uploaded since): nothing runs per frame.
void weight_change(Scene& scene) {
  DifferenceView& d = scene.frame.difference;
  const RigComparison* c = scene.jobs.comparison.get();
  const void* want = c != nullptr ? static_cast<const void*>(c) : &d.values;
  if (d.uploaded == want) return;
  d.uploaded = want;
  if (c == nullptr) return fail(scene, "nothing compared yet: File > Compare with...");
  std::size_t at = 0;
  for (const std::vector<float>& mesh : c->change)
    for (float v : mesh)
      if (at < d.values.size()) d.values[at++] = weight_change_ramp(v);
  std::fill(d.values.begin() + static_cast<std::ptrdiff_t>(at), d.values.end(), -1.0f);
  DifferenceStats stats;
  stats.valid = true;
  stats.max = c->max_change;
  stats.mesh = c->max_mesh < 0 ? 0u : static_cast<uint32_t>(c->max_mesh);
  stats.vertex = c->max_vertex;
  stats.vertices = c->vertices_compared;
  stats.threshold = c->tolerances.weight;
  stats.over = c->vertices_changed;
  d.stats = stats;
  d.problem = nullptr;
  upload(scene);
}

}  // namespace

void update_difference(Scene& scene, const RenderOptions& options) {
  if (!is_difference_view(options.view)) return;
  DifferenceView& d = scene.frame.difference;
  if (!d.sized) size_buffers(d, scene.doc.model);
  d.view = options.view;
  const auto t0 = std::chrono::steady_clock::now();
  if (options.view == ViewMode::WeightChange) {
    weight_change(scene);
  } else {
    d.uploaded = nullptr;  // these values replace the comparison's on the GPU
    if (options.view == ViewMode::CpuGpu)
      cpu_vs_gpu(scene);
    else
      method_vs_method(scene, options);
  }
  d.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace sv
