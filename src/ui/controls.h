// Every mouse and keyboard binding of the window, in one table. The help overlay (? or F1),
// `skinview --help` and the README's "Controls" list are all made from kBindings, and the
// window's key handling looks keys up in it, so what is documented is what the keys do
// (tests/ui/controls_test.cpp compares the README with controls_markdown()).
//
// Key codes are GLFW's: the GLFW backend of Dear ImGui indexes io.KeysDown with them, and the
// window queues GLFW key presses for handle_keys() (a press and release within one frame would
// otherwise be missed: ImGui 1.86 samples key state once per frame). app/viewer.cpp checks
// with static_assert that these constants equal GLFW's, so src/ui/ needs no GLFW header.
#pragma once

#include <cstdint>
#include <span>
#include <string>

namespace sv::ui {

inline constexpr int kKeySpace = 32;
inline constexpr int kKeyF = 70, kKeyG = 71, kKeyI = 73, kKeyM = 77, kKeyQ = 81, kKeyS = 83,
                     kKeyW = 87;
inline constexpr int kKeyEscape = 256, kKeyEnter = 257, kKeyTab = 258, kKeyBackspace = 259;
inline constexpr int kKeyDelete = 261, kKeyRight = 262, kKeyLeft = 263, kKeyDown = 264;
inline constexpr int kKeyUp = 265, kKeyPageUp = 266, kKeyPageDown = 267, kKeyHome = 268;
inline constexpr int kKeyEnd = 269, kKeyF1 = 290, kKeyKeypadEnter = 335;
inline constexpr int kModControl = 0x0002;  // GLFW_MOD_CONTROL

enum class Action : uint8_t {
  None,
  Pick,
  Hover,
  Orbit,
  Pan,
  Zoom,
  OpenDropped,
  TogglePlay,
  StepBack,
  StepForward,
  PreviousKey,
  NextKey,
  Frame,
  ResetView,
  Wireframe,
  Skeleton,
  SkinningPath,
  SkinMethod,
  Influences,
  Help,
  CloseHelp,
  Quit,
};

struct Binding {
  const char* input;  // as the user reads it: "Left drag", "Space", "F1 or ?"
  const char* what;   // what it does
  Action action;
  int key = 0;         // a GLFW key code, 0 for mouse bindings
  int mods = 0;        // modifier bits that must be held (kModControl)
  int key2 = 0;        // a second key for the same action, 0 if none
  uint32_t typed = 0;  // a typed character (layout-independent, e.g. '?'), 0 if none
};

// clang-format off
inline constexpr Binding kBindings[] = {
    {"Left click", "select the joint under the cursor (on the mesh: the one weighing most there)",
     Action::Pick},
    {"Hover", "the vertex under the cursor, its joints and weights (a tooltip)", Action::Hover},
    {"Left drag", "orbit the camera around the model", Action::Orbit},
    {"Right or middle drag", "pan the camera", Action::Pan},
    {"Wheel", "zoom (clamped to the model's size)", Action::Zoom},
    {"Drop a file", "open it (as the path box, Browse and Recent do)", Action::OpenDropped},
    {"Space", "play / pause; at the end of a clip that does not loop, play starts it over",
     Action::TogglePlay, kKeySpace},
    {"Left", "one frame back (pauses)", Action::StepBack, kKeyLeft},
    {"Right", "one frame forward (pauses)", Action::StepForward, kKeyRight},
    {"Page Up", "previous key of the selected joint (of any joint when none is selected)",
     Action::PreviousKey, kKeyPageUp},
    {"Page Down", "next key of the selected joint (of any joint when none is selected)",
     Action::NextKey, kKeyPageDown},
    {"F", "frame the current clip's animated bounds in the viewport", Action::Frame, kKeyF},
    {"Home", "reset the view (the direction and framing a file opens with)", Action::ResetView,
     kKeyHome},
    {"W", "wireframe on / off", Action::Wireframe, kKeyW},
    {"S", "skeleton overlay on / off", Action::Skeleton, kKeyS},
    {"G", "CPU / GPU skinning", Action::SkinningPath, kKeyG},
    {"M", "next skinning method: LBS, DQS (dual quaternions), CoR (centres of rotation)",
     Action::SkinMethod, kKeyM},
    {"I", "4 / 8 influences per vertex (8 where the file has more than 4)", Action::Influences,
     kKeyI},
    {"F1 or ?", "show or hide this list of controls (the help overlay)", Action::Help, kKeyF1, 0,
     0, '?'},
    {"Esc", "close the help", Action::CloseHelp, kKeyEscape},
    {"Ctrl+Q", "quit", Action::Quit, kKeyQ, kModControl},
};
// clang-format on

// A key press or a typed character, queued by the window as it arrives (see above).
struct KeyEvent {
  int key = 0;         // GLFW key code of a press or repeat; 0 for a typed character
  int mods = 0;        // modifier bits held
  uint32_t typed = 0;  // the character typed; 0 for a key press
};

// The action bound to one event, Action::None when none is.
Action action_for(const KeyEvent& event) noexcept;

// The table as plain text for `skinview --help` ("Controls:" and one line per binding).
std::string controls_text();
// The table as a Markdown list, the README's "Controls" section.
std::string controls_markdown();

// The help overlay: a window over the viewport listing kBindings; `open` is cleared by its close
// button. Call between NewFrame and Render.
void help_overlay(bool* open);

}  // namespace sv::ui
