// --layer and --crossfade (blend_options.h).
#include "app/blend_options.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>

#include "anim/model.h"
#include "app/app_common.h"

namespace sv {
namespace {

std::vector<std::string> split(const std::string& text, char sep) {
  std::vector<std::string> parts;
  std::size_t begin = 0;
  for (;;) {
    const std::size_t end = text.find(sep, begin);
    parts.push_back(text.substr(begin, end == std::string::npos ? end : end - begin));
    if (end == std::string::npos) return parts;
    begin = end + 1;
  }
}

std::string join(const std::vector<std::string>& parts, std::size_t begin, std::size_t end) {
  std::string s;
  for (std::size_t i = begin; i < end; ++i) s += (i > begin ? ":" : "") + parts[i];
  return s;
}

// "key=value" with a lowercase key: the key, or "" when the part is not of that form.
std::string key_of(const std::string& part) {
  const std::size_t eq = part.find('=');
  if (eq == std::string::npos || eq == 0) return {};
  for (std::size_t i = 0; i < eq; ++i)
    if (part[i] < 'a' || part[i] > 'z') return {};
  return part.substr(0, eq);
}

}  // namespace

std::string parse_layer_spec(const std::string& text, LayerSpec* out) {
  LayerSpec spec;
  spec.text = text;
  const std::string what = "--layer '" + text + "': ";
  const std::vector<std::string> parts = split(text, ':');
  // Each option, then its value; a part that is no option continues the value before it.
  std::string* value = &spec.clip;
  std::vector<std::pair<std::string, std::string>> options;
  spec.clip = parts[0];
  for (std::size_t i = 1; i < parts.size(); ++i) {
    const std::string& p = parts[i];
    const std::string key = key_of(p);
    if (p == "additive") {
      options.emplace_back("additive", "");
      value = nullptr;
    } else if (key == "weight" || key == "time" || key == "mask" || key == "ref") {
      options.emplace_back(key, p.substr(key.size() + 1));
      value = &options.back().second;
    } else if (!key.empty()) {
      return what + "unknown option '" + key + "' (want weight=, time=, mask=, ref= or additive)";
    } else if (value == nullptr) {
      return what + "'" + p + "' after 'additive' is not an option";
    } else {
      *value += ":" + p;
    }
  }
  if (spec.clip.empty()) return what + "no clip name before the options";
  for (const auto& [key, v] : options) {
    double x = 0.0;
    if (key == "additive") {
      spec.additive = true;
    } else if (key == "weight") {
      if (!parse_number(v, &x) || x < 0.0 || x > 1.0)
        return what + "weight '" + v + "' is not a number in [0, 1]";
      spec.weight = static_cast<float>(x);
    } else if (key == "time" || key == "ref") {
      if (!parse_seconds(v, &x)) return what + key + " '" + v + "' is not a time in seconds >= 0";
      if (key == "time")
        spec.time = x;
      else
        spec.reference_time = x;
    } else if (key == "mask") {
      if (v.empty()) return what + "mask= names no joint";
      spec.masks.push_back(v);
    }
  }
  if (!spec.additive && spec.reference_time != 0.0)
    return what + "ref= is for additive layers (add :additive)";
  *out = std::move(spec);
  return {};
}

std::string parse_crossfade_spec(const std::string& text, CrossFadeSpec* out) {
  CrossFadeSpec spec;
  spec.text = text;
  const std::string what = "--crossfade '" + text + "': ";
  std::vector<std::string> parts = split(text, ':');
  if (!parts.empty() && parts.back() == "sync") {
    spec.sync = true;
    parts.pop_back();
  }
  if (parts.size() < 4) return what + "want FROM:TO:START:DURATION[:sync]";
  const std::string& start = parts[parts.size() - 2];
  const std::string& duration = parts.back();
  if (!parse_seconds(start, &spec.start))
    return what + "START '" + start + "' is not a time in seconds >= 0";
  if (!parse_seconds(duration, &spec.duration))
    return what + "DURATION '" + duration + "' is not a time in seconds >= 0";
  spec.clips = join(parts, 0, parts.size() - 2);
  *out = std::move(spec);
  return {};
}

std::string parse_blend_specs(const std::vector<std::string>& layers, const std::string& crossfade,
                              BlendSpecs* out) {
  BlendSpecs specs;
  for (const std::string& text : layers) {
    LayerSpec l;
    if (std::string e = parse_layer_spec(text, &l); !e.empty()) return e;
    specs.layers.push_back(std::move(l));
  }
  if (!crossfade.empty()) {
    CrossFadeSpec f;
    if (std::string e = parse_crossfade_spec(crossfade, &f); !e.empty()) return e;
    specs.fade = std::move(f);
  }
  *out = std::move(specs);
  return {};
}

std::string make_layer_stack(const Model& model, const std::string& file, int32_t base,
                             double base_time, const BlendSpecs& specs, LayerStack* out) {
  // A clip by name or index ("" names none here).
  const auto find_clip = [&model](const std::string& which) -> int32_t {
    if (which.empty()) return -1;
    return resolve_clip(model, which).value_or(-1);
  };
  LayerStack stack;
  stack.base = base;
  if (const std::optional<CrossFadeSpec>& fade = specs.fade) {
    // FROM:TO where both halves name clips (names may hold ':').
    const std::vector<std::string> parts = split(fade->clips, ':');
    for (std::size_t i = 1; i < parts.size() && stack.fade_to < 0; ++i) {
      const int32_t from = find_clip(join(parts, 0, i));
      const int32_t to = find_clip(join(parts, i, parts.size()));
      if (from >= 0 && to >= 0) {
        stack.base = from;
        stack.fade_to = to;
      }
    }
    if (stack.fade_to < 0)
      return "--crossfade '" + fade->text + "': '" + fade->clips +
             "' is not FROM:TO, two clips: " + no_clip_message(model, file, fade->clips);
    stack.fade = CrossFade{fade->start, fade->duration, fade->sync};
  }
  const std::size_t joints = model.skeleton.size();
  for (const LayerSpec& spec : specs.layers) {
    const std::string what = "--layer '" + spec.text + "': ";
    StackLayer l;
    l.clip = find_clip(spec.clip);
    if (l.clip < 0) return what + no_clip_message(model, file, spec.clip);
    l.weight = spec.weight;
    l.mode = spec.additive ? BlendMode::Additive : BlendMode::Override;
    l.reference_time = spec.reference_time;
    l.time_offset = spec.time ? *spec.time - base_time : 0.0;
    if (!spec.masks.empty()) l.mask.assign(joints, 0.0f);
    for (const std::string& joint : spec.masks) {
      const int32_t j = model.skeleton.find(joint);
      if (j < 0) return what + "mask=: " + no_joint_message(model, file, joint);
      set_subtree(model.skeleton.parents, static_cast<std::size_t>(j), 1.0f, l.mask);
    }
    stack.layers.push_back(std::move(l));
  }
  if (stack.base < 0 && !stack.layers.empty())
    return "--layer needs a clip under it: " + no_clip_message(model, file, "");
  *out = std::move(stack);
  return {};
}

}  // namespace sv
