// Animator: a model's per-frame pose buffers and the stages that fill them, sized once at load.
// The animation runtime's last stage: what it produces (model matrices, the skinning palette
// K = Model x InverseBind, morph weights) is what skinning (src/skin/, skinned_pose.h) reads.
//
//   one clip:   evaluate_pose (sample + local->model + palette, one pass; clip_runtime.h)
//   a blend:    the base and the first layer in one pass (sample_base_blend) where the base is
//               at full weight, then per layer sample_blend (blend.h: sampled and blended onto
//               the pose below in one pass, 4 joints at a time) -> pose_from_local
//               (evaluate_pose's local->model and palette), all on poses in the sampler's lanes
//               (local_lanes.h): matrices are made once
//   morphs:     per layer, its clip's morph tracks (anim/morph.h) sampled and blended onto the
//               weights below (the meshes' default weights under the first layer), then the
//               caller's overrides
//
// The one pose path: the viewer, --dump (io/dump.cpp), the fuzzers and the benchmarks'
// animator/<joints> and blend/<layers> all run this (through skin/skinned_pose.h when they skin). A
// clip is the model's runtime clip (Model::clips); the rest pose is a runtime clip with no keys,
// built here, so both go through evaluate_pose; the bind pose is the inverse of the inverse bind
// matrices.
//
// A pose is a stack of layers (Layer, below) over the skeleton's rest pose: the first is the base
// clip, each further one changes the pose below it (blend.h says how, and how weights and masks
// count). A stack of one override layer at full weight without a mask is exactly its clip's pose
// and takes the fused single-clip path, so plain playback costs what it did before layers
// existed. Each layer keeps its own sampling cursor (its clip plays forward at its own time) and,
// when additive, its reference pose, sampled and made ready (AdditiveReference) once by
// set_layers.
//
// The palettes of all meshes are concatenated (mesh m's bones start at palette_base[m]) so the
// GPU path uploads one buffer per frame, and evaluate_pose fills them all in one call. Nothing
// here allocates after construction except set_clip() and set_layers(), which size the layers'
// cursors and reference poses when a clip, a reference time or the number of layers changes.
// No GL: the renderer and the tests read the buffers.
#pragma once

#include <chrono>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include <glm/mat4x4.hpp>
#include <glm/vec3.hpp>

#include "anim/blend.h"
#include "anim/bounds.h"
#include "anim/clip_runtime.h"
#include "anim/local_lanes.h"
#include "anim/palette_layout.h"
#include "anim/transform.h"

namespace sv {

struct Model;

enum class PoseMode : uint8_t {
  Clip,  // the clip at a time
  Rest,  // every joint at its rest (node) transform
  Bind,  // every joint where the inverse bind matrices put it: the mesh exactly as stored
};

// One layer of a pose at one frame. The caller owns the mask and keeps it alive while the layer
// is evaluated; masks are resolved from joint names to per-joint weights once (subtree_mask),
// never per frame.
struct Layer {
  int32_t clip = -1;    // index into Model::clips
  double time = 0.0;    // seconds into the clip (the caller wraps or clamps it: wrap_time)
  float weight = 1.0f;  // [0, 1]; others are clamped (blend_weight)
  BlendMode mode = BlendMode::Override;
  std::span<const float> mask;  // one weight in [0, 1] per joint; empty: every joint 1
  double reference_time = 0.0;  // Additive: the clip's time whose pose is subtracted
  // Override: blend the components the clip does not key too (their rest values), where the
  // layer must end as its clip's whole pose: the target of a cross-fade (crossfade.h).
  bool every_channel = false;
};

class Animator {
 public:
  using Clock = std::chrono::steady_clock;

  Animator() = default;
  explicit Animator(const Model& model);  // sizes every buffer for `model`

  // Plays one clip: the stack of that one layer (set_layers). Resets the sampling cursor when
  // `clip` differs from the current one (allocates). A clip out of range shows the rest pose.
  void set_clip(const Model& model, int32_t clip);

  // Fills the model matrices and the palette at `time` (seconds; the caller wraps or clamps
  // it) for the clip of set_clip (mode Clip), the rest pose or the bind pose. Returns false
  // (with buffers unspecified) when a stage rejects its inputs, which means the model and the
  // animator do not belong together.
  bool evaluate(const Model& model, PoseMode mode, double time) noexcept;

  // Prepares for evaluating `layers` (their clips, modes and reference times; times, weights
  // and masks may change every frame without another call): resets the cursor of each layer
  // whose clip changed and samples additive reference poses whose clip or reference time
  // changed. Allocates only then (or when the stack grows). Empty on success, otherwise the
  // first problem (a clip index out of range, a mask whose size is not the joint count).
  std::string set_layers(const Model& model, std::span<const Layer> layers);

  // Poses the stack `layers` (the base first) into the model matrices and palettes. False (with
  // buffers unspecified) when set_layers was not given these clips and reference times, a size
  // does not fit, or a stage rejects its inputs. An empty stack is the rest pose.
  bool evaluate(const Model& model, std::span<const Layer> layers) noexcept;

  // The local transform of `joint` in the last evaluate()'s pose: the blended pose's after a
  // blend; after one clip, sampled on demand for this one joint (sample_joint); the rest
  // transform outside clips. Identity when `joint` is out of range.
  Transform local(const Model& model, std::size_t joint) const noexcept;

  // The clip of set_clip, or the base layer's after set_layers (-1 for an empty stack).
  int32_t clip() const noexcept { return clip_; }
  // Wall-clock seconds of the last evaluate(): sample + local->model + palette (one pass).
  double pose_seconds() const noexcept { return pose_seconds_; }

  std::span<const glm::mat4> model_matrices() const noexcept { return model_; }
  std::span<const glm::mat4> palette() const noexcept { return palette_; }
  uint32_t palette_base(std::size_t mesh) const noexcept { return layout_.base[mesh]; }
  const PaletteLayout& layout() const noexcept { return layout_; }
  // --- morph weights ---
  // One weight per morph target of `mesh` (Mesh::morph_targets), as the last evaluate() left
  // them: each layer's clip blends its tracks onto the weights below with the layer's weight
  // (times the mask's weight of the mesh's node): override layers lerp towards the clip's
  // weights, additive layers add the clip's change since its reference time. Meshes a clip does
  // not animate keep the weights below; the stack starts from the default weights. Overrides
  // replace the result.
  std::span<const float> morph_weights(std::size_t mesh) const noexcept {
    if (mesh + 1 >= morph_base_.size()) return {};
    return {morph_weights_.data() + morph_base_[mesh], morph_base_[mesh + 1] - morph_base_[mesh]};
  }
  // Every mesh's weights at once, in mesh order (morph_weights(m) are slices of it).
  std::span<const float> all_morph_weights() const noexcept { return morph_weights_; }
  // Pins one target's weight (from the next evaluate() on), or lets the clips drive it again
  // (`weight` NaN). Out of range is ignored. Allocates nothing.
  void set_morph_override(std::size_t mesh, std::size_t target, float weight) noexcept;
  // The pinned weight, or NaN when the clips drive it.
  float morph_override(std::size_t mesh, std::size_t target) const noexcept;
  void clear_morph_overrides() noexcept;
  // Every override at once: one entry per target of every mesh, in mesh order (NaN: none). A
  // span of another size changes nothing. Allocates nothing.
  void set_morph_overrides(std::span<const float> overrides) noexcept;
  // --- end of morph weights ---

 private:
  // What set_layers prepared for one position of the stack.
  struct Slot {
    int32_t clip = -1;
    RuntimeCursor cursor;
    BlendMode mode = BlendMode::Override;
    double reference_time = 0.0;
    AdditiveReference reference;  // Additive: the clip at reference_time, made ready
  };
  bool blend(const Model& model, std::span<const Layer> layers) noexcept;
  bool finish(Clock::time_point t0) noexcept;  // the stage time
  // The morph weights for `layers` (empty: the default weights) and the overrides.
  void blend_morphs(const Model& model, std::span<const Layer> layers) noexcept;

  int32_t clip_ = -2;  // -2: never set
  std::vector<Slot> slots_;
  PaletteLayout layout_;  // the palette's layout, the rest pose's clip, the bind pose
  RuntimeCursor rest_cursor_;
  PoseMode mode_ = PoseMode::Rest;       // of the last evaluate()
  double time_ = 0.0;                    // of the last evaluate()
  bool blended_ = false;                 // the last evaluate() blended into local_
  LocalLanes rest_local_;                // the skeleton's rest pose
  LocalLanes local_;                     // the blended pose (a blend's last evaluate())
  std::vector<glm::vec4> pose_scratch_;  // pose_from_local's
  std::vector<glm::mat4> model_;
  std::vector<glm::mat4> palette_;
  double pose_seconds_ = 0.0;
  // Morphs: every mesh's weights concatenated (mesh m's at [morph_base_[m], morph_base_[m+1])),
  // the defaults and overrides (NaN: none) alike; a track's sample and its reference sample
  // (additive layers).
  std::vector<uint32_t> morph_base_;
  std::vector<float> morph_weights_;
  std::vector<float> morph_default_;
  std::vector<float> morph_override_;
  std::vector<float> morph_sample_;
  std::vector<float> morph_reference_;
};

}  // namespace sv
