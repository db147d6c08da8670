// The Outliner's Export section clicked as a user clicks it (ui/export_panel.h): the Record
// control's fields and button, its progress bar and Cancel while the app reports a recording, the
// app's message (an error in red), and "Export pose (.glb)". The app's side (what the requests do)
// is tests/app/window_record_test.cpp.
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>

#include <gtest/gtest.h>
#include <imgui.h>

#include "temp_dir.h"
#include "ui_fixture.h"

namespace sv::test {
namespace {

int header_state(const ui::Landmarks& marks, const char* name) {
  const ui::Landmark* m = marks.find(name);
  return m != nullptr ? m->index : -1;
}

// Clicks the text field `mark`, and types `text` into it (emptied first, as Ctrl+A would).
void type_into(UiFixture& f, const char* mark, char* field, const char* text) {
  field[0] = '\0';
  ASSERT_TRUE(f.click_mark(mark));
  f.harness.type(text);
  f.harness.frame();
}

TEST(ExportClicks, RecordAsksWithTheTypedOptionsShowsProgressAndCancels) {
  UiFixture f;
  EXPECT_EQ(header_state(f.marks(), "header:Export"), 0) << "closed until opened";
  EXPECT_EQ(f.marks().find("button:Record"), nullptr);
  ASSERT_TRUE(f.click_mark("header:Export"));
  EXPECT_EQ(header_state(f.marks(), "header:Export"), 1);
  // The command line's defaults until typed over.
  EXPECT_STREQ(f.state.record.fps, "30");
  EXPECT_STREQ(f.state.record.size, "1280x720");
  type_into(f, "input:Record to", f.state.record.out, "walk.mp4");
  type_into(f, "input:fps", f.state.record.fps, "12");
  type_into(f, "input:To time", f.state.record.to, "0.5");
  type_into(f, "input:Orbit", f.state.record.orbit, "90");
  EXPECT_STREQ(f.state.record.out, "walk.mp4");
  EXPECT_STREQ(f.state.record.fps, "12");
  EXPECT_STREQ(f.state.record.to, "0.5");
  EXPECT_STREQ(f.state.record.orbit, "90");
  ASSERT_TRUE(f.click_mark("button:Record"));
  EXPECT_TRUE(f.edits.exports.record);
  f.harness.frame();
  EXPECT_FALSE(f.edits.exports.record) << "one click, one request";

  // The app reports a recording in progress: a bar and Cancel instead of Record, fields locked.
  const std::string running = "recording 6 frames to walk.mp4";
  f.status.exports.recording = true;
  f.status.exports.drawn = 4;
  f.status.exports.written = 2;
  f.status.exports.total = 6;
  f.status.exports.record_message = running;
  f.harness.frames(2);
  EXPECT_NE(f.marks().find("progress:Record"), nullptr);
  EXPECT_EQ(f.marks().find("button:Record"), nullptr);
  ASSERT_TRUE(f.click_mark("input:fps"));
  f.harness.type("9");
  EXPECT_STREQ(f.state.record.fps, "12") << "the fields are locked while recording";
  ASSERT_TRUE(f.click_mark("button:Cancel recording"));
  EXPECT_TRUE(f.edits.exports.cancel_record);

  // Finished (cancelled): Record again, and the app's message.
  const std::string done =
      "cancelled after 2 frames of 6; the unfinished video walk.mp4 was removed";
  f.status.exports = ui::ExportStatus{};
  f.status.exports.record_message = done;
  f.harness.frames(2);
  EXPECT_NE(f.marks().find("button:Record"), nullptr);
  EXPECT_EQ(f.marks().find("progress:Record"), nullptr);
  const ui::Landmark* m = f.marks().find("text:Record message");
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(m->index, 0) << "not an error";

  // An error is shown as one (red) line.
  const std::string error = "a video needs ffmpeg, which is not installed";
  f.status.exports.record_message = error;
  f.status.exports.record_error = true;
  f.harness.frames(2);
  m = f.marks().find("text:Record message");
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(m->index, 1);
}

TEST(ExportClicks, ExportPoseAsksForTheTypedFileAndShowsTheResult) {
  const TempDir temp;
  const std::string posed = temp / "posed.glb";
  UiFixture f;
  ASSERT_TRUE(f.click_mark("header:Export"));
  EXPECT_STREQ(f.state.export_pose.out, "pose.glb");
  type_into(f, "input:Export pose", f.state.export_pose.out, posed.c_str());
  EXPECT_FALSE(f.state.export_pose.skinned);
  ASSERT_TRUE(f.click_mark("check:Skinned"));
  EXPECT_TRUE(f.state.export_pose.skinned);
  ASSERT_TRUE(f.click_mark("button:Export pose"));
  EXPECT_TRUE(f.edits.exports.export_pose);
  EXPECT_EQ(f.state.export_pose.out, posed);
  EXPECT_EQ(f.state.export_pose.target, posed);
  const std::string error = "'/tmp/posed.obj': want a file ending in .glb";
  f.status.exports.export_message = error;
  f.status.exports.export_error = true;
  f.harness.frames(2);
  const ui::Landmark* m = f.marks().find("text:Export message");
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(m->index, 1);
}

TEST(ExportClicks, TheExportTargetIsAFullPath) {
  EXPECT_EQ(ui::export_target("x.glb", "/work/here"), "/work/here/x.glb");
  EXPECT_EQ(ui::export_target("", "/work/here"), "/work/here/pose.glb");
  EXPECT_EQ(ui::export_target("/abs/y.glb", "/work/here"), "/abs/y.glb");
  EXPECT_EQ(ui::export_target("../z.glb", "/work/here"), "/work/z.glb");
  const TempDir temp;
  EXPECT_EQ(ui::export_target(temp.path(), "/elsewhere"), temp / "pose.glb")
      << "a folder gets pose.glb inside it";
}

// The field names the full path; a file that exists is replaced only after "Replace" in the popup
// (Cancel keeps it and asks nothing of the app).
TEST(ExportClicks, ExportPoseNamesTheFullPathAndAsksBeforeReplacingAFile) {
  const TempDir temp;
  UiFixture f;
  ASSERT_TRUE(f.click_mark("header:Export"));
  const std::string cwd = std::filesystem::current_path().string();
  EXPECT_EQ(f.state.export_pose.target, cwd + "/pose.glb");
  EXPECT_NE(f.marks().find("text:Export target"), nullptr);
  type_into(f, "input:Export pose", f.state.export_pose.out, temp.path().c_str());
  EXPECT_EQ(f.state.export_pose.target, temp / "pose.glb");
  std::ofstream(temp / "pose.glb") << "old";
  ASSERT_TRUE(f.click_mark("button:Export pose"));
  EXPECT_FALSE(f.edits.exports.export_pose) << "asked the app to replace a file unasked";
  f.harness.frame();
  ASSERT_NE(f.marks().find("button:Replace"), nullptr) << "no popup asks";
  ASSERT_TRUE(f.harness.click_mark(f.marks(), "button:Keep"));
  f.harness.frame();
  EXPECT_EQ(f.marks().find("button:Replace"), nullptr);
  ASSERT_TRUE(f.click_mark("button:Export pose"));
  f.harness.frame();
  ASSERT_TRUE(f.harness.click_mark(f.marks(), "button:Replace"));
  EXPECT_TRUE(f.edits.exports.export_pose);
  f.harness.frame();
  EXPECT_EQ(f.marks().find("button:Replace"), nullptr) << "the popup closed";
}

}  // namespace
}  // namespace sv::test
