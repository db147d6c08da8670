// Source: where the bytes of a model come from in the import worker -- a file on disk or a
// buffer held in memory -- and random access to them for the checks made before assimp reads.
#pragma once

#include <cstdint>
#include <span>
#include <string>

namespace sv {

struct Source {
  std::string name;                // the path, or the caller's label: prefixes every error
  std::string ext;                 // lower case with the dot (".gltf"); from the hint in memory
  std::span<const uint8_t> bytes;  // the whole file, when it is held in memory
  uint64_t size = 0;               // the file's size in bytes
  bool in_memory() const { return !bytes.empty(); }
};

// Up to `n` bytes of the file from `offset` (fewer at its end, none when unreadable).
std::string read_at(const Source& src, uint64_t offset, std::size_t n);

// ".gltf" for "dir/Model.GLTF"; "" without an extension.
std::string lower_extension(const std::string& path);

}  // namespace sv
