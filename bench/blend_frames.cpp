// blend_frames: poses one of the benchmarks' layer stacks (blend_cases.h) a fixed number of
// frames through SkinnedPose::evaluate, 1/60 s apart, and prints a checksum of the last palette.
// A fixed count makes instruction counts comparable between builds; Google Benchmark 1.7 cannot
// fix the iteration count from its command line. bench/blend_instructions.py runs it under
// valgrind's callgrind, counting inside SkinnedPose::evaluate only
// (--toggle-collect='sv::SkinnedPose::evaluate*'), and divides by the frame count. Valgrind has
// no AVX-512: it runs the AVX2 kernels.
#include <cstdio>
#include <cstdlib>
#include <string>

#include "blend_cases.h"
#include "skin/skinned_pose.h"

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: blend_frames blend|blend_additive LAYERS FRAMES\n");
    return 2;
  }
  const auto c = sv::bench::make_blend_case(argv[1], std::strtoul(argv[2], nullptr, 10));
  const long frames = std::strtol(argv[3], nullptr, 10);
  if (!c || frames <= 0) {
    std::fprintf(stderr, "blend_frames: no such case, or no frames\n");
    return 2;
  }
  sv::SkinnedPose pose(c->model);
  if (const std::string e = pose.pose.set_layers(c->model, c->stack); !e.empty()) {
    std::fprintf(stderr, "blend_frames: %s\n", e.c_str());
    return 1;
  }
  for (long f = 1; f <= frames; ++f) {
    sv::bench::set_blend_time(*c, static_cast<double>(f) / 60.0);
    if (!pose.evaluate(c->model, c->stack)) {
      std::fprintf(stderr, "blend_frames: evaluate failed\n");
      return 1;
    }
  }
  double sum = 0.0;
  for (const auto& m : pose.pose.palette())
    for (int k = 0; k < 4; ++k) sum += static_cast<double>(m[3][k]);
  std::printf("%s/%s: %ld frames, palette checksum %.9g\n", argv[1], argv[2], frames, sum);
  return 0;
}
