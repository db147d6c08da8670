// Writes bench/big_model.h's skinned tube as a .glb, for timing whole programs on it (skinview
// against other viewers, BENCHMARKS.md):
//   make_big_model OUT.glb [RINGS SEGMENTS]     default 1000 x 1000 = 1M vertices (~80 MB)
#include <cstdio>
#include <cstdlib>
#include <string>

#include "big_model.h"

int main(int argc, char** argv) {
  if (argc != 2 && argc != 4) {
    std::fprintf(stderr, "usage: make_big_model OUT.glb [RINGS SEGMENTS]\n");
    return 2;
  }
  const int rings = argc == 4 ? std::atoi(argv[2]) : 1000;
  const int segments = argc == 4 ? std::atoi(argv[3]) : 1000;
  if (rings < 2 || segments < 3 || rings > 100000 || segments > 100000) {
    std::fprintf(stderr, "make_big_model: RINGS >= 2 and SEGMENTS >= 3, each at most 100000\n");
    return 2;
  }
  const std::string e = sv::bench::write_big_model(argv[1], rings, segments);
  if (!e.empty()) {
    std::fprintf(stderr, "make_big_model: %s\n", e.c_str());
    return 1;
  }
  return 0;
}
