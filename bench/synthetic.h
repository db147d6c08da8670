// Synthetic benchmark data built in code from fixed seeds: a skeleton, a clip keying every
// joint's translation, rotation and scale at 30 fps (raw, and laid out as the runtime clip the
// importer would make), a skinned vertex cloud whose vertices have 4 influences (sorted, summing
// to 1) spread over the skeleton's joints, and a whole Model of them.
#pragma once

#include <cstdint>
#include <vector>

#include <glm/gtc/type_precision.hpp>
#include <glm/mat3x3.hpp>
#include <glm/mat4x4.hpp>
#include <glm/vec3.hpp>
#include <glm/vec4.hpp>

#include "anim/clip.h"
#include "anim/clip_runtime.h"
#include "anim/model.h"
#include "anim/skeleton.h"

namespace sv::bench {

// `joints` joints, each parented to one of the few joints before it (a bushy tree like a
// character's); inverse binds are the inverses of the rest pose's model transforms.
Skeleton make_skeleton(int joints, uint32_t seed);

// Every joint keyed on T, R and S at `fps` over `duration` seconds, linear interpolation.
Clip make_clip(const Skeleton& skeleton, float duration, float fps, uint32_t seed);

// make_clip through the builder (ClipRuntime::build), as the importer converts every clip.
ClipRuntime make_runtime_clip(const Skeleton& skeleton, float duration, float fps, uint32_t seed);

struct SkinData {
  std::vector<glm::vec3> positions;
  std::vector<glm::vec3> normals;
  std::vector<glm::u16vec4> joints;
  std::vector<glm::vec4> weights;
  std::vector<glm::mat4> palette;
  std::vector<glm::mat3> normal_palette;
  int32_t max_joint = 0;
};

// `vertices` vertices bound to a palette of `bones` entries taken from a posed skeleton. Each
// vertex binds 4 neighbouring bones (base, base+3, base+6, base+9 for a random base: 60 bone
// sets on 60 bones). `grouped`: laid out as the importer lays out every mesh
// (group_vertices_by_bone_set: canonical slots, vertices with the same bones together);
// otherwise in generation order, every vertex's bones unrelated to its neighbours'.
SkinData make_skin(std::size_t vertices, int bones, uint32_t seed, bool grouped = true);

// A `joints`-joint skeleton (seed 42) with its 4-second clip (seed 43) and one mesh of
// `vertices` vertices (make_skin, seed 1234) bound to every joint: what the viewer's Animator
// poses in the animator/ and gpu_frame_cpu_cost/ benchmarks.
Model make_model(int joints, std::size_t vertices);

// An open tube along +Y of about `vertices` vertices (rings of 64), 2 units long, radius 0.1,
// bound to `bones` joints evenly spaced along it: each vertex weighs on its nearest joints with
// a Gaussian falloff (width 0.6 of the joints' spacing, weights under 0.01 dropped: 2 or 3
// influences), laid out by bone set. A limb-like surface whose weights blend as a character's
// do, for the centres-of-rotation precompute (cor_precompute/). Rest pose: identity palette.
Mesh make_tube_mesh(std::size_t vertices, int bones);

}  // namespace sv::bench
