#include "skin/clip_bounds.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "anim/model.h"
#include "skin/skinned_pose.h"

namespace sv {

int bounds_samples(double duration, std::size_t keys, std::size_t vertices) noexcept {
  if (!(duration > 0.0) || !std::isfinite(duration)) return 1;
  const double wanted = std::ceil(duration * kBoundsRate) + 1.0 + static_cast<double>(keys);
  const double by_work =
      vertices > 0 ? static_cast<double>(kBoundsWork) / static_cast<double>(vertices) : 1e9;
  const double n = std::min({wanted, by_work, static_cast<double>(kMaxBoundsSamples)});
  return static_cast<int>(std::max(2.0, n));
}

Bounds clip_bounds(const Model& model, int32_t clip, PoseMode mode, WorkerPool* pool,
                   const std::atomic<bool>* cancel) {
  SkinnedPose a(model);
  const bool has_clip =
      mode == PoseMode::Clip && clip >= 0 && static_cast<std::size_t>(clip) < model.clips.size();
  a.pose.set_clip(model, has_clip ? clip : -1);
  if (mode == PoseMode::Clip && !has_clip) mode = PoseMode::Rest;
  std::size_t vertices = 0;
  for (const Mesh& m : model.meshes) vertices += m.vertex_count();
  const ClipRuntime* c = has_clip ? &model.clips[static_cast<std::size_t>(clip)] : nullptr;
  const double duration = c != nullptr ? c->duration() : 0.0;
  // The times to pose at: every key time, then the 30 Hz grid; thinned evenly to the cap.
  std::vector<double> times;
  if (c != nullptr) {
    for (std::size_t j = 0; j < c->joints(); ++j) {
      for (TrackPath path : {TrackPath::Translation, TrackPath::Rotation, TrackPath::Scale}) {
        const std::span<const double> k = c->key_times(j, path);
        times.insert(times.end(), k.begin(), k.end());
      }
    }
    std::sort(times.begin(), times.end());
    times.erase(std::unique(times.begin(), times.end()), times.end());
    const std::size_t keys = times.size();
    const auto cap = static_cast<std::size_t>(bounds_samples(duration, keys, vertices));
    // The 30 Hz grid, or `cap` evenly spread times when it has more (a clip of 8.5e7 s would
    // otherwise ask for 2.5e9 of them before thinning).
    const double wanted = std::isfinite(duration) ? std::ceil(duration * kBoundsRate) + 1.0 : 2.0;
    if (wanted <= static_cast<double>(cap)) {
      const auto grid = static_cast<std::size_t>(wanted);
      for (std::size_t i = 0; i < grid; ++i)
        times.push_back(std::min(duration, static_cast<double>(i) / kBoundsRate));
    } else {
      for (std::size_t i = 0; i < cap; ++i)
        times.push_back(duration * static_cast<double>(i) / static_cast<double>(cap - 1));
    }
    times.push_back(duration);
    std::sort(times.begin(), times.end());
    times.erase(std::unique(times.begin(), times.end()), times.end());
    if (times.size() > cap) {
      std::vector<double> kept(cap);
      for (std::size_t i = 0; i < cap; ++i) kept[i] = times[i * (times.size() - 1) / (cap - 1)];
      times.swap(kept);
    }
  } else {
    times.push_back(0.0);
  }
  Bounds b;
  for (const double t : times) {
    if (cancel != nullptr && cancel->load(std::memory_order_relaxed)) return Bounds{};
    if (!a.evaluate(model, mode, t)) continue;
    if (model.meshes.empty()) {
      for (const glm::mat4& m : a.pose.model_matrices()) b.add(glm::vec3(m[3]));
      continue;
    }
    if (!a.skin_cpu(model, pool)) continue;
    for (std::size_t m = 0; m < model.meshes.size(); ++m) {
      for (const glm::vec3& p : a.skinned_positions(m)) b.add(p);
    }
  }
  return b;
}

}  // namespace sv
