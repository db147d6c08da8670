// The assimp importer: reads any file assimp opens and turns it into a flat sv::Model.
//
// This header is free of assimp; io/import.cpp is the only file in the tree that includes it.
// Every repair made to the data on the way (weights, influence limits, names, bad numbers, key
// order) is counted in the ImportReport, which the command line and the UI show.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "anim/model.h"

namespace sv {

// Limits: a file beyond any of these is refused with a one-line error naming the limit, instead
// of running out of memory or stalling in the conversion, the per-frame work or the GPU upload.
// Each is far above any real character model (the largest test model has 11,196 vertices, 58
// joints, 3 clips and a few thousand keys); they exist to stop hostile or corrupt files.
//
//   file size                      512 MiB    (checked before assimp reads a byte)
//   meshes                          65,536
//   vertices per mesh           16,777,216    (2^24)
//   vertices, all meshes        33,554,432    (2^25)
//   bone weights per mesh       64 per vertex on average (plus 65,536)
//   bones per mesh                  65,535    (Mesh::joints is 16-bit)
//   scene nodes                  1,048,576
//   joints                          65,536
//   node hierarchy depth             4,096    (a node reached twice -- a cycle or a child shared
//                                             by two parents -- is refused at any depth)
//   clips                           10,000
//   keys per track               1,000,000
//   keys, all clips             16,777,216
//
// Repaired, not refused (each counted in the report): bone weights that are NaN/Inf, negative,
// above 1e6 or that name a vertex past the mesh's end (dropped); keys with NaN/Inf (dropped);
// keys with equal or decreasing times (sorted, repeats dropped); faces whose indices are out of
// range (dropped). A clip of zero duration (X/Testwuson.X's Wuson_Bind) is kept: it is a single
// pose. A clip of negative duration is refused (dropped, with a note).
inline constexpr std::uint64_t kMaxFileBytes = 512ull << 20;
inline constexpr std::size_t kMaxMeshes = 65536;
inline constexpr std::size_t kMaxVerticesPerMesh = std::size_t{1} << 24;
inline constexpr std::size_t kMaxVerticesTotal = std::size_t{1} << 25;
inline constexpr std::size_t kMaxWeightsPerVertex = 64;  // on average, per mesh
inline constexpr std::size_t kMaxNodes = std::size_t{1} << 20;
inline constexpr std::size_t kMaxJoints = 65536;
inline constexpr std::size_t kMaxNodeDepth = 4096;
inline constexpr std::size_t kMaxClips = 10000;
inline constexpr std::size_t kMaxKeysPerTrack = 1000000;
inline constexpr std::size_t kMaxKeysTotal = std::size_t{1} << 24;

struct ImportReport {
  // Counters; each non-zero one also has a human-readable line in `notes`.
  uint64_t vertices_over_4_influences = 0;  // had 5+ influences: smallest dropped, renormalised
  double largest_dropped_weight = 0.0;      // the largest single weight dropped by the 4-limit
  uint64_t vertices_renormalised = 0;       // stored weights did not sum to 1 (|sum-1| > 1e-4)
  uint64_t vertices_unweighted = 0;         // no weight at all: bound rigidly to the mesh's node
  uint64_t bones_without_node = 0;          // aiBone whose name matches no node: weights dropped
  uint64_t channels_without_node = 0;       // animation channel whose name matches no node: skipped
  uint64_t non_finite_values = 0;     // NaN/Inf in keys, matrices or vertices: replaced/skipped
  uint64_t keys_out_of_order = 0;     // keys with equal or decreasing time: dropped/sorted
  uint64_t rotations_normalised = 0;  // rotation keys whose length was not 1
  uint64_t meshes_skipped = 0;        // meshes with no triangles (points/lines only)
  uint64_t faces_dropped = 0;         // triangles with a vertex index past the mesh's end
  uint64_t clips_refused = 0;         // clips of negative duration: dropped
  std::vector<std::string> notes;     // one line per repair kind, e.g. "12 vertices had ..."
  std::string ticks_per_second_note;  // set when a clip gave no ticks per second
};

struct ImportResult {
  std::optional<Model> model;  // set on success
  ImportReport report;
  std::string error;  // on failure: one line naming the file and the reason

  bool ok() const noexcept { return model.has_value(); }
};

// Imports `path`. Never throws and never aborts on bad data: a file that cannot be read, that
// assimp rejects, or that holds nothing to show gives ok() == false with `error` set. assimp also
// reads NAME.md5anim beside NAME.md5mesh; MD5 and SMD text (both files) is checked before assimp
// reads it (text_checks.h), and .md5camera files are refused. DirectX .x files (text, binary and
// compressed) are walked before assimp reads them (x_check.h): their counts must fit the file
// and the limits above, which are then applied before assimp allocates anything.
// assimp's own error text is cut to one line of at most 300 characters.
ImportResult import_model(const std::string& path);

// Imports a file held in memory, through the same conversion as import_model. `hint` names the
// format as a file extension without the dot ("gltf", "glb", "fbx", "x", "dae", "bvh", "smd",
// "md5mesh", ...); assimp also sniffs the content. `name` prefixes every error. No other file is
// opened: a .gltf's external .bin, an .md5mesh's .md5anim or textures are not found, so only
// self-contained files load fully (.glb, .gltf with data: URIs, .fbx, .x, ...).
ImportResult import_model_from_memory(std::span<const uint8_t> bytes, const std::string& hint,
                                      const std::string& name = "<memory>");

// The file extensions the importer reads (lower-case, without the dot, sorted), as assimp lists
// them, less those skinview refuses (.md5camera). The file browser shows only these files.
std::vector<std::string> supported_extensions();

// Whether an import points stdout and stderr at /dev/null while assimp runs (some of its parsers
// print directly). On by default: the command line promises one line of error output, and
// --dump may write JSON to stdout. The viewer turns it off: its reads run on worker threads,
// and one given up on (app/model_loader.h) would keep the whole process's stderr closed.
void set_import_silences_stdio(bool on) noexcept;

}  // namespace sv
