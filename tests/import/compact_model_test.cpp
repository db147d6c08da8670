// Compact vertex streams (skin/compact_streams.h) on the real skinned test models, imported in
// this process: LBS (and DQS, CoR) on the compact streams against the same method on the float
// streams at several times of the first clip, positions within 1e-6 of the model's size (its
// skinned bounding box's diagonal at that time), normals within the octahedral bound. Each model's
// figures are printed (BENCHMARKS.md round 20d quotes them), with what 16-bit weights would have
// cost: the reason the layout keeps 3 f32 weights.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "anim/animator.h"
#include "anim/bounds.h"
#include "anim/pose.h"
#include "import/worker_import.h"
#include "io/model_format.h"
#include "skin/compact_streams.h"
#include "skin/rotation_centers.h"
#include "skin/skin_method.h"
#include "skin/skinning.h"

namespace sv {
namespace {

// The skinned models the corruption sweep starts from (tests/app/sweep_test.cpp's kAlways, less
// the BVH: a skeleton without a mesh), and the default character.
const char* const kCompactModels[] = {
    "X/BCN_Epileptic.X", "X/Testwuson.X",
    "X/anim_test.x",     "FBX/animation_with_skeleton.fbx",
    "FBX/huesitos.fbx",  "glTF2/simple_skin/simple_skin.gltf",
    "SMD/WusonSMD.smd",  "MD5/SimpleCube.md5mesh",
    "@default",  // the viewer's own character (assets/default.glb)
};

// Weights as normalised 16-bit integers, the 4th what the first 3 leave (so they sum to 1).
std::vector<glm::vec4> weights16(const std::vector<glm::vec4>& w) {
  std::vector<glm::vec4> out;
  for (const glm::vec4& x : w) {
    glm::vec4 q;
    for (int i = 0; i < 3; ++i) q[i] = std::nearbyint(x[i] * 65535.0f) / 65535.0f;
    q.w = 1.0f - ((q.x + q.y) + q.z);
    out.push_back(q);
  }
  return out;
}

double angle_of(const glm::vec3& a, const glm::vec3& b) {
  const glm::dvec3 da = glm::normalize(glm::dvec3(a)), db = glm::normalize(glm::dvec3(b));
  return std::atan2(glm::length(glm::cross(da, db)), glm::dot(da, db));
}

// The streams the import worker stores with each mesh (model format 12) are encode_compact of its
// float streams, bit for bit, on every model; written to the model stream and read back in
// place, they are the same bytes, borrowed from the stream.
TEST(CompactStreamsOnRealModels, TheWorkersStoredStreamsAreTheEncodersBitForBit) {
  int models = 0;
  for (const char* rel : kCompactModels) {
    const std::string path = std::string(rel) == "@default"
                                 ? std::string(SKINVIEW_SOURCE_DIR) + "/assets/default.glb"
                                 : std::string(SKINVIEW_TEST_MODELS) + "/" + rel;
    if (!std::filesystem::exists(path)) continue;  // assimp-testmodels not installed
    SCOPED_TRACE(rel);
    const ImportResult r = import_file_here(path);
    ASSERT_TRUE(r.ok()) << r.error;
    auto bytes =
        std::make_shared<const std::vector<uint8_t>>(write_model(*r.model, r.report, r.provenance));
    const ImportResult back = read_model(*bytes, path, nullptr, bytes);
    ASSERT_TRUE(back.ok()) << back.error;
    ASSERT_EQ(back.model->meshes.size(), r.model->meshes.size());
    for (std::size_t i = 0; i < r.model->meshes.size(); ++i) {
      for (const Mesh* mesh : {&r.model->meshes[i], &back.model->meshes[i]}) {
        ASSERT_TRUE(mesh->has_compact()) << mesh->name;
        const CompactStreams want = encode_compact(*mesh);
        const CompactStreams got = stored_compact(*mesh);
        EXPECT_EQ(got.max_joint, want.max_joint);
        EXPECT_EQ(got.narrow_joints(), mesh->max_joint < 256);
        EXPECT_EQ(got.normals, want.normals);
        EXPECT_EQ(got.joints8, want.joints8);
        EXPECT_EQ(got.joints16, want.joints16);
        ASSERT_EQ(got.weights.size(), want.weights.size());
        EXPECT_EQ(std::memcmp(got.weights.data(), want.weights.data(), 12 * want.weights.size()),
                  0);
      }
      const Mesh& read = back.model->meshes[i];
      EXPECT_TRUE(read.compact_normals.borrowed() && read.compact_weights.borrowed() &&
                  (read.compact_joints8.borrowed() || read.compact_joints16.borrowed()))
          << read.name << ": read in place";
    }
    ++models;
  }
  EXPECT_GE(models, 1);  // the default character at least
}

TEST(CompactStreamsOnRealModels, WithinOneMillionthOfTheModelsSize) {
  int models = 0;
  for (const char* rel : kCompactModels) {
    const std::string path = std::string(rel) == "@default"
                                 ? std::string(SKINVIEW_SOURCE_DIR) + "/assets/default.glb"
                                 : std::string(SKINVIEW_TEST_MODELS) + "/" + rel;
    std::FILE* f = std::fopen(path.c_str(), "rb");
    if (f == nullptr) continue;  // assimp-testmodels not installed
    std::fclose(f);
    SCOPED_TRACE(rel);
    const ImportResult r = import_file_here(path);
    ASSERT_TRUE(r.ok()) << r.error;
    const Model& model = *r.model;
    std::vector<CompactStreams> compact;
    for (const Mesh& mesh : model.meshes) compact.push_back(encode_compact(mesh));
    Animator pose(model);
    const bool clip = !model.clips.empty();
    if (clip) pose.set_clip(model, 0);
    double worst = 0.0, worst16 = 0.0, worst_angle = 0.0;
    std::size_t vertices = 0;
    for (const double fraction : {0.0, 0.3, 0.55, 0.8}) {
      ASSERT_TRUE(pose.evaluate(model, clip ? PoseMode::Clip : PoseMode::Rest,
                                fraction * (clip ? model.clips[0].duration() : 0.0)));
      const std::span<const glm::mat4> palette = pose.palette();
      std::vector<glm::mat3> normal_palette(palette.size());
      ASSERT_TRUE(build_normal_palette(palette, normal_palette));
      struct Out {
        std::vector<glm::vec3> fp, fn, cp, qp, qn;
        std::vector<uint32_t> cn;
      };
      std::vector<Out> outs(model.meshes.size());
      Bounds box;
      for (std::size_t m = 0; m < model.meshes.size(); ++m) {
        const Mesh& mesh = model.meshes[m];
        const std::size_t n = mesh.vertex_count();
        const auto k = palette.subspan(pose.palette_base(m), mesh.skin_joints.size());
        const auto nk = std::span<const glm::mat3>(normal_palette)
                            .subspan(pose.palette_base(m), mesh.skin_joints.size());
        Out& o = outs[m];
        o.fp.resize(n), o.fn.resize(n), o.cp.resize(n), o.cn.resize(n), o.qp.resize(n),
            o.qn.resize(n);
        const SkinInput in{mesh.positions, mesh.normals, mesh.joints, mesh.weights, mesh.max_joint};
        ASSERT_TRUE(skin_lbs(k, nk, in, o.fp, o.fn));
        ASSERT_TRUE(skin_lbs_compact(k, nk, compact[m].input(mesh.positions), o.cp, o.cn));
        const std::vector<glm::vec4> w16 = weights16(mesh.weights);
        const SkinInput in16{mesh.positions, mesh.normals, mesh.joints, w16, mesh.max_joint};
        ASSERT_TRUE(skin_lbs(k, nk, in16, o.qp, o.qn));
        for (const glm::vec3& p : o.fp) box.add(p);
        vertices += n;
      }
      const double size = box.diagonal();
      ASSERT_GT(size, 0.0);
      for (const Out& o : outs)
        for (std::size_t v = 0; v < o.fp.size(); ++v) {
          worst = std::max(worst, glm::length(glm::dvec3(o.cp[v]) - glm::dvec3(o.fp[v])) / size);
          worst16 =
              std::max(worst16, glm::length(glm::dvec3(o.qp[v]) - glm::dvec3(o.fp[v])) / size);
          if (glm::dot(o.fn[v], o.fn[v]) > 0.0f)
            worst_angle = std::max(worst_angle, angle_of(oct_decode(o.cn[v]), o.fn[v]));
        }
    }
    std::printf(
        "compact streams: %-36s %7zu vertex-poses  position error %.2e of the size "
        "(16-bit weights: %.2e)  normal %.1e rad\n",
        rel, vertices, worst, worst16, worst_angle);
    EXPECT_LE(worst, 1e-6);
    // Two octahedral roundings, the input's turned by the normal matrix (rigid here: by 1).
    EXPECT_LT(worst_angle, 5e-5 + 7e-5 + 1e-5);
    ++models;
  }
  if (models == 0) GTEST_SKIP() << "assimp-testmodels not installed";
}

// DQS and CoR on the same compact streams (skin_compact) against the same methods on the float
// streams, with the same bounds: positions within 1e-6 of the model's size, normals within the
// two octahedral roundings (each method turns a normal by a rotation, times the blended
// stretch's cofactor where a bone is scaled: on these rigs a uniform scale, which turns nothing).
// CoR's centres are the float path's (computed once, f32 x3 on both paths).
TEST(CompactStreamsOnRealModels, DqsAndCorWithinOneMillionthOfTheModelsSize) {
  int models = 0;
  for (const char* rel : kCompactModels) {
    const std::string path = std::string(rel) == "@default"
                                 ? std::string(SKINVIEW_SOURCE_DIR) + "/assets/default.glb"
                                 : std::string(SKINVIEW_TEST_MODELS) + "/" + rel;
    if (!std::filesystem::exists(path)) continue;  // assimp-testmodels not installed
    SCOPED_TRACE(rel);
    const ImportResult r = import_file_here(path);
    ASSERT_TRUE(r.ok()) << r.error;
    const Model& model = *r.model;
    std::vector<CompactStreams> compact;
    for (const Mesh& mesh : model.meshes) compact.push_back(encode_compact(mesh));
    const std::vector<std::vector<glm::vec3>> centers = compute_rotation_centers(model, false);
    ASSERT_EQ(centers.size(), model.meshes.size());
    Animator pose(model);
    const bool clip = !model.clips.empty();
    if (clip) pose.set_clip(model, 0);
    for (const SkinMethod method : {SkinMethod::Dqs, SkinMethod::Cor}) {
      double worst = 0.0, worst_angle = 0.0;
      std::size_t vertices = 0;
      for (const double fraction : {0.0, 0.3, 0.55, 0.8}) {
        ASSERT_TRUE(pose.evaluate(model, clip ? PoseMode::Clip : PoseMode::Rest,
                                  fraction * (clip ? model.clips[0].duration() : 0.0)));
        const std::span<const glm::mat4> palette = pose.palette();
        std::vector<MethodBone> method_palette(palette.size());
        ASSERT_TRUE(build_method_palette(palette, method_palette));
        struct Out {
          std::vector<glm::vec3> fp, fn, cp;
          std::vector<uint32_t> cn;
        };
        std::vector<Out> outs(model.meshes.size());
        Bounds box;
        for (std::size_t m = 0; m < model.meshes.size(); ++m) {
          const Mesh& mesh = model.meshes[m];
          const std::size_t n = mesh.vertex_count();
          const std::size_t base = pose.palette_base(m), bones = mesh.skin_joints.size();
          SkinPalettes pal;
          pal.palette = palette.subspan(base, bones);
          pal.method = std::span<const MethodBone>(method_palette).subspan(base, bones);
          Out& o = outs[m];
          o.fp.resize(n), o.fn.resize(mesh.normals.size()), o.cp.resize(n),
              o.cn.resize(mesh.normals.size());
          SkinInput in{mesh.positions, mesh.normals, mesh.joints, mesh.weights, mesh.max_joint};
          in.centers = centers[m];
          ASSERT_TRUE(skin(method, pal, in, o.fp, o.fn));
          CompactSkinInput cin = compact[m].input(mesh.positions);
          cin.centers = centers[m];
          ASSERT_TRUE(skin_compact(method, pal, cin, o.cp, o.cn));
          for (const glm::vec3& p : o.fp) box.add(p);
          vertices += n;
        }
        const double size = box.diagonal();
        ASSERT_GT(size, 0.0);
        for (const Out& o : outs) {
          for (std::size_t v = 0; v < o.fp.size(); ++v)
            worst = std::max(worst, glm::length(glm::dvec3(o.cp[v]) - glm::dvec3(o.fp[v])) / size);
          for (std::size_t v = 0; v < o.fn.size(); ++v)
            if (glm::dot(o.fn[v], o.fn[v]) > 0.0f)
              worst_angle = std::max(worst_angle, angle_of(oct_decode(o.cn[v]), o.fn[v]));
        }
      }
      std::printf(
          "compact streams: %-36s %s %7zu vertex-poses  position error %.2e of the size  "
          "normal %.1e rad\n",
          rel, skin_method_label(method), vertices, worst, worst_angle);
      EXPECT_LE(worst, 1e-6) << skin_method_label(method);
      EXPECT_LT(worst_angle, 5e-5 + 7e-5 + 1e-5) << skin_method_label(method);
    }
    ++models;
  }
  if (models == 0) GTEST_SKIP() << "assimp-testmodels not installed";
}

}  // namespace
}  // namespace sv
