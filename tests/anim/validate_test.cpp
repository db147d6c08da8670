// Skeleton::validate / find, Clip::validate (the builder's check of raw clips) and
// Model::validate: each broken input is caught with a message, and the well-formed ones pass.
#include <gtest/gtest.h>

#include <limits>

#include "anim/clip.h"
#include "anim/model.h"
#include "anim/skeleton.h"
#include "anim_test_constants.h"

namespace sv {
namespace {

using test::kNaN;
using test::kNaNd;

Skeleton chain(int n) {
  Skeleton s;
  for (int i = 0; i < n; ++i) {
    s.names.push_back(
        std::to_string(i).insert(0, 1, 'j'));  // not "j" + ...: GCC 12 -Wrestrict false positive
    s.parents.push_back(i - 1);                // 0 gets -1 = kNoParent
    s.rest.emplace_back();
    s.inverse_bind.emplace_back(1.0f);
    s.is_bone.push_back(1);
  }
  return s;
}

TEST(SkeletonValidate, GoodChainPasses) {
  EXPECT_EQ(chain(3).validate(), "");
  EXPECT_EQ(chain(0).validate(), "");
}

TEST(SkeletonValidate, CatchesBadParents) {
  Skeleton s = chain(3);
  s.parents[1] = 1;  // itself
  EXPECT_NE(s.validate(), "");
  s.parents[1] = 2;  // after it
  EXPECT_NE(s.validate(), "");
  s.parents[1] = -2;  // neither a joint nor kNoParent
  EXPECT_NE(s.validate(), "");
  s.parents[1] = kNoParent;  // a second root is fine
  EXPECT_EQ(s.validate(), "");
}

TEST(SkeletonValidate, CatchesSizesAndNonFinite) {
  Skeleton s = chain(3);
  s.names.pop_back();
  EXPECT_NE(s.validate(), "");
  s = chain(3);
  s.inverse_bind.pop_back();
  EXPECT_NE(s.validate(), "");
  s = chain(3);
  s.rest[2].translation.y = kNaN;
  EXPECT_NE(s.validate(), "");
  s = chain(3);
  s.rest[1].rotation.w = std::numeric_limits<float>::infinity();
  EXPECT_NE(s.validate(), "");
  s = chain(3);
  s.inverse_bind[0][3][0] = kNaN;
  EXPECT_NE(s.validate(), "");
}

TEST(SkeletonFind, ByName) {
  const Skeleton s = chain(3);
  EXPECT_EQ(s.find("j0"), 0);
  EXPECT_EQ(s.find("j2"), 2);
  EXPECT_EQ(s.find("nope"), -1);
}

// A clip over chain(3): joint 1 with a linear translation, joint 2 with a cubic rotation.
Clip good_clip() {
  Clip c;
  c.name = "walk";
  c.duration = 2.0f;
  JointChannel a;
  a.joint = 1;
  a.translation.times = {0.0f, 1.0f, 2.0f};
  a.translation.values = {glm::vec3(0), glm::vec3(1), glm::vec3(2)};
  JointChannel b;
  b.joint = 2;
  b.rotation.interpolation = Interpolation::CubicSpline;
  b.rotation.times = {0.0f, 2.0f};
  b.rotation.values = std::vector<glm::quat>(6, glm::quat(1, 0, 0, 0));
  c.channels.push_back(std::move(a));
  c.channels.push_back(std::move(b));
  return c;
}

TEST(ClipValidate, GoodClipPasses) { EXPECT_EQ(good_clip().validate(chain(3)), ""); }

TEST(ClipValidate, CatchesJointsOutOfRangeAndDuplicates) {
  const Skeleton s = chain(3);
  Clip c = good_clip();
  c.channels[0].joint = 3;
  EXPECT_NE(c.validate(s), "");
  c.channels[0].joint = -1;
  EXPECT_NE(c.validate(s), "");
  c.channels[0].joint = 2;  // same joint as channel 1
  EXPECT_NE(c.validate(s), "");
}

TEST(ClipValidate, CatchesUnsortedAndRepeatedTimes) {
  const Skeleton s = chain(3);
  Clip c = good_clip();
  c.channels[0].translation.times = {0.0f, 2.0f, 1.0f};
  EXPECT_NE(c.validate(s), "");
  c.channels[0].translation.times = {0.0f, 1.0f, 1.0f};  // must be strictly increasing
  EXPECT_NE(c.validate(s), "");
  c.channels[0].translation.times = {0.0, kNaNd, 2.0};
  EXPECT_NE(c.validate(s), "");
}

TEST(ClipValidate, CatchesNonFiniteValuesAndDuration) {
  const Skeleton s = chain(3);
  Clip c = good_clip();
  c.channels[0].translation.values[1].z = kNaN;
  EXPECT_NE(c.validate(s), "");
  c = good_clip();
  c.channels[1].rotation.values[0].x = kNaN;  // even an unused in-tangent
  EXPECT_NE(c.validate(s), "");
  c = good_clip();
  c.duration = kNaNd;
  EXPECT_NE(c.validate(s), "");
  c.duration = -1.0f;
  EXPECT_NE(c.validate(s), "");
}

TEST(ClipValidate, CatchesWrongValueCounts) {
  const Skeleton s = chain(3);
  Clip c = good_clip();
  c.channels[1].rotation.values.resize(2);  // cubic with 2 keys needs 6, not 2
  EXPECT_NE(c.validate(s), "");
  c = good_clip();
  c.channels[0].translation.interpolation = Interpolation::CubicSpline;  // 3 values, needs 9
  EXPECT_NE(c.validate(s), "");
  c = good_clip();
  c.channels[0].translation.values.pop_back();
  EXPECT_NE(c.validate(s), "");
}

// A one-triangle model skinned to joints 1 and 2 of chain(3).
Model good_model() {
  Model m;
  m.skeleton = chain(3);
  m.clips.emplace_back();
  EXPECT_EQ(m.clips[0].build(good_clip(), m.skeleton), "");
  Mesh mesh;
  mesh.name = "tri";
  mesh.node = 0;
  mesh.skinned = true;
  mesh.positions = {glm::vec3(0), glm::vec3(1, 0, 0), glm::vec3(0, 1, 0)};
  mesh.normals = {glm::vec3(0, 0, 1), glm::vec3(0, 0, 1), glm::vec3(0, 0, 1)};
  mesh.joints = {glm::u16vec4(0), glm::u16vec4(1, 0, 0, 0), glm::u16vec4(0, 1, 0, 0)};
  mesh.weights = {glm::vec4(1, 0, 0, 0), glm::vec4(1, 0, 0, 0), glm::vec4(0.5f, 0.5f, 0, 0)};
  mesh.vertex_flags = {0, 0, 0};
  mesh.indices = {0, 1, 2};
  mesh.max_joint = 1;
  mesh.skin_joints = {1, 2};
  mesh.inverse_bind = {glm::mat4(1.0f), glm::mat4(1.0f)};
  m.meshes.push_back(std::move(mesh));
  return m;
}

TEST(ModelValidate, GoodModelPasses) { EXPECT_EQ(good_model().validate(), ""); }

// good_model's triangle repeated to 3,001 vertices: the checks scan blocks of 1,024 before they
// look at single vertices, so a bad value is placed in the first block, on either side of a
// block's edge and at the very end, and each time the message names exactly that element.
Model big_model() {
  Model m = good_model();
  Mesh& mesh = m.meshes[0];
  const std::vector<glm::vec3> positions = mesh.positions, normals = mesh.normals;
  const std::vector<glm::u16vec4> joints = mesh.joints;
  const std::vector<glm::vec4> weights = mesh.weights;
  mesh.positions.clear();
  mesh.normals.clear();
  mesh.joints.clear();
  mesh.weights.clear();
  mesh.vertex_flags.clear();
  mesh.indices.clear();
  for (uint32_t v = 0; v < 3001; ++v) {
    mesh.positions.push_back(positions[v % 3]);
    mesh.normals.push_back(normals[v % 3]);
    mesh.joints.push_back(joints[v % 3]);
    mesh.weights.push_back(weights[v % 3]);
    mesh.vertex_flags.push_back(0);
    mesh.indices.push_back(v);
  }
  mesh.indices.push_back(0);
  mesh.indices.push_back(1);  // 3,003 indices: 1,001 triangles
  mesh.joints2.assign(3001, glm::u16vec4(0));
  mesh.weights2.assign(3001, glm::vec4(0.0f));
  mesh.cut_weights.assign(3001, 0.0f);
  return m;
}

TEST(ModelValidate, BlockScansNameTheFirstBadElementWherever) {
  EXPECT_EQ(big_model().validate(), "");
  const float inf = std::numeric_limits<float>::infinity();
  for (const std::size_t at : {std::size_t{5}, std::size_t{1023}, std::size_t{1024},
                               std::size_t{2047}, std::size_t{3000}}) {
    const std::string v = std::to_string(at);
    auto fails_with = [&](const Model& m, const std::string& what) {
      const std::string e = m.validate();
      EXPECT_NE(e.find(what), std::string::npos) << "at " << at << ": " << e;
    };
    Model m = big_model();
    m.meshes[0].positions[at].z = kNaN;
    m.meshes[0].positions[3000].y = inf;  // a later one is not the first
    fails_with(m, "position " + v + " is not finite");
    m = big_model();
    m.meshes[0].normals[at].y = -inf;
    fails_with(m, "normal " + v + " is not finite");
    m = big_model();
    m.meshes[0].indices[at] = 3001;
    fails_with(m, "index " + v + " is 3001, past 3001 vertices");
    m = big_model();
    m.meshes[0].joints[at].w = 2;
    fails_with(m, "vertex " + v + " uses skin bone 2, above max_joint 1");
    m = big_model();
    m.meshes[0].weights[at] = glm::vec4(1.001f, -0.001f, 0, 0);  // sums to 1, one negative
    fails_with(m, "vertex " + v + " has weights that are negative");
    m = big_model();
    m.meshes[0].weights[at] = glm::vec4(0.5f, 0.498f, 0, 0);  // off by 2e-3
    fails_with(m, "vertex " + v + " has weights that are negative");
    m = big_model();
    m.meshes[0].weights[at] = glm::vec4(kNaN, 1, 0, 0);
    fails_with(m, "vertex " + v + " has weights that are negative");
    m = big_model();
    m.meshes[0].joints2[at].x = 7;
    fails_with(m, "vertex " + v + " uses skin bone 7 (influences 5-8)");
    m = big_model();
    m.meshes[0].weights2[at] = glm::vec4(0.6f, 0.5f, 0, 0);  // above 1
    fails_with(m, "vertex " + v + " has 5th-8th weights");
    m = big_model();
    m.meshes[0].cut_weights[at] = -0.25f;
    fails_with(m, "vertex " + v + " has 5th-8th weights");
  }
  // Within the bounds: -0.0 is not negative; a sum off by less than 1e-3 passes; a cut weight
  // of exactly 1 and second weights summing to exactly 1 pass.
  Model m = big_model();
  m.meshes[0].weights[7] = glm::vec4(1.0f, -0.0f, 0, 0);
  m.meshes[0].weights[8] = glm::vec4(0.5f, 0.4995f, 0, 0);
  m.meshes[0].weights2[9] = glm::vec4(0.5f, 0.5f, 0, 0);
  m.meshes[0].cut_weights[10] = 1.0f;
  EXPECT_EQ(m.validate(), "");
}

TEST(ModelValidate, CatchesEachBrokenField) {
  {
    Model m = good_model();
    m.meshes[0].indices[2] = 3;  // past 3 vertices
    EXPECT_NE(m.validate(), "");
  }
  {
    Model m = good_model();
    m.meshes[0].indices.pop_back();  // not whole triangles
    EXPECT_NE(m.validate(), "");
  }
  {
    Model m = good_model();
    m.meshes[0].line_indices = {0, 2};  // a line and a point within the 3 vertices: fine
    m.meshes[0].point_indices = {1};
    EXPECT_EQ(m.validate(), "");
    m.meshes[0].line_indices = {0, 3};  // past 3 vertices
    EXPECT_NE(m.validate(), "");
    m.meshes[0].line_indices = {0, 1, 2};  // not whole lines
    EXPECT_NE(m.validate(), "");
    m.meshes[0].line_indices.clear();
    m.meshes[0].point_indices = {3};  // past 3 vertices
    EXPECT_NE(m.validate(), "");
  }
  {
    Model m = good_model();
    m.meshes[0].joints[1].y = 2;  // skin has bones 0 and 1 only
    EXPECT_NE(m.validate(), "");
  }
  {
    Model m = good_model();
    m.meshes[0].max_joint = 2;
    EXPECT_NE(m.validate(), "");
  }
  {
    Model m = good_model();
    m.meshes[0].skin_joints[1] = 3;  // skeleton has 3 joints
    EXPECT_NE(m.validate(), "");
  }
  {
    Model m = good_model();
    m.meshes[0].inverse_bind.pop_back();
    EXPECT_NE(m.validate(), "");
  }
  {
    Model m = good_model();
    m.meshes[0].normals.pop_back();
    EXPECT_NE(m.validate(), "");
  }
  {
    Model m = good_model();
    m.meshes[0].weights.pop_back();
    EXPECT_NE(m.validate(), "");
  }
  {
    Model m = good_model();
    m.meshes[0].positions[1].x = kNaN;
    EXPECT_NE(m.validate(), "");
  }
  {
    Model m = good_model();
    m.meshes[0].weights[2] = glm::vec4(0.5f, 0.3f, 0, 0);  // sums to 0.8
    EXPECT_NE(m.validate(), "");
  }
  {
    Model m = good_model();
    m.meshes[0].node = 3;
    EXPECT_NE(m.validate(), "");
  }
  {
    Model m = good_model();
    m.meshes[0].material = 0;  // no materials
    EXPECT_NE(m.validate(), "");
  }
  {
    // A runtime clip laid out for another skeleton: fewer joints, or other parents.
    Model m = good_model();
    Skeleton other = chain(2);
    EXPECT_EQ(m.clips[0].build(Clip{}, other), "");
    EXPECT_NE(m.validate(), "");
    other = chain(3);
    other.parents[2] = 0;
    EXPECT_EQ(m.clips[0].build(Clip{}, other), "");
    EXPECT_NE(m.validate(), "");
  }
  {
    Model m = good_model();
    m.skeleton.parents[2] = 2;
    EXPECT_NE(m.validate(), "");
  }
}

}  // namespace
}  // namespace sv
