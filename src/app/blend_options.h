// --layer and --crossfade: their syntax, and what they become for one model (a LayerStack,
// anim/layer_stack.h) for --dump, --screenshot and the window.
//
//   --layer CLIP[:weight=W][:time=T][:mask=JOINT][:additive][:ref=T]     (repeatable)
//   --crossfade FROM:TO:START:DURATION[:sync]
//
// --clip (or the first clip) at --time is the base; each --layer goes on top, in order. CLIP,
// FROM and TO are a clip's name or index, JOINT a joint's name; W is in [0, 1] (default 1); T,
// START and DURATION are seconds >= 0. A layer's time defaults to --time (0 with --times) and then
// runs with the clock: with --times each layer is at its own time plus (listed time - --time).
// mask=JOINT keeps the layer to JOINT and the joints below it (repeat it for several subtrees;
// default: the whole skeleton); additive adds the layer's difference from its pose at ref=T
// (default 0, the first frame) instead of replacing the pose below. --crossfade replaces --clip
// as the base: FROM until START, then over DURATION seconds towards TO (sync keeps both at one
// normalised phase, anim/crossfade.h). In a blend every clip loops.
//
// Names may contain ':' (Mixamo's "mixamorig:Hips"): a part that is not one of the options above
// continues the name before it, and FROM:TO is split where both halves name clips.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "anim/layer_stack.h"

namespace sv {

struct Model;

struct LayerSpec {
  std::string text;  // as typed, for messages
  std::string clip;
  float weight = 1.0f;
  std::optional<double> time;
  std::vector<std::string> masks;  // joint names
  bool additive = false;
  double reference_time = 0.0;
};

struct CrossFadeSpec {
  std::string text;   // as typed
  std::string clips;  // "FROM:TO", split when a model says which clips exist
  double start = 0.0;
  double duration = 0.0;
  bool sync = false;
};

// Every --layer and the --crossfade, as typed.
struct BlendSpecs {
  std::vector<LayerSpec> layers;
  std::optional<CrossFadeSpec> fade;
  bool any() const noexcept { return fade.has_value() || !layers.empty(); }
};

// Each returns "" or one line naming the problem, e.g. "--layer 'wave:weight=2': weight '2' is
// not a number in [0, 1]".
std::string parse_layer_spec(const std::string& text, LayerSpec* out);
std::string parse_crossfade_spec(const std::string& text, CrossFadeSpec* out);
// Both at once: `layers` as given to --layer, `crossfade` "" when not given.
std::string parse_blend_specs(const std::vector<std::string>& layers, const std::string& crossfade,
                              BlendSpecs* out);

// The blend for `model` (read from `file`, for messages): `base` is --clip's clip (ignored with a
// cross-fade), `base_time` the time the layers' time=T are relative to. Returns "" or one line
// naming the problem (a clip or joint the model does not have, listing what it has).
std::string make_layer_stack(const Model& model, const std::string& file, int32_t base,
                             double base_time, const BlendSpecs& specs, LayerStack* out);

}  // namespace sv
