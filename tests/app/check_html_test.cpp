// `skinview check --html DIR` through the real executable (app/check_html.h): the page lists the
// files with findings, each file with an error gets a PNG thumbnail made by the headless renderer
// in the view that shows its problem (needs a display: label gl, run under Xvfb); and the view
// chosen for each rule, without a process.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "app/check_html.h"
#include "app/check_models.h"
#include "run_process.h"
#include "temp_dir.h"

namespace sv {
namespace {

std::string slurp_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

FileRecord record_with(const Finding& f) {
  FileRecord r;
  r.path = "m.glb";
  r.imported = true;
  r.findings.push_back(f);
  return r;
}

TEST(CheckHtml, EachRuleGetsTheViewThatShowsIt) {
  Finding f;
  f.rule = "weight-sum";
  EXPECT_EQ(thumbnail_view(record_with(f)), (std::vector<std::string>{"--view", "weight-sum"}));
  f.rule = "max-influences";
  EXPECT_EQ(thumbnail_view(record_with(f)), (std::vector<std::string>{"--view", "influences"}));
  f.rule = "volume-change";
  f.severity = Severity::Warning;
  f.clip = "walk";
  f.time = 0.5;
  f.method = "dqs";
  EXPECT_EQ(thumbnail_view(record_with(f)),
            (std::vector<std::string>{"--clip", "walk", "--time", "0.5000", "--method", "dqs"}));
  // An error leads over a warning before it.
  FileRecord r = record_with(f);
  Finding e;
  e.rule = "rest-bind";
  r.findings.push_back(e);
  EXPECT_EQ(thumbnail_view(r), (std::vector<std::string>{"--rest-pose", "--skeleton"}));
}

TEST(CheckHtml, APageWithAThumbnailPerFileWithAnError) {
  test::TempDir dir;
  std::ofstream(dir / "clean.gltf") << test::check_model_gltf({});
  test::CheckModel m;
  m.weight = 0.8f;
  std::ofstream(dir / "weight_sum.gltf") << test::check_model_gltf(m);
  m = {};
  m.key_length = 0.9f;  // a warning only: listed, no picture
  std::ofstream(dir / "rotation_keys.gltf") << test::check_model_gltf(m);
  const std::string out = dir / "html";
  const test::ProcessResult r =
      test::run_process({SKINVIEW_EXE, "check", "--no-progress", dir.path(), "--html", out}, 300.0);
  ASSERT_TRUE(r.exited());
  EXPECT_EQ(r.exit_code, 1) << r.err;
  const std::string page = slurp_file(out + "/index.html");
  ASSERT_FALSE(page.empty());
  EXPECT_EQ(page.find("clean.gltf"), std::string::npos);  // nothing to say about it
  EXPECT_NE(page.find("rotation_keys.gltf"), std::string::npos);
  EXPECT_NE(page.find("<b>weight-sum</b>"), std::string::npos);
  // Files are sorted: clean 0, rotation_keys 1, weight_sum 2.
  const std::string png = out + "/thumbs/2.png";
  if (std::getenv("DISPLAY") == nullptr) {
    EXPECT_NE(page.find("no picture"), std::string::npos);
    GTEST_SKIP() << "no display: the page without pictures checked";
  }
  const std::string bytes = slurp_file(png);
  ASSERT_GT(bytes.size(), 8u) << page;
  EXPECT_EQ(bytes.substr(1, 3), "PNG");
  EXPECT_NE(page.find("<img src=\"thumbs/2.png\""), std::string::npos);
  EXPECT_NE(page.find("<code>--view weight-sum</code>"), std::string::npos);
  EXPECT_FALSE(std::filesystem::exists(out + "/thumbs/1.png"));  // warnings only
}

}  // namespace
}  // namespace sv
