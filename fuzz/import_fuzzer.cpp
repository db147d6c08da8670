// libFuzzer target over the whole import path from memory: assimp's ReadFileFromMemory with a
// format hint, skinview's conversion, the viewer's pose path and one CPU skinning pass
// (fuzz/fuzz_input.h). Built only with clang and -DSKINVIEW_FUZZ=ON; how to build, seed and
// run it: fuzz/README.md.
#include <cstdio>
#include <cstdlib>

#include "fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  const std::string broken = sv::fuzz::exercise(data, size, nullptr);
  if (!broken.empty()) {
    std::fprintf(stderr, "skinview invariant broken: %s\n", broken.c_str());
    std::abort();
  }
  return 0;
}
