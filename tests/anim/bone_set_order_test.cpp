// group_vertices_by_bone_set: canonical influence slots, vertices sorted by their 4 joints,
// every stream permuted alike and the triangles unchanged (hand-worked 5-vertex mesh).
#include <gtest/gtest.h>

#include <vector>

#include "anim/model.h"

namespace sv {
namespace {

TEST(BoneSetOrder, CanonicalSlotsAndVerticesGroupedByJoints) {
  Mesh m;
  // Vertex v sits at (v, 0, 0) so the permutation can be read back from the positions.
  for (int v = 0; v < 5; ++v) {
    m.positions.push_back(glm::vec3(static_cast<float>(v), 0.0f, 0.0f));
    m.normals.push_back(glm::vec3(0.0f, static_cast<float>(v), 1.0f));
    m.uvs.push_back(glm::vec2(static_cast<float>(v), 0.5f));
    m.vertex_flags.push_back(static_cast<uint8_t>(v));
  }
  // v0: bones 5 and 2 (largest first, as files list them); unused slots hold stray joints.
  m.joints = {glm::u16vec4(5, 2, 7, 9), glm::u16vec4(1, 0, 0, 0), glm::u16vec4(2, 5, 0, 0),
              glm::u16vec4(3, 1, 4, 0), glm::u16vec4(1, 0, 0, 0)};
  m.weights = {glm::vec4(0.75f, 0.25f, 0.0f, 0.0f), glm::vec4(1.0f, 0.0f, 0.0f, 0.0f),
               glm::vec4(0.5f, 0.5f, 0.0f, 0.0f), glm::vec4(0.5f, 0.3f, 0.2f, 0.0f),
               glm::vec4(1.0f, 0.0f, 0.0f, 0.0f)};
  m.indices = {0, 1, 2, 2, 3, 4};
  m.line_indices = {0, 4};  // lines and points follow their vertices too
  m.point_indices = {3};
  m.max_joint = 9;
  group_vertices_by_bone_set(m);

  // Canonical: weighted slots by joint ascending, unused ones joint 0 weight 0.
  //   v0 (2,5,0,0) w(.25,.75)   v1 (1,0,0,0)   v2 (2,5,0,0) w(.5,.5)   v3 (1,3,4,0) w(.3,.5,.2)
  //   v4 (1,0,0,0)
  // Sorted by (x, y, z, w), stable: v1 (1,0,0,0), v4 (1,0,0,0), v3 (1,3,4,0), v0, v2 (2,5,0,0).
  const std::vector<int> order = {1, 4, 3, 0, 2};
  ASSERT_EQ(m.vertex_count(), 5u);
  for (std::size_t i = 0; i < 5; ++i) {
    const auto old = static_cast<float>(order[i]);
    EXPECT_EQ(m.positions[i], glm::vec3(old, 0.0f, 0.0f)) << i;
    EXPECT_EQ(m.normals[i], glm::vec3(0.0f, old, 1.0f)) << i;
    EXPECT_EQ(m.uvs[i], glm::vec2(old, 0.5f)) << i;
    EXPECT_EQ(m.vertex_flags[i], order[i]) << i;
  }
  EXPECT_EQ(m.joints[0], glm::u16vec4(1, 0, 0, 0));
  EXPECT_EQ(m.joints[1], glm::u16vec4(1, 0, 0, 0));
  EXPECT_EQ(m.joints[2], glm::u16vec4(1, 3, 4, 0));
  EXPECT_EQ(m.weights[2], glm::vec4(0.3f, 0.5f, 0.2f, 0.0f));
  EXPECT_EQ(m.joints[3], glm::u16vec4(2, 5, 0, 0));
  EXPECT_EQ(m.weights[3], glm::vec4(0.25f, 0.75f, 0.0f, 0.0f));
  EXPECT_EQ(m.joints[4], glm::u16vec4(2, 5, 0, 0));
  EXPECT_EQ(m.weights[4], glm::vec4(0.5f, 0.5f, 0.0f, 0.0f));
  // The same triangles: old (0,1,2) is new (3,0,4); old (2,3,4) is new (4,2,1).
  EXPECT_EQ(m.indices, (std::vector<uint32_t>{3, 0, 4, 4, 2, 1}));
  EXPECT_EQ(m.line_indices, (std::vector<uint32_t>{3, 1}));  // old 0 is new 3, old 4 new 1
  EXPECT_EQ(m.point_indices, (std::vector<uint32_t>{2}));    // old 3 is new 2
  EXPECT_EQ(m.max_joint, 5);  // the stray 7 and 9 in unused slots are gone
  EXPECT_EQ(m.source_vertex, (std::vector<uint32_t>{1, 4, 3, 0, 2}));
  // Grouping again changes nothing and keeps the file's indices.
  group_vertices_by_bone_set(m);
  EXPECT_EQ(m.source_vertex, (std::vector<uint32_t>{1, 4, 3, 0, 2}));
  EXPECT_EQ(m.indices, (std::vector<uint32_t>{3, 0, 4, 4, 2, 1}));
}

// A mesh that keeps 8: the second set is put in canonical order and orders the vertices within
// each run of equal first sets, so vertices with the same 8 joints are consecutive (the
// 8-influence kernels' runs) and the runs of 4 stay whole.
TEST(BoneSetOrder, SecondSetOrdersVerticesWithinARunOfFour) {
  Mesh m;
  for (int v = 0; v < 5; ++v) m.positions.push_back(glm::vec3(static_cast<float>(v), 0.0f, 0.0f));
  m.normals = m.positions;
  //   v0: (1,2 | 7,5)  v1: (1,2 | 3)  v2: (2,1 | 5,7)  v3: (1 | -)  v4: (1,2 | 3)
  m.joints = {glm::u16vec4(1, 2, 0, 0), glm::u16vec4(1, 2, 0, 0), glm::u16vec4(2, 1, 0, 0),
              glm::u16vec4(1, 0, 0, 0), glm::u16vec4(1, 2, 0, 0)};
  m.weights = {glm::vec4(0.6f, 0.4f, 0, 0), glm::vec4(0.6f, 0.4f, 0, 0),
               glm::vec4(0.4f, 0.6f, 0, 0), glm::vec4(1, 0, 0, 0), glm::vec4(0.7f, 0.3f, 0, 0)};
  m.joints2 = {glm::u16vec4(7, 5, 0, 0), glm::u16vec4(3, 0, 0, 0), glm::u16vec4(5, 7, 0, 0),
               glm::u16vec4(0), glm::u16vec4(3, 0, 0, 0)};
  m.weights2 = {glm::vec4(0.1f, 0.2f, 0, 0), glm::vec4(0.1f, 0, 0, 0), glm::vec4(0.2f, 0.1f, 0, 0),
                glm::vec4(0.0f), glm::vec4(0.05f, 0, 0, 0)};
  m.cut_weights.assign(5, 0.0f);
  m.indices = {0, 1, 2, 2, 3, 4};
  group_vertices_by_bone_set(m);
  // Canonical: v0 (1,2 | 5,7) w2 (.2,.1), v2 (1,2 | 5,7). Sorted by (joints, joints2): v3
  // (1,0,0,0 | 0), then the (1,2,0,0) run: (3,0,0,0) v1 v4 before (5,7,0,0) v0 v2. (By the
  // first set alone it was v3 v0 v1 v2 v4.)
  EXPECT_EQ(m.source_vertex, (std::vector<uint32_t>{3, 1, 4, 0, 2}));
  for (std::size_t i = 0; i < 5; ++i)
    EXPECT_EQ(m.positions[i].x, static_cast<float>(m.source_vertex[i])) << i;
  EXPECT_EQ(m.joints2[3], glm::u16vec4(5, 7, 0, 0));
  EXPECT_EQ(m.weights2[3], glm::vec4(0.2f, 0.1f, 0, 0));
  EXPECT_EQ(m.joints2[4], glm::u16vec4(5, 7, 0, 0));
  EXPECT_EQ(m.weights2[1], glm::vec4(0.1f, 0, 0, 0));
  EXPECT_EQ(m.weights2[2], glm::vec4(0.05f, 0, 0, 0));
  EXPECT_EQ(m.joints[4], glm::u16vec4(1, 2, 0, 0));
  EXPECT_EQ(m.weights[4], glm::vec4(0.6f, 0.4f, 0, 0));
  EXPECT_EQ(m.max_joint, 7);
  // The triangles: old (0,1,2) is new (3,1,4); old (2,3,4) is new (4,0,2).
  EXPECT_EQ(m.indices, (std::vector<uint32_t>{3, 1, 4, 4, 0, 2}));
}

TEST(BoneSetOrder, StreamsWithoutJointsAreLeftAlone) {
  Mesh m;
  m.positions = {glm::vec3(1.0f), glm::vec3(2.0f)};
  m.indices = {1, 0, 1};
  group_vertices_by_bone_set(m);
  EXPECT_EQ(m.positions[0], glm::vec3(1.0f));
  EXPECT_EQ(m.indices, (std::vector<uint32_t>{1, 0, 1}));
}

}  // namespace
}  // namespace sv
