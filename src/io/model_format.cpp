#include "io/model_format.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <limits>
#include <memory>
#include <optional>
#include <span>
#include <type_traits>
#include <utility>

#include <sys/mman.h>
#include <xxhash.h>

#include <glm/gtc/type_precision.hpp>
#include <glm/mat4x4.hpp>
#include <glm/vec2.hpp>
#include <glm/vec3.hpp>
#include <glm/vec4.hpp>

#include "anim/clip_arrays.h"
#include "anim/finite.h"

namespace sv {
namespace {

static_assert(std::endian::native == std::endian::little,
              "the model format is little-endian and copied as is; a big-endian host needs swaps");
// Arrays of these are copied as their float/integer components, so their layout must be exactly
// the components (glm without forced alignment).
static_assert(sizeof(glm::vec2) == 8 && sizeof(glm::vec3) == 12 && sizeof(glm::vec4) == 16);
static_assert(sizeof(glm::mat4) == 64 && sizeof(glm::u16vec4) == 8 && sizeof(glm::u8vec4) == 4);

constexpr std::size_t kHeaderBytes = kModelHeaderBytes;
// An array's elements start at a multiple of this from the stream's start (format version 11),
// so a stream that starts so aligned (a cache entry's payload, a mapping) can be read in place.
constexpr std::size_t kArrayAlignment = 16;
constexpr std::size_t kSectionHeaderBytes = 16;
// Strings: names, paths and report lines. assimp's own strings hold at most 1,024 bytes.
constexpr uint64_t kMaxStringBytes = uint64_t{1} << 16;
constexpr uint64_t kMaxNotes = 100000;
constexpr uint64_t kMaxReadFiles = 4096;
constexpr uint32_t kMaxSkinBones = 65535;  // Mesh::joints is 16-bit
// A quaternion the format calls unit may be off by rounding only (the worker normalises them).
constexpr float kUnitTolerance = 1e-3f;

constexpr uint32_t tag(const char (&s)[5]) {
  return static_cast<uint32_t>(static_cast<uint8_t>(s[0])) |
         static_cast<uint32_t>(static_cast<uint8_t>(s[1])) << 8 |
         static_cast<uint32_t>(static_cast<uint8_t>(s[2])) << 16 |
         static_cast<uint32_t>(static_cast<uint8_t>(s[3])) << 24;
}
constexpr uint32_t kInfo = tag("INFO");
constexpr uint32_t kError = tag("ERRR");
constexpr uint32_t kSkeleton = tag("SKEL");
constexpr uint32_t kMesh = tag("MESH");
constexpr uint32_t kMaterial = tag("MATL");
constexpr uint32_t kImage = tag("IMAG");
constexpr uint32_t kClip = tag("CLIP");
constexpr uint32_t kReport = tag("REPT");
constexpr uint32_t kMorphTargets = tag("MRPH");
constexpr uint32_t kMorphClip = tag("MWGT");

std::string tag_name(uint32_t t) {
  std::string s(4, '?');
  for (int i = 0; i < 4; ++i) {
    const char c = static_cast<char>((t >> (8 * i)) & 0xffu);
    if (c >= 0x20 && c < 0x7f) s[static_cast<std::size_t>(i)] = c;
  }
  return s;
}

// ---------------------------------------------------------------------------------------------
// Writing.

// Writes a stream, or only counts its bytes (`counting`): write_model counts first and reserves
// the whole stream once, so a big model's stream is not regrown (each regrowth a copy into fresh
// pages: about twice the stream's size in page faults, round 16b).
class Writer {
 public:
  // Counting (only size()), or into a vector reserved for `reserve` bytes.
  explicit Writer(bool counting = false, std::size_t reserve = 0) : counting_(counting) {
    if (!counting_) {
      out_.reserve(std::max(reserve, kHeaderBytes));
      out_.resize(kHeaderBytes);
    }
    size_ = kHeaderBytes;
  }
  // Into `target`, which a counting pass sized (finish() checks that it was filled exactly).
  explicit Writer(std::span<uint8_t> target) : counting_(false), dst_(target) {
    size_ = kHeaderBytes;
  }

  std::size_t size() const noexcept { return size_; }

  void begin(uint32_t section_tag) {
    u32(section_tag);
    u32(0);
    size_at_ = size_;
    u64(0);
    ++sections_;
  }
  void end() {
    const uint64_t size = size_ - size_at_ - 8;
    const std::size_t padded = (size_ + 7) / 8 * 8;
    if (into_span()) {
      if (padded <= dst_.size()) {
        std::memcpy(dst_.data() + size_at_, &size, 8);
        std::memset(dst_.data() + size_, 0, padded - size_);
      } else {
        overflow_ = true;
      }
    } else if (!counting_) {
      std::memcpy(out_.data() + size_at_, &size, 8);
      out_.resize(padded, 0);
    }
    size_ = padded;
  }

  void raw(const void* p, std::size_t n) {
    if (n == 0) return;
    if (into_span()) {
      if (n <= dst_.size() && size_ <= dst_.size() - n)
        std::memcpy(dst_.data() + size_, p, n);
      else
        overflow_ = true;
      size_ += n;
      return;
    }
    size_ += n;
    if (counting_) return;
    const auto* b = static_cast<const uint8_t*>(p);
    out_.insert(out_.end(), b, b + n);
  }
  template <class T>
  void scalar(T v) {
    static_assert(std::is_arithmetic_v<T>);
    raw(&v, sizeof v);
  }
  void u8(uint8_t v) { scalar(v); }
  void u32(uint32_t v) { scalar(v); }
  void i32(int32_t v) { scalar(v); }
  void u64(uint64_t v) { scalar(v); }
  void f32(float v) { scalar(v); }
  void f64(double v) { scalar(v); }
  void string(std::string_view s) {
    u64(s.size());
    raw(s.data(), s.size());
  }
  // Arrays of plain components (numbers, glm vectors and matrices of them): the count, then,
  // when there are elements, zero bytes up to the next multiple of kArrayAlignment from the
  // stream's start (format version 11), then the elements.
  template <class T>
  void array(std::span<const T> v) {
    static_assert(std::is_trivially_copyable_v<T> && kArrayAlignment % alignof(T) == 0);
    u64(v.size());
    if (v.empty()) return;
    zeros((kArrayAlignment - size_ % kArrayAlignment) % kArrayAlignment);
    raw(v.data(), v.size() * sizeof(T));
  }
  template <class T>
  void array(const std::vector<T>& v) {
    array(std::span<const T>(v));
  }
  template <class T>
  void array(const Stream<T>& v) {
    array(v.span());
  }
  void zeros(std::size_t n) {
    if (n == 0) return;
    if (into_span()) {
      if (n <= dst_.size() && size_ <= dst_.size() - n)
        std::memset(dst_.data() + size_, 0, n);
      else
        overflow_ = true;
    } else if (!counting_) {
      out_.resize(out_.size() + n, 0);
    }
    size_ += n;
  }
  void quat(const glm::quat& q) {
    f32(q.x);
    f32(q.y);
    f32(q.z);
    f32(q.w);
  }
  void vec3(const glm::vec3& v) { raw(&v, sizeof v); }

  std::vector<uint8_t> finish() {
    header(out_.data(), out_.size());
    return std::move(out_);
  }
  // For the span: true when the stream filled it exactly.
  bool finish_span() {
    if (overflow_ || size_ != dst_.size() || dst_.size() < kHeaderBytes) return false;
    header(dst_.data(), size_);
    return true;
  }

 private:
  bool into_span() const noexcept { return dst_.data() != nullptr; }
  void header(uint8_t* at, uint64_t total) const {
    std::memcpy(at, kModelMagic, 8);
    const uint32_t version = kModelFormatVersion;
    std::memcpy(at + 8, &version, 4);
    std::memcpy(at + 12, &sections_, 4);
    std::memcpy(at + 16, &total, 8);
    std::memset(at + 24, 0, 8);
  }

  bool counting_;
  std::span<uint8_t> dst_;
  bool overflow_ = false;
  std::vector<uint8_t> out_;
  std::size_t size_ = 0;  // the stream's bytes so far (out_.size() when writing)
  std::size_t size_at_ = 0;
  uint32_t sections_ = 0;
};

void write_info(Writer& w, const ImportProvenance& p) {
  w.begin(kInfo);
  w.string(p.importer);
  w.u64(p.read_files.size());
  for (const std::string& f : p.read_files) w.string(f);
  w.string(p.sandbox);
  w.end();
}

void write_skeleton(Writer& w, const Skeleton& sk) {
  w.begin(kSkeleton);
  w.u64(sk.size());
  for (const std::string& name : sk.names) w.string(name);
  w.array(sk.parents);
  for (const Transform& t : sk.rest) {
    w.vec3(t.translation);
    w.quat(t.rotation);
    w.vec3(t.scale);
  }
  w.array(sk.inverse_bind);
  w.array(sk.is_bone);
  w.end();
}

void write_mesh(Writer& w, const Mesh& m) {
  w.begin(kMesh);
  w.string(m.name);
  w.i32(m.node);
  w.u8(m.skinned ? 1 : 0);
  w.i32(m.material);
  w.u32(m.max_influences);
  w.i32(m.max_joint);
  w.array(m.positions);
  w.array(m.normals);
  w.array(m.uvs);
  w.array(m.joints);
  w.array(m.weights);
  w.array(m.vertex_flags);
  w.array(m.indices);
  w.array(m.line_indices);   // format version 9
  w.array(m.point_indices);  // format version 9
  w.array(m.source_vertex);
  w.array(m.source_weight_sums);
  // Influences 5-8 (format version 4): empty arrays for a mesh within the 4-limit.
  w.array(m.joints2);
  w.array(m.weights2);
  w.array(m.cut_weights);
  // The compact streams (format version 12): empty arrays when the mesh keeps none.
  w.array(m.compact_normals);
  w.array(m.compact_joints8);
  w.array(m.compact_joints16);
  w.array(m.compact_weights);
  w.array(m.skin_joints);
  w.array(m.inverse_bind);
  w.end();
}

// IMAG (format version 6), one per decoded image, before the materials that name them:
//   source (string), u32 width, u32 height, pixels (array of u8: width * height * 4, RGBA,
//   rows top-down).
void write_image(Writer& w, const Image& im) {
  w.begin(kImage);
  w.string(im.source);
  w.u32(im.width);
  w.u32(im.height);
  w.array(im.rgba);
  w.end();
}

// MATL: name, base colour (4 f32), the texture's name as the file gave it (string), i32 image
// (an IMAG index, or -1), u32 double-sided (0 or 1; format version 13).
void write_material(Writer& w, const Material& m) {
  w.begin(kMaterial);
  w.string(m.name);
  w.raw(&m.base_color, sizeof m.base_color);
  w.string(m.texture_name);
  w.i32(m.image);
  w.u32(m.double_sided ? 1u : 0u);
  w.end();
}

// The clip section, in one place: a runtime clip's arrays (anim/clip_arrays.h) as they are, so
// reading is copying and ClipRuntime::adopt checks them against their contract.
//   name, f64 duration (s), u32 joints, times (array of f64 seconds), timeline_begin (array of
//   u32), tracks (u64 count, then per track u32 timeline, u32 base, u32 stride, u8
//   interpolation), values (array of vec4), parents (array of i32), uniform (array of u8), keyed
//   (array of u8: which components of each joint the clip keys, for blending).
void write_clip(Writer& w, const ClipRuntime& clip) {
  const ClipArraysView a = clip.arrays();
  w.begin(kClip);
  w.string(a.name);
  w.f64(a.duration);
  w.u32(a.joints);
  w.array(a.times);
  w.array(a.timeline_begin);
  w.u64(a.tracks.size());
  for (const RuntimeTrack& t : a.tracks) {
    w.u32(t.timeline);
    w.u32(t.base);
    w.u32(t.stride);
    w.u8(static_cast<uint8_t>(t.interpolation));
  }
  w.array(a.values);
  w.array(a.parents);
  w.array(a.uniform);
  w.array(a.keyed);
  w.end();
}

// --- morph targets and weights (anim/morph.h) ---
// MRPH, one per mesh with targets, meshes in increasing order:
//   u32 mesh, u64 target count, per target: name, f32 default weight, position deltas (array of
//   vec3, the mesh's vertex count), normal deltas (array of vec3: empty or the vertex count).
// MWGT, one per clip with morph tracks, clips in increasing order:
//   u32 clip, u64 track count, per track: u32 mesh, u8 interpolation, times (array of f64
//   seconds), weights (array of f32, key-major; see MorphTrack).
void write_morph_targets(Writer& w, uint32_t mesh, const Mesh& m) {
  w.begin(kMorphTargets);
  w.u32(mesh);
  w.u64(m.morph_targets.size());
  for (const MorphTarget& t : m.morph_targets) {
    w.string(t.name);
    w.f32(t.default_weight);
    w.array(t.position_deltas);
    w.array(t.normal_deltas);
  }
  w.end();
}

void write_morph_clip(Writer& w, uint32_t clip, const MorphClip& c) {
  w.begin(kMorphClip);
  w.u32(clip);
  w.u64(c.tracks.size());
  for (const MorphTrack& t : c.tracks) {
    w.u32(t.mesh);
    w.u8(static_cast<uint8_t>(t.interpolation));
    w.array(t.times);
    w.array(t.weights);
  }
  w.end();
}
// --- end of morph targets and weights ---

void write_report(Writer& w, const ImportReport& r) {
  w.begin(kReport);
  for (uint64_t v :
       {r.vertices_over_4_influences, r.vertices_over_8_influences, r.vertices_renormalised,
        r.vertices_unweighted, r.bones_without_node, r.channels_without_node, r.non_finite_values,
        r.keys_out_of_order, r.rotations_normalised, r.meshes_skipped, r.faces_dropped,
        r.clips_refused, r.clips_extended, r.textures_not_loaded})
    w.u64(v);
  w.f64(r.largest_dropped_weight);
  w.f64(r.largest_cut_weight);
  w.u64(r.notes.size());
  for (const std::string& n : r.notes) w.string(n);
  w.string(r.ticks_per_second_note);
  w.f64(r.unit_metres);  // format version 10
  w.end();
}

// ---------------------------------------------------------------------------------------------
// Reading big arrays. A fresh page costs a fault at its first touch, and on some hosts a fault
// costs microseconds (BENCHMARKS.md round 16b: ~12 us per 4-KiB page on a paravirtualised guest,
// where a 1M-vertex model's arrays took 0.4 s of faults): a buffer of kHugeArrayBytes or more asks
// for transparent huge pages (one fault per 2 MiB) over the part of it that covers whole ones.

constexpr std::size_t kHugePage = std::size_t{2} << 20;
constexpr std::size_t kHugeArrayBytes = 2 * kHugePage;
constexpr std::size_t kPage = 4096;

// Reserves room for `n` elements in the empty `v`; a large array's room is asked for as whole huge
// pages less 32 bytes: glibc's malloc maps a block that large on its own, 16 bytes of header
// before it, in ALIGN_UP(size + 24, 4 KiB) bytes (malloc.c, sysmalloc_mmap), so the mapping is
// whole huge pages, which Linux places on a huge-page boundary; then the block's pages are advised
// MADV_HUGEPAGE. Where any of this does not hold (another allocator, a block from the heap, no
// THP) the array is the same, on whatever pages it got. At most one huge page of room is unused.
template <class T>
void reserve_array(std::vector<T>& v, std::size_t n) {
  const std::size_t bytes = n * sizeof(T);
  if (bytes < kHugeArrayBytes) {
    v.reserve(n);
    return;
  }
  const std::size_t room = (bytes + 32 + kHugePage - 1) / kHugePage * kHugePage - 32;
  v.reserve(room / sizeof(T));
  const auto begin = reinterpret_cast<uintptr_t>(v.data()) & ~(kPage - 1);
  const auto end =
      (reinterpret_cast<uintptr_t>(v.data()) + v.capacity() * sizeof(T) + kPage - 1) & ~(kPage - 1);
  ::madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
}

// The stream's elements of type T, read from their bytes wherever they lie (arrays are aligned
// from the stream's start, but a caller's bytes may start anywhere; a copying read does not care):
// a random-access iterator for vector::assign, so each element is constructed once from the bytes.
template <class T>
struct Elements {
  using iterator_category = std::random_access_iterator_tag;
  using value_type = T;
  using difference_type = std::ptrdiff_t;
  using pointer = const T*;
  using reference = T;

  const uint8_t* p;

  T operator*() const {
    T v;
    std::memcpy(&v, p, sizeof v);
    return v;
  }
  Elements& operator++() {
    p += sizeof(T);
    return *this;
  }
  Elements operator++(int) {
    Elements old = *this;
    p += sizeof(T);
    return old;
  }
  Elements& operator--() {
    p -= sizeof(T);
    return *this;
  }
  Elements& operator+=(difference_type k) {
    p += k * static_cast<difference_type>(sizeof(T));
    return *this;
  }
  difference_type operator-(const Elements& o) const {
    return (p - o.p) / static_cast<difference_type>(sizeof(T));
  }
  bool operator==(const Elements& o) const { return p == o.p; }
};

// The XXH3-64 of a stream, hashed as it is read (read_model's `checksum`): the bytes up to a
// point are hashed when the reader reaches it, so a big array's block is hashed just before it is
// copied, while it is in the CPU's cache, and the stream is read from memory once. Every byte is
// hashed once, in order, whatever the reader reads: to() hashes only what lies past what it
// hashed, and finish() the rest.
class Digest {
 public:
  explicit Digest(const uint8_t* begin) : at_(begin) {
    if (state_ == nullptr) throw std::bad_alloc();
    XXH3_64bits_reset(state_);
  }
  ~Digest() { XXH3_freeState(state_); }
  Digest(const Digest&) = delete;
  Digest& operator=(const Digest&) = delete;

  void to(const uint8_t* p) noexcept {
    if (p <= at_) return;
    XXH3_64bits_update(state_, at_, static_cast<std::size_t>(p - at_));
    at_ = p;
  }
  uint64_t finish(const uint8_t* end) noexcept {
    to(end);
    return XXH3_64bits_digest(state_);
  }

 private:
  XXH3_state_t* state_ = XXH3_createState();
  const uint8_t* at_;
};

// One section as the framing gives it.
struct Section {
  uint32_t tag = 0;
  const uint8_t* data = nullptr;
  std::size_t size = 0;
  Digest* digest = nullptr;         // the stream's, when read_model hashes it as it reads
  const uint8_t* stream = nullptr;  // the stream's first byte (arrays align from it)
  // What keeps the stream's bytes alive and unchanged, when read_model was given it: mesh streams
  // then borrow their elements from the bytes instead of copying them.
  const std::shared_ptr<const void>* keep = nullptr;
};

// A big array is copied (and hashed, and scanned) in blocks of about this size: a block's source
// and copy stay in the first-level cache from the hash through the copy to the scan.
constexpr std::size_t kCopyBlockBytes = std::size_t{16} << 10;

// Reader::array's scan of the blocks it copied: none.
struct NoScan {
  template <class T>
  void operator()(std::span<const T>) const noexcept {}
};

// ---------------------------------------------------------------------------------------------
// Reading. Every read checks that the bytes are there; the first failure is kept and every
// later read fails, so a section reader can read on and check ok() once.

class Reader {
 public:
  explicit Reader(const Section& s)
      : p_(s.data), end_(s.data + s.size), digest_(s.digest), stream_(s.stream), keep_(s.keep) {}

  bool ok() const noexcept { return error_.empty(); }
  const std::string& error() const noexcept { return error_; }
  std::size_t left() const noexcept { return static_cast<std::size_t>(end_ - p_); }
  bool fail(std::string what) {
    if (error_.empty()) error_ = what.empty() ? std::string("bad data") : std::move(what);
    p_ = end_;
    return false;
  }

  bool raw(void* out, std::size_t n, const char* what) {
    if (!ok()) return false;
    if (n > left()) return fail(std::string(what) + " runs past the end of its section");
    if (n) std::memcpy(out, p_, n);
    p_ += n;
    return true;
  }
  template <class T>
  bool scalar(T& v, const char* what) {
    return raw(&v, sizeof v, what);
  }
  bool string(std::string& s, const char* what, uint64_t max = kMaxStringBytes) {
    uint64_t n = 0;
    if (!scalar(n, what)) return false;
    if (n > max)
      return fail(std::string(what) + ": " + std::to_string(n) + " bytes, more than " +
                  std::to_string(max));
    if (n > left()) return fail(std::string(what) + " runs past the end of its section");
    s.assign(reinterpret_cast<const char*>(p_), static_cast<std::size_t>(n));
    p_ += n;
    return true;
  }
  // An element count, checked against `max` and against the bytes left for `elem` bytes each
  // before anything is allocated (count * elem cannot overflow once count <= left / elem).
  bool count(uint64_t& n, uint64_t max, std::size_t elem, const char* what) {
    if (!scalar(n, what)) return false;
    if (n > max)
      return fail(std::string(what) + ": " + std::to_string(n) + ", more than the limit of " +
                  std::to_string(max));
    if (elem > 0 && n > left() / elem)
      return fail(std::string(what) + ": " + std::to_string(n) + " elements run past the end of " +
                  "their section");
    return true;
  }
  // Each element is written once, copied from the stream into the vector's fresh storage (no
  // zero-fill first); a large array's storage asks for huge pages before its first touch. The
  // copy goes in blocks of kCopyBlockBytes: each block's bytes are hashed (when the stream is),
  // copied, then its copy handed to `scan` (a span of the block's elements) while it is hot.
  template <class T, class Scan = NoScan>
  bool array(std::vector<T>& v, uint64_t max, const char* what, Scan&& scan = {}) {
    static_assert(std::is_trivially_copyable_v<T>);
    uint64_t count_read = 0;
    if (!array_count(count_read, max, sizeof(T), what)) return false;
    return copy(v, static_cast<std::size_t>(count_read), scan);
  }
  // A mesh stream: borrowed in place when read_model was given what keeps the bytes alive and the
  // elements lie aligned for T (each block hashed, then scanned, in place: the stream is read from
  // memory once and nothing is written); otherwise copied as above.
  template <class T, class Scan = NoScan>
  bool array(Stream<T>& v, uint64_t max, const char* what, Scan&& scan = {}) {
    static_assert(std::is_trivially_copyable_v<T>);
    uint64_t count_read = 0;
    if (!array_count(count_read, max, sizeof(T), what)) return false;
    const auto n = static_cast<std::size_t>(count_read);
    if (keep_ == nullptr || *keep_ == nullptr ||
        reinterpret_cast<uintptr_t>(p_) % alignof(T) != 0) {
      std::vector<T> copied;
      if (!copy(copied, n, scan)) return false;
      v = std::move(copied);
      return true;
    }
    const T* elements = reinterpret_cast<const T*>(p_);
    constexpr std::size_t kBlock = std::max<std::size_t>(1, kCopyBlockBytes / sizeof(T));
    for (std::size_t b = 0; b < n; b += kBlock) {
      const std::size_t e = std::min(n, b + kBlock);
      if (digest_ != nullptr) digest_->to(p_ + e * sizeof(T));
      scan(std::span<const T>(elements + b, e - b));
    }
    v = Stream<T>::borrow(std::span<const T>(elements, n), *keep_);
    p_ += n * sizeof(T);
    return true;
  }
  template <class T, class Scan>
  bool copy(std::vector<T>& v, std::size_t n, Scan&& scan) {
    v.clear();
    reserve_array(v, n);
    constexpr std::size_t kBlock = std::max<std::size_t>(1, kCopyBlockBytes / sizeof(T));
    for (std::size_t b = 0; b < n; b += kBlock) {
      const std::size_t e = std::min(n, b + kBlock);
      const uint8_t* from = p_ + b * sizeof(T);
      const uint8_t* to = p_ + e * sizeof(T);
      if (digest_ != nullptr) digest_->to(to);
      v.insert(v.end(), Elements<T>{from}, Elements<T>{to});
      scan(std::span<const T>(v.data() + b, e - b));
    }
    p_ += n * sizeof(T);
    return true;
  }
  bool quat(glm::quat& q, const char* what) {
    float c[4];
    if (!raw(c, sizeof c, what)) return false;
    q = glm::quat(c[3], c[0], c[1], c[2]);
    return true;
  }
  bool vec3(glm::vec3& v, const char* what) { return raw(&v, sizeof v, what); }
  // An array's count (as count() checks it) and, when it has elements, the zero bytes before them
  // up to the next multiple of kArrayAlignment from the stream's start.
  bool array_count(uint64_t& n, uint64_t max, std::size_t elem, const char* what) {
    if (!scalar(n, what)) return false;
    if (n > max)
      return fail(std::string(what) + ": " + std::to_string(n) + ", more than the limit of " +
                  std::to_string(max));
    if (n == 0) return true;
    const auto at = static_cast<std::size_t>(p_ - stream_);
    const std::size_t pad = (kArrayAlignment - at % kArrayAlignment) % kArrayAlignment;
    if (pad > left()) return fail(std::string(what) + " runs past the end of its section");
    for (std::size_t i = 0; i < pad; ++i)
      if (p_[i] != 0) return fail(std::string(what) + ": the padding before it is not zero");
    p_ += pad;
    if (n > left() / elem)
      return fail(std::string(what) + ": " + std::to_string(n) + " elements run past the end of " +
                  "their section");
    return true;
  }
  bool at_end(const char* what) {
    if (ok() && left() != 0)
      return fail(std::string(what) + " has " + std::to_string(left()) + " bytes left over");
    return ok();
  }

 private:
  const uint8_t* p_;
  const uint8_t* end_;
  Digest* digest_;
  const uint8_t* stream_;
  const std::shared_ptr<const void>* keep_;
  std::string error_;
};

// Checks the header and splits the stream into sections; "" or what is wrong.
std::string split_sections(std::span<const uint8_t> bytes, Digest* digest,
                           const std::shared_ptr<const void>* keep, std::vector<Section>& out) {
  if (std::string e = check_model_header(bytes, bytes.size()); !e.empty()) return e;
  uint32_t sections = 0;
  std::memcpy(&sections, bytes.data() + 12, 4);
  if (sections > (bytes.size() - kHeaderBytes) / kSectionHeaderBytes)
    return std::to_string(sections) + " sections cannot fit in the stream";
  std::size_t at = kHeaderBytes;
  out.clear();
  out.reserve(sections);
  for (uint32_t s = 0; s < sections; ++s) {
    if (bytes.size() - at < kSectionHeaderBytes)
      return "section " + std::to_string(s) + "'s header runs past the end";
    Section sec;
    sec.digest = digest;
    sec.stream = bytes.data();
    sec.keep = keep;
    uint32_t zero = 0;
    uint64_t size = 0;
    std::memcpy(&sec.tag, bytes.data() + at, 4);
    std::memcpy(&zero, bytes.data() + at + 4, 4);
    std::memcpy(&size, bytes.data() + at + 8, 8);
    at += kSectionHeaderBytes;
    if (zero != 0) return "section " + std::to_string(s) + ": reserved bytes are not zero";
    if (size > bytes.size() - at)
      return "section " + std::to_string(s) + " ('" + tag_name(sec.tag) + "') of " +
             std::to_string(size) + " bytes runs past the end";
    sec.data = bytes.data() + at;
    sec.size = static_cast<std::size_t>(size);
    at += sec.size;
    const std::size_t padded = (at + 7) / 8 * 8;
    if (padded > bytes.size()) return "the stream ends inside a section's padding";
    for (; at < padded; ++at)
      if (bytes[at] != 0) return "section padding is not zero";
    out.push_back(sec);
  }
  if (at != bytes.size())
    return std::to_string(bytes.size() - at) + " bytes follow the last section";
  return {};
}

// Line breaks and other control characters would break the one-line promise of every message
// built from these strings (errors, the report, --info).
void one_line(std::string& s) {
  for (char& c : s)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = ' ';
}

bool unit(const glm::quat& q) { return std::abs(glm::length(q) - 1.0f) <= kUnitTolerance; }

std::string read_info(const Section& s, ImportProvenance& p) {
  Reader in(s);
  in.string(p.importer, "importer name");
  uint64_t n = 0;
  if (in.count(n, kMaxReadFiles, 8, "count of files read")) {
    p.read_files.resize(static_cast<std::size_t>(n));
    for (std::string& f : p.read_files) in.string(f, "name of a file read");
  }
  in.string(p.sandbox, "sandbox line");
  if (!in.at_end("the INFO section")) return in.error();
  one_line(p.importer);
  one_line(p.sandbox);
  return {};
}

std::string read_skeleton(const Section& s, Skeleton& sk) {
  Reader in(s);
  uint64_t n = 0;
  // Each joint needs at least its name's length, parent, rest and inverse bind in the section.
  constexpr std::size_t kJointBytes = 8 + 4 + 40 + 64 + 1;
  if (!in.count(n, kMaxJoints, kJointBytes, "joint count")) return in.error();
  if (n == 0) return "the skeleton has no joint";
  sk.names.resize(static_cast<std::size_t>(n));
  for (std::string& name : sk.names) in.string(name, "joint name");
  in.array(sk.parents, n, "joint parents");
  sk.rest.resize(static_cast<std::size_t>(n));
  for (Transform& t : sk.rest) {
    in.vec3(t.translation, "rest translation");
    in.quat(t.rotation, "rest rotation");
    in.vec3(t.scale, "rest scale");
  }
  in.array(sk.inverse_bind, n, "inverse bind matrices");
  in.array(sk.is_bone, n, "bone flags");
  if (!in.at_end("the skeleton section")) return in.error();
  if (std::string e = sk.validate(); !e.empty()) return e;
  for (std::size_t j = 0; j < sk.size(); ++j)
    if (!unit(sk.rest[j].rotation))
      return "joint " + std::to_string(j) + "'s rest rotation is not a unit quaternion";
  return {};
}

// Hands each block Reader::array copies to one of `scan`'s streams.
template <class T>
auto scanning(MeshScan& scan, void (MeshScan::*stream)(std::span<const T>) noexcept) {
  return [&scan, stream](std::span<const T> block) { (scan.*stream)(block); };
}

// Reads one mesh; `vertices_left` is what the whole-model vertex limit still allows. `scan` gets
// the per-element streams block by block as they are copied (Model::validate's checks, then
// without reading them again).
std::string read_mesh(const Section& s, std::size_t joints, uint64_t& vertices_left, Mesh& m,
                      MeshScan& scan) {
  Reader in(s);
  uint8_t skinned = 0;
  in.string(m.name, "mesh name");
  in.scalar(m.node, "mesh node");
  in.scalar(skinned, "mesh kind");
  in.scalar(m.material, "mesh material");
  in.scalar(m.max_influences, "mesh influence count");
  in.scalar(m.max_joint, "mesh max joint");
  // 0 or 1, as written: any other byte is damage, not a kind.
  if (skinned > 1) in.fail("a mesh's kind is " + std::to_string(skinned));
  m.skinned = skinned != 0;
  const uint64_t max_vertices = std::min<uint64_t>(kMaxVerticesPerMesh, vertices_left);
  in.array(m.positions, max_vertices, "positions", scanning(scan, &MeshScan::positions));
  const std::size_t n = m.positions.size();
  in.array(m.normals, n, "normals", scanning(scan, &MeshScan::normals));
  in.array(m.uvs, n, "texture coordinates", scanning(scan, &MeshScan::uvs));
  in.array(m.joints, n, "joint indices", scanning(scan, &MeshScan::joints));
  in.array(m.weights, n, "weights", scanning(scan, &MeshScan::weights));
  in.array(m.vertex_flags, n, "vertex flags");
  in.array(m.indices, 3 * uint64_t{kMaxTrianglesPerMesh}, "triangle indices",
           scanning(scan, &MeshScan::indices));
  in.array(m.line_indices, 2 * uint64_t{kMaxTrianglesPerMesh}, "line indices",
           scanning(scan, &MeshScan::line_indices));
  in.array(m.point_indices, uint64_t{kMaxTrianglesPerMesh}, "point indices",
           scanning(scan, &MeshScan::point_indices));
  // Whether source_vertex is a permutation of 0..n-1, found block by block as it is copied.
  std::vector<uint8_t> seen;
  bool permutation = true;
  in.array(m.source_vertex, n, "file vertex numbers", [&](std::span<const uint32_t> block) {
    if (seen.empty()) seen.assign(n, 0);
    for (const uint32_t v : block)
      if (!permutation || v >= n || seen[v]++) {
        permutation = false;
        return;
      }
  });
  in.array(m.source_weight_sums, n, "stored weight sums",
           scanning(scan, &MeshScan::source_weight_sums));
  in.array(m.joints2, n, "joint indices 5-8", scanning(scan, &MeshScan::joints2));
  in.array(m.weights2, n, "weights 5-8", scanning(scan, &MeshScan::weights2));
  in.array(m.cut_weights, n, "cut weights", scanning(scan, &MeshScan::cut_weights));
  in.array(m.compact_normals, n, "compact normals");
  in.array(m.compact_joints8, n, "compact joint indices (u8)",
           scanning(scan, &MeshScan::compact_joints8));
  in.array(m.compact_joints16, n, "compact joint indices (u16)",
           scanning(scan, &MeshScan::compact_joints16));
  in.array(m.compact_weights, n, "compact weights", scanning(scan, &MeshScan::compact_weights));
  in.array(m.skin_joints, kMaxSkinBones, "skin joints");
  in.array(m.inverse_bind, kMaxSkinBones, "skin inverse bind matrices");
  if (!in.at_end("the mesh section")) return in.error();
  vertices_left -= n;
  if (n == 0) return "no vertices";
  if (m.node < 0 || static_cast<std::size_t>(m.node) >= joints)
    return "node " + std::to_string(m.node) + " is out of range of " + std::to_string(joints) +
           " joints";
  if (m.skin_joints.empty()) return "no skin joint";
  if (!m.source_weight_sums.empty() && m.source_weight_sums.size() != n)
    return std::to_string(m.source_weight_sums.size()) + " stored weight sums for " +
           std::to_string(n) + " vertices";
  if (!m.source_vertex.empty()) {
    if (m.source_vertex.size() != n)
      return std::to_string(m.source_vertex.size()) + " file vertex numbers for " +
             std::to_string(n) + " vertices";
    if (!permutation) return "file vertex numbers are not a permutation";
  }
  return {};  // the rest: Model::validate (check_mesh)
}

// `pixels_left` is what kMaxImagePixelsTotal still allows. The sizes are checked before the
// pixels are copied: a stream cannot make this process allocate past the images' budget.
std::string read_image(const Section& s, uint64_t& pixels_left, Image& im) {
  Reader in(s);
  in.string(im.source, "image source");
  in.scalar(im.width, "image width");
  in.scalar(im.height, "image height");
  if (!in.ok()) return in.error();
  if (im.width == 0 || im.height == 0 || im.width > kMaxImageSide || im.height > kMaxImageSide)
    return std::to_string(im.width) + " x " + std::to_string(im.height) + " pixels, outside 1 to " +
           std::to_string(kMaxImageSide) + " on a side";
  const uint64_t pixels = uint64_t{im.width} * im.height;
  if (pixels > kMaxImagePixels) return std::to_string(pixels) + " pixels, more than the limit";
  if (pixels > pixels_left)
    return "more than " + std::to_string(kMaxImagePixelsTotal) + " pixels in all images";
  pixels_left -= pixels;
  in.array(im.rgba, 4 * pixels, "image pixels");
  if (!in.at_end("the image section")) return in.error();
  if (im.rgba.size() != 4 * pixels)
    return std::to_string(im.rgba.size()) + " bytes of pixels for " + std::to_string(im.width) +
           " x " + std::to_string(im.height) + " RGBA";
  one_line(im.source);
  return {};
}

std::string read_material(const Section& s, std::size_t images, Material& m) {
  Reader in(s);
  in.string(m.name, "material name");
  in.raw(&m.base_color, sizeof m.base_color, "base colour");
  in.string(m.texture_name, "texture name");
  in.scalar(m.image, "material image");
  uint32_t double_sided = 1;
  in.scalar(double_sided, "material sides");
  if (!in.at_end("the material section")) return in.error();
  if (double_sided > 1) return "material sides " + std::to_string(double_sided) + " (want 0 or 1)";
  m.double_sided = double_sided == 1;
  if (!finite(m.base_color)) return "base colour is not finite";
  if (m.image < -1 || (m.image >= 0 && static_cast<std::size_t>(m.image) >= images))
    return "names image " + std::to_string(m.image) + " of " + std::to_string(images);
  return {};
}

// The clip section's reader (see write_clip). `keys_left` is what the whole-model key limit still
// allows. The arrays' contract is ClipRuntime::adopt's to check (anim/clip_arrays.h); here, the
// import limits, and that the clip is laid out for this skeleton (Model::validate checks it too)
// and covers its keys.
std::string read_clip(const Section& s, const Skeleton& sk, uint64_t& keys_left, ClipRuntime& c) {
  Reader in(s);
  ClipArrays a;
  in.string(a.name, "clip name");
  in.scalar(a.duration, "clip duration");
  in.scalar(a.joints, "clip joint count");
  if (!in.ok()) return in.error();
  if (a.joints != sk.size())
    return "clip '" + a.name + "' is laid out for " + std::to_string(a.joints) +
           " joints, the skeleton has " + std::to_string(sk.size());
  // Keys: the constant timeline's one time, plus at most the keys left.
  in.array(a.times, keys_left + 1, "key times");
  in.array(a.timeline_begin, a.times.size() + 1, "timelines");
  const uint64_t padded = (uint64_t{a.joints} + 3) / 4 * 4;
  uint64_t tracks = 0;
  if (!in.count(tracks, 3 * padded, 13, "tracks")) return in.error();
  if (tracks != 3 * padded)
    return "clip '" + a.name + "': " + std::to_string(tracks) + " tracks for " +
           std::to_string(a.joints) + " joints";
  a.tracks.resize(static_cast<std::size_t>(tracks));
  for (RuntimeTrack& t : a.tracks) {
    uint8_t interpolation = 0;
    in.scalar(t.timeline, "track timeline");
    in.scalar(t.base, "track base");
    in.scalar(t.stride, "track stride");
    in.scalar(interpolation, "track interpolation");
    if (interpolation > static_cast<uint8_t>(Interpolation::CubicSpline)) {
      in.fail("a track's interpolation is " + std::to_string(interpolation));
      break;
    }
    t.interpolation = static_cast<Interpolation>(interpolation);
  }
  in.array(a.values, kMaxModelBytes, "key values");
  in.array(a.parents, a.joints, "clip parents");
  in.array(a.uniform, padded, "clip uniform flags");
  in.array(a.keyed, a.joints, "clip keyed flags");
  if (!in.at_end("the clip section")) return in.error();
  keys_left -= a.times.empty() ? 0 : a.times.size() - 1;
  for (std::size_t u = 1; u + 1 < a.timeline_begin.size(); ++u)
    if (a.timeline_begin[u + 1] > a.timeline_begin[u] &&
        a.timeline_begin[u + 1] - a.timeline_begin[u] > kMaxKeysPerTrack)
      return "clip '" + a.name + "': a timeline of more than " + std::to_string(kMaxKeysPerTrack) +
             " keys";
  for (std::size_t k = 1; k < a.times.size(); ++k)
    if (a.times[k] > a.duration)  // NaN passes here; adopt refuses it
      return "clip '" + a.name + "': a key lies past the clip's duration";
  one_line(a.name);
  if (std::string e = c.adopt(std::move(a)); !e.empty()) return e;
  return {};
}

// --- morph targets and weights (see write_morph_targets) ---
// `deltas_left` is what kMaxMorphDeltasTotal still allows. Sizes against the mesh, finite
// numbers: check_morph_targets (through Model::validate).
std::string read_morph_targets(const Section& s, std::vector<Mesh>& meshes, int64_t& last_mesh,
                               uint64_t& deltas_left) {
  Reader in(s);
  uint32_t mesh = 0;
  uint64_t n = 0;
  if (!in.scalar(mesh, "morph mesh")) return in.error();
  if (static_cast<int64_t>(mesh) <= last_mesh || mesh >= meshes.size())
    return "morph targets for mesh " + std::to_string(mesh) + ": out of range or out of order";
  last_mesh = mesh;
  Mesh& m = meshes[mesh];
  const uint64_t nv = m.vertex_count();
  // A target is at least its name's length, its weight and two array counts.
  if (!in.count(n, kMaxMorphTargetsPerMesh, 8 + 4 + 8 + 8, "morph target count")) return in.error();
  if (n == 0) return "a morph section with no target";
  m.morph_targets.resize(static_cast<std::size_t>(n));
  for (MorphTarget& t : m.morph_targets) {
    if (deltas_left < nv)
      return "more than " + std::to_string(kMaxMorphDeltasTotal) + " morph target vertices";
    deltas_left -= nv;
    in.string(t.name, "morph target name");
    in.scalar(t.default_weight, "morph default weight");
    in.array(t.position_deltas, nv, "morph position deltas");
    in.array(t.normal_deltas, nv, "morph normal deltas");
    if (!in.ok()) break;
    one_line(t.name);
  }
  if (!in.at_end("the morph target section")) return in.error();
  return {};
}

std::string read_morph_clip(const Section& s, const Model& model, int64_t& last_clip,
                            uint64_t& keys_left, std::vector<MorphClip>& clips) {
  Reader in(s);
  uint32_t clip = 0;
  uint64_t n = 0;
  if (!in.scalar(clip, "morph clip")) return in.error();
  if (static_cast<int64_t>(clip) <= last_clip || clip >= model.clips.size())
    return "morph weights for clip " + std::to_string(clip) + ": out of range or out of order";
  last_clip = clip;
  // A track is at least its mesh, interpolation and two array counts.
  if (!in.count(n, model.meshes.size(), 4 + 1 + 8 + 8, "morph track count")) return in.error();
  clips.resize(model.clips.size());
  MorphClip& c = clips[clip];
  c.tracks.resize(static_cast<std::size_t>(n));
  for (MorphTrack& t : c.tracks) {
    uint8_t interpolation = 0;
    in.scalar(t.mesh, "morph track mesh");
    in.scalar(interpolation, "morph track interpolation");
    if (interpolation > static_cast<uint8_t>(Interpolation::CubicSpline))
      return "a morph track's interpolation is " + std::to_string(interpolation);
    t.interpolation = static_cast<Interpolation>(interpolation);
    in.array(t.times, std::min<uint64_t>(kMaxKeysPerTrack, keys_left), "morph key times");
    if (!in.ok()) break;
    keys_left -= t.times.size();
    // The weights' count against the mesh's targets: check_morph_clip (Model::validate).
    in.array(t.weights, kMaxModelBytes, "morph key weights");
  }
  if (!in.at_end("the morph weight section")) return in.error();
  return {};
}
// --- end of morph targets and weights ---

std::string read_report(const Section& s, ImportReport& r) {
  Reader in(s);
  for (uint64_t* v :
       {&r.vertices_over_4_influences, &r.vertices_over_8_influences, &r.vertices_renormalised,
        &r.vertices_unweighted, &r.bones_without_node, &r.channels_without_node,
        &r.non_finite_values, &r.keys_out_of_order, &r.rotations_normalised, &r.meshes_skipped,
        &r.faces_dropped, &r.clips_refused, &r.clips_extended, &r.textures_not_loaded})
    in.scalar(*v, "report counter");
  in.scalar(r.largest_dropped_weight, "report weight");
  in.scalar(r.largest_cut_weight, "report cut weight");
  uint64_t n = 0;
  if (in.count(n, kMaxNotes, 8, "report note count")) {
    r.notes.resize(static_cast<std::size_t>(n));
    for (std::string& note : r.notes) in.string(note, "report note");
  }
  in.string(r.ticks_per_second_note, "report note");
  in.scalar(r.unit_metres, "unit");
  if (!in.at_end("the report section")) return in.error();
  if (!std::isfinite(r.unit_metres) || r.unit_metres < 0.0 || r.unit_metres > 1e7)
    return "the unit is not a length (" + std::to_string(r.unit_metres) + " m)";
  if (!std::isfinite(r.largest_dropped_weight) || !std::isfinite(r.largest_cut_weight))
    return "report weight is not finite";
  return {};
}

std::string read_sections(const std::vector<Section>& sections, ImportResult& result) {
  std::size_t i = 0;
  auto next_is = [&](uint32_t t) { return i < sections.size() && sections[i].tag == t; };
  if (!next_is(kInfo)) return "the first section is not INFO";
  if (std::string e = read_info(sections[i++], result.provenance); !e.empty()) return e;
  if (next_is(kError)) {
    Reader in(sections[i]);
    in.string(result.error, "error line");
    if (!in.at_end("the error section")) return in.error();
    if (++i != sections.size()) return "sections follow the error";
    if (result.error.empty()) return "an empty error line";
    return {};
  }
  Model model;
  if (!next_is(kSkeleton)) return "no skeleton section";
  if (std::string e = read_skeleton(sections[i++], model.skeleton); !e.empty())
    return "skeleton: " + e;
  uint64_t vertices_left = kMaxVerticesTotal;
  std::vector<MeshScan> scans;  // one per mesh: its streams as they were copied
  while (next_is(kMesh)) {
    if (model.meshes.size() >= kMaxMeshes)
      return "more than " + std::to_string(kMaxMeshes) + " meshes";
    Mesh& m = model.meshes.emplace_back();
    if (std::string e =
            read_mesh(sections[i++], model.skeleton.size(), vertices_left, m, scans.emplace_back());
        !e.empty())
      return "mesh " + std::to_string(model.meshes.size() - 1) + ": " + e;
  }
  uint64_t pixels_left = kMaxImagePixelsTotal;
  while (next_is(kImage)) {
    if (model.images.size() >= kMaxImages)
      return "more than " + std::to_string(kMaxImages) + " images";
    if (std::string e = read_image(sections[i++], pixels_left, model.images.emplace_back());
        !e.empty())
      return "image " + std::to_string(model.images.size() - 1) + ": " + e;
  }
  while (next_is(kMaterial)) {
    if (model.materials.size() >= kMaxMaterials)
      return "more than " + std::to_string(kMaxMaterials) + " materials";
    if (std::string e =
            read_material(sections[i++], model.images.size(), model.materials.emplace_back());
        !e.empty())
      return "material " + std::to_string(model.materials.size() - 1) + ": " + e;
  }
  int64_t last_mesh = -1;
  uint64_t deltas_left = kMaxMorphDeltasTotal;
  while (next_is(kMorphTargets))
    if (std::string e = read_morph_targets(sections[i++], model.meshes, last_mesh, deltas_left);
        !e.empty())
      return e;
  uint64_t keys_left = kMaxKeysTotal;
  while (next_is(kClip)) {
    if (model.clips.size() >= kMaxClips) return "more than " + std::to_string(kMaxClips) + " clips";
    ClipRuntime& c = model.clips.emplace_back();
    if (std::string e = read_clip(sections[i++], model.skeleton, keys_left, c); !e.empty())
      return "clip " + std::to_string(model.clips.size() - 1) + ": " + e;
  }
  int64_t last_clip = -1;
  while (next_is(kMorphClip))
    if (std::string e =
            read_morph_clip(sections[i++], model, last_clip, keys_left, model.morph_clips);
        !e.empty())
      return e;
  if (!next_is(kReport))
    return i < sections.size() ? "unexpected section '" + tag_name(sections[i].tag) + "'"
                               : "no report section";
  if (std::string e = read_report(sections[i++], result.report); !e.empty()) return e;
  if (i != sections.size()) return "sections follow the report";
  if (model.meshes.empty() && model.clips.empty()) return "no mesh and no clip";
  if (std::string e = model.validate(scans); !e.empty()) return e;
  for (std::string& name : model.skeleton.names) one_line(name);
  for (Mesh& m : model.meshes) one_line(m.name);
  for (Material& m : model.materials) {
    one_line(m.name);
    one_line(m.texture_name);
  }
  for (std::string& note : result.report.notes) one_line(note);
  one_line(result.report.ticks_per_second_note);
  result.model = std::move(model);
  return {};
}

}  // namespace

namespace {

void write_sections(Writer& w, const Model& model, const ImportReport& report,
                    const ImportProvenance& provenance) {
  write_info(w, provenance);
  write_skeleton(w, model.skeleton);
  for (const Mesh& m : model.meshes) write_mesh(w, m);
  for (const Image& im : model.images) write_image(w, im);
  for (const Material& m : model.materials) write_material(w, m);
  for (std::size_t m = 0; m < model.meshes.size(); ++m)
    if (!model.meshes[m].morph_targets.empty())
      write_morph_targets(w, static_cast<uint32_t>(m), model.meshes[m]);
  for (const ClipRuntime& c : model.clips) write_clip(w, c);
  for (std::size_t c = 0; c < model.morph_clips.size(); ++c)
    if (!model.morph_clips[c].tracks.empty())
      write_morph_clip(w, static_cast<uint32_t>(c), model.morph_clips[c]);
  write_report(w, report);
}

}  // namespace

std::vector<uint8_t> write_model(const Model& model, const ImportReport& report,
                                 const ImportProvenance& provenance) {
  Writer count(true);
  write_sections(count, model, report, provenance);
  Writer w(false, count.size());
  write_sections(w, model, report, provenance);
  return w.finish();
}

std::size_t model_stream_size(const Model& model, const ImportReport& report,
                              const ImportProvenance& provenance) {
  Writer count(true);
  write_sections(count, model, report, provenance);
  return count.size();
}

bool write_model_into(std::span<uint8_t> out, const Model& model, const ImportReport& report,
                      const ImportProvenance& provenance) {
  Writer w(out);
  write_sections(w, model, report, provenance);
  return w.finish_span();
}

std::vector<uint8_t> write_error(std::string_view error, const ImportProvenance& provenance) {
  Writer w;
  write_info(w, provenance);
  w.begin(kError);
  w.string(error);
  w.end();
  return w.finish();
}

std::string check_model_header(std::span<const uint8_t> bytes, uint64_t stream_size) {
  if (stream_size < kHeaderBytes || bytes.size() < kHeaderBytes)
    return "only " + std::to_string(std::min<uint64_t>(stream_size, bytes.size())) +
           " bytes, shorter than the header";
  if (std::memcmp(bytes.data(), kModelMagic, 8) != 0) return "no model header (wrong magic)";
  uint32_t version = 0;
  uint64_t total = 0, reserved = 0;
  std::memcpy(&version, bytes.data() + 8, 4);
  std::memcpy(&total, bytes.data() + 16, 8);
  std::memcpy(&reserved, bytes.data() + 24, 8);
  if (version != kModelFormatVersion)
    return "format version " + std::to_string(version) + ", this reader reads version " +
           std::to_string(kModelFormatVersion);
  if (total != stream_size)
    return "header gives " + std::to_string(total) + " bytes, the stream has " +
           std::to_string(stream_size);
  if (total > kMaxModelBytes) return "more than " + std::to_string(kMaxModelBytes) + " bytes";
  if (reserved != 0) return "reserved header bytes are not zero";
  return {};
}

ImportResult read_model(std::span<const uint8_t> bytes, const std::string& name, uint64_t* checksum,
                        std::shared_ptr<const void> keep) {
  ImportResult result;
  std::string problem;
  std::optional<Digest> digest;
  try {
    if (checksum != nullptr) digest.emplace(bytes.data());
    std::vector<Section> sections;
    problem = split_sections(bytes, digest ? &*digest : nullptr, keep ? &keep : nullptr, sections);
    if (problem.empty()) problem = read_sections(sections, result);
  } catch (const std::bad_alloc&) {
    problem = "not enough memory to read it";
  }
  // The rest of the stream (all of it, when the reader stopped early or had no digest).
  if (checksum != nullptr)
    *checksum = digest ? digest->finish(bytes.data() + bytes.size())
                       : XXH3_64bits(bytes.data(), bytes.size());
  if (!problem.empty()) {
    one_line(problem);
    ImportResult bad;
    bad.error = name + ": the importer's output is malformed (" + problem + "); refused";
    return bad;
  }
  // The worker names the file as this process does: that prefix is kept as given (the command
  // line escapes control characters when it prints a line), the worker's own text made one line.
  if (!name.empty() && result.error.rfind(name + ": ", 0) == 0) {
    std::string rest = result.error.substr(name.size());
    one_line(rest);
    result.error = name + rest;
  } else {
    one_line(result.error);
  }
  return result;
}

}  // namespace sv
