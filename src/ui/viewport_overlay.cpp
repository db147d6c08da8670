#include "ui/viewport_overlay.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "anim/model.h"
#include "gfx/view_colors.h"
#include "skin/rig_compare.h"
#include "skin/skin_difference.h"
#include "skin/weight_stats.h"

namespace sv::ui {
namespace {

constexpr ImU32 kText = IM_COL32(225, 228, 232, 255);
constexpr ImU32 kDim = IM_COL32(165, 170, 178, 255);
constexpr ImU32 kBackground = IM_COL32(18, 20, 24, 215);
constexpr ImU32 kBorder = IM_COL32(90, 94, 100, 255);

ImU32 to_imgui(const glm::vec3& linear) {
  const glm::vec3 c = display_color(linear);
  return IM_COL32(static_cast<int>(std::lround(c.r * 255.0f)),
                  static_cast<int>(std::lround(c.g * 255.0f)),
                  static_cast<int>(std::lround(c.b * 255.0f)), 255);
}

const char* joint_name(std::span<const std::string> names, int32_t j) {
  return j >= 0 && static_cast<std::size_t>(j) < names.size()
             ? names[static_cast<std::size_t>(j)].c_str()
             : "?";
}

glm::vec3 joint_color_of(std::span<const glm::vec3> colors, int32_t j) {
  return j >= 0 && static_cast<std::size_t>(j) < colors.size() ? colors[static_cast<std::size_t>(j)]
                                                               : kNoValueColor;
}

// Percent of `n` in `total`, for "1,234 (29%)".
double percent(uint64_t n, uint64_t total) {
  return total > 0 ? 100.0 * static_cast<double>(n) / static_cast<double>(total) : 0.0;
}

// Lays a legend out row by row from its top-left corner. With a null list it only measures,
// so legend_size() and draw_legend() share one description of every legend.
class Painter {
 public:
  Painter(ImDrawList* list, const ImVec2& origin, float column, bool collapsed = false)
      : list_(list), origin_(origin), column_(column), collapsed_(collapsed) {
    line_ = ImGui::GetTextLineHeight();
    pad_ = std::round(0.5f * line_);
    y_ = origin.y + pad_;
    swatch_ = std::round(0.8f * line_);
    ramp_width_ = std::round(16.0f * line_);
  }

  // The first row: a disclosure arrow (the legend collapses to this row) and the title.
  // `short_text`, when given, is the title a collapsed legend shows (a short row fits where the
  // model leaves little room).
  void title(const char* text, const char* short_text = nullptr) {
    if (done_) return;
    if (collapsed_ && short_text != nullptr) text = short_text;
    const float w = ImGui::CalcTextSize(text).x;
    const float arrow = line_;
    if (list_ != nullptr) {
      const float x = origin_.x + pad_, y = y_, a = 0.3f * line_;
      const ImVec2 c(x + 0.4f * line_, y + 0.5f * line_);
      if (collapsed_) {  // pointing right: more to show
        list_->AddTriangleFilled(ImVec2(c.x - 0.6f * a, c.y - a), ImVec2(c.x + a, c.y),
                                 ImVec2(c.x - 0.6f * a, c.y + a), kText);
      } else {  // pointing down: shown
        list_->AddTriangleFilled(ImVec2(c.x - a, c.y - 0.6f * a), ImVec2(c.x + a, c.y - 0.6f * a),
                                 ImVec2(c.x, c.y + a), kText);
      }
      list_->AddText(ImVec2(x + arrow, y), IM_COL32_WHITE, text);
    }
    grow(arrow + w);
    title_bottom_ = y_ + line_;
    y_ += collapsed_ ? line_ : line_ + 0.25f * line_;
    done_ = collapsed_;
  }

  void text(const char* text, ImU32 color = kDim) {
    if (done_) return;
    const float w = ImGui::CalcTextSize(text).x;
    if (list_ != nullptr) list_->AddText(ImVec2(origin_.x + pad_, y_), color, text);
    grow(w);
    y_ += line_;
  }

  // A colour square, a label, and a value aligned in a second column.
  void swatch(const glm::vec3& linear, const char* label, const char* value = nullptr) {
    if (done_) return;
    const float x = origin_.x + pad_;
    const float label_x = x + swatch_ + 0.5f * line_;
    const float label_w = ImGui::CalcTextSize(label).x;
    label_column_ = std::max(label_column_, label_w);
    const float value_x = label_x + column_ + line_;
    if (list_ != nullptr) {
      const ImVec2 a(x, y_ + 0.5f * (line_ - swatch_));
      list_->AddRectFilled(a, ImVec2(a.x + swatch_, a.y + swatch_), to_imgui(linear));
      list_->AddRect(a, ImVec2(a.x + swatch_, a.y + swatch_), kBorder);
      list_->AddText(ImVec2(label_x, y_), kText, label);
      if (value != nullptr) list_->AddText(ImVec2(value_x, y_), kText, value);
    }
    const float end = value != nullptr ? value_x + ImGui::CalcTextSize(value).x : label_x + label_w;
    grow(end - origin_.x - pad_);
    y_ += line_;
  }

  // A horizontal colour bar of color(t), t in 0..1, with ticks and their labels under it.
  template <class ColorOf>
  void ramp(ColorOf color, std::span<const float> ticks, std::span<const char* const> labels) {
    if (done_) return;
    const float x0 = origin_.x + pad_, x1 = x0 + ramp_width_;
    const float h = std::round(0.9f * line_);
    if (list_ != nullptr) {
      constexpr int kSegments = 48;  // the ramps are eased: linear pieces this short look smooth
      for (int i = 0; i < kSegments; ++i) {
        const float t0 = static_cast<float>(i) / kSegments,
                    t1 = static_cast<float>(i + 1) / kSegments;
        const ImU32 a = to_imgui(color(t0)), b = to_imgui(color(t1));
        list_->AddRectFilledMultiColor(ImVec2(x0 + t0 * ramp_width_, y_),
                                       ImVec2(x0 + t1 * ramp_width_, y_ + h), a, b, b, a);
      }
      list_->AddRect(ImVec2(x0, y_), ImVec2(x1, y_ + h), kBorder);
      for (std::size_t i = 0; i < ticks.size() && i < labels.size(); ++i) {
        const float x = std::round(x0 + ticks[i] * ramp_width_);
        list_->AddLine(ImVec2(x, y_ + h), ImVec2(x, y_ + h + 0.3f * line_), kText);
        const float w = ImGui::CalcTextSize(labels[i]).x;
        const float lx = std::clamp(x - 0.5f * w, x0, x1 - w);
        list_->AddText(ImVec2(lx, y_ + h + 0.3f * line_), kDim, labels[i]);
      }
    }
    grow(ramp_width_);
    y_ += h + 0.3f * line_ + line_ + 0.25f * line_;
  }

  ImVec2 size() const {
    return ImVec2(std::ceil(width_ + 2.0f * pad_), std::ceil(y_ - origin_.y + pad_));
  }
  float label_column() const { return label_column_; }
  // The title row's height from the top (the collapse toggle's hit area).
  float title_height() const { return title_bottom_ - origin_.y; }

 private:
  void grow(float w) { width_ = std::max(width_, w); }

  ImDrawList* list_;
  ImVec2 origin_;
  float column_;  // label column width of swatch rows (from a measuring pass)
  float line_ = 13.0f, pad_ = 6.0f, swatch_ = 10.0f, ramp_width_ = 200.0f;
  float y_ = 0.0f;
  float width_ = 0.0f;
  float label_column_ = 0.0f;
  bool collapsed_ = false;
  bool done_ = false;  // collapsed and the title drawn: nothing more
  float title_bottom_ = 0.0f;
};

void weights_legend(Painter& p, const LegendInput& in) {
  char line[256];
  if (in.selected_joint >= 0) {
    std::snprintf(line, sizeof(line), "Weight of %s", joint_name(in.names, in.selected_joint));
    p.title(line, "Weights");
  } else {
    p.title("Weight of the selected joint", "Weights");
  }
  static constexpr float kTicks[] = {0.0f, 0.25f, 0.5f, 0.75f, 1.0f};
  static constexpr const char* kLabels[] = {"0", "0.25", "0.5", "0.75", "1"};
  p.ramp([](float t) { return heat_color(t); }, kTicks, kLabels);
  if (in.selected_joint < 0) {
    p.text("no joint selected: click one", kText);
  } else if (static_cast<std::size_t>(in.selected_joint) < in.joints.size()) {
    const JointInfluence& j = in.joints[static_cast<std::size_t>(in.selected_joint)];
    std::snprintf(line, sizeof(line), "weighs on %u vertices, largest %.3f", j.vertices,
                  static_cast<double>(j.max_weight));
    p.text(line);
  }
}

void dominant_legend(Painter& p, const LegendInput& in) {
  p.title("Dominant joint (largest weight)", "Dominant joint");
  char line[256];
  if (in.selected_joint >= 0) {
    std::snprintf(line, sizeof(line), "selected: %s", joint_name(in.names, in.selected_joint));
    p.swatch(joint_color_of(in.joint_colors, in.selected_joint), line);
  }
  if (in.hovered_joint >= 0 && in.hovered_joint != in.selected_joint) {
    std::snprintf(line, sizeof(line), "under the cursor: %s",
                  joint_name(in.names, in.hovered_joint));
    p.swatch(joint_color_of(in.joint_colors, in.hovered_joint), line);
  }
  if (in.selected_joint < 0 && in.hovered_joint < 0) p.text("hover the mesh to name a colour");
}

void influences_legend(Painter& p, const LegendInput& in) {
  p.title("Influences per vertex", "Influences");
  static constexpr const char* kLabels[] = {"1", "2", "3", "4"};
  char value[64], label[96];
  const WeightStats* s = in.stats;
  const uint64_t total = s != nullptr ? s->vertices : 0;
  for (std::size_t k = 0; k < 4; ++k) {
    if (s != nullptr) {
      std::snprintf(value, sizeof(value), "%llu (%.1f%%)",
                    static_cast<unsigned long long>(s->influences[k]),
                    percent(s->influences[k], total));
    }
    p.swatch(kInfluenceColors[k], kLabels[k], s != nullptr ? value : nullptr);
  }
  // Vertices with more than 4: the share of their weight the 4-limit cuts, on a ramp.
  if (s != nullptr && s->max_influences > 4) {
    std::snprintf(label, sizeof(label),
                  "more than 4 (up to %u): %llu (%.1f%%), weight the 4-limit cuts",
                  s->max_influences, static_cast<unsigned long long>(s->truncated),
                  percent(s->truncated, total));
  } else {
    std::snprintf(label, sizeof(label), "more than 4: weight the 4-limit cuts");
  }
  p.text(label, kText);
  static constexpr float kTicks[] = {0.0f, 0.5f, 1.0f};
  char tick_text[3][16];
  const char* tick_labels[3];
  for (int i = 0; i < 3; ++i) {
    std::snprintf(tick_text[i], sizeof(tick_text[i]), i == 2 ? "%.2f+" : "%.2f",
                  static_cast<double>(kTicks[i] * kCutRampTop));
    tick_labels[i] = tick_text[i];
  }
  tick_text[0][0] = '0';
  tick_text[0][1] = '\0';
  p.ramp(
      [](float t) { return cut_weight_color(1u + static_cast<uint32_t>(std::lround(254.0f * t))); },
      kTicks, tick_labels);
  if (s != nullptr && s->truncated > 0) {
    std::snprintf(label, sizeof(label),
                  "%llu had 5-8 (all kept with 8 influences), %llu more than 8",
                  static_cast<unsigned long long>(s->truncated - s->truncated_over_8),
                  static_cast<unsigned long long>(s->truncated_over_8));
    p.text(label);
    std::snprintf(label, sizeof(label), "largest cut %.3f of a vertex's weight",
                  static_cast<double>(s->largest_cut));
    p.text(label);
  }
}

void weight_sum_legend(Painter& p, const LegendInput& in) {
  p.title("Weight sum as stored in the file", "Weight sum");
  char value[64], label[96], line[160];
  const WeightStats* s = in.stats;
  const uint64_t total = s != nullptr ? s->vertices : 0;
  std::snprintf(label, sizeof(label), "within %g of 1", static_cast<double>(kWeightSumTolerance));
  if (s != nullptr) {
    const uint64_t ok = s->vertices - s->sum_off - s->unweighted;
    std::snprintf(value, sizeof(value), "%llu (%.1f%%)", static_cast<unsigned long long>(ok),
                  percent(ok, total));
  }
  p.swatch(kSumOkColor, label, s != nullptr ? value : nullptr);
  if (s != nullptr) {
    std::snprintf(value, sizeof(value), "%llu (%.1f%%)",
                  static_cast<unsigned long long>(s->unweighted), percent(s->unweighted, total));
  }
  p.swatch(kSumUnweightedColor, "no weight: bound to its node", s != nullptr ? value : nullptr);
  // The error ramp, one tick a decade from the tolerance to the ramp's top.
  std::snprintf(line, sizeof(line), "off by more than %g: |sum - 1|",
                static_cast<double>(kWeightSumTolerance));
  p.text(line, kText);
  constexpr int kDecades = static_cast<int>(kSumErrorRampDecades);
  float ticks[kDecades + 1];
  char tick_text[kDecades + 1][16];
  const char* tick_labels[kDecades + 1];
  for (int d = 0; d <= kDecades; ++d) {
    ticks[d] = static_cast<float>(d) / static_cast<float>(kDecades);
    std::snprintf(tick_text[d], sizeof(tick_text[d]), d == kDecades ? "%g+" : "%g",
                  static_cast<double>(kWeightSumTolerance) * std::pow(10.0, d));
    tick_labels[d] = tick_text[d];
  }
  p.ramp(
      [](float t) { return weight_sum_color(1u + static_cast<uint32_t>(std::lround(254.0f * t))); },
      ticks, tick_labels);
  if (s != nullptr) {
    std::snprintf(line, sizeof(line), "%llu vertices off (%.1f%%), largest %.3g (sum %.4g)",
                  static_cast<unsigned long long>(s->sum_off), percent(s->sum_off, total),
                  static_cast<double>(s->largest_sum_error),
                  static_cast<double>(s->largest_error_sum));
    p.text(line, s->sum_off > 0 ? kText : kDim);
    // The import report counts at its own, tighter tolerance: say so, so the counts agree.
    std::snprintf(line, sizeof(line), "the import renormalised %llu (off by more than %g)",
                  static_cast<unsigned long long>(s->renormalised), kRenormaliseTolerance);
    p.text(line);
  }
}

// "largest 0.0123 model units (0.67% of the size 1.84) at vertex 512 of 'body'", and the count
// over the threshold.
void difference_figures(Painter& p, const LegendInput& in, const char* over_what) {
  const DifferenceStats* d = in.difference;
  char line[256];
  if (d == nullptr || !d->valid) {
    p.text(in.problem != nullptr ? in.problem : "nothing compared yet", kText);
    return;
  }
  // "'body'", or "mesh 2 (no name)" rather than ''.
  char mesh[96] = "?";
  if (in.model != nullptr && d->mesh < in.model->meshes.size()) {
    const std::string& name = in.model->meshes[d->mesh].name;
    if (name.empty()) {
      std::snprintf(mesh, sizeof(mesh), "mesh %u (no name)", d->mesh);
    } else {
      std::snprintf(mesh, sizeof(mesh), "'%.80s'", name.c_str());
    }
  }
  std::snprintf(line, sizeof(line), "largest %.3g model units (%.3g%% of the size %.3g)", d->max,
                100.0 * d->relative(), d->model_size);
  p.text(line, kText);
  if (d->max > 0.0) {
    std::snprintf(line, sizeof(line), "  at vertex %u of %s", d->vertex, mesh);
    p.text(line);
  }
  std::snprintf(line, sizeof(line), "%llu of %llu vertices (%.1f%%) %s",
                static_cast<unsigned long long>(d->over),
                static_cast<unsigned long long>(d->vertices), percent(d->over, d->vertices),
                over_what);
  p.text(line, d->over > 0 ? kText : kDim);
}

void cpu_gpu_legend(Painter& p, const LegendInput& in) {
  char line[160];
  std::snprintf(line, sizeof(line), "CPU vs GPU skinning (%s): distance per vertex",
                skin_method_label(in.diff_a));
  p.title(line, "CPU vs GPU");
  // One tick a decade, from kCpuGpuRampLow to kCpuGpuRampHigh.
  constexpr int kDecades = 4;
  static_assert(
      kCpuGpuRampHigh / kCpuGpuRampLow > 9e3f && kCpuGpuRampHigh / kCpuGpuRampLow < 1.1e4f,
      "the ticks assume 4 decades");
  static constexpr float kTicks[kDecades + 1] = {0.0f, 0.25f, 0.5f, 0.75f, 1.0f};
  static constexpr const char* kLabels[kDecades + 1] = {"1e-7", "1e-6", "1e-5", "1e-4", "1e-3"};
  p.ramp([](float t) { return heat_color(t); }, kTicks, kLabels);
  p.text("of the model's size, log scale (red: 1e-3 and more);");
  p.text("the tests allow 1e-5");
  difference_figures(p, in, "over 1e-5 of the size");
}

void method_diff_legend(Painter& p, const LegendInput& in) {
  char line[160];
  std::snprintf(line, sizeof(line), "%s vs %s: displacement per vertex",
                skin_method_label(in.diff_a), skin_method_label(in.diff_b));
  char short_title[32];
  std::snprintf(short_title, sizeof(short_title), "%s vs %s", skin_method_label(in.diff_a),
                skin_method_label(in.diff_b));
  p.title(line, short_title);
  static constexpr float kTicks[] = {0.0f, 0.25f, 0.5f, 0.75f, 1.0f};
  char tick_text[5][16];
  const char* labels[5];
  for (int i = 0; i < 5; ++i) {
    std::snprintf(tick_text[i], sizeof(tick_text[i]), i == 4 ? "%g%%+" : "%g%%",
                  100.0 * static_cast<double>(kMethodRampTop * kTicks[i]));
    labels[i] = tick_text[i];
  }
  p.ramp([](float t) { return heat_color(t); }, kTicks, labels);
  p.text("of the model's size (fixed scale); mesh drawn with the current method");
  std::snprintf(line, sizeof(line), "apart by more than %g%% of the size",
                100.0 * kMethodDifferenceThreshold);
  difference_figures(p, in, line);
}

// The weight-change view: the log ramp, what was compared and how, and the counts.
void weight_change_legend(Painter& p, const LegendInput& in) {
  char line[256];
  const RigComparison* c = in.comparison;
  const std::string_view comparing =
      in.comparing.substr(std::min(in.comparing.size(), in.comparing.find_last_of('/') + 1));
  char pending[128] = "";
  if (!comparing.empty())
    std::snprintf(pending, sizeof(pending), "comparing with %.*s ...",
                  static_cast<int>(std::min<std::size_t>(comparing.size(), 80)), comparing.data());
  if (c == nullptr) {
    p.title("Weight change against another version", "Weight change");
    p.text(comparing.empty() ? "nothing compared yet: File > Compare with..." : pending, kText);
    return;
  }
  const std::string_view name = in.compared_with.substr(in.compared_with.find_last_of('/') + 1);
  std::snprintf(line, sizeof(line), "Weight change vs %.*s (L1 per vertex)",
                static_cast<int>(std::min<std::size_t>(name.size(), 80)), name.data());
  p.title(line, "Weight change");
  static_assert(kWeightChangeRampHigh / kWeightChangeRampLow > 9e3f &&
                    kWeightChangeRampHigh / kWeightChangeRampLow < 1.1e4f,
                "the ticks assume 4 decades");
  static constexpr float kTicks[] = {0.0f, 0.25f, 0.5f, 0.75f, 1.0f};
  static constexpr const char* kLabels[] = {"1e-4", "0.001", "0.01", "0.1", "1+"};
  p.ramp([](float t) { return heat_color(t); }, kTicks, kLabels);
  p.text("per vertex, the sum over joints of |weight in A - weight in B|");
  p.text("(0 to 2), log scale; grey: no counterpart in B");
  bool by_position = false;
  for (const MeshPair& m : c->meshes) by_position |= m.by_position;
  p.text(by_position ? "vertices matched by nearest rest position (counts differ)"
                     : "vertices matched by index (the counts agree)");
  std::snprintf(line, sizeof(line), "%llu of %llu vertices changed (over %g)",
                static_cast<unsigned long long>(c->vertices_changed),
                static_cast<unsigned long long>(c->vertices_compared), c->tolerances.weight);
  p.text(line, c->vertices_changed > 0 ? kText : kDim);
  if (c->vertices_changed > 0 && in.model != nullptr && c->max_mesh >= 0 &&
      static_cast<std::size_t>(c->max_mesh) < in.model->meshes.size()) {
    const Mesh& m = in.model->meshes[static_cast<std::size_t>(c->max_mesh)];
    const std::size_t v = m.source_vertex.empty() || c->max_vertex >= m.source_vertex.size()
                              ? c->max_vertex
                              : m.source_vertex[c->max_vertex];
    std::snprintf(line, sizeof(line), "largest %.3g at vertex %zu of '%.60s'", c->max_change, v,
                  m.name.c_str());
    p.text(line, kText);
  }
  std::snprintf(line, sizeof(line), "joints: %zu moved, %zu renamed, %zu added, %zu removed",
                c->moved.size(), c->renamed.size(), c->added.size(), c->removed.size());
  p.text(line, c->moved.size() + c->renamed.size() + c->added.size() + c->removed.size() > 0
                   ? kText
                   : kDim);
  std::snprintf(line, sizeof(line), "clips: %zu changed, %zu added, %zu removed",
                c->clips_changed.size(), c->clips_added.size(), c->clips_removed.size());
  p.text(line, c->clips_changed.size() + c->clips_added.size() + c->clips_removed.size() > 0
                   ? kText
                   : kDim);
  if (!comparing.empty()) p.text(pending, kText);
}

// Describes the legend of `in` to `p` (measuring or drawing).
void describe(Painter& p, const LegendInput& in) {
  switch (in.view) {
    case ViewMode::Weights:
      weights_legend(p, in);
      break;
    case ViewMode::Dominant:
      dominant_legend(p, in);
      break;
    case ViewMode::Influences:
      influences_legend(p, in);
      break;
    case ViewMode::WeightSum:
      weight_sum_legend(p, in);
      break;
    case ViewMode::CpuGpu:
      cpu_gpu_legend(p, in);
      break;
    case ViewMode::MethodDiff:
      method_diff_legend(p, in);
      break;
    case ViewMode::WeightChange:
      weight_change_legend(p, in);
      break;
    case ViewMode::Shaded:
      break;
  }
}

}  // namespace

glm::vec3 hover_swatch_color(ViewMode view, std::span<const glm::vec3> joint_colors, int32_t joint,
                             float weight) noexcept {
  if (view == ViewMode::Weights) return heat_color(weight);
  return joint_color_of(joint_colors, joint);
}

ImVec2 legend_size(const LegendInput& in) {
  if (in.view == ViewMode::Shaded) return ImVec2(0.0f, 0.0f);
  Painter measure(nullptr, ImVec2(0.0f, 0.0f), 0.0f, in.collapsed);
  describe(measure, in);
  Painter sized(nullptr, ImVec2(0.0f, 0.0f), measure.label_column(), in.collapsed);
  describe(sized, in);
  return sized.size();
}

ImVec2 legend_title_size(const LegendInput& in) {
  LegendInput title = in;
  title.collapsed = true;
  return legend_size(title);
}

void draw_legend(ImDrawList* list, const ImVec2& min, const LegendInput& in) {
  if (in.view == ViewMode::Shaded || list == nullptr) return;
  Painter measure(nullptr, min, 0.0f, in.collapsed);
  describe(measure, in);
  Painter sized(nullptr, min, measure.label_column(), in.collapsed);
  describe(sized, in);
  const ImVec2 size = sized.size();
  const float rounding = 0.3f * ImGui::GetTextLineHeight();
  list->AddRectFilled(min, ImVec2(min.x + size.x, min.y + size.y), kBackground, rounding);
  list->AddRect(min, ImVec2(min.x + size.x, min.y + size.y), kBorder, rounding);
  Painter draw(list, min, measure.label_column(), in.collapsed);
  describe(draw, in);
}

bool legend_window(const ImVec2& min, const LegendInput& in) {
  const ImVec2 size = legend_size(in);
  if (size.x <= 0.0f) return false;
  ImGui::SetNextWindowPos(min);
  ImGui::SetNextWindowSize(size);
  ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(0.0f, 0.0f));
  ImGui::PushStyleVar(ImGuiStyleVar_WindowBorderSize, 0.0f);
  ImGui::PushStyleVar(ImGuiStyleVar_WindowMinSize, ImVec2(1.0f, 1.0f));
  constexpr ImGuiWindowFlags kFlags =
      ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings |
      ImGuiWindowFlags_NoBackground | ImGuiWindowFlags_NoFocusOnAppearing | ImGuiWindowFlags_NoNav |
      ImGuiWindowFlags_NoBringToFrontOnFocus;
  bool toggled = false;
  if (ImGui::Begin("##legend", nullptr, kFlags)) {
    draw_legend(ImGui::GetWindowDrawList(), min, in);
    // The title row is the toggle (as a collapsing header's is).
    const float line = ImGui::GetTextLineHeight();
    ImGui::SetCursorScreenPos(min);
    toggled =
        ImGui::InvisibleButton("##legend_toggle", ImVec2(size.x, std::min(size.y, 2.0f * line)));
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip(in.collapsed ? "Show the legend" : "Collapse the legend to its title");
  }
  ImGui::End();
  ImGui::PopStyleVar(3);
  return toggled;
}

Rect place_viewport_message(const Rect& viewport, const ImVec2& text_size,
                            const ViewportNotes& notes) noexcept {
  const float line = ImGui::GetTextLineHeight();
  const float pad_x = 0.75f * line, pad_y = 0.4f * line;
  Rect box{0.0f, viewport.y + 2.0f * line - pad_y, text_size.x + 2.0f * pad_x,
           text_size.y + 2.0f * pad_y};
  box.x = std::round(viewport.x + 0.5f * (viewport.w - box.w));
  // The notes stack down the left edge: below each one it would overlap (they are in order).
  for (const Rect& n : {notes.hint, notes.toast}) {
    if (boxes_overlap(box, n)) box.y = n.bottom() + 0.2f * line;
  }
  return box;
}

Rect draw_viewport_message(const ImVec2& viewport_min, const ImVec2& viewport_max,
                           std::string_view text, const ViewportNotes& notes, Landmarks& marks) {
  const char* begin = text.data();
  const char* end = text.data() + text.size();
  const float line = ImGui::GetTextLineHeight();
  const Rect viewport{viewport_min.x, viewport_min.y, viewport_max.x - viewport_min.x,
                      viewport_max.y - viewport_min.y};
  // Its box inside the viewport, with the notes' margin (0.2 lines) on either side.
  const float wrap = std::max(line, viewport.w - 1.9f * line);
  const ImVec2 size = ImGui::CalcTextSize(begin, end, false, wrap);
  const Rect box = place_viewport_message(viewport, size, notes);
  ImDrawList* list = ImGui::GetBackgroundDrawList();
  list->PushClipRect(viewport_min, viewport_max);
  list->AddRectFilled(ImVec2(box.x, box.y), ImVec2(box.right(), box.bottom()), kBackground,
                      0.3f * line);
  list->AddText(ImGui::GetFont(), ImGui::GetFontSize(),
                ImVec2(box.x + 0.75f * line, box.y + 0.4f * line), IM_COL32_WHITE, begin, end,
                wrap);
  list->PopClipRect();
  marks.add("note:message", -1, box);
  return box;
}

void hover_tooltip(const HoverInput& in) {
  if (in.kind == HoverInput::Kind::None) return;
  ImGui::BeginTooltip();
  if (in.kind == HoverInput::Kind::Joint) {
    ImGui::Text("joint %s (%d)", joint_name(in.names, in.joint), in.joint);
    ImGui::TextDisabled(in.selected ? "selected" : "click to select it");
    ImGui::EndTooltip();
    return;
  }
  // A mesh without a name is named by its index, not shown as ''.
  char mesh[96];
  if (in.mesh_name.empty()) {
    std::snprintf(mesh, sizeof(mesh), "mesh %u (no name)", in.mesh_index);
  } else {
    std::snprintf(mesh, sizeof(mesh), "'%.*s'",
                  static_cast<int>(std::min<std::size_t>(in.mesh_name.size(), 80)),
                  in.mesh_name.data());
  }
  if (in.file_vertex >= 0) {
    ImGui::Text("vertex %u (file %lld) of %s", in.vertex, static_cast<long long>(in.file_vertex),
                mesh);
  } else {
    ImGui::Text("vertex %u of %s", in.vertex, mesh);
  }
  const float swatch = ImGui::GetTextLineHeight();
  for (int i = 0; i < in.influences.count; ++i) {
    const int32_t j = in.influences.joints[i];
    const float w = in.influences.weights[i];
    const glm::vec3 c = display_color(hover_swatch_color(in.view, in.joint_colors, j, w));
    ImGui::ColorButton("##joint", ImVec4(c.r, c.g, c.b, 1.0f),
                       ImGuiColorEditFlags_NoTooltip | ImGuiColorEditFlags_NoDragDrop,
                       ImVec2(swatch, swatch));
    ImGui::SameLine();
    ImGui::Text("%.3f  %s", static_cast<double>(w), joint_name(in.names, j));
  }
  ImGui::Separator();
  ImGui::Text("%s %s (%.3f here)", in.selected ? "selected:" : "click selects",
              joint_name(in.names, in.joint), static_cast<double>(in.joint_weight));
  ImGui::EndTooltip();
}

}  // namespace sv::ui
