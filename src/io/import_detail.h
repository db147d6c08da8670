// Internals shared by the importer's translation units (import.cpp, gltf_interp.cpp); not a
// public header. Keeps assimp and tinygltf out of each other's files.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "anim/clip.h"
#include "io/import.h"

namespace sv {

// Raw keys as read from a file, before cleaning: times in seconds (double, as read), values
// one per key, or three per key (in-tangent, value, out-tangent) for cubic splines.
template <class V>
struct KeyBuffer {
  std::vector<double> times;
  std::vector<V> values;
};

// Turns raw keys into a Track: drops keys with NaN/Inf (or zero-length rotations), sorts keys out
// of order, drops keys whose time repeats, normalises rotation values, and counts each fix in
// `report`. Returns false (leaving `out` alone) when values and times disagree in count.
template <class V>
bool clean_track(KeyBuffer<V> keys, Interpolation interpolation, Track<V>& out,
                 ImportReport& report);

// One glTF animation channel whose sampler is STEP or CUBICSPLINE, read from the file itself.
struct GltfTrackOverride {
  enum class Path { Translation, Rotation, Scale };
  std::size_t animation = 0;       // glTF animation index == assimp aiAnimation index
  std::string node_name;           // the target node's name ("" when unnamed)
  std::string node_id_brackets;    // "nodes[i]": assimp's name for an unnamed node (5.1+)
  std::string node_id_underscore;  // "nodes_i": the same in older assimp
  Path path = Path::Translation;
  Interpolation interpolation = Interpolation::Step;
  KeyBuffer<glm::vec3> vector;  // translation or scale
  KeyBuffer<glm::quat> rotation;
};

// Reads every STEP/CUBICSPLINE channel of a .gltf/.glb file. Returns false when the file cannot
// be parsed (`warning` then says why); true with an empty list when there is nothing to fix.
bool read_gltf_step_and_cubic_tracks(const std::string& path, std::vector<GltfTrackOverride>& out,
                                     std::string& warning);

}  // namespace sv
