// LayerStack: a whole blend as the command line describes it (and the window starts from): a
// base clip, or a cross-fade from the base clip to another, with layers over it, all running on
// one clock. It owns what stays fixed (clips, weights, modes, masks resolved to per-joint
// weights) and turns a clock time into the frame's Layers (anim/animator.h) without allocating:
//
//   frame layer 0          the base clip at t                      (the cross-fade's FROM)
//   frame layer 1          the cross-fade's TO, every component,   (only with a cross-fade)
//                          at crossfade_at's time and weight
//   then one per layer     its clip at t + time_offset, its weight, mode, mask, reference time
//
// Every clip loops in a blend: each layer's time is wrapped into its own clip (wrap_time), as the
// window plays clips, so a layer shorter than the base repeats and a cross-fade between cycles
// of different lengths keeps both cycling. Times on the clock are seconds >= 0.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "anim/animator.h"
#include "anim/blend.h"
#include "anim/crossfade.h"

namespace sv {

struct Model;

struct StackLayer {
  int32_t clip = -1;  // index into Model::clips
  float weight = 1.0f;
  BlendMode mode = BlendMode::Override;
  std::vector<float> mask;      // one weight per joint, or empty: every joint 1
  double time_offset = 0.0;     // the layer's time is the clock's plus this (seconds)
  double reference_time = 0.0;  // Additive: the clip's time whose pose is subtracted
};

struct LayerStack {
  int32_t base = -1;     // index into Model::clips; -1: no base (layers over the rest pose)
  int32_t fade_to = -1;  // >= 0: cross-fade from `base` to this clip
  CrossFade fade;        // when fade_to >= 0
  std::vector<StackLayer> layers;

  // Anything beyond one clip: a cross-fade or a layer.
  bool blends() const noexcept { return fade_to >= 0 || !layers.empty(); }
  // Frame layers: the base, the cross-fade's target, and one per layer.
  std::size_t size() const noexcept {
    return (base >= 0 ? 1u : 0u) + (fade_to >= 0 ? 1u : 0u) + layers.size();
  }
  // Fills out[0, size()) with the frame at clock time t. False, writing nothing, when out is
  // smaller than size() or a clip index is outside `model`'s clips.
  bool at(const Model& model, double t, std::span<Layer> out) const noexcept;
};

}  // namespace sv
