// The flat binary model (io/model_format.h): what the worker writes reads back exactly, and the
// reader -- the trust boundary -- refuses, with one line, every damaged stream: each truncation,
// each flipped byte that breaks a promise, and models that break one promise each (a parent
// after its child, a joint index past the skin, a triangle index past the vertices, NaN, a count
// that claims more than the stream holds, another version).
#include "io/model_format.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <xxhash.h>

#include "test_util.h"

namespace sv {
namespace {

// Three joints in a chain, one skinned mesh of 4 vertices (2 triangles, stored out of file
// order), one material with an embedded image, one clip with linear, step and cubic tracks.
Model sample_model() {
  Model m;
  Skeleton& sk = m.skeleton;
  sk.names = {"root", "spine", "head"};
  sk.parents = {kNoParent, 0, 1};
  sk.rest.resize(3);
  sk.rest[1].translation = {0, 1, 0};
  sk.rest[2].translation = {0, 1, 0};
  sk.rest[2].rotation = glm::normalize(glm::quat(0.9f, 0.1f, 0.2f, 0.3f));
  sk.inverse_bind = {glm::mat4(1.0f), glm::mat4(1.0f), glm::mat4(1.0f)};
  sk.inverse_bind[1][3] = {0, -1, 0, 1};
  sk.inverse_bind[2][3] = {0, -2, 0, 1};
  sk.is_bone = {0, 1, 1};

  Mesh mesh;
  mesh.name = "body";
  mesh.node = 0;
  mesh.skinned = true;
  mesh.material = 0;
  mesh.max_influences = 2;
  mesh.positions = {{0, 0, 0}, {1, 0, 0}, {0, 2, 0}, {1, 2, 0}};
  mesh.normals = {{0, 0, 1}, {0, 0, 1}, {0, 0, 1}, {0, 0, 1}};
  mesh.uvs = {{0, 0}, {1, 0}, {0, 1}, {1, 1}};
  mesh.joints = {{0, 0, 0, 0}, {0, 1, 0, 0}, {1, 0, 0, 0}, {1, 0, 0, 0}};
  mesh.weights = {{1, 0, 0, 0}, {0.25f, 0.75f, 0, 0}, {1, 0, 0, 0}, {1, 0, 0, 0}};
  mesh.vertex_flags = {0, kVertexRenormalised, 0, kVertexTruncated};
  mesh.indices = {0, 1, 2, 2, 1, 3};
  mesh.line_indices = {0, 3, 1, 2};  // format version 9: lines and points besides triangles
  mesh.point_indices = {3};
  mesh.source_vertex = {2, 0, 3, 1};
  mesh.source_weight_sums = {1.0f, 1.25f, 1.0f, 0.9f};
  mesh.max_joint = 1;
  // Vertex 3 had 5 influences: the 5th (on bone 0) is the second set's only weight.
  mesh.max_influences = 5;
  mesh.joints2 = {{0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}};
  mesh.weights2 = {glm::vec4(0.0f), glm::vec4(0.0f), glm::vec4(0.0f), {0.2f, 0, 0, 0}};
  mesh.cut_weights = {0.0f, 0.0f, 0.0f, 0.2f};
  // Format 12's compact streams, by hand: +z is octahedral (0, 0), code 0; max_joint 1 < 256
  // keeps u8 joints; the first 3 weights.
  mesh.compact_normals = {0u, 0u, 0u, 0u};
  mesh.compact_joints8 = {{0, 0, 0, 0}, {0, 1, 0, 0}, {1, 0, 0, 0}, {1, 0, 0, 0}};
  mesh.compact_weights = {{1, 0, 0}, {0.25f, 0.75f, 0}, {1, 0, 0}, {1, 0, 0}};
  mesh.skin_joints = {1, 2};
  mesh.inverse_bind = {sk.inverse_bind[1], sk.inverse_bind[2]};
  // Two morph targets: one with normal deltas and a default weight, one positions only.
  MorphTarget smile;
  smile.name = "smile";
  smile.default_weight = 0.25f;
  smile.position_deltas = {{0, 0.5f, 0}, {0, 0, 0}, {0.125f, 0, 0}, {0, 0, -1}};
  smile.normal_deltas = {{0, 0.1f, 0}, {0, 0, 0}, {0, 0, 0}, {0.2f, 0, 0}};
  mesh.morph_targets.push_back(std::move(smile));
  MorphTarget blink;
  blink.name = "blink";
  blink.position_deltas = {{0, 0, 0}, {0, -0.25f, 0}, {0, 0, 0}, {0, 0, 0}};
  mesh.morph_targets.push_back(std::move(blink));
  m.meshes.push_back(std::move(mesh));

  Material mat;
  mat.name = "skin";
  mat.base_color = {0.8f, 0.5f, 0.4f, 1.0f};
  mat.texture_name = "textures/skin.png";
  mat.image = 0;
  mat.double_sided = false;  // not the default: a reader that drops the flag reads true
  m.materials.push_back(std::move(mat));
  Image image;  // 2 x 1 RGBA pixels, as the worker decodes them
  image.source = "textures/skin.png";
  image.width = 2;
  image.height = 1;
  image.rgba = {255, 0, 0, 255, 0, 128, 255, 64};
  m.images.push_back(std::move(image));

  Clip clip;
  clip.name = "nod";
  clip.duration = 2.0;
  JointChannel ch;
  ch.joint = 2;
  ch.translation.interpolation = Interpolation::Step;
  ch.translation.times = {0.0f, 1.0f};
  ch.translation.values = {{0, 1, 0}, {0, 1.5f, 0}};
  ch.rotation.times = {0.0f, 2.0f};
  ch.rotation.values = {glm::quat(1, 0, 0, 0), glm::normalize(glm::quat(0.7f, 0.7f, 0, 0))};
  ch.scale.interpolation = Interpolation::CubicSpline;
  ch.scale.times = {0.5f};
  ch.scale.values = {{0, 0, 0}, {1, 2, 3}, {0, 0, 0}};
  clip.channels.push_back(std::move(ch));
  ClipRuntime& runtime = m.clips.emplace_back();
  EXPECT_EQ(runtime.build(clip, m.skeleton), "");
  // The clip drives both targets of the mesh over 3 keys.
  MorphTrack track;
  track.mesh = 0;
  track.interpolation = Interpolation::Step;
  track.times = {0.0, 0.5, 2.0};
  track.weights = {0.0f, 1.0f, 0.5f, 0.25f, 1.0f, 0.0f};
  m.morph_clips.emplace_back().tracks.push_back(std::move(track));
  return m;
}

ImportReport sample_report() {
  ImportReport r;
  r.vertices_renormalised = 1;
  r.vertices_over_4_influences = 1;
  r.largest_dropped_weight = 0.125;
  r.vertices_over_8_influences = 3;
  r.largest_cut_weight = 0.375;
  r.clips_extended = 1;
  r.textures_not_loaded = 2;
  r.notes = {"Mesh 'body': 1 vertices had weights not summing to 1; renormalised.", "second"};
  r.ticks_per_second_note = "Some clip gave no ticks per second; 25 ticks per second were assumed.";
  r.unit_metres = 0.0254;
  return r;
}

ImportProvenance sample_provenance() {
  return {"assimp 5.2.4", {"/models/body.bin"}, "landlock v7, seccomp, rlimits"};
}

std::vector<uint8_t> sample_stream() {
  const Model m = sample_model();
  return write_model(m, sample_report(), sample_provenance());
}

bool refused(const ImportResult& r) {
  return !r.ok() && r.error.rfind("f.bin: the importer's output is malformed (", 0) == 0 &&
         r.error.find("; refused") != std::string::npos && r.error.find('\n') == std::string::npos;
}

// The error for `m` written and read back; "" when it was accepted.
std::string read_back_error(const Model& m) {
  const auto bytes = std::make_shared<const std::vector<uint8_t>>(write_model(m, {}, {}));
  const ImportResult r = read_model(*bytes, "f.bin");
  // Read in place (mesh streams borrowed from the bytes): the same verdict, word for word.
  const ImportResult in_place = read_model(*bytes, "f.bin", nullptr, bytes);
  EXPECT_EQ(in_place.ok(), r.ok());
  EXPECT_EQ(in_place.error, r.error);
  if (r.ok()) return {};
  EXPECT_TRUE(refused(r)) << r.error;
  return r.error;
}

// sample_model's skeleton with one mesh whose every stream spans several of the reader's copy
// blocks (16 KiB: 4,096 floats or indices), so a value the reader checks as it copies can lie in a
// block of its own: the middle one or the last.
constexpr std::size_t kBigVertices = 10000;
Model big_mesh_model() {
  Model m = sample_model();
  m.morph_clips.clear();
  Mesh& mesh = m.meshes[0];
  mesh = Mesh();
  mesh.name = "big";
  mesh.node = 0;
  mesh.skinned = true;
  mesh.max_influences = 5;
  const std::size_t n = kBigVertices;
  for (std::size_t i = 0; i < n; ++i) {
    mesh.positions.push_back({static_cast<float>(i), 0.5f, 1.0f});
    mesh.normals.push_back({0, 0, 1});
    mesh.uvs.push_back({0.25f, 0.75f});
    mesh.joints.push_back({0, 1, 0, 0});
    mesh.weights.push_back({0.5f, 0.5f, 0, 0});
    mesh.vertex_flags.push_back(0);
    mesh.point_indices.push_back(static_cast<uint32_t>(i));
    mesh.line_indices.push_back(static_cast<uint32_t>(i));
    mesh.line_indices.push_back(static_cast<uint32_t>((i + 1) % n));
    mesh.source_vertex.push_back(static_cast<uint32_t>(n - 1 - i));
    mesh.source_weight_sums.push_back(1.0f);
    mesh.joints2.push_back({1, 0, 0, 0});
    mesh.weights2.push_back({0.125f, 0, 0, 0});
    mesh.cut_weights.push_back(0.0f);
    mesh.compact_normals.push_back(0u);
    mesh.compact_joints8.push_back({0, 1, 0, 0});
    mesh.compact_weights.push_back({0.5f, 0.5f, 0});
  }
  for (std::size_t i = 0; i + 2 < n; ++i)
    for (std::size_t k = 0; k < 3; ++k) mesh.indices.push_back(static_cast<uint32_t>(i + k));
  mesh.max_joint = 1;
  mesh.skin_joints = {1, 2};
  mesh.inverse_bind = {m.skeleton.inverse_bind[1], m.skeleton.inverse_bind[2]};
  return m;
}

// The worker writes the stream in place (into its mapped result file): the same bytes as the
// vector writer's, into a span of exactly model_stream_size(); a span of another size is refused.
TEST(ModelFormat, WrittenInPlaceIsTheSameStream) {
  const Model m = sample_model();
  const std::vector<uint8_t> want = sample_stream();
  const std::size_t n = model_stream_size(m, sample_report(), sample_provenance());
  ASSERT_EQ(n, want.size());
  std::vector<uint8_t> got(n, 0xab);  // not zeros: every byte, padding too, is written
  EXPECT_TRUE(write_model_into(got, m, sample_report(), sample_provenance()));
  EXPECT_EQ(got, want);
  std::vector<uint8_t> short_by_8(n - 8), long_by_8(n + 8);
  EXPECT_FALSE(write_model_into(short_by_8, m, sample_report(), sample_provenance()));
  EXPECT_FALSE(write_model_into(long_by_8, m, sample_report(), sample_provenance()));
}

TEST(ModelFormat, RoundTripsEveryField) {
  const Model want = sample_model();
  const std::vector<uint8_t> bytes = sample_stream();
  EXPECT_EQ(bytes.size() % 8, 0u);
  const ImportResult r = read_model(bytes, "f.bin");
  ASSERT_TRUE(r.ok()) << r.error;
  const Model& got = *r.model;
  EXPECT_EQ(got.skeleton.names, want.skeleton.names);
  EXPECT_EQ(got.skeleton.parents, want.skeleton.parents);
  EXPECT_EQ(got.skeleton.is_bone, want.skeleton.is_bone);
  for (std::size_t j = 0; j < 3; ++j) {
    EXPECT_EQ(got.skeleton.rest[j].translation, want.skeleton.rest[j].translation);
    EXPECT_EQ(got.skeleton.rest[j].rotation, want.skeleton.rest[j].rotation);
    EXPECT_EQ(got.skeleton.rest[j].scale, want.skeleton.rest[j].scale);
    EXPECT_EQ(got.skeleton.inverse_bind[j], want.skeleton.inverse_bind[j]);
  }
  ASSERT_EQ(got.meshes.size(), 1u);
  const Mesh &a = got.meshes[0], &b = want.meshes[0];
  EXPECT_EQ(a.name, b.name);
  EXPECT_EQ(a.node, b.node);
  EXPECT_EQ(a.skinned, b.skinned);
  EXPECT_EQ(a.material, b.material);
  EXPECT_EQ(a.max_influences, b.max_influences);
  EXPECT_EQ(a.positions, b.positions);
  EXPECT_EQ(a.normals, b.normals);
  EXPECT_EQ(a.uvs, b.uvs);
  EXPECT_EQ(a.joints, b.joints);
  EXPECT_EQ(a.weights, b.weights);
  EXPECT_EQ(a.vertex_flags, b.vertex_flags);
  EXPECT_EQ(a.indices, b.indices);
  EXPECT_EQ(a.line_indices, b.line_indices);
  EXPECT_EQ(a.point_indices, b.point_indices);
  EXPECT_EQ(a.source_vertex, b.source_vertex);
  EXPECT_EQ(a.source_weight_sums, b.source_weight_sums);
  EXPECT_EQ(a.max_joint, b.max_joint);
  EXPECT_EQ(a.joints2, b.joints2);
  EXPECT_EQ(a.weights2, b.weights2);
  EXPECT_EQ(a.cut_weights, b.cut_weights);
  EXPECT_TRUE(a.has_influences8());
  EXPECT_EQ(a.compact_normals, b.compact_normals);
  EXPECT_EQ(a.compact_joints8, b.compact_joints8);
  EXPECT_TRUE(a.compact_joints16.empty());
  EXPECT_EQ(a.compact_weights, b.compact_weights);
  EXPECT_EQ(a.skin_joints, b.skin_joints);
  EXPECT_EQ(a.inverse_bind, b.inverse_bind);
  ASSERT_EQ(a.morph_targets.size(), 2u);
  for (std::size_t t = 0; t < 2; ++t) {
    EXPECT_EQ(a.morph_targets[t].name, b.morph_targets[t].name);
    EXPECT_EQ(a.morph_targets[t].default_weight, b.morph_targets[t].default_weight);
    EXPECT_EQ(a.morph_targets[t].position_deltas, b.morph_targets[t].position_deltas);
    EXPECT_EQ(a.morph_targets[t].normal_deltas, b.morph_targets[t].normal_deltas);
  }
  EXPECT_TRUE(a.morph_targets[1].normal_deltas.empty());
  ASSERT_EQ(got.morph_clips.size(), 1u);
  ASSERT_EQ(got.morph_clips[0].tracks.size(), 1u);
  const MorphTrack &ta = got.morph_clips[0].tracks[0], &tb = want.morph_clips[0].tracks[0];
  EXPECT_EQ(ta.mesh, 0u);
  EXPECT_EQ(ta.interpolation, Interpolation::Step);
  EXPECT_EQ(ta.times, tb.times);
  EXPECT_EQ(ta.weights, tb.weights);
  ASSERT_EQ(got.materials.size(), 1u);
  EXPECT_EQ(got.materials[0].name, "skin");
  EXPECT_EQ(got.materials[0].base_color, want.materials[0].base_color);
  EXPECT_EQ(got.materials[0].texture_name, "textures/skin.png");
  EXPECT_EQ(got.materials[0].image, 0);
  EXPECT_FALSE(got.materials[0].double_sided);
  ASSERT_EQ(got.images.size(), 1u);
  EXPECT_EQ(got.images[0].source, want.images[0].source);
  EXPECT_EQ(got.images[0].width, 2u);
  EXPECT_EQ(got.images[0].height, 1u);
  EXPECT_EQ(got.images[0].rgba, want.images[0].rgba);
  ASSERT_EQ(got.clips.size(), 1u);
  const ClipArraysView c = got.clips[0].arrays(), d = want.clips[0].arrays();
  EXPECT_EQ(c.name, "nod");
  EXPECT_EQ(c.duration, 2.0);
  EXPECT_EQ(c.joints, 3u);
  const auto same = [](auto a, auto b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end());
  };
  EXPECT_TRUE(same(c.times, d.times));
  EXPECT_TRUE(same(c.timeline_begin, d.timeline_begin));
  EXPECT_TRUE(same(c.values, d.values));
  EXPECT_TRUE(same(c.parents, d.parents));
  EXPECT_TRUE(same(c.uniform, d.uniform));
  EXPECT_TRUE(same(c.keyed, d.keyed));
  EXPECT_EQ(c.keyed.size(), 3u);
  ASSERT_EQ(c.tracks.size(), d.tracks.size());
  for (std::size_t t = 0; t < c.tracks.size(); ++t) {
    EXPECT_EQ(c.tracks[t].timeline, d.tracks[t].timeline) << t;
    EXPECT_EQ(c.tracks[t].base, d.tracks[t].base) << t;
    EXPECT_EQ(c.tracks[t].stride, d.tracks[t].stride) << t;
    EXPECT_EQ(c.tracks[t].interpolation, d.tracks[t].interpolation) << t;
  }
  EXPECT_EQ(got.clips[0].channels(), 1u);
  EXPECT_EQ(got.clips[0].keys(), 5u);  // 2 translation, 2 rotation, 1 scale
  EXPECT_EQ(r.report.notes, sample_report().notes);
  EXPECT_EQ(r.report.vertices_renormalised, 1u);
  EXPECT_EQ(r.report.clips_extended, 1u);
  EXPECT_EQ(r.report.textures_not_loaded, 2u);
  EXPECT_EQ(r.report.largest_dropped_weight, 0.125);
  EXPECT_EQ(r.report.vertices_over_8_influences, 3u);
  EXPECT_EQ(r.report.largest_cut_weight, 0.375);
  EXPECT_EQ(r.report.ticks_per_second_note, sample_report().ticks_per_second_note);
  EXPECT_EQ(r.report.unit_metres, 0.0254);
  EXPECT_EQ(r.provenance.importer, "assimp 5.2.4");
  EXPECT_EQ(r.provenance.read_files, sample_provenance().read_files);
  EXPECT_EQ(r.provenance.sandbox, sample_provenance().sandbox);
}

// A mesh within the 4-limit stores no second set (three empty arrays) and reads back without one.
// write_model counts the stream's bytes before it writes them, and reserves that once: the
// stream's buffer is exactly its size (a wrong count would leave room over, or regrow it).
// Both values of Material::double_sided cross (format 13): a writer that wrote a constant would
// fail one of the two.
TEST(ModelFormat, AMaterialKeepsItsSides) {
  for (const bool double_sided : {false, true}) {
    Model m = sample_model();
    m.materials[0].double_sided = double_sided;
    const ImportResult r = read_model(write_model(m, {}, {}), "f.bin");
    ASSERT_TRUE(r.ok()) << r.error;
    ASSERT_EQ(r.model->materials.size(), 1u);
    EXPECT_EQ(r.model->materials[0].double_sided, double_sided);
  }
}

TEST(ModelFormat, TheStreamIsWrittenIntoOneBufferOfItsExactSize) {
  const std::vector<uint8_t> bytes = sample_stream();
  EXPECT_EQ(bytes.capacity(), bytes.size());
  ImportReport report;
  report.notes = {"a note", std::string(5000, 'x')};
  const std::vector<uint8_t> with_notes = write_model(sample_model(), report, {});
  EXPECT_EQ(with_notes.capacity(), with_notes.size());
  EXPECT_TRUE(read_model(with_notes, "f.bin").ok());
}

TEST(ModelFormat, AMeshWithinFourInfluencesHasNoSecondSet) {
  Model m = sample_model();
  Mesh& mesh = m.meshes[0];
  mesh.joints2.clear();
  mesh.weights2.clear();
  mesh.cut_weights.clear();
  const std::vector<uint8_t> without = write_model(m, {}, {});
  const std::vector<uint8_t> with = write_model(sample_model(), {}, {});
  // 4 vertices x (8 + 16 + 4) bytes of second set, padding aside.
  EXPECT_GE(with.size(), without.size() + 4 * 28);
  const ImportResult r = read_model(without, "f.bin");
  ASSERT_TRUE(r.ok()) << r.error;
  EXPECT_FALSE(r.model->meshes[0].has_influences8());
}

TEST(ModelFormat, AnErrorStreamCarriesItsLine) {
  const ImportResult r =
      read_model(write_error("m.x: no such file", {"assimp 5.2.4", {}, "seccomp"}), "f");
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(r.error, "m.x: no such file");
  EXPECT_EQ(r.provenance.importer, "assimp 5.2.4");
  EXPECT_EQ(r.provenance.sandbox, "seccomp");
  // A line break in it (the worker never sends one) does not survive.
  const ImportResult two = read_model(write_error("a\nb", {}), "f");
  EXPECT_EQ(two.error, "a b");
}

TEST(ModelFormat, EveryTruncationIsRefused) {
  const std::vector<uint8_t> bytes = sample_stream();
  for (std::size_t n = 0; n < bytes.size(); ++n) {
    const ImportResult r = read_model(std::span(bytes.data(), n), "f.bin");
    ASSERT_TRUE(refused(r)) << n << ": " << r.error;
  }
}

TEST(ModelFormat, EveryFlippedByteIsRefusedOrStillValid) {
  const std::vector<uint8_t> good = sample_stream();
  int accepted = 0;
  for (std::size_t i = 0; i < good.size(); ++i) {
    for (const uint8_t mask : {uint8_t{0x01}, uint8_t{0x80}, uint8_t{0xff}}) {
      std::vector<uint8_t> bytes = good;
      bytes[i] ^= mask;
      const ImportResult r = read_model(bytes, "f.bin");
      if (r.ok()) {
        // Accepted: a value inside an array, read as it stands -- written back, the model gives
        // the same bytes (nothing the reader took was dropped, clamped or misplaced).
        ++accepted;
        const std::vector<uint8_t> again = write_model(*r.model, r.report, r.provenance);
        const auto [a, b] = std::mismatch(again.begin(), again.end(), bytes.begin(), bytes.end());
        EXPECT_TRUE(a == again.end() && b == bytes.end())
            << "byte " << i << " ^ " << int(mask) << ": written back, differs at byte "
            << (a - again.begin());
      } else {
        ASSERT_TRUE(refused(r)) << "byte " << i << ": " << r.error;
      }
    }
  }
  // Values inside the arrays can change and stay valid; the framing cannot.
  EXPECT_GT(accepted, 0);
}

TEST(ModelFormat, OtherVersionsAndMagicsAreRefused) {
  std::vector<uint8_t> bytes = sample_stream();
  bytes[8] = static_cast<uint8_t>(kModelFormatVersion + 1);
  ImportResult r = read_model(bytes, "f.bin");
  EXPECT_TRUE(refused(r));
  const std::string other = "format version " + std::to_string(kModelFormatVersion + 1);
  EXPECT_NE(r.error.find(other), std::string::npos) << r.error;
  bytes = sample_stream();
  bytes[0] = 'X';
  EXPECT_NE(read_model(bytes, "f.bin").error.find("wrong magic"), std::string::npos);
}

// Finds the first section `tag` and returns the offset of its payload.
std::size_t payload_of(const std::vector<uint8_t>& bytes, const char* tag) {
  std::size_t at = 32;
  while (at + 16 <= bytes.size()) {
    uint64_t size = 0;
    std::memcpy(&size, bytes.data() + at + 8, 8);
    if (std::memcmp(bytes.data() + at, tag, 4) == 0) return at + 16;
    at += 16 + (size + 7) / 8 * 8;
  }
  ADD_FAILURE() << "no section " << tag;
  return 0;
}

TEST(ModelFormat, ACountPastTheStreamIsRefusedBeforeAllocating) {
  std::vector<uint8_t> bytes = sample_stream();
  // The mesh payload: name (u64 length + "body"), node, kind, material, influences, max joint,
  // then the positions' count.
  const std::size_t count_at = payload_of(bytes, "MESH") + 8 + 4 + 4 + 1 + 4 + 4 + 4;
  for (const uint64_t huge : {uint64_t{1} << 60, uint64_t{kMaxVerticesPerMesh}}) {
    std::memcpy(bytes.data() + count_at, &huge, 8);
    const ImportResult r = read_model(bytes, "f.bin");
    EXPECT_TRUE(refused(r)) << r.error;
    EXPECT_NE(r.error.find("positions"), std::string::npos) << r.error;
  }
  // One more than there are: the arrays after it are misread, and refused.
  const uint64_t five = 5;
  std::memcpy(bytes.data() + count_at, &five, 8);
  EXPECT_TRUE(refused(read_model(bytes, "f.bin")));
}

TEST(ModelFormat, AnImagePastItsLimitsIsRefusedBeforeItsPixelsAreCopied) {
  std::vector<uint8_t> bytes = sample_stream();
  // The image payload: source (u64 length + 17 bytes, padded by nothing), width, height.
  const std::size_t size_at = payload_of(bytes, "IMAG") + 8 + 17;
  const uint32_t side = 16384;  // 16k x 16k: 2^28 pixels, past the 2^24 of one image
  std::memcpy(bytes.data() + size_at, &side, 4);
  std::memcpy(bytes.data() + size_at + 4, &side, 4);
  const ImportResult r = read_model(bytes, "f.bin");
  EXPECT_TRUE(refused(r)) << r.error;
  EXPECT_NE(r.error.find("pixels, more than the limit"), std::string::npos) << r.error;
}

TEST(ModelFormat, EachBrokenPromiseIsRefused) {
  {
    Model m = sample_model();
    m.materials[0].image = 1;  // past the one image
    EXPECT_NE(read_back_error(m).find("names image 1 of 1"), std::string::npos);
  }
  {
    Model m = sample_model();
    m.images[0].rgba.pop_back();  // one byte short of 2 x 1 RGBA
    EXPECT_NE(read_back_error(m).find("image 0"), std::string::npos);
  }
  {
    Model m = sample_model();
    m.images[0].height = 0;
    EXPECT_NE(read_back_error(m).find("on a side"), std::string::npos);
  }
  {
    Model m = sample_model();
    m.images[0].width = kMaxImageSide + 1;
    EXPECT_NE(read_back_error(m).find("on a side"), std::string::npos);
  }
  {
    Model m = sample_model();
    m.meshes[0].compact_joints8[2].y = 2;  // a compact joint past max_joint (and the skin)
    EXPECT_NE(read_back_error(m).find("uses skin bone 2 in its compact joints, above max_joint 1"),
              std::string::npos)
        << read_back_error(m);
  }
  {
    Model m = sample_model();
    m.meshes[0].compact_weights[1].z = 1.5f;
    EXPECT_NE(read_back_error(m).find("vertex 1 has compact weights"), std::string::npos);
  }
  {
    // Each weight in [0, 1] but the three summing to 1.8: the implied fourth would be -0.8.
    Model m = sample_model();
    m.meshes[0].compact_weights[2] = {0.6f, 0.6f, 0.6f};
    EXPECT_NE(read_back_error(m).find("vertex 2 has compact weights whose first three sum past 1"),
              std::string::npos);
  }
  {
    // Within the float weights' 1e-3: kept (1 - 1.0005 is a fourth weight of -0.0005).
    Model m = sample_model();
    m.meshes[0].compact_weights[2] = {0.5f, 0.25f, 0.2505f};
    EXPECT_EQ(read_back_error(m), "");
  }
  {
    Model m = sample_model();
    m.meshes[0].compact_weights.pop_back();  // one short of the vertices
    EXPECT_NE(read_back_error(m).find("compact streams differ in length (normals 4, joints u8 4, "
                                      "joints u16 0, weights 3, vertices 4, max_joint 1)"),
              std::string::npos)
        << read_back_error(m);
  }
  {
    Model m = sample_model();
    m.meshes[0].compact_normals.push_back(0u);  // one past the vertices: refused by its count
    EXPECT_NE(read_back_error(m).find("compact normals: 5, more than the limit of 4"),
              std::string::npos)
        << read_back_error(m);
  }
  {
    // u16 joints where max_joint asks for u8: the joints' width is max_joint's.
    Model m = sample_model();
    Mesh& mesh = m.meshes[0];
    mesh.compact_joints16 = {{0, 0, 0, 0}, {0, 1, 0, 0}, {1, 0, 0, 0}, {1, 0, 0, 0}};
    mesh.compact_joints8.clear();
    EXPECT_NE(read_back_error(m).find("joints u8 0, joints u16 4"), std::string::npos)
        << read_back_error(m);
  }
  {
    // The streams are all or nothing: none is a model without them (accepted), some is refused.
    Model m = sample_model();
    m.meshes[0].clear_compact();
    EXPECT_EQ(read_back_error(m), "");
    m.meshes[0].compact_normals = {0u, 0u, 0u, 0u};
    EXPECT_NE(read_back_error(m).find("compact streams differ in length"), std::string::npos);
  }
  {
    Model m = sample_model();
    m.meshes[0].joints2[3] = {2, 0, 0, 0};  // a 5th influence past max_joint
    EXPECT_NE(read_back_error(m).find("influences 5-8"), std::string::npos);
  }
  {
    Model m = sample_model();
    m.meshes[0].weights2[3].y = -0.1f;
    EXPECT_NE(read_back_error(m).find("5th-8th weights"), std::string::npos);
  }
  {
    Model m = sample_model();
    m.meshes[0].weights2[3] = glm::vec4(0.4f);  // more than the whole
    EXPECT_NE(read_back_error(m).find("5th-8th weights"), std::string::npos);
  }
  {
    Model m = sample_model();
    m.meshes[0].cut_weights.clear();  // two of the three streams
    EXPECT_NE(read_back_error(m).find("influence 5-8 streams"), std::string::npos);
  }
  {
    Model m = sample_model();
    m.skeleton.parents[1] = 2;  // a parent after its child
    EXPECT_NE(read_back_error(m).find("does not precede it"), std::string::npos);
  }
  {
    Model m = sample_model();
    m.meshes[0].joints[2] = {2, 0, 0, 0};  // past the 2-bone skin (max_joint 1)
    EXPECT_NE(read_back_error(m), "");
  }
  {
    Model m = sample_model();
    m.meshes[0].max_joint = 2;  // past the skin
    EXPECT_NE(read_back_error(m).find("max_joint"), std::string::npos);
  }
  {
    Model m = sample_model();
    m.meshes[0].skin_joints[1] = 3;  // past the skeleton
    EXPECT_NE(read_back_error(m).find("out of range"), std::string::npos);
  }
  {
    Model m = sample_model();
    m.meshes[0].indices[4] = 4;  // past the vertices
    EXPECT_NE(read_back_error(m).find("past 4 vertices"), std::string::npos);
  }
  {
    Model m = sample_model();
    m.meshes[0].positions[3].y = std::numeric_limits<float>::quiet_NaN();
    EXPECT_NE(read_back_error(m).find("not finite"), std::string::npos);
  }
  {
    Model m = sample_model();
    m.meshes[0].weights[1] = {0.5f, 0.25f, 0, 0};  // does not sum to 1
    EXPECT_NE(read_back_error(m).find("sum to 1"), std::string::npos);
  }
  {
    Model m = sample_model();
    m.meshes[0].source_vertex = {2, 0, 2, 1};  // not a permutation
    EXPECT_NE(read_back_error(m).find("permutation"), std::string::npos);
  }
  {
    Model m = sample_model();
    m.meshes[0].source_weight_sums.pop_back();  // one short of the vertices
    EXPECT_NE(read_back_error(m).find("stored weight sums"), std::string::npos);
  }
  {
    Model m = sample_model();
    m.meshes[0].source_weight_sums[1] = std::numeric_limits<float>::infinity();
    EXPECT_NE(read_back_error(m).find("not finite"), std::string::npos);
  }
  {
    Model m = sample_model();
    m.meshes[0].node = 3;
    EXPECT_NE(read_back_error(m).find("node 3"), std::string::npos);
  }
  {
    Model m = sample_model();
    m.meshes[0].material = 1;
    EXPECT_NE(read_back_error(m).find("material 1"), std::string::npos);
  }
  {
    Model m = sample_model();
    m.meshes[0].normals.pop_back();  // streams of different lengths
    EXPECT_NE(read_back_error(m).find("normals"), std::string::npos);
  }
  {
    Model m = sample_model();
    m.skeleton.rest[2].rotation = glm::quat(2, 0, 0, 0);
    EXPECT_NE(read_back_error(m).find("unit"), std::string::npos);
  }
  {
    Model m = sample_model();
    m.meshes.clear();
    m.clips.clear();
    m.morph_clips.clear();
    EXPECT_NE(read_back_error(m).find("no mesh and no clip"), std::string::npos);
  }
  {
    Model m = sample_model();
    m.skeleton = Skeleton{};
    m.meshes.clear();
    m.clips.clear();
    m.morph_clips.clear();
    EXPECT_NE(read_back_error(m).find("no joint"), std::string::npos);
  }
  // Morph targets and their weights (anim/morph.h's checks behind the reader).
  {
    Model m = sample_model();
    m.meshes[0].morph_targets[0].position_deltas.pop_back();
    EXPECT_NE(read_back_error(m).find("3 position deltas for 4 vertices"), std::string::npos);
  }
  {
    Model m = sample_model();
    m.meshes[0].morph_targets[0].normal_deltas.push_back({});
    EXPECT_NE(read_back_error(m).find("morph normal deltas"), std::string::npos);
  }
  {
    Model m = sample_model();
    m.meshes[0].morph_targets[1].position_deltas[2].z = std::numeric_limits<float>::infinity();
    EXPECT_NE(read_back_error(m).find("position delta is not finite"), std::string::npos);
  }
  {
    Model m = sample_model();
    m.meshes[0].morph_targets[0].default_weight = std::numeric_limits<float>::quiet_NaN();
    EXPECT_NE(read_back_error(m).find("default weight"), std::string::npos);
  }
  {
    Model m = sample_model();
    m.morph_clips[0].tracks[0].weights.pop_back();  // one short of 3 keys x 2 targets
    EXPECT_NE(read_back_error(m).find("5 weights for 3 keys of 2 targets"), std::string::npos);
  }
  {
    Model m = sample_model();
    m.morph_clips[0].tracks[0].times[2] = 2.5;  // past the clip's 2 s
    EXPECT_NE(read_back_error(m).find("not within the clip"), std::string::npos);
  }
  {
    Model m = sample_model();
    m.morph_clips[0].tracks[0].times[1] = 0.0;  // repeats the first key's time
    EXPECT_NE(read_back_error(m).find("strictly increasing"), std::string::npos);
  }
  {
    Model m = sample_model();
    m.morph_clips[0].tracks[0].weights[3] = std::numeric_limits<float>::quiet_NaN();
    EXPECT_NE(read_back_error(m).find("weight is not finite"), std::string::npos);
  }
  {
    Model m = sample_model();
    m.morph_clips[0].tracks.push_back(MorphTrack(m.morph_clips[0].tracks[0]));  // mesh 0 twice
    // More tracks than meshes: refused by the count, before check_morph_clip would see it.
    EXPECT_NE(read_back_error(m).find("morph track count: 2"), std::string::npos);
    EXPECT_NE(check_morph_clip(m.morph_clips[0], m.meshes, 2.0).find("a second track for mesh 0"),
              std::string::npos);
  }
  {
    Model m = sample_model();
    m.meshes[0].morph_targets.clear();  // the track now drives a mesh without targets
    EXPECT_NE(read_back_error(m).find("no morph target"), std::string::npos);
  }
  // And the sample itself is accepted: each case above fails for its own reason.
  EXPECT_EQ(read_back_error(sample_model()), "");
}

// The clip section as written, field by field (see write_clip), for tests that damage one field.
struct ClipFields {
  std::size_t duration, joints, times, timeline_begin, tracks, values, parents, uniform, keyed;
};
ClipFields clip_fields(const std::vector<uint8_t>& bytes) {
  std::size_t at = payload_of(bytes, "CLIP");
  auto count = [&](std::size_t pos) {
    uint64_t n = 0;
    std::memcpy(&n, bytes.data() + pos, 8);
    return static_cast<std::size_t>(n);
  };
  // An array's field: 8 bytes before its first element (format 11 pads from its count up to a
  // multiple of 16 from the stream's start when it has elements); `elem` bytes each.
  auto array = [&](std::size_t count_at, std::size_t elem, std::size_t* next) {
    const std::size_t n = count(count_at);
    std::size_t first = count_at + 8;
    if (n > 0) first += (16 - first % 16) % 16;
    *next = first + elem * n;
    return first - 8;
  };
  ClipFields f{};
  at += 8 + count(at);  // name
  f.duration = at;
  f.joints = at + 8;
  std::size_t next = 0;
  f.times = array(at + 12, 8, &next);
  f.timeline_begin = array(next, 4, &next);
  f.tracks = next;  // written by hand: no padding
  next = f.tracks + 8 + 13 * count(f.tracks);
  f.values = array(next, 16, &next);
  f.parents = array(next, 4, &next);
  f.uniform = array(next, 1, &next);
  f.keyed = array(next, 1, &next);
  return f;
}

// A runtime clip's arrays are checked by ClipRuntime::adopt (anim/clip_arrays.h) and by the
// reader's own limits; each damaged field is refused.
// The reader checks a big mesh's streams block by block as it copies them (MeshScan): a bad value
// in the middle block or the last one of each stream is refused with the words Model::validate
// has for it without the reader's scan.
TEST(ModelFormat, ABadValueInAnyBlockOfABigStreamIsRefusedAsValidateWordsIt) {
  ASSERT_EQ(read_back_error(big_mesh_model()), "");
  using Damage = void (*)(Mesh&, std::size_t);
  const Damage damages[] = {
      [](Mesh& m, std::size_t v) { m.positions[v].y = std::numeric_limits<float>::quiet_NaN(); },
      [](Mesh& m, std::size_t v) { m.normals[v].z = std::numeric_limits<float>::infinity(); },
      [](Mesh& m, std::size_t v) { m.uvs[v].x = -std::numeric_limits<float>::quiet_NaN(); },
      [](Mesh& m, std::size_t v) { m.joints[v].w = 2; },
      [](Mesh& m, std::size_t v) {
        m.weights[v] = {0.5f, 0.6f, 0, 0};
      },
      [](Mesh& m, std::size_t v) {
        m.weights[v] = {1.5f, -0.5f, 0, 0};
      },
      [](Mesh& m, std::size_t v) {
        m.source_weight_sums[v] = std::numeric_limits<float>::infinity();
      },
      [](Mesh& m, std::size_t v) { m.indices[3 * (v - 2) + 2] = kBigVertices; },
      [](Mesh& m, std::size_t v) { m.line_indices[2 * v + 1] = kBigVertices + 7; },
      [](Mesh& m, std::size_t v) { m.point_indices[v] = kBigVertices; },
      [](Mesh& m, std::size_t v) { m.joints2[v].x = 2; },
      [](Mesh& m, std::size_t v) { m.weights2[v] = glm::vec4(0.3f); },
      [](Mesh& m, std::size_t v) { m.cut_weights[v] = 1.5f; },
      [](Mesh& m, std::size_t v) { m.compact_joints8[v].z = 2; },
      [](Mesh& m, std::size_t v) {
        m.compact_weights[v].y = std::numeric_limits<float>::quiet_NaN();
      },
      [](Mesh& m, std::size_t v) { m.compact_weights[v].x = -0.25f; },
  };
  for (const std::size_t v : {kBigVertices / 2, kBigVertices - 1}) {
    for (std::size_t d = 0; d < std::size(damages); ++d) {
      Model m = big_mesh_model();
      damages[d](m.meshes[0], v);
      const std::string expected = m.validate();
      ASSERT_NE(expected, "") << "damage " << d;
      EXPECT_NE(read_back_error(m).find("(" + expected + ")"), std::string::npos)
          << "damage " << d << " at vertex " << v << ": " << read_back_error(m) << " / "
          << expected;
    }
    // The file's vertex numbers (read_mesh's check): a number twice.
    Model m = big_mesh_model();
    m.meshes[0].source_vertex[v] = m.meshes[0].source_vertex[0];
    EXPECT_NE(read_back_error(m).find("not a permutation"), std::string::npos) << v;
  }
}

// read_model's checksum is the XXH3-64 of the whole stream, taken while it is read: accepted or
// refused (at the header, in the middle of a mesh, cut short), and a flipped bit inside an array
// that the reader accepts changes it.
TEST(ModelFormat, TheChecksumTakenWhileReadingIsTheWholeStreams) {
  const std::vector<uint8_t> good =
      write_model(big_mesh_model(), sample_report(), sample_provenance());
  auto xxh3 = [](std::span<const uint8_t> b) { return XXH3_64bits(b.data(), b.size()); };
  uint64_t h = 0;
  ASSERT_TRUE(read_model(good, "f.bin", &h).ok());
  EXPECT_EQ(h, xxh3(good));
  std::vector<uint8_t> wrong_magic = good;
  wrong_magic[0] ^= 1;
  Model nan_model = big_mesh_model();
  nan_model.meshes[0].normals[kBigVertices / 2].x = std::numeric_limits<float>::quiet_NaN();
  const std::vector<uint8_t> nan_mid = write_model(nan_model, {}, {});
  for (const std::span<const uint8_t> bytes :
       {std::span<const uint8_t>(wrong_magic), std::span<const uint8_t>(nan_mid),
        std::span<const uint8_t>(good).first(good.size() / 2), std::span<const uint8_t>()}) {
    h = 0;
    EXPECT_TRUE(refused(read_model(bytes, "f.bin", &h)));
    EXPECT_EQ(h, xxh3(bytes)) << bytes.size() << " bytes";
  }
  // Position kBigVertices / 2 - 1's lowest bit: still finite, read; the checksum differs.
  const glm::vec3 p = big_mesh_model().meshes[0].positions[kBigVertices / 2 - 1];
  const auto* pb = reinterpret_cast<const uint8_t*>(&p);
  const auto at = std::search(good.begin(), good.end(), pb, pb + sizeof p);
  ASSERT_NE(at, good.end());
  std::vector<uint8_t> flipped = good;
  flipped[static_cast<std::size_t>(at - good.begin())] ^= 1;
  ASSERT_TRUE(read_model(flipped, "f.bin", &h).ok());
  EXPECT_EQ(h, xxh3(flipped));
  EXPECT_NE(h, xxh3(good));
}

// Every mesh stream of `mesh`, as spans of bytes, with whether it is borrowed.
std::vector<std::pair<std::span<const uint8_t>, bool>> mesh_streams(const Mesh& mesh) {
  std::vector<std::pair<std::span<const uint8_t>, bool>> out;
  auto add = [&](const auto& s) {
    out.emplace_back(std::span(reinterpret_cast<const uint8_t*>(s.data()), s.size() * sizeof(s[0])),
                     s.borrowed());
  };
  add(mesh.positions);
  add(mesh.normals);
  add(mesh.uvs);
  add(mesh.joints);
  add(mesh.weights);
  add(mesh.vertex_flags);
  add(mesh.source_weight_sums);
  add(mesh.indices);
  add(mesh.line_indices);
  add(mesh.point_indices);
  add(mesh.source_vertex);
  add(mesh.joints2);
  add(mesh.weights2);
  add(mesh.cut_weights);
  add(mesh.compact_normals);
  add(mesh.compact_joints8);
  add(mesh.compact_weights);
  return out;
}

// Given what keeps the bytes alive, read_model points the mesh streams into them (format 11
// aligns every array to 16 bytes from the stream's start), checks them as strictly (the damage
// tests above read both ways: read_back_error), and the model holds the bytes while it lives.
TEST(ModelFormat, AKeptStreamIsReadInPlace) {
  auto bytes = std::make_shared<const std::vector<uint8_t>>(
      write_model(big_mesh_model(), sample_report(), sample_provenance()));
  const std::weak_ptr<const std::vector<uint8_t>> watch = bytes;
  uint64_t h = 0;
  std::optional<ImportResult> r = read_model(*bytes, "f.bin", &h, bytes);
  ASSERT_TRUE(r->ok()) << r->error;
  EXPECT_EQ(h, XXH3_64bits(bytes->data(), bytes->size()));
  const uint8_t* begin = bytes->data();
  const uint8_t* end = begin + bytes->size();
  for (const auto& [s, borrowed] : mesh_streams(r->model->meshes[0])) {
    ASSERT_FALSE(s.empty());
    EXPECT_TRUE(borrowed);
    EXPECT_TRUE(s.data() >= begin && s.data() + s.size() <= end) << "not inside the stream";
    EXPECT_EQ(reinterpret_cast<uintptr_t>(s.data()) % 16, 0u);
  }
  // The same model as a copying read gives, byte for byte.
  const ImportResult copied = read_model(*bytes, "f.bin");
  ASSERT_TRUE(copied.ok());
  for (const auto& [s, borrowed] : mesh_streams(copied.model->meshes[0])) EXPECT_FALSE(borrowed);
  EXPECT_EQ(write_model(*r->model, r->report, r->provenance), *bytes);
  // The model keeps the bytes: dropping the caller's reference frees nothing.
  const std::vector<uint8_t> expected = *bytes;
  bytes.reset();
  ASSERT_FALSE(watch.expired());
  EXPECT_EQ(write_model(*r->model, r->report, r->provenance), expected);
  // A write to a borrowed stream makes it the mesh's own copy; the bytes are untouched.
  Mesh& mesh = r->model->meshes[0];
  mesh.positions[0].x = 42.0f;
  EXPECT_FALSE(mesh.positions.borrowed());
  EXPECT_EQ(mesh.positions[0].x, 42.0f);
  EXPECT_EQ(mesh.positions[1], big_mesh_model().meshes[0].positions[1]);
  EXPECT_TRUE(mesh.normals.borrowed());
  r.reset();
  EXPECT_TRUE(watch.expired()) << "the last model gone, the bytes go";
}

// A stream that does not start aligned (bytes copied to an odd address) is read by copying: the
// same model, nothing borrowed but the vertex flags and the u8 compact joints (bytes: aligned
// anywhere).
TEST(ModelFormat, AMisalignedKeptStreamIsCopied) {
  const std::vector<uint8_t> good =
      write_model(big_mesh_model(), sample_report(), sample_provenance());
  auto shifted = std::make_shared<std::vector<uint8_t>>(good.size() + 1);
  std::copy(good.begin(), good.end(), shifted->begin() + 1);
  const std::span<const uint8_t> bytes(shifted->data() + 1, good.size());
  const ImportResult r = read_model(bytes, "f.bin", nullptr, shifted);
  ASSERT_TRUE(r.ok()) << r.error;
  // Byte streams lie aligned anywhere: the vertex flags and the u8 compact joints.
  const Mesh& mesh = r.model->meshes[0];
  const auto* joints8 = reinterpret_cast<const uint8_t*>(mesh.compact_joints8.data());
  for (const auto& [s, borrowed] : mesh_streams(mesh))
    EXPECT_EQ(borrowed, s.data() == mesh.vertex_flags.data() || s.data() == joints8);
  EXPECT_TRUE(mesh.vertex_flags.borrowed());
  EXPECT_TRUE(mesh.compact_joints8.borrowed());
  EXPECT_EQ(write_model(*r.model, r.report, r.provenance), good);
}

// Format 11's padding before an array's elements is zero: any other byte there is refused.
TEST(ModelFormat, NonZeroPaddingBeforeAnArrayIsRefused) {
  const Model m = sample_model();
  const std::vector<uint8_t> good = write_model(m, sample_report(), sample_provenance());
  // The positions and the normals (4 each): whichever has padding between its count and its
  // elements (one of them does: a vec3 array of 4 is 48 bytes, its count 8).
  int tried = 0;
  for (const auto& [stream, name] : {std::pair{m.meshes[0].positions.span(), "positions"},
                                     {m.meshes[0].normals.span(), "normals"}}) {
    const auto* p = reinterpret_cast<const uint8_t*>(stream.data());
    const auto d = static_cast<std::size_t>(
        std::search(good.begin(), good.end(), p, p + stream.size_bytes()) - good.begin());
    ASSERT_LT(d, good.size());
    ASSERT_EQ(d % 16, 0u) << name << " start aligned";
    const uint64_t four = 4;
    std::size_t pad = 0;
    while (pad < 16 && std::memcmp(&good[d - 8 - pad], &four, 8) != 0) ++pad;
    ASSERT_LT(pad, 16u) << name << "'s count not found";
    if (pad == 0) continue;
    ++tried;
    std::vector<uint8_t> bytes = good;
    bytes[d - 1] = 1;
    const ImportResult r = read_model(bytes, "f.bin");
    EXPECT_TRUE(refused(r));
    EXPECT_NE(r.error.find(std::string(name) + ": the padding before it is not zero"),
              std::string::npos)
        << r.error;
  }
  EXPECT_GT(tried, 0);
}

TEST(ModelFormat, EachBrokenClipPromiseIsRefused) {
  const std::vector<uint8_t> good = sample_stream();
  const ClipFields f = clip_fields(good);
  auto refused_after = [&](auto patch) {
    std::vector<uint8_t> bytes = good;
    patch(bytes);
    const ImportResult r = read_model(bytes, "f.bin");
    EXPECT_TRUE(refused(r)) << r.error;
    return r.error;
  };
  // A duration before the last key (2 s).
  EXPECT_NE(refused_after([&](std::vector<uint8_t>& b) {
              const double d = 1.5;
              std::memcpy(b.data() + f.duration, &d, 8);
            }).find("past the clip's duration"),
            std::string::npos);
  // Laid out for another skeleton.
  EXPECT_NE(refused_after([&](std::vector<uint8_t>& b) {
              const uint32_t j = 4;
              std::memcpy(b.data() + f.joints, &j, 4);
            }).find("laid out for 4 joints"),
            std::string::npos);
  // What the clip says it keys disagrees with its tracks (blending would read it).
  EXPECT_NE(
      refused_after([&](std::vector<uint8_t>& b) { b[f.keyed + 8] ^= 4; }).find("keyed entry"),
      std::string::npos);
  // Times out of order: the second time of the first keyed timeline made NaN.
  EXPECT_NE(refused_after([&](std::vector<uint8_t>& b) {
              const double nan = std::numeric_limits<double>::quiet_NaN();
              std::memcpy(b.data() + f.times + 8 + 8 * 2, &nan, 8);
            }),
            "");
  // A track's base past the values.
  EXPECT_NE(refused_after([&](std::vector<uint8_t>& b) {
              const uint32_t base = 1u << 30;
              std::memcpy(b.data() + f.tracks + 8 + 13 * 6 + 4, &base, 4);
            }),
            "");
  // A track's timeline past the timelines.
  EXPECT_NE(refused_after([&](std::vector<uint8_t>& b) {
              const uint32_t timeline = 99;
              std::memcpy(b.data() + f.tracks + 8 + 13 * 6, &timeline, 4);
            }),
            "");
  // A value made infinite.
  EXPECT_NE(refused_after([&](std::vector<uint8_t>& b) {
              const float inf = std::numeric_limits<float>::infinity();
              std::memcpy(b.data() + f.values + 8, &inf, 4);
            }),
            "");
}

TEST(ModelFormat, NamesAndNotesStayOnOneLine) {
  Model m = sample_model();
  m.skeleton.names[0] = "two\nlines";
  ImportReport report;
  report.notes = {"a\rb"};
  const ImportResult r = read_model(write_model(m, report, {}), "f.bin");
  ASSERT_TRUE(r.ok()) << r.error;
  EXPECT_EQ(r.model->skeleton.names[0], "two lines");
  EXPECT_EQ(r.report.notes[0], "a b");
}

}  // namespace
}  // namespace sv
