// The camera's keys and buttons in the headless UI (imgui_harness.h): each key maps to its
// action (the numpad and the top row's digits, Ctrl for the opposite side), the app-side ones
// come back in UiEdits::view, the toggles say what they did in the viewport's toast, and typing
// in a text field is not a shortcut (Ctrl+Z there is the field's undo).
#include <string>

#include <gtest/gtest.h>

#include "ui_fixture.h"

namespace sv::test {
namespace {

using ui::Action;

TEST(CameraKeys, NumpadTopRowAndCtrlMapToTheAxisViews) {
  struct Case {
    int key, mods;
    Action action;
  };
  const Case cases[] = {
      {ui::kKeyKeypad1, 0, Action::ViewFront},
      {ui::kKey1, 0, Action::ViewFront},
      {ui::kKeyKeypad1, ui::kModControl, Action::ViewBack},
      {ui::kKey1, ui::kModControl, Action::ViewBack},
      {ui::kKeyKeypad3, 0, Action::ViewRight},
      {ui::kKey3, 0, Action::ViewRight},
      {ui::kKeyKeypad3, ui::kModControl, Action::ViewLeft},
      {ui::kKey3, ui::kModControl, Action::ViewLeft},
      {ui::kKeyKeypad7, 0, Action::ViewTop},
      {ui::kKey7, 0, Action::ViewTop},
      {ui::kKeyKeypad7, ui::kModControl, Action::ViewBottom},
      {ui::kKey7, ui::kModControl, Action::ViewBottom},
      {ui::kKeyKeypad5, 0, Action::ToggleOrtho},
      {ui::kKey5, 0, Action::ToggleOrtho},
      {ui::kKeyKeypadDecimal, 0, Action::FrameSelected},
      {ui::kKeyF, 0, Action::FrameSelected},
      {ui::kKeyA, 0, Action::Frame},
      {ui::kKeyLeftBracket, 0, Action::ViewUndo},
      {ui::kKeyZ, ui::kModControl, Action::ViewUndo},
      {ui::kKeyRightBracket, 0, Action::ViewRedo},
      {ui::kKeyZ, ui::kModControl | ui::kModShift, Action::ViewRedo},
      {ui::kKeyF12, 0, Action::Screenshot},
      // Shift does not change a plain key (AZERTY types digits with it); Z alone is nothing.
      {ui::kKey3, ui::kModShift, Action::ViewRight},
      {ui::kKeyZ, 0, Action::None},
      {ui::kKeyKeypad5, ui::kModControl, Action::None},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(ui::action_for({c.key, c.mods, 0}), c.action) << c.key << " mods " << c.mods;
  }
}

TEST(CameraKeys, TheAppsCameraCommandsComeBackAsEdits) {
  UiFixture f;
  const struct {
    int key, mods;
    Action action;
  } cases[] = {{ui::kKeyKeypad1, 0, Action::ViewFront},
               {ui::kKeyKeypad7, ui::kModControl, Action::ViewBottom},
               {ui::kKey5, 0, Action::ToggleOrtho},
               {ui::kKeyKeypadDecimal, 0, Action::FrameSelected},
               {ui::kKeyLeftBracket, 0, Action::ViewUndo},
               {ui::kKeyZ, ui::kModControl | ui::kModShift, Action::ViewRedo},
               {ui::kKeyF12, 0, Action::Screenshot}};
  for (const auto& c : cases) {
    f.press(c.key, c.mods);
    EXPECT_EQ(f.edits.view, c.action) << c.key;
    f.harness.frame();
    EXPECT_EQ(f.edits.view, Action::None) << "an edit lasts one frame";
  }
  f.press(ui::kKeyA);
  EXPECT_TRUE(f.edits.frame);
}

TEST(CameraKeys, EveryToggleKeySaysWhatItDidInTheViewport) {
  UiFixture f;
  EXPECT_FALSE(f.state.toast.visible(ImGui::GetTime()));
  const struct {
    int key;
    const char* says;
  } cases[] = {{ui::kKeyW, "Wireframe on (W)"},
               {ui::kKeyW, "Wireframe off (W)"},
               {ui::kKeyS, "Skeleton on (S)"},
               {ui::kKeyG, "CPU skinning (G)"},
               {ui::kKeyG, "GPU skinning (G)"},
               {ui::kKeyM, "Skinning method: DQS (M)"},
               {ui::kKeyI, "8 influences per vertex (I)"}};
  for (const auto& c : cases) {
    f.press(c.key);
    EXPECT_EQ(std::string(f.state.toast.text.data()), c.says);
    EXPECT_TRUE(f.state.toast.visible(ImGui::GetTime()));
  }
  // It goes after kToastSeconds of frames (the harness's clock: 1/60 s a frame).
  const int frames = static_cast<int>(ui::kToastSeconds * 60.0) + 2;
  f.harness.frames(frames);
  EXPECT_FALSE(f.state.toast.visible(ImGui::GetTime()));
}

// V steps through the view modes in the View combo's order, saying which in the viewport, and
// wraps from the weight change (Compare with...) to shaded; the combo shows the mode the key chose.
TEST(CameraKeys, VStepsThroughTheViewModes) {
  UiFixture f;
  ASSERT_EQ(f.state.render.view, ViewMode::Shaded);
  const struct {
    ViewMode view;
    const char* says;
  } steps[] = {{ViewMode::Weights, "View: Weights (selected joint) (V)"},
               {ViewMode::Dominant, "View: Dominant joint (V)"},
               {ViewMode::Influences, "View: Influences (V)"},
               {ViewMode::WeightSum, "View: Weight-sum error (V)"},
               {ViewMode::CpuGpu, "View: CPU vs GPU difference (V)"},
               {ViewMode::MethodDiff, "View: Method difference (V)"},
               {ViewMode::WeightChange, "View: Weight change (Compare with...) (V)"},
               {ViewMode::Shaded, "View: Shaded (V)"}};
  for (const auto& s : steps) {
    f.press(ui::kKeyV);
    EXPECT_EQ(f.state.render.view, s.view);
    EXPECT_EQ(std::string(f.state.toast.text.data()), s.says);
    EXPECT_TRUE(f.state.toast.visible(ImGui::GetTime()));
  }
  // Typing a V into the joint filter is typing.
  f.harness.click_mark(f.marks(), "input:filter");
  f.harness.type("v");
  f.press(ui::kKeyV);
  EXPECT_EQ(f.state.render.view, ViewMode::Shaded);
}

TEST(CameraKeys, TypingInAFieldIsNotAViewShortcut) {
  UiFixture f;
  f.harness.click_mark(f.marks(), "input:filter");
  f.harness.type("hand");
  f.press(ui::kKeyZ, ui::kModControl);  // the field's undo, not the view's
  EXPECT_EQ(f.edits.view, Action::None);
  f.press(ui::kKey3);
  EXPECT_EQ(f.edits.view, Action::None);
  f.press(ui::kKeyKeypadDecimal);
  EXPECT_EQ(f.edits.view, Action::None);
  f.press(ui::kKeyQ, ui::kModControl);  // other Ctrl shortcuts still act
  EXPECT_TRUE(f.edits.quit);
}

TEST(CameraKeys, TheViewButtonsAskForTheSameCommands) {
  UiFixture f;
  f.harness.click_mark(f.marks(), "button:Frame selected");
  EXPECT_EQ(f.edits.view, Action::FrameSelected);
  f.harness.click_mark(f.marks(), "button:Front");
  EXPECT_EQ(f.edits.view, Action::ViewFront);
  f.harness.click_mark(f.marks(), "button:Right");
  EXPECT_EQ(f.edits.view, Action::ViewRight);
  f.harness.click_mark(f.marks(), "button:Top");
  EXPECT_EQ(f.edits.view, Action::ViewTop);
  f.harness.click_mark(f.marks(), "button:Ortho");
  EXPECT_EQ(f.edits.view, Action::ToggleOrtho);
  f.harness.click_mark(f.marks(), "button:Reset view");
  EXPECT_TRUE(f.edits.reset_view);
}

}  // namespace
}  // namespace sv::test
