#include "gfx/crowd_gpu.h"

#include <algorithm>
#include <cstring>

#include <glm/gtc/matrix_transform.hpp>

#include "gfx/face_culling.h"
#include "gfx/gpu_model.h"
#include "skin/crowd.h"

namespace sv::gl {
namespace {

void write(Buffer& buffer, const std::vector<glm::vec4>& staging, std::size_t texels) noexcept {
  glBindBuffer(GL_TEXTURE_BUFFER, buffer.id());
  glBufferSubData(GL_TEXTURE_BUFFER, 0, static_cast<GLsizeiptr>(texels * sizeof(glm::vec4)),
                  staging.data());
}

}  // namespace

void CrowdGpu::clear() noexcept {
  instances_ = groups_ = bones_ = 0;
  palette_texture_ = Texture();
  normal_texture_ = Texture();
  method_texture_ = Texture();
  palette_buffer_ = Buffer();
  normal_buffer_ = Buffer();
  method_buffer_ = Buffer();
  staging_.clear();
  bone_mirrors_.clear();
  uploaded_ = false;
}

std::string CrowdGpu::resize(std::size_t instances, std::size_t groups, std::size_t bones) {
  if (instances == instances_ && groups == groups_ && bones == bones_ && palette_texture_)
    return {};
  clear();
  GLint max_texels = 0;
  glGetIntegerv(GL_MAX_TEXTURE_BUFFER_SIZE, &max_texels);
  const std::size_t palette = 3 * groups * bones + 4 * instances;
  const std::size_t method = static_cast<std::size_t>(kMethodTexels) * groups * bones;
  if (std::max(palette, method) > static_cast<std::size_t>(max_texels) ||
      groups * bones >= (std::size_t{1} << 24)) {
    return "a crowd of " + std::to_string(instances) + " needs " +
           std::to_string(std::max(palette, method)) +
           " texels of palette, more than this driver's texture buffer limit of " +
           std::to_string(max_texels) + ": use fewer instances or shared palettes";
  }
  palette_texture_ = make_buffer_texture(palette_buffer_, palette);
  normal_texture_ = make_buffer_texture(normal_buffer_, 3 * groups * bones);
  method_texture_ = make_buffer_texture(method_buffer_, method);
  staging_.resize(std::max(palette, method));
  bone_mirrors_.assign(bones, 0);
  instances_ = instances;
  groups_ = groups;
  bones_ = bones;
  SV_GL_CHECK("CrowdGpu::resize");
  return {};
}

void CrowdGpu::upload(const Crowd& crowd, const glm::mat4& up, SkinMethod method) noexcept {
  if (crowd.instances() != instances_ || crowd.groups() != groups_ || crowd.bones() != bones_ ||
      instances_ == 0)
    return;
  const std::size_t bones = groups_ * bones_;
  // Rows of the 3x4 matrices: glm is column-major, row r is (K[0][r], K[1][r], K[2][r], K[3][r]).
  const auto palettes = crowd.palettes();
  std::fill(bone_mirrors_.begin(), bone_mirrors_.end(), uint8_t{0});
  for (std::size_t b = 0; b < bones; ++b) {
    const glm::mat4& k = palettes[b];
    for (int r = 0; r < 3; ++r) staging_[3 * b + r] = glm::vec4(k[0][r], k[1][r], k[2][r], k[3][r]);
    if (sv::mirrors(k)) bone_mirrors_[b % bones_] = 1;
  }
  uploaded_ = true;
  const auto groups = crowd.instance_groups();
  const auto placements = crowd.placements();
  for (std::size_t i = 0; i < instances_; ++i) {
    const glm::mat4 w = glm::translate(glm::mat4(1.0f), placements[i]) * up;
    glm::vec4* t = &staging_[3 * bones + 4 * i];
    for (int r = 0; r < 3; ++r) t[r] = glm::vec4(w[0][r], w[1][r], w[2][r], w[3][r]);
    t[3] = glm::vec4(static_cast<float>(groups[i] * bones_), 0.0f, 0.0f, 0.0f);
  }
  write(palette_buffer_, staging_, 3 * bones + 4 * instances_);
  const auto normals = crowd.normal_palettes();
  for (std::size_t b = 0; b < bones; ++b) {
    const glm::mat3& k = normals[b];
    for (int r = 0; r < 3; ++r) staging_[3 * b + r] = glm::vec4(k[0][r], k[1][r], k[2][r], 0.0f);
  }
  write(normal_buffer_, staging_, 3 * bones);
  if (method != SkinMethod::Lbs) {
    const auto split = crowd.method_palettes();
    for (std::size_t b = 0; b < bones; ++b)
      pack_method_bone(split[b], &staging_[kMethodTexels * b]);
    write(method_buffer_, staging_, kMethodTexels * bones);
  }
  glBindBuffer(GL_TEXTURE_BUFFER, 0);
  SV_GL_CHECK("CrowdGpu::upload");
}

bool CrowdGpu::mirrors(std::size_t first, std::size_t count) const noexcept {
  if (!uploaded_ || first > bone_mirrors_.size() || count > bone_mirrors_.size() - first)
    return true;
  for (std::size_t b = first; b < first + count; ++b)
    if (bone_mirrors_[b] != 0) return true;
  return false;
}

void CrowdGpu::bind() const noexcept {
  bind_palette_textures(palette_texture_.id(), normal_texture_.id(), method_texture_.id());
}

}  // namespace sv::gl
