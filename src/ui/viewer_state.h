// ViewerState: what the window's UI keeps from frame to frame and what its parts share — the
// one selection (outliner, viewport and inspector show and change the same joint), the render
// options the panels edit, the layout and this frame's viewport rectangle, the viewport's input,
// and each panel's own state. The app owns one; ui::draw_ui() (ui.h) reads and edits it each
// frame; the renderer and picking read the viewport rectangle and the selection from it.
//
// Plugging picking in (app/viewer.cpp, after draw_ui): when `input.clicked`, pick at
// (input.mouse_x, input.mouse_y) inside `viewport` with the camera and the current pose, then
// set selection.joint; while `input.hovered`, set the selection's hovered_* fields.
#pragma once

#include <cstdint>
#include <vector>

#include <glm/vec3.hpp>

#include "gfx/render_options.h"
#include "skin/crowd.h"
#include "ui/export_panel.h"
#include "ui/files.h"
#include "ui/landmarks.h"
#include "ui/layout.h"
#include "ui/legend_place.h"
#include "ui/outliner.h"
#include "ui/toast.h"
#include "ui/viewport.h"

namespace sv {
struct Model;
}

namespace sv::ui {

// One selection for every part of the window. Joint indices are skeleton joints.
struct Selection {
  int32_t joint = -1;           // the selected joint, -1 none
  int32_t hovered_joint = -1;   // the joint under the pointer in the viewport, -1 none
  int32_t hovered_mesh = -1;    // the mesh of the vertex under the pointer, -1 none
  uint32_t hovered_vertex = 0;  // that vertex (the Mesh's order); valid when hovered_mesh >= 0
};

struct TimelineState {
  std::vector<double> keys;  // key times of keys_joint in keys_clip (all joints when -1)
  int32_t keys_clip = -2;    // what `keys` was computed for (-2: nothing yet)
  int32_t keys_joint = -2;
  uint64_t keys_generation = 0;
  char range_name[64] = "range";  // the name "Save range" saves the in and out points under
};

// The Layers section's own state (the stack itself is the scene's: SceneView::stack).
struct LayersState {
  int32_t add_clip = 0;       // the clip "Add layer" adds
  int32_t fade_to = 0;        // the clip "Cross-fade" fades to
  float fade_seconds = 0.5f;  // the fade's duration
  bool fade_sync = true;      // keep the two clips in phase
  int32_t mask_layer = -1;    // the layer whose mask the joint tree's check boxes edit; -1 none
  int32_t timeline_rows = 0;  // rows past two (layers, wrapped controls) it was sized for
};

// The debug view's legend (ui/viewport_overlay.h, placed by ui/legend_place.h): collapsed by its
// title row, and where the last frame put it (for --exit-json and the tests).
struct LegendState {
  LegendFold fold = LegendFold::Auto;  // the user's choice (the title row toggles it)
  bool shown = false;                  // a legend was drawn last frame
  bool collapsed = false;              // it showed its title row only
  Rect rect;                // its rectangle, framebuffer pixels (as ViewerState::viewport)
  Rect model;               // the model's projected bounds it kept clear of, framebuffer pixels
  const char* corner = "";  // "bottom-right" ...
  bool collapsed_to_fit = false;  // shown as its title row: nowhere held it whole
  bool over_model = false;        // no corner was free of the model
};

struct ViewerState {
  RenderOptions render;  // the app copies selection.joint into render.selected_joint to draw
  Selection selection;
  LayoutPrefs layout_prefs;
  Layout layout;       // this frame's rectangles, display units
  PixelRect viewport;  // this frame's viewport, framebuffer pixels
  ViewportInput input;
  bool help_open = false;
  Toast toast;                 // what the last key did, briefly in the viewport (toast.h)
  ViewportNotes notes;         // where this frame's hint and toast went (toast.h)
  float ui_scale = 1.0f;       // the screen's content scale (high-DPI), for the layout's sizes
  int frames_per_second = 30;  // the step of the one-frame buttons and keys, and the readout
  // The GL driver is a software rasteriser (gl::Renderer::software): the View section says why
  // --skinning auto chose the CPU path.
  bool software_gl = false;

  FileState files;
  RecordFields record;  // the Export section's fields (kept across models)
  ExportFields export_pose;
  JointTreeState tree;
  TimelineState timeline;
  LayersState layers;
  CrowdRequest crowd;             // the Crowd section's (app/crowd_frame.h draws it)
  Landmarks landmarks;            // this frame's (landmarks.h)
  uint64_t model_generation = 0;  // counts new_model() calls; caches compare against it
  // Per morph target of the model (every mesh's, concatenated in mesh order, as the Animator's
  // morph weights): the weight the Morph targets section pins it at, NaN when the clips drive
  // it. The app hands it to Animator::set_morph_overrides each frame. Sized by new_model.
  std::vector<float> morph_overrides;
  // The dominant view's colour per skeleton joint (gfx/view_colors.h joint_colors: the table the
  // renderer paints the mesh from), for the legends and the hover read-out. Sized by new_model.
  std::vector<glm::vec3> joint_colors;
  LegendState legend;

  // A new model was opened: clears the selection, the panels' per-model caches, the Layers
  // section's choices and the view mode (back to shaded); skeleton-only models turn the skeleton
  // overlay on, as they show nothing else. Allocates (sizes the outliner for the skeleton).
  void new_model(const Model& model);
};

}  // namespace sv::ui
