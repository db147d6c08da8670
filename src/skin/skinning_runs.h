// Internal to anim/: the walk over runs of vertices that share their 4 joints, shared by the
// structure-of-arrays skinning kernels (skinning_avx512.cpp: 16 lanes; skinning_avx2_runs.cpp:
// 8 lanes). A run of at least kSkinMinRun vertices is skinned a block of lanes at a time with its
// 4 bones as constants; vertices in shorter runs go to the kernel's per-vertex loop in batches.
//
// Which path a vertex takes depends only on the length of its whole run (looked up across
// range edges), never on where a range starts or ends, and every lane of a block computes its
// vertex alone: skin_lbs_parallel's chunks give bit-identical results.
//
// A Kernel provides, compiled for its instruction set:
//   static constexpr std::size_t kLanes;
//   template <bool kNormals> static void block(const RunStreams&, const float* const b[4],
//                                              std::size_t v, std::size_t n);  // n <= kLanes
//   template <bool kNormals> static std::size_t run(const RunStreams&, const float* const b[4],
//                                                   uint64_t key, std::size_t v, std::size_t end);
//       // run_blocks<Kernel, kNormals>, compiled for the kernel's instruction set
//   static std::size_t leading_equal(const uint64_t* keys, std::size_t n, uint64_t key);
//       // how many of keys[0, n) equal key before the first that differs (n <= kLanes)
//   static uint64_t same_as_previous(const uint64_t* keys, std::size_t v, std::size_t total);
//       // bit i: keys[v + 1 + i] == keys[v + i], for keys below total
//   static void per_vertex(const SkinJob&, const PackedBone*, std::size_t begin, std::size_t end);
//       // the vertices of short runs (LBS: skin_range_avx2; DQS, CoR: the scalar loop)
// The streams may be RunStreams (keys uint64_t: 4 x u16 joints) or CompactRunStreams (keys
// uint32_t: 4 x u8 joints, skin/compact_streams.h); walk_runs takes either. The AVX-512 LBS
// kernel is templated over both (its stream I/O: FloatIo / CompactIo); the AVX2 one has a
// compact kernel of its own (Avx2CompactRuns: its run() makes a table of the run's bones, which
// run_blocks passes to its blocks in place of the bones). per_vertex is the walk's callable:
// skin_runs passes Kernel::per_vertex, skin_runs_compact the compact batches.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "skin/skinning_kernels.h"

namespace sv::detail {

// Raw stream pointers; joints read as one 64-bit key per vertex (its 4 x u16).
struct RunStreams {
  const float* positions;
  const float* normals;  // null: positions only
  const uint64_t* joints;
  const float* weights;
  float* out_positions;
  float* out_normals;
  const float* centers;  // CoR only
  // 8 influences only (skin_runs8): the second set's keys and weights.
  const uint64_t* joints2 = nullptr;
  const float* weights2 = nullptr;
};

// The first set's streams of `job` (normals only with kNormals).
template <bool kNormals>
RunStreams run_streams(const SkinJob& job) noexcept {
  const SkinInput& in = *job.in;
  return RunStreams{&in.positions.data()->x,
                    kNormals ? &in.normals.data()->x : nullptr,
                    reinterpret_cast<const uint64_t*>(in.joints.data()),
                    &in.weights.data()->x,
                    &job.out_positions->x,
                    kNormals ? &job.out_normals->x : nullptr,
                    job.centers != nullptr ? &job.centers->x : nullptr};
}

// Compact streams (skin/compact_streams.h, skin_lbs_compact): u8 joints read as one 32-bit key
// per vertex, weights 3 per vertex, normals octahedral (one u32) in and out. The same walk and
// the same kernels (each kernel's stream I/O templated) skin them.
struct CompactRunStreams {
  const float* positions;
  const uint32_t* normals;  // null: positions only
  const uint32_t* joints;
  const float* weights;
  float* out_positions;
  uint32_t* out_normals;
};

template <bool kNormals>
CompactRunStreams compact_run_streams(const CompactJob& job) noexcept {
  const CompactSkinInput& in = *job.in;
  return CompactRunStreams{&in.positions.data()->x,
                           kNormals ? in.normals.data() : nullptr,
                           reinterpret_cast<const uint32_t*>(in.joints8.data()),
                           &in.weights.data()->x,
                           &job.out_positions->x,
                           kNormals ? job.out_normals : nullptr};
}

template <class Key>
inline Key key_at(const Key* keys, std::size_t v) noexcept {
  Key k;
  std::memcpy(&k, keys + v, sizeof k);
  return k;
}

// Joint i of a key: 4 x u16 (RunStreams) or 4 x u8 (CompactRunStreams).
inline std::size_t key_joint(uint64_t k, int i) noexcept { return (k >> (16 * i)) & 0xffffu; }
inline std::size_t key_joint(uint32_t k, int i) noexcept { return (k >> (8 * i)) & 0xffu; }

// The key type of a stream set.
template <class Streams>
using KeyOf = std::remove_const_t<std::remove_pointer_t<decltype(Streams::joints)>>;

// The blocks of one run: from v (a run's first vertex, or a range's), kLanes vertices at a time
// while the key stays k, up to `end`; returns the vertex after them. Each kernel's run() is
// this, compiled for its instruction set with everything inlined into it (flatten), so the
// loop is one stream of instructions rather than two calls per block.
// `b` is what Kernel::block takes for the run's bones: the 4 packed bones, or a table the
// kernel made from them (the AVX2 compact kernel's).
template <class Kernel, bool kNormals, class Streams, class Bones>
inline std::size_t run_blocks(const Streams& s, const Bones& b, KeyOf<Streams> k, std::size_t v,
                              std::size_t end) noexcept {
  for (;;) {
    const std::size_t window = std::min(Kernel::kLanes, end - v);
    const std::size_t n = Kernel::leading_equal(s.joints + v, window, k);
    if (n == 0) return v;  // the run ended on the last block's edge
    Kernel::template block<kNormals>(s, b, v, n);
    v += n;
    if (n < window || v == end) return v;
  }
}

// Where the next run of at least kSkinMinRun equal keys starts, from v on (v itself a run's
// first vertex), or `limit` if none starts before it. kSkinMinRun - 1 "same as the previous"
// bits in a row from bit i mean a run starts at v + i; 64 keys are compared per step, so
// vertices in short runs cost about one instruction each to pass over (following the runs
// one by one would be a chain of dependent loads).
// `Same(v)` gives the "same as the previous" bits from v (skin_runs: one key stream; skin_runs8:
// both sets' keys), kMinRun the shortest run worth a block.
template <std::size_t kMinRun, class Same>
inline std::size_t next_long_run_of(Same same_from, std::size_t v, std::size_t limit) noexcept {
  static_assert(kMinRun >= 2 && kMinRun <= 16);
  constexpr std::size_t kStep = 64 - (kMinRun - 2);  // starts whose bits all lie in `same`
  while (v < limit) {
    const uint64_t same = same_from(v);
    uint64_t starts = same;
    for (std::size_t i = 1; i + 1 < kMinRun; ++i) starts &= same >> i;
    starts &= (uint64_t{1} << kStep) - 1;
    if (starts != 0) return std::min(limit, v + static_cast<std::size_t>(__builtin_ctzll(starts)));
    v += kStep;
  }
  return limit;
}

template <class Kernel, class Key>
std::size_t next_long_run(const Key* keys, std::size_t v, std::size_t limit,
                          std::size_t total) noexcept {
  return next_long_run_of<kSkinMinRun>(
      [&](std::size_t at) { return Kernel::same_as_previous(keys, at, total); }, v, limit);
}

// The walk over [begin, end) of `total` vertices: runs to Kernel::run, the vertices of short
// runs to per_vertex(first, end).
template <class Kernel, bool kNormals, class Streams, class PerVertex>
void walk_runs(const Streams& s, std::size_t total, const PackedBone* packed, std::size_t begin,
               std::size_t end, PerVertex&& per_vertex) noexcept {
  using Key = KeyOf<Streams>;
  // Skins the run of key k from v (a run's first vertex, or `begin`) until it ends or the
  // range does; returns the vertex after it.
  auto skin_run = [&](std::size_t v, Key k) {
    const float* const b[4] = {packed[key_joint(k, 0)].f, packed[key_joint(k, 1)].f,
                               packed[key_joint(k, 2)].f, packed[key_joint(k, 3)].f};
    return Kernel::template run<kNormals>(s, b, k, v, end);
  };
  // The run holding `begin` may have started in another range: its part before `begin` counts
  // toward its length.
  std::size_t v = begin;
  std::size_t aos = begin;  // first vertex not yet skinned (all of [aos, v) is in short runs)
  {
    const Key k = key_at(s.joints, begin);
    std::size_t before = 0;
    while (before < kSkinMinRun && before < begin && key_at(s.joints, begin - before - 1) == k)
      ++before;
    std::size_t ahead = 1;
    while (ahead < kSkinMinRun && begin + ahead < total && key_at(s.joints, begin + ahead) == k)
      ++ahead;
    if (before + ahead >= kSkinMinRun)
      aos = v = skin_run(begin, k);
    else
      v = std::min(end, begin + ahead);  // a short run, all of it known: it ends at begin + ahead
  }
  while (v < end) {
    v = next_long_run<Kernel>(s.joints, v, end, total);
    if (v == end) break;
    if (aos < v) per_vertex(aos, v);
    aos = v = skin_run(v, key_at(s.joints, v));
  }
  if (aos < end) per_vertex(aos, end);
}

template <class Kernel, bool kNormals>
void skin_runs(const SkinJob& job, const PackedBone* packed, std::size_t begin,
               std::size_t end) noexcept {
  walk_runs<Kernel, kNormals>(
      run_streams<kNormals>(job), job.in->joints.size(), packed, begin, end,
      [&](std::size_t from, std::size_t to) { Kernel::per_vertex(job, packed, from, to); });
}

// The same over compact streams (u8 joints); short runs through
// skin_range_compact_avx2_batches.
template <class Kernel, bool kNormals>
void skin_runs_compact(const CompactJob& job, const PackedBone* packed, std::size_t begin,
                       std::size_t end) noexcept {
  walk_runs<Kernel, kNormals>(compact_run_streams<kNormals>(job), job.in->joints8.size(), packed,
                              begin, end, [&](std::size_t from, std::size_t to) {
                                skin_range_compact_avx2_batches(job, packed, from, to);
                              });
}

// ---- 8 influences (SkinInput::joints2) ---------------------------------------------------
// The same walk over runs of vertices that share all 8 joints (both sets' keys equal), their 8
// bones as constants; the importer lays 8-influence meshes out so (group_vertices_by_bone_set
// sorts by the second set within each first set). A Kernel8 provides kLanes, leading_equal and
// same_as_previous as a Kernel does, and
//   template <bool kNormals> static std::size_t run8(const RunStreams&, const float* const b[8],
//                                                    uint64_t key, uint64_t key2,
//                                                    std::size_t v, std::size_t end);
//       // run_blocks8<Kernel8, kNormals> after run_consts8, for the kernel's instruction set
//   template <bool kNormals> static void block8(const RunStreams&, const float* const b[8],
//                                               const RunConsts8&, std::size_t v,
//                                               std::size_t n);  // n <= kLanes
// Vertices in runs shorter than kSkinMinRun8 take skin_range8 (one vertex at a time): a block
// of 8 bones costs about as much as 2 such vertices.
inline constexpr std::size_t kSkinMinRun8 = 3;

// What DQS and CoR work out once per run of 8 packed bones (pack_method's layout): flips[k] bit
// i set when bone i's rotation lies in the other hemisphere from bone k's (k < 4: a vertex's
// pivot, its largest weight, is always in the first set), and whether any bone is scaled
// (two-phase skinning).
struct RunConsts8 {
  unsigned flips[4] = {};
  bool scaled = false;
};

inline RunConsts8 run_consts8(const float* const b[8]) noexcept {
  RunConsts8 c;
  for (int k = 0; k < 4; ++k) {
    const float* qk = b[k] + kPackReal;
    for (int i = 0; i < 8; ++i) {
      const float* qi = b[i] + kPackReal;
      const float d = qk[0] * qi[0] + qk[1] * qi[1] + qk[2] * qi[2] + qk[3] * qi[3];
      if (d < 0.0f) c.flips[k] |= 1u << i;
    }
  }
  for (int i = 0; i < 8; ++i) c.scaled = c.scaled || b[i][kPackScaled] != 0.0f;
  return c;
}

template <class Kernel, bool kNormals>
inline std::size_t run_blocks8(const RunStreams& s, const float* const b[8], const RunConsts8& c,
                               uint64_t k, uint64_t k2, std::size_t v, std::size_t end) noexcept {
  for (;;) {
    const std::size_t window = std::min(Kernel::kLanes, end - v);
    const std::size_t n = std::min(Kernel::leading_equal(s.joints + v, window, k),
                                   Kernel::leading_equal(s.joints2 + v, window, k2));
    if (n == 0) return v;
    Kernel::template block8<kNormals>(s, b, c, v, n);
    v += n;
    if (n < window || v == end) return v;
  }
}

template <class Kernel, bool kNormals>
void skin_runs8(const SkinJob& job, const PackedBone* packed, std::size_t begin,
                std::size_t end) noexcept {
  const SkinInput& in = *job.in;
  const std::size_t total = in.joints.size();
  RunStreams s = run_streams<kNormals>(job);
  s.joints2 = reinterpret_cast<const uint64_t*>(in.joints2.data());
  s.weights2 = &in.weights2.data()->x;
  auto equal = [&](std::size_t a, std::size_t b) {
    return key_at(s.joints, a) == key_at(s.joints, b) &&
           key_at(s.joints2, a) == key_at(s.joints2, b);
  };
  auto skin_run = [&](std::size_t v) {
    const uint64_t k = key_at(s.joints, v), k2 = key_at(s.joints2, v);
    const float* b[8];
    for (int i = 0; i < 4; ++i) {
      b[i] = packed[(k >> (16 * i)) & 0xffffu].f;
      b[4 + i] = packed[(k2 >> (16 * i)) & 0xffffu].f;
    }
    return Kernel::template run8<kNormals>(s, b, k, k2, v, end);
  };
  auto same_from = [&](std::size_t at) {
    return Kernel::same_as_previous(s.joints, at, total) &
           Kernel::same_as_previous(s.joints2, at, total);
  };
  // As skin_runs: the run holding `begin` counts its vertices before `begin` too.
  std::size_t v = begin;
  std::size_t aos = begin;
  {
    std::size_t before = 0;
    while (before < kSkinMinRun8 && before < begin && equal(begin - before - 1, begin)) ++before;
    std::size_t ahead = 1;
    while (ahead < kSkinMinRun8 && begin + ahead < total && equal(begin + ahead, begin)) ++ahead;
    if (before + ahead >= kSkinMinRun8)
      aos = v = skin_run(begin);
    else
      v = std::min(end, begin + ahead);
  }
  while (v < end) {
    v = next_long_run_of<kSkinMinRun8>(same_from, v, end);
    if (v == end) break;
    if (aos < v) skin_range8(job, aos, v);
    aos = v = skin_run(v);
  }
  if (aos < end) skin_range8(job, aos, end);
}

}  // namespace sv::detail
