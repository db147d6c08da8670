// The window's UI, one call per frame: ui::draw_ui() lays the panels out around the viewport
// (layout.h), reads the viewport's mouse (viewport.h) and the queued keys (controls.h), draws the
// outliner, the inspector, the timeline and the help overlay, and returns what the app must do
// (open a file, frame, reset the view, quit). It works on any ImGui context: the window's, the
// screenshot's, and the tests' headless one (tests/ui/), which clicks the real panels.
//
// The panels read the model and the pose through SceneView and never own them; they edit only
// the Player, the StackPlayer (layers, cross-fade) and the ViewerState they are given; they
// issue no GL calls. Per frame nothing here
// allocates (caches are rebuilt only when the model, the clip, the selection or the filter
// changes).
#pragma once

#include <cstddef>
#include <iterator>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <glm/mat4x4.hpp>

#include "anim/animator.h"
#include "anim/model.h"
#include "anim/player.h"
#include "anim/stack_player.h"
#include "anim/transform.h"
#include "skin/volume.h"
#include "ui/controls.h"
#include "ui/viewer_state.h"

namespace sv::ui {

// The loaded model as the panels see it. model == nullptr: nothing loaded (player and stack null
// too).
struct SceneView {
  const Model* model = nullptr;
  Player* player = nullptr;
  StackPlayer* stack = nullptr;  // the layers over the player's clip and a cross-fade (editable)
  std::string_view path;
  std::span<const std::string> report;  // import notes
  bool from_cache = false;              // the model came from the model cache
  // The rest pose's extent in model space (the file's units; 0 when unknown) and the file's
  // unit in metres (ImportReport::unit_metres; 0: the file does not say): the Model section.
  glm::vec3 model_size{0.0f};
  double unit_metres = 0.0;
  const Animator* pose = nullptr;             // the current pose (local() samples one joint)
  std::span<const glm::mat4> model_matrices;  // per joint, model space
  std::span<const JointInfluence> influence;  // per joint
  const StageTimes* times = nullptr;          // the last frame's pose stages
  double upload_seconds = 0.0;                // upload + draw calls, CPU side
  double gpu_seconds = -1.0;                  // GPU time of the mesh draws; < 0 unmeasured
  double difference_seconds = -1.0;  // the difference view's last update (wall); < 0: none ran
  std::size_t bones = 0, vertices = 0;
  bool z_up = false;  // the model is shown turned upright (Z-up file)
  // CoR's centres of rotation (app/center_task.h): < 0 not started, [0, 1) being computed (the
  // fraction done; the mesh is skinned with LBS meanwhile), 1 known.
  float centers_progress = -1.0f;
  bool centers_failed = false;  // computed, but refused by some mesh: CoR draws LBS
  uint32_t centers_merge = 1;   // > 1: computed on merged surface elements (a work budget)
  int centers_depth = 4;        // < 4: subdivided less deeply (an element budget)
  // The player's clip's volume change per closed mesh against the rest pose (skin/volume.h)
  // under `volume_method`, the method the mesh is skinned with now; null for no clip or no mesh.
  const VolumeFigures* volume = nullptr;
  bool volume_pending = false;  // the figures are being measured (off the frame thread)
  SkinMethod volume_method = SkinMethod::Lbs;
  // The crowd drawn this frame (skin/crowd.h), null when none; its upload's CPU time; why a
  // requested crowd is off.
  const Crowd* crowd = nullptr;
  double crowd_upload_seconds = 0.0;
  std::string_view crowd_error;
  // The frame record's clock figures (app/frame.h): the clip's playback against real time over
  // the last frames (1: real time; 0.46: frames take longer than the clock may step, so the clip
  // plays slower) and the mean true frame time, seconds (0: none timed yet).
  double realtime = 1.0;
  double frame_seconds = 0.0;
};

// The timeline's notice when the clip plays slower than real time, e.g. "playing at 0.46x:
// frames take 540 ms", written into `out` (no allocation); false (and `out` empty) at real time.
bool slow_playback_notice(const SceneView& scene, char* out, std::size_t size);

// The app's state the panels show: reads in progress, errors, frame times.
struct StatusView {
  LoadStatus load;
  std::span<const float> frame_times;  // a ring of the last frame times, seconds
  std::size_t frame_newest = 0;        // index of the oldest entry (PlotLines' offset)
  ExportStatus exports;                // the Record control's progress, the last export's result
};

// The mean of the frame times drawn so far, seconds (0 when none): the ring starts as zeros, and
// counting them would overstate the rate for the first seconds.
float mean_frame_seconds(std::span<const float> frame_times);

struct UiEdits {
  bool open = false;        // open state.files.open_path
  bool frame = false;       // frame the current clip's bounds (F, the Frame button)
  bool reset_view = false;  // back to the opening view (Home)
  bool up_axis = false;     // the up axis changed (scene's z_up: state.render.z_up)
  bool quit = false;        // Ctrl+Q
  // Add state.files.open_path's clips to the open model ("Add animations...").
  bool add_animations = false;
  // Compare the open model with state.files.open_path ("Compare with...": app/compare.h).
  bool compare = false;
  // Save the player's in and out points as the clip range state.timeline.range_name (the
  // timeline's "Save range": app/clip_ranges.h).
  bool save_range = false;
  // A camera command the app carries out (it owns the camera and the pose): FrameSelected, the
  // View* axis views, ToggleOrtho, ViewUndo, ViewRedo, Screenshot; None when none. The last key
  // of a frame wins.
  Action view = Action::None;
  ExportRequests exports;  // Record, Cancel, Export pose (state.record, state.export_pose)
};

// The View combo's names of the view modes, in ViewMode's order (the V key's message too).
inline constexpr const char* kViewModeLabels[] = {"Shaded",
                                                  "Weights (selected joint)",
                                                  "Dominant joint",
                                                  "Influences",
                                                  "Weight-sum error",
                                                  "CPU vs GPU difference",
                                                  "Method difference",
                                                  "Weight change (Compare with...)"};
inline constexpr int kViewModeCount = static_cast<int>(std::size(kViewModeLabels));

// One frame of UI, between ImGui::NewFrame() and ImGui::Render(), in two halves around the
// frame the panels show (app/window_frame.h):
//  - begin_ui lays the panels out, reads the viewport's mouse and applies the keys queued since
//    the last frame (they act unless an ImGui text field has the keyboard), before the frame is
//    computed, so a key's effect (Space, an arrow) is in the frame it is pressed for;
//  - draw_panels draws the outliner, the inspector, the timeline and the help overlay from the
//    frame just computed and drawn: what they show is the picture on screen. Their edits act on
//    the next frame.
UiEdits begin_ui(const SceneView& scene, std::span<const KeyEvent> keys, ViewerState& state);
void draw_panels(const SceneView& scene, const StatusView& status, ViewerState& state,
                 UiEdits& edits);
// Both halves over one SceneView (pictures with --ui, tests of the panels alone).
UiEdits draw_ui(const SceneView& scene, const StatusView& status, std::span<const KeyEvent> keys,
                ViewerState& state);

// The panels draw_ui places (each inside the current ImGui window).
bool outliner_panel(const SceneView& scene, const StatusView& status, ViewerState& state,
                    UiEdits& edits);
void inspector_panel(const SceneView& scene, const StatusView& status, ViewerState& state,
                     UiEdits& edits);
void timeline_panel(const SceneView& scene, ViewerState& state, UiEdits& edits);
// The inspector's Layers section (layers_panel.cpp): the base, a cross-fade to another clip, and
// the layers over it (add, remove, reorder, clip, weight, mode, mask; the mask is ticked in the
// outliner's joint tree while its layer's "Edit mask" is on).
void layers_section(const SceneView& scene, ViewerState& state);
// The inspector's Morph targets section (morphs_panel.cpp): nothing when no mesh has targets.
void morphs_section(const SceneView& scene, ViewerState& state);
// The inspector's Crowd section (crowd_panel.cpp): instances, spacing, shared palettes, clips
// and phases of the crowd drawn around the model (state.crowd).
void crowd_section(const SceneView& scene, ViewerState& state);
// The timeline's rows under the scrub bar: each layer's (and a fade target's) own time, on a bar
// that scrubs it.
void layer_timelines(const SceneView& scene, ViewerState& state);
// The mask the joint tree edits this frame (state.layers.mask_layer's), or null.
std::vector<float>* edited_mask(const SceneView& scene, const ViewerState& state) noexcept;

// The key times the scrub bar marks and the key steps jump between: the selected joint's in the
// player's clip (every joint's when none is selected), sorted; cached in state.timeline and
// recomputed only when the clip, the selection or the model changes.
std::span<const double> selected_keys(const Model& model, const Player& player, ViewerState& state);

// Applies a key action to the player, the render options and the help overlay; the actions that
// need the app (frame, reset view, quit) go to `edits`.
void apply_action(Action action, const SceneView& scene, ViewerState& state, UiEdits& edits);

}  // namespace sv::ui
