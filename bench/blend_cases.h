// The layer stacks the blend/<layers> and blend_additive/2 benchmarks pose (skinview_bench.cpp)
// and blend_frames replays for instruction counts (blend_frames.cpp): one definition, so both
// measure the same thing. The model is make_model's 60-joint skeleton with its clip and three
// more, every clip keying every joint, each of its own length.
//
//   blend/1           the base alone (the fused single-clip path)
//   blend/2           + an override at 0.5
//   blend/4           + an override masked to joint 1's subtree at 0.7 and an additive at 0.5
//   blend_additive/2  the base and an additive layer at 0.5 over every joint (reference: 0 s)
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "anim/animator.h"
#include "anim/model.h"

namespace sv::bench {

struct BlendCase {
  Model model;
  std::vector<float> mask;   // what a masked layer's span points into
  std::vector<Layer> stack;  // layer i plays clip i
};

// "blend" with 1, 2 or 4 layers, or "blend_additive" with 2. Null for any other. Allocates; the
// case is not movable once made (the stack points into its mask), hence the pointer.
std::unique_ptr<BlendCase> make_blend_case(const std::string& name, std::size_t layers);

// Every layer's time at clock time t (seconds), each wrapped into its own clip.
void set_blend_time(BlendCase& c, double t) noexcept;

}  // namespace sv::bench
