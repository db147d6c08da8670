#include "ui/panels.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <system_error>

#include <imgui.h>

#include <glm/gtc/quaternion.hpp>
#include <glm/gtx/matrix_decompose.hpp>

#include "anim/model.h"
#include "anim/skinning.h"

namespace sv::ui {
namespace {

void transform_rows(const char* label, const glm::vec3& t, const glm::quat& r, const glm::vec3& s) {
  const glm::vec3 e = glm::degrees(glm::eulerAngles(r));
  ImGui::TextUnformatted(label);
  ImGui::Text("  T % .4f % .4f % .4f", t.x, t.y, t.z);
  ImGui::Text("  R (w % .4f, x % .4f, y % .4f, z % .4f)", r.w, r.x, r.y, r.z);
  ImGui::Text("    Euler XYZ deg % .1f % .1f % .1f", e.x, e.y, e.z);
  ImGui::Text("  S % .4f % .4f % .4f", s.x, s.y, s.z);
}

// Draws joint j and its subtree. Joints are parents-first, so children follow their parent;
// `first_child`/`next_sibling` are not stored, so children are found by scanning forward (the
// panel is only drawn for open nodes, and skeletons have hundreds of joints, not millions).
void joint_node(const Skeleton& sk, int32_t j, int32_t* selected) {
  const auto n = static_cast<int32_t>(sk.size());
  bool leaf = true;
  for (int32_t c = j + 1; c < n; ++c) {
    if (sk.parents[static_cast<std::size_t>(c)] == j) {
      leaf = false;
      break;
    }
  }
  ImGuiTreeNodeFlags flags = ImGuiTreeNodeFlags_OpenOnArrow | ImGuiTreeNodeFlags_SpanAvailWidth;
  if (leaf) flags |= ImGuiTreeNodeFlags_Leaf | ImGuiTreeNodeFlags_NoTreePushOnOpen;
  if (j == *selected) flags |= ImGuiTreeNodeFlags_Selected;
  const bool open = ImGui::TreeNodeEx(reinterpret_cast<void*>(static_cast<intptr_t>(j) + 1), flags,
                                      "%s", sk.names[static_cast<std::size_t>(j)].c_str());
  if (ImGui::IsItemClicked() && !ImGui::IsItemToggledOpen()) *selected = j;
  if (open && !leaf) {
    for (int32_t c = j + 1; c < n; ++c) {
      if (sk.parents[static_cast<std::size_t>(c)] == j) joint_node(sk, c, selected);
    }
    ImGui::TreePop();
  }
}

void refresh_listing(PanelState& s) {
  namespace fs = std::filesystem;
  if (s.browse_dir.empty()) {
    std::error_code ec;
    s.browse_dir = fs::current_path(ec).string();
  }
  if (s.browse_listed == s.browse_dir) return;
  s.browse_listed = s.browse_dir;
  s.browse_dirs.clear();
  s.browse_files.clear();
  std::error_code ec;
  for (fs::directory_iterator it(s.browse_dir, fs::directory_options::skip_permission_denied, ec),
       end;
       !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.empty() || name[0] == '.') continue;
    std::error_code e2;
    if (it->is_directory(e2)) {
      s.browse_dirs.push_back(name);
    } else if (is_model_file(name)) {
      s.browse_files.push_back(name);
    }
  }
  std::sort(s.browse_dirs.begin(), s.browse_dirs.end());
  std::sort(s.browse_files.begin(), s.browse_files.end());
}

// A folder-and-file list; returns true when a file was chosen (its path in open_path).
bool file_browser(PanelState& s) {
  namespace fs = std::filesystem;
  refresh_listing(s);
  bool chosen = false;
  ImGui::TextWrapped("%s", s.browse_dir.c_str());
  if (ImGui::BeginChild("browser", ImVec2(0, 160), true)) {
    std::string next;
    if (ImGui::Selectable("..")) next = fs::path(s.browse_dir).parent_path().string();
    for (const std::string& d : s.browse_dirs) {
      if (ImGui::Selectable((d + "/").c_str())) next = (fs::path(s.browse_dir) / d).string();
    }
    for (const std::string& f : s.browse_files) {
      if (ImGui::Selectable(f.c_str())) {
        std::snprintf(s.open_path, sizeof(s.open_path), "%s",
                      (fs::path(s.browse_dir) / f).string().c_str());
        chosen = true;
      }
    }
    if (!next.empty()) s.browse_dir = next;
  }
  ImGui::EndChild();
  return chosen;
}

}  // namespace

void remember_recent(PanelState& state, const std::string& path) {
  auto it = std::find(state.recent.begin(), state.recent.end(), path);
  if (it == state.recent.end()) it = state.recent.end() - 1;
  std::rotate(state.recent.begin(), it, it + 1);
  state.recent[0] = path;
}

bool is_model_file(std::string_view name) noexcept {
  static constexpr std::string_view kExtensions[] = {
      "glb",   "gltf", "fbx", "dae", "x",    "md5mesh", "smd", "bvh", "obj", "3ds",
      "blend", "ms3d", "b3d", "ply", "ogex", "irrmesh", "lwo", "lws", "md2", "md3",
      "mdl",   "ase",  "xml", "ac",  "cob",  "3mf",     "amf", "q3o", "q3s", "dxf",
      "nff",   "off",  "raw", "stl", "ter",  "hmp",     "m3d"};
  const std::size_t dot = name.rfind('.');
  if (dot == std::string_view::npos || name.size() - dot - 1 > 8) return false;
  char ext[9] = {};
  for (std::size_t i = dot + 1, k = 0; i < name.size(); ++i, ++k) {
    ext[k] = static_cast<char>(std::tolower(static_cast<unsigned char>(name[i])));
  }
  for (std::string_view e : kExtensions) {
    if (e == ext) return true;
  }
  return false;
}

bool model_panel(const ModelPanelInput& in, PanelState& state) {
  if (!ImGui::CollapsingHeader("Model", ImGuiTreeNodeFlags_DefaultOpen)) return false;
  bool open = ImGui::InputText("##path", state.open_path, sizeof(state.open_path),
                               ImGuiInputTextFlags_EnterReturnsTrue);
  ImGui::SameLine();
  open |= ImGui::Button("Open");
  if (ImGui::TreeNode("Browse")) {
    open |= file_browser(state);
    ImGui::TreePop();
  }
  if (!state.recent[0].empty() && ImGui::TreeNode("Recent")) {
    for (const std::string& r : state.recent) {
      if (r.empty()) break;
      if (ImGui::Selectable(r.c_str())) {
        std::snprintf(state.open_path, sizeof(state.open_path), "%s", r.c_str());
        open = true;
      }
    }
    ImGui::TreePop();
  }
  if (!in.shader_warnings.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.85f, 0.3f, 1.0f));
    for (const std::string& w : in.shader_warnings) ImGui::TextWrapped("%s", w.c_str());
    ImGui::PopStyleColor();
  }
  if (!in.loading.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.85f, 0.3f, 1.0f));
    ImGui::TextWrapped("Loading %.*s ... %.1f s", static_cast<int>(in.loading.size()),
                       in.loading.data(), in.loading_seconds);
    if (in.loading_limit > 0.0)
      ImGui::TextWrapped("(given up on after %g s, --time-limit; the model below stays)",
                         in.loading_limit);
    ImGui::PopStyleColor();
  }
  if (!in.load_error.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.4f, 0.35f, 1.0f));
    ImGui::TextWrapped("%.*s", static_cast<int>(in.load_error.size()), in.load_error.data());
    ImGui::PopStyleColor();
  }
  if (in.model == nullptr) {
    ImGui::TextUnformatted("No model loaded: type a path or drop a file on the window.");
    return open;
  }
  const Model& m = *in.model;
  std::size_t vertices = 0, triangles = 0;
  for (const Mesh& mesh : m.meshes) {
    vertices += mesh.vertex_count();
    triangles += mesh.triangle_count();
  }
  ImGui::TextWrapped("%.*s", static_cast<int>(in.path.size()), in.path.data());
  ImGui::Text("%zu meshes, %zu vertices, %zu triangles", m.meshes.size(), vertices, triangles);
  ImGui::Text("%zu joints, %zu clips, %zu materials", m.skeleton.size(), m.clips.size(),
              m.materials.size());
  if (ImGui::TreeNode("Import report", "Import report (%zu)", in.report.size())) {
    if (in.report.empty()) ImGui::TextUnformatted("No repairs were needed.");
    for (const std::string& line : in.report) ImGui::BulletText("%s", line.c_str());
    ImGui::TreePop();
  }
  return open;
}

double step_time(double time, double duration, int frames, int frames_per_second) noexcept {
  if (duration <= 0.0 || frames_per_second <= 0) return 0.0;
  const double dt = 1.0 / frames_per_second;
  const double frame = std::round(time / dt) + frames;
  return std::clamp(frame * dt, 0.0, duration);
}

bool clips_panel(const Model& model, Player& player, const PanelState& state) {
  if (!ImGui::CollapsingHeader("Clips", ImGuiTreeNodeFlags_DefaultOpen)) return false;
  bool changed = false;
  const char* current =
      player.clip >= 0 && static_cast<std::size_t>(player.clip) < model.clips.size()
          ? model.clips[static_cast<std::size_t>(player.clip)].name().c_str()
          : "(rest pose)";
  if (ImGui::BeginCombo("Clip", current)) {
    if (ImGui::Selectable("(rest pose)", player.clip < 0)) {
      player.clip = -1;
      player.time = 0.0;
      changed = true;
    }
    for (std::size_t i = 0; i < model.clips.size(); ++i) {
      ImGui::PushID(static_cast<int>(i));
      char label[320];
      std::snprintf(label, sizeof(label), "%zu: %s (%.2f s)", i,
                    model.clips[i].name().empty() ? "(unnamed)" : model.clips[i].name().c_str(),
                    model.clips[i].duration());
      if (ImGui::Selectable(label, player.clip == static_cast<int32_t>(i))) {
        player.clip = static_cast<int32_t>(i);
        player.time = 0.0;
        changed = true;
      }
      ImGui::PopID();
    }
    ImGui::EndCombo();
  }
  const double duration =
      player.clip >= 0 && static_cast<std::size_t>(player.clip) < model.clips.size()
          ? model.clips[static_cast<std::size_t>(player.clip)].duration()
          : 0.0;
  if (ImGui::Button(player.playing ? "Pause" : "Play")) {
    player.playing = !player.playing;
    changed = true;
  }
  ImGui::SameLine();
  if (ImGui::Button("Stop")) {
    player.playing = false;
    player.time = 0.0;
    changed = true;
  }
  ImGui::SameLine();
  if (ImGui::ArrowButton("##prev", ImGuiDir_Left)) {
    player.playing = false;
    player.time = step_time(player.time, duration, -1, state.frames_per_second);
    changed = true;
  }
  ImGui::SameLine();
  if (ImGui::ArrowButton("##next", ImGuiDir_Right)) {
    player.playing = false;
    player.time = step_time(player.time, duration, 1, state.frames_per_second);
    changed = true;
  }
  const ClipRuntime* clip =
      player.clip >= 0 && static_cast<std::size_t>(player.clip) < model.clips.size()
          ? &model.clips[static_cast<std::size_t>(player.clip)]
          : nullptr;
  ImGui::SameLine();
  if (ImGui::Button("|<key") && clip != nullptr) {
    player.playing = false;
    player.time = std::clamp(clip->adjacent_key_time(player.time, -1), 0.0, duration);
    changed = true;
  }
  ImGui::SameLine();
  if (ImGui::Button("key>|") && clip != nullptr) {
    player.playing = false;
    player.time = std::clamp(clip->adjacent_key_time(player.time, 1), 0.0, duration);
    changed = true;
  }
  changed |= ImGui::Checkbox("Loop", &player.loop);
  changed |= ImGui::SliderFloat("Speed", &player.speed, -2.0f, 2.0f, "%.2f");
  const double time_max = std::max(duration, 1e-6);
  const double time_min = 0.0;
  if (ImGui::SliderScalar("Time", ImGuiDataType_Double, &player.time, &time_min, &time_max,
                          "%.3f s")) {
    player.time = std::clamp(player.time, 0.0, duration);
    changed = true;
  }
  const double fps = state.frames_per_second;
  ImGui::Text("frame %d / %d at %d fps", static_cast<int>(std::round(player.time * fps)),
              static_cast<int>(std::round(duration * fps)), state.frames_per_second);
  ImGui::TextDisabled("Space play/pause, Left/Right one frame");
  return changed;
}

int32_t skeleton_panel(const Model& m, const Animator& pose, std::span<const glm::mat4> model,
                       std::span<const uint32_t> influenced, int32_t selected) {
  if (!ImGui::CollapsingHeader("Skeleton")) return selected;
  const Skeleton& skeleton = m.skeleton;
  const auto n = static_cast<int32_t>(skeleton.size());
  if (ImGui::BeginChild("joints", ImVec2(0, 220), true)) {
    for (int32_t j = 0; j < n; ++j) {
      if (skeleton.parents[static_cast<std::size_t>(j)] < 0) joint_node(skeleton, j, &selected);
    }
  }
  ImGui::EndChild();
  if (selected >= 0 && selected < n) {
    const auto j = static_cast<std::size_t>(selected);
    ImGui::Text("%s (joint %d)%s", skeleton.names[j].c_str(), selected,
                skeleton.is_bone[j] != 0 ? ", bone" : "");
    if (j < influenced.size()) ImGui::Text("influences %u vertices", influenced[j]);
    const Transform local = pose.local(m, j);
    transform_rows("Local", local.translation, local.rotation, local.scale);
    if (j < model.size()) {
      glm::vec3 s, t, skew;
      glm::quat r;
      glm::vec4 persp;
      glm::decompose(model[j], s, r, t, skew, persp);
      transform_rows("Model", t, r, s);
    }
    if (ImGui::SmallButton("Clear selection")) selected = -1;
  }
  return selected;
}

bool skinning_panel(const SkinningPanelInput& in, RenderOptions& o) {
  if (!ImGui::CollapsingHeader("Skinning and view", ImGuiTreeNodeFlags_DefaultOpen)) return false;
  bool changed = false;
  int path = o.gpu_skinning ? 1 : 0;
  changed |= ImGui::RadioButton("CPU skinning", &path, 0);
  ImGui::SameLine();
  changed |= ImGui::RadioButton("GPU skinning", &path, 1);
  o.gpu_skinning = path == 1;
  int view = static_cast<int>(o.view);
  changed |= ImGui::Combo("View", &view,
                          "Shaded\0Weights (selected joint)\0Dominant joint\0"
                          "Influences\0Weight-sum error\0");
  o.view = static_cast<ViewMode>(view);
  changed |= ImGui::Checkbox("Skeleton", &o.skeleton);
  ImGui::SameLine();
  changed |= ImGui::Checkbox("Wireframe", &o.wireframe);
  ImGui::SameLine();
  changed |= ImGui::Checkbox("Grid", &o.grid);
  changed |= ImGui::Checkbox("Axes", &o.axes);
  ImGui::SameLine();
  changed |= ImGui::Checkbox("Z-up file", &o.z_up);
  changed |= ImGui::ColorEdit3("Background", &o.background.x, ImGuiColorEditFlags_NoInputs);
  if (in.times != nullptr) {
    const StageTimes& t = *in.times;
    ImGui::Text("%zu bones, %zu vertices", in.bones, in.vertices);
    ImGui::Text("pose     %7.3f ms (sample, to model, palette)", t.pose * 1e3);
    ImGui::Text("normals  %7.3f ms", t.normals * 1e3);
    if (!o.gpu_skinning) {
      // The kernel skin_lbs chose for this CPU, and the rate it ran at this frame.
      ImGui::Text("CPU skin %7.3f ms (%s, %.0f M vertices/s)", t.cpu_skin * 1e3,
                  skin_isa_name(skin_best_isa()),
                  t.cpu_skin > 0.0 ? static_cast<double>(in.vertices) / t.cpu_skin * 1e-6 : 0.0);
    }
    ImGui::Text("upload+draw (CPU side) %7.3f ms", in.upload_seconds * 1e3);
    if (in.gpu_seconds >= 0.0) ImGui::Text("GPU (mesh draws) %7.3f ms", in.gpu_seconds * 1e3);
  }
  return changed;
}

void stats_panel(std::span<const float> frame_times, std::size_t newest) {
  if (!ImGui::CollapsingHeader("Stats")) return;
  float sum = 0.0f;
  for (float t : frame_times) sum += t;
  const float mean = frame_times.empty() ? 0.0f : sum / static_cast<float>(frame_times.size());
  ImGui::Text("%.1f FPS (%.2f ms)", mean > 0.0f ? 1.0f / mean : 0.0f, mean * 1e3f);
  ImGui::PlotLines("##frames", frame_times.data(), static_cast<int>(frame_times.size()),
                   static_cast<int>(newest), "frame time", 0.0f, 0.05f, ImVec2(0, 60));
}

}  // namespace sv::ui
