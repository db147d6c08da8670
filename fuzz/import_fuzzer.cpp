// libFuzzer target over whole imports, as skinview runs them: each input goes to the import
// worker (a child process: assimp's ReadFileFromMemory with a format hint, skinview's checks,
// repairs and conversion), comes back as a flat binary model checked by the reader, and is posed
// and skinned once (fuzz/fuzz_input.h). A crash, hang or runaway allocation inside the worker is
// a clean one-line error here, as in skinview: what this target looks for is an input that makes
// skinview's own process break a promise. Coverage is this process's (the reader and the pose
// path); the worker's is not seen. Built only with clang and -DSKINVIEW_FUZZ=ON; how to build,
// seed and run it: fuzz/README.md.
#include <cstdio>
#include <cstdlib>

#include "fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  sv::ImportOptions limits;
  limits.time_limit_s = 10;
  limits.memory_limit_bytes = std::size_t{2} << 30;
  const std::string broken = sv::fuzz::exercise(data, size, nullptr, limits);
  if (!broken.empty()) {
    std::fprintf(stderr, "skinview invariant broken: %s\n", broken.c_str());
    std::abort();
  }
  return 0;
}
