#include "skin/surface_hit.h"

#include <algorithm>
#include <cmath>

#include <glm/geometric.hpp>

#include "anim/model.h"
#include "skin/skinning.h"

namespace sv {

bool ray_plane_barycentric(const Ray& ray, const glm::vec3& a, const glm::vec3& b,
                           const glm::vec3& c, glm::vec3* barycentric, float* t) noexcept {
  const glm::vec3 e1 = b - a, e2 = c - a;
  const glm::vec3 p = glm::cross(ray.direction, e2);
  const float det = glm::dot(e1, p);
  // Relative to the sizes involved, so that tiny models and huge ones behave alike.
  const float scale = glm::length(e1) * glm::length(e2) * glm::length(ray.direction);
  if (!(std::abs(det) > 1e-7f * scale)) return false;  // also false for NaN
  const float inv = 1.0f / det;
  const glm::vec3 s = ray.origin - a;
  const float u = glm::dot(s, p) * inv;
  const glm::vec3 q = glm::cross(s, e1);
  const float v = glm::dot(ray.direction, q) * inv;
  *t = glm::dot(e2, q) * inv;
  *barycentric = glm::vec3(1.0f - u - v, u, v);
  return true;
}

glm::vec3 clamp_barycentric(const glm::vec3& barycentric) noexcept {
  const glm::vec3 c = glm::max(barycentric, glm::vec3(0.0f));
  const float sum = c.x + c.y + c.z;
  if (!(sum > 0.0f)) return glm::vec3(1.0f, 0.0f, 0.0f);
  return c / sum;
}

VertexInfluences vertex_influences(const Mesh& mesh, uint32_t vertex, int influences) noexcept {
  VertexInfluences out;
  if (vertex >= mesh.joints.size() || vertex >= mesh.weights.size()) return out;
  const bool eight =
      influences == 8 && vertex < mesh.joints2.size() && vertex < mesh.weights2.size();
  const auto add = [&](const glm::u16vec4& j, const glm::vec4& w, float scale) {
    for (int i = 0; i < 4; ++i) {
      if (!(w[i] > 0.0f)) continue;
      const std::size_t bone = j[i];
      out.joints[out.count] = bone < mesh.skin_joints.size() ? mesh.skin_joints[bone] : -1;
      out.weights[out.count] = w[i] * scale;
      ++out.count;
    }
  };
  if (eight) {
    const glm::vec4 w2 = mesh.weights2[vertex];
    add(mesh.joints[vertex], mesh.weights[vertex], 1.0f - (w2.x + w2.y + w2.z + w2.w));
    add(mesh.joints2[vertex], w2, 1.0f);
  } else {
    add(mesh.joints[vertex], mesh.weights[vertex], 1.0f);
  }
  // Largest first (stable: equal weights keep slot order, which is by joint).
  for (int i = 1; i < out.count; ++i) {
    for (int k = i; k > 0 && out.weights[k] > out.weights[k - 1]; --k) {
      std::swap(out.weights[k], out.weights[k - 1]);
      std::swap(out.joints[k], out.joints[k - 1]);
    }
  }
  return out;
}

namespace {

// Skins the triangle's three vertices into h (vertices and positions), then resolves the hit.
bool resolve(const Mesh& mesh, SkinMethod method, const SkinPalettes& palettes,
             std::span<const glm::vec3> centers, uint32_t triangle, const Ray& ray, SurfaceHit* hit,
             bool eight) noexcept {
  if (triangle >= mesh.triangle_count()) return false;
  SurfaceHit h;
  h.triangle = triangle;
  h.mesh = hit->mesh;
  for (int k = 0; k < 3; ++k) {
    const uint32_t v = mesh.indices[3 * std::size_t{triangle} + static_cast<std::size_t>(k)];
    if (v >= mesh.vertex_count() || v >= mesh.joints.size() || v >= mesh.weights.size())
      return false;
    h.vertices[k] = v;
    SkinInput in;
    in.positions = std::span(mesh.positions).subspan(v, 1);
    in.joints = std::span(mesh.joints).subspan(v, 1);
    in.weights = std::span(mesh.weights).subspan(v, 1);
    in.max_joint = -1;  // scan this vertex's slots: checks them against the palette
    if (eight) {
      in.joints2 = std::span(mesh.joints2).subspan(v, 1);
      in.weights2 = std::span(mesh.weights2).subspan(v, 1);
    }
    const std::span<glm::vec3> out(&h.positions[k], 1);
    if (method == SkinMethod::Lbs && !eight) {
      if (!skin_lbs_reference(palettes.palette, {}, in, out, {})) return false;
    } else {
      if (method == SkinMethod::Cor) {
        if (v >= centers.size()) return false;
        in.centers = centers.subspan(v, 1);
      }
      if (!skin(method, palettes, in, out, {})) return false;
    }
  }

  glm::vec3 bary;
  float t = 0.0f;
  if (ray_plane_barycentric(ray, h.positions[0], h.positions[1], h.positions[2], &bary, &t)) {
    h.barycentric = clamp_barycentric(bary);
  } else {
    // No single crossing point: the vertex nearest the ray's line.
    const float len2 = std::max(glm::dot(ray.direction, ray.direction), 1e-30f);
    float best = INFINITY;
    for (int k = 0; k < 3; ++k) {
      const glm::vec3 d = h.positions[k] - ray.origin;
      const float along = glm::dot(d, ray.direction) / len2;
      const float off = glm::length(d - along * ray.direction);
      if (off < best) {
        best = off;
        h.barycentric = glm::vec3(0.0f);
        h.barycentric[k] = 1.0f;
      }
    }
  }
  h.point = h.barycentric.x * h.positions[0] + h.barycentric.y * h.positions[1] +
            h.barycentric.z * h.positions[2];
  const float len2 = glm::dot(ray.direction, ray.direction);
  h.t = len2 > 0.0f ? glm::dot(h.point - ray.origin, ray.direction) / len2 : 0.0f;

  float nearest = INFINITY;
  for (int k = 0; k < 3; ++k) {
    const float d = glm::length(h.positions[k] - h.point);
    if (d < nearest) {
      nearest = d;
      h.nearest_vertex = h.vertices[k];
    }
  }

  // Interpolated weight per skeleton joint: at most 12 distinct joints over the 3 vertices.
  int32_t joints[12];
  float weights[12];
  int n = 0;
  for (int k = 0; k < 3; ++k) {
    const VertexInfluences inf = vertex_influences(mesh, h.vertices[k]);
    for (int i = 0; i < inf.count; ++i) {
      int at = 0;
      while (at < n && joints[at] != inf.joints[i]) ++at;
      if (at == n) {
        joints[n] = inf.joints[i];
        weights[n++] = 0.0f;
      }
      weights[at] += h.barycentric[k] * inf.weights[i];
    }
  }
  for (int i = 0; i < n; ++i) {
    if (joints[i] < 0) continue;
    if (h.joint < 0 || weights[i] > h.joint_weight ||
        (weights[i] == h.joint_weight && joints[i] < h.joint)) {
      h.joint = joints[i];
      h.joint_weight = weights[i];
    }
  }
  *hit = h;
  return true;
}

}  // namespace

bool resolve_surface_hit(const Mesh& mesh, std::span<const glm::mat4> palette, uint32_t triangle,
                         const Ray& ray, SurfaceHit* hit) noexcept {
  SkinPalettes palettes;
  palettes.palette = palette;
  return resolve(mesh, SkinMethod::Lbs, palettes, {}, triangle, ray, hit, false);
}

bool resolve_surface_hit(const Mesh& mesh, SkinMethod method, const SkinPalettes& palettes,
                         std::span<const glm::vec3> centers, uint32_t triangle, const Ray& ray,
                         SurfaceHit* hit, int influences) noexcept {
  return resolve(mesh, method, palettes, centers, triangle, ray, hit,
                 influences == 8 && mesh.has_influences8());
}

}  // namespace sv
