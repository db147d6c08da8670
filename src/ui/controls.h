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
inline constexpr int kKey1 = 49, kKey3 = 51, kKey5 = 53, kKey7 = 55;
inline constexpr int kKeyA = 65, kKeyF = 70, kKeyG = 71, kKeyI = 73, kKeyM = 77, kKeyQ = 81,
                     kKeyS = 83, kKeyV = 86, kKeyW = 87, kKeyZ = 90;
inline constexpr int kKeyLeftBracket = 91, kKeyRightBracket = 93;
inline constexpr int kKeyEscape = 256, kKeyEnter = 257, kKeyTab = 258, kKeyBackspace = 259;
inline constexpr int kKeyDelete = 261, kKeyRight = 262, kKeyLeft = 263, kKeyDown = 264;
inline constexpr int kKeyUp = 265, kKeyPageUp = 266, kKeyPageDown = 267, kKeyHome = 268;
inline constexpr int kKeyEnd = 269, kKeyF1 = 290, kKeyF12 = 301;
inline constexpr int kKeyKeypad1 = 321, kKeyKeypad3 = 323, kKeyKeypad5 = 325, kKeyKeypad7 = 327;
inline constexpr int kKeyKeypadDecimal = 330, kKeyKeypadEnter = 335;
inline constexpr int kModShift = 0x0001;    // GLFW_MOD_SHIFT
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
  FrameSelected,
  ResetView,
  ViewFront,
  ViewBack,
  ViewRight,
  ViewLeft,
  ViewTop,
  ViewBottom,
  ToggleOrtho,
  ViewUndo,
  ViewRedo,
  Screenshot,
  Wireframe,
  Skeleton,
  SkinningPath,
  SkinMethod,
  Influences,
  NextView,
  Help,
  CloseHelp,
  Quit,
};

// Modifiers: a binding with Control needs Control held, and then Shift must match too (Ctrl+Z
// and Ctrl+Shift+Z are two shortcuts); a plain binding wants no Control and ignores Shift (it is
// part of typing on some layouts).
struct Binding {
  // As the user reads it: "Left drag", "Space", "F1 or ?". Null: this row is a continuation of
  // the listed row above it (another key of the same line of help, e.g. Numpad 3 under 1).
  const char* input;
  const char* what;  // what it does (null on a continuation)
  Action action;
  int key = 0;         // a GLFW key code, 0 for mouse bindings
  int mods = 0;        // modifier bits that must be held with `key` (kModControl, kModShift)
  int key2 = 0;        // a second key for the same action, 0 if none
  uint32_t typed = 0;  // a typed character (layout-independent, e.g. '?'), 0 if none
  int mods2 = 0;       // modifier bits that must be held with `key2`
};

// clang-format off
inline constexpr Binding kBindings[] = {
    {"Left click", "select the joint under the cursor (on the mesh: the one weighing most there)",
     Action::Pick},
    {"Hover", "the vertex under the cursor, its joints and weights (a tooltip)", Action::Hover},
    {"Left drag", "orbit the camera around the model", Action::Orbit},
    {"Right or middle drag", "pan the camera", Action::Pan},
    {"Wheel", "zoom toward the cursor: the point under it stays put (within the model's size)",
     Action::Zoom},
    {"Drop a file", "open it (as the path box, Browse and Recent do)", Action::OpenDropped},
    {"Space", "play / pause; at the end of a clip that does not loop, play starts it over",
     Action::TogglePlay, kKeySpace},
    {"Left", "one frame back (pauses)", Action::StepBack, kKeyLeft},
    {"Right", "one frame forward (pauses)", Action::StepForward, kKeyRight},
    {"Page Up", "previous key of the selected joint (of any joint when none is selected)",
     Action::PreviousKey, kKeyPageUp},
    {"Page Down", "next key of the selected joint (of any joint when none is selected)",
     Action::NextKey, kKeyPageDown},
    {"Numpad . or F", "frame the selected joint and the vertices it skins (the whole model when "
     "nothing is selected)", Action::FrameSelected, kKeyKeypadDecimal, 0, kKeyF},
    {"A", "frame all: the current clip's animated bounds", Action::Frame, kKeyA},
    {"Home", "reset the view (the direction and framing a file opens with)", Action::ResetView,
     kKeyHome},
    // Blender's numpad views; the top row's digits stand in on laptops (Blender's "Emulate
    // Numpad").
    {"Numpad 1, 3, 7 (or 1, 3, 7)", "front, right, top view, orthographic until you orbit; "
     "with Ctrl: back, left, bottom", Action::ViewFront, kKeyKeypad1, 0, kKey1},
    {nullptr, nullptr, Action::ViewRight, kKeyKeypad3, 0, kKey3},
    {nullptr, nullptr, Action::ViewTop, kKeyKeypad7, 0, kKey7},
    {nullptr, nullptr, Action::ViewBack, kKeyKeypad1, kModControl, kKey1, 0, kModControl},
    {nullptr, nullptr, Action::ViewLeft, kKeyKeypad3, kModControl, kKey3, 0, kModControl},
    {nullptr, nullptr, Action::ViewBottom, kKeyKeypad7, kModControl, kKey7, 0, kModControl},
    {"Numpad 5 or 5", "perspective / orthographic", Action::ToggleOrtho, kKeyKeypad5, 0, kKey5},
    // Maya's keys for undo / redo view change; Ctrl+Z as in most editors. Ctrl+Z is the path
    // box's own undo while it is being typed in: there only [ and ] act on the view.
    {"[ or Ctrl+Z", "undo the last view change (32 are kept)", Action::ViewUndo,
     kKeyLeftBracket, 0, kKeyZ, 0, kModControl},
    {"] or Ctrl+Shift+Z", "redo the view change undone", Action::ViewRedo, kKeyRightBracket, 0,
     kKeyZ, 0, kModControl | kModShift},
    {"F12", "save the viewport as a PNG next to the model (a new name each time)",
     Action::Screenshot, kKeyF12},
    {"W", "wireframe on / off", Action::Wireframe, kKeyW},
    {"S", "skeleton overlay on / off", Action::Skeleton, kKeyS},
    {"G", "CPU / GPU skinning", Action::SkinningPath, kKeyG},
    {"M", "next skinning method: LBS, DQS (dual quaternions), CoR (centres of rotation)",
     Action::SkinMethod, kKeyM},
    {"I", "4 / 8 influences per vertex (8 where the file has more than 4)", Action::Influences,
     kKeyI},
    {"V", "next view mode: shaded, weights, dominant joint, influences, weight-sum error, CPU vs "
     "GPU, method difference", Action::NextView, kKeyV},
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

// The table as plain text for `skinview --help` ("Controls:" and one line per listed binding).
std::string controls_text();
// The table as a Markdown list, the README's "Controls" section.
std::string controls_markdown();

// The help overlay: a window over the viewport listing kBindings; `open` is cleared by its close
// button. Call between NewFrame and Render.
void help_overlay(bool* open);

}  // namespace sv::ui
