// libFuzzer target over the trust boundary: the flat binary model reader (io/model_format.h),
// which every byte the import worker sends back goes through. Each input is a stream: read_model
// must refuse it with one line or return a model that keeps every promise (fuzz/fuzz_input.h:
// validation, one sampled frame, one CPU skinning pass). Seeds are the worker's own encodings of
// the test models (fuzz/make_seeds.sh, family `model`). Built only with clang and
// -DSKINVIEW_FUZZ=ON; see fuzz/README.md.
#include <cstdio>
#include <cstdlib>

#include "fuzz_input.h"
#include "io/model_format.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  const sv::ImportResult r = sv::read_model(std::span<const uint8_t>(data, size), "fuzz.svm");
  const std::string broken = sv::fuzz::check_result(r, nullptr);
  if (!broken.empty()) {
    std::fprintf(stderr, "skinview invariant broken: %s\n", broken.c_str());
    std::abort();
  }
  return 0;
}
