// The MD5 and SMD pre-read checks (import/text_checks.h): each way assimp 5.2.5's readers never
// return, in a few lines of text, next to the same file made well (which must pass), and the real
// files of assimp-testmodels. Then what earlier versions of the checks refused and the import
// worker now contains: reads past the buffer, heap overflows and huge counts in the same readers
// must end as a model or one line, by themselves (not at the worker's time limit).
#include <filesystem>
#include <fstream>
#include <iterator>
#include <span>
#include <string>

#include <gtest/gtest.h>

#include "contained.h"
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
  EXPECT_EQ(check_md5_text(md5mesh()), "");
  EXPECT_EQ(check_md5_text(md5anim()), "");
  EXPECT_EQ(check_md5_text(md5anim("0 0 1234567890123456789")), "");  // 19 digits: read
  const std::string cube = file("/usr/share/assimp/models/MD5/SimpleCube.md5mesh");
  if (cube.empty()) GTEST_SKIP() << "assimp-testmodels not installed";
  EXPECT_EQ(check_md5_text(cube), "");
}

TEST(Md5TextCheck, WhatNeverReturnsIsRefused) {
  // A form feed where a section starts: assimp adds sections forever.
  std::string e = check_md5_text("MD5Version 10\ncommandline 0\f\f\f\n");
  EXPECT_NE(e.find("a form feed on line 2"), std::string::npos) << e;
  e = check_md5_text(replace(md5mesh(), "\"tip\"", std::string("\"t\0p\"", 5)));
  EXPECT_NE(e.find("a NUL byte on line 9"), std::string::npos) << e;
  // A frame value of 20 digits: the number reader never moves on.
  e = check_md5_text(md5anim("0 0 99999999999999999999"));
  EXPECT_NE(e.find("MD5 line 25: a number of 20 digits or more"), std::string::npos) << e;
}

const auto bytes = [](const std::string& s) {
  return std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(s.data()), s.size());
};

// A usable model or one line naming the file (contained.h).
void expect_contained(const std::string& text, const char* hint) {
  test::expect_contained(text, hint, "m");
}

// What the element-by-element MD5 walk refused before the worker ran in a child: quoted names
// searched past the buffer or longer than assimp's 1,024-byte strings, lines that end before
// their fields, section values at the end of the file, counts and indices the file cannot back,
// a vertex no triangle uses beside shared ones (assimp writes past its vertex array), anim
// channels reading past their frame.
TEST(Md5Import, TheReadersOtherFailuresAreContained) {
  const std::string mesh = md5mesh();
  for (const std::string& text :
       {md5mesh("shader skin"), md5mesh("shader \"skin"),
        md5mesh("shader \"" + std::string(3000, 'a') + "\""),
        replace(mesh, "( 0 0 1 ) ( 0 0 0 )", "( 0 0 1 )"),
        replace(mesh, "vert 2 ( 0 1 ) 2 1", "vert 2 ( 0 1"),
        std::string("MD5Version 10\ncommandline \"x\""), std::string("MD5Version 10\n"),
        std::string("MD5Version 10\ncommandline \"\"\nnumJoints 3"),
        replace(mesh, "numverts 3", "numverts 4000000"), replace(mesh, "numverts 3", "numverts 4"),
        replace(mesh, "numMeshes 1", "numMeshes 4000000000"),
        replace(mesh, "tri 0 0 1 2", "tri 0 0 1 3"), replace(mesh, "weight 2 1", "weight 2 2"),
        replace(mesh, "\"tip\"\t0", "\"tip\"\t1")}) {
    SCOPED_TRACE(text.substr(0, 200));
    expect_contained(text, "md5mesh");
  }
  std::string unused = replace(mesh, "numverts 3", "numverts 5");
  unused =
      replace(unused, "\tnumtris 1\n", "\tvert 3 ( 0 0 ) 0 1\n\tvert 4 ( 0 0 ) 0 1\n\tnumtris 2\n");
  expect_contained(replace(unused, "tri 0 0 1 2", "tri 0 0 1 2\n\ttri 1 0 2 4"), "md5mesh");
  for (const std::string& anim :
       {md5anim("0 0"), md5anim("0 0 x"), replace(md5anim(), "\"tip\"\t0 7 0", "tip 0 7 0"),
        replace(md5anim(), "numFrames 2", "numFrames 3000000000"),
        replace(md5anim(), "numAnimatedComponents 3", "numAnimatedComponents 9999999")}) {
    SCOPED_TRACE(anim.substr(0, 200));
    expect_contained(anim, "md5anim");
  }
}

TEST(Md5Import, CameraFilesAndEndlessAnimsBesideAMeshAreRefused) {
  const std::string mesh = md5mesh();
  EXPECT_TRUE(import_model_from_memory(bytes(mesh), "md5mesh").ok());
  const ImportResult camera = import_model_from_memory(bytes(mesh), "md5camera");
  EXPECT_NE(camera.error.find("camera"), std::string::npos) << camera.error;

  // From disk, assimp reads NAME.md5anim beside NAME.md5mesh: its text is checked too.
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("skinview_md5_pair_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string base = (dir / "pair").string();
  std::ofstream(base + ".md5mesh", std::ios::binary) << mesh;
  std::ofstream(base + ".md5anim", std::ios::binary) << md5anim();
  const ImportResult good = import_model(base + ".md5mesh");
  ASSERT_TRUE(good.ok()) << good.error;
  EXPECT_EQ(good.model->clips.size(), 1u);
  EXPECT_EQ(good.provenance.read_files, std::vector<std::string>{base + ".md5anim"});
  std::ofstream(base + ".md5anim", std::ios::binary) << md5anim("0 0 99999999999999999999");
  const ImportResult bad = import_model(base + ".md5mesh");
  EXPECT_FALSE(bad.ok());
  EXPECT_NE(bad.error.find("pair.md5anim (read with it): MD5 line 25: a number of 20 digits"),
            std::string::npos)
      << bad.error;
  std::filesystem::remove_all(dir);
}

const std::string kSmd =
    "version 1\nnodes\n0 \"root\" -1\nend\nskeleton\ntime 0\n0 0 0 0 0 0 0\nend\n"
    "triangles\ntex.bmp\n"
    "0 0 0 0 0 0 1 0 0 1 0 1.0\n"
    "0 1 0 0 0 0 1 1 0 1 0 1.0\n"
    "0 0 1 0 0 0 1 0 1\n"
    "end\n";

TEST(SmdTextCheck, WhatNeverReturnsIsRefused) {
  EXPECT_EQ(check_smd_text(kSmd), "");
  for (const char* name : {"WusonSMD.smd", "holy_grailref.smd", "triangle.smd"}) {
    const std::string real = file(std::string("/usr/share/assimp/models/SMD/") + name);
    if (real.empty()) continue;
    EXPECT_EQ(check_smd_text(real), "") << name;
  }
  std::string e = check_smd_text(replace(kSmd, "triangles\n", "versiones\n"));
  EXPECT_NE(e.find("SMD line 9 is outside every section ('versiones')"), std::string::npos) << e;
  e = check_smd_text("version 1\nnodes\n0 \"root\" -1\n");
  EXPECT_NE(e.find("nodes section has no \"end\" line"), std::string::npos) << e;
  e = check_smd_text(replace(kSmd, "0 \"root\" -1", std::string("0 \"ro\0t\" -1", 11)));
  EXPECT_NE(e.find("a NUL byte on line 3"), std::string::npos) << e;
  e = check_smd_text(replace(kSmd, "0 \"root\" -1", "root -1"));
  EXPECT_NE(e.find("is not a node"), std::string::npos) << e;
  e = check_smd_text(replace(kSmd, "0 \"root\" -1", "70000 \"root\" -1"));
  EXPECT_NE(e.find("names node 70000, above the limit of 65536 joints"), std::string::npos) << e;
  e = check_smd_text("version 1\nnodes\n0 \"root\" -1\nend");
  EXPECT_NE(e.find("is the last byte of the file"), std::string::npos) << e;
}

// A bone-link count of 4,294,967,295: assimp sizes the link array by it first (34 GB in one
// allocation). The walk that refused it was retired: the worker's memory limit ends it at once.
TEST(SmdImport, AHugeBoneLinkCountRunsOutOfMemory) {
  const ImportResult r = import_model_from_memory(
      bytes(replace(kSmd, "0 0 1 0 1.0\n0 1", "0 0 4294967295 0 1.0\n0 1")), "smd", "m.smd");
  EXPECT_EQ(r.error.rfind("m.smd: the importer ran out of memory (limit ", 0), 0u) << r.error;
}

}  // namespace
}  // namespace sv
