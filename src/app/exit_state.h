// The window's state as a small JSON file (`skinview --exit-json FILE`), written at exit and
// whenever the process gets SIGUSR1, for tests that drive the real window with the real pointer
// (tests/e2e/): they ask for the state, click where it says a widget or a joint is, ask again and
// read back what the click did.
//
//   {"frame":N (frames drawn so far), "window":[W,H], "framebuffer":[W,H], "viewport":[x,y,w,h]
//   (framebuffer pixels, top-left),
//    "model":PATH|null, "loadError":S, "loading":S (a file being read, "" when none), "clip":I,
//    "clipName":S, "time":T, "playing":B, "loop":B, "speed":S, "range":{"clip":I,"in":T,"out":T,
//    "loop":B} (the timeline's in and out points), "clips":[NAME,...] (every clip's name),
//    "fadeTo":I (a cross-fade's target, -1 none),
//    "layers":[{"clip":I,"clipName":S,"time":T,"weight":W,"mode":"override"|"additive",
//    "maskJoints":N}] (the layer stack over the clip), "selectedJoint":I,
//    "selectedJointName":S|null, "hoveredJoint":I, "hoveredMesh":I, "hoveredVertex":I,
//    "view":"shaded"|..., "skinning":"cpu"|"gpu", "softwareGl":B
//    (the GL driver is a software rasteriser: --skinning auto chose the CPU path),
//    "method":"lbs"|"dqs"|"cor" (chosen), "methodDrawn":S (what the last frame skinned with: LBS
//    while CoR's centres are computed), "centers":F (CoR's centres: -1 not started, the fraction
//    done, 1 known), "skeleton":B, "wireframe":B, "grid":B, "axes":B, "flatColors":B (debug views
//    unlit), "backFaces":B (both sides everywhere: "Show back faces", --back-faces), "helpOpen":B,
//    "legend":{"rect":[x,y,w,h],"modelRect":[x,y,w,h],"corner":S,"collapsed":B (shown as its
//              title row),"fold":"auto"|"collapsed"|"open" (the user's choice),
//              "collapsedToFit":B,"overModel":B}|null  (the debug view's legend as last drawn
//              and the model's projected bounds it keeps clear of, framebuffer pixels),
//    "panels":{"outliner":{"collapsed":B,"rect":[x,y,w,h]}, "inspector":..., "timeline":...,
//              "viewport":{"rect":[...]}}   (display units, as ImGui sees the window),
//    "camera":{"target":[x,y,z],"distance":D,"yaw":Y,"pitch":P,"fovY":F,"ortho":B,
//              "undo":N,"redo":N (views in the history)},
//    "joints":[{"name":S,"x":X,"y":Y,"inFront":B}]  (each joint's position now, framebuffer
//              pixels from the top-left, projected as the viewport draws it),
//    "landmarks":[{"name":S,"index":I,"rect":[x,y,w,h]}]  (display units; ui/landmarks.h),
//    "pathBox":S (the File section's path box), "recent":[PATH,...],
//    "recording":{"running":B,"written":N,"total":N,"message":S,"error":B}  (the Record control),
//    "exported":S (the last "Export pose (.glb)"'s message),
//    "screenshot":S (the last picture F12 saved, "" none), "toast":S (the viewport's last brief
//    message, "" none; kept after it fades so a test on a loaded machine never races its 2.5 s),
//    "toastVisible":B (it is on screen now), "framingPending":B (the camera frames the rest pose
//    until the clip's bounds, a job, are known: app/camera_control.h AutoFrame),
//    "watch":{"on":B,"files":N,"reloads":N} (live reload: the files watched, the reloads done),
//    "comparison":null (none shown, none in progress) | {"pending":B (a comparison in progress:
//              its file read or compared, off the frame thread), "comparing":S (that file, ""
//              none), "with":S|null (the file of the comparison shown; null: none yet), and with
//              one shown its figures: "compared":N, "changed":N (vertices), "maxChange":F,
//              "moved":N, "renamed":N, "added":N, "removed":N (joints)}}
#pragma once

#include <cstddef>
#include <string>

struct GLFWwindow;

namespace sv {

struct Scene;
struct OrbitCamera;
class CameraHistory;
namespace ui {
struct ViewerState;
}

struct FrameState;

struct ExitState {
  const ui::ViewerState* state = nullptr;
  const Scene* scene = nullptr;  // null: nothing loaded
  const OrbitCamera* camera = nullptr;
  const CameraHistory* history = nullptr;  // null: no history
  int window_width = 0, window_height = 0;
  int framebuffer_width = 0, framebuffer_height = 0;
  std::string load_error;
  std::string loading;
  long frame = 0;
  bool recording = false;  // the Record control's progress (app/window_record.h)
  long long recorded = 0, record_total = 0;
  std::string record_message;
  bool record_error = false;
  std::string exported;
  std::string screenshot;
  std::string toast;             // the viewport's last message
  bool toast_visible = false;    // on screen now
  bool framing_pending = false;  // the framing waits for the clip's bounds (AutoFrame)
  bool watching = false;         // live reload (app/file_watch.h)
  std::size_t watched = 0;       // files it watches
  int reloads = 0;               // reloads of the model shown
  std::string comparing;         // "Compare with..."'s file being read or compared ("" none)
  // The window's frames (app/frame.h): the last frame's index, clip and time, the true frame
  // rate and the real-time ratio ("frameIndex", "frameTime", "fps", "realtime"); null: none.
  const FrameState* frames = nullptr;
};

// Writes the JSON above to `path` (through a temporary file renamed over it, so a reader never
// sees half a file); false with `error` when the file cannot be written.
bool write_exit_json(const std::string& path, const ExitState& in, std::string* error);

// The window's test hooks behind one seam, so the viewer's loop holds none of them: --frames N
// (close after N frames), --exit-json / --exit-png (the state and the picture, at exit and on
// SIGUSR1). The window asks three questions a frame and hands over what to write.
class WindowProbe {
 public:
  WindowProbe(int frames, std::string exit_json, std::string exit_png);
  // Installs the SIGUSR1 handler when a state file is asked for: before anything else, since a
  // test may signal as soon as the window shows and SIGUSR1's default action ends the process.
  void install() const;
  // True once --frames frames have run (call once before each frame).
  bool stop_before_frame() noexcept;
  // A SIGUSR1 arrived since the last call.
  bool requested() noexcept;
  bool wants_files() const noexcept { return !exit_json_.empty() || !exit_png_.empty(); }
  // Writes --exit-png from the current window's back buffer (width x height) and --exit-json
  // from `state`; errors go to stderr as one line each.
  void write(const ExitState& state, int framebuffer_width, int framebuffer_height) const;

 private:
  int frames_ = 0;
  int counted_ = 0;
  std::string exit_json_, exit_png_;
};

}  // namespace sv
