// The MD5 and SMD pre-read checks (io/text_checks.h): each assimp 5.2.5 failure they guard
// against, in a few lines of text, next to the same file made well (which must pass), and the
// real files of assimp-testmodels. A file that passes here is handed to assimp as it is; the
// fuzz regression inputs (tests/data/fuzz) then go through the whole import under ASan.
#include <filesystem>
#include <fstream>
#include <iterator>
#include <span>
#include <string>

#include <gtest/gtest.h>

#include "import/text_checks.h"
#include "io/import.h"

namespace sv {
namespace {

// A small but complete mesh: two joints, one triangle over three vertices, a weight each.
std::string md5mesh(const std::string& shader = "shader \"skin\"",
                    const std::string& tri = "tri 0 0 1 2", const std::string& tail = "}\n") {
  return "MD5Version 10\n"
         "commandline \"\"\n"
         "\n"
         "numJoints 2\n"
         "numMeshes 1\n"
         "\n"
         "joints {\n"
         "\t\"root\"\t-1 ( 0 0 0 ) ( 0 0 0 )\t\t// comment\n"
         "\t\"tip\"\t0 ( 0 0 1 ) ( 0 0 0 )\n"
         "}\n"
         "\n"
         "mesh {\n"
         "\t" +
         shader +
         "\n"
         "\tnumverts 3\n"
         "\tvert 0 ( 0 0 ) 0 1\n"
         "\tvert 1 ( 1 0 ) 1 1\n"
         "\tvert 2 ( 0 1 ) 2 1\n"
         "\tnumtris 1\n"
         "\t" +
         tri +
         "\n"
         "\tnumweights 3\n"
         "\tweight 0 0 1.0 ( 0 0 0 )\n"
         "\tweight 1 1 1.0 ( 1 0 0 )\n"
         "\tweight 2 1 1.0 ( 0 1 0 )\n" +
         tail;
}

std::string md5anim(const std::string& frame0 = "0 0 0") {
  return "MD5Version 10\n"
         "commandline \"\"\n"
         "\n"
         "numFrames 2\n"
         "\n"
         "numJoints 2\n"
         "\n"
         "frameRate 24\n"
         "\n"
         "numAnimatedComponents 3\n"
         "\n"
         "hierarchy {\n"
         "\t\"root\"\t-1 0 0\n"
         "\t\"tip\"\t0 7 0\n"
         "}\n"
         "bounds {\n"
         "\t( -1 -1 -1 ) ( 1 1 1 )\n"
         "\t( -1 -1 -1 ) ( 1 1 1 )\n"
         "}\n"
         "baseframe {\n"
         "\t( 0 0 0 ) ( 0 0 0 )\n"
         "\t( 0 0 1 ) ( 0 0 0 )\n"
         "}\n"
         "frame 0 {\n"
         "\t" +
         frame0 +
         "\n"
         "}\n"
         "frame 1 {\n"
         "\t1 2 3\n"
         "}\n";
}

std::string replace(std::string s, const std::string& from, const std::string& to) {
  const std::size_t at = s.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) s.replace(at, from.size(), to);
  return s;
}

std::string file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

TEST(Md5TextCheck, WellFormedFilesPass) {
  EXPECT_EQ(check_md5_text(md5mesh(), Md5Part::Both), "");
  EXPECT_EQ(check_md5_text(md5anim(), Md5Part::Both), "");
  // Without the final line end after "}": nothing is stepped over.
  std::string cut = md5mesh();
  cut.pop_back();
  EXPECT_EQ(check_md5_text(cut, Md5Part::Both), "");
  const std::string cube = file("/usr/share/assimp/models/MD5/SimpleCube.md5mesh");
  if (cube.empty()) GTEST_SKIP() << "assimp-testmodels not installed";
  EXPECT_EQ(check_md5_text(cube, Md5Part::Both), "");
}

TEST(Md5TextCheck, ShaderWithoutQuotesIsRefused) {
  // The fuzzer's over-read: assimp searches the whole buffer for the quotes.
  const std::string e = check_md5_text(md5mesh("shader skin"), Md5Part::Mesh);
  EXPECT_NE(e.find("line 13"), std::string::npos) << e;
  EXPECT_NE(e.find("quoted name"), std::string::npos) << e;
  EXPECT_NE(check_md5_text(md5mesh("shader \"skin"), Md5Part::Mesh), "");
  EXPECT_NE(check_md5_text(md5mesh("shader \"" + std::string(1024, 'a') + "\""), Md5Part::Mesh),
            "");  // would overflow the 1,024-byte aiString
  EXPECT_EQ(check_md5_text(md5mesh("shader \"" + std::string(1023, 'a') + "\""), Md5Part::Mesh),
            "");
}

TEST(Md5TextCheck, LinesThatEndBeforeTheirFieldsAreRefused) {
  const std::string mesh = md5mesh();
  EXPECT_NE(check_md5_text(replace(mesh, "( 0 0 1 ) ( 0 0 0 )", "( 0 0 1 )"), Md5Part::Mesh), "");
  EXPECT_NE(check_md5_text(replace(mesh, "vert 2 ( 0 1 ) 2 1", "vert 2 ( 0 1"), Md5Part::Mesh), "");
  EXPECT_NE(check_md5_text(replace(mesh, "weight 2 1 1.0 ( 0 1 0 )", "weight 2 1 1.0 ( 0 1 0"),
                           Md5Part::Mesh),
            "");
  EXPECT_NE(check_md5_text(replace(md5anim(), "( 0 0 1 ) ( 0 0 0 )", "( 0 0 1 ) ("), Md5Part::Anim),
            "");
}

TEST(Md5TextCheck, SectionReaderOverrunsAreRefused) {
  // The command line as the file's last bytes, and a bare header: stepped past the NUL.
  EXPECT_NE(check_md5_text("MD5Version 10\ncommandline \"x\"", Md5Part::Both), "");
  EXPECT_NE(check_md5_text("MD5Version 10\n", Md5Part::Both), "");
  EXPECT_EQ(check_md5_text("MD5Version 10\ncommandline \"x\"\n", Md5Part::Both), "");
  // A value as the file's last bytes.
  EXPECT_NE(check_md5_text("MD5Version 10\ncommandline \"\"\nnumJoints 3", Md5Part::Both), "");
  EXPECT_EQ(check_md5_text("MD5Version 10\ncommandline \"\"\nnumJoints 3\n", Md5Part::Both), "");
  // A form feed where a section starts: assimp adds sections forever.
  const std::string e = check_md5_text("MD5Version 10\ncommandline 0\f\f\f\n", Md5Part::Both);
  EXPECT_NE(e.find("a form feed on line 2"), std::string::npos) << e;
}

TEST(Md5TextCheck, CountsAndIndicesTheFileCannotBackAreRefused) {
  const std::string mesh = md5mesh();
  EXPECT_NE(check_md5_text(replace(mesh, "numverts 3", "numverts 4000000"), Md5Part::Mesh), "");
  EXPECT_NE(check_md5_text(replace(mesh, "numverts 3", "numverts 4"), Md5Part::Mesh), "")
      << "a vertex declared and never given";
  // assimp 5.2.5 reads "numMeshes 1" on the next line as a second value of the "numJoints"
  // section (a section's values run on until a blank line), so that is the count it reserves.
  EXPECT_NE(check_md5_text(replace(mesh, "numMeshes 1", "numMeshes 4000000000"), Md5Part::Mesh),
            "");
  EXPECT_EQ(check_md5_text(replace(mesh, "numJoints 2", "numJoints 4000000000"), Md5Part::Mesh),
            "");
  EXPECT_NE(check_md5_text(replace(mesh, "tri 0 0 1 2", "tri 7 0 1 2"), Md5Part::Mesh), "");
  EXPECT_NE(check_md5_text(replace(mesh, "tri 0 0 1 2", "tri 0 0 1 3"), Md5Part::Mesh), "");
  EXPECT_NE(check_md5_text(replace(mesh, "weight 2 1", "weight 2 2"), Md5Part::Mesh), "");
  EXPECT_NE(
      check_md5_text(replace(mesh, "vert 2 ( 0 1 ) 2 1", "vert 2 ( 0 1 ) 2 2"), Md5Part::Mesh), "");
  EXPECT_NE(check_md5_text(replace(mesh, "\"tip\"\t0", "\"tip\"\t1"), Md5Part::Mesh), "");
  const std::string anim = md5anim();
  EXPECT_NE(
      check_md5_text(replace(anim, "numAnimatedComponents 3", "numAnimatedComponents 9999999"),
                     Md5Part::Anim),
      "");
  EXPECT_NE(check_md5_text(replace(anim, "numFrames 2", "numFrames 3000000000"), Md5Part::Anim),
            "");
}

TEST(Md5TextCheck, UnusedVertexWithSharedOnesIsRefused) {
  // Two triangles sharing vertices 0 and 2, vertex 3 used by none: MakeDataUnique writes the
  // copies of the shared ones past its array of 3 x 2 vertices.
  std::string mesh = replace(md5mesh(), "numverts 3", "numverts 5");
  mesh =
      replace(mesh, "\tnumtris 1\n", "\tvert 3 ( 0 0 ) 0 1\n\tvert 4 ( 0 0 ) 0 1\n\tnumtris 2\n");
  mesh = replace(mesh, "tri 0 0 1 2", "tri 0 0 1 2\n\ttri 1 0 2 4");
  const std::string e = check_md5_text(mesh, Md5Part::Mesh);
  EXPECT_NE(e.find("no triangle uses"), std::string::npos) << e;
  EXPECT_EQ(check_md5_text(replace(mesh, "tri 1 0 2 4", "tri 1 3 2 4"), Md5Part::Mesh), "");
}

TEST(Md5TextCheck, AnimFramesAreFollowedAsAssimpReadsThem) {
  EXPECT_EQ(check_md5_text(md5anim("0 0 0"), Md5Part::Anim), "");
  // Joint 1 has flags 7 (three values) from index 0: frame 0 holds two.
  const std::string e = check_md5_text(md5anim("0 0"), Md5Part::Anim);
  EXPECT_NE(e.find("reads values 0..3 of frame 0"), std::string::npos) << e;
  // A value of 20+ digits: assimp's reader never moves on.
  EXPECT_NE(check_md5_text(md5anim("0 0 99999999999999999999"), Md5Part::Anim), "");
  EXPECT_NE(check_md5_text(md5anim("0 0 x"), Md5Part::Anim), "");
  EXPECT_NE(check_md5_text(replace(md5anim(), "\"tip\"\t0 7 0", "tip 0 7 0"), Md5Part::Anim), "");
}

TEST(Md5Import, CameraFilesAndBrokenAnimsBesideAMeshAreRefused) {
  const std::string mesh = md5mesh();
  const auto bytes = [](const std::string& s) {
    return std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(s.data()), s.size());
  };
  EXPECT_TRUE(import_model_from_memory(bytes(mesh), "md5mesh").ok());
  const ImportResult camera = import_model_from_memory(bytes(mesh), "md5camera");
  EXPECT_NE(camera.error.find("camera"), std::string::npos) << camera.error;

  // From disk, assimp reads NAME.md5anim beside NAME.md5mesh.
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / "skinview_md5_pair";
  std::filesystem::create_directories(dir);
  const std::string base = (dir / "pair").string();
  std::ofstream(base + ".md5mesh", std::ios::binary) << mesh;
  std::ofstream(base + ".md5anim", std::ios::binary) << md5anim();
  const ImportResult good = import_model(base + ".md5mesh");
  ASSERT_TRUE(good.ok()) << good.error;
  EXPECT_EQ(good.model->clips.size(), 1u);
  std::ofstream(base + ".md5anim", std::ios::binary) << md5anim("0 0");
  const ImportResult bad = import_model(base + ".md5mesh");
  EXPECT_FALSE(bad.ok());
  EXPECT_NE(bad.error.find("pair.md5anim (read with it): MD5 anim: joint 1"), std::string::npos)
      << bad.error;
  std::filesystem::remove_all(dir);
}

TEST(SmdTextCheck, BoneLinkCountsMustFitTheirLine) {
  const std::string smd =
      "version 1\nnodes\n0 \"root\" -1\nend\nskeleton\ntime 0\n0 0 0 0 0 0 0\nend\n"
      "triangles\ntex.bmp\n"
      "0 0 0 0 0 0 1 0 0 1 0 1.0\n"
      "0 1 0 0 0 0 1 1 0 1 0 1.0\n"
      "0 0 1 0 0 0 1 0 1\n"
      "end\n";
  EXPECT_EQ(check_smd_text(smd), "");
  const std::string e =
      check_smd_text(replace(smd, "0 0 1 0 1.0\n0 1", "0 0 4294967295 0 1.0\n0 1"));
  EXPECT_NE(e.find("SMD line 11"), std::string::npos) << e;
  EXPECT_NE(e.find("4294967295 bone links"), std::string::npos) << e;
  EXPECT_NE(check_smd_text(replace(smd, "0 0 1 0 1.0\n0 1", "0 0 2 0 1.0\n0 1")), "");
  EXPECT_NE(check_smd_text(replace(smd, "tex.bmp\n", "tex.bmp\n\v")), "");
  for (const char* name : {"WusonSMD.smd", "holy_grailref.smd", "triangle.smd"}) {
    const std::string real = file(std::string("/usr/share/assimp/models/SMD/") + name);
    if (real.empty()) continue;
    EXPECT_EQ(check_smd_text(real), "") << name;
  }
}

}  // namespace
}  // namespace sv
