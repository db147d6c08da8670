// ui_frame/<case>: the CPU cost of one frame of the window's UI: ImGui::NewFrame, ui::draw_ui
// (layout, viewport input, outliner, inspector, timeline) and ImGui::Render (the draw lists), in
// a headless ImGui context, with the pointer over the viewport. What is left out is the GL side
// (the OpenGL3 backend uploading the draw lists) and the 3D view.
//
//   default        the default character (25 joints), a joint selected, every section open
//   joints_1000    a 1,000-joint synthetic skeleton with a 10,000-vertex mesh, a joint selected,
//                  the tree as the window opens it (the first levels)
//   joints_1000_open  the same with every joint of the tree open (the list clipper draws only
//                  the rows on screen)
#include <benchmark/benchmark.h>

#include <memory>
#include <string>
#include <vector>

#include <imgui.h>

#include "anim/model.h"
#include "anim/player.h"
#include "io/import.h"
#include "skin/skinned_pose.h"
#include "synthetic.h"
#include "ui/ui.h"

namespace sv::bench {
namespace {

struct UiScene {
  Model model;
  std::vector<std::string> report;
  SkinnedPose animator;
  std::vector<JointInfluence> influence;
  Player player;
  ui::ViewerState state;
  ui::StatusView status;
  std::vector<float> frame_times = std::vector<float>(240, 1.0f / 60.0f);
};

std::unique_ptr<UiScene> default_character() {
  ImportResult r = import_model(std::string(SKINVIEW_SOURCE_DIR) + "/assets/default.glb");
  if (!r.ok()) return nullptr;
  auto s = std::make_unique<UiScene>();
  s->model = std::move(*r.model);
  s->report = r.report.notes;
  return s;
}

std::unique_ptr<UiScene> synthetic(int joints) {
  auto s = std::make_unique<UiScene>();
  s->model = make_model(joints, 10000);
  return s;
}

void ui_frame(benchmark::State& bench, UiScene* scene, bool open_all) {
  if (scene == nullptr) {
    bench.SkipWithError("assets/default.glb could not be read");
    return;
  }
  ImGuiContext* ctx = ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;
  io.DisplaySize = ImVec2(1280, 720);
  io.DeltaTime = 1.0f / 60.0f;
  unsigned char* pixels = nullptr;
  int w = 0, h = 0;
  io.Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);
  UiScene& s = *scene;
  s.animator = SkinnedPose(s.model);
  s.influence = joint_influences(s.model);
  s.player.clip = 0;
  s.state.new_model(s.model);
  s.state.selection.joint = static_cast<int32_t>(s.model.skeleton.size() / 2);
  if (open_all) s.state.tree.expanded.assign(s.model.skeleton.size(), 1);
  s.status.frame_times = s.frame_times;
  s.animator.pose.set_clip(s.model, 0);
  s.animator.evaluate(s.model, PoseMode::Clip, 0.5);
  ui::SceneView v;
  v.model = &s.model;
  v.player = &s.player;
  v.path = "model";
  v.report = s.report;
  v.pose = &s.animator.pose;
  v.model_matrices = s.animator.pose.model_matrices();
  v.influence = s.influence;
  v.times = &s.animator.times();
  // The pointer over the viewport, where it is while a user watches the model.
  io.MousePos = ImVec2(640, 300);
  for (int i = 0; i < 10; ++i) {  // settle: first-use sizes, the tree's rows
    ImGui::NewFrame();
    ui::draw_ui(v, s.status, {}, s.state);
    ImGui::Render();
  }
  for (auto _ : bench) {
    ImGui::NewFrame();
    const ui::UiEdits e = ui::draw_ui(v, s.status, {}, s.state);
    ImGui::Render();
    benchmark::DoNotOptimize(e);
    benchmark::DoNotOptimize(ImGui::GetDrawData()->TotalVtxCount);
  }
  bench.counters["vertices"] = static_cast<double>(ImGui::GetDrawData()->TotalVtxCount);
  bench.counters["tree_rows"] = static_cast<double>(s.state.tree.rows.size());
  ImGui::DestroyContext(ctx);
}

void BM_UiFrameDefault(benchmark::State& bench) {
  static std::unique_ptr<UiScene> s = default_character();
  ui_frame(bench, s.get(), false);
}
void BM_UiFrame1000Joints(benchmark::State& bench) {
  static std::unique_ptr<UiScene> s = synthetic(1000);
  ui_frame(bench, s.get(), false);
}
void BM_UiFrame1000JointsOpen(benchmark::State& bench) {
  static std::unique_ptr<UiScene> s = synthetic(1000);
  ui_frame(bench, s.get(), true);
}

BENCHMARK(BM_UiFrameDefault)->Name("ui_frame/default")->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_UiFrame1000Joints)->Name("ui_frame/joints_1000")->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_UiFrame1000JointsOpen)
    ->Name("ui_frame/joints_1000_open")
    ->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace sv::bench
