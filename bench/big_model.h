// A large skinned glTF written once for the import and cache benchmarks: a tube of `rings` x
// `segments` vertices (1000 x 1000 = 1M), 2 triangles per quad, along a chain of 32 joints, each
// vertex weighted by the two joints nearest its height (a linear ramp), and one 2-s clip that
// bends every joint. Deterministic: the same bytes every run.
#pragma once

#include <string>

namespace sv::bench {

// Writes the model to `path` (a .glb, about 80 MB at 1M vertices); returns "" or why it could not.
std::string write_big_model(const std::string& path, int rings = 1000, int segments = 1000);

}  // namespace sv::bench
