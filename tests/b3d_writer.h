// A minimal B3D writer for tests (Blitz3D's chunked format), and a skinned B3D file whose ANIM
// chunk may state a clip shorter than its keys: what Irrlicht and Minetest characters do, and
// what the importer repairs and reports (import/scene_repair.h; `skinview check`'s keys-past-end
// rule).
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace sv::test {

// A minimal B3D writer (Blitz3D's chunked format: a 4-byte tag, a 32-bit length, the content;
// little-endian ints and floats, NUL-terminated strings).

class B3dChunk {
 public:
  explicit B3dChunk(const char* tag) : tag_(tag) {}
  B3dChunk& i32(int32_t v) { return raw(&v, 4); }
  B3dChunk& f32(float v) { return raw(&v, 4); }
  B3dChunk& vec3(float x, float y, float z) { return f32(x).f32(y).f32(z); }
  B3dChunk& str(const std::string& s) { return raw(s.c_str(), s.size() + 1); }
  B3dChunk& add(const B3dChunk& child) {
    const std::vector<uint8_t> b = child.bytes();
    return raw(b.data(), b.size());
  }
  std::vector<uint8_t> bytes() const {
    std::vector<uint8_t> out(tag_, tag_ + 4);
    const int32_t n = static_cast<int32_t>(body_.size());
    out.insert(out.end(), reinterpret_cast<const uint8_t*>(&n),
               reinterpret_cast<const uint8_t*>(&n) + 4);
    out.insert(out.end(), body_.begin(), body_.end());
    return out;
  }

 private:
  B3dChunk& raw(const void* p, std::size_t n) {
    body_.insert(body_.end(), static_cast<const uint8_t*>(p), static_cast<const uint8_t*>(p) + n);
    return *this;
  }
  const char* tag_;
  std::vector<uint8_t> body_;
};

// A node: name, position, scale, rotation (w, x, y, z as stored).
inline B3dChunk b3d_node(const std::string& name, float x, float y, float z) {
  B3dChunk n("NODE");
  n.str(name).vec3(x, y, z).vec3(1, 1, 1).f32(1).f32(0).f32(0).f32(0);
  return n;
}

// A quad of 4 vertices in the z = 0 plane, (0,0) (1,0) (0,1) (1,1), on the root node; bone
// "hip" (at the origin) holds the lower two vertices, its child "arm" (at y = 1) the upper two.
// "arm" has position keys at frames 0 and `last_key` ((0,1,0) then (0,2,0): the arm rises by
// one); the ANIM chunk says the clip lasts `frames` frames at 30 frames per second.
inline std::vector<uint8_t> skinned_b3d(int frames, int last_key) {
  B3dChunk brush("BRUS");
  brush.i32(0).str("skin").vec3(1, 1, 1).f32(1).f32(0).i32(1).i32(0);
  B3dChunk vrts("VRTS");
  vrts.i32(0).i32(0).i32(0);  // no normals, no colours, no texture coordinates
  for (const auto& [x, y] : {std::pair{0, 0}, {1, 0}, {0, 1}, {1, 1}})
    vrts.vec3(static_cast<float>(x), static_cast<float>(y), 0);
  B3dChunk tris("TRIS");
  tris.i32(0).i32(0).i32(1).i32(2).i32(2).i32(1).i32(3);
  B3dChunk mesh("MESH");
  mesh.i32(0).add(vrts).add(tris);
  B3dChunk hip_bone("BONE");
  hip_bone.i32(0).f32(1).i32(1).f32(1);
  B3dChunk arm_bone("BONE");
  arm_bone.i32(2).f32(1).i32(3).f32(1);
  B3dChunk keys("KEYS");
  keys.i32(1).i32(0).vec3(0, 1, 0).i32(last_key).vec3(0, 2, 0);
  B3dChunk arm = b3d_node("arm", 0, 1, 0);
  arm.add(arm_bone).add(keys);
  B3dChunk hip = b3d_node("hip", 0, 0, 0);
  hip.add(hip_bone).add(arm);
  B3dChunk anim("ANIM");
  anim.i32(0).i32(frames).f32(30);
  B3dChunk root = b3d_node("root", 0, 0, 0);
  root.add(mesh).add(hip).add(anim);
  B3dChunk bb3d("BB3D");
  bb3d.i32(1).add(brush).add(root);
  return bb3d.bytes();
}

}  // namespace sv::test
