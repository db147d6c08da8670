#include "anim/animator.h"

#include <algorithm>
#include <chrono>

#include <glm/matrix.hpp>

#include "anim/model.h"
#include "anim/pose.h"
#include "anim/sample.h"
#include "anim/skinning.h"
#include "anim/worker_pool.h"

namespace sv {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) noexcept {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

}  // namespace

Animator::Animator(const Model& model) {
  const std::size_t joints = model.skeleton.size();
  local_.resize(joints);
  model_.resize(joints);
  bind_model_.resize(joints);
  for (std::size_t j = 0; j < joints; ++j) {
    bind_model_[j] = glm::inverse(model.skeleton.inverse_bind[j]);
  }
  uint32_t bones = 0;
  palette_base_.resize(model.meshes.size());
  skinned_positions_.resize(model.meshes.size());
  skinned_normals_.resize(model.meshes.size());
  for (std::size_t m = 0; m < model.meshes.size(); ++m) {
    const Mesh& mesh = model.meshes[m];
    palette_base_[m] = bones;
    bones += static_cast<uint32_t>(mesh.skin_joints.size());
    skinned_positions_[m].resize(mesh.vertex_count());
    skinned_normals_[m].resize(mesh.normals.empty() ? 0 : mesh.vertex_count());
  }
  palette_.resize(bones, glm::mat4(1.0f));
  normal_palette_.resize(bones, glm::mat3(1.0f));
  // The importer validated every clip, so build() refuses none; one it did refuse stays empty
  // and evaluate() reports failure for it instead of sampling it.
  runtimes_.resize(model.clips.size());
  for (std::size_t c = 0; c < model.clips.size(); ++c) {
    runtimes_[c].build(model.clips[c], model.skeleton);
  }
}

void Animator::set_clip(const Model& /*model*/, int32_t clip) {
  if (clip == clip_) return;
  clip_ = clip;
  if (clip >= 0 && clip < static_cast<int32_t>(runtimes_.size())) {
    cursor_.reset(runtimes_[static_cast<std::size_t>(clip)]);
  }
}

bool Animator::evaluate(const Model& model, PoseMode mode, float time) noexcept {
  auto t0 = Clock::now();
  const bool has_clip = clip_ >= 0 && clip_ < static_cast<int32_t>(runtimes_.size());
  if (mode == PoseMode::Bind) {
    if (!rest_pose(model.skeleton, local_)) return false;
    model_ = bind_model_;  // same size: copies without allocating
    times_.sample = seconds_since(t0);
    times_.to_model = 0.0;
  } else {
    bool ok =
        mode == PoseMode::Clip && has_clip
            ? sample_runtime(runtimes_[static_cast<std::size_t>(clip_)], time, cursor_, local_)
            : rest_pose(model.skeleton, local_);
    if (!ok) return false;
    times_.sample = seconds_since(t0);
    t0 = Clock::now();
    if (!local_to_model(model.skeleton.parents, local_, model_)) return false;
    times_.to_model = seconds_since(t0);
  }
  t0 = Clock::now();
  for (std::size_t m = 0; m < model.meshes.size(); ++m) {
    const Mesh& mesh = model.meshes[m];
    const std::size_t n = mesh.skin_joints.size();
    const std::span<glm::mat4> out(palette_.data() + palette_base_[m], n);
    const std::span<glm::mat3> nout(normal_palette_.data() + palette_base_[m], n);
    if (!build_palette(model_, mesh.skin_joints, mesh.inverse_bind, out)) return false;
    if (!build_normal_palette(out, nout)) return false;
  }
  times_.palette = seconds_since(t0);
  return true;
}

bool Animator::skin_cpu(const Model& model, WorkerPool* pool) noexcept {
  const auto t0 = Clock::now();
  for (std::size_t m = 0; m < model.meshes.size(); ++m) {
    const Mesh& mesh = model.meshes[m];
    const std::size_t n = mesh.skin_joints.size();
    SkinInput in;
    in.positions = mesh.positions;
    in.normals = mesh.normals;
    in.joints = mesh.joints;
    in.weights = mesh.weights;
    in.max_joint = mesh.max_joint;
    const std::span<const glm::mat4> palette(palette_.data() + palette_base_[m], n);
    const std::span<const glm::mat3> normals(normal_palette_.data() + palette_base_[m], n);
    const bool ok = pool != nullptr ? skin_lbs_parallel(*pool, palette, normals, in,
                                                        skinned_positions_[m], skinned_normals_[m])
                                    : skin_lbs(palette, normals, in, skinned_positions_[m],
                                               skinned_normals_[m]);
    if (!ok) return false;
  }
  times_.cpu_skin = seconds_since(t0);
  return true;
}

}  // namespace sv
