// Volume change over a clip (skin/volume.h): the signed volume of cubes worked out by hand, the
// closed / open / misoriented classification (seams welded by position), and the largest change
// over a clip on a one-joint rig whose scale keys are known, under every method.
#include "skin/volume.h"

#include <gtest/gtest.h>

#include "anim/model.h"
#include "skin/rotation_centers.h"
#include "test_util.h"

namespace sv {
namespace {

// The unit cube [0,1]^3: vertex x + 2y + 4z, two triangles per face, counter-clockwise seen from
// outside (each face's normal worked out by hand: e.g. (0,2,3): (0,1,0) x (1,1,0) = (0,0,-1)).
std::vector<glm::vec3> cube_positions(glm::vec3 lo = glm::vec3(0), float side = 1.0f) {
  std::vector<glm::vec3> p;
  for (int i = 0; i < 8; ++i)
    p.push_back(lo + side * glm::vec3(float(i & 1), float((i >> 1) & 1), float((i >> 2) & 1)));
  return p;
}
const std::vector<uint32_t> kCube = {0, 2, 3, 0, 3, 1, 4, 5, 7, 4, 7, 6, 0, 1, 5, 0, 5, 4,
                                     2, 6, 7, 2, 7, 3, 0, 4, 6, 0, 6, 2, 1, 3, 7, 1, 7, 5};

TEST(Volume, UnitCubeAndScaledCube) {
  EXPECT_DOUBLE_EQ(signed_volume(cube_positions(), kCube), 1.0);
  EXPECT_DOUBLE_EQ(signed_volume(cube_positions(glm::vec3(0), 2.0f), kCube), 8.0);
  // A closed surface's volume does not depend on where the origin is.
  EXPECT_NEAR(signed_volume(cube_positions(glm::vec3(5, -3, 2)), kCube), 1.0, 1e-9);
  // Wound inside out: negative.
  std::vector<uint32_t> flipped = kCube;
  for (std::size_t t = 0; t < flipped.size(); t += 3) std::swap(flipped[t + 1], flipped[t + 2]);
  EXPECT_DOUBLE_EQ(signed_volume(cube_positions(), flipped), -1.0);
  EXPECT_EQ(signed_volume(cube_positions(), {}), 0.0);
}

TEST(Volume, ClosedOpenAndMisoriented) {
  const std::vector<glm::vec3> p = cube_positions();
  EXPECT_EQ(mesh_shape(p, kCube), MeshShape::Closed);
  // One triangle missing: its three edges are used once.
  std::vector<uint32_t> hole(kCube.begin(), kCube.end() - 3);
  EXPECT_EQ(mesh_shape(p, hole), MeshShape::Open);
  // A fin: a third triangle on the edge 0-3.
  std::vector<glm::vec3> fin_p = p;
  fin_p.push_back(glm::vec3(0.5f, 0.5f, -1.0f));
  std::vector<uint32_t> fin = kCube;
  fin.insert(fin.end(), {0, 3, 8});
  EXPECT_EQ(mesh_shape(fin_p, fin), MeshShape::Open);
  // A seam: vertex 0 split into 0 and 8 at the same position (as importers do where UVs
  // differ); the top-face triangles use the copy. Still closed: edges are between positions.
  std::vector<glm::vec3> seam_p = p;
  seam_p.push_back(p[0]);
  std::vector<uint32_t> seam = kCube;
  for (std::size_t i = 12; i < 18; ++i)
    if (seam[i] == 0) seam[i] = 8;
  EXPECT_EQ(mesh_shape(seam_p, seam), MeshShape::Closed);
  EXPECT_DOUBLE_EQ(signed_volume(seam_p, seam), 1.0);
  // A copy off by rounding (a capsule's pole where cos(pi/2) is 6e-17, not 0) is welded too.
  seam_p[8] = glm::vec3(1e-17f, -2e-17f, 0.0f);
  EXPECT_EQ(mesh_shape(seam_p, seam), MeshShape::Closed);
  // ...while the same split is a hole when the copy is elsewhere.
  seam_p[8] = glm::vec3(0.0f, 0.0f, 0.001f);
  EXPECT_EQ(mesh_shape(seam_p, seam), MeshShape::Open);
  // One triangle flipped: every edge still shared twice, but one runs the same way twice.
  std::vector<uint32_t> flip = kCube;
  std::swap(flip[1], flip[2]);
  EXPECT_EQ(mesh_shape(p, flip), MeshShape::Misoriented);
  EXPECT_EQ(mesh_shape(p, {}), MeshShape::Open);
  EXPECT_STREQ(mesh_shape_name(MeshShape::Open), "open");
}

// One joint at the origin scaling a cube centred on it: scale 1 at 0 s, 0.5 at 0.2 s, 1 at 0.4 s,
// 1.2 at 0.7 s, 1 at 1 s. The volume goes as the scale cubed: -87.5% at 0.2 s (0.5^3 - 1) is the
// largest change; +72.8% (1.2^3 - 1) at 0.7 s is smaller.
Model scaling_rig(bool closed) {
  JointChannel ch;
  ch.scale.times = {0.0f, 0.2f, 0.4f, 0.7f, 1.0f};
  ch.scale.values = {glm::vec3(1), glm::vec3(0.5f), glm::vec3(1), glm::vec3(1.2f), glm::vec3(1)};
  Model m = test::one_joint_model(std::move(ch), "pulse");
  Mesh me;
  me.name = "cube";
  me.node = 0;
  me.skinned = true;
  me.positions = cube_positions(glm::vec3(-0.5f));
  me.indices = kCube;
  if (!closed) me.indices.resize(me.indices.size() - 3);
  for (const glm::vec3& p : me.positions) {
    me.normals.push_back(glm::normalize(p));
    me.joints.push_back(glm::u16vec4(0));
    me.weights.push_back(glm::vec4(1, 0, 0, 0));
    me.vertex_flags.push_back(0);
  }
  me.skin_joints = {0};
  me.inverse_bind = {glm::mat4(1.0f)};
  m.meshes.push_back(std::move(me));
  EXPECT_EQ(m.validate(), "");
  return m;
}

TEST(Volume, LargestChangeOverAClipOnAKnownScale) {
  const Model m = scaling_rig(true);
  const std::vector<MeshShape> shapes = mesh_shapes(m);
  ASSERT_EQ(shapes.size(), 1u);
  EXPECT_EQ(shapes[0], MeshShape::Closed);
  const std::vector<std::vector<glm::vec3>> centers = compute_rotation_centers(m, false);
  ASSERT_EQ(centers.size(), 1u);
  for (SkinMethod method : kSkinMethods) {
    SkinChoice skin;
    skin.method = method;
    skin.centers = centers;
    const VolumeChange v = clip_volume_change(m, 0, skin, shapes);
    SCOPED_TRACE(skin_method_name(method));
    ASSERT_TRUE(v.ok);
    EXPECT_EQ(v.mesh, 0);
    EXPECT_EQ(v.closed, 1u);
    EXPECT_EQ(v.open, 0u);
    EXPECT_DOUBLE_EQ(v.rate, kVolumeRate);
    EXPECT_EQ(v.samples, 31);  // 0, 1/30, ..., 29/30 and the end
    EXPECT_NEAR(v.bind_volume, 1.0, 1e-6);
    EXPECT_NEAR(v.change, 0.125 - 1.0, 1e-5);  // 0.5^3 - 1
    EXPECT_NEAR(v.time, 0.2, 1e-9);
  }
  // The rest pose alone (no clip): no change.
  const VolumeChange rest = clip_volume_change(m, -1, SkinChoice{}, shapes);
  ASSERT_TRUE(rest.ok);
  EXPECT_EQ(rest.samples, 1);
  EXPECT_NEAR(rest.change, 0.0, 1e-6);
}

TEST(Volume, OpenMeshesGiveNoFigure) {
  const Model m = scaling_rig(false);
  const std::vector<MeshShape> shapes = mesh_shapes(m);
  EXPECT_EQ(shapes[0], MeshShape::Open);
  const VolumeChange v = clip_volume_change(m, 0, SkinChoice{}, shapes);
  ASSERT_TRUE(v.ok);
  EXPECT_EQ(v.mesh, -1);
  EXPECT_EQ(v.closed, 0u);
  EXPECT_EQ(v.open, 1u);
  // Shapes that do not fit the model, and CoR without its centres, are refused.
  EXPECT_FALSE(clip_volume_change(m, 0, SkinChoice{}, {}).ok);
  SkinChoice cor;
  cor.method = SkinMethod::Cor;
  EXPECT_FALSE(clip_volume_change(scaling_rig(true), 0, cor, mesh_shapes(scaling_rig(true))).ok);
}

}  // namespace
}  // namespace sv
