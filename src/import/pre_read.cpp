// Checks made on a file before assimp reads it (see pre_read.h for which, and why each is kept).
#include "import/pre_read.h"

#include <assimp/version.h>
#include <assimp/Importer.hpp>

#include <zlib.h>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "import/text_checks.h"
#include "io/import.h"

namespace sv {
namespace {

constexpr std::size_t kHeadBytes = 4096;

// minutes (or all memory) on a header that claims billions (invalid/OutOfMemory.off). Each
// vertex or face needs at least two bytes of text, so a claim beyond the file size is refused.
// `head` is the start of the file (the header is in the first few hundred bytes).
std::string check_off_header(std::string_view head, uint64_t size) {
  std::istringstream in{std::string(head)};
  std::string word;
  double counts[2] = {0, 0};
  int found = 0;
  // Skip the magic ("OFF", "COFF", "NOFF", "STOFF", ...) and comments; read two numbers.
  while (found < 2 && in >> word) {
    if (word[0] == '#') {
      std::string rest;
      std::getline(in, rest);
      continue;
    }
    char* end = nullptr;
    const double v = std::strtod(word.c_str(), &end);
    if (end == word.c_str()) {
      if (found > 0) break;
      continue;
    }
    counts[found++] = v;
  }
  if (found < 2) return {};
  const double budget = static_cast<double>(size) / 2.0;
  if (!(counts[0] <= budget && counts[1] <= budget && counts[0] >= 0 && counts[1] >= 0))
    return "OFF header declares " + std::to_string(static_cast<long long>(counts[0])) +
           " vertices and " + std::to_string(static_cast<long long>(counts[1])) +
           " faces, more than the file's " + std::to_string(size) + " bytes can hold";
  return {};
}

// Random access to the bytes of a Source: the buffer, or one open stream on the file.
class ByteReader {
 public:
  explicit ByteReader(const Source& src) : src_(src) {
    if (!src.in_memory()) file_.open(src.name, std::ios::binary);
  }
  // Reads exactly n bytes at `offset`; false past the end or on a read error.
  bool read(uint64_t offset, void* out, std::size_t n) {
    if (offset > src_.size || n > src_.size - offset) return false;
    if (n == 0) return true;  // `out` may be an empty vector's null data()
    if (src_.in_memory()) {
      std::memcpy(out, src_.bytes.data() + offset, n);
      return true;
    }
    file_.seekg(static_cast<std::streamoff>(offset));
    file_.read(static_cast<char*>(out), static_cast<std::streamsize>(n));
    return static_cast<std::size_t>(file_.gcount()) == n;
  }
  template <class T>
  bool read_le(uint64_t offset, T& out) {  // little-endian (every supported host is)
    return read(offset, &out, sizeof out);
  }

 private:
  const Source& src_;
  std::ifstream file_;
};

// Whether the FBX record whose name starts at `at` is an animation curve's "KeyValueFloat".
bool is_key_values(ByteReader& in, uint64_t at, uint8_t name_len) {
  static constexpr char kName[] = "KeyValueFloat";
  char name[sizeof kName - 1];
  return name_len == sizeof name && in.read(at, name, sizeof name) &&
         std::memcmp(name, kName, sizeof name) == 0;
}

// Animation curve values: assimp 5.2.5 adds intermediate rotation keys for every 180 degrees
// between two keys, so one corrupt value of 1e30 degrees makes it generate keys until memory
// runs out (24 GB and the OOM killer, for a 110 KB file). Values must be finite and within
// +-1e6 (degrees, or centimetres for translations: 10 km). The `len` stored bytes at `at` lie
// inside their record (the caller checks); they are read and inflated in 64 KiB pieces, so a
// count that claims gigabytes costs no more memory than a small one.
std::string check_key_values(ByteReader& in, uint64_t at, char type, uint32_t count,
                             uint32_t encoding, uint32_t len) {
  constexpr double kLimit = 1e6;
  constexpr std::size_t kPiece = std::size_t{1} << 16;  // a multiple of 4 and 8
  const std::size_t elem = type == 'f' ? 4 : 8;
  const uint64_t want = elem * uint64_t{count};
  uint64_t checked = 0;  // bytes of values checked so far
  // Checks the whole values in `bytes`; returns how many bytes it used.
  std::string error;
  auto check = [&](const unsigned char* bytes, std::size_t n) {
    const std::size_t whole = n / elem * elem;
    for (std::size_t i = 0; i < whole && error.empty(); i += elem) {
      double v = 0.0;
      if (type == 'f') {
        float f = 0.0f;
        std::memcpy(&f, bytes + i, 4);
        v = f;
      } else {
        std::memcpy(&v, bytes + i, 8);
      }
      if (!(std::abs(v) <= kLimit))
        error = "binary FBX animation curve value " + std::to_string(v) + " is out of range";
    }
    checked += whole;
    return whole;
  };
  std::vector<unsigned char> raw(kPiece), values(kPiece);
  if (encoding == 0) {
    if (want > len) return {};
    for (uint64_t off = 0; off < want && error.empty();) {
      const std::size_t n = static_cast<std::size_t>(std::min<uint64_t>(kPiece, want - off));
      if (!in.read(at + off, raw.data(), n)) return {};
      check(raw.data(), n);
      off += n;
    }
    return error;
  }
  if (encoding != 1) return {};
  z_stream z{};
  if (::inflateInit(&z) != Z_OK) return {};
  uint64_t consumed = 0;
  std::size_t have = 0;  // bytes of values waiting in `values` (less than one element)
  int rc = Z_OK;
  while (rc == Z_OK && error.empty()) {
    if (z.avail_in == 0 && consumed < len) {
      const std::size_t n = static_cast<std::size_t>(std::min<uint64_t>(kPiece, len - consumed));
      if (!in.read(at + consumed, raw.data(), n)) break;
      consumed += n;
      z.next_in = raw.data();
      z.avail_in = static_cast<uInt>(n);
    }
    z.next_out = values.data() + have;
    z.avail_out = static_cast<uInt>(kPiece - have);
    rc = ::inflate(&z, Z_NO_FLUSH);
    if (rc != Z_OK && rc != Z_STREAM_END) break;  // assimp reports a broken array itself
    const std::size_t filled = kPiece - z.avail_out;
    if (checked + filled > want) break;  // more values than declared: assimp reports it
    const std::size_t used = check(values.data(), filled);
    have = filled - used;
    std::memmove(values.data(), values.data() + used, have);
    if (rc == Z_OK && z.avail_in == 0 && consumed == len && z.avail_out != 0) break;  // truncated
  }
  ::inflateEnd(&z);
  return error;
}

// Binary FBX: every array property declares its element count, and assimp 5.2.5 allocates
// count * element size before it inflates or copies the data (a flipped byte asks for
// gigabytes). Each array must fit the bytes it has: stored plainly, exactly; deflated, at most
// deflate's 1032:1 ratio. Walks the record tree without reading the data; a structure it cannot
// follow is left to assimp, which rejects it.
std::string check_fbx_arrays(const Source& src) {
  static constexpr char kMagic[] = "Kaydara FBX Binary  ";
  ByteReader in(src);
  char magic[sizeof kMagic - 1];
  if (!in.read(0, magic, sizeof magic) || std::memcmp(magic, kMagic, sizeof magic) != 0) return {};
  uint32_t version = 0;
  if (!in.read_le(23, version)) return "binary FBX header is truncated";
  const bool wide = version >= 7500;  // 64-bit record offsets
  const uint64_t header = wide ? 25 : 13;
  struct Range {
    uint64_t begin, end;
  };
  std::vector<Range> stack{{27, src.size}};
  uint64_t arrays = 0;
  while (!stack.empty()) {
    const Range r = stack.back();
    stack.pop_back();
    for (uint64_t pos = r.begin; pos + header <= r.end;) {
      uint64_t end = 0, props = 0, props_len = 0;
      uint8_t name_len = 0;
      if (wide) {
        if (!in.read_le(pos, end) || !in.read_le(pos + 8, props) ||
            !in.read_le(pos + 16, props_len))
          return {};
      } else {
        uint32_t e = 0, n = 0, l = 0;
        if (!in.read_le(pos, e) || !in.read_le(pos + 4, n) || !in.read_le(pos + 8, l)) return {};
        end = e, props = n, props_len = l;
      }
      if (end == 0) break;  // the null record closing this list
      if (end <= pos || end > r.end || !in.read_le(pos + header - 1, name_len)) return {};
      uint64_t p = pos + header + name_len;
      const uint64_t props_end = p + props_len;
      if (props_end > end) return {};
      for (uint64_t k = 0; k < props && p < props_end; ++k) {
        char type = 0;
        if (!in.read_le(p, type)) return {};
        ++p;
        uint32_t len = 0;
        switch (type) {
          case 'C':
            p += 1;
            break;
          case 'Y':
            p += 2;
            break;
          case 'I':
          case 'F':
            p += 4;
            break;
          case 'D':
          case 'L':
            p += 8;
            break;
          case 'S':
          case 'R':
            if (!in.read_le(p, len)) return {};
            p += 4 + uint64_t{len};
            break;
          case 'b':
          case 'i':
          case 'f':
          case 'd':
          case 'l': {
            uint32_t count = 0, encoding = 0;
            if (!in.read_le(p, count) || !in.read_le(p + 4, encoding) || !in.read_le(p + 8, len))
              return {};
            const uint64_t elem = type == 'b' ? 1 : (type == 'i' || type == 'f') ? 4 : 8;
            const uint64_t bytes = elem * count;
            if ((encoding == 0 && bytes > len) ||
                (encoding == 1 && bytes > 1032 * uint64_t{len} + 1024))
              return "binary FBX array " + std::to_string(arrays) + " declares " +
                     std::to_string(count) + " elements in " + std::to_string(len) + " bytes";
            ++arrays;
            // Stored bytes past the record: a structure this walk cannot follow (assimp
            // rejects it); checked before the curve check below reads them.
            if (p + 12 + uint64_t{len} > props_end) return {};
            if ((type == 'f' || type == 'd') && is_key_values(in, pos + header, name_len))
              if (std::string e = check_key_values(in, p + 12, type, count, encoding, len);
                  !e.empty())
                return e;
            p += 12 + uint64_t{len};
            break;
          }
          default:
            return {};
        }
      }
      if (props_end < end) stack.push_back({props_end, end});
      pos = end;
    }
  }
  return {};
}

// MD5: from disk assimp reads FILE.md5mesh and then FILE.md5anim beside it (both named from the
// path up to its last dot, whatever the extension that brought assimp there), or FILE.md5anim
// alone; from memory its reader hands the same bytes to both. Each text assimp will read is
// checked (text_checks.h).
std::string check_md5_part(const std::string& path, const std::string& label) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) return {};  // assimp skips what it cannot open
  Source file;
  file.name = path;
  file.size = std::filesystem::file_size(path, ec);
  if (ec || file.size == 0) return {};
  if (file.size > kMaxFileBytes)
    return label + std::to_string(file.size) + " bytes, more than the limit of " +
           std::to_string(kMaxFileBytes);
  const std::string text = read_at(file, 0, static_cast<std::size_t>(file.size));
  if (text.size() != file.size) return {};  // unreadable: assimp cannot open it either
  if (std::string e = check_md5_text(text); !e.empty()) return label + e;
  return {};
}

bool is_md5(const Source& src) {
  if (src.ext == ".md5mesh" || src.ext == ".md5anim" || src.ext == ".md5camera") return true;
  // A file whose extension assimp does not know is matched by content: "MD5Version" in its
  // first 200 bytes makes it an MD5 file.
  std::string head = read_at(src, 0, 200);
  for (char& c : head) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (head.find("md5version") == std::string::npos) return false;
  return src.ext.empty() || !Assimp::Importer().IsExtensionSupported(src.ext.c_str());
}

std::string check_md5_files(const Source& src) {
  if (!is_md5(src)) return {};
  if (src.in_memory()) return check_md5_text(read_at(src, 0, static_cast<std::size_t>(src.size)));
  const std::size_t dot = src.name.find_last_of('.');
  const std::string stem = dot == std::string::npos ? src.name : src.name.substr(0, dot + 1);
  if (src.ext != ".md5anim")
    if (std::string e = check_md5_part(stem + "md5mesh",
                                       stem + "md5mesh" == src.name ? "" : stem + "md5mesh: ");
        !e.empty())
      return e;
  return check_md5_part(stem + "md5anim",
                        stem + "md5anim" == src.name ? "" : stem + "md5anim (read with it): ");
}

}  // namespace

bool assimp_is_checked_version() noexcept {
  // Debian's 5.2.5 package reports 5.2.4: the 5.2.5 release did not raise its version numbers.
  return aiGetVersionMajor() == 5 && aiGetVersionMinor() == 2 &&
         (aiGetVersionPatch() == 4 || aiGetVersionPatch() == 5);
}

std::string pre_read_check(const Source& src) {
  // Format checks: true of the format whatever reads it.
  if (src.ext == ".off")
    if (std::string e = check_off_header(read_at(src, 0, kHeadBytes), src.size); !e.empty())
      return e;
  if (src.ext == ".md5camera") return "MD5 camera files hold no model";
  // Mirrors of assimp 5.2.5's readers.
  if (!assimp_is_checked_version()) return {};
  if (std::string e = check_md5_files(src); !e.empty()) return e;
  if (src.ext == ".smd" || src.ext == ".vta")
    if (std::string e = check_smd_text(read_at(src, 0, static_cast<std::size_t>(src.size)));
        !e.empty())
      return e;
  return check_fbx_arrays(src);
}

}  // namespace sv
