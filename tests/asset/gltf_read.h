// assets/default.glb read with tinygltf in the asset tests, independently of skinview's importer:
// images left undecoded, whole accessors copied out as typed arrays. tinygltf is header-only: the
// one test file of each binary that includes this defines TINYGLTF_IMPLEMENTATION (with
// TINYGLTF_NO_STB_IMAGE, TINYGLTF_NO_STB_IMAGE_WRITE, TINYGLTF_NO_EXTERNAL_IMAGE) first.
#pragma once

#include <tiny_gltf.h>

#include <cstring>
#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace sv::test::gltf {

// Images stay undecoded: only their presence and format are checked.
inline bool keep_image(tinygltf::Image*, const int, std::string*, std::string*, int, int,
                       const unsigned char*, int, void*) {
  return true;
}

// Typed view of a whole accessor (tightly packed, as the generator writes them).
template <class T>
std::vector<T> read(const tinygltf::Model& m, int accessor) {
  const tinygltf::Accessor& a = m.accessors.at(static_cast<std::size_t>(accessor));
  const tinygltf::BufferView& v = m.bufferViews.at(static_cast<std::size_t>(a.bufferView));
  const std::size_t bytes = a.count * sizeof(T);
  EXPECT_LE(a.byteOffset + bytes, v.byteLength) << "accessor " << accessor;
  std::vector<T> out(a.count);
  std::memcpy(out.data(), m.buffers.at(0).data.data() + v.byteOffset + a.byteOffset, bytes);
  return out;
}

}  // namespace sv::test::gltf
