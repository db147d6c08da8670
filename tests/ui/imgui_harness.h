// A headless Dear ImGui context for tests that click the real panels, as Dear ImGui's own
// examples/example_null runs it: the font atlas is built (no texture is ever uploaded), frames run
// NewFrame -> panels -> Render with no renderer backend, and the mouse and keys are set through
// ImGuiIO between frames, as a platform backend would set them. Key codes are GLFW's (the
// window's backend uses them; ui/controls.h).
//
// A click is three frames (move, press, release), as a real one spans at least that many; widgets
// are found by their landmarks (ui/landmarks.h), never by hard-coded pixels.
#pragma once

#include <functional>
#include <string_view>

#include <gtest/gtest.h>
#include <imgui.h>
#include <imgui_internal.h>

#include "ui/controls.h"
#include "ui/landmarks.h"

namespace sv::test {

// Whether a tooltip was drawn in the last frame.
inline bool tooltip_shown() {
  ImGuiWindow* w = ImGui::FindWindowByName("##Tooltip_00");
  return w != nullptr && w->Active;
}

class ImGuiHarness {
 public:
  explicit ImGuiHarness(float width = 1280.0f, float height = 720.0f) {
    context_ = ImGui::CreateContext();
    ImGui::SetCurrentContext(context_);
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;
    io.LogFilename = nullptr;
    io.DisplaySize = ImVec2(width, height);
    io.DeltaTime = 1.0f / 60.0f;
    // As the GLFW backend declares: edges of windows resize them (needs mouse cursors).
    io.BackendFlags |= ImGuiBackendFlags_HasMouseCursors;
    unsigned char* pixels = nullptr;
    int w = 0, h = 0;
    io.Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);
    // The navigation keys text fields need, mapped to GLFW codes as the GLFW backend maps them.
    io.KeyMap[ImGuiKey_Tab] = ui::kKeyTab;
    io.KeyMap[ImGuiKey_LeftArrow] = ui::kKeyLeft;
    io.KeyMap[ImGuiKey_RightArrow] = ui::kKeyRight;
    io.KeyMap[ImGuiKey_UpArrow] = ui::kKeyUp;
    io.KeyMap[ImGuiKey_DownArrow] = ui::kKeyDown;
    io.KeyMap[ImGuiKey_PageUp] = ui::kKeyPageUp;
    io.KeyMap[ImGuiKey_PageDown] = ui::kKeyPageDown;
    io.KeyMap[ImGuiKey_Home] = ui::kKeyHome;
    io.KeyMap[ImGuiKey_End] = ui::kKeyEnd;
    io.KeyMap[ImGuiKey_Delete] = ui::kKeyDelete;
    io.KeyMap[ImGuiKey_Backspace] = ui::kKeyBackspace;
    io.KeyMap[ImGuiKey_Enter] = ui::kKeyEnter;
    io.KeyMap[ImGuiKey_KeyPadEnter] = ui::kKeyKeypadEnter;
    io.KeyMap[ImGuiKey_Escape] = ui::kKeyEscape;
    io.MousePos = ImVec2(-FLT_MAX, -FLT_MAX);
  }
  ~ImGuiHarness() { ImGui::DestroyContext(context_); }
  ImGuiHarness(const ImGuiHarness&) = delete;
  ImGuiHarness& operator=(const ImGuiHarness&) = delete;

  // What one frame draws (the panels); set once, run by every frame() call.
  std::function<void()> draw;

  void frame() {
    ImGui::SetCurrentContext(context_);
    ImGui::NewFrame();
    if (draw) draw();
    ImGui::Render();
    ImGuiIO& io = ImGui::GetIO();
    io.MouseWheel = 0.0f;
    io.InputQueueCharacters.resize(0);
  }
  void frames(int n) {
    for (int i = 0; i < n; ++i) frame();
  }

  ImGuiIO& io() { return ImGui::GetIO(); }
  void move(float x, float y) {
    io().MousePos = ImVec2(x, y);
    frame();
  }
  void click(float x, float y, int button = 0) {
    move(x, y);
    io().MouseDown[button] = true;
    frame();
    io().MouseDown[button] = false;
    frame();
  }
  void double_click(float x, float y) {
    click(x, y);
    io().MouseDown[0] = true;
    frame();
    io().MouseDown[0] = false;
    frame();
  }
  // Presses at (x0, y0), moves to (x1, y1) in `steps` frames, releases there.
  void drag(float x0, float y0, float x1, float y1, int button = 0, int steps = 4) {
    move(x0, y0);
    io().MouseDown[button] = true;
    frame();
    for (int i = 1; i <= steps; ++i) {
      const float u = static_cast<float>(i) / static_cast<float>(steps);
      io().MousePos = ImVec2(x0 + (x1 - x0) * u, y0 + (y1 - y0) * u);
      frame();
    }
    io().MouseDown[button] = false;
    frame();
  }
  void type(std::string_view text) {
    for (char c : text) io().AddInputCharacter(static_cast<unsigned char>(c));
    frame();
  }
  void key(int code) {
    io().KeysDown[code] = true;
    frame();
    io().KeysDown[code] = false;
    frame();
  }

  // Clicks the centre of the landmark `name` (index as Landmarks::find); fails the test and
  // returns false when the last frame drew no such landmark.
  bool click_mark(const ui::Landmarks& marks, std::string_view name, int32_t index = -1) {
    const ImVec2 at = mark_centre(marks, name, index);
    if (at.x < 0.0f) return false;
    click(at.x, at.y);
    return true;
  }
  // Rests the pointer on the landmark's centre for a frame, as click_mark finds it.
  bool hover_mark(const ui::Landmarks& marks, std::string_view name, int32_t index = -1) {
    const ImVec2 at = mark_centre(marks, name, index);
    if (at.x < 0.0f) return false;
    move(at.x, at.y);
    return true;
  }

 private:
  // The landmark's centre; (-1, -1), with the test failed, when the last frame drew none.
  static ImVec2 mark_centre(const ui::Landmarks& marks, std::string_view name, int32_t index) {
    const ui::Landmark* m = marks.find(name, index);
    if (m == nullptr) {
      ADD_FAILURE() << "no landmark '" << name << "' (" << index << ") in the last frame";
      return ImVec2(-1.0f, -1.0f);
    }
    return ImVec2(m->rect.x + 0.5f * m->rect.w, m->rect.y + 0.5f * m->rect.h);
  }

  ImGuiContext* context_ = nullptr;
};

}  // namespace sv::test
