#include "skin/clip_bounds.h"

#include <algorithm>
#include <cmath>
#include <span>
#include <vector>

#include <glm/gtc/matrix_inverse.hpp>
#include <glm/mat4x4.hpp>

#include "anim/model.h"
#include "anim/morph.h"
#include "skin/skinned_pose.h"
#include "skin/skinning.h"

namespace sv {

int bounds_samples(double duration, std::size_t keys, std::size_t work) noexcept {
  if (!(duration > 0.0) || !std::isfinite(duration)) return 1;
  const double wanted = std::ceil(duration * kBoundsRate) + 1.0 + static_cast<double>(keys);
  const double by_work =
      work > 0 ? static_cast<double>(kBoundsWork) / static_cast<double>(work) : 1e9;
  const double n = std::min({wanted, by_work, static_cast<double>(kMaxBoundsSamples)});
  return static_cast<int>(std::max(2.0, n));
}

namespace {

// One skin bone's share of a mesh: the box of the bind positions of the vertices it weighs (weight
// > 0, in either set of 4) taken in the bone's own space (inverse_bind x p), and the matrix back
// from that space to bind space (the inverse bind matrix's inverse; the identity with the box in
// bind space where that matrix cannot be inverted). A box in the bone's space turns with the bone,
// so it stays close around a limb that rotates.
struct BoneBox {
  Bounds box;
  glm::mat4 to_bind{1.0f};
};

void add_slots(const glm::u16vec4& joints, const glm::vec4& weights, const glm::vec3& p,
               std::span<const glm::mat4> to_bone, std::span<BoneBox> boxes) {
  for (int k = 0; k < 4; ++k) {
    if (!(weights[k] > 0.0f) || joints[k] >= boxes.size()) continue;
    boxes[joints[k]].box.add(glm::vec3(to_bone[joints[k]] * glm::vec4(p, 1.0f)));
  }
}

// Every mesh's bone boxes, concatenated in the palette's order (mesh m's from `first[m]`): one pass
// over the vertices.
std::vector<BoneBox> bone_boxes(const Model& model, std::vector<std::size_t>& first,
                                const std::atomic<bool>* cancel) {
  std::vector<BoneBox> out;
  std::vector<glm::mat4> to_bone;
  for (const Mesh& mesh : model.meshes) {
    first.push_back(out.size());
    const std::size_t bones = mesh.skin_joints.size();
    to_bone.assign(bones, glm::mat4(1.0f));
    std::vector<BoneBox> boxes(bones);
    for (std::size_t i = 0; i < bones && i < mesh.inverse_bind.size(); ++i) {
      const glm::mat4& to = mesh.inverse_bind[i];
      const glm::mat4 back = glm::inverse(to);
      bool usable = std::isfinite(glm::determinant(to)) && std::abs(glm::determinant(to)) > 1e-30f;
      for (int c = 0; c < 4 && usable; ++c)
        for (int r = 0; r < 4 && usable; ++r) usable = std::isfinite(back[c][r]);
      if (!usable) continue;
      to_bone[i] = to;
      boxes[i].to_bind = back;
    }
    if (cancel != nullptr && cancel->load(std::memory_order_relaxed)) return {};
    const std::span<BoneBox> b(boxes);
    for (std::size_t v = 0; v < mesh.positions.size() && v < mesh.joints.size(); ++v)
      add_slots(mesh.joints[v], mesh.weights[v], mesh.positions[v], to_bone, b);
    for (std::size_t v = 0; v < mesh.positions.size() && v < mesh.joints2.size(); ++v)
      add_slots(mesh.joints2[v], mesh.weights2[v], mesh.positions[v], to_bone, b);
    out.insert(out.end(), boxes.begin(), boxes.end());
  }
  return out;
}

// The times to pose `c` at: every key time, then the 30 Hz grid (or `cap` evenly spread times when
// it has more: a clip of 8.5e7 s would otherwise ask for 2.5e9 of them before thinning); thinned
// evenly to the cap. `work`: one pose's, for bounds_samples.
std::vector<double> pose_times(const ClipRuntime& c, std::size_t work) {
  const double duration = c.duration();
  std::vector<double> times;
  for (std::size_t j = 0; j < c.joints(); ++j) {
    for (TrackPath path : {TrackPath::Translation, TrackPath::Rotation, TrackPath::Scale}) {
      const std::span<const double> k = c.key_times(j, path);
      times.insert(times.end(), k.begin(), k.end());
    }
  }
  std::sort(times.begin(), times.end());
  times.erase(std::unique(times.begin(), times.end()), times.end());
  const std::size_t keys = times.size();
  const auto cap = static_cast<std::size_t>(bounds_samples(duration, keys, work));
  const double wanted = std::isfinite(duration) ? std::ceil(duration * kBoundsRate) + 1.0 : 2.0;
  if (wanted <= static_cast<double>(cap)) {
    const auto grid = static_cast<std::size_t>(wanted);
    for (std::size_t i = 0; i < grid; ++i)
      times.push_back(std::min(duration, static_cast<double>(i) / kBoundsRate));
  } else {
    for (std::size_t i = 0; i < cap; ++i)
      times.push_back(duration * static_cast<double>(i) / static_cast<double>(cap - 1));
  }
  times.push_back(duration);
  std::sort(times.begin(), times.end());
  times.erase(std::unique(times.begin(), times.end()), times.end());
  if (times.size() > cap) {
    std::vector<double> kept(cap);
    for (std::size_t i = 0; i < cap; ++i) kept[i] = times[i * (times.size() - 1) / (cap - 1)];
    times.swap(kept);
  }
  return times;
}

// The box of `a`'s skinned vertices (its palettes evaluated), each mesh skinned kBoxBlock
// vertices at a time into one small buffer (positions only) instead of into a copy of the whole
// mesh: the rest pose of a 1M-vertex mesh took 24 MB of fresh pages (positions and normals) for
// one box. A block gives its vertices the floats the whole mesh would (skin() is the same
// per-vertex arithmetic however the vertices are split, as skin_parallel's threads split them).
// A mesh whose morph targets weigh in this pose needs its whole morphed stream: `a` skins it
// whole. False when a mesh cannot be skinned.
constexpr std::size_t kBoxBlock = 16384;

bool add_skinned_box(const Model& model, SkinnedPose& a, WorkerPool* pool, Bounds& b) {
  const std::span<const glm::mat4> palette = a.pose.palette();
  std::vector<glm::vec3> block;
  bool whole = false;
  for (std::size_t m = 0; m < model.meshes.size(); ++m) {
    const Mesh& mesh = model.meshes[m];
    if (any_morph_weight(a.pose.morph_weights(m))) {
      whole = true;
      continue;
    }
    const std::size_t n = mesh.skin_joints.size();
    const std::size_t base = a.pose.palette_base(m);
    if (base + n > palette.size()) return false;
    SkinPalettes palettes;
    palettes.palette = palette.subspan(base, n);
    const std::size_t count = mesh.vertex_count();
    block.resize(std::min(count, kBoxBlock));
    for (std::size_t first = 0; first < count; first += kBoxBlock) {
      const std::size_t k = std::min(kBoxBlock, count - first);
      SkinInput in;
      in.positions = std::span<const glm::vec3>(mesh.positions).subspan(first, k);
      in.joints = std::span<const glm::u16vec4>(mesh.joints).subspan(first, k);
      in.weights = std::span<const glm::vec4>(mesh.weights).subspan(first, k);
      in.max_joint = mesh.max_joint;
      const std::span<glm::vec3> out(block.data(), k);
      const bool ok = pool != nullptr ? skin_parallel(*pool, SkinMethod::Lbs, palettes, in, out, {})
                                      : skin(SkinMethod::Lbs, palettes, in, out, {});
      if (!ok) return false;
      for (const glm::vec3& p : out) b.add(p);
    }
  }
  if (!whole) return true;
  if (!a.skin_cpu(model, pool)) return false;
  for (std::size_t m = 0; m < model.meshes.size(); ++m) {
    if (!any_morph_weight(a.pose.morph_weights(m))) continue;
    for (const glm::vec3& p : a.skinned_positions(m)) b.add(p);
  }
  return true;
}

}  // namespace

Bounds clip_bounds(const Model& model, int32_t clip, PoseMode mode, WorkerPool* pool,
                   const std::atomic<bool>* cancel) {
  const bool has_clip =
      mode == PoseMode::Clip && clip >= 0 && static_cast<std::size_t>(clip) < model.clips.size();
  if (mode == PoseMode::Clip && !has_clip) mode = PoseMode::Rest;
  bool morphs = false;
  std::size_t vertices = 0;
  for (const Mesh& m : model.meshes) {
    vertices += m.vertex_count();
    morphs = morphs || !m.morph_targets.empty();
  }
  // A clip of a model without morph targets: the bones' boxes, posed (see the header).
  const bool by_boxes = has_clip && !model.meshes.empty() && !morphs;
  std::vector<std::size_t> first;
  const std::vector<BoneBox> boxes =
      by_boxes ? bone_boxes(model, first, cancel) : std::vector<BoneBox>{};
  if (by_boxes && cancel != nullptr && cancel->load(std::memory_order_relaxed)) return Bounds{};
  const std::size_t work = by_boxes ? 8 * boxes.size() + model.skeleton.size() : vertices;
  const std::vector<double> times =
      has_clip ? pose_times(model.clips[static_cast<std::size_t>(clip)], work)
               : std::vector<double>{0.0};
  Bounds b;
  if (by_boxes) {
    Animator a(model);
    a.set_clip(model, clip);
    for (const double t : times) {
      if (cancel != nullptr && cancel->load(std::memory_order_relaxed)) return Bounds{};
      if (!a.evaluate(model, mode, t)) continue;
      const std::span<const glm::mat4> palette = a.palette();
      for (std::size_t m = 0; m < model.meshes.size(); ++m) {
        const std::size_t base = a.palette_base(m);
        const std::size_t end = m + 1 < first.size() ? first[m + 1] : boxes.size();
        for (std::size_t i = first[m]; i < end && base + (i - first[m]) < palette.size(); ++i) {
          const BoneBox& bone = boxes[i];
          if (bone.box.valid())
            b.add(bone.box.transformed(palette[base + i - first[m]] * bone.to_bind));
        }
      }
    }
    return b;
  }
  SkinnedPose a(model);
  a.pose.set_clip(model, has_clip ? clip : -1);
  for (const double t : times) {
    if (cancel != nullptr && cancel->load(std::memory_order_relaxed)) return Bounds{};
    if (!a.evaluate(model, mode, t)) continue;
    if (model.meshes.empty()) {
      for (const glm::mat4& m : a.pose.model_matrices()) b.add(glm::vec3(m[3]));
      continue;
    }
    if (has_clip) {
      // A clip of a model with morph targets: every sampled pose skinned whole.
      if (!a.skin_cpu(model, pool)) continue;
      for (std::size_t m = 0; m < model.meshes.size(); ++m) {
        for (const glm::vec3& p : a.skinned_positions(m)) b.add(p);
      }
      continue;
    }
    Bounds pose;
    if (add_skinned_box(model, a, pool, pose)) b = pose;
  }
  return b;
}

}  // namespace sv
