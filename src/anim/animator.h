// Animator: a model's per-frame pose buffers and the stages that fill them, sized once at load.
//
//   one clip:   evaluate_pose (sample + local->model + palette, one pass; clip_runtime.h)
//   a blend:    per layer sample_runtime -> blend_override / blend_additive (blend.h) onto the
//               pose below -> pose_from_local (evaluate_pose's local->model and palette)
//     then      build_normal_palette -> [DQS, CoR] build_method_palette
//               -> [CPU path] skin (the chosen method, anim/skinning.h) per mesh
//   morphs:     per layer, its clip's morph tracks (anim/morph.h) sampled and blended onto the
//               weights below (the meshes' default weights under the first layer), then the
//               caller's overrides; [CPU path] apply_morphs before skin, per mesh with a
//               non-zero weight (the GPU path reads the same weights)
//
// The one pose path: the viewer, --dump (io/dump.cpp), the fuzzers and the benchmarks'
// animator/<joints> and blend/<layers> all run this. A clip is the model's runtime clip
// (Model::clips); the rest pose is a runtime clip with no keys, built here, so both go through
// evaluate_pose; the bind pose is the inverse of the inverse bind matrices.
//
// A pose is a stack of layers (Layer, below) over the skeleton's rest pose: the first is the base
// clip, each further one changes the pose below it (blend.h says how, and how weights and masks
// count). A stack of one override layer at full weight without a mask is exactly its clip's pose
// and takes the fused single-clip path, so plain playback costs what it did before layers
// existed. Each layer keeps its own sampling cursor (its clip plays forward at its own time) and,
// when additive, its reference pose, sampled once by set_layers.
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

#include <glm/mat3x3.hpp>
#include <glm/mat4x4.hpp>
#include <glm/vec3.hpp>

#include "anim/blend.h"
#include "anim/bounds.h"
#include "anim/clip_runtime.h"
#include "anim/skin_method.h"
#include "anim/transform.h"

namespace sv {

struct Model;
class WorkerPool;

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

// How the meshes are skinned. The method palette (skin_method.h) is built per frame, once per
// bone, whenever the method is not LBS (the GPU path reads it too). CoR needs each vertex's
// centre of rotation (rotation_centers.h), one vector per mesh, owned by the caller (the
// viewer's Scene, the dump) and kept alive while set; without them CoR cannot skin and
// skin_cpu() fails.
//
// influences: 4 skins every vertex with its 4 largest weights renormalised (the design's
// default); 8 with its 8 largest, on meshes that keep a second set (Mesh::joints2; others have
// 4 or fewer anyway). CoR's centres must then be those computed with 8 (rotation_centers.h).
struct SkinChoice {
  SkinMethod method = SkinMethod::Lbs;
  std::span<const std::vector<glm::vec3>> centers;  // per mesh; CoR only
  int influences = 4;                               // 4 or 8
};

// Wall-clock seconds of the last evaluate()/skin_cpu() per stage, for the Skinning panel.
// Sampling, local->model and the palette are one pass (evaluate_pose), timed as one.
struct StageTimes {
  double pose = 0.0;     // sample + local->model + palette
  double normals = 0.0;  // the normal palette (and the method palette for DQS and CoR)
  double cpu_skin = 0.0;
};

class Animator {
 public:
  using Clock = std::chrono::steady_clock;

  Animator() = default;
  explicit Animator(const Model& model);  // sizes every buffer for `model`

  // Plays one clip: the stack of that one layer (set_layers). Resets the sampling cursor when
  // `clip` differs from the current one (allocates). A clip out of range shows the rest pose.
  void set_clip(const Model& model, int32_t clip);

  // Fills the model matrices and the palettes at `time` (seconds; the caller wraps or clamps
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

  // Chooses the skinning method (takes effect at the next evaluate()). Nothing allocates.
  void set_skin(const SkinChoice& choice) noexcept { skin_ = choice; }
  const SkinChoice& skin() const noexcept { return skin_; }

  // Skins every mesh on the CPU from the current palettes into skinned_positions/normals with
  // the chosen method, split over `pool`'s threads when one is given (the viewer keeps one for
  // its lifetime). False when a mesh cannot be skinned (CoR without its centres).
  bool skin_cpu(const Model& model, WorkerPool* pool = nullptr) noexcept;

  // The clip of set_clip, or the base layer's after set_layers (-1 for an empty stack).
  int32_t clip() const noexcept { return clip_; }
  const StageTimes& times() const noexcept { return times_; }

  std::span<const glm::mat4> model_matrices() const noexcept { return model_; }
  std::span<const glm::mat4> palette() const noexcept { return palette_; }
  std::span<const glm::mat3> normal_palette() const noexcept { return normal_palette_; }
  // The palette split for DQS and CoR (the palette's layout); stale while the method is LBS.
  std::span<const MethodBone> method_palette() const noexcept { return method_palette_; }
  uint32_t palette_base(std::size_t mesh) const noexcept { return palette_base_[mesh]; }
  std::span<const glm::vec3> skinned_positions(std::size_t mesh) const noexcept {
    return skinned_positions_[mesh];
  }
  std::span<const glm::vec3> skinned_normals(std::size_t mesh) const noexcept {
    return skinned_normals_[mesh];
  }

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
    std::vector<Transform> reference;  // Additive: the clip at reference_time
  };
  bool blend(const Model& model, std::span<const Layer> layers) noexcept;
  bool finish(Clock::time_point t0) noexcept;  // the normal palette and the stage times
  // The morph weights for `layers` (empty: the default weights) and the overrides.
  void blend_morphs(const Model& model, std::span<const Layer> layers) noexcept;

  int32_t clip_ = -2;  // -2: never set
  std::vector<Slot> slots_;
  ClipRuntime rest_;  // the rest pose as a clip with no keys
  RuntimeCursor rest_cursor_;
  PoseMode mode_ = PoseMode::Rest;       // of the last evaluate()
  double time_ = 0.0;                    // of the last evaluate()
  bool blended_ = false;                 // the last evaluate() blended into local_
  std::vector<Transform> rest_local_;    // the skeleton's rest pose
  std::vector<Transform> local_;         // the blended pose (a blend's last evaluate())
  std::vector<Transform> layer_local_;   // one layer's sample
  std::vector<glm::vec4> pose_scratch_;  // pose_from_local's
  bool fits_ = true;  // false: some mesh has more skin joints than inverse binds or fewer
  std::vector<int32_t> skin_joints_;     // every mesh's skin joints, concatenated
  std::vector<glm::mat4> inverse_bind_;  // every mesh's inverse binds, concatenated
  std::vector<glm::mat4> model_;
  std::vector<glm::mat4> bind_model_;  // inverse of the skeleton's inverse bind matrices
  std::vector<glm::mat4> palette_;
  std::vector<glm::mat3> normal_palette_;
  std::vector<MethodBone> method_palette_;
  SkinChoice skin_;
  std::vector<uint32_t> palette_base_;
  std::vector<std::vector<glm::vec3>> skinned_positions_;
  std::vector<std::vector<glm::vec3>> skinned_normals_;
  StageTimes times_;
  // Morphs: every mesh's weights concatenated (mesh m's at [morph_base_[m], morph_base_[m+1])),
  // the defaults and overrides (NaN: none) alike; a track's sample and its reference sample
  // (additive layers); per mesh with targets, the morphed bind-space streams skin_cpu skins.
  std::vector<uint32_t> morph_base_;
  std::vector<float> morph_weights_;
  std::vector<float> morph_default_;
  std::vector<float> morph_override_;
  std::vector<float> morph_sample_;
  std::vector<float> morph_reference_;
  std::vector<std::vector<glm::vec3>> morphed_positions_;
  std::vector<std::vector<glm::vec3>> morphed_normals_;
};

}  // namespace sv
