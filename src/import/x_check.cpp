// DirectX .x files walked as assimp 5.2.5's XFileParser walks them (code/AssetLib/X/
// XFileParser.cpp and XFileImporter.cpp, checked against the Debian binary): the same tokens,
// the same number readers, the same separators, in text ("txt ") and binary ("bin ") files.
// Where the parser would throw, the walk stops and the file is handed to assimp, which reports
// it. What assimp does wrong on the way:
//
//   counts        Mesh vertices, MeshNormals normals and MeshTextureCoords / MeshVertexColors
//                 entries resize a vector before one element is read; faces resize a vector of
//                 vectors; SkinWeights reserve their weights. 400000000 vertices in a 5 KB text
//                 file: 4.7 GB zero-filled, 10 s, then an error holding the rest of the file;
//                 4000000000: std::bad_alloc. In a binary file a number read past the end is a
//                 zero, not an error, so a face or index count also runs its loop to the end
//                 (billions of reads). Every count here must fit the bytes left in the file
//                 at its element's smallest size (text: "0;" per number; binary: 4 bytes per
//                 integer, the float size per float) and stay within import.h's limits.
//   indices       the importer copies position, texture coordinate and colour data at each
//                 face index that is not above the vertex count: an index equal to it reads one
//                 past the arrays. Normal indices and skin weight vertex indices are not
//                 checked at all (a weight writes into a per-vertex array at its index; both
//                 crash 5.2.5 with SIGSEGV).
//   materials     a material list with face indices but no material makes the importer read
//                 material 0 of an empty vector (SIGSEGV); a list of one index on a mesh without
//                 faces, or a second list, makes it read faces past the mesh's end.
//   binary        a string token's length is not checked against the file (a length of 2^31 or
//                 more copies gigabytes from past the buffer), and integer, GUID and list
//                 tokens move the read position past the end unchecked, where the next integer
//                 is read from wherever that is.
//   nesting       frames recurse, one level per frame (import.h: depth 4,096).
//   compressed    a compressed file ("tzip", "bzip") is inflated into a buffer of 32,786 bytes
//                 per block, sized before inflating (a 500 KB file of empty blocks asks for
//                 4.3 GB; the 32-bit size wraps past 131,000 blocks, and the blocks are then
//                 inflated past the buffer's end). Here it is inflated as assimp does (at most
//                 kMaxFileBytes) and the inflated data walked like any other.
#include "import/x_check.h"

#include <cstdint>
#include <string>
#include <string_view>

#include <zlib.h>

#include "import/text_walk.h"
#include "io/import.h"

namespace sv {
namespace {

using text_walk::Walk;

// Where the walk ends early: assimp's parser throws here (it reports the file itself) ...
struct AssimpThrows {};
// ... or the file is refused.
struct Refused {
  std::string why;
};

bool is_c_space(char c) {  // isspace() in the C locale
  return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}
bool is_digit(char c) { return c >= '0' && c <= '9'; }

constexpr uint32_t kMaxSets = 8;
constexpr uint64_t kMaxBonesPerMesh =
    65535;  // import.h: Mesh::joints is 16-bit  // AI_MAX_NUMBER_OF_TEXTURECOORDS,
            // AI_MAX_NUMBER_OF_COLOR_SETS

class XWalk {
 public:
  // `text`: what the parser reads (the file, or a compressed file's inflated data), from
  // `start`; `inflated` only changes how places are named in messages.
  XWalk(std::string_view text, bool binary, uint32_t float_size, std::size_t start, bool inflated)
      : w_(text),
        p_(start),
        end_(text.size()),
        binary_(binary),
        float_size_(float_size),
        inflated_(inflated) {}

  std::string run() {
    try {
      parse_file();
    } catch (const AssimpThrows&) {
    } catch (const Refused& r) {
      return r.why;
    }
    return {};
  }

 private:
  // A mesh's state as the importer will see it.
  struct MeshState {
    std::string name;
    uint32_t vertices = 0;
    uint32_t faces = 0;
    uint32_t tex_sets = 0, color_sets = 0;
    uint64_t weights = 0;
    uint64_t bones = 0;
    uint64_t face_materials = 0;  // per-face material indices, all material lists together
    uint64_t materials = 0;       // materials, all material lists together
    bool material_zero = false;   // some face material index is 0
  };

  Walk w_;
  std::size_t p_;    // assimp's mP (may pass end_ in binary files)
  std::size_t end_;  // assimp's mEnd: the terminating NUL after the text
  bool binary_;
  uint32_t float_size_;  // bytes
  bool inflated_;
  uint32_t num_count_ = 0;     // mBinaryNumCount: numbers left in the current binary list
  std::size_t number_at_ = 0;  // where the last integer read starts (for messages)
  std::size_t frames_ = 0, meshes_ = 0, clips_ = 0;
  uint64_t keys_ = 0;

  char at(std::size_t p) const { return w_.at(p); }
  int64_t left() const { return static_cast<int64_t>(end_) - static_cast<int64_t>(p_); }
  std::string where(std::size_t p) const {
    const char* of = inflated_ ? " of the inflated data)" : ")";
    return binary_ ? " (byte " + std::to_string(p) + of
                   : " (line " + std::to_string(w_.line_of(p)) + of;
  }
  [[noreturn]] void refuse(std::string why) const { throw Refused{std::move(why)}; }

  // The count just read (at number_at_), of elements of at least `min_text` bytes (text) or
  // `min_binary` (binary) each: it must fit in the bytes after it, and stay within `limit`.
  void check_count(uint64_t count, uint64_t min_text, uint64_t min_binary, uint64_t limit,
                   const std::string& owner, const char* what) const {
    const uint64_t bytes = static_cast<uint64_t>(left() > 0 ? left() : 0);
    const uint64_t min = binary_ ? min_binary : min_text;
    if (count > bytes / min)
      refuse("X " + owner + " declares " + std::to_string(count) + " " + what + where(number_at_) +
             " but the file has room for at most " + std::to_string(bytes / min));
    if (count > limit)
      refuse("X " + owner + " declares " + std::to_string(count) + " " + what + where(number_at_) +
             ", more than the limit of " + std::to_string(limit));
  }

  // --- assimp's token and number readers -----------------------------------------------------
  void read_until_end_of_line() {
    if (binary_) return;
    while (p_ < end_) {
      const char c = at(p_++);
      if (c == '\n' || c == '\r') return;
    }
  }
  void find_next_none_white_space() {
    if (binary_) return;
    for (;;) {
      while (p_ < end_ && is_c_space(at(p_))) ++p_;
      if (p_ >= end_) return;
      if ((at(p_) == '/' && at(p_ + 1) == '/') || at(p_) == '#')
        read_until_end_of_line();
      else
        return;
    }
  }
  uint32_t word() {
    const uint32_t v = static_cast<uint8_t>(at(p_)) | static_cast<uint8_t>(at(p_ + 1)) << 8;
    p_ += 2;
    return v;
  }
  uint32_t dword() {
    uint32_t v = 0;
    for (int i = 3; i >= 0; --i) v = v << 8 | static_cast<uint8_t>(at(p_ + i));
    p_ += 4;
    return v;
  }
  std::string_view slice(std::size_t from, std::size_t n) const {
    return std::string_view(w_.buf).substr(from, n);
  }

  std::string_view token() {
    if (binary_) return binary_token();
    find_next_none_white_space();
    if (p_ >= end_) return {};
    const std::size_t start = p_;
    while (p_ < end_ && !is_c_space(at(p_))) {
      const char c = at(p_);
      if (c == ';' || c == '}' || c == '{' || c == ',') {
        if (p_ == start) ++p_;
        break;
      }
      ++p_;
    }
    return slice(start, p_ - start);
  }

  std::string_view binary_token() {
    if (left() < 2) return {};
    const std::size_t at_token = p_;
    switch (word()) {
      case 1: {  // name
        if (left() < 4) return {};
        const uint32_t len = dword();
        if (static_cast<int32_t>(len) < 0 || left() < static_cast<int32_t>(len)) return {};
        p_ += len;
        return slice(p_ - len, len);
      }
      case 2: {  // string, then a separator token
        if (left() < 4) return {};
        const uint32_t len = dword();
        // assimp compares as int: a length of 2^31 or more passes and is copied.
        if (static_cast<int32_t>(len) >= 0 && left() < static_cast<int32_t>(len)) return {};
        if (len > static_cast<uint64_t>(left()))
          refuse("binary X string token of " + std::to_string(len) + " bytes" + where(at_token) +
                 " runs past the end of the file");
        p_ += len + 2;
        return slice(p_ - len - 2, len);
      }
      case 3:
        p_ += 4;
        return "<integer>";
      case 5:
        p_ += 16;
        return "<guid>";
      case 6:
      case 7: {
        if (left() < 4) return {};
        const bool ints = at(at_token) == 6;
        const uint32_t len = dword();
        p_ += static_cast<uint32_t>(len * (ints ? 4u : float_size_));  // 32-bit, as assimp
        return ints ? "<int_list>" : "<flt_list>";
      }
      case 0x0a:
        return "{";
      case 0x0b:
        return "}";
      case 0x0c:
        return "(";
      case 0x0d:
        return ")";
      case 0x0e:
        return "[";
      case 0x0f:
        return "]";
      case 0x10:
        return "<";
      case 0x11:
        return ">";
      case 0x12:
        return ".";
      case 0x13:
        return ",";
      case 0x14:
        return ";";
      case 0x1f:
        return "template";
      case 0x28:
        return "WORD";
      case 0x29:
        return "DWORD";
      case 0x2a:
        return "FLOAT";
      case 0x2b:
        return "DOUBLE";
      case 0x2c:
        return "CHAR";
      case 0x2d:
        return "UCHAR";
      case 0x2e:
        return "SWORD";
      case 0x2f:
        return "SDWORD";
      case 0x30:
        return "void";
      case 0x31:
        return "string";
      case 0x32:
        return "unicode";
      case 0x33:
        return "cstring";
      case 0x34:
        return "array";
      default:
        return {};
    }
  }

  void check_for_separator() {
    if (binary_) return;
    const std::string_view t = token();
    if (t != "," && t != ";") throw AssimpThrows{};
  }
  void check_for_semicolon() {
    if (!binary_ && token() != ";") throw AssimpThrows{};
  }
  void check_for_closing_brace() {
    if (token() != "}") throw AssimpThrows{};
  }
  void test_for_separator() {
    if (binary_) return;
    find_next_none_white_space();
    if (p_ >= end_) return;
    if (at(p_) == ';' || at(p_) == ',') ++p_;
  }
  std::string_view read_head_of_data_object() {
    const std::string_view name = token();
    if (name == "{") return {};
    if (token() != "{") throw AssimpThrows{};
    return name;
  }
  std::string_view next_token_as_string() {
    if (binary_) return token();
    find_next_none_white_space();
    if (p_ >= end_ || at(p_) != '"') throw AssimpThrows{};
    const std::size_t start = ++p_;
    while (p_ < end_ && at(p_) != '"') ++p_;
    if (p_ >= end_ - 1 || at(p_ + 1) != ';') throw AssimpThrows{};
    p_ += 2;
    return slice(start, p_ - 2 - start);
  }

  uint32_t read_int() {
    if (binary_) {
      if (num_count_ == 0 && left() >= 2) {
        const uint32_t type = word();  // 0x06: a list of integers; otherwise one
        num_count_ = type == 0x06 && left() >= 4 ? dword() : 1;
      }
      --num_count_;
      number_at_ = p_;
      // assimp takes mEnd - mP as unsigned: past the end it reads on from there.
      if (p_ > end_)
        refuse("binary X data" + where(p_) + " reads past the end of the file (a list length " +
               "or a string length is wrong)");
      if (left() >= 4) return dword();
      p_ = end_;
      return 0;
    }
    find_next_none_white_space();
    number_at_ = p_;
    const bool negative = at(p_) == '-';
    if (negative) ++p_;
    if (!is_digit(at(p_))) throw AssimpThrows{};
    uint32_t n = 0;
    while (p_ < end_ && is_digit(at(p_))) n = n * 10 + static_cast<uint32_t>(at(p_++) - '0');
    check_for_separator();
    return negative ? 0u - n : n;
  }

  void read_float() {
    if (binary_) {
      if (num_count_ == 0 && left() >= 2) {
        const uint32_t type = word();  // 0x07: a list of floats; otherwise one
        num_count_ = type == 0x07 && left() >= 4 ? dword() : 1;
      }
      --num_count_;
      if (left() >= static_cast<int64_t>(float_size_))
        p_ += float_size_;
      else
        p_ = end_;
      return;
    }
    find_next_none_white_space();
    auto starts = [&](std::string_view s) { return w_.buf.compare(p_, s.size(), s) == 0; };
    if (p_ <= end_ && (starts("-1.#IND00") || starts("1.#IND00"))) {
      p_ += 9;
    } else if (p_ <= end_ && starts("1.#QNAN0")) {
      p_ += 8;
    } else if (!w_.atof(p_)) {
      throw AssimpThrows{};
    }
    check_for_separator();
  }
  void read_floats(int n) {
    for (int i = 0; i < n; ++i) read_float();
  }
  void read_vector(int n) {  // ReadVector2/3, ReadRGB/RGBA
    read_floats(n);
    test_for_separator();
  }

  // --- the data objects ----------------------------------------------------------------------
  void parse_file() {
    for (;;) {
      const std::string_view name = token();
      if (name.empty()) return;
      if (name == "template") {
        read_head_of_data_object();
        token();  // GUID
        for (std::string_view t = token(); t != "}"; t = token())
          if (t.empty()) throw AssimpThrows{};
      } else if (name == "Frame") {
        parse_frame(1);
      } else if (name == "Mesh") {
        parse_mesh("");
      } else if (name == "AnimTicksPerSecond") {
        read_head_of_data_object();
        read_int();
        check_for_closing_brace();
      } else if (name == "AnimationSet") {
        parse_animation_set();
      } else if (name == "Material") {
        parse_material();
      } else if (name != "}") {
        parse_unknown();
      }
    }
  }

  void parse_unknown() {
    for (std::string_view t = token(); t != "{"; t = token())
      if (t.empty()) throw AssimpThrows{};
    for (uint64_t depth = 1; depth > 0;) {
      const std::string_view t = token();
      if (t.empty()) throw AssimpThrows{};
      if (t == "{") ++depth;
      if (t == "}") --depth;
    }
  }

  void parse_frame(std::size_t depth) {
    const std::size_t at_frame = p_;
    if (depth > kMaxNodeDepth)
      refuse("X frames nested deeper than " + std::to_string(kMaxNodeDepth) + where(at_frame));
    if (++frames_ > kMaxNodes)
      refuse("X file holds more than " + std::to_string(kMaxNodes) + " frames" + where(at_frame));
    const std::string_view name = read_head_of_data_object();
    for (;;) {
      const std::string_view t = token();
      if (t.empty()) throw AssimpThrows{};
      if (t == "}") return;
      if (t == "Frame") {
        parse_frame(depth + 1);
      } else if (t == "FrameTransformMatrix") {
        read_head_of_data_object();
        read_floats(16);
        check_for_semicolon();
        check_for_closing_brace();
      } else if (t == "Mesh") {
        parse_mesh(name);
      } else {
        parse_unknown();
      }
    }
  }

  void parse_mesh(std::string_view frame_name) {
    const std::size_t at_mesh = p_;
    if (++meshes_ > kMaxMeshes)
      refuse("X file holds more than " + std::to_string(kMaxMeshes) + " meshes" + where(at_mesh));
    MeshState m;
    const std::string_view own_name = read_head_of_data_object();
    m.name = "mesh '" + std::string(own_name.empty() ? frame_name : own_name) + "'";
    m.vertices = read_int();
    check_count(m.vertices, 6, 3 * float_size_, kMaxVerticesPerMesh, m.name, "vertices");
    for (uint32_t v = 0; v < m.vertices; ++v) read_vector(3);
    m.faces = read_int();
    check_count(m.faces, 2, 4, UINT32_MAX, m.name, "faces");
    uint64_t corners = 0;  // the importer makes one vertex per face corner
    for (uint32_t f = 0; f < m.faces; ++f) {
      const uint32_t n = read_int();
      check_count(n, 2, 4, UINT32_MAX, m.name + " face " + std::to_string(f), "indices");
      if ((corners += n) > kMaxVerticesTotal)
        refuse("X " + m.name + " has more than " + std::to_string(kMaxVerticesTotal) +
               " face corners" + where(number_at_) +
               ", the limit on vertices (assimp makes a vertex of each)");
      for (uint32_t i = 0; i < n; ++i) {
        if (read_int() == m.vertices)
          refuse("X " + m.name + " face " + std::to_string(f) + where(number_at_) +
                 " uses vertex " + std::to_string(m.vertices) +
                 ", one past its vertices (assimp 5.2.5 reads it)");
      }
      test_for_separator();
    }
    for (;;) {
      const std::string_view t = token();
      if (t.empty()) throw AssimpThrows{};
      if (t == "}") break;
      if (t == "MeshNormals") {
        parse_normals(m);
      } else if (t == "MeshTextureCoords") {
        parse_per_vertex(m, m.tex_sets, 2, false, "texture coordinates");
      } else if (t == "MeshVertexColors") {
        parse_per_vertex(m, m.color_sets, 4, true, "vertex colours");
      } else if (t == "MeshMaterialList") {
        parse_material_list(m);
      } else if (t == "XSkinMeshHeader") {
        read_head_of_data_object();
        for (int i = 0; i < 3; ++i) read_int();
        check_for_closing_brace();
      } else if (t == "SkinWeights") {
        parse_skin_weights(m);
      } else {
        parse_unknown();  // VertexDuplicationIndices among them: assimp skips it unread
      }
    }
    // What the importer does with the mesh once the whole file is read.
    if (m.face_materials > m.faces)
      refuse("X " + m.name + " lists materials for " + std::to_string(m.face_materials) +
             " faces, more than its " + std::to_string(m.faces) +
             " (assimp 5.2.5 reads faces past its end)");
    if (m.face_materials > 0 && m.materials == 0 && m.material_zero)
      refuse("X " + m.name + " has a material list without materials (assimp 5.2.5 reads " +
             "material 0 of an empty list)");
  }

  void parse_normals(MeshState& m) {
    read_head_of_data_object();
    const uint32_t normals = read_int();
    check_count(normals, 6, 3 * float_size_, kMaxVerticesPerMesh, m.name, "normals");
    for (uint32_t i = 0; i < normals; ++i) read_vector(3);
    const uint32_t faces = read_int();
    if (faces != m.faces) throw AssimpThrows{};
    for (uint32_t f = 0; f < faces; ++f) {
      const uint32_t n = read_int();
      check_count(n, 2, 4, UINT32_MAX, m.name + " normal face " + std::to_string(f), "indices");
      for (uint32_t i = 0; i < n; ++i) {
        if (const uint32_t index = read_int(); index >= normals)
          refuse("X " + m.name + " normal face " + std::to_string(f) + where(number_at_) +
                 " uses normal " + std::to_string(index) + ", past its " + std::to_string(normals) +
                 " normals (assimp 5.2.5 reads it)");
      }
      test_for_separator();
    }
    check_for_closing_brace();
  }

  // MeshTextureCoords (2 floats per vertex) or MeshVertexColors (an index and 4 floats).
  void parse_per_vertex(MeshState& m, uint32_t& sets, int floats, bool indexed, const char* what) {
    read_head_of_data_object();
    if (++sets > kMaxSets) throw AssimpThrows{};
    const uint32_t n = read_int();
    if (n != m.vertices) throw AssimpThrows{};
    check_count(n, 2 * floats + (indexed ? 2 : 0), floats * float_size_ + (indexed ? 4 : 0),
                UINT32_MAX, m.name, what);
    for (uint32_t i = 0; i < n; ++i) {
      if (indexed && read_int() >= m.vertices) throw AssimpThrows{};
      read_vector(floats);
      if (indexed && !binary_) {
        find_next_none_white_space();
        if (at(p_) == ';' || at(p_) == ',') ++p_;
      }
    }
    check_for_closing_brace();
  }

  void parse_material_list(MeshState& m) {
    read_head_of_data_object();
    read_int();  // the material count, unused
    const uint32_t n = read_int();
    if (n != m.faces && n != 1) throw AssimpThrows{};
    check_count(n, 2, 4, UINT32_MAX, m.name, "face materials");
    for (uint32_t i = 0; i < n; ++i)
      if (read_int() == 0) m.material_zero = true;
    m.face_materials += n;
    if (m.face_materials < m.faces) m.face_materials = m.faces;  // a single index is repeated
    if (!binary_ && p_ < end_ && at(p_) == ';') ++p_;
    for (;;) {
      const std::string_view t = token();
      if (t.empty()) throw AssimpThrows{};
      if (t == "}") return;
      if (t == "{") {
        token();
        check_for_closing_brace();
        ++m.materials;
      } else if (t == "Material") {
        parse_material();
        ++m.materials;
      } else if (t != ";") {
        parse_unknown();
      }
    }
  }

  void parse_material() {
    read_head_of_data_object();
    read_vector(4);
    read_float();
    read_vector(3);
    read_vector(3);
    for (;;) {
      const std::string_view t = token();
      if (t.empty()) throw AssimpThrows{};
      if (t == "}") return;
      if (t == "TextureFilename" || t == "TextureFileName" || t == "NormalmapFilename" ||
          t == "NormalmapFileName") {
        read_head_of_data_object();
        next_token_as_string();
        check_for_closing_brace();
      } else {
        parse_unknown();
      }
    }
  }

  void parse_skin_weights(MeshState& m) {
    read_head_of_data_object();
    const std::string owner =
        m.name + " bone '" + std::string(next_token_as_string().substr(0, 200)) + "'";
    const uint32_t n = read_int();
    const uint64_t limit = kMaxWeightsPerVertex * uint64_t{m.vertices} + 65536;
    check_count(n, 4, 4 + float_size_, limit - m.weights, owner, "weights");
    m.weights += n;
    if (++m.bones > kMaxBonesPerMesh)
      refuse("X " + m.name + " has more than " + std::to_string(kMaxBonesPerMesh) + " bones" +
             where(number_at_));
    for (uint32_t i = 0; i < n; ++i) {
      if (const uint32_t vertex = read_int(); vertex >= m.vertices)
        refuse("X " + owner + where(number_at_) + " weights vertex " + std::to_string(vertex) +
               ", past its " + std::to_string(m.vertices) +
               " vertices (assimp 5.2.5 writes there)");
    }
    for (uint32_t i = 0; i < n; ++i) read_float();
    read_floats(16);
    check_for_semicolon();
    check_for_closing_brace();
  }

  void parse_animation_set() {
    const std::size_t at_set = p_;
    if (++clips_ > kMaxClips)
      refuse("X file holds more than " + std::to_string(kMaxClips) + " animation sets" +
             where(at_set));
    read_head_of_data_object();
    for (;;) {
      const std::string_view t = token();
      if (t.empty()) throw AssimpThrows{};
      if (t == "}") return;
      if (t == "Animation")
        parse_animation();
      else
        parse_unknown();
    }
  }

  void parse_animation() {
    read_head_of_data_object();
    std::string bone;
    for (;;) {
      const std::string_view t = token();
      if (t.empty()) throw AssimpThrows{};
      if (t == "}") return;
      if (t == "AnimationKey") {
        parse_animation_key(bone);
      } else if (t == "{") {
        bone = std::string(token().substr(0, 200));
        check_for_closing_brace();
      } else {
        parse_unknown();  // AnimationOptions among them
      }
    }
  }

  void parse_animation_key(const std::string& bone) {
    read_head_of_data_object();
    const uint32_t type = read_int();
    const uint32_t n = read_int();
    // Each key holds a time, a value count and its values.
    const std::string owner = "animation key list" + (bone.empty() ? "" : " of '" + bone + "'");
    check_count(n, 5, 8, kMaxKeysPerTrack, owner, "keys");
    if ((keys_ += n) > kMaxKeysTotal)
      refuse("X file declares more than " + std::to_string(kMaxKeysTotal) + " keys" +
             where(number_at_));
    for (uint32_t k = 0; k < n; ++k) {
      read_int();  // time
      const uint32_t values = read_int();
      if (type == 0) {
        if (values != 4) throw AssimpThrows{};
        read_floats(4);
        check_for_semicolon();
      } else if (type == 1 || type == 2) {
        if (values != 3) throw AssimpThrows{};
        read_vector(3);
      } else if (type == 3 || type == 4) {
        if (values != 16) throw AssimpThrows{};
        read_floats(16);
        check_for_semicolon();
      } else {
        throw AssimpThrows{};
      }
      check_for_separator();
    }
    check_for_closing_brace();
  }
};

// MSZIP, as assimp 5.2.5 inflates a compressed X file: after the 16-byte header and 6 unknown
// bytes, blocks of a 16-bit length, "CK" and that many bytes of raw deflate data, each inflated
// on its own into at most kMszipBlock bytes with the previous block's output as its dictionary.
// assimp first sizes its output at kMszipBlock per block (a 32-bit sum), and throws on a length
// of kMszipBlock or more, a block without "CK" or deflate data it cannot inflate (the walk then
// hands the file over). Returns false there, or where the file is refused (`error` set).
constexpr std::size_t kMszipBlock = 32786;

bool inflate_mszip(std::string_view file, std::string& out, std::string& error) {
  const std::size_t end = file.size();  // assimp's mEnd: the NUL after the file
  auto u16 = [&](std::size_t p) {
    return static_cast<uint32_t>(static_cast<uint8_t>(file[p]) |
                                 static_cast<uint8_t>(p + 1 < end ? file[p + 1] : 0) << 8);
  };
  uint64_t blocks = 0;
  for (std::size_t p = 22; p + 3 < end;) {
    const uint32_t length = u16(p);
    if (length >= kMszipBlock || u16(p + 2) != 0x4b43) return false;
    p += 4 + length;
    ++blocks;
  }
  if (blocks * kMszipBlock > kMaxFileBytes) {
    error = "compressed X file of " + std::to_string(blocks) + " blocks: assimp 5.2.5 sets " +
            std::to_string(blocks * kMszipBlock) + " bytes aside to inflate it, more than the " +
            "limit of " + std::to_string(kMaxFileBytes);
    return false;
  }
  out.assign(static_cast<std::size_t>(blocks * kMszipBlock), '\0');
  std::size_t produced = 0;
  z_stream z{};
  if (::inflateInit2(&z, -MAX_WBITS) != Z_OK) return false;
  bool ok = true;
  std::string block;
  for (std::size_t p = 22; ok && p + 3 < end;) {
    const uint32_t length = u16(p);
    p += 4;
    // assimp lets a block run two bytes past the file: the terminating NUL and one byte after
    // it (zeros here; zlib stops at the end of a block's data before it reaches them).
    if (p + length > end + 2) {
      ok = false;
      break;
    }
    if (length > 0) {
      block.assign(file.substr(p, length));
      block.resize(length, '\0');
      z.next_in = reinterpret_cast<Bytef*>(block.data());
      z.avail_in = length;
      z.next_out = reinterpret_cast<Bytef*>(out.data() + produced);
      z.avail_out = kMszipBlock;
      const int rc = ::inflate(&z, Z_SYNC_FLUSH);
      if (rc != Z_OK && rc != Z_STREAM_END) {
        ok = false;
        break;
      }
      const std::size_t n = kMszipBlock - z.avail_out;
      ::inflateReset(&z);
      ::inflateSetDictionary(&z, reinterpret_cast<const Bytef*>(out.data() + produced),
                             static_cast<uInt>(n));
      produced += n;
    }
    p += length;
  }
  ::inflateEnd(&z);
  out.resize(produced);
  return ok;
}

}  // namespace

std::string check_x_file(std::string_view bytes) {
  // XFileParser's constructor: "xof ", a version, the format, the float size in bits.
  if (bytes.size() < 16 || bytes.substr(0, 4) != "xof ") return {};  // assimp refuses it
  const std::string_view format = bytes.substr(8, 4);
  const bool compressed = format == "tzip" || format == "bzip";
  const bool binary = format == "bin " || format == "bzip";
  if (!compressed && !binary && format != "txt ") return {};
  uint32_t bits = 0;
  for (std::size_t i = 12; i < 16; ++i)
    bits = bits * 10 + static_cast<uint32_t>(static_cast<signed char>(bytes[i]) - 48);
  if (bits != 32 && bits != 64) return {};
  if (!compressed) {
    std::size_t start = 16;  // then the rest of the header line, in a text file
    if (!binary) {
      while (start < bytes.size() && bytes[start] != '\n' && bytes[start] != '\r') ++start;
      if (start < bytes.size()) ++start;
    }
    return XWalk(bytes, binary, bits / 8, start, false).run();
  }
  std::string inflated, error;
  if (!inflate_mszip(bytes, inflated, error)) return error;
  return XWalk(inflated, binary, bits / 8, 0, true).run();
}

}  // namespace sv
