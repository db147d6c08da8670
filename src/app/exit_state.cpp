#include "app/exit_state.h"

#include <cmath>
#include <csignal>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <utility>
#include <vector>

#include <glm/vec4.hpp>

#include "app/frame.h"
#include "app/viewer_scene.h"
#include "gfx/camera.h"
#include "gfx/capture.h"
#include "gfx/screen_pick.h"
#include "ui/clip_info.h"
#include "ui/viewer_state.h"

namespace sv {
namespace {

std::string json_string(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (u < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof(buf), "\\u%04x", u);
      out += buf;
    } else {
      out += c;
    }
  }
  return out + '"';
}

std::string json_number(double v) {
  if (!std::isfinite(v)) return "0";
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.9g", v);
  return buf;
}

std::string rect(float x, float y, float w, float h) {
  char buf[128];
  std::snprintf(buf, sizeof(buf), "[%.6g,%.6g,%.6g,%.6g]", x, y, w, h);
  return buf;
}

const char* view_name(ViewMode v) {
  switch (v) {
    case ViewMode::Weights:
      return "weights";
    case ViewMode::Dominant:
      return "dominant";
    case ViewMode::Influences:
      return "influences";
    case ViewMode::WeightSum:
      return "weight-sum";
    case ViewMode::CpuGpu:
      return "cpu-gpu";
    case ViewMode::MethodDiff:
      return "method-diff";
    case ViewMode::WeightChange:
      return "weight-change";
    default:
      return "shaded";
  }
}

// How many meshes the last frame drew from their compact streams (skin/compact_streams.h), as the
// renderer picks per mesh: on the GPU path where SkinnedPose::compact() holds, on the CPU path
// where the last skin_cpu() skinned compact.
std::size_t compact_drawn(const Scene* scene, bool gpu_path) {
  if (scene == nullptr) return 0;
  const SkinnedPose& pose = scene->frame.animator;
  std::size_t n = 0;
  for (std::size_t m = 0; m < scene->doc.model.meshes.size(); ++m)
    n += (gpu_path ? pose.compact(m) : pose.skinned_compact(m)) ? 1 : 0;
  return n;
}

}  // namespace

bool write_exit_json(const std::string& path, const ExitState& in, std::string* error) {
  const ui::ViewerState& st = *in.state;
  const Scene* scene = in.scene;
  std::ostringstream o;
  o << "{\"frame\":" << in.frame << ",\"window\":[" << in.window_width << "," << in.window_height
    << "],\"framebuffer\":[" << in.framebuffer_width << "," << in.framebuffer_height
    << "],\"viewport\":[" << st.viewport.x << "," << st.viewport.y << "," << st.viewport.width
    << "," << st.viewport.height << "]";
  o << ",\"model\":" << (scene != nullptr ? json_string(scene->doc.path) : "null");
  o << ",\"loadError\":" << json_string(in.load_error)
    << ",\"loading\":" << json_string(in.loading);
  if (scene != nullptr) {
    const Player& p = scene->play.player;
    o << ",\"clip\":" << p.clip
      << ",\"clipName\":" << json_string(ui::clip_name(scene->doc.model, p.clip))
      << ",\"time\":" << json_number(p.time) << ",\"playing\":" << (p.playing ? "true" : "false")
      << ",\"loop\":" << (p.loop ? "true" : "false") << ",\"speed\":" << json_number(p.speed);
    o << ",\"range\":{\"clip\":" << p.range_clip << ",\"in\":" << json_number(p.range_in)
      << ",\"out\":" << json_number(p.range_out)
      << ",\"loop\":" << (p.loop_range ? "true" : "false") << "},\"clips\":[";
    for (std::size_t c = 0; c < scene->doc.model.clips.size(); ++c)
      o << (c ? "," : "") << json_string(scene->doc.model.clips[c].name());
    o << "]";
    const StackPlayer& stack = scene->play.stack;
    o << ",\"fadeTo\":" << stack.fade_to << ",\"layers\":[";
    for (std::size_t i = 0; i < stack.layers.size(); ++i) {
      const PlayedLayer& l = stack.layers[i];
      std::size_t masked = 0;
      for (const float w : l.mask) masked += w > 0.0f ? 1 : 0;
      o << (i ? "," : "") << "{\"clip\":" << l.player.clip
        << ",\"clipName\":" << json_string(ui::clip_name(scene->doc.model, l.player.clip))
        << ",\"time\":" << json_number(l.player.time) << ",\"weight\":" << json_number(l.weight)
        << ",\"mode\":\"" << (l.mode == BlendMode::Additive ? "additive" : "override")
        << "\",\"maskJoints\":" << (l.mask.empty() ? scene->doc.model.skeleton.size() : masked)
        << "}";
    }
    o << "]";
  }
  const int32_t sel = st.selection.joint;
  const bool sel_ok = scene != nullptr && sel >= 0 &&
                      static_cast<std::size_t>(sel) < scene->doc.model.skeleton.size();
  o << ",\"selectedJoint\":" << sel << ",\"selectedJointName\":"
    << (sel_ok ? json_string(scene->doc.model.skeleton.names[static_cast<std::size_t>(sel)])
               : "null")
    << ",\"hoveredJoint\":" << st.selection.hovered_joint
    << ",\"hoveredMesh\":" << st.selection.hovered_mesh
    << ",\"hoveredVertex\":" << st.selection.hovered_vertex;
  const RenderOptions& r = st.render;
  auto b = [](bool v) { return v ? "true" : "false"; };
  o << ",\"view\":\"" << view_name(r.view) << "\",\"skinning\":\""
    << (r.gpu_skinning ? "gpu" : "cpu") << "\",\"softwareGl\":" << b(st.software_gl)
    << ",\"method\":\"" << skin_method_name(r.method) << "\",\"methodDrawn\":\""
    << skin_method_name(scene != nullptr ? scene->frame.animator.skin().method : SkinMethod::Lbs)
    << "\",\"centers\":"
    << json_number(scene != nullptr && scene->centers_for(r.influences).started()
                       ? scene->centers_for(r.influences).progress()
                       : -1.0f)
    << ",\"influences\":" << r.influences
    << ",\"influencesDrawn\":" << (scene != nullptr ? scene->frame.animator.skin().influences : 4)
    << ",\"compactDrawn\":" << compact_drawn(scene, r.gpu_skinning)
    << ",\"skeleton\":" << b(r.skeleton) << ",\"wireframe\":" << b(r.wireframe)
    << ",\"grid\":" << b(r.grid) << ",\"axes\":" << b(r.axes)
    << ",\"flatColors\":" << b(r.flat_colors) << ",\"backFaces\":" << b(r.show_back_faces)
    << ",\"helpOpen\":" << b(st.help_open);
  // The debug view's legend as the last frame placed it (ui/legend_place.h), framebuffer pixels
  // as "joints" below; null when none was drawn.
  const ui::LegendState& lg = st.legend;
  o << ",\"legend\":";
  if (lg.shown) {
    o << "{\"rect\":" << rect(lg.rect.x, lg.rect.y, lg.rect.w, lg.rect.h)
      << ",\"modelRect\":" << rect(lg.model.x, lg.model.y, lg.model.w, lg.model.h)
      << ",\"corner\":" << json_string(lg.corner) << ",\"collapsed\":" << b(lg.collapsed)
      << ",\"fold\":\"" << ui::fold_name(lg.fold) << "\""
      << ",\"collapsedToFit\":" << b(lg.collapsed_to_fit) << ",\"overModel\":" << b(lg.over_model)
      << "}";
  } else {
    o << "null";
  }
  if (in.frames != nullptr) {
    const Frame& f = in.frames->last;
    o << ",\"frameIndex\":" << f.index << ",\"frameClip\":" << f.clip
      << ",\"frameTime\":" << json_number(f.time) << ",\"fps\":" << json_number(in.frames->fps())
      << ",\"realtime\":" << json_number(in.frames->realtime());
  }
  // The difference view's last figures (app/difference_view.h): max and model size in model
  // units; null when no comparison has run or the last could not.
  o << ",\"diffMethods\":[\"" << skin_method_name(r.diff_a) << "\",\"" << skin_method_name(r.diff_b)
    << "\"],\"difference\":";
  if (scene != nullptr && scene->frame.difference.stats.valid) {
    const DifferenceStats& d = scene->frame.difference.stats;
    // A non-finite distance (NaN out of the GPU) has no JSON number: null.
    o << "{\"view\":\"" << view_name(scene->frame.difference.view)
      << "\",\"max\":" << (std::isfinite(d.max) ? json_number(d.max) : std::string("null"))
      << ",\"modelSize\":" << json_number(d.model_size) << ",\"over\":" << d.over << "}";
  } else {
    o << "null";
  }
  const ui::Layout& l = st.layout;
  const ui::LayoutPrefs& lp = st.layout_prefs;
  auto panel = [&](const char* name, const ui::Rect& rc, bool collapsed) {
    o << "\"" << name << "\":{\"collapsed\":" << b(collapsed)
      << ",\"rect\":" << rect(rc.x, rc.y, rc.w, rc.h) << "}";
  };
  o << ",\"panels\":{";
  panel("outliner", l.outliner, lp.outliner_collapsed);
  o << ",";
  panel("inspector", l.inspector, lp.inspector_collapsed);
  o << ",";
  panel("timeline", l.timeline, lp.timeline_collapsed);
  o << ",\"viewport\":{\"rect\":" << rect(l.viewport.x, l.viewport.y, l.viewport.w, l.viewport.h)
    << "}}";
  const OrbitCamera& c = *in.camera;
  o << ",\"camera\":{\"target\":[" << json_number(c.target.x) << "," << json_number(c.target.y)
    << "," << json_number(c.target.z) << "],\"distance\":" << json_number(c.distance)
    << ",\"yaw\":" << json_number(c.yaw) << ",\"pitch\":" << json_number(c.pitch)
    << ",\"fovY\":" << json_number(c.fov_y) << ",\"ortho\":" << b(c.ortho)
    << ",\"undo\":" << (in.history ? in.history->undo_count() : 0)
    << ",\"redo\":" << (in.history ? in.history->redo_count() : 0) << "}";
  o << ",\"joints\":[";
  if (scene != nullptr) {
    // As the renderer projects them: world = up-axis turn, then the camera with the viewport's
    // aspect; NDC to the viewport's pixels, y down (gfx/screen_pick.h, as picking projects).
    const PixelRect& vp = st.viewport;
    const glm::mat4 vp_matrix =
        c.projection(vp.aspect()) * c.view() * up_axis_matrix(scene->play.z_up);
    const auto matrices = scene->frame.animator.pose.model_matrices();
    for (std::size_t j = 0; j < matrices.size() && j < scene->doc.model.skeleton.size(); ++j) {
      glm::vec2 at(0.0f);
      float depth = 0.0f;
      const bool front = project_to_screen(vp_matrix, vp, glm::vec3(matrices[j][3]), &at, &depth);
      if (!front) at = glm::vec2(0.0f);
      o << (j ? "," : "") << "{\"name\":" << json_string(scene->doc.model.skeleton.names[j])
        << ",\"x\":" << json_number(at.x) << ",\"y\":" << json_number(at.y)
        << ",\"inFront\":" << b(front) << "}";
    }
  }
  o << "],\"landmarks\":[";
  bool first = true;
  for (const ui::Landmark& m : st.landmarks) {
    o << (first ? "" : ",") << "{\"name\":" << json_string(m.name) << ",\"index\":" << m.index
      << ",\"rect\":" << rect(m.rect.x, m.rect.y, m.rect.w, m.rect.h)
      << ",\"disabled\":" << (m.disabled ? "true" : "false");
    if (m.label[0] != '\0') o << ",\"label\":" << json_string(m.label);
    o << "}";
    first = false;
  }
  o << "],\"pathBox\":" << json_string(st.files.open_path) << ",\"recent\":[";
  first = true;
  for (const std::string& p : st.files.recent) {
    if (p.empty()) continue;
    o << (first ? "" : ",") << json_string(p);
    first = false;
  }
  o << "],\"recording\":{\"running\":" << (in.recording ? "true" : "false")
    << ",\"written\":" << in.recorded << ",\"total\":" << in.record_total
    << ",\"message\":" << json_string(in.record_message)
    << ",\"error\":" << (in.record_error ? "true" : "false") << "}";
  o << ",\"exported\":" << json_string(in.exported)
    << ",\"screenshot\":" << json_string(in.screenshot) << ",\"toast\":" << json_string(in.toast)
    << ",\"toastVisible\":" << (in.toast_visible ? "true" : "false")
    << ",\"framingPending\":" << (in.framing_pending ? "true" : "false");
  o << ",\"watch\":{\"on\":" << (in.watching ? "true" : "false") << ",\"files\":" << in.watched
    << ",\"reloads\":" << in.reloads << "}";
  // "Compare with..." (skin/rig_compare.h): what the weight-change view shows; null when none.
  // "pending" tells a test that waits for a comparison the run still going from the run done.
  const RigComparison* cmp = scene != nullptr ? scene->jobs.comparison.get() : nullptr;
  if (cmp == nullptr && in.comparing.empty()) {
    o << ",\"comparison\":null";
  } else {
    o << ",\"comparison\":{\"pending\":" << b(!in.comparing.empty())
      << ",\"comparing\":" << json_string(in.comparing) << ",\"with\":";
    if (cmp == nullptr) {
      o << "null";
    } else {
      o << json_string(scene->jobs.compared_with) << ",\"compared\":" << cmp->vertices_compared
        << ",\"changed\":" << cmp->vertices_changed
        << ",\"maxChange\":" << json_number(cmp->max_change) << ",\"moved\":" << cmp->moved.size()
        << ",\"renamed\":" << cmp->renamed.size() << ",\"added\":" << cmp->added.size()
        << ",\"removed\":" << cmp->removed.size();
    }
    o << "}";
  }
  o << "}\n";
  const std::string tmp = path + ".tmp";
  {
    std::ofstream f(tmp, std::ios::trunc);
    f << o.str();
    if (!f) {
      *error = "cannot write " + tmp;
      return false;
    }
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    *error = "cannot write " + path;
    return false;
  }
  return true;
}

namespace {
// Set by SIGUSR1 (installed only with --exit-json or --exit-png).
volatile std::sig_atomic_t g_state_requested = 0;
extern "C" void request_state(int) { g_state_requested = 1; }
}  // namespace

WindowProbe::WindowProbe(int frames, std::string exit_json, std::string exit_png)
    : frames_(frames), exit_json_(std::move(exit_json)), exit_png_(std::move(exit_png)) {}

void WindowProbe::install() const {
  if (wants_files()) std::signal(SIGUSR1, request_state);
}

bool WindowProbe::stop_before_frame() noexcept { return frames_ > 0 && ++counted_ > frames_; }

bool WindowProbe::requested() noexcept {
  if (g_state_requested == 0) return false;
  g_state_requested = 0;
  return true;
}

void WindowProbe::write(const ExitState& state, int framebuffer_width,
                        int framebuffer_height) const {
  std::string error;
  if (!exit_png_.empty()) {
    std::vector<uint8_t> rgba;
    gl::read_window_rgba(framebuffer_width, framebuffer_height, &rgba);
    if (!gl::write_png(exit_png_, framebuffer_width, framebuffer_height, rgba, &error))
      std::fprintf(stderr, "skinview: %s\n", error.c_str());
  }
  if (!exit_json_.empty() && !write_exit_json(exit_json_, state, &error))
    std::fprintf(stderr, "skinview: %s\n", error.c_str());
}

}  // namespace sv
