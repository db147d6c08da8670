// What a model that came out of a reader must be good for, beyond what the reader's own
// Model::validate() already checked before handing it over (asserting validate() again after
// import_model, read_model or convert_scene cannot fail): posed at its first clip's start and
// middle (or at rest without a clip) through the --dump path and skinned on the CPU, every
// mesh has every vertex, each a finite number. Needs sv::io (io/dump.h).
#pragma once

#include <cmath>
#include <string>
#include <vector>

#include <glm/vec3.hpp>
#include <gtest/gtest.h>

#include "anim/model.h"
#include "io/dump.h"

namespace sv::test {

inline void expect_usable(const Model& m, const std::string& name) {
  std::size_t vertices = 0;
  for (const Mesh& mesh : m.meshes) vertices += mesh.vertex_count();
  EXPECT_TRUE(vertices > 0 || !m.clips.empty()) << name << ": an empty model was accepted";
  const int clip = m.clips.empty() ? -1 : 0;
  const double length = m.clips.empty() ? 0.0 : m.clips[0].duration();
  for (const double t : {0.0, 0.5 * length}) {
    PosedModel pose;
    ASSERT_EQ(pose_model(m, clip, t, pose), "") << name << " at t = " << t;
    ASSERT_EQ(pose.positions.size(), m.meshes.size()) << name;
    for (std::size_t k = 0; k < m.meshes.size(); ++k) {
      ASSERT_EQ(pose.positions[k].size(), m.meshes[k].vertex_count()) << name << " mesh " << k;
      for (const glm::vec3& p : pose.positions[k])
        ASSERT_TRUE(std::isfinite(p.x) && std::isfinite(p.y) && std::isfinite(p.z))
            << name << ": mesh " << k << " posed at t = " << t << " has a vertex not finite";
    }
  }
}

}  // namespace sv::test
