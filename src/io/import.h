// Importing a model file: the public side, free of assimp.
//
// assimp never runs in skinview's own process. import_model() starts the import worker
// (`skinview-import`, src/import/, built beside the skinview executable) as a child process
// bounded by an address-space limit, a CPU-time limit and a wall-clock limit; the child reads
// the file with assimp, converts and repairs it, and writes the result as a flat binary model
// (io/model_format.h), which this process checks field by field before using it. A file that
// crashes assimp, makes it loop or allocate without bound costs the child only: the caller gets
// a one-line error ("FILE: the importer crashed (SIGSEGV) reading it; refused", "FILE: gave up
// after 120 s (--time-limit)", "FILE: the importer ran out of memory (limit 4096 MiB) ...").
// What the child prints (some assimp parsers print directly) is captured: a failure quotes its
// last line, a success lists it in the report; nothing reaches this process's stdout or stderr.
//
// Every repair made to the data on the way (weights, influence limits, names, bad numbers, key
// order, keys past a clip's stated end) is counted in the ImportReport, which the command line
// and the UI show. io/import_process.h runs a child without blocking (the viewer's loader).
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
//   triangles per mesh          33,554,432    (2^25)
//   bone weights per mesh       64 per vertex on average (plus 65,536)
//   bones per mesh                  65,535    (Mesh::joints is 16-bit)
//   scene nodes                  1,048,576
//   joints                          65,536
//   node hierarchy depth             4,096    (a node reached twice -- a cycle or a child shared
//                                             by two parents -- is refused at any depth)
//   materials                       65,536
//   clips                           10,000
//   keys per track               1,000,000
//   keys, all clips             16,777,216
//   texture images                   4,096
//   pixels per image            16,777,216    (2^24; 16,384 on a side at most)
//   pixels, all images          67,108,864    (2^26: 256 MiB of RGBA), and at most one pixel
//                                             per 64 bytes of the worker's memory limit
//   bytes of a texture file        128 MiB    (checked with fstat before a byte is read)
//
// Repaired, not refused (each counted in the report): bone weights that are NaN/Inf, negative,
// above 1e6 or that name a vertex past the mesh's end (dropped); keys with NaN/Inf (dropped);
// keys with equal or decreasing times (sorted, repeats dropped); keys past their clip's stated
// duration (the duration extended to the last key); faces without indices or whose indices are
// out of range (dropped); and every other error of assimp's ValidateDataStructure step, which is
// not run (src/import/scene_repair.h lists them and what becomes of each). A clip of zero
// duration (X/Testwuson.X's Wuson_Bind) is kept: it is a single pose. A clip of negative
// duration is refused (dropped, with a note).
inline constexpr std::uint64_t kMaxFileBytes = 512ull << 20;
inline constexpr std::size_t kMaxMeshes = 65536;
inline constexpr std::size_t kMaxVerticesPerMesh = std::size_t{1} << 24;
inline constexpr std::size_t kMaxVerticesTotal = std::size_t{1} << 25;
inline constexpr std::size_t kMaxTrianglesPerMesh = std::size_t{1} << 25;
inline constexpr std::size_t kMaxMaterials = 65536;
inline constexpr std::size_t kMaxWeightsPerVertex = 64;  // on average, per mesh
inline constexpr std::size_t kMaxNodes = std::size_t{1} << 20;
inline constexpr std::size_t kMaxJoints = 65536;
inline constexpr std::size_t kMaxNodeDepth = 4096;
inline constexpr std::size_t kMaxClips = 10000;
inline constexpr std::size_t kMaxKeysPerTrack = 1000000;
inline constexpr std::size_t kMaxKeysTotal = std::size_t{1} << 24;
// Morph targets: per mesh, and target-vertex pairs (one position and one normal delta each) over
// every mesh together (2^26 pairs are 1.5 GiB of deltas).
inline constexpr std::size_t kMaxMorphTargetsPerMesh = 1024;
inline constexpr std::size_t kMaxMorphDeltasTotal = std::size_t{1} << 26;
// Texture images, decoded to RGBA8 by the worker (src/import/images.h); an image past a limit is
// not loaded (the report names it), the model still is.
inline constexpr std::size_t kMaxImages = 4096;
inline constexpr uint32_t kMaxImageSide = 16384;
inline constexpr uint64_t kMaxImagePixels = uint64_t{1} << 24;
inline constexpr uint64_t kMaxImagePixelsTotal = uint64_t{1} << 26;
inline constexpr uint64_t kMaxImageFileBytes = uint64_t{128} << 20;

struct ImportReport {
  // Counters; each non-zero one also has a human-readable line in `notes`.
  uint64_t vertices_over_4_influences = 0;  // had 5+ influences: smallest dropped, renormalised
  uint64_t vertices_over_8_influences = 0;  // of those, had 9+: cut even with --influences 8
  double largest_dropped_weight = 0.0;      // the largest single weight dropped by the 4-limit
  double largest_cut_weight = 0.0;     // the largest share of a vertex's weight the 4-limit cut
  uint64_t vertices_renormalised = 0;  // stored weights did not sum to 1 (|sum-1| > 1e-4)
  uint64_t vertices_unweighted = 0;    // no weight at all: bound rigidly to the mesh's node
  uint64_t bones_without_node = 0;     // aiBone whose name matches no node: weights dropped
  uint64_t channels_without_node = 0;  // animation channel whose name matches no node: skipped
  uint64_t non_finite_values = 0;      // NaN/Inf in keys, matrices or vertices: replaced/skipped
  uint64_t keys_out_of_order = 0;      // keys with equal or decreasing time: dropped/sorted
  uint64_t rotations_normalised = 0;   // rotation keys whose length was not 1
  uint64_t meshes_skipped = 0;         // meshes with nothing to draw (no vertices)
  uint64_t faces_dropped = 0;          // triangles with a vertex index past the mesh's end
  uint64_t clips_refused = 0;          // clips of negative duration: dropped
  uint64_t clips_extended = 0;         // clips whose keys run past their stated duration
  uint64_t textures_not_loaded = 0;    // textures refused or unreadable (each named in notes)
  std::vector<std::string> notes;      // one line per repair kind, e.g. "12 vertices had ..."
  std::string ticks_per_second_note;   // set when a clip gave no ticks per second
  // The length unit of the model's coordinates, in metres per unit, where the format says it:
  // glTF is in metres by its specification; COLLADA's <unit meter> is applied by assimp on
  // import (the model is then in metres, COLLADA's default unit too); FBX states its
  // UnitScaleFactor (centimetres per unit; assimp keeps the file's units and reports the
  // factor). 0: the format does not say (OBJ, BVH, X, ...). Format version 10.
  double unit_metres = 0.0;
};

// Who wrote a model and what it read, for a cache to key and check entries by.
struct ImportProvenance {
  std::string importer;                 // e.g. "assimp 5.2.4" (the version assimp reports)
  std::vector<std::string> read_files;  // files the import opened besides the model itself (a
                                        // .gltf's .bin buffers, an .md5mesh's .md5anim, the
                                        // texture images it decoded)
  // The worker's sandbox layers in force while it read the file (src/import/sandbox.h), e.g.
  // "landlock v7, seccomp, rlimits"; one line.
  std::string sandbox;
};

struct ImportResult {
  std::optional<Model> model;  // set on success
  ImportReport report;
  // On failure: one line naming the file and the reason. The name is the caller's own, as given
  // (a printer escapes control characters in it: app/cli.h, print_error_line); the rest holds
  // none.
  std::string error;
  ImportProvenance provenance;
  // The flat binary model the worker wrote (io/model_format.h), when ImportOptions::keep_stream
  // asked for it and the import succeeded: the bytes a model cache stores. Borrowed from the
  // mapping the model itself was read from when there is one (anim/stream.h), else owned.
  Stream<uint8_t> stream;
  bool from_cache = false;  // read from the model cache (io/import_cache.h), not by the worker

  bool ok() const noexcept { return model.has_value(); }
};

// The bounds of one import's child process.
struct ImportOptions {
  double time_limit_s = 120.0;      // wall clock; <= 0: none (the CPU limit goes with it)
  uint64_t memory_limit_bytes = 0;  // the child's address space beyond what it starts with;
                                    // 0: default_import_memory_limit()
  bool keep_stream = false;         // hand back the worker's bytes too (ImportResult::stream)
  // The model cache's folder (io/import_cache.h): "" for none, the default here; the command line
  // and the window pass ModelCache::default_dir() unless --no-cache. `cache_max_bytes` bounds it.
  std::string cache_dir;
  uint64_t cache_max_bytes = uint64_t{1} << 30;
  // Folders besides the model's own that texture files may be read from (--texture-path DIR,
  // repeatable). A texture resolves, after symbolic links, inside the model's folder tree or one
  // of these, or it is not loaded (src/import/images.h).
  std::vector<std::string> texture_paths;
  // Folders the worker's sandbox lets it read besides the model's own (e.g. --texture-path);
  // everything else on the disk is closed to it where the kernel has Landlock.
  std::vector<std::string> read_dirs;
};

// Half of the machine's physical memory, at most 4 GiB and at least 1 GiB: room for models far
// past any real character (assimp needs a few hundred bytes per vertex), and a bound on what a
// hostile file can make the worker allocate and touch. --memory-limit raises it.
uint64_t default_import_memory_limit() noexcept;

// "" when `path` exists and is not a folder; otherwise the one-line error ("PATH: no such file",
// "PATH: is a directory, not a model file"). Said without starting a process.
std::string missing_file_error(const std::string& path);

// Imports `path` in a child process (see the top of this file), or, when options.cache_dir is set
// and the model cache holds the file, reads the cached copy instead (ImportResult::from_cache)
// and stores what the child wrote otherwise. Never throws: a file that cannot
// be read, that assimp rejects, that holds nothing to show, or whose import crashes, hangs or
// runs out of memory gives ok() == false with `error` set. The worker refuses .md5camera files
// (no model), and runs its pre-read checks (src/import/pre_read.h) before assimp reads a byte.
// Blocks until the child ends: the viewer uses ImportProcess (io/import_process.h) instead.
ImportResult import_model(const std::string& path, const ImportOptions& options = {});

// Imports a file held in memory the same way: the bytes are handed to the child, which reads
// them with assimp's ReadFileFromMemory. `hint` names the format as a file extension without the
// dot ("gltf", "glb", "fbx", "x", "dae", "bvh", "smd", "md5mesh", ...); assimp also sniffs the
// content. `name` prefixes every error. No other file is opened: a .gltf's external .bin, an
// .md5mesh's .md5anim or textures are not found, so only self-contained files load fully.
ImportResult import_model_from_memory(std::span<const uint8_t> bytes, const std::string& hint,
                                      const std::string& name = "<memory>",
                                      const ImportOptions& options = {});

// The file extensions the importer reads, lower case without the dot, sorted ("3ds", "fbx",
// "gltf", ...): assimp's own list as the import worker reports it (`skinview-import
// --extensions`; this process has no assimp to ask), less .md5camera, which is refused. Asked
// once per process and kept; empty when the worker cannot be run. The file browser shows only
// these files.
const std::vector<std::string>& supported_extensions();

}  // namespace sv
