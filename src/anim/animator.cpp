#include "anim/animator.h"

#include <algorithm>
#include <chrono>

#include <glm/matrix.hpp>

#include "anim/model.h"
#include "anim/pose.h"
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
    fits_ = fits_ && mesh.skin_joints.size() == mesh.inverse_bind.size();
    skin_joints_.insert(skin_joints_.end(), mesh.skin_joints.begin(), mesh.skin_joints.end());
    inverse_bind_.insert(inverse_bind_.end(), mesh.inverse_bind.begin(), mesh.inverse_bind.end());
    skinned_positions_[m].resize(mesh.vertex_count());
    skinned_normals_[m].resize(mesh.normals.empty() ? 0 : mesh.vertex_count());
  }
  palette_.resize(bones, glm::mat4(1.0f));
  normal_palette_.resize(bones, glm::mat3(1.0f));
  // A skeleton that does not validate leaves rest_ empty; evaluate() then reports failure.
  rest_.build(Clip{}, model.skeleton);
  rest_cursor_.reset(rest_);
}

void Animator::set_clip(const Model& model, int32_t clip) {
  if (clip == clip_) return;
  clip_ = clip;
  if (clip >= 0 && clip < static_cast<int32_t>(model.clips.size())) {
    cursor_.reset(model.clips[static_cast<std::size_t>(clip)]);
  }
}

bool Animator::evaluate(const Model& model, PoseMode mode, double time) noexcept {
  auto t0 = Clock::now();
  const bool has_clip = clip_ >= 0 && static_cast<std::size_t>(clip_) < model.clips.size();
  if (!fits_) return false;
  if (mode == PoseMode::Clip && !has_clip) mode = PoseMode::Rest;
  mode_ = mode;
  time_ = time;
  if (mode == PoseMode::Bind) {
    if (model_.size() != bind_model_.size()) return false;
    model_ = bind_model_;  // same size: copies without allocating
    if (!build_palette(model_, skin_joints_, inverse_bind_, palette_)) return false;
  } else {
    const bool clip = mode == PoseMode::Clip;
    const ClipRuntime& runtime = clip ? model.clips[static_cast<std::size_t>(clip_)] : rest_;
    if (!evaluate_pose(runtime, time, clip ? cursor_ : rest_cursor_, skin_joints_, inverse_bind_,
                       model_, palette_))
      return false;
  }
  times_.pose = seconds_since(t0);
  t0 = Clock::now();
  if (!build_normal_palette(palette_, normal_palette_)) return false;
  times_.normals = seconds_since(t0);
  return true;
}

Transform Animator::local(const Model& model, std::size_t joint) const noexcept {
  Transform out;
  if (mode_ == PoseMode::Clip && clip_ >= 0 &&
      static_cast<std::size_t>(clip_) < model.clips.size() &&
      sample_joint(model.clips[static_cast<std::size_t>(clip_)], time_, joint, out))
    return out;
  if (joint < model.skeleton.rest.size()) return model.skeleton.rest[joint];
  return out;
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
