// A blend's frame layers from its clock (layer_stack.h).
#include "anim/layer_stack.h"

#include "anim/model.h"
#include "anim/player.h"

namespace sv {

bool LayerStack::at(const Model& model, double t, std::span<Layer> out) const noexcept {
  if (out.size() < size()) return false;
  const auto duration = [&model](int32_t clip) {
    return model.clips[static_cast<std::size_t>(clip)].duration();
  };
  const auto known = [&model](int32_t clip) {
    return clip >= 0 && static_cast<std::size_t>(clip) < model.clips.size();
  };
  if ((base >= 0 && !known(base)) || (fade_to >= 0 && (!known(fade_to) || base < 0))) return false;
  for (const StackLayer& l : layers)
    if (!known(l.clip)) return false;
  std::size_t n = 0;
  if (base >= 0) {
    Layer& b = out[n++];
    b = Layer{};
    b.clip = base;
    b.time = wrap_time(t, duration(base), true);
    if (fade_to >= 0) {
      const CrossFadeState s = crossfade_at(fade, duration(base), duration(fade_to), t);
      b.time = wrap_time(s.from_time, duration(base), true);
      Layer& to = out[n++];
      to = Layer{};
      to.clip = fade_to;
      to.time = wrap_time(s.to_time, duration(fade_to), true);
      to.weight = s.weight;
      to.every_channel = true;
    }
  }
  for (const StackLayer& l : layers) {
    Layer& x = out[n++];
    x = Layer{};
    x.clip = l.clip;
    x.time = wrap_time(t + l.time_offset, duration(l.clip), true);
    x.weight = l.weight;
    x.mode = l.mode;
    x.mask = l.mask;
    x.reference_time = l.reference_time;
  }
  return true;
}

}  // namespace sv
