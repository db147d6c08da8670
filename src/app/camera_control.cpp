#include "app/camera_control.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <vector>

#include "app/app_common.h"
#include "app/viewer_scene.h"
#include "gfx/capture.h"
#include "skin/joint_bounds.h"

namespace sv {

void CameraControl::apply_input(const ui::ViewportInput& in, const PixelRect& viewport,
                                OrbitCamera& camera) noexcept {
  const bool moves = in.orbit_yaw != 0.0f || in.orbit_pitch != 0.0f || in.pan_x != 0.0f ||
                     in.pan_y != 0.0f || in.zoom != 1.0f;
  if (!moves) {
    if (gesture_ && ++quiet_ >= kQuietFrames) gesture_ = false;
    return;
  }
  if (!gesture_) history.push(camera);
  gesture_ = true;
  quiet_ = 0;
  camera.orbit(in.orbit_yaw, in.orbit_pitch);
  camera.pan(in.pan_x, in.pan_y);
  if (in.zoom != 1.0f) {
    camera.zoom_toward(in.zoom, viewport_ndc(viewport, in.mouse_x, in.mouse_y), viewport.aspect());
  }
}

void CameraControl::record(const OrbitCamera& camera) noexcept {
  history.push(camera);
  gesture_ = false;
}

bool CameraControl::undo(OrbitCamera& camera) noexcept {
  gesture_ = false;
  return history.undo(camera);
}

bool CameraControl::redo(OrbitCamera& camera) noexcept {
  gesture_ = false;
  return history.redo(camera);
}

void CameraControl::clear() noexcept {
  history.clear();
  gesture_ = false;
  quiet_ = 0;
}

void AutoFrame::frame(Scene& scene, OrbitCamera& camera, RenderOptions& options, float aspect) {
  clip_ = scene.play.player.clip;
  const Bounds* clip = scene.bounds_if_known(clip_);  // starts the clip's job if need be
  pending_ = clip == nullptr;
  scene.frame.bounds = clip != nullptr ? *clip : *scene.bounds_if_known(kRestPose);
  frame_scene(scene, camera, options, aspect);
  framed_ = camera;
}

bool AutoFrame::settle(Scene& scene, OrbitCamera& camera, RenderOptions& options, float aspect) {
  if (!pending_) return false;
  if (scene.play.player.clip != clip_) {
    pending_ = false;  // another clip now: the next framing (F, A, Home) frames that one
    return false;
  }
  const Bounds* clip = scene.bounds_if_known(clip_, Scene::BoundsStart::WhenIdle);
  if (clip == nullptr) return false;
  pending_ = false;
  if (!same_view(camera, framed_)) return false;
  scene.frame.bounds = *clip;
  frame_scene(scene, camera, options, aspect);
  return true;
}

glm::vec2 viewport_ndc(const PixelRect& r, float x, float y) noexcept {
  if (r.empty()) return glm::vec2(0.0f);
  const float nx = 2.0f * (x - static_cast<float>(r.x)) / static_cast<float>(r.width) - 1.0f;
  const float ny = 1.0f - 2.0f * (y - static_cast<float>(r.y)) / static_cast<float>(r.height);
  return glm::vec2(std::clamp(nx, -1.0f, 1.0f), std::clamp(ny, -1.0f, 1.0f));
}

Bounds selection_world_bounds(const Scene& scene, int32_t joint) noexcept {
  const Bounds part = joint_bounds(scene.doc.model, scene.frame.animator.pose, joint);
  if (!part.valid()) return part;
  Bounds world = part.transformed(up_axis_matrix(scene.play.z_up));
  // Pad to a share of the model's size (the clip's bounds, as framed), at least on every axis.
  const float size = scene.frame.bounds.valid() ? scene.frame.bounds.diagonal() : world.diagonal();
  const float half = 0.5f * kMinPartShare * std::max(size, 1e-4f);
  const glm::vec3 c = world.center();
  world.min = glm::min(world.min, c - glm::vec3(half));
  world.max = glm::max(world.max, c + glm::vec3(half));
  return world;
}

std::string reserve_shot_path(const std::string& model_path, std::string* error) {
  namespace fs = std::filesystem;
  const fs::path model(model_path);
  fs::path folder = model.parent_path();
  if (folder.empty()) folder = ".";
  std::string stem = model.stem().string();
  if (stem.empty()) stem = "skinview";
  char name[64];
  for (int i = 1; i <= 999; ++i) {
    std::snprintf(name, sizeof(name), "_%03d.png", i);
    const fs::path p = folder / (stem + name);
    const int fd = ::open(p.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd >= 0) {
      ::close(fd);
      return fs::absolute(p).lexically_normal().string();
    }
    if (errno != EEXIST) {
      *error = "cannot write in " + fs::absolute(folder).lexically_normal().string() + ": " +
               std::strerror(errno);
      return "";
    }
  }
  *error = "999 pictures of " + stem + " already in " + folder.string();
  return "";
}

std::string save_viewport_png(const std::string& model_path, const PixelRect& viewport,
                              int framebuffer_width, int framebuffer_height, std::string* error) {
  const int x0 = std::clamp(viewport.x, 0, framebuffer_width);
  const int y0 = std::clamp(viewport.y, 0, framebuffer_height);
  const int x1 = std::clamp(viewport.x + viewport.width, 0, framebuffer_width);
  const int y1 = std::clamp(viewport.y + viewport.height, 0, framebuffer_height);
  if (x1 <= x0 || y1 <= y0) {
    *error = "the viewport is empty";
    return "";
  }
  const std::string path = reserve_shot_path(model_path, error);
  if (path.empty()) return "";
  std::vector<uint8_t> window;
  gl::read_window_rgba(framebuffer_width, framebuffer_height, &window);
  const int w = x1 - x0, h = y1 - y0;
  std::vector<uint8_t> rgba(static_cast<std::size_t>(w) * static_cast<std::size_t>(h) * 4);
  for (int y = 0; y < h; ++y) {
    const uint8_t* row =
        window.data() + (static_cast<std::size_t>(y0 + y) * framebuffer_width + x0) * 4;
    std::copy(row, row + static_cast<std::size_t>(w) * 4,
              rgba.data() + static_cast<std::size_t>(y) * w * 4);
  }
  if (!gl::write_png(path, w, h, rgba, error)) {
    std::filesystem::remove(path);
    return "";
  }
  return path;
}

}  // namespace sv
