// The timeline (the bottom panel): transport (play/pause, stop, frame and key steps), the clip,
// speed and loop, a scrub bar with the selected joint's keys marked, the frame readout, and a row
// per layer with that layer's own time (layers_panel.cpp).
#include <algorithm>
#include <cmath>
#include <cstdio>

#include <imgui.h>

#include "ui/clip_info.h"
#include "ui/ui.h"
#include "ui/widgets.h"

namespace sv::ui {
namespace {

constexpr float kClipComboWidth = 190.0f;
constexpr float kSpeedWidth = 110.0f;
constexpr float kMinScrubWidth = 160.0f;  // the bar shares a row only when this much is left

}  // namespace

std::span<const double> selected_keys(const Model& model, const Player& player, ViewerState& s) {
  TimelineState& t = s.timeline;
  if (t.keys_clip != player.clip || t.keys_joint != s.selection.joint ||
      t.keys_generation != s.model_generation) {
    key_times(model, player.clip, s.selection.joint, t.keys);
    t.keys_clip = player.clip;
    t.keys_joint = s.selection.joint;
    t.keys_generation = s.model_generation;
  }
  return t.keys;
}

namespace {

void clip_combo(const Model& model, Player& p, ViewerState& s) {
  char current[160];
  if (p.clip < 0) {
    std::snprintf(current, sizeof(current), "(rest pose)");
  } else {
    const std::string_view name = clip_name(model, p.clip);
    std::snprintf(current, sizeof(current), "%d: %.*s", p.clip, static_cast<int>(name.size()),
                  name.data());
  }
  ImGui::SetNextItemWidth(kClipComboWidth);
  if (ImGui::BeginCombo("##clip", current)) {
    if (ImGui::Selectable("(rest pose)", p.clip < 0)) {
      p.clip = -1;
      p.time = 0.0;
    }
    s.landmarks.add_last_item("clip", -1);
    for (std::size_t i = 0; i < clip_count(model); ++i) {
      const auto c = static_cast<int32_t>(i);
      const std::string_view name = clip_name(model, c);
      char label[200];
      std::snprintf(label, sizeof(label), "%zu: %.*s (%.2f s)", i, static_cast<int>(name.size()),
                    name.data(), clip_duration(model, c));
      ImGui::PushID(c);
      if (ImGui::Selectable(label, p.clip == c)) {
        p.clip = c;
        p.time = 0.0;
      }
      s.landmarks.add_last_item("clip", c);
      ImGui::PopID();
    }
    ImGui::EndCombo();
  }
  s.landmarks.add_last_item("combo:Clip");
}

// The bar: drag to scrub (pauses), ticks at the keys, a line at the current time.
void scrub_bar(const Model& model, Player& p, ViewerState& s, double duration) {
  const ImVec2 size(std::max(10.0f, ImGui::CalcItemWidth()), ImGui::GetFrameHeight());
  const ImVec2 a = ImGui::GetCursorScreenPos();
  ImGui::InvisibleButton("##scrub", size);
  s.landmarks.add_last_item("scrub");
  const bool active = ImGui::IsItemActive();
  if (active && duration > 0.0) {
    const double u = std::clamp((ImGui::GetIO().MousePos.x - a.x) / size.x, 0.0f, 1.0f);
    p.time = u * duration;
    p.playing = false;
  }
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 b(a.x + size.x, a.y + size.y);
  dl->AddRectFilled(a, b, ImGui::GetColorU32(active ? ImGuiCol_FrameBgActive : ImGuiCol_FrameBg),
                    3.0f);
  if (duration <= 0.0) {
    dl->AddText(ImVec2(a.x + 6, a.y + 2), ImGui::GetColorU32(ImGuiCol_TextDisabled),
                p.clip < 0 ? "rest pose: no time to scrub" : "a single pose (zero duration)");
    return;
  }
  // The in and out points: the part between them shaded, each end a line.
  if (p.range_clip == p.clip && p.range_out > p.range_in) {
    const auto at = [&](double t) {
      return a.x + size.x * static_cast<float>(std::clamp(t / duration, 0.0, 1.0));
    };
    const float x0 = at(p.range_in), x1 = at(p.range_out);
    const ImU32 edge = p.loop_range ? IM_COL32(90, 200, 255, 255) : IM_COL32(90, 200, 255, 140);
    dl->AddRectFilled(ImVec2(x0, a.y), ImVec2(x1, b.y),
                      p.loop_range ? IM_COL32(90, 200, 255, 60) : IM_COL32(90, 200, 255, 28));
    dl->AddLine(ImVec2(x0, a.y), ImVec2(x0, b.y), edge, 2.0f);
    dl->AddLine(ImVec2(x1, a.y), ImVec2(x1, b.y), edge, 2.0f);
  }
  // Second ticks (or tenths for short clips) along the bottom edge.
  const double step = duration > 20.0 ? 5.0 : duration > 2.0 ? 1.0 : 0.1;
  const ImU32 tick = ImGui::GetColorU32(ImGuiCol_TextDisabled);
  for (int i = 0; i * step <= duration + 1e-4; ++i) {
    const float x = a.x + size.x * static_cast<float>(i * step / duration);
    dl->AddLine(ImVec2(x, b.y - 4), ImVec2(x, b.y), tick);
  }
  // The selected joint's keys: a tick each in the bar's upper part (one per pixel column: keys
  // that land on the column already drawn are skipped; mocap at 120 Hz reads as a band).
  if (s.selection.joint >= 0) {
    const ImU32 key_color = IM_COL32(250, 200, 60, 210);
    float last_x = -1e9f;
    for (double k : selected_keys(model, p, s)) {
      const float x =
          std::round(a.x + size.x * static_cast<float>(std::clamp(k / duration, 0.0, 1.0)));
      if (x == last_x) continue;
      last_x = x;
      dl->AddLine(ImVec2(x, a.y + 2), ImVec2(x, a.y + 0.6f * size.y), key_color, 1.0f);
    }
  }
  const float x = a.x + size.x * static_cast<float>(std::clamp(p.time / duration, 0.0, 1.0));
  dl->AddLine(ImVec2(x, a.y), ImVec2(x, b.y), IM_COL32(255, 80, 80, 255), 2.0f);
}

}  // namespace

bool slow_playback_notice(const SceneView& scene, char* out, std::size_t size) {
  if (size > 0) out[0] = '\0';
  // 2% under real time is noise in the frame times, not a slow clip.
  // A rest pose or a single pose "plays" nothing: no clip can fall behind.
  if (scene.player == nullptr || !scene.player->playing || !(scene.realtime < 0.98) ||
      scene.frame_seconds <= 0.0 || size == 0 || scene.model == nullptr ||
      !(clip_duration(*scene.model, scene.player->clip) > 0.0))
    return false;
  std::snprintf(out, size, "playing at %.2fx: frames take %.0f ms", scene.realtime,
                scene.frame_seconds * 1e3);
  return true;
}

namespace {

// The width of range_controls' row: In, Out, "Loop range" and "Save range...".
float range_controls_width() {
  const float spacing = ImGui::GetStyle().ItemSpacing.x;
  return small_button_width("In") + small_button_width("Out") + checkbox_width("Loop range") +
         small_button_width("Save range...") + 3.0f * spacing;
}

// In, Out, "Loop range" and "Save range...": the in and out points of the player's clip, playback
// kept between them, and their saving as a clip range under a name (UiEdits::save_range).
void range_controls(Player& p, double duration, ViewerState& s, UiEdits& edits) {
  const bool clip = p.clip >= 0 && duration > 0.0;
  ImGui::BeginDisabled(!clip);
  const bool mine = p.range_clip == p.clip;
  if (ImGui::SmallButton("In")) {
    if (!mine) p.range_out = duration;
    p.range_in = p.time;
    p.range_clip = p.clip;
    if (p.range_out <= p.range_in) p.range_out = duration;
  }
  s.landmarks.add_last_item("button:In");
  if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
    ImGui::SetTooltip("the range starts at the time shown");
  ImGui::SameLine();
  if (ImGui::SmallButton("Out")) {
    if (!mine) p.range_in = 0.0;
    p.range_out = p.time;
    p.range_clip = p.clip;
    if (p.range_in >= p.range_out) p.range_in = 0.0;
  }
  s.landmarks.add_last_item("button:Out");
  if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
    ImGui::SetTooltip("the range ends at the time shown");
  ImGui::SameLine();
  ImGui::Checkbox("Loop range", &p.loop_range);
  s.landmarks.add_last_item("check:Loop range");
  const bool has = p.range_clip == p.clip && p.range_out > p.range_in;
  if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) {
    if (has)
      ImGui::SetTooltip("play %.3f s to %.3f s only", p.range_in, p.range_out);
    else
      ImGui::SetTooltip("set In and Out first");
  }
  ImGui::SameLine();
  ImGui::BeginDisabled(!has);
  if (ImGui::SmallButton("Save range...")) ImGui::OpenPopup("save_range");
  s.landmarks.add_last_item("button:Save range");
  ImGui::EndDisabled();
  ImGui::EndDisabled();
  if (ImGui::BeginPopup("save_range")) {
    ImGui::Text("%.3f s to %.3f s of this clip, as a clip named", p.range_in, p.range_out);
    ImGui::SetNextItemWidth(200.0f);
    if (ImGui::IsWindowAppearing()) ImGui::SetKeyboardFocusHere();
    const bool enter =
        ImGui::InputText("##range_name", s.timeline.range_name, sizeof(s.timeline.range_name),
                         ImGuiInputTextFlags_EnterReturnsTrue);
    s.landmarks.add_last_item("input:Range name");
    ImGui::SameLine();
    const bool save = ImGui::Button("Save");
    s.landmarks.add_last_item("button:Save range name");
    if ((enter || save) && s.timeline.range_name[0] != '\0') {
      edits.save_range = true;
      ImGui::CloseCurrentPopup();
    }
    ImGui::TextDisabled("kept beside the model (MODEL.ranges.json): it comes back next time");
    ImGui::EndPopup();
  }
}

}  // namespace

void timeline_panel(const SceneView& scene, ViewerState& s, UiEdits& edits) {
  if (scene.model == nullptr || scene.player == nullptr) {
    ImGui::TextDisabled("No model loaded.");
    return;
  }
  const Model& model = *scene.model;
  Player& p = *scene.player;
  const double duration = clip_duration(model, p.clip);
  // The rest pose (or a model without clips) has nothing to play: "Play", disabled, and why.
  const bool playable = p.clip >= 0;
  const char* play = playable && p.playing ? "Pause" : "Play";
  ImGui::BeginDisabled(!playable);
  if (ImGui::Button(play, ImVec2(52, 0))) p.toggle(duration);
  s.landmarks.add_last_item("button:Play", -1, play);
  ImGui::EndDisabled();
  if (!playable && ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) {
    ImGui::SetTooltip(clip_count(model) == 0 ? "Nothing to play: this model has no clips"
                                             : "Nothing to play in the rest pose: choose a clip");
  }
  ImGui::SameLine();
  if (ImGui::Button("Stop")) {
    p.playing = false;
    p.time = 0.0;
  }
  s.landmarks.add_last_item("button:Stop");
  ImGui::SameLine();
  const std::span<const double> keys = selected_keys(model, p, s);
  if (ImGui::Button("|<")) {
    p.playing = false;
    p.time = std::clamp(adjacent_time(keys, p.time, -1), 0.0, duration);
  }
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("previous key (Page Up)");
  ImGui::SameLine();
  if (ImGui::ArrowButton("##prev", ImGuiDir_Left)) {
    p.playing = false;
    p.time = step_time(p.time, duration, -1, s.frames_per_second);
  }
  ImGui::SameLine();
  if (ImGui::ArrowButton("##next", ImGuiDir_Right)) {
    p.playing = false;
    p.time = step_time(p.time, duration, 1, s.frames_per_second);
  }
  ImGui::SameLine();
  if (ImGui::Button(">|")) {
    p.playing = false;
    p.time = std::clamp(adjacent_time(keys, p.time, 1), 0.0, duration);
  }
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("next key (Page Down)");
  // From here the row flows (a narrow window, 800x500: the range's controls start the bar's row
  // instead of running past the edge); `wrapped` counts the rows started.
  int wrapped = 0;
  const ImGuiStyle& style = ImGui::GetStyle();
  if (!flow_same_line(kClipComboWidth, 16.0f)) ++wrapped;
  clip_combo(model, p, s);
  if (!flow_same_line(kSpeedWidth + style.ItemInnerSpacing.x + ImGui::CalcTextSize("Speed").x,
                      16.0f))
    ++wrapped;
  ImGui::SetNextItemWidth(kSpeedWidth);
  ImGui::SliderFloat("Speed", &p.speed, -2.0f, 2.0f, "%.2fx");
  if (!flow_same_line(checkbox_width("Loop"))) ++wrapped;
  ImGui::Checkbox("Loop", &p.loop);
  s.landmarks.add_last_item("check:Loop");
  // The range's controls stay on this row when they fit; the notes below (cut to fit, their
  // tooltip whole) take what is left of the row either way.
  const bool range_here = fits_same_line(range_controls_width(), 16.0f);
  if (range_here) {
    ImGui::SameLine(0, 16);
    range_controls(p, duration, s, edits);
  }
  if (char notice[96]; slow_playback_notice(scene, notice, sizeof(notice))) {
    // The clock cannot step further than kMaxFrameStep a frame: say so rather than let the clip
    // slow down behind a speed that still reads 1.00x.
    ImGui::SameLine(0, 16);
    fit_text(notice, 0.0f, ImVec4(1.0f, 0.7f, 0.3f, 1.0f));
    s.landmarks.add_last_item("text:Slow playback");
  }
  if (s.selection.joint >= 0 &&
      static_cast<std::size_t>(s.selection.joint) < model.skeleton.size()) {
    ImGui::SameLine(0, 16);
    fit_textf_disabled("ticks: %zu keys of %s", keys.size(),
                       model.skeleton.names[static_cast<std::size_t>(s.selection.joint)].c_str());
  }
  if (!range_here) {
    ++wrapped;
    range_controls(p, duration, s, edits);
  }
  // The bar, then the readout at its right end.
  const double fps = s.frames_per_second;
  char readout[96];
  std::snprintf(readout, sizeof(readout), "frame %d/%d  %.3f/%.3f s",
                static_cast<int>(std::round(p.time * fps)),
                static_cast<int>(std::round(duration * fps)), p.time, duration);
  // Its widest form (the last frame), so the bar does not change length as the digits do.
  char widest[96];
  std::snprintf(widest, sizeof(widest), "frame %d/%d  %.3f/%.3f s",
                static_cast<int>(std::round(duration * fps)),
                static_cast<int>(std::round(duration * fps)), duration, duration);
  const float readout_w = ImGui::CalcTextSize(widest).x + ImGui::GetStyle().ItemSpacing.x;
  // A row of its own, or the rest of the last row when the controls above took two.
  const bool bar_joined = wrapped > 0 && flow_same_line(kMinScrubWidth + readout_w, 16.0f);
  // The rows past the two the panel's height was made for (a very narrow window).
  const int32_t extra_rows = std::max(0, wrapped - (bar_joined ? 1 : 0));
  ImGui::PushItemWidth(std::max(40.0f, ImGui::GetContentRegionAvail().x - readout_w));
  scrub_bar(model, p, s, duration);
  ImGui::PopItemWidth();
  ImGui::SameLine();
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted(readout);
  // Each layer's own time under the bar. The panel grows by a row per layer (and per row of
  // controls past two), where the layout has room for it (layout.h: never at the side panels'
  // expense).
  const int32_t rows =
      extra_rows + (scene.stack == nullptr ? 0
                                           : static_cast<int32_t>(scene.stack->layers.size()) +
                                                 (scene.stack->fading() ? 1 : 0));
  if (rows != s.layers.timeline_rows) {
    s.layout_prefs.timeline_rows = static_cast<float>(rows) * ImGui::GetFrameHeightWithSpacing();
    s.layers.timeline_rows = rows;
  }
  layer_timelines(scene, s);
}

}  // namespace sv::ui
