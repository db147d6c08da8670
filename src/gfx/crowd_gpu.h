// CrowdGpu: a Crowd's palettes and instance records in GL texture buffers, for one instanced draw
// per mesh (shaders/skin.vert, "Crowds").
//
// The palette texture holds every palette group's palette, group after group (3 RGBA32F texels
// per bone, as GpuModel's), then one record per instance: the rows of its model-to-world 3x4
// matrix (the grid placement times the file's up-axis fix) and a texel whose x is the first bone
// of its palette group, as a float (exact below 2^24; resize() refuses more). The records ride in
// the palette texture so skin.vert needs no new sampler, and no texture unit can clash. The
// normal and method palettes have GpuModel's layouts over every group. Nothing bounds the
// instance or bone count in GLSL; the driver's texture buffer size does, and resize() says so.
//
// resize() allocates GL storage (when the counts change); upload() writes everything for one
// frame with glBufferSubData from staging sized by resize(): no allocation per frame.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <glm/mat4x4.hpp>
#include <glm/vec4.hpp>

#include "gfx/objects.h"
#include "skin/skin_method.h"

namespace sv {
class Crowd;
namespace gl {

class CrowdGpu {
 public:
  // Sizes the buffers for `instances` instances in `groups` palette groups of `bones` bones.
  // "" on success; otherwise the reason (the driver's texture buffer is too small), and empty.
  std::string resize(std::size_t instances, std::size_t groups, std::size_t bones);
  void clear() noexcept;

  // Writes the crowd's palettes (the method palettes too unless `method` is LBS) and instance
  // records with world_i = translate(placement_i) * up. Nothing when the crowd's counts differ
  // from resize()'s.
  void upload(const Crowd& crowd, const glm::mat4& up, SkinMethod method) noexcept;

  // Binds the palette textures at GpuModel's units (gfx/gpu_model.h: kPaletteUnit ...).
  void bind() const noexcept;

  std::size_t instances() const noexcept { return instances_; }
  // Whether any palette group's bones [first, first + count) (a mesh's skin: its palette base and
  // bones) mirrored in the last upload (gfx/face_culling.h); true outside the bones or before an
  // upload.
  bool mirrors(std::size_t first, std::size_t count) const noexcept;
  // skin.vert's u_crowd_records: 1 + the first record's texel.
  int records_uniform() const noexcept { return static_cast<int>(3 * groups_ * bones_) + 1; }

 private:
  std::size_t instances_ = 0, groups_ = 0, bones_ = 0;
  Buffer palette_buffer_, normal_buffer_, method_buffer_;
  Texture palette_texture_, normal_texture_, method_texture_;
  std::vector<glm::vec4> staging_;  // the largest of the three buffers' texels
  // Per bone of a group: 1 when that bone's matrix mirrors in some group (the last upload).
  std::vector<uint8_t> bone_mirrors_;
  bool uploaded_ = false;
};

}  // namespace gl
}  // namespace sv
