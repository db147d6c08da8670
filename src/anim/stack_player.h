// StackPlayer: a layer stack that plays, as the window keeps and edits it. The base is the
// timeline's Player (its clip, time, speed, loop, and whether anything plays); each layer over it
// has a Player of its own (its clip, time, speed and loop: layers keep their own clocks, as in a
// game) with a weight, a mode, a mask and a reference time (blend.h); and a cross-fade in progress
// moves the base towards another clip (crossfade.h). When the fade ends, its target becomes the
// base at the time it had reached, so the pose runs on without a jump.
//
// The command line's LayerStack (layer_stack.h: everything on one clock) starts one with
// from_stack(); the window then edits it. Editing (layers added, removed, reordered, a fade
// started, a mask changed) allocates; advance() and frame() do not.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "anim/animator.h"
#include "anim/blend.h"
#include "anim/crossfade.h"
#include "anim/layer_stack.h"
#include "anim/player.h"

namespace sv {

struct Model;

struct PlayedLayer {
  Player player;  // clip (index into Model::clips), time, speed, loop; `playing` is the base's
  float weight = 1.0f;
  BlendMode mode = BlendMode::Override;
  std::vector<float> mask;  // one weight per joint, or empty: every joint 1
  double reference_time = 0.0;
};

struct StackPlayer {
  std::vector<PlayedLayer> layers;  // over the base, in order
  int32_t fade_from = -1;           // the base's clip when the fade was set up
  int32_t fade_to = -1;             // a cross-fade in progress to this clip; -1: none
  CrossFade fade;                   // on fade_clock's time
  double fade_clock = 0.0;          // the base's time since the fade was set up, never wrapped

  bool fading() const noexcept { return fade_to >= 0; }
  // Anything beyond the base clip alone.
  bool blends() const noexcept { return fading() || !layers.empty(); }
  // Frame layers: the base, the fade's target while fading, and one per layer.
  std::size_t size() const noexcept { return 1 + (fading() ? 1u : 0u) + layers.size(); }

  // Starts a cross-fade from `base`'s clip (now) to clip `to` over `duration` seconds; with
  // sync, `to` starts at the base's phase and the two stay in phase. Ignored (false) when the
  // base is not a clip or `to` is out of range.
  bool start_fade(const Model& model, const Player& base, int32_t to, double duration, bool sync);

  // Moves the base and every layer by dt seconds, each at its own speed (layers only while the
  // base plays). During a fade the base's time follows the fade (scrubbing it does nothing
  // then); a fade whose base was switched to another clip is dropped; a finished fade makes its
  // target the base, at the target's time.
  void advance(const Model& model, Player& base, double dt) noexcept;

  // The frame's layers (size() of them): false, writing nothing, when `out` is smaller, the base
  // is not a clip, or a clip is out of range.
  bool frame(const Model& model, const Player& base, std::span<Layer> out) const noexcept;
};

// The window's start from the command line's blend at clock time t: the base player goes to the
// stack's base clip at its time, a cross-fade continues on the same clock, and each layer gets a
// looping player at its time.
StackPlayer from_stack(const Model& model, const LayerStack& stack, double t, Player& base);

}  // namespace sv
