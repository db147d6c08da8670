// The flat binary model: what the import worker (src/import/, a child process) sends back to
// skinview, and what a model cache stores. It is the trust boundary: the bytes come from a
// process that parsed a hostile file with assimp, so read_model() checks every size, offset,
// index and number before the parent uses it, and refuses a bad stream with one line.
//
// Layout (little-endian, every field at a multiple of its size from the start):
//
//   header   magic "SVMODEL\x1a" (8 bytes), u32 version (kModelFormatVersion),
//            u32 section count, u64 total size of the stream in bytes (header included),
//            u64 reserved (0)                                              32 bytes
//   sections one after another, each: u32 tag (4 ASCII bytes, e.g. "MESH"), u32 reserved (0),
//            u64 payload size, the payload, zero bytes up to the next multiple of 8.
//
// Sections, in this order: INFO (the importer that wrote it: assimp's version, the files the
// import opened besides the model, the sandbox layers it ran under), then either ERRR (the import
// failed: one line) or SKEL, MESH x meshes, IMAG x images (decoded RGBA8 pixels), MATL x
// materials, MRPH x meshes with morph targets, CLIP x clips (runtime form), MWGT x clips with
// morph weight tracks, REPT (the import report). Inside a payload, scalars are fixed-size; an
// array is a u64 element count then the elements; a string is an array of bytes. Vectors and
// matrices are their float components (matrices column-major, as glm); quaternions are x, y, z,
// w. An array with elements has zero bytes between its count and its first element, up to the next
// multiple of 16 from the stream's start (version 11): a stream that starts 16-byte aligned holds
// every array aligned for its elements, so a reader can use them where they lie. The format is
// self-describing and versioned: a reader of another version refuses the stream (no partial reads),
// so a cache keyed by the version never hands an old layout to a new reader.
//
// What read_model() checks, beyond the framing (sizes, tags, order, counts that fit the bytes
// left, no arithmetic that can overflow): every limit of io/import.h (meshes, vertices, joints,
// clips, keys, ...) before anything is allocated; parents[i] < i; every number finite; rest
// quaternions of unit length; per mesh, stream lengths equal, joint indices within the skin,
// skin joints within the skeleton, weights non-negative and summing to 1, triangle, line and point
// indices within the vertices, source_vertex a permutation, stored weight sums one per vertex;
// compact streams none or one per vertex, their joints as wide as max_joint asks and within it,
// their weights finite and in [0, 1];
// clips in runtime form, their arrays checked against anim/clip_arrays.h's contract
// (ClipRuntime::adopt: every track, timeline and value index in range, times finite and
// increasing), laid out for this skeleton, keys within the duration (Model::validate and the checks
// the format adds); morph targets one delta per vertex (normals: none or one per vertex), finite,
// within kMaxMorphTargetsPerMesh and kMaxMorphDeltasTotal; morph tracks naming a mesh with targets,
// one per mesh and clip, times finite, increasing and within the clip, weights as many as keys
// times targets (anim/morph.h's check_morph_clip); images within kMaxImageSide on a side,
// kMaxImagePixels each and kMaxImagePixelsTotal in all, their pixel bytes exactly width x height x
// 4, checked before they are copied, and each material's image index in range. No assimp
// here: the parent links this file, the worker writes with it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "io/import.h"

namespace sv {

inline constexpr char kModelMagic[8] = {'S', 'V', 'M', 'O', 'D', 'E', 'L', '\x1a'};
// 4: morph targets (MRPH) and the clips' morph weight tracks (MWGT).
// 5: meshes carry influences 5-8 (Mesh::joints2, weights2, cut_weights; empty within 4).
// 6: decoded images (IMAG: RGBA8 pixels the worker decoded); a material names an image by index
//    instead of a texture path or compressed bytes; the report counts textures not loaded.
// 7: INFO ends with the worker's sandbox line (ImportProvenance::sandbox), without 6's images.
// 8: both, 6's images and 7's sandbox line (the two branches merged).
// 9: meshes carry lines and points besides triangles (Mesh::line_indices, point_indices).
// 10: the report ends with the file's unit (ImportReport::unit_metres).
// 11: an array's elements (when it has any) start at a multiple of 16 bytes from the stream's
//     start, zero bytes between its count and them: a mapped stream is read in place.
// 12: meshes carry their compact streams (Mesh::compact_*: octahedral normals, u8 or u16 joints,
//     3 weights), made by the worker, after the cut weights: a load reads them in place instead
//     of encoding them (the viewer did, 36 ms of CPU on 1M vertices).
// 13: a material says whether it is drawn from both sides (Material::double_sided: glTF's
//     doubleSided; false asks for back-face culling), a u32 after its image.
inline constexpr uint32_t kModelFormatVersion = 13;
// The largest stream a reader accepts (a model at every limit of import.h is about 3 GiB).
inline constexpr uint64_t kMaxModelBytes = uint64_t{4} << 30;

// The header's size: what the parent reads of the worker's output before anything else.
inline constexpr std::size_t kModelHeaderBytes = 32;

// Checks a stream's header (`header`: at least its first kModelHeaderBytes) against the size of
// the whole stream, before the rest of it is read: magic, version, the total size it states
// (equal to `stream_size`, at most kMaxModelBytes), the reserved field. "" or what is wrong, in
// read_model's words.
std::string check_model_header(std::span<const uint8_t> header, uint64_t stream_size);

// The stream for a successful import: `model` must validate (the worker's conversion makes sure).
std::vector<uint8_t> write_model(const Model& model, const ImportReport& report,
                                 const ImportProvenance& provenance);
// The same stream written in place (the worker: into its mapped result file, no copy): its size,
// then the stream into `out` of exactly that size; false (and `out` not a stream) when `out` is
// not that size.
std::size_t model_stream_size(const Model& model, const ImportReport& report,
                              const ImportProvenance& provenance);
bool write_model_into(std::span<uint8_t> out, const Model& model, const ImportReport& report,
                      const ImportProvenance& provenance);
// The stream for a failed import: `error` is the one-line message.
std::vector<uint8_t> write_error(std::string_view error, const ImportProvenance& provenance);

// Reads a stream. Never throws. A stream that fails a check gives ok() == false with
// "NAME: the importer's output is malformed (WHAT); refused"; an ERRR stream gives its error line
// as it is (the worker names the file). `name` is the model's path or label. `checksum`, when
// given, gets the XXH3-64 of all of `bytes`, accepted or not, hashed while they are read (a big
// array's block just before it is copied, so the stream is read from memory once: a cache entry's
// check fused into its read, io/import_cache.cpp); whoever asks for it must discard the result
// when it is not what the bytes should hash to.
// `keep`, when given, keeps `bytes` alive and unchanged for as long as it lives (a cache entry's
// mapping, the worker's sealed output): the model's mesh streams then borrow their elements from
// `bytes` where they lie aligned (anim/stream.h), and hold `keep`, instead of copying them; each
// is still hashed and checked block by block as it is read. Without it every array is copied.
ImportResult read_model(std::span<const uint8_t> bytes, const std::string& name,
                        uint64_t* checksum = nullptr, std::shared_ptr<const void> keep = nullptr);

}  // namespace sv
