// Pre-read checks for the two text formats whose assimp 5.2.5 readers trust their input most:
// id Software's MD5 (.md5mesh, .md5anim) and Valve's SMD. Each check follows the text the way
// assimp's own parser walks it -- the same whitespace, the same number readers, the same pointer
// steps -- and refuses the file where that walk would leave the buffer, loop forever, or size an
// array by a count the file cannot back. What assimp 5.2.5 does wrong, found by fuzzing and by
// reading its sources (code/AssetLib/MD5/MD5Parser.cpp, MD5Loader.cpp, SMD/SMDLoader.cpp) and
// the Debian binary:
//
//   MD5 section reader  the line after "MD5Version 10" is read up to and one past its line end,
//                       and a value after a section name ("numJoints 3") one past the blank
//                       that ends it: at the end of the file both step past the terminating
//                       NUL. A form feed where a section starts is never consumed: it adds
//                       sections forever (3 GB and counting).
//   MD5 element reader  "(" and ")" of a vector are stepped over whatever they are, the line's
//                       NUL included; a quoted name is searched for its quotes with no regard
//                       for the line or the buffer end (the over-read the fuzzer found: a
//                       "shader" line without quotes in the file's last mesh), and copied into
//                       a 1,024-byte aiString without a length check (a heap overflow).
//                       A number of 20 digits or more is read without moving on: a frame line
//                       holding one loops forever, pushing values.
//   MD5 loader          arrays are sized by the declared counts and the largest index; a
//                       vertex that no triangle uses while others are shared makes
//                       MakeDataUnique write past its vertex array; a weight "guess" of
//                       weights/vertices x 3 x triangles is reserved; an anim channel reads up
//                       to six values past its frame's end; hierarchies recurse one level per
//                       joint; .md5camera cut lists index the frames unchecked.
//   SMD vertex reader   a vertex line's bone-link count resizes the vertex's link array before
//                       one link is read ("4294967295" links: 34 GB in one allocation).
#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "import/text_checks.h"

#include "import/text_walk.h"

#include "io/import.h"

namespace sv {
namespace {

using namespace text_walk;

// NUL, vertical tab and form feed: assimp's readers treat NUL and form feed as line ends in some
// loops and not in others (NUL: the SMD reader never returns; form feed: the MD5 section reader
// never returns), and the line checks here would split on a vertical tab where assimp does not.
std::string check_control_bytes(std::string_view text, const char* format) {
  const std::size_t at = text.find_first_of(std::string_view("\0\v\f", 3));
  if (at == std::string_view::npos) return {};
  const char* what = text[at] == '\0'   ? "a NUL byte"
                     : text[at] == '\v' ? "a vertical tab"
                                        : "a form feed";
  const auto line =
      1 + std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(at), '\n');
  return std::string(format) + " text holds " + what + " on line " + std::to_string(line);
}

// ---------------------------------------------------------------------------------------------
// MD5

std::string at_line(const Walk& w, std::size_t p) {
  return "MD5 line " + std::to_string(w.line_of(p));
}

struct Md5Element {
  std::size_t start = 0;  // first byte; the element ends at the next NUL
  std::size_t nul = 0;    // its terminating NUL
};
struct Md5Section {
  std::string name;
  std::string value;  // the global value, as assimp keeps it (its terminator included)
  std::vector<Md5Element> elements;
};

// CommentRemover::RemoveLineComments("//", buffer, ' ') as built into libassimp 5.2.5: quotes
// (single or double) skip to the next quote of either kind, anywhere in the file.
void remove_md5_comments(std::string& b, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) {
    if (b[i] == '"' || b[i] == '\'')
      while (++i < n && b[i] != '"' && b[i] != '\'') {
      }
    if (n - i < 2) break;
    if (b[i] == '/' && b[i + 1] == '/')
      while (i < n && !is_line_end(b[i])) b[i++] = ' ';
  }
}

// MD5Parser's constructor (ParseHeader, then ParseSection until it returns false) on w.buf,
// which it modifies as assimp does (line ends inside sections become NULs).
std::string split_md5(Walk& w, std::vector<Md5Section>& sections) {
  std::size_t p = 0;
  w.skip_spaces(p);
  if (!w.token_match(p, "MD5Version")) return "not an MD5 file (no MD5Version)";
  w.skip_spaces(p);
  if (w.strtoul10(p) != 10) return "MD5 version is not 10";
  w.skip_line(p);
  // "print the command line": `while (!IsLineEnd(*buffer++));` with no end check: a line end
  // that is the terminating NUL is stepped over.
  while (!is_line_end(w.at(p))) ++p;
  if (p >= w.end)
    return "the line after MD5Version has no line end (assimp 5.2.5 reads past the file)";
  ++p;
  w.skip_spaces_and_line_end(p);
  for (;;) {
    const std::size_t section_start = p;
    Md5Section s;
    const std::size_t name = p;
    while (!is_space_or_newline(w.at(p))) ++p;
    s.name = w.buf.substr(name, p - name);
    w.skip_spaces(p);
    bool more = true;
    for (;;) {
      if (w.at(p) == '{') {
        ++p;
        for (;;) {
          if (!w.skip_spaces_and_line_end(p)) {
            more = false;
            break;
          }
          if (w.at(p) == '}') {
            ++p;
            break;
          }
          Md5Element e;
          e.start = p;
          while (!is_line_end(w.at(p))) ++p;
          e.nul = p;
          if (w.at(p) != '\0') w.buf[p++] = '\0';
          s.elements.push_back(e);
        }
        break;
      }
      if (!is_space_or_newline(w.at(p))) {
        // `while (!IsSpaceOrNewLine(*buffer++));`: one past the blank that ends the value. A
        // section's values run on over the next lines until a blank one: "numJoints 2\n
        // numMeshes 1\n\n" is one section, "numJoints", whose value ends up "1".
        const std::size_t v = p;
        while (!is_space_or_newline(w.at(p))) ++p;
        if (p >= w.end) return at_line(w, v) + ": a value ends the file (no line end after it)";
        s.value = w.buf.substr(v, ++p - v);
        continue;
      }
      break;
    }
    sections.push_back(std::move(s));
    if (!more || !w.skip_spaces_and_line_end(p)) break;
    if (p == section_start) return at_line(w, p) + ": the MD5 section reader stops advancing";
  }
  return {};
}

// One element as MD5MeshParser / MD5AnimParser read it: every step must stay inside the
// element (a step over its NUL reads the next line, or past the file after the last one).
struct Md5Line {
  const Walk& w;
  const Md5Element& e;
  std::size_t p;
  std::string error;
  Md5Line(const Walk& walk, const Md5Element& element) : w(walk), e(element), p(element.start) {}

  bool fail(const std::string& why) {
    if (error.empty()) error = at_line(w, e.start) + ": " + why;
    return false;
  }
  void skip() { w.skip_spaces(p); }
  // `if ('(' != *sz++)`: assimp only warns on another character, but steps over it.
  bool expect(char c) {
    skip();
    if (p >= e.nul) return fail(std::string("the line ends where '") + c + "' should be");
    if (w.at(p) != c) return fail(std::string("'") + c + "' expected");
    ++p;
    return true;
  }
  bool number() {
    skip();
    bool stuck = false;
    if (p >= e.nul || !w.atof(p, &stuck)) return fail("a number expected");
    if (stuck) return fail("a number of 20 digits or more");
    return true;
  }
  bool triple() { return expect('(') && number() && number() && number() && expect(')'); }
  uint32_t uint() {
    skip();
    return w.strtoul10(p);
  }
  int32_t sint() {
    skip();
    return w.strtol10(p);
  }
  // AI_MD5_PARSE_STRING_IN_QUOTATION: both quotes searched for without an end; the text
  // between them memcpy'd into an aiString (1,024 bytes) without a length check.
  bool quoted() {
    const std::size_t open = w.buf.find('"', p);
    if (open == std::string::npos || open >= e.nul) return fail("a quoted name expected");
    const std::size_t close = w.buf.find('"', open + 1);
    if (close == std::string::npos || close >= e.nul)
      return fail("a name without its closing quote");
    if (close - open - 1 >= 1024) return fail("a name of 1,024 bytes or more");
    p = close + 1;
    return true;
  }
};

// Count bounds: what the importer's limits allow, and what a file of `size` bytes can hold at
// `min_bytes` per item.
bool beyond(uint64_t count, uint64_t limit, uint64_t size, uint64_t min_bytes) {
  return count > limit || count > size / min_bytes + 1;
}

struct Md5Counts {
  std::string error;
  void check(uint64_t count, uint64_t limit, uint64_t size, uint64_t min_bytes,
             const std::string& where, const char* name) {
    if (error.empty() && beyond(count, limit, size, min_bytes))
      error = where + " section '" + name + "' declares " + std::to_string(count) +
              ", more than the file can hold (or above the importer's limit of " +
              std::to_string(limit) + ")";
  }
};

std::size_t hierarchy_depth(const std::vector<int32_t>& parents) {
  std::vector<std::size_t> depth(parents.size(), 1);
  std::size_t deepest = 0;
  for (std::size_t j = 0; j < parents.size(); ++j) {
    if (parents[j] >= 0) depth[j] = depth[static_cast<std::size_t>(parents[j])] + 1;
    deepest = std::max(deepest, depth[j]);
  }
  return deepest;
}

// The .md5mesh side: MD5MeshParser, then what LoadMD5MeshFile does with it.
std::string check_md5_mesh_sections(const Walk& w, const std::vector<Md5Section>& sections,
                                    uint64_t size) {
  constexpr uint64_t kMaxIndex = kMaxVerticesPerMesh;
  std::vector<int32_t> parents;
  std::size_t mesh_index = 0;
  uint64_t declared = 0;  // vertices, triangles and weights assimp sizes its arrays to, all meshes
  Md5Counts counts;
  for (const Md5Section& s : sections) {
    std::size_t q = 0;
    if (s.name == "numMeshes" || s.name == "numJoints") {
      Walk v(s.value);
      const uint32_t n = v.strtoul10(q);
      if (s.name == "numMeshes")
        counts.check(n, kMaxMeshes, size, 8, "MD5", "numMeshes");
      else
        counts.check(n, kMaxJoints, size, 8, "MD5", "numJoints");
    } else if (s.name == "joints") {
      // "NAME" PARENT ( X Y Z ) ( QX QY QZ )
      for (const Md5Element& e : s.elements) {
        Md5Line l(w, e);
        if (!l.quoted()) return l.error;
        const int32_t parent = l.sint();
        if (!l.triple() || !l.triple()) return l.error;
        if (parent < -1 || parent >= static_cast<int32_t>(parents.size()))
          return at_line(w, e.start) + ": joint " + std::to_string(parents.size()) +
                 " names parent " + std::to_string(parent) + ", not an earlier joint";
        parents.push_back(parent);
      }
    } else if (s.name == "mesh") {
      const std::string mesh = "MD5 mesh " + std::to_string(mesh_index++);
      struct Vert {
        uint32_t first = 0, count = 0;
        bool given = false;
      };
      std::vector<Vert> verts;
      std::vector<std::array<uint32_t, 3>> tris;
      std::vector<uint8_t> tri_given;
      std::vector<int64_t> weight_joint;  // -1: not given
      // assimp resizes its arrays to each count and index it reads: all of them together must
      // fit in the file (a vertex, triangle or weight line takes 8 bytes or more).
      auto grow = [&](auto& v, uint64_t n, auto fill) {
        if (n <= v.size()) return true;
        declared += n - v.size();
        if (declared > size / 8 + 16) return false;
        v.resize(static_cast<std::size_t>(n), fill);
        return true;
      };
      const std::string too_many =
          mesh + " declares more vertices, triangles and weights than the file can hold";
      for (const Md5Element& e : s.elements) {
        Md5Line l(w, e);
        std::size_t& p = l.p;
        const std::string where = at_line(w, e.start);
        if (w.token_match(p, "shader")) {
          l.skip();
          if (!l.quoted()) return l.error;
        } else if (w.token_match(p, "numverts") || w.token_match(p, "numtris") ||
                   w.token_match(p, "numweights")) {
          const char kind = w.at(e.start + 3);  // numVerts / numTris / numWeights
          const uint32_t n = l.uint();
          if (n >= kMaxIndex)
            return where + ": count " + std::to_string(n) + " is beyond any real mesh";
          const bool fits = kind == 'v'   ? grow(verts, n, Vert{})
                            : kind == 't' ? grow(tris, n, std::array<uint32_t, 3>{})
                                          : grow(weight_joint, n, int64_t{-1});
          if (!fits) return too_many;
          tri_given.resize(tris.size(), 0);
        } else if (w.token_match(p, "vert")) {
          // vert INDEX ( S T ) FIRST COUNT
          const uint32_t i = l.uint();
          if (i >= kMaxIndex)
            return where + ": vertex index " + std::to_string(i) + " is beyond any real mesh";
          if (!l.expect('(') || !l.number() || !l.number() || !l.expect(')')) return l.error;
          if (!grow(verts, uint64_t{i} + 1, Vert{})) return too_many;
          verts[i].first = l.uint();
          verts[i].count = l.uint();
          verts[i].given = true;
        } else if (w.token_match(p, "tri")) {
          // tri INDEX A B C
          const uint32_t i = l.uint();
          if (i >= kMaxIndex)
            return where + ": triangle index " + std::to_string(i) + " is beyond any real mesh";
          if (!grow(tris, uint64_t{i} + 1, std::array<uint32_t, 3>{})) return too_many;
          tri_given.resize(tris.size(), 0);
          for (uint32_t& v : tris[i]) v = l.uint();
          tri_given[i] = 1;
        } else if (w.token_match(p, "weight")) {
          // weight INDEX JOINT BIAS ( X Y Z )
          const uint32_t i = l.uint();
          if (i >= kMaxIndex)
            return where + ": weight index " + std::to_string(i) + " is beyond any real mesh";
          if (!grow(weight_joint, uint64_t{i} + 1, int64_t{-1})) return too_many;
          weight_joint[i] = l.uint();
          if (!l.number() || !l.triple()) return l.error;
        }
      }
      // What LoadMD5MeshFile does with a mesh that has triangles and vertices.
      if (tris.empty() || verts.empty()) continue;
      const uint64_t T = tris.size(), V = verts.size(), W = weight_joint.size();
      for (uint64_t i = 0; i < T; ++i)
        if (!tri_given[i])
          return mesh + ": triangle " + std::to_string(i) + " is declared but never given";
      for (uint64_t i = 0; i < V; ++i)
        if (!verts[i].given)
          return mesh + ": vertex " + std::to_string(i) + " is declared but never given";
      for (uint64_t i = 0; i < W; ++i)
        if (weight_joint[i] < 0)
          return mesh + ": weight " + std::to_string(i) + " is declared but never given";
      std::vector<uint8_t> used(static_cast<std::size_t>(V), 0);
      uint64_t reused = 0, distinct = 0, weights_out = 0;
      for (const auto& t : tris)
        for (uint32_t v : t) {
          if (v >= V)
            return mesh + ": a triangle names vertex " + std::to_string(v) + " of " +
                   std::to_string(V);
          if (used[v])
            ++reused;
          else
            ++distinct;
          used[v] = 1;
          weights_out += verts[v].count;
        }
      // MakeDataUnique: copies of shared vertices go after the old ones, into an array resized
      // to 3 x triangles: with an unused vertex, the last copies land past its end.
      if (reused > 0 && distinct < V)
        return mesh + ": " + std::to_string(V - distinct) +
               " vertices no triangle uses (assimp 5.2.5 then writes past its vertex array)";
      for (const Vert& v : verts)
        if (uint64_t{v.first} + v.count > W)
          return mesh + ": a vertex uses weights " + std::to_string(v.first) + ".." +
                 std::to_string(uint64_t{v.first} + v.count) + " of " + std::to_string(W);
      for (uint64_t i = 0; i < W; ++i)
        if (static_cast<uint64_t>(weight_joint[i]) >= parents.size())
          return mesh + ": weight " + std::to_string(i) + " names joint " +
                 std::to_string(weight_joint[i]) + " of " + std::to_string(parents.size());
      const uint64_t corners = 3 * T;
      const uint64_t weight_limit = kMaxWeightsPerVertex * corners + 65536;
      const double guess = static_cast<double>(static_cast<float>(W) / static_cast<float>(V)) *
                           static_cast<double>(corners);
      if (corners > kMaxVerticesPerMesh || weights_out > weight_limit ||
          guess * 1.125 > static_cast<double>(weight_limit))
        return mesh + ": " + std::to_string(T) + " triangles over " + std::to_string(V) +
               " vertices with " + std::to_string(W) +
               " weights need more weights than the importer's limit (64 per vertex)";
    }
  }
  if (!counts.error.empty()) return counts.error;
  if (parents.size() > kMaxJoints)
    return "MD5 mesh has " + std::to_string(parents.size()) + " joints, above the limit of " +
           std::to_string(kMaxJoints);
  if (hierarchy_depth(parents) > kMaxNodeDepth)
    return "MD5 joint hierarchy deeper than the limit of " + std::to_string(kMaxNodeDepth);
  return {};
}

// The .md5anim side: MD5AnimParser, then what LoadMD5AnimFile does with it.
std::string check_md5_anim_sections(const Walk& w, const std::vector<Md5Section>& sections,
                                    uint64_t size) {
  struct Bone {
    int32_t parent;
    uint32_t flags, first;
  };
  std::vector<Bone> bones;
  std::size_t baseframes = 0;
  std::vector<uint64_t> frame_values;  // per frame section with an index
  uint64_t num_joints = 0;
  Md5Counts counts;
  for (const Md5Section& s : sections) {
    std::size_t q = 0;
    Walk v(s.value);
    if (s.name == "hierarchy") {
      // "NAME" PARENT FLAGS FIRST
      for (const Md5Element& e : s.elements) {
        Md5Line l(w, e);
        if (!l.quoted()) return l.error;
        const int32_t parent = l.sint();
        const uint32_t flags = l.uint();
        const uint32_t first = l.uint();
        if (parent < -1 || parent >= static_cast<int32_t>(bones.size()))
          return at_line(w, e.start) + ": joint " + std::to_string(bones.size()) +
                 " names parent " + std::to_string(parent) + ", not an earlier joint";
        bones.push_back({parent, flags, first});
      }
    } else if (s.name == "baseframe") {
      for (const Md5Element& e : s.elements) {
        Md5Line l(w, e);
        if (!l.triple() || !l.triple()) return l.error;
        ++baseframes;
      }
    } else if (s.name == "frame") {
      if (s.value.empty()) continue;  // assimp skips a frame without an index
      uint64_t values = 0;
      for (const Md5Element& e : s.elements) {
        std::size_t p = e.start;
        // `while (SkipSpacesAndLineEnd(&sz)) { sz = fast_atoreal_move(sz, f); push_back }`
        while (w.skip_spaces_and_line_end(p)) {
          bool stuck = false;
          if (!w.atof(p, &stuck)) return at_line(w, e.start) + ": a frame value is not a number";
          if (stuck)
            return at_line(w, e.start) +
                   ": a frame value of 20 digits or more (assimp 5.2.5 never returns)";
          ++values;
        }
      }
      frame_values.push_back(values);
    } else if (s.name == "numFrames") {
      counts.check(v.strtoul10(q), kMaxKeysPerTrack, size, 8, "MD5", "numFrames");
    } else if (s.name == "numJoints") {
      num_joints = v.strtoul10(q);
      counts.check(num_joints, kMaxJoints, size, 8, "MD5", "numJoints");
    } else if (s.name == "numAnimatedComponents") {
      // assimp 5.2.5 reserves this many joints (not floats).
      counts.check(v.strtoul10(q), 6 * kMaxJoints, size, 2, "MD5", "numAnimatedComponents");
    }
  }
  if (!counts.error.empty()) return counts.error;
  const uint64_t frames = frame_values.size();
  // Each frame section reserves 6 floats per declared joint.
  if (num_joints * frames > kMaxKeysTotal)
    return "MD5 anim: " + std::to_string(frames) + " frames of " + std::to_string(num_joints) +
           " joints, above the limit of " + std::to_string(kMaxKeysTotal) + " keys";
  if (bones.empty() || frames == 0 || baseframes != bones.size()) return {};  // assimp: no anim
  if (bones.size() > kMaxJoints || frames > kMaxKeysPerTrack ||
      bones.size() * frames > kMaxKeysTotal)
    return "MD5 anim: " + std::to_string(frames) + " frames of " + std::to_string(bones.size()) +
           " joints, above the importer's key limits";
  for (std::size_t f = 0; f < frame_values.size(); ++f) {
    if (frame_values[f] == 0 && f != 0) continue;  // assimp skips empty frames but the first
    for (std::size_t b = 0; b < bones.size(); ++b) {
      const uint64_t need = static_cast<uint64_t>(std::popcount(bones[b].flags & 63u));
      if (bones[b].first < frame_values[f] && bones[b].first + need > frame_values[f])
        return "MD5 anim: joint " + std::to_string(b) + " reads values " +
               std::to_string(bones[b].first) + ".." + std::to_string(bones[b].first + need) +
               " of frame " + std::to_string(f) + ", which has " + std::to_string(frame_values[f]);
    }
  }
  std::vector<int32_t> parents;
  for (const Bone& b : bones) parents.push_back(b.parent);
  if (hierarchy_depth(parents) > kMaxNodeDepth)
    return "MD5 anim hierarchy deeper than the limit of " + std::to_string(kMaxNodeDepth);
  return {};
}

}  // namespace

std::string check_md5_text(std::string_view text, Md5Part part) {
  if (std::string e = check_control_bytes(text, "MD5"); !e.empty()) return e;
  // assimp builds a fresh buffer, removes comments and splits it for each file it reads.
  Walk w(text);
  remove_md5_comments(w.buf, w.end);
  std::vector<Md5Section> sections;
  if (std::string e = split_md5(w, sections); !e.empty()) return e;
  if (part != Md5Part::Anim)
    if (std::string e = check_md5_mesh_sections(w, sections, text.size()); !e.empty()) return e;
  if (part != Md5Part::Mesh)
    if (std::string e = check_md5_anim_sections(w, sections, text.size()); !e.empty()) return e;
  return {};
}

// ---------------------------------------------------------------------------------------------
// SMD

namespace {

// Valve SMD: assimp 5.2.5's parser loops forever on a line at the top level that is not a
// section keyword (a "triangles" line damaged into "versiones" was enough). Outside the
// sections ("nodes", "skeleton", "triangles", "vertexanimation" ... "end") only "version N",
// blank lines and // comments may appear. Its "nodes" section ends only at an "end" line: at
// the end of the file it loops forever, and an "end" that is the file's last three bytes is
// stepped over together with the buffer's terminating NUL (heap over-read).
std::string check_smd_sections(std::string_view text) {
  std::istringstream lines{std::string(text)};
  std::string line;
  bool in_section = false, in_nodes = false;
  std::size_t next_line = 0;  // offset of the line after the current one in `text`
  for (std::size_t n = 1; std::getline(lines, line); ++n) {
    const std::size_t line_start = next_line;
    next_line += line.size() + 1;
    std::istringstream words(line);
    std::string key;
    if (!(words >> key) || key.rfind("//", 0) == 0) continue;
    if (in_nodes && key == "end" && line_start + line.find("end") + 3 >= text.size())
      return "SMD nodes section's \"end\" is the last byte of the file (no line end after it)";
    if (std::count(line.begin(), line.end(), '"') % 2 != 0)
      return "SMD line " + std::to_string(n) + " has an unterminated string";
    if (in_section) {
      in_section = key != "end";
      // nodes: INDEX "NAME" PARENT
      if (in_section && in_nodes &&
          (line.find('"') == std::string::npos ||
           key.find_first_not_of("-0123456789") != std::string::npos))
        return "SMD line " + std::to_string(n) + " is not a node (INDEX \"NAME\" PARENT)";
      // assimp sizes its bone array by the largest node index (an overflowing one: 480 GB).
      if (in_section && in_nodes &&
          (key.size() > 7 || std::strtoll(key.c_str(), nullptr, 10) >= int64_t{kMaxJoints}))
        return "SMD line " + std::to_string(n) + " names node " + key.substr(0, 32) +
               ", above the limit of " + std::to_string(kMaxJoints) + " joints";
      in_nodes = in_nodes && in_section;
    } else if (key == "nodes" || key == "skeleton" || key == "triangles" ||
               key == "vertexanimation") {
      in_section = true;
      in_nodes = key == "nodes";
    } else if (key != "version") {
      return "SMD line " + std::to_string(n) + " is outside every section ('" + key.substr(0, 32) +
             "')";
    }
  }
  if (in_nodes) return "SMD nodes section has no \"end\" line";
  return {};
}

// SMDImporter::ParseTrianglesSection from `p` (just after the "triangles" keyword): texture
// lines and vertex lines, each vertex's bone-link count checked against the line that holds it
// before assimp resizes the link array to it.
std::string check_smd_triangles(const Walk& w, std::size_t p) {
  auto where = [&](std::size_t q) { return "SMD line " + std::to_string(w.line_of(q)); };
  for (;;) {
    if (!w.skip_spaces_and_line_end(p)) return {};
    if (w.token_match(p, "end")) return {};
    w.skip_spaces(p);
    while (!is_space_or_newline(w.at(++p))) {
    }  // the texture name
    w.skip_spaces_and_line_end(p);
    for (int vertex = 0; vertex < 3; ++vertex) {
      // ParseVertex: PARENT X Y Z NX NY NZ U V [LINKS (BONE WEIGHT)*]; a field missing at the
      // line end ends the vertex (SkipLine).
      const std::size_t line = p;
      w.skip_spaces(p);
      bool done = is_line_end(w.at(p));
      if (!done) w.strtol10(p);
      for (int f = 0; f < 8 && !done; ++f) {
        w.skip_spaces(p);
        if (is_line_end(w.at(p))) {
          done = true;
          break;
        }
        if (!w.atof(p)) return where(line) + ": a vertex field is not a number";
      }
      if (!done) {
        w.skip_spaces(p);
        if (!is_line_end(w.at(p))) {
          const uint32_t links = w.strtoul10(p);
          uint64_t tokens = 0;
          for (std::size_t q = p; !is_line_end(w.at(q));) {
            while (is_space(w.at(q))) ++q;
            if (is_line_end(w.at(q))) break;
            ++tokens;
            while (!is_space_or_newline(w.at(q))) ++q;
          }
          if (links > tokens / 2)
            return where(line) + ": a vertex announces " + std::to_string(links) +
                   " bone links and its line holds " + std::to_string(tokens / 2);
        }
      }
      w.skip_line(p);
    }
  }
}

}  // namespace

std::string check_smd_text(std::string_view text) {
  if (std::string e = check_control_bytes(text, "SMD"); !e.empty()) return e;
  if (std::string e = check_smd_sections(text); !e.empty()) return e;
  Walk w(text);
  // The sections were checked line by line (check_smd_sections); each top-level "triangles"
  // keyword starts a section assimp reads vertex by vertex.
  std::size_t p = 0;
  bool in_section = false;
  while (p < w.end) {
    std::size_t q = p;
    w.skip_spaces(q);
    std::size_t next = q;
    while (next < w.end && w.buf[next] != '\n') ++next;
    const std::string_view line(w.buf.data() + q, next - q);
    const std::string_view key = line.substr(0, line.find_first_of(" \t\r"));
    if (in_section) {
      in_section = key != "end";
    } else if (key == "nodes" || key == "skeleton" || key == "vertexanimation") {
      in_section = true;
    } else if (key == "triangles") {
      std::size_t start = q;
      if (!w.token_match(start, "triangles")) return {};
      if (std::string e = check_smd_triangles(w, start); !e.empty()) return e;
      in_section = true;
    }
    p = next + 1;
  }
  return {};
}

}  // namespace sv
