// Volume change over a clip (skin/volume.h): the signed volume of cubes worked out by hand, the
// closed / open / misoriented classification (seams welded by position), the change per mesh
// over a clip on a one-joint rig whose scale keys are known, under every method, against the
// rest pose (an armature's unit scale cancels), and the budgets: the weld's work counted on a
// stray vertex and on a crowd of coincident ones, a very long clip sampled at the capped count,
// and a cancel that stops the sampling.
#include "skin/volume.h"

#include <gtest/gtest.h>

#include <limits>
#include <thread>

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
  // No triangle (a mesh of points or lines) is not "open": there is no surface.
  EXPECT_EQ(mesh_shape(p, {}), MeshShape::NoTriangles);
  EXPECT_STREQ(mesh_shape_name(MeshShape::NoTriangles), "no triangles (points or lines)");
  EXPECT_STREQ(mesh_shape_name(MeshShape::Closed), "closed");
  EXPECT_STREQ(mesh_shape_name(MeshShape::TooLarge), "not checked (too large)");
}

// A cube mesh [-0.5, 0.5]^3 on joint 0 (identity inverse bind: stored as is), every vertex fully
// on it; `closed` false drops one triangle.
Mesh cube_mesh(bool closed, const char* name = "cube") {
  Mesh me;
  me.name = name;
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
  return me;
}

// One joint at the origin scaling a cube centred on it: scale 1 at 0 s, 0.5 at 0.2 s, 1 at 0.4 s,
// 1.2 at 0.7 s, 1 at 1 s (times `stretch`d). The volume goes as the scale cubed: -87.5% at 0.2 s
// (0.5^3 - 1) is the least and the largest in magnitude; +72.8% (1.2^3 - 1) at 0.7 s the most.
Model scaling_rig(bool closed, double stretch = 1.0) {
  JointChannel ch;
  for (float t : {0.0f, 0.2f, 0.4f, 0.7f, 1.0f}) ch.scale.times.push_back(t * float(stretch));
  ch.scale.values = {glm::vec3(1), glm::vec3(0.5f), glm::vec3(1), glm::vec3(1.2f), glm::vec3(1)};
  Model m;
  if (stretch == 1.0) {
    m = test::one_joint_model(std::move(ch), "pulse");
  } else {
    m.skeleton.names = {"j"};
    m.skeleton.parents = {-1};
    m.skeleton.rest.resize(1);
    m.skeleton.inverse_bind = {glm::mat4(1.0f)};
    m.skeleton.is_bone = {1};
    Clip c;
    c.name = "long";
    c.duration = stretch;
    ch.joint = 0;
    c.channels.push_back(std::move(ch));
    m.clips.emplace_back();
    EXPECT_EQ(m.clips.back().build(c, m.skeleton), "");
  }
  m.meshes.push_back(cube_mesh(closed));
  EXPECT_EQ(m.validate(), "");
  return m;
}

TEST(Volume, ChangeOverAClipOnAKnownScale) {
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
    const VolumeFigures v = clip_volume_figures(m, 0, skin, shapes);
    SCOPED_TRACE(skin_method_name(method));
    ASSERT_EQ(v.status, VolumeStatus::Ok);
    ASSERT_EQ(v.meshes.size(), 1u);
    EXPECT_EQ(v.measured(), 1u);
    EXPECT_EQ(v.poses, 31u);  // 0, 1/30, ..., 29/30 and the end
    EXPECT_EQ(v.poses_at_rate, 31u);
    EXPECT_FALSE(v.capped());
    EXPECT_DOUBLE_EQ(v.step, 1.0 / kVolumeRate);
    const MeshVolume& c = v.meshes[0];
    EXPECT_EQ(c.name, "cube");
    EXPECT_NEAR(c.rest_volume, 1.0, 1e-6);
    EXPECT_NEAR(c.min_change, 0.125 - 1.0, 1e-5);  // 0.5^3 - 1
    EXPECT_NEAR(c.min_time, 0.2, 1e-9);
    EXPECT_NEAR(c.max_change, 1.728 - 1.0, 1e-5);  // 1.2^3 - 1
    EXPECT_NEAR(c.max_time, 0.7, 1e-9);
    EXPECT_NEAR(c.change(), -0.875, 1e-5);
    EXPECT_NEAR(c.time(), 0.2, 1e-9);
    EXPECT_EQ(volume_sampling_line(v), "31 poses, 30 per second and the end");
    EXPECT_EQ(mesh_volume_line(v, 0),
              "'cube': -87.50% at 0.200 s (min -87.50% at 0.200 s, max +72.80% at 0.700 s)");
  }
  // The rest pose alone (no clip): one pose, no change.
  const VolumeFigures rest = clip_volume_figures(m, -1, SkinChoice{}, shapes);
  ASSERT_EQ(rest.status, VolumeStatus::Ok);
  EXPECT_EQ(rest.poses, 1u);
  EXPECT_NEAR(rest.meshes[0].change(), 0.0, 1e-6);
}

// Each mesh is figured on its own, and named: mesh 1 is a cube a tenth the size (its rest
// volume a thousandth) under the same scale, mesh 2 is open and named with a newline.
TEST(Volume, EachMeshIsFiguredOnItsOwn) {
  Model m = scaling_rig(true);
  m.meshes.push_back(cube_mesh(true, "small"));
  for (glm::vec3& p : m.meshes.back().positions) p *= 0.1f;
  m.meshes.push_back(cube_mesh(false, "lid\nless"));
  ASSERT_EQ(m.validate(), "");
  const std::vector<MeshShape> shapes = mesh_shapes(m);
  const VolumeFigures v = clip_volume_figures(m, 0, SkinChoice{}, shapes);
  ASSERT_EQ(v.status, VolumeStatus::Ok);
  ASSERT_EQ(v.meshes.size(), 3u);
  EXPECT_EQ(v.measured(), 2u);
  EXPECT_NEAR(v.meshes[0].rest_volume, 1.0, 1e-6);
  EXPECT_NEAR(v.meshes[1].rest_volume, 1e-3, 1e-9);
  EXPECT_NEAR(v.meshes[0].change(), -0.875, 1e-5);
  EXPECT_NEAR(v.meshes[1].change(), -0.875, 1e-5);
  EXPECT_EQ(mesh_volume_line(v, 1),
            "'small': -87.50% at 0.200 s (min -87.50% at 0.200 s, max +72.80% at 0.700 s)");
  EXPECT_EQ(mesh_volume_line(v, 2),
            "'lid?less': open (an edge not shared by exactly two oppositely wound triangles), "
            "not measured");
  EXPECT_FALSE(v.meshes[2].measured);
}

// An FBX armature carries a 100x unit scale on its root in the rest pose and in every key; the
// mesh is stored (bind pose) at 1x. Against the bind pose every pose would be +99,999,900%;
// against the rest pose the scale cancels: a clip that only holds the 100x changes nothing,
// and one that halves it gives the -87.5% of a halved cube.
TEST(Volume, TheRestPoseCancelsAnArmatureUnitScale) {
  for (const bool halve : {false, true}) {
    JointChannel ch;
    ch.scale.times = {0.0f, 0.5f, 1.0f};
    ch.scale.values = {glm::vec3(100), glm::vec3(halve ? 50 : 100), glm::vec3(100)};
    Model m = test::one_joint_model(std::move(ch), "hold");
    m.skeleton.rest[0].scale = glm::vec3(100.0f);
    m.meshes.push_back(cube_mesh(true));
    ASSERT_EQ(m.validate(), "");
    const VolumeFigures v = clip_volume_figures(m, 0, SkinChoice{}, mesh_shapes(m));
    SCOPED_TRACE(halve);
    ASSERT_EQ(v.status, VolumeStatus::Ok);
    EXPECT_NEAR(v.meshes[0].rest_volume, 1e6, 1e-3);  // 100^3 x the stored unit cube
    if (halve) {
      EXPECT_NEAR(v.meshes[0].change(), -0.875, 1e-6);
      EXPECT_NEAR(v.meshes[0].time(), 0.5, 1e-9);
    } else {
      EXPECT_NEAR(v.meshes[0].min_change, 0.0, 1e-9);
      EXPECT_NEAR(v.meshes[0].max_change, 0.0, 1e-9);
    }
  }
}

TEST(Volume, OpenMeshesGiveNoFigure) {
  const Model m = scaling_rig(false);
  const std::vector<MeshShape> shapes = mesh_shapes(m);
  EXPECT_EQ(shapes[0], MeshShape::Open);
  const VolumeFigures v = clip_volume_figures(m, 0, SkinChoice{}, shapes);
  ASSERT_EQ(v.status, VolumeStatus::Ok);
  EXPECT_EQ(v.measured(), 0u);
  EXPECT_EQ(v.poses, 0u);  // nothing to measure: no pose sampled
  EXPECT_EQ(volume_sampling_line(v), "no closed mesh to measure");
  // Shapes that do not fit the model, and CoR without its centres, are refused.
  EXPECT_EQ(clip_volume_figures(m, 0, SkinChoice{}, {}).status, VolumeStatus::BadShapes);
  SkinChoice cor;
  cor.method = SkinMethod::Cor;
  const VolumeFigures no_centres =
      clip_volume_figures(scaling_rig(true), 0, cor, mesh_shapes(scaling_rig(true)));
  EXPECT_EQ(no_centres.status, VolumeStatus::Unskinnable);
  EXPECT_EQ(mesh_volume_line(no_centres, 0), "'cube': closed, cannot be skinned");
  // A mesh with no name is named by its index, not ''.
  VolumeFigures unnamed = no_centres;
  unnamed.meshes[0].name.clear();
  EXPECT_EQ(mesh_volume_line(unnamed, 0), "mesh 0 (no name): closed, cannot be skinned");
}

// A closed box of 6 faces, each a k x k grid of quads with its own copies of the border
// vertices (seams on every edge of the box, welded back), [0,1]^3, wound outward.
void grid_box(int k, std::vector<glm::vec3>& p, std::vector<uint32_t>& idx) {
  for (int axis = 0; axis < 3; ++axis) {
    for (int side = 0; side < 2; ++side) {
      const auto base = static_cast<uint32_t>(p.size());
      for (int i = 0; i <= k; ++i) {
        for (int j = 0; j <= k; ++j) {
          glm::vec3 v(0.0f);
          v[axis] = float(side);
          v[(axis + 1) % 3] = float(i) / float(k);
          v[(axis + 2) % 3] = float(j) / float(k);
          p.push_back(v);
        }
      }
      for (int i = 0; i < k; ++i) {
        for (int j = 0; j < k; ++j) {
          const uint32_t a = base + uint32_t(i * (k + 1) + j), b = a + uint32_t(k + 1);
          // (axis+1) x (axis+2) = +axis: counter-clockwise from outside on side 1.
          if (side == 1)
            idx.insert(idx.end(), {a, b, b + 1, a, b + 1, a + 1});
          else
            idx.insert(idx.end(), {a, b + 1, b, a, a + 1, b + 1});
        }
      }
    }
  }
}

// One vertex at 1e38 (a mutated file) used to widen the weld's cells until every vertex shared
// one: n^2 / 2 comparisons. The box is measured on the central 98%, so the stray vertex sits
// alone in its cell and the work stays a few probes per vertex.
TEST(Volume, AStrayVertexKeepsTheWeldLinear) {
  std::vector<glm::vec3> p;
  std::vector<uint32_t> idx;
  grid_box(40, p, idx);  // 6 x 41 x 41 = 10,086 vertices
  std::size_t work = 0;
  EXPECT_EQ(mesh_shape(p, idx, {}, nullptr, &work), MeshShape::Closed);
  const std::size_t clean = work;
  EXPECT_LE(clean, 15 * p.size());        // 14 probes per occupied cell, and the seams' pairs
  p[500] = glm::vec3(1e38f, 0.0f, 0.0f);  // an interior vertex of a face: still closed
  EXPECT_EQ(mesh_shape(p, idx, {}, nullptr, &work), MeshShape::Closed);
  EXPECT_LE(work, 15 * p.size());
  // Not finite: not checked, no work.
  p[500] = glm::vec3(std::numeric_limits<float>::infinity(), 0.0f, 0.0f);
  EXPECT_EQ(mesh_shape(p, idx, {}, nullptr, &work), MeshShape::NonFinite);
  EXPECT_EQ(work, 0u);
}

// Thousands of distinct positions within one weld distance of each other, which no trimming
// avoids: the weld stops at its budget and the mesh is "not checked (too large)".
TEST(Volume, CoincidentVerticesStopAtTheWeldBudget) {
  std::vector<glm::vec3> p;
  for (int i = 0; i < 10000; ++i) p.emplace_back(float(i) / 10000.0f, 0.5f, 0.5f);  // spread
  for (int i = 0; i < 10000; ++i) p.emplace_back(float(i) * 1e-11f, 0.0f, 0.0f);    // clustered
  const std::vector<uint32_t> idx = {0, 1, 2};
  const VolumeBudget budget;
  const std::size_t cap = budget.weld_work_per_vertex * p.size() + kWeldWorkSlack;
  std::size_t work = 0;
  EXPECT_EQ(mesh_shape(p, idx, budget, nullptr, &work), MeshShape::TooLarge);
  EXPECT_LE(work, cap);
  EXPECT_LT(work, 10000u * 9999u / 2);  // the cluster's pairs alone would be 5e7
  // Over the vertex budget: not checked, no work.
  VolumeBudget small;
  small.max_mesh_vertices = 100;
  EXPECT_EQ(mesh_shape(p, idx, small, nullptr, &work), MeshShape::TooLarge);
  EXPECT_EQ(work, 0u);
}

// A clip of a million seconds is sampled at the capped count, spread evenly, and the line says
// the reduced rate.
TEST(Volume, AVeryLongClipIsSampledAtTheCappedCount) {
  const Model m = scaling_rig(true, 1e6);
  const std::vector<MeshShape> shapes = mesh_shapes(m);
  const VolumeFigures v = clip_volume_figures(m, 0, SkinChoice{}, shapes);
  ASSERT_EQ(v.status, VolumeStatus::Ok);
  EXPECT_EQ(v.poses, 4096u);
  EXPECT_EQ(v.poses_at_rate, 30000001u);
  EXPECT_TRUE(v.capped());
  EXPECT_DOUBLE_EQ(v.step, 1e6 / 4095.0);
  EXPECT_EQ(volume_sampling_line(v),
            "4096 poses, every 244.2 s (capped: 30 per second would take 30000001)");
  // The keys at 0.2e6 s (x 0.5) and 0.7e6 s (x 1.2) fall between samples: the figures are
  // those of the nearest poses, within what a joint moves in one step.
  EXPECT_NEAR(v.meshes[0].min_change, -0.875, 0.01);
  EXPECT_NEAR(v.meshes[0].max_change, 0.728, 0.01);
  // A smaller budget: fewer poses; the work budget (poses x vertices) caps too.
  VolumeBudget budget;
  budget.max_poses = 10;
  EXPECT_EQ(clip_volume_figures(m, 0, SkinChoice{}, shapes, budget).poses, 10u);
  budget.max_poses = 4096;
  budget.max_pose_work = 8 * 5;  // 8 vertices: 5 poses
  EXPECT_EQ(clip_volume_figures(m, 0, SkinChoice{}, shapes, budget).poses, 5u);
}

// A cancel set before the call measures nothing; one set while the poses are sampled (on another
// thread, as the window runs it) stops the sampling before its end.
TEST(Volume, CancelStopsTheWork) {
  // The long clip over a 60,006-vertex box (4096 poses of it: seconds of skinning if the flag
  // were not polled).
  Model m = scaling_rig(true, 1e6);
  {
    Mesh& box = m.meshes[0];
    box.positions.clear();
    box.indices.clear();
    grid_box(100, box.positions.edit(), box.indices.edit());
    const std::size_t n = box.positions.size();
    box.normals.assign(n, glm::vec3(0, 0, 1));
    box.joints.assign(n, glm::u16vec4(0));
    box.weights.assign(n, glm::vec4(1, 0, 0, 0));
    box.vertex_flags.assign(n, 0);
    ASSERT_EQ(m.validate(), "");
  }
  VolumeBudget budget;
  budget.max_pose_work = std::size_t{1} << 40;
  std::atomic<bool> cancel{true};
  const std::vector<MeshShape> none = mesh_shapes(m, {}, &cancel);
  EXPECT_EQ(none[0], MeshShape::Cancelled);
  const std::vector<MeshShape> shapes = mesh_shapes(m);
  ASSERT_EQ(shapes[0], MeshShape::Closed);
  VolumeFigures v = clip_volume_figures(m, 0, SkinChoice{}, shapes, {}, &cancel);
  EXPECT_EQ(v.status, VolumeStatus::Cancelled);
  EXPECT_EQ(v.poses, 0u);
  EXPECT_EQ(volume_sampling_line(v), "cancelled");
  EXPECT_EQ(mesh_volume_line(v, 0), "'cube': closed, cancelled");

  // 4096 poses to go; cancelled once the first one is done. The sampler polls the flag before
  // every pose, so it ends long before the 4096th.
  cancel = false;
  std::atomic<std::size_t> progress{0};
  std::thread worker([&] {
    v = clip_volume_figures(m, 0, SkinChoice{}, shapes, budget, &cancel, nullptr, &progress);
  });
  while (progress.load() == 0) std::this_thread::yield();
  cancel = true;
  worker.join();
  EXPECT_EQ(v.status, VolumeStatus::Cancelled);
  EXPECT_GE(v.poses, 1u);
  EXPECT_LT(v.poses, 4096u);
}

}  // namespace
}  // namespace sv
