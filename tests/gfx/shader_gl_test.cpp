// Shader loading: the embedded copies match shaders/, a broken shader reports its GLSL log, and
// missing run-time files fall back to the embedded copy with a warning.
#include <cstdlib>
#include <string>

#include <gtest/gtest.h>

#include "gfx/gpu_model.h"
#include "gfx/renderer.h"
#include "gfx/shader.h"
#include "gfx/view_colors.h"
#include "gl_context.h"

namespace sv {
namespace {

TEST(Shaders, EmbeddedCopiesMatchTheFiles) {
  for (const char* name : {"common.vert", "skin.vert", "mesh.vert", "mesh.frag", "line.vert",
                           "line.frag", "pick.frag"}) {
    const auto embedded = gl::embedded_shader(name);
    ASSERT_TRUE(embedded.has_value()) << name;
    const auto disk = gl::read_shader_file(name);
    ASSERT_TRUE(disk.has_value()) << name;
    EXPECT_EQ(*disk, std::string(*embedded)) << name;
  }
  EXPECT_FALSE(gl::embedded_shader("no_such.vert").has_value());
}

// The renderer reads the driver's name once (init): what --skinning auto goes by.
TEST(Shaders, TheRendererKnowsASoftwareRasteriserByItsName) {
  SV_REQUIRE_GL();
  gl::Renderer renderer;
  std::string error;
  ASSERT_TRUE(renderer.init(&error, nullptr)) << error;
  const auto* name = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
  ASSERT_NE(name, nullptr);
  EXPECT_EQ(renderer.software(), gl::is_software_renderer(name)) << name;
}

TEST(Shaders, CompileErrorCarriesTheGlslLog) {
  SV_REQUIRE_GL();
  gl::ProgramDesc desc;
  const gl::ProgramResult r =
      gl::build_program_from_sources({"void main() { gl_Position = undefined_thing; }"},
                                     {"out vec4 c; void main() { c = vec4(1); }"}, desc);
  EXPECT_FALSE(r.ok());
  EXPECT_NE(r.error.find("vertex shader"), std::string::npos) << r.error;
  EXPECT_NE(r.error.find("undefined_thing"), std::string::npos) << r.error;
}

TEST(Shaders, MissingFilesFallBackToTheEmbeddedCopy) {
  SV_REQUIRE_GL();
  ::setenv("SKINVIEW_SHADER_DIR", "/nonexistent/skinview-shaders", 1);
  const gl::ProgramResult r = gl::build_program(
      {{"common.vert", "skin.vert"}, {"mesh.frag"}, gl::skin_program_defines(), {}});
  ::unsetenv("SKINVIEW_SHADER_DIR");
  EXPECT_TRUE(r.ok()) << r.error;
  EXPECT_NE(r.warning.find("embedded"), std::string::npos) << r.warning;
}

TEST(Shaders, InjectedDefinesReachGlsl) {
  SV_REQUIRE_GL();
  gl::ProgramDesc desc;
  desc.defines = {"SV_TEST_VALUE 3"};
  const gl::ProgramResult r =
      gl::build_program_from_sources({"#if SV_TEST_VALUE != 3\n#error define missing\n#endif\nvoid "
                                      "main() { gl_Position = vec4(0); }"},
                                     {"out vec4 c; void main() { c = vec4(1); }"}, desc);
  EXPECT_TRUE(r.ok()) << r.error;
}

}  // namespace
}  // namespace sv
