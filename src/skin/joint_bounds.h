// The bounds of one joint and what it moves, for "frame selected" (numpad . / F in the window):
// the joint itself, its children (so the bone's length is in the box) and every vertex that
// weighs on it, where that vertex is in the pose now.
//
// The vertices are placed by linear blend skinning with their 4 largest weights, whatever method
// and influence count draws them: a framing needs the box to within a few percent, and DQS, CoR
// and the 5th-8th weights move a vertex by far less than the joint's extent. One pass over the
// meshes' vertices, no allocation: it runs on a key press, not per frame.
#pragma once

#include <cstdint>

#include "anim/animator.h"
#include "anim/bounds.h"
#include "anim/model.h"

namespace sv {

// Model-space bounds of `joint` in `pose` (posed from `model`): invalid for a joint out of range
// or a pose that does not fit the model. A joint that skins nothing gives the box of it and its
// children (a point for a leaf): the caller pads it to something it can frame.
Bounds joint_bounds(const Model& model, const Animator& pose, int32_t joint) noexcept;

}  // namespace sv
