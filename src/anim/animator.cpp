#include "anim/animator.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <string>

#include <glm/matrix.hpp>

#include "anim/model.h"
#include "anim/pose.h"
#include "anim/skinning.h"
#include "anim/worker_pool.h"

namespace sv {
namespace {

double seconds_since(Animator::Clock::time_point t0) noexcept {
  return std::chrono::duration<double>(Animator::Clock::now() - t0).count();
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
  morph_base_.assign(model.meshes.size() + 1, 0);
  morphed_positions_.resize(model.meshes.size());
  morphed_normals_.resize(model.meshes.size());
  std::size_t most_targets = 0;
  for (std::size_t m = 0; m < model.meshes.size(); ++m) {
    const Mesh& mesh = model.meshes[m];
    morph_base_[m + 1] = morph_base_[m] + static_cast<uint32_t>(mesh.morph_targets.size());
    most_targets = std::max(most_targets, mesh.morph_targets.size());
    for (const MorphTarget& target : mesh.morph_targets)
      morph_default_.push_back(target.default_weight);
    if (mesh.morph_targets.empty()) continue;
    morphed_positions_[m].resize(mesh.vertex_count());
    morphed_normals_[m].resize(mesh.normals.empty() ? 0 : mesh.vertex_count());
  }
  morph_weights_ = morph_default_;
  morph_override_.assign(morph_default_.size(), std::nanf(""));
  morph_sample_.resize(most_targets);
  morph_reference_.resize(most_targets);
  palette_.resize(bones, glm::mat4(1.0f));
  normal_palette_.resize(bones, glm::mat3(1.0f));
  method_palette_.resize(bones);
  // A skeleton that does not validate leaves rest_ empty; evaluate() then reports failure.
  rest_.build(Clip{}, model.skeleton);
  rest_cursor_.reset(rest_);
  rest_local_ = model.skeleton.rest;
  rest_local_.resize(joints);
  local_.resize(joints);
  layer_local_.resize(joints);
  pose_scratch_.resize(local_pose_scratch(joints));
}

void Animator::set_clip(const Model& model, int32_t clip) {
  if (clip == clip_) return;
  clip_ = clip;
  if (clip >= 0 && clip < static_cast<int32_t>(model.clips.size())) {
    Layer layer;
    layer.clip = clip;
    set_layers(model, std::span<const Layer>(&layer, 1));
  }
}

std::string Animator::set_layers(const Model& model, std::span<const Layer> layers) {
  const std::size_t joints = model.skeleton.size();
  for (std::size_t i = 0; i < layers.size(); ++i) {
    const Layer& l = layers[i];
    const std::string which = "layer " + std::to_string(i) + ": ";
    if (l.clip < 0 || static_cast<std::size_t>(l.clip) >= model.clips.size())
      return which + "no clip " + std::to_string(l.clip) + " (the model has " +
             std::to_string(model.clips.size()) + ")";
    if (!l.mask.empty() && l.mask.size() != joints)
      return which + "the mask has " + std::to_string(l.mask.size()) + " weights for " +
             std::to_string(joints) + " joints";
    if (l.mode == BlendMode::Additive && !std::isfinite(l.reference_time))
      return which + "the reference time is not finite";
  }
  if (slots_.size() < layers.size()) slots_.resize(layers.size());
  for (std::size_t i = 0; i < layers.size(); ++i) {
    const Layer& l = layers[i];
    Slot& s = slots_[i];
    const ClipRuntime& clip = model.clips[static_cast<std::size_t>(l.clip)];
    if (s.clip != l.clip || !s.cursor.fits(clip)) {
      s.cursor.reset(clip);
      s.clip = l.clip;
      s.reference.clear();
    }
    s.mode = l.mode;
    if (l.mode == BlendMode::Additive &&
        (s.reference.size() != joints || s.reference_time != l.reference_time)) {
      s.reference.resize(joints);
      s.reference_time = l.reference_time;
      RuntimeCursor cursor;
      cursor.reset(clip);
      if (!sample_runtime(clip, l.reference_time, cursor, s.reference))
        return "layer " + std::to_string(i) + ": the clip does not fit the skeleton";
    }
  }
  clip_ = layers.empty() ? -1 : layers[0].clip;
  return {};
}

bool Animator::evaluate(const Model& model, PoseMode mode, double time) noexcept {
  const bool has_clip = clip_ >= 0 && static_cast<std::size_t>(clip_) < model.clips.size();
  if (mode == PoseMode::Clip && has_clip) {
    Layer layer;
    layer.clip = clip_;
    layer.time = time;
    return evaluate(model, std::span<const Layer>(&layer, 1));
  }
  if (mode != PoseMode::Bind) return evaluate(model, std::span<const Layer>());
  const auto t0 = Clock::now();
  if (!fits_ || model_.size() != bind_model_.size()) return false;
  mode_ = PoseMode::Bind;
  time_ = time;
  blended_ = false;
  model_ = bind_model_;  // same size: copies without allocating
  if (!build_palette(model_, skin_joints_, inverse_bind_, palette_)) return false;
  blend_morphs(model, {});
  return finish(t0);
}

bool Animator::evaluate(const Model& model, std::span<const Layer> layers) noexcept {
  const auto t0 = Clock::now();
  if (!fits_ || layers.size() > slots_.size()) return false;
  for (std::size_t i = 0; i < layers.size(); ++i) {
    const Layer& l = layers[i];
    const Slot& s = slots_[i];
    if (l.clip != s.clip || l.clip < 0 || static_cast<std::size_t>(l.clip) >= model.clips.size())
      return false;
    if (l.mode == BlendMode::Additive &&
        (s.mode != BlendMode::Additive || s.reference_time != l.reference_time))
      return false;
  }
  blended_ = false;
  blend_morphs(model, layers);
  if (layers.empty()) {
    mode_ = PoseMode::Rest;
    time_ = 0.0;
    if (!evaluate_pose(rest_, 0.0, rest_cursor_, skin_joints_, inverse_bind_, model_, palette_))
      return false;
    return finish(t0);
  }
  mode_ = PoseMode::Clip;
  time_ = layers[0].time;
  const Layer& base = layers[0];
  if (layers.size() == 1 && base.mode == BlendMode::Override && blend_weight(base.weight) >= 1.0f &&
      base.mask.empty()) {
    // One clip at full weight over the rest pose is that clip's pose (components it does not
    // key hold rest values): the fused path.
    if (!evaluate_pose(model.clips[static_cast<std::size_t>(base.clip)], base.time,
                       slots_[0].cursor, skin_joints_, inverse_bind_, model_, palette_))
      return false;
    return finish(t0);
  }
  if (!blend(model, layers)) return false;
  blended_ = true;
  return finish(t0);
}

bool Animator::blend(const Model& model, std::span<const Layer> layers) noexcept {
  std::size_t first = 0;
  const Layer& base = layers[0];
  if (base.mode == BlendMode::Override && blend_weight(base.weight) >= 1.0f && base.mask.empty()) {
    // The base at full weight replaces the rest pose entirely: sample it in place.
    if (!sample_runtime(model.clips[static_cast<std::size_t>(base.clip)], base.time,
                        slots_[0].cursor, local_))
      return false;
    first = 1;
  } else {
    if (local_.size() != rest_local_.size()) return false;
    local_ = rest_local_;  // same size: copies without allocating
  }
  for (std::size_t i = first; i < layers.size(); ++i) {
    const Layer& l = layers[i];
    if (blend_weight(l.weight) == 0.0f) continue;
    Slot& s = slots_[i];
    const ClipRuntime& clip = model.clips[static_cast<std::size_t>(l.clip)];
    if (!sample_runtime(clip, l.time, s.cursor, layer_local_)) return false;
    const bool ok =
        l.mode == BlendMode::Override
            ? blend_override(local_, layer_local_,
                             l.every_channel ? std::span<const uint8_t>() : clip.keyed(), l.mask,
                             l.weight)
            : blend_additive(local_, layer_local_, s.reference, clip.keyed(), l.mask, l.weight);
    if (!ok) return false;
  }
  return pose_from_local(rest_.parents(), local_, skin_joints_, inverse_bind_, model_, palette_,
                         pose_scratch_);
}

void Animator::blend_morphs(const Model& model, std::span<const Layer> layers) noexcept {
  if (morph_weights_.empty() || morph_base_.size() != model.meshes.size() + 1) return;
  std::copy(morph_default_.begin(), morph_default_.end(), morph_weights_.begin());
  for (const Layer& l : layers) {
    const auto c = static_cast<std::size_t>(l.clip);
    if (l.clip < 0 || c >= model.morph_clips.size()) continue;
    for (const MorphTrack& track : model.morph_clips[c].tracks) {
      const Mesh& mesh = model.meshes[track.mesh];
      float f = blend_weight(l.weight);
      if (!l.mask.empty() && mesh.node >= 0 && static_cast<std::size_t>(mesh.node) < l.mask.size())
        f *= std::clamp(l.mask[static_cast<std::size_t>(mesh.node)], 0.0f, 1.0f);
      if (f == 0.0f) continue;
      const std::size_t n = mesh.morph_targets.size();
      const std::span<float> sample(morph_sample_.data(), n);
      if (!sample_morph_track(track, l.time, sample)) continue;
      float* w = morph_weights_.data() + morph_base_[track.mesh];
      if (l.mode == BlendMode::Additive) {
        const std::span<float> reference(morph_reference_.data(), n);
        if (!sample_morph_track(track, l.reference_time, reference)) continue;
        for (std::size_t i = 0; i < n; ++i) w[i] += f * (sample[i] - reference[i]);
      } else {
        for (std::size_t i = 0; i < n; ++i) w[i] += f * (sample[i] - w[i]);
      }
    }
  }
  for (std::size_t i = 0; i < morph_override_.size(); ++i)
    if (!std::isnan(morph_override_[i])) morph_weights_[i] = morph_override_[i];
}

void Animator::set_morph_override(std::size_t mesh, std::size_t target, float weight) noexcept {
  if (mesh + 1 >= morph_base_.size() || target >= morph_base_[mesh + 1] - morph_base_[mesh]) return;
  morph_override_[morph_base_[mesh] + target] = std::isfinite(weight) ? weight : std::nanf("");
}

float Animator::morph_override(std::size_t mesh, std::size_t target) const noexcept {
  if (mesh + 1 >= morph_base_.size() || target >= morph_base_[mesh + 1] - morph_base_[mesh])
    return std::nanf("");
  return morph_override_[morph_base_[mesh] + target];
}

void Animator::set_morph_overrides(std::span<const float> overrides) noexcept {
  if (overrides.size() != morph_override_.size()) return;
  for (std::size_t i = 0; i < overrides.size(); ++i)
    morph_override_[i] = std::isfinite(overrides[i]) ? overrides[i] : std::nanf("");
}

void Animator::clear_morph_overrides() noexcept {
  std::fill(morph_override_.begin(), morph_override_.end(), std::nanf(""));
}

bool Animator::finish(Clock::time_point t0) noexcept {
  times_.pose = seconds_since(t0);
  const auto t1 = Clock::now();
  if (!build_normal_palette(palette_, normal_palette_)) return false;
  if (skin_.method != SkinMethod::Lbs && !build_method_palette(palette_, method_palette_))
    return false;
  times_.normals = seconds_since(t1);
  return true;
}

Transform Animator::local(const Model& model, std::size_t joint) const noexcept {
  Transform out;
  if (blended_) return joint < local_.size() ? local_[joint] : out;
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
    if (const std::span<const float> w = morph_weights(m); any_morph_weight(w)) {
      // Morphs first, in bind space; the skinning below reads the morphed streams.
      if (!apply_morphs(mesh.positions, mesh.normals, mesh.morph_targets, w, morphed_positions_[m],
                        morphed_normals_[m]))
        return false;
      in.positions = morphed_positions_[m];
      in.normals = morphed_normals_[m];
    }
    in.joints = mesh.joints;
    in.weights = mesh.weights;
    in.max_joint = mesh.max_joint;
    if (skin_.influences == 8 && mesh.has_influences8()) {
      in.joints2 = mesh.joints2;
      in.weights2 = mesh.weights2;
    }
    if (skin_.method == SkinMethod::Cor) {
      if (m >= skin_.centers.size()) return false;
      in.centers = skin_.centers[m];
    }
    SkinPalettes palettes;
    palettes.palette = std::span<const glm::mat4>(palette_.data() + palette_base_[m], n);
    palettes.normal_palette =
        std::span<const glm::mat3>(normal_palette_.data() + palette_base_[m], n);
    palettes.method = std::span<const MethodBone>(method_palette_.data() + palette_base_[m], n);
    const bool ok = pool != nullptr ? skin_parallel(*pool, skin_.method, palettes, in,
                                                    skinned_positions_[m], skinned_normals_[m])
                                    : sv::skin(skin_.method, palettes, in, skinned_positions_[m],
                                               skinned_normals_[m]);
    if (!ok) return false;
  }
  times_.cpu_skin = seconds_since(t0);
  return true;
}

}  // namespace sv
