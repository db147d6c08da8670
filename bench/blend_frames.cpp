// blend_frames: poses one of the benchmarks' layer stacks (blend_cases.h) a fixed number of
// frames through SkinnedPose::evaluate, 1/60 s apart, and prints a checksum of the last palette.
// A fixed count makes instruction counts comparable between builds; Google Benchmark 1.7 cannot
// fix the iteration count from its command line. bench/blend_instructions.py runs it under
// valgrind's callgrind, counting inside SkinnedPose::evaluate only
// (--toggle-collect='sv::SkinnedPose::evaluate*'), and divides by the frame count. Valgrind has
// no AVX-512: it runs the AVX2 kernels.
//
// `blend_frames --time ROUNDS` times the four cases instead, taken in turn (time_cases below),
// and prints the block-time percentiles and their ratios to blend/1.
#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "blend_cases.h"
#include "skin/skinned_pose.h"

namespace {

using sv::bench::BlendCase;

struct Posed {
  Posed(const char* n, std::size_t l) : name(n), layers(l) {}
  const char* name;
  std::size_t layers;
  std::unique_ptr<BlendCase> c;
  std::unique_ptr<sv::SkinnedPose> pose;
  double t = 0.0;
  std::vector<double> block_ns;  // per frame, one entry per timed block
};

bool start(Posed& p) {
  p.c = sv::bench::make_blend_case(p.name, p.layers);
  if (!p.c) return false;
  p.pose = std::make_unique<sv::SkinnedPose>(p.c->model);
  return p.pose->pose.set_layers(p.c->model, p.c->stack).empty();
}

bool frame(Posed& p) {
  p.t += 1.0 / 60.0;
  sv::bench::set_blend_time(*p.c, p.t);
  return p.pose->evaluate(p.c->model, p.c->stack);
}

double percentile(std::vector<double> v, double q) {
  std::sort(v.begin(), v.end());
  return v[static_cast<std::size_t>(q * static_cast<double>(v.size() - 1))];
}

// --time: every case in turn, `rounds` times (the order rotated each round), 32 blocks of 8 frames
// per turn after 8 untimed frames, each block timed on the steady clock. A block of 16 us or so is
// rarely interrupted, so the low percentiles of the block times are the undisturbed cost, and the
// cases, taken in turn, see the same load: the ratio is the figure to read.
int time_cases(long rounds) {
  std::array<Posed, 4> cases = {Posed("blend", 1), Posed("blend", 2), Posed("blend_additive", 2),
                                Posed("blend", 4)};
  for (Posed& p : cases)
    if (!start(p)) return 1;
  constexpr int kBlocks = 32, kFrames = 8;
  for (long r = 0; r < rounds; ++r)
    for (std::size_t k = 0; k < cases.size(); ++k) {
      Posed& p = cases[(k + static_cast<std::size_t>(r)) % cases.size()];
      for (int f = 0; f < kFrames; ++f)
        if (!frame(p)) return 1;
      for (int b = 0; b < kBlocks; ++b) {
        const auto t0 = std::chrono::steady_clock::now();
        for (int f = 0; f < kFrames; ++f)
          if (!frame(p)) return 1;
        const auto t1 = std::chrono::steady_clock::now();
        p.block_ns.push_back(std::chrono::duration<double, std::nano>(t1 - t0).count() / kFrames);
      }
    }
  std::printf("| case | p10 ns | p25 ns | median ns | p10 x `blend/1` | p25 x | median x |\n");
  std::printf("| --- | --- | --- | --- | --- | --- | --- |\n");
  const double b10 = percentile(cases[0].block_ns, 0.1), b25 = percentile(cases[0].block_ns, 0.25),
               b50 = percentile(cases[0].block_ns, 0.5);
  for (const Posed& p : cases) {
    const double p10 = percentile(p.block_ns, 0.1), p25 = percentile(p.block_ns, 0.25),
                 p50 = percentile(p.block_ns, 0.5);
    std::printf("| `%s/%zu` | %.0f | %.0f | %.0f | %.2f | %.2f | %.2f |\n", p.name, p.layers, p10,
                p25, p50, p10 / b10, p25 / b25, p50 / b50);
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 3 && std::strcmp(argv[1], "--time") == 0) {
    const long rounds = std::strtol(argv[2], nullptr, 10);
    if (rounds <= 0) return 2;
    return time_cases(rounds);
  }
  if (argc != 4) {
    std::fprintf(stderr,
                 "usage: blend_frames blend|blend_additive LAYERS FRAMES\n"
                 "       blend_frames --time ROUNDS\n");
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
