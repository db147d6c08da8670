// --skinning auto: which drivers count as software rasterisers (the GPU path's shader then runs on
// the CPU, slower than the CPU path: BENCHMARKS.md round 33), and the path each choice gives.
#include <gtest/gtest.h>

#include "gfx/renderer.h"

namespace sv::gl {
namespace {

TEST(SkinningPath, SoftwareRasterisersAreKnownByTheirRendererString) {
  // GL_RENDERER strings as the drivers report them.
  for (const char* soft :
       {"llvmpipe (LLVM 15.0.6, 256 bits)", "softpipe", "Google SwiftShader", "GDI Generic",
        "Apple Software Renderer", "Mesa X11 Software Rasterizer"})
    EXPECT_TRUE(is_software_renderer(soft)) << soft;
  for (const char* hard : {"NVIDIA GeForce RTX 4090/PCIe/SSE2",
                           "AMD Radeon RX 7900 XTX (radeonsi, navi31, LLVM 15.0.6, "
                           "DRM 3.54, 6.5.0)",
                           "Mesa Intel(R) UHD Graphics 620 (KBL GT2)", "Apple M2", "virgl", ""})
    EXPECT_FALSE(is_software_renderer(hard)) << hard;
}

TEST(SkinningPath, AutoSkinsOnTheCpuOnlyOnASoftwareRasteriser) {
  EXPECT_TRUE(gpu_skinning_for("auto", false));
  EXPECT_FALSE(gpu_skinning_for("auto", true));
  // An explicit choice holds on any driver.
  for (bool software : {false, true}) {
    EXPECT_TRUE(gpu_skinning_for("gpu", software));
    EXPECT_FALSE(gpu_skinning_for("cpu", software));
  }
}

}  // namespace
}  // namespace sv::gl
