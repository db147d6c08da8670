#include "anim/animator.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <string>

#include "anim/model.h"
#include "anim/pose.h"
#include "anim/stopwatch.h"

namespace sv {

Animator::Animator(const Model& model) : layout_(model) {
  const std::size_t joints = model.skeleton.size();
  model_.resize(joints);
  morph_base_.assign(model.meshes.size() + 1, 0);
  std::size_t most_targets = 0;
  for (std::size_t m = 0; m < model.meshes.size(); ++m) {
    const Mesh& mesh = model.meshes[m];
    morph_base_[m + 1] = morph_base_[m] + static_cast<uint32_t>(mesh.morph_targets.size());
    most_targets = std::max(most_targets, mesh.morph_targets.size());
    for (const MorphTarget& target : mesh.morph_targets)
      morph_default_.push_back(target.default_weight);
  }
  morph_weights_ = morph_default_;
  morph_override_.assign(morph_default_.size(), std::nanf(""));
  morph_sample_.resize(most_targets);
  morph_reference_.resize(most_targets);
  palette_.resize(layout_.bones(), glm::mat4(1.0f));
  rest_cursor_.reset(layout_.rest);
  rest_local_.resize(joints);
  for (std::size_t j = 0; j < joints && j < model.skeleton.rest.size(); ++j)
    rest_local_.set(j, model.skeleton.rest[j]);
  local_.resize(joints);
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
      s.reference = AdditiveReference();
    }
    s.mode = l.mode;
    if (l.mode == BlendMode::Additive &&
        (!s.reference.fits(joints) || s.reference_time != l.reference_time)) {
      s.reference_time = l.reference_time;
      RuntimeCursor cursor;
      cursor.reset(clip);
      LocalLanes sampled(joints);
      if (!sample_runtime(clip, l.reference_time, cursor, sampled))
        return "layer " + std::to_string(i) + ": the clip does not fit the skeleton";
      s.reference.prepare(sampled);
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
  if (!layout_.fits || model_.size() != layout_.bind_model.size() ||
      palette_.size() != layout_.bind_palette.size())
    return false;
  mode_ = PoseMode::Bind;
  time_ = time;
  blended_ = false;
  // Same sizes: copies without allocating.
  std::copy(layout_.bind_model.begin(), layout_.bind_model.end(), model_.begin());
  std::copy(layout_.bind_palette.begin(), layout_.bind_palette.end(), palette_.begin());
  blend_morphs(model, {});
  return finish(t0);
}

bool Animator::evaluate(const Model& model, std::span<const Layer> layers) noexcept {
  const auto t0 = Clock::now();
  if (!layout_.fits || layers.size() > slots_.size()) return false;
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
    if (!evaluate_pose(layout_.rest, 0.0, rest_cursor_, layout_.skin_joints, layout_.inverse_bind,
                       model_, palette_))
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
                       slots_[0].cursor, layout_.skin_joints, layout_.inverse_bind, model_,
                       palette_))
      return false;
    return finish(t0);
  }
  if (!blend(model, layers)) return false;
  blended_ = true;
  return finish(t0);
}

namespace {

// How layer l, playing `clip`, is blended (sample_blend, sample_base_blend).
LayerBlend layer_blend(const Layer& l, const ClipRuntime& clip,
                       const AdditiveReference& reference) noexcept {
  LayerBlend how;
  how.mode = l.mode;
  how.weight = l.weight;
  // A cross-fade's target blends every component (animator.h's Layer::every_channel).
  if (l.mode == BlendMode::Additive || !l.every_channel) how.keyed = clip.keyed();
  how.mask = l.mask;
  how.reference = &reference;
  return how;
}

}  // namespace

bool Animator::blend(const Model& model, std::span<const Layer> layers) noexcept {
  std::size_t first = 0;
  const Layer& base = layers[0];
  if (base.mode == BlendMode::Override && blend_weight(base.weight) >= 1.0f && base.mask.empty()) {
    // The base at full weight replaces the rest pose entirely: sample it in place, together with
    // the next layer that blends anything (one pass, the base's pose never read back).
    const ClipRuntime& base_clip = model.clips[static_cast<std::size_t>(base.clip)];
    first = 1;
    while (first < layers.size() && blend_weight(layers[first].weight) == 0.0f) ++first;
    if (first < layers.size()) {
      const Layer& l = layers[first];
      const ClipRuntime& clip = model.clips[static_cast<std::size_t>(l.clip)];
      if (!sample_base_blend(base_clip, base.time, slots_[0].cursor, clip, l.time,
                             slots_[first].cursor, layer_blend(l, clip, slots_[first].reference),
                             local_))
        return false;
      ++first;
    } else if (!sample_runtime(base_clip, base.time, slots_[0].cursor, local_)) {
      return false;
    }
  } else {
    if (local_.lanes.size() != rest_local_.lanes.size()) return false;
    std::copy(rest_local_.lanes.begin(), rest_local_.lanes.end(), local_.lanes.begin());
  }
  for (std::size_t i = first; i < layers.size(); ++i) {
    const Layer& l = layers[i];
    if (blend_weight(l.weight) == 0.0f) continue;
    const ClipRuntime& clip = model.clips[static_cast<std::size_t>(l.clip)];
    if (!sample_blend(clip, l.time, slots_[i].cursor, layer_blend(l, clip, slots_[i].reference),
                      local_))
      return false;
  }
  return pose_from_local(layout_.rest, local_, layout_.skin_joints, layout_.inverse_bind, model_,
                         palette_, pose_scratch_);
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
  pose_seconds_ = seconds_since(t0);
  return true;
}

Transform Animator::local(const Model& model, std::size_t joint) const noexcept {
  Transform out;
  if (blended_) return joint < local_.joints ? local_.get(joint) : out;
  if (mode_ == PoseMode::Clip && clip_ >= 0 &&
      static_cast<std::size_t>(clip_) < model.clips.size() &&
      sample_joint(model.clips[static_cast<std::size_t>(clip_)], time_, joint, out))
    return out;
  if (joint < model.skeleton.rest.size()) return model.skeleton.rest[joint];
  return out;
}

}  // namespace sv
