// PaletteLayout: how one model's skins share one palette, and the poses that need no clip.
//
// Every mesh's skin (Mesh::skin_joints, Mesh::inverse_bind) is concatenated into one palette,
// mesh m's bones starting at base[m], so a frame fills and uploads one buffer whatever the mesh
// count. The single model's pose (Animator) and each palette group of a crowd (skin/crowd.h) are
// laid out by this one structure, built once per model from the same function, so the two can
// never disagree on where a mesh's bones are. Immutable after construction; no GL.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include <glm/mat4x4.hpp>

#include "anim/clip_runtime.h"

namespace sv {

struct Model;

struct PaletteLayout {
  PaletteLayout() = default;
  explicit PaletteLayout(const Model& model);  // allocates; once per model

  std::vector<int32_t> skin_joints;     // every mesh's skin joints, concatenated
  std::vector<glm::mat4> inverse_bind;  // every mesh's inverse binds, concatenated
  std::vector<uint32_t> base;           // per mesh: the index of its first bone
  // Per skeleton joint: where the inverse bind matrices put it (their inverse), and the palette
  // of that pose: the bind pose, in which every mesh is exactly as stored.
  std::vector<glm::mat4> bind_model;
  std::vector<glm::mat4> bind_palette;
  ClipRuntime rest;  // the skeleton's rest pose as a clip with no keys (empty if it does not fit)
  // False when some mesh has more skin joints than inverse binds or fewer, or a skin joint is
  // not a joint: nothing can be posed with this layout.
  bool fits = true;

  std::size_t bones() const noexcept { return skin_joints.size(); }
};

}  // namespace sv
