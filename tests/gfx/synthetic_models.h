// Skinned models built in code for the GL tests: a 3-joint chain and an N-joint chain (the
// 1,000-joint case), each with one clip that bends every joint, so skinning has work to do.
#pragma once

#include <cmath>
#include <string>

#include <gtest/gtest.h>
#include <glm/gtc/matrix_transform.hpp>

#include "anim/model.h"

namespace sv::test {

// A chain of `joints` joints along +Y, `length` apart; a box-ish tube of 4 vertices per joint,
// each vertex weighted between its joint and the next; a clip rotating every joint about Z.
inline Model make_chain_model(int joints, float length = 1.0f) {
  Model m;
  Skeleton& s = m.skeleton;
  for (int j = 0; j < joints; ++j) {
    s.names.push_back("joint" + std::to_string(j));
    s.parents.push_back(j == 0 ? kNoParent : j - 1);
    Transform t;
    t.translation = glm::vec3(0.0f, j == 0 ? 0.0f : length, 0.0f);
    s.rest.push_back(t);
    s.inverse_bind.push_back(
        glm::translate(glm::mat4(1.0f), glm::vec3(0.0f, -length * static_cast<float>(j), 0.0f)));
    s.is_bone.push_back(1);
  }
  Mesh mesh;
  mesh.name = "tube";
  mesh.node = 0;
  mesh.skinned = true;
  for (int j = 0; j < joints; ++j) {
    mesh.skin_joints.push_back(j);
    mesh.inverse_bind.push_back(s.inverse_bind[static_cast<std::size_t>(j)]);
  }
  const float r = 0.2f * length;
  for (int j = 0; j < joints; ++j) {
    const float y = length * (static_cast<float>(j) + 0.3f);
    const int next = j + 1 < joints ? j + 1 : j;
    for (int k = 0; k < 4; ++k) {
      const float a = 1.5707963f * static_cast<float>(k);
      mesh.positions.emplace_back(r * std::cos(a), y, r * std::sin(a));
      mesh.normals.emplace_back(std::cos(a), 0.0f, std::sin(a));
      mesh.uvs.emplace_back(0.25f * static_cast<float>(k), 0.0f);
      mesh.joints.emplace_back(static_cast<uint16_t>(j), static_cast<uint16_t>(next), 0, 0);
      const float w = next == j ? 1.0f : 0.7f;
      mesh.weights.emplace_back(w, 1.0f - w, 0.0f, 0.0f);
      mesh.vertex_flags.push_back(0);
    }
  }
  for (int j = 0; j + 1 < joints; ++j) {
    for (int k = 0; k < 4; ++k) {
      const auto a = static_cast<uint32_t>(4 * j + k),
                 b = static_cast<uint32_t>(4 * j + (k + 1) % 4);
      mesh.indices.insert(mesh.indices.end(), {a, b, a + 4, b, b + 4, a + 4});
    }
  }
  mesh.max_joint = joints - 1;
  mesh.max_influences = 2;
  m.meshes.push_back(std::move(mesh));

  Clip clip;
  clip.name = "bend";
  clip.duration = 1.0f;
  const float bend = 1.2f / static_cast<float>(joints);
  for (int j = 0; j < joints; ++j) {
    JointChannel c;
    c.joint = j;
    c.rotation.times = {0.0, 0.5, 1.0};
    c.rotation.values = {glm::quat(1, 0, 0, 0),
                         glm::angleAxis(bend * static_cast<float>(1 + j % 3), glm::vec3(0, 0, 1)),
                         glm::angleAxis(-bend, glm::vec3(1, 0, 0))};
    c.translation.times = {0.0, 1.0};
    c.translation.values = {s.rest[static_cast<std::size_t>(j)].translation,
                            s.rest[static_cast<std::size_t>(j)].translation * 1.1f};
    clip.channels.push_back(std::move(c));
  }
  m.clips.emplace_back();
  EXPECT_EQ(m.clips.back().build(clip, m.skeleton), "");
  return m;
}

}  // namespace sv::test
