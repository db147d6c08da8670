#include "synthetic.h"

#include <algorithm>
#include <cmath>
#include <random>

#include <glm/gtc/quaternion.hpp>

#include "anim/model.h"
#include "anim/pose.h"

namespace sv::bench {

namespace {

glm::quat random_rotation(std::mt19937& rng, float max_angle) {
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  glm::vec3 axis(u(rng), u(rng), u(rng) + 2.0f);  // never zero
  return glm::angleAxis(max_angle * u(rng), glm::normalize(axis));
}

}  // namespace

Skeleton make_skeleton(int joints, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  Skeleton s;
  for (int i = 0; i < joints; ++i) {
    s.names.push_back("joint" + std::to_string(i));
    s.parents.push_back(i == 0 ? kNoParent : std::max(0, i - 1 - static_cast<int>(rng() % 4u)));
    Transform t;
    t.translation = glm::vec3(0.2f * u(rng), 0.5f + 0.2f * u(rng), 0.2f * u(rng));
    t.rotation = random_rotation(rng, 0.5f);
    t.scale = glm::vec3(1.0f + 0.05f * u(rng));
    s.rest.push_back(t);
    s.is_bone.push_back(1);
  }
  std::vector<glm::mat4> model(s.size());
  local_to_model(s.parents, s.rest, model);
  for (const glm::mat4& m : model) s.inverse_bind.push_back(glm::inverse(m));
  return s;
}

Clip make_clip(const Skeleton& skeleton, float duration, float fps, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  const int keys = static_cast<int>(duration * fps) + 1;
  Clip clip;
  clip.name = "synthetic";
  clip.duration = duration;
  for (std::size_t j = 0; j < skeleton.size(); ++j) {
    JointChannel ch;
    ch.joint = static_cast<int32_t>(j);
    const Transform& rest = skeleton.rest[j];
    for (int k = 0; k < keys; ++k) {
      const float t = static_cast<float>(k) / fps;
      ch.translation.times.push_back(t);
      ch.rotation.times.push_back(t);
      ch.scale.times.push_back(t);
      ch.translation.values.push_back(rest.translation + 0.05f * glm::vec3(u(rng), u(rng), u(rng)));
      ch.rotation.values.push_back(glm::normalize(rest.rotation * random_rotation(rng, 0.3f)));
      ch.scale.values.push_back(rest.scale * (1.0f + 0.02f * u(rng)));
    }
    clip.channels.push_back(std::move(ch));
  }
  return clip;
}

ClipRuntime make_runtime_clip(const Skeleton& skeleton, float duration, float fps, uint32_t seed) {
  ClipRuntime rt;
  rt.build(make_clip(skeleton, duration, fps, seed), skeleton);  // refuses nothing make_clip makes
  return rt;
}

SkinData make_skin(std::size_t vertices, int bones, uint32_t seed, bool grouped) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  std::uniform_real_distribution<float> u01(0.05f, 1.0f);
  SkinData d;
  d.positions.resize(vertices);
  d.normals.resize(vertices);
  d.joints.resize(vertices);
  d.weights.resize(vertices);
  for (std::size_t v = 0; v < vertices; ++v) {
    d.positions[v] = glm::vec3(u(rng), 2.0f * u(rng), u(rng));
    d.normals[v] = glm::normalize(glm::vec3(u(rng), u(rng), u(rng) + 1.5f));
    // 4 distinct joints near each other (a vertex is bound to neighbouring bones).
    const int base = static_cast<int>(rng() % static_cast<uint32_t>(bones));
    glm::u16vec4 j;
    for (int i = 0; i < 4; ++i) j[i] = static_cast<uint16_t>((base + 3 * i) % bones);
    glm::vec4 w(u01(rng), u01(rng), u01(rng), u01(rng));
    std::sort(&w[0], &w[0] + 4, [](float a, float b) { return a > b; });
    d.joints[v] = j;
    d.weights[v] = w / (w.x + w.y + w.z + w.w);
  }
  d.max_joint = bones - 1;
  if (grouped) {
    const std::vector<uint32_t> order = bone_set_order(d.joints, d.weights);
    auto permute = [&order](auto& values) {
      auto copy = values;
      for (std::size_t i = 0; i < order.size(); ++i) values[i] = copy[order[i]];
    };
    permute(d.positions);
    permute(d.normals);
    permute(d.joints);
    permute(d.weights);
  }
  const Skeleton s = make_skeleton(bones, seed + 1);
  const ClipRuntime clip = make_runtime_clip(s, 2.0f, 30.0f, seed + 2);
  RuntimeCursor cursor;
  cursor.reset(clip);
  std::vector<glm::mat4> model(s.size());
  std::vector<int32_t> skin(s.size());
  for (std::size_t i = 0; i < skin.size(); ++i) skin[i] = static_cast<int32_t>(i);
  d.palette.resize(s.size());
  d.normal_palette.resize(s.size());
  evaluate_pose(clip, 0.77, cursor, skin, s.inverse_bind, model, d.palette);
  build_normal_palette(d.palette, d.normal_palette);
  return d;
}

Model make_model(int joints, std::size_t vertices) {
  Model m;
  m.skeleton = make_skeleton(joints, 42u);
  m.clips.push_back(make_runtime_clip(m.skeleton, 4.0f, 30.0f, 43u));
  SkinData d = make_skin(vertices, joints, 1234u);
  Mesh mesh;
  mesh.name = "synthetic";
  mesh.node = 0;
  mesh.skinned = true;
  mesh.max_influences = 4;
  mesh.positions = std::move(d.positions);
  mesh.normals = std::move(d.normals);
  mesh.joints = std::move(d.joints);
  mesh.weights = std::move(d.weights);
  mesh.vertex_flags.assign(vertices, 0);
  for (std::size_t v = 0; v + 2 < vertices; v += 3)
    for (uint32_t k = 0; k < 3; ++k) mesh.indices.push_back(static_cast<uint32_t>(v) + k);
  mesh.max_joint = d.max_joint;
  for (int32_t j = 0; j < joints; ++j) mesh.skin_joints.push_back(j);
  mesh.inverse_bind = m.skeleton.inverse_bind;
  m.meshes.push_back(std::move(mesh));
  return m;
}

Mesh make_tube_mesh(std::size_t vertices, int bones) {
  constexpr int kSides = 64;
  const int rings = std::max(2, static_cast<int>(vertices / kSides));
  const float length = 2.0f, radius = 0.1f;
  const float spacing = length / static_cast<float>(bones - 1);
  Mesh mesh;
  mesh.name = "tube";
  mesh.node = 0;
  mesh.skinned = true;
  for (int r = 0; r < rings; ++r) {
    const float a = length * static_cast<float>(r) / static_cast<float>(rings - 1);
    // Nearest joints' Gaussian weights, the 4 largest kept, small ones dropped.
    std::vector<std::pair<float, int>> w;
    for (int b = 0; b < bones; ++b) {
      const float d = (a - spacing * static_cast<float>(b)) / (0.6f * spacing);
      w.emplace_back(std::exp(-d * d), b);
    }
    std::sort(w.begin(), w.end(), [](const auto& x, const auto& y) { return x.first > y.first; });
    float sum = 0.0f;
    glm::u16vec4 j(0);
    glm::vec4 wt(0.0f);
    for (int i = 0; i < 4; ++i) {
      if (w[static_cast<std::size_t>(i)].first < 0.01f * w[0].first) break;
      j[i] = static_cast<uint16_t>(w[static_cast<std::size_t>(i)].second);
      wt[i] = w[static_cast<std::size_t>(i)].first;
      sum += wt[i];
    }
    for (int s = 0; s < kSides; ++s) {
      const float phi = 6.2831853f * static_cast<float>(s) / kSides;
      mesh.positions.emplace_back(radius * std::cos(phi), a, radius * std::sin(phi));
      mesh.normals.emplace_back(std::cos(phi), 0.0f, std::sin(phi));
      mesh.joints.push_back(j);
      mesh.weights.push_back(wt / sum);
    }
  }
  for (int r = 0; r + 1 < rings; ++r)
    for (int s = 0; s < kSides; ++s) {
      const auto p = static_cast<uint32_t>(r * kSides + s);
      const auto q = static_cast<uint32_t>(r * kSides + (s + 1) % kSides);
      mesh.indices.insert(mesh.indices.end(), {p, q + kSides, q, p, p + kSides, q + kSides});
    }
  mesh.vertex_flags.assign(mesh.positions.size(), 0);
  for (int32_t b = 0; b < bones; ++b) {
    mesh.skin_joints.push_back(b);
    mesh.inverse_bind.emplace_back(1.0f);
  }
  group_vertices_by_bone_set(mesh);
  return mesh;
}

}  // namespace sv::bench
