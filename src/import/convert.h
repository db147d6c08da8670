// The import worker's conversion: aiScene -> sv::Model (convert_scene.cpp, convert_clips.cpp),
// the glTF re-reader it uses (gltf_interp.cpp), and the helpers they share. Keeps assimp and
// tinygltf out of each other's files. Runs only in the worker (src/import/).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "anim/clip.h"
#include "io/import.h"

struct aiScene;  // assimp's; only import.cpp and the io tests see its definition

namespace sv {

// The conversion behind the worker's import, on a scene already read, repaired
// (scene_repair.h) and post-processed by assimp: every limit and repair of io/import.h applies.
// `name` prefixes errors. Tests build aiScenes in code and feed them here. Never throws.
ImportResult convert_scene(const aiScene& scene, const std::string& name);

// The length unit of `scene`'s coordinates in metres (ImportReport::unit_metres), from the file's
// extension (`ext`, lower case with its dot) and assimp's scene metadata; 0 when unknown.
double file_unit_metres(const aiScene& scene, const std::string& ext);

// A message from assimp (or another reader) made one readable line for an ImportResult error:
// control characters become spaces, anything past 300 bytes is cut and ends in "...", and
// assimp's bare "std::bad_alloc" (a count in the file asking for more memory than there is)
// becomes a sentence.
std::string assimp_error_line(std::string message);
// The same without the mapping: control characters become spaces, cut at 300 bytes.
std::string quoted_error(std::string message);
// Line breaks become spaces, trailing spaces go.
std::string one_line(std::string s);

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

// One glTF morph weights channel read from the file itself, whatever its interpolation: assimp
// 5.2.5 clamps negative weights to 0 and reads STEP and CUBICSPLINE weights as linear (its
// cubic-spline stride is wrong too), so the importer replaces assimp's track with this one.
struct GltfWeightsTrack {
  std::size_t animation = 0;       // glTF animation index == assimp aiAnimation index
  std::string node_name;           // the target node's name, or "nodes[i]" when unnamed
  std::string node_id_underscore;  // "nodes_i": the same in older assimp
  Interpolation interpolation = Interpolation::Linear;
  std::vector<double> times;  // seconds, as stored
  std::vector<float> values;  // as stored: per key all targets (x3 for cubic: glTF's layout)
};

// A .gltf/.glb file as tinygltf reads it, before assimp does: what assimp 5.2.5 would read
// out of bounds (refused up front), and the STEP/CUBICSPLINE channels that assimp turns linear.
struct GltfSidecar {
  bool parsed = false;      // false: tinygltf could not read the file (`warning` says why)
  std::string problem;      // parsed, but an index, accessor or view is out of range, or the node
                            // graph has a cycle: the file is refused before assimp reads it
  std::string warning;      // a note for the report when !parsed
  std::string parse_error;  // !parsed: tinygltf's first error line
  bool version1 = false;
  bool draco = false;  // !parsed, and the file names KHR_draco_mesh_compression (which tinygltf
                       // rejects and assimp reads)    // !parsed, and the file is glTF 1.0
                       // (tinygltf reads only 2.0)
  std::vector<GltfTrackOverride> overrides;  // every STEP/CUBICSPLINE channel (when no problem)
  std::vector<GltfWeightsTrack> weights;     // every morph weights channel (when no problem)
};

// Reads a glTF file from disk (binary when the extension is .glb), external buffers included.
GltfSidecar read_gltf_sidecar(const std::string& path);
// The same for a file held in memory; opens no other file (external buffers fail the parse).
GltfSidecar read_gltf_sidecar(std::span<const uint8_t> bytes, bool binary);

}  // namespace sv
