#include "anim/morph.h"

#include <algorithm>

#include "anim/finite.h"
#include "anim/model.h"

namespace sv {

std::string check_morph_targets(const Mesh& mesh) {
  const std::size_t n = mesh.vertex_count();
  for (std::size_t t = 0; t < mesh.morph_targets.size(); ++t) {
    const MorphTarget& target = mesh.morph_targets[t];
    const std::string which = "morph target " + std::to_string(t) + ": ";
    if (target.position_deltas.size() != n)
      return which + std::to_string(target.position_deltas.size()) + " position deltas for " +
             std::to_string(n) + " vertices";
    if (!target.normal_deltas.empty() && target.normal_deltas.size() != n)
      return which + std::to_string(target.normal_deltas.size()) + " normal deltas for " +
             std::to_string(n) + " vertices";
    if (!finite(target.default_weight)) return which + "the default weight is not finite";
    for (const glm::vec3& d : target.position_deltas)
      if (!finite(d)) return which + "a position delta is not finite";
    for (const glm::vec3& d : target.normal_deltas)
      if (!finite(d)) return which + "a normal delta is not finite";
  }
  return {};
}

std::string check_morph_clip(const MorphClip& clip, std::span<const Mesh> meshes, double duration) {
  std::vector<uint8_t> seen(meshes.size(), 0);
  for (std::size_t i = 0; i < clip.tracks.size(); ++i) {
    const MorphTrack& track = clip.tracks[i];
    const std::string which = "morph track " + std::to_string(i) + ": ";
    if (track.mesh >= meshes.size())
      return which + "mesh " + std::to_string(track.mesh) + " is out of range";
    if (seen[track.mesh]++) return which + "a second track for mesh " + std::to_string(track.mesh);
    const std::size_t targets = meshes[track.mesh].morph_targets.size();
    if (targets == 0) return which + "mesh " + std::to_string(track.mesh) + " has no morph target";
    if (track.interpolation > Interpolation::CubicSpline) return which + "unknown interpolation";
    if (track.times.empty()) return which + "no keys";
    const std::size_t per_key =
        (track.interpolation == Interpolation::CubicSpline ? 3 : 1) * targets;
    if (track.weights.size() / per_key != track.times.size() || track.weights.size() % per_key != 0)
      return which + std::to_string(track.weights.size()) + " weights for " +
             std::to_string(track.times.size()) + " keys of " + std::to_string(targets) +
             " targets";
    for (std::size_t k = 0; k < track.times.size(); ++k) {
      const double t = track.times[k];
      if (!finite(t) || t < 0.0 || t > duration)
        return which + "key " + std::to_string(k) + "'s time is not within the clip";
      if (k > 0 && !(t > track.times[k - 1]))
        return which + "key times are not strictly increasing";
    }
    for (const float w : track.weights)
      if (!finite(w)) return which + "a weight is not finite";
  }
  return {};
}

bool sample_morph_track(const MorphTrack& track, double t, std::span<float> out) noexcept {
  const std::size_t keys = track.times.size();
  const bool cubic = track.interpolation == Interpolation::CubicSpline;
  if (keys == 0 || out.empty() || track.weights.size() != (cubic ? 3 : 1) * keys * out.size())
    return false;
  const std::size_t n = out.size();
  // Values of key k: in-tangents, values, out-tangents for cubic splines (glTF's order).
  auto value = [&](std::size_t k) { return track.weights.data() + (cubic ? 3 * k + 1 : k) * n; };
  // First key after t.
  const std::size_t next = static_cast<std::size_t>(
      std::upper_bound(track.times.begin(), track.times.end(), t) - track.times.begin());
  if (next == 0 || next == keys || track.interpolation == Interpolation::Step) {
    const float* v = value(next == 0 ? 0 : next - 1);
    std::copy(v, v + n, out.begin());
    return true;
  }
  const std::size_t k = next - 1;
  const double td = track.times[next] - track.times[k];
  const float s = static_cast<float>((t - track.times[k]) / td);
  const float* a = value(k);
  const float* b = value(next);
  if (!cubic) {
    for (std::size_t i = 0; i < n; ++i) out[i] = a[i] + (b[i] - a[i]) * s;
    return true;
  }
  // Hermite with tangents scaled by the key interval (glTF 2.0, Appendix C).
  const float* out_tangent = a + n;  // key k's out-tangents
  const float* in_tangent = b - n;   // key k+1's in-tangents
  const float s2 = s * s, s3 = s2 * s, dt = static_cast<float>(td);
  const float h00 = 2 * s3 - 3 * s2 + 1, h10 = s3 - 2 * s2 + s, h01 = -2 * s3 + 3 * s2,
              h11 = s3 - s2;
  for (std::size_t i = 0; i < n; ++i)
    out[i] = h00 * a[i] + h10 * dt * out_tangent[i] + h01 * b[i] + h11 * dt * in_tangent[i];
  return true;
}

bool apply_morphs(std::span<const glm::vec3> base_positions,
                  std::span<const glm::vec3> base_normals, std::span<const MorphTarget> targets,
                  std::span<const float> weights, std::span<glm::vec3> out_positions,
                  std::span<glm::vec3> out_normals) noexcept {
  const std::size_t n = base_positions.size();
  const bool normals = !base_normals.empty() || !out_normals.empty();
  if (weights.size() != targets.size() || out_positions.size() != n ||
      (normals && (base_normals.size() != n || out_normals.size() != n)))
    return false;
  for (const MorphTarget& target : targets)
    if (target.position_deltas.size() != n ||
        (!target.normal_deltas.empty() && target.normal_deltas.size() != n))
      return false;
  std::copy(base_positions.begin(), base_positions.end(), out_positions.begin());
  if (normals) std::copy(base_normals.begin(), base_normals.end(), out_normals.begin());
  for (std::size_t i = 0; i < targets.size(); ++i) {
    const float w = weights[i];
    if (w == 0.0f) continue;
    const glm::vec3* d = targets[i].position_deltas.data();
    for (std::size_t v = 0; v < n; ++v) out_positions[v] += w * d[v];
    if (!normals || targets[i].normal_deltas.empty()) continue;
    const glm::vec3* dn = targets[i].normal_deltas.data();
    for (std::size_t v = 0; v < n; ++v) out_normals[v] += w * dn[v];
  }
  return true;
}

bool any_morph_weight(std::span<const float> weights) noexcept {
  return std::any_of(weights.begin(), weights.end(), [](float w) { return w != 0.0f; });
}

}  // namespace sv
