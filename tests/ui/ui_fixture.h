// The window's UI with a real model, in a headless ImGui context: the default character
// (assets/default.glb, read by the importer) posed by an Animator, the real ui::draw_ui each
// frame, and what the frame returned. Tests click through ImGuiHarness and read the state back.
#pragma once

#include <string>
#include <vector>

#include "anim/animator.h"
#include "anim/model.h"
#include "anim/player.h"
#include "imgui_harness.h"
#include "io/import.h"
#include "ui/ui.h"

namespace sv::test {

class UiFixture {
 public:
  explicit UiFixture(const std::string& path = std::string(SKINVIEW_SOURCE_DIR) +
                                               "/assets/default.glb",
                     float width = 1280.0f, float height = 720.0f)
      : harness(width, height) {
    ImportResult r = import_model(path);
    if (!r.ok()) {
      ADD_FAILURE() << r.error;
      return;
    }
    model = std::move(*r.model);
    this->path = path;
    report = r.report.notes;
    animator = SkinnedPose(model);
    influence = joint_influences(model);
    player.clip = model.clips.empty() ? kRestPose : 0;
    player.playing = false;
    state.new_model(model);
    harness.draw = [this] {
      pose();
      ui::SceneView v;
      v.model = &model;
      v.player = &player;
      v.stack = &stack;
      v.path = this->path;
      v.report = report;
      v.pose = &animator.pose;
      v.model_matrices = animator.pose.model_matrices();
      v.influence = influence;
      v.times = &animator.times();
      v.centers_progress = centers_progress;
      v.volume = volume;
      v.volume_method = volume_method;
      v.from_cache = from_cache;
      v.model_size = model_size;
      v.unit_metres = unit_metres;
      v.crowd = crowd;
      edits = ui::draw_ui(v, status, keys, state);
      if (edits.open) ++open_requests;
      if (edits.add_animations) ++add_requests;
      if (edits.compare) ++compare_requests;
      if (edits.save_range) ++save_range_requests;
      keys.clear();
    };
    harness.frames(2);
  }

  // Poses the player's clip, or the layer stack over it, as the window does (app_common.cpp).
  void pose() {
    animator.pose.set_morph_overrides(state.morph_overrides);  // as the window does (viewer.cpp)
    if (stack.blends() && player.clip >= 0) {
      frame_layers.resize(stack.size());
      if (stack.frame(model, player, frame_layers) &&
          animator.pose.set_layers(model, frame_layers).empty() &&
          animator.evaluate(model, frame_layers))
        return;
      ADD_FAILURE() << "the layer stack did not pose";
    }
    animator.pose.set_clip(model, player.clip);
    animator.evaluate(model, player.clip >= 0 ? PoseMode::Clip : PoseMode::Rest, player.time);
  }

  const ui::Landmarks& marks() const { return state.landmarks; }

  // Scrolls the window that drew the landmark `name` (index as Landmarks::find) with the mouse
  // wheel until the landmark is inside it, as a user does before clicking something below the
  // fold, then clicks it. False (a test failure) when it cannot be found.
  bool click_mark(std::string_view name, int32_t index = -1) {
    // One frame first: a panel whose content just shrank clamps its scroll a frame later, which
    // moves what is below; the landmarks are then where the click will land.
    harness.frame();
    for (int tries = 0; tries < 60; ++tries) {
      const ui::Landmark* m = marks().find(name, index);
      if (m == nullptr) break;
      const ui::Rect& w = m->window;
      if (w.area() <= 0.0f || (m->rect.y >= w.y && m->rect.bottom() <= w.bottom())) break;
      harness.io().MousePos = ImVec2(w.x + 0.5f * w.w, w.y + 0.5f * w.h);
      harness.io().MouseWheel = m->rect.y < w.y ? 1.0f : -1.0f;
      harness.frame();
    }
    return harness.click_mark(marks(), name, index);
  }
  int32_t joint(const char* name) const { return model.skeleton.find(name); }
  double duration() const {
    return player.clip >= 0 ? model.clips[static_cast<std::size_t>(player.clip)].duration() : 0.0;
  }
  // Queues a key press (or a typed character) for the next frame, as the window's callbacks do.
  void press(int key, int mods = 0) {
    keys.push_back({key, mods, 0});
    harness.frame();
  }
  void typed(uint32_t c) {
    keys.push_back({0, 0, c});
    harness.frame();
  }

  ImGuiHarness harness;
  std::string path;
  Model model;
  std::vector<std::string> report;
  SkinnedPose animator;
  std::vector<JointInfluence> influence;
  Player player;
  StackPlayer stack;
  std::vector<Layer> frame_layers;
  ui::ViewerState state;
  ui::StatusView status;
  std::vector<ui::KeyEvent> keys;
  ui::UiEdits edits;               // the last frame's
  float centers_progress = -1.0f;  // SceneView::centers_progress (CoR's centres being computed)
  const VolumeFigures* volume = nullptr;  // SceneView::volume
  SkinMethod volume_method = SkinMethod::Lbs;
  bool from_cache = false;       // SceneView::from_cache
  glm::vec3 model_size{0.0f};    // SceneView::model_size
  double unit_metres = 0.0;      // SceneView::unit_metres
  const Crowd* crowd = nullptr;  // SceneView::crowd
  int open_requests = 0;         // frames whose edits asked to open a file (a click spans frames)
  int add_requests = 0;          // ... and to add a file's animations ("Add animations...")
  int compare_requests = 0;      // ... and to compare the model with a file ("Compare with...")
  int save_range_requests = 0;   // ... and to save the in and out points ("Save range...")
};

}  // namespace sv::test
