// End to end: the Export section in the real window (window_driver.h): a recording started from
// the Record control runs while the window keeps drawing (its frame counter moves on between
// progress reports), writes the frames it reports, can be cancelled (the frames so far kept), and
// "Export pose (.glb)" writes the file typed, or says why not.
#include <filesystem>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "temp_dir.h"
#include "window_driver.h"

namespace sv::test {
namespace {

namespace fs = std::filesystem;

std::size_t files_in(const std::string& dir) {
  std::error_code ec;
  std::size_t n = 0;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) ++n;
  return n;
}

// Clicks the field `mark` and replaces its text with `text`.
void type_into(WindowDriver& w, const char* mark, const std::string& text) {
  ASSERT_TRUE(w.click_landmark(w.state(), mark));
  w.key("ctrl+a");  // returns once Ctrl is up again: the text is not read as Ctrl+letters
  w.type(text);
}

TEST(RecordE2E, TheWindowKeepsDrawingWhileItRecordsAndACancelKeepsTheFramesSoFar) {
  WindowDriver w;
  if (!w.ready()) GTEST_SKIP() << w.why();
  TempDir tmp;
  ASSERT_TRUE(w.launch({kDefault, "--clip", "wave"}));
  ASSERT_TRUE(w.click_landmark(w.state(), "header:Export"));
  type_into(w, "input:Record to", tmp / "frames");
  type_into(w, "input:Size", "640x360");
  ASSERT_TRUE(w.click_landmark(w.state(), "button:Record"));
  // 'wave' is 2 s: 60 frames at 30 frames/s.
  nlohmann::json s = w.state();
  ASSERT_EQ(s["recording"]["total"], 60) << s["recording"];
  EXPECT_NE(s["recording"]["message"].get<std::string>().find(tmp / "frames"), std::string::npos);
  // The window answers (each answer written after a frame of its own) while the recording runs:
  // a window that recorded in one go would answer only once it was done.
  long first_frame = -1, last_frame = -1;
  int reports_while_running = 0;
  s = w.wait_until([&](const nlohmann::json& j) {
    if (j["recording"]["running"] != true) return true;
    if (first_frame < 0) first_frame = j["frame"].get<long>();
    last_frame = j["frame"].get<long>();
    ++reports_while_running;
    return false;
  });
  ASSERT_EQ(s["recording"]["running"], false);
  EXPECT_EQ(s["recording"]["error"], false) << s["recording"]["message"];
  EXPECT_EQ(s["recording"]["written"], 60);
  EXPECT_EQ(files_in(tmp / "frames"), 60u);
  EXPECT_GE(reports_while_running, 2) << "the window stalled while recording";
  EXPECT_GT(last_frame, first_frame) << "the window stalled while recording";
  std::printf("%d progress reports while recording, %ld UI frames drawn between them\n",
              reports_while_running, last_frame - first_frame);

  // Cancel a longer one (3 loops: 180 frames) once it has written a few frames. Its size is not
  // what is tested: a small one costs little until the cancel.
  type_into(w, "input:Record to", tmp / "cancelled");
  type_into(w, "input:Loops", "3");
  ASSERT_TRUE(w.click_landmark(w.state(), "button:Record"));
  s = w.wait_until(
      [](const nlohmann::json& j) { return j["recording"]["written"].get<int>() >= 3; });
  ASSERT_EQ(s["recording"]["total"], 180);
  ASSERT_TRUE(w.click_landmark(s, "button:Cancel recording"));
  s = w.wait_until([](const nlohmann::json& j) { return j["recording"]["running"] != true; });
  ASSERT_EQ(s["recording"]["running"], false);
  const std::string message = s["recording"]["message"];
  EXPECT_NE(message.find("cancelled"), std::string::npos) << message;
  const int kept = s["recording"]["written"];
  EXPECT_GE(kept, 3);
  EXPECT_LT(kept, 180);
  EXPECT_EQ(files_in(tmp / "cancelled"), static_cast<std::size_t>(kept));

  // Export pose: a file written, then a bad name refused in the window.
  type_into(w, "input:Export pose", tmp / "posed.glb");
  ASSERT_TRUE(w.click_landmark(w.state(), "button:Export pose"));
  s = w.state();
  EXPECT_EQ(s["exported"], "wrote " + (tmp / "posed.glb"));
  EXPECT_GT(fs::file_size(tmp / "posed.glb"), 1000u);
  type_into(w, "input:Export pose", tmp / "posed.obj");
  ASSERT_TRUE(w.click_landmark(w.state(), "button:Export pose"));
  s = w.state();
  EXPECT_NE(s["exported"].get<std::string>().find("want a file ending in .glb"), std::string::npos)
      << s["exported"];
  EXPECT_EQ(w.quit(), 0);
}

}  // namespace
}  // namespace sv::test
