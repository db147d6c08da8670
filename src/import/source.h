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

// A regular file of 1 byte to 4 GiB mapped read-only (the page cache's pages: no copy), unmapped
// with the object; bytes() is empty when it could not be mapped (the caller reads it instead). A
// file cut short while mapped ends the worker with SIGBUS at the first byte past its new end:
// refused, as any crash of the worker.
class MappedFile {
 public:
  explicit MappedFile(const std::string& path);
  ~MappedFile();
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;
  std::span<const uint8_t> bytes() const { return {data_, size_}; }

 private:
  const uint8_t* data_ = nullptr;
  std::size_t size_ = 0;
};

// ".gltf" for "dir/Model.GLTF"; "" without an extension.
std::string lower_extension(const std::string& path);

}  // namespace sv
