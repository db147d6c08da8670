// The Export section (see export_panel.h): labelled fields, the Record / Cancel row, messages.
#include "ui/export_panel.h"

#include <cstdio>
#include <filesystem>
#include <system_error>

#include <imgui.h>

#include "ui/widgets.h"

namespace sv::ui {
namespace {

// One labelled text field on its own row: the label left, the field filling the rest.
bool field(const char* label, const char* hint, char* buf, std::size_t size, const char* mark,
           Landmarks& marks) {
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted(label);
  ImGui::SameLine(ImGui::GetFontSize() * 4.5f);
  ImGui::SetNextItemWidth(-1.0f);
  ImGui::PushID(label);
  const bool changed = ImGui::InputTextWithHint("##f", hint, buf, size);
  ImGui::PopID();
  marks.add_last_item(mark);
  return changed;
}

// A greyed, wrapped line saying what the controls below do.
void hint(const char* text) {
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  ImGui::TextWrapped("%s", text);
  ImGui::PopStyleColor();
}

void message(std::string_view text, bool error, const char* mark, Landmarks& marks) {
  if (text.empty()) return;
  if (error) {
    error_text("%.*s", static_cast<int>(text.size()), text.data());
  } else {
    ImGui::TextWrapped("%.*s", static_cast<int>(text.size()), text.data());
  }
  marks.add_last_item(mark, error ? 1 : 0);
}

// Keeps e.target for the field as typed (a file-system look-up only when the field changed).
void update_target(ExportFields& e) {
  if (e.target_for == e.out && !e.target.empty()) return;
  e.target_for = e.out;
  std::error_code ec;
  const std::filesystem::path cwd = std::filesystem::current_path(ec);
  e.target = export_target(e.out, ec ? std::string_view() : std::string_view(cwd.native()));
}

}  // namespace

std::string export_target(std::string_view out, std::string_view cwd) {
  namespace fs = std::filesystem;
  fs::path p(out.empty() ? std::string_view("pose.glb") : out);
  if (p.is_relative() && !cwd.empty()) p = fs::path(cwd) / p;
  std::error_code ec;
  if (fs::is_directory(p, ec)) p /= "pose.glb";
  return p.lexically_normal().string();
}

ExportRequests export_section(bool model, const ExportStatus& st, RecordFields& r, ExportFields& e,
                              Landmarks& marks) {
  ExportRequests out;
  Section section("Export###export", "export", "header:Export", marks, false);
  if (!section) return out;
  hint("Record the clip as shown (--record):");
  ImGui::BeginDisabled(st.recording);
  field("Output", "folder, or .mp4 / .webm", r.out, sizeof r.out, "input:Record to", marks);
  field("fps", "30", r.fps, sizeof r.fps, "input:fps", marks);
  field("From", "0 s", r.from, sizeof r.from, "input:From", marks);
  field("To", "clip end", r.to, sizeof r.to, "input:To time", marks);
  field("Size", "1280x720", r.size, sizeof r.size, "input:Size", marks);
  field("Orbit", "degrees/s", r.orbit, sizeof r.orbit, "input:Orbit", marks);
  field("Loops", "1", r.loops, sizeof r.loops, "input:Loops", marks);
  ImGui::EndDisabled();
  if (st.recording) {
    const float done =
        st.total > 0 ? static_cast<float>(st.written) / static_cast<float>(st.total) : 0.0f;
    char text[64];
    std::snprintf(text, sizeof text, "%lld / %lld frames", static_cast<long long>(st.written),
                  static_cast<long long>(st.total));
    ImGui::ProgressBar(done, ImVec2(-1.0f, 0.0f), text);
    marks.add_last_item("progress:Record");
    if (ImGui::Button("Cancel")) out.cancel_record = true;
    marks.add_last_item("button:Cancel recording");
  } else {
    ImGui::BeginDisabled(!model);
    if (ImGui::Button("Record")) out.record = true;
    marks.add_last_item("button:Record");
    ImGui::EndDisabled();
  }
  message(st.record_message, st.record_error, "text:Record message", marks);

  ImGui::Separator();
  hint("The posed mesh as shown (--export-pose):");
  field("File", "pose.glb", e.out, sizeof e.out, "input:Export pose", marks);
  update_target(e);
  fit_textf_disabled("writes %s", e.target.c_str());
  marks.add_last_item("text:Export target");
  ImGui::Checkbox("Skinned (keep the rig)", &e.skinned);
  marks.add_last_item("check:Skinned");
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip(
        "--export-pose-skinned: the skeleton and weights are kept, with the pose "
        "as the file's rest pose");
  ImGui::BeginDisabled(!model);
  if (ImGui::Button("Export pose (.glb)")) {
    std::error_code ec;
    e.target_exists = std::filesystem::exists(e.target, ec);
    if (e.target_exists) {
      ImGui::OpenPopup("Replace the file?");
    } else {
      out.export_pose = true;
    }
  }
  marks.add_last_item("button:Export pose");
  ImGui::EndDisabled();
  if (ImGui::BeginPopupModal("Replace the file?", nullptr, ImGuiWindowFlags_AlwaysAutoResize)) {
    ImGui::TextUnformatted(e.target.c_str());
    ImGui::TextUnformatted("exists. Replace it with the pose?");
    if (ImGui::Button("Replace")) {
      out.export_pose = true;
      ImGui::CloseCurrentPopup();
    }
    marks.add_last_item("button:Replace");
    ImGui::SameLine();
    if (ImGui::Button("Cancel") || ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape))) {
      ImGui::CloseCurrentPopup();
    }
    marks.add_last_item("button:Keep");
    ImGui::EndPopup();
  }
  message(st.export_message, st.export_error, "text:Export message", marks);
  return out;
}

}  // namespace sv::ui
