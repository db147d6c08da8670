// The shaders paint the debug views with the colours the legends draw: common.vert's v_color,
// captured with transform feedback for vertices of known weights, flags and stored weight sums
// (uploaded through GpuModel, which packs the dominant joint and the weight-sum level), equals
// gfx/view_colors.h's functions for every view mode.
#include <gtest/gtest.h>
#include <glm/gtc/matrix_transform.hpp>

#include <string>
#include <vector>

#include "anim/model.h"
#include "gfx/gpu_model.h"
#include "gfx/shader.h"
#include "gfx/view_colors.h"
#include "gl_context.h"
#include "test_util.h"
#include "vertex_capture.h"

namespace sv {
namespace {

// Twelve vertices on skin bones 0..3 = skeleton joints 3, 5, 8, 9: weights on bone 0 from 0 to
// 1 (the heat ramp), 1 to 4 influences, two cut at import (a 5th weight kept in the second set:
// one cut a little, one past the cut ramp's top), one unweighted, stored sums from exactly 1 to
// 1.38.
struct Case {
  glm::u16vec4 joints;
  glm::vec4 weights;
  uint8_t flags;
  float stored_sum;
  float weight5 = 0.0f;  // on bone 0, a fraction of the top 8 (Mesh::weights2)
};
const std::vector<Case> kCases = {
    {{0, 1, 0, 0}, {0.0f, 1.0f, 0, 0}, 0, 1.0f},
    {{0, 1, 0, 0}, {0.1f, 0.9f, 0, 0}, 0, 1.0005f},
    {{0, 1, 0, 0}, {0.3f, 0.7f, 0, 0}, kVertexRenormalised, 1.002f},
    {{0, 1, 0, 0}, {0.5f, 0.5f, 0, 0}, kVertexRenormalised, 0.99f},
    {{0, 1, 2, 0}, {0.6f, 0.3f, 0.1f, 0}, kVertexRenormalised, 1.05f},
    {{0, 1, 2, 3}, {0.7f, 0.1f, 0.1f, 0.1f}, kVertexRenormalised | kVertexTruncated, 1.38f, 0.05f},
    {{0, 0, 0, 0}, {0.875f, 0.125f, 0, 0}, 0, 1.0f},
    {{0, 1, 2, 3}, {0.97f, 0.01f, 0.01f, 0.01f}, 0, 1.0f},
    {{0, 0, 0, 0}, {1.0f, 0, 0, 0}, kVertexUnweighted, 0.0f},
    {{1, 2, 0, 0}, {0.2f, 0.8f, 0, 0}, 0, 0.94f},
    {{2, 3, 0, 0}, {0.5f, 0.5f, 0, 0}, 0, 1.0f},
    {{1, 2, 3, 0}, {0.4f, 0.3f, 0.3f, 0}, kVertexTruncated, 1.0f, 0.5f},
};

Model color_model() {
  Model m;
  for (int j = 0; j < 10; ++j) {
    m.skeleton.names.push_back(std::string(1, static_cast<char>('a' + j)));
    m.skeleton.parents.push_back(j == 0 ? kNoParent : 0);
    m.skeleton.rest.emplace_back();
    m.skeleton.inverse_bind.emplace_back(1.0f);
    m.skeleton.is_bone.push_back(0);
  }
  Mesh mesh;
  mesh.skinned = true;
  mesh.node = 0;
  for (std::size_t v = 0; v < kCases.size(); ++v) {
    mesh.positions.emplace_back(static_cast<float>(v), 0, 0);
    mesh.normals.emplace_back(0, 1, 0);
    mesh.joints.push_back(kCases[v].joints);
    mesh.weights.push_back(kCases[v].weights);
    mesh.vertex_flags.push_back(kCases[v].flags);
    mesh.source_weight_sums.push_back(kCases[v].stored_sum);
    mesh.joints2.emplace_back(0, 0, 0, 0);
    mesh.weights2.emplace_back(kCases[v].weight5, 0, 0, 0);
    mesh.cut_weights.push_back(kCases[v].weight5);  // 5 influences: the cut is the 5th's share
  }
  mesh.skin_joints = {3, 5, 8, 9};
  mesh.inverse_bind.assign(4, glm::mat4(1.0f));
  mesh.max_joint = 3;
  m.meshes.push_back(std::move(mesh));
  return m;
}

// The view colour of every vertex in `mode` (selected skin bone 0 for the heat map).
std::vector<glm::vec4> shader_colors(const gl::GpuModel& gpu, int mode, int influences = 4) {
  gl::ProgramDesc desc{
      {"common.vert", "skin.vert"}, {"mesh.frag"}, gl::skin_program_defines(), {"v_color"}};
  gl::ProgramResult r = gl::build_program(desc);
  EXPECT_TRUE(r.ok()) << r.error;
  const GLuint p = r.program.id();
  glUseProgram(p);
  glUniform1i(glGetUniformLocation(p, "u_view_mode"), mode);
  glUniform1i(glGetUniformLocation(p, "u_selected_bone"), 0);
  std::vector<glm::vec4> colors =
      test::capture_vertices<glm::vec4>(p, gpu, 0, SkinMethod::Lbs, influences);
  return colors;
}

// One output of skin.vert, built with every view (`shaded_only` false) or for the shaded view
// alone (SV_SHADED_ONLY, as the renderer draws that view), in view `mode`, base colour `base`.
template <class T>
std::vector<T> skin_output(const gl::GpuModel& gpu, const char* varying, bool shaded_only, int mode,
                           const glm::vec4& base) {
  std::vector<std::string> defines = gl::skin_program_defines();
  if (shaded_only) defines.emplace_back("SV_SHADED_ONLY 1");
  gl::ProgramResult r =
      gl::build_program({{"common.vert", "skin.vert"}, {"mesh.frag"}, defines, {varying}});
  EXPECT_TRUE(r.ok()) << r.error;
  const GLuint p = r.program.id();
  glUseProgram(p);
  glUniform1i(glGetUniformLocation(p, "u_view_mode"), mode);
  glUniform1i(glGetUniformLocation(p, "u_selected_bone"), 0);
  glUniform4f(glGetUniformLocation(p, "u_base_color"), base.r, base.g, base.b, base.a);
  return test::capture_vertices<T>(p, gpu, 0);
}

// The shaded view's program paints every vertex the base colour, as the full program does in that
// view, and skins it to the same floats: a palette moving bone 0 by (1, 2, 3) and bone 1 by
// (-4, 0, 0.5) puts vertex v (at (v, 0, 0)) at (v, 0, 0) + w0 (1, 2, 3) + w1 (-4, 0, 0.5).
TEST(ViewColorsGl, TheShadedProgramPaintsTheBaseColourAndSkinsAlike) {
  SV_REQUIRE_GL();
  const Model model = color_model();
  gl::GpuModel gpu(model);
  std::vector<glm::mat4> palette(4, glm::mat4(1.0f));
  palette[0] = glm::translate(glm::mat4(1.0f), glm::vec3(1, 2, 3));
  palette[1] = glm::translate(glm::mat4(1.0f), glm::vec3(-4, 0, 0.5f));
  const std::vector<glm::mat3> normals(4, glm::mat3(1.0f));
  gpu.upload_palette(palette, normals);
  const glm::vec4 base(0.25f, 0.5f, 0.75f, 1.0f);
  const auto shaded = skin_output<glm::vec4>(gpu, "v_color", true, 0, base);
  const auto full = skin_output<glm::vec4>(gpu, "v_color", false, 0, base);
  // In another view the shaded program still paints the base colour (the renderer does not
  // draw a debug view with it), where the full program paints the view's colours.
  const auto shaded_in_weights = skin_output<glm::vec4>(gpu, "v_color", true, 1, base);
  const auto full_in_weights = skin_output<glm::vec4>(gpu, "v_color", false, 1, base);
  const auto at_shaded = skin_output<glm::vec3>(gpu, "v_model_position", true, 0, base);
  const auto at_full = skin_output<glm::vec3>(gpu, "v_model_position", false, 0, base);
  ASSERT_EQ(shaded.size(), kCases.size());
  ASSERT_EQ(at_full.size(), kCases.size());
  const Mesh& mesh = model.meshes[0];
  for (std::size_t v = 0; v < kCases.size(); ++v) {
    SCOPED_TRACE("vertex " + std::to_string(v));
    EXPECT_EQ(shaded[v], base);
    EXPECT_EQ(full[v], base);
    EXPECT_EQ(shaded_in_weights[v], base);
    EXPECT_EQ(at_shaded[v], at_full[v]);  // the same floats
    glm::vec3 expected = mesh.positions[v];
    for (int i = 0; i < 4; ++i) {
      if (mesh.joints[v][i] == 0) expected += mesh.weights[v][i] * glm::vec3(1, 2, 3);
      if (mesh.joints[v][i] == 1) expected += mesh.weights[v][i] * glm::vec3(-4, 0, 0.5f);
    }
    EXPECT_NEAR_GLM(at_shaded[v], expected, 1e-5f);
  }
  EXPECT_NE(full_in_weights[0], base);  // the heat ramp's blue (guards against a vacuous pass)
  EXPECT_NEAR_GLM(glm::vec3(at_full[9]), glm::vec3(9 - 0.2f * 4 + 0.8f * 0, 0, 0.2f * 0.5f), 1e-5f);
}

TEST(ViewColorsGl, ShadersPaintWhatTheLegendsDraw) {
  SV_REQUIRE_GL();
  const Model model = color_model();
  ASSERT_EQ(model.validate(), "");
  gl::GpuModel gpu(model);
  const std::vector<glm::mat4> palette(4, glm::mat4(1.0f));
  const std::vector<glm::mat3> normals(4, glm::mat3(1.0f));
  gpu.upload_palette(palette, normals);

  const std::vector<glm::vec4> heat = shader_colors(gpu, 1);
  const std::vector<glm::vec4> heat8 = shader_colors(gpu, 1, 8);
  const std::vector<glm::vec4> dominant = shader_colors(gpu, 2);
  const std::vector<glm::vec4> influences = shader_colors(gpu, 3);
  const std::vector<glm::vec4> sums = shader_colors(gpu, 4);
  ASSERT_EQ(heat.size(), kCases.size());
  const Mesh& mesh = model.meshes[0];
  for (std::size_t v = 0; v < kCases.size(); ++v) {
    SCOPED_TRACE("vertex " + std::to_string(v));
    const Case& c = kCases[v];
    // Weight on bone 0 (a bone may appear twice with the canonical layout's zero slots).
    float w = 0.0f;
    int kept = 0, largest = 0;
    for (int i = 0; i < 4; ++i) {
      if (c.weights[i] > 0.0f) ++kept;
      if (c.joints[i] == 0 && c.weights[i] > 0.0f) w += c.weights[i];
      if (c.weights[i] > c.weights[largest]) largest = i;
    }
    EXPECT_NEAR_GLM(glm::vec3(heat[v]), heat_color(w), 1e-5f);
    // With 8 the heat sums what skins: the first set's share of bone 0 and the 5th weight.
    EXPECT_NEAR_GLM(glm::vec3(heat8[v]), heat_color(w * (1.0f - c.weight5) + c.weight5), 1e-5f);
    EXPECT_NEAR_GLM(
        glm::vec3(dominant[v]),
        joint_color_in(joint_colors(model.skeleton.parents), mesh.skin_joints[c.joints[largest]]),
        1e-6f);
    const glm::vec3 influences_expected =
        (c.flags & kVertexTruncated) ? cut_weight_color(cut_weight_level(c.weight5))
                                     : kInfluenceColors[static_cast<std::size_t>(kept - 1)];
    EXPECT_NEAR_GLM(glm::vec3(influences[v]), influences_expected, 1e-5f);
    const glm::vec3 sum_expected = (c.flags & kVertexUnweighted)
                                       ? kSumUnweightedColor
                                       : weight_sum_color(weight_sum_level(c.stored_sum));
    EXPECT_NEAR_GLM(glm::vec3(sums[v]), sum_expected, 1e-5f);
  }
  // The cases do span the ramps (guards against a vacuous pass).
  EXPECT_NEAR_GLM(glm::vec3(heat[0]), glm::vec3(0, 0, 1), 1e-6f);
  EXPECT_NEAR_GLM(glm::vec3(heat[8]), glm::vec3(1, 0, 0), 1e-6f);
  EXPECT_NEAR_GLM(glm::vec3(sums[5]), kSumErrorHighColor, 1e-6f);
  EXPECT_NEAR_GLM(glm::vec3(sums[0]), kSumOkColor, 1e-6f);
  EXPECT_NEAR_GLM(glm::vec3(influences[11]), kCutStops[2], 1e-6f);  // 0.5 is past the top
  EXPECT_GT(glm::length(glm::vec3(influences[5]) - glm::vec3(influences[11])), 0.3f);
}

// The difference views paint the heat ramp of the value uploaded per vertex (the ramp's ends and
// a middle), grey for a negative one (no comparison), in both modes, each vertex its own value
// (found by its index).
TEST(ViewColorsGl, DifferenceViewsPaintTheUploadedValues) {
  SV_REQUIRE_GL();
  const Model model = color_model();
  gl::GpuModel gpu(model);
  const std::vector<glm::mat4> palette(4, glm::mat4(1.0f));
  const std::vector<glm::mat3> normals(4, glm::mat3(1.0f));
  gpu.upload_palette(palette, normals);
  std::vector<float> values(kCases.size());
  const std::size_t last = values.size() - 1;  // no comparison; the one before it is 1
  for (std::size_t v = 0; v < values.size(); ++v)
    values[v] = static_cast<float>(v) / static_cast<float>(last - 1);
  values[last] = -1.0f;
  ASSERT_TRUE(gpu.upload_vertex_values(values));
  ASSERT_NE(gpu.vertex_value_texture(), 0u);
  glActiveTexture(GL_TEXTURE0 + gl::kVertexValueUnit);
  glBindTexture(GL_TEXTURE_BUFFER, gpu.vertex_value_texture());
  glActiveTexture(GL_TEXTURE0);
  for (int mode : {5, 6}) {
    SCOPED_TRACE("mode " + std::to_string(mode));
    const std::vector<glm::vec4> colors = shader_colors(gpu, mode);
    ASSERT_EQ(colors.size(), values.size());
    for (std::size_t v = 0; v + 1 < values.size(); ++v)
      EXPECT_NEAR_GLM(glm::vec3(colors[v]), heat_color(values[v]), 1e-5f) << v;
    EXPECT_NEAR_GLM(glm::vec3(colors[0]), glm::vec3(0, 0, 1), 1e-6f);
    EXPECT_NEAR_GLM(glm::vec3(colors[last - 1]), glm::vec3(1, 0, 0), 1e-6f);
    EXPECT_NEAR_GLM(glm::vec3(colors[last]), kNoValueColor, 1e-6f);
  }
  // A count that is not the model's vertex count is refused (the old values stay).
  const std::vector<float> wrong(3, 0.5f);
  EXPECT_FALSE(gpu.upload_vertex_values(wrong));
  EXPECT_NEAR_GLM(glm::vec3(shader_colors(gpu, 5)[0]), glm::vec3(0, 0, 1), 1e-6f);
}

}  // namespace
}  // namespace sv
