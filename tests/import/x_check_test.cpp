// The DirectX .x pre-read check (io/x_check.h) and the importer's handling of assimp's error
// text: each failure of assimp 5.2.5's X reader the check guards against, on a small skinned
// text file or on a real file with one number changed, next to the file as it was (which must
// load); binary files; every real X file of assimp-testmodels. The counts used are the ones that
// made assimp allocate gigabytes (or crash: the index cases), so each test also times the
// refusal.
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <span>
#include <string>

#include <gtest/gtest.h>
#include <zlib.h>

#include "import/convert.h"
#include "import/x_check.h"
#include "io/import.h"

namespace sv {
namespace {

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::string model(const std::string& rel) {
  return read_file(std::string(SKINVIEW_TEST_MODELS) + "/" + rel);
}

const char* const kIdentity = "1.0,0.0,0.0,0.0,0.0,1.0,0.0,0.0,0.0,0.0,1.0,0.0,0.0,0.0,0.0,1.0;;";

// A triangle skinned to one bone, with normals, a material and a two-key animation. Each
// parameter replaces one number or block.
struct Tri {
  std::string vertices = "3", faces = "1", face = "3;0,1,2;;", normal_index = "0";
  std::string material = "Material { 1.0;1.0;1.0;1.0;; 0.0; 0.0;0.0;0.0;; 0.0;0.0;0.0;; }";
  std::string weights = "3", weight_vertex = "2", keys = "2", mesh_tail;

  std::string text() const {
    return std::string("xof 0303txt 0032\n") +
           "Frame Root {\n"
           " FrameTransformMatrix { " +
           kIdentity +
           " }\n"
           " Frame Bone { FrameTransformMatrix { " +
           kIdentity +
           " } }\n"
           " Mesh Tri {\n"
           "  " +
           vertices +
           ";\n"
           "  0.0;0.0;0.0;,\n"
           "  1.0;0.0;0.0;,\n"
           "  0.0;1.0;0.0;;\n"
           "  " +
           faces +
           ";\n"
           "  " +
           face +
           "\n"
           "  MeshNormals { 1; 0.0;0.0;1.0;; 1; 3;0,0," +
           normal_index +
           ";; }\n"
           "  MeshMaterialList { 1; 1; 0;; " +
           material +
           " }\n"
           "  XSkinMeshHeader { 1; 1; 1; }\n"
           "  SkinWeights {\n"
           "   \"Bone\";\n"
           "   " +
           weights +
           ";\n"
           "   0,1," +
           weight_vertex +
           ";\n"
           "   1.0,1.0,1.0;\n"
           "   " +
           kIdentity +
           "\n"
           "  }\n" +
           mesh_tail +
           " }\n"
           "}\n"
           "AnimationSet Walk {\n"
           " Animation {\n"
           "  {Bone}\n"
           "  AnimationKey {\n"
           "   2;\n"
           "   " +
           keys +
           ";\n"
           "   0;3;0.0,0.0,0.0;;,\n"
           "   10;3;1.0,0.0,0.0;;;\n"
           "  }\n"
           " }\n"
           "}\n";
  }
};

ImportResult import_text(const std::string& text) {
  return import_model_from_memory(
      std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(text.data()), text.size()), "x",
      "tri.x");
}

// Imports `text` and expects it refused within a second with an error holding `what`.
void expect_refused(const std::string& text, const std::string& what) {
  const auto start = std::chrono::steady_clock::now();
  const ImportResult r = import_text(text);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error.find(what), std::string::npos) << r.error;
  EXPECT_EQ(r.error.find('\n'), std::string::npos) << r.error;
  EXPECT_LT(r.error.size(), 400u) << r.error;
  EXPECT_LT(seconds, 1.0) << r.error;
}

TEST(XCheck, TheSmallFileLoads) {
  EXPECT_EQ(check_x_file(Tri{}.text()), "");
  const ImportResult r = import_text(Tri{}.text());
  ASSERT_TRUE(r.ok()) << r.error;
  ASSERT_EQ(r.model->meshes.size(), 1u);
  EXPECT_EQ(r.model->meshes[0].vertex_count(), 3u);
  EXPECT_EQ(r.model->clips.size(), 1u);
}

TEST(XCheck, HugeVertexCountInARealFileIsRefusedQuickly) {
  std::string text = model("X/test_cube_text.x");
  const std::size_t at = text.find("Mesh Cube {\n   24;");
  ASSERT_NE(at, std::string::npos);
  for (const char* count : {"400000000", "4000000000"}) {
    std::string bad = text;
    bad.replace(at + 15, 2, count);
    expect_refused(bad, std::string("X mesh 'Cube' declares ") + count +
                            " vertices (line 57) but the file has room for at most");
  }
}

TEST(XCheck, HugeFaceKeyAndWeightCountsAreRefused) {
  Tri t;
  t.faces = "4000000000";
  expect_refused(t.text(), "X mesh 'Tri' declares 4000000000 faces (line 10) but the file has");
  t = Tri{};
  t.face = "400000000;0,1,2;;";
  expect_refused(t.text(), "X mesh 'Tri' face 0 declares 400000000 indices");
  t = Tri{};
  t.keys = "4000000000";
  expect_refused(t.text(), "X animation key list of 'Bone' declares 4000000000 keys");
  t = Tri{};
  t.weights = "400000000";
  expect_refused(t.text(), "X mesh 'Tri' bone 'Bone' declares 400000000 weights");
}

// Indices assimp's importer uses unchecked: the first three crash libassimp 5.2.5 (SIGSEGV),
// the last reads one element past its arrays.
TEST(XCheck, IndicesPastTheirArraysAreRefused) {
  Tri t;
  t.normal_index = "300000000";
  expect_refused(t.text(), "normal face 0 (line 12) uses normal 300000000, past its 1 normals");
  t = Tri{};
  t.weight_vertex = "300000000";
  expect_refused(t.text(), "weights vertex 300000000, past its 3 vertices");
  t = Tri{};
  t.material = "";
  expect_refused(t.text(), "a material list without materials");
  t = Tri{};
  t.face = "3;0,1,3;;";
  expect_refused(t.text(), "uses vertex 3, one past its vertices");
  t = Tri{};
  t.mesh_tail = "  MeshMaterialList { 1; 1; 0;; {Other} }\n";
  expect_refused(t.text(), "lists materials for 2 faces, more than its 1");
}

TEST(XCheck, FramesNestedTooDeeplyAreRefused) {
  std::string text = "xof 0303txt 0032\n";
  for (std::size_t i = 0; i <= kMaxNodeDepth; ++i) text += "Frame{";
  text += std::string(kMaxNodeDepth + 1, '}');
  EXPECT_NE(check_x_file(text).find("nested deeper than 4096"), std::string::npos);
}

// Binary files: counts are 32-bit integers, and a number read past the end is a zero.
TEST(XCheck, BinaryCountsAndTokensPastTheEndAreRefused) {
  const std::string cube = model("X/test_cube_binary.x");
  EXPECT_EQ(check_x_file(cube), "");
  // "Cube" "{" then an integer list of one: the vertex count (24).
  const std::string mesh_head("Cube\x0a\x00\x06\x00\x01\x00\x00\x00\x18\x00\x00\x00", 16);
  const std::size_t at = cube.find(mesh_head);
  ASSERT_NE(at, std::string::npos);
  std::string bad = cube;
  bad.replace(at + 12, 4, std::string("\x00\x84\xd7\x17", 4));  // 400000000
  expect_refused(bad, "X mesh 'Cube' declares 400000000 vertices (byte ");

  // A skin weights object whose name is a GUID token running past the end: the weight count
  // after it would be read from past assimp's buffer.
  auto word = [](unsigned w) { return std::string{char(w & 0xff), char(w >> 8)}; };
  auto name = [&](const std::string& s) {
    return word(1) + std::string{char(s.size()), 0, 0, 0} + s;
  };
  const std::string head = "xof 0303bin 0032";
  const std::string mesh =
      name("Mesh") + word(0x0a) + word(6) + std::string("\x02\0\0\0\0\0\0\0\0\0\0\0", 12);
  std::string past = head + mesh + name("SkinWeights") + word(0x0a) + word(5) + "1234";
  EXPECT_NE(check_x_file(past).find("reads past the end of the file"), std::string::npos)
      << check_x_file(past);
  // A string token claiming 2^31 bytes: assimp compares its length as a signed int and copies.
  std::string string_token =
      head + mesh + name("SkinWeights") + word(0x0a) + word(2) + std::string("\0\0\0\x80", 4);
  EXPECT_NE(check_x_file(string_token).find("string token of 2147483648 bytes"), std::string::npos)
      << check_x_file(string_token);
}

// Compressed files: assimp sets 32,786 bytes aside per block before inflating any.
TEST(XCheck, CompressedFilesAreInflatedAndChecked) {
  const std::string cube = model("X/test_cube_compressed.x");
  EXPECT_EQ(check_x_file(cube), "");
  // 130,000 empty blocks before the cube's own: 520 KB asking for 4.26 GB (6.6 s in 5.2.5).
  std::string empty_blocks = cube.substr(0, 22);
  for (int i = 0; i < 130000; ++i) empty_blocks += std::string("\0\0CK", 4);
  empty_blocks += cube.substr(22);
  expect_refused(empty_blocks, "compressed X file of 130001 blocks");
  // The cube's vertex count, inside the deflated data, made 400000000.
  const std::string text = model("X/test_cube_text.x");
  std::string bad = text.substr(text.find('\n') + 1);
  bad.replace(bad.find("Mesh Cube {\n   24;") + 15, 2, "400000000");
  z_stream z{};
  ASSERT_EQ(deflateInit2(&z, 9, Z_DEFLATED, -MAX_WBITS, 8, Z_DEFAULT_STRATEGY), Z_OK);
  std::string deflated(deflateBound(&z, bad.size()), '\0');
  z.next_in = reinterpret_cast<Bytef*>(bad.data());
  z.avail_in = static_cast<uInt>(bad.size());
  z.next_out = reinterpret_cast<Bytef*>(deflated.data());
  z.avail_out = static_cast<uInt>(deflated.size());
  ASSERT_EQ(deflate(&z, Z_FINISH), Z_STREAM_END);
  deflated.resize(z.total_out);
  deflateEnd(&z);
  const uint16_t length = static_cast<uint16_t>(deflated.size() + 2);
  const std::string compressed = "xof 0303tzip0032" + std::string(6, '\0') +
                                 std::string{char(length & 0xff), char(length >> 8)} + "CK" +
                                 deflated;
  expect_refused(compressed,
                 "X mesh 'Cube' declares 400000000 vertices (line 56 of the inflated data) but");
}

// Every X file of assimp-testmodels passes the check and imports as before.
TEST(XCheck, EveryRealXFilePasses) {
  const std::filesystem::path dir = std::filesystem::path(SKINVIEW_TEST_MODELS) / "X";
  int files = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    const std::string bytes = read_file(e.path().string());
    if (bytes.compare(0, 4, "xof ") != 0) continue;
    ++files;
    EXPECT_EQ(check_x_file(bytes), "") << e.path();
    const ImportResult r = import_model(e.path().string());
    if (e.path().filename() == "OV_GetNextToken") {
      EXPECT_EQ(r.error, e.path().string() + ": Opening brace expected.");  // assimp's own
    } else {
      EXPECT_TRUE(r.ok()) << e.path() << ": " << r.error;
    }
  }
  EXPECT_EQ(files, 11);
}

// assimp's messages quote the file: cut to one line of readable text.
TEST(XCheck, LongAssimpErrorsAreCutToOneLine) {
  // A letter where the first matrix value should be: assimp's number reader throws, quoting
  // everything from there to the end of the file (about 1,200 bytes with line ends in it).
  std::string text = Tri{}.text();
  text.replace(text.find("1.0,0.0,0.0,0.0"), 3, "x");
  EXPECT_EQ(check_x_file(text), "");  // assimp reports this one itself
  const ImportResult r = import_text(text);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error.rfind("tri.x: Cannot parse string \"x,0.0,", 0), 0u) << r.error;
  EXPECT_LE(r.error.size(), std::string("tri.x: ").size() + 300 + 3) << r.error;
  EXPECT_EQ(r.error.substr(r.error.size() - 3), "...");
  for (char c : r.error) EXPECT_GE(static_cast<unsigned char>(c), 0x20) << r.error;
}

TEST(XCheck, AssimpOutOfMemoryReadsAsASentence) {
  const std::string e = assimp_error_line("std::bad_alloc");
  EXPECT_EQ(e.find("std::bad_alloc"), std::string::npos);
  EXPECT_EQ(e.rfind("out of memory while reading: a count in the file asks for more memory", 0), 0u)
      << e;
  EXPECT_EQ(assimp_error_line("Line 3: Number\texpected.\x01\n"), "Line 3: Number expected.");
}

}  // namespace
}  // namespace sv
