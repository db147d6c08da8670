#include "anim/retarget.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <unordered_map>

#include <glm/gtc/matrix_transform.hpp>

#include "anim/clip.h"
#include "anim/quat_vec.h"

namespace sv {

namespace {

bool is_separator(char c) noexcept { return c == '_' || c == '.' || c == '-' || c == ' '; }

std::string_view without_namespace(std::string_view name) noexcept {
  const std::size_t at = name.find_last_of(":|");
  return at == std::string_view::npos ? name : name.substr(at + 1);
}

// The rotation that stands a model upright (Y up): -90 degrees about X for a Z-up file.
glm::quat upright(bool z_up) {
  return z_up ? glm::angleAxis(glm::radians(-90.0f), glm::vec3(1, 0, 0)) : glm::quat(1, 0, 0, 0);
}

// Upright rest matrices and rest rotations (quaternion products: scale left out), per joint.
void rest_model(const Skeleton& sk, bool z_up, std::vector<glm::mat4>* matrices,
                std::vector<glm::quat>* rot) {
  const std::size_t n = sk.size();
  const glm::quat up = upright(z_up);
  matrices->assign(n, glm::mat4(1.0f));
  rot->assign(n, glm::quat(1.0f, 0.0f, 0.0f, 0.0f));
  for (std::size_t j = 0; j < n; ++j) {
    const glm::mat4 local = to_matrix(sk.rest[j]);
    const int32_t p = sk.parents[j];
    (*matrices)[j] =
        (p < 0 ? glm::mat4_cast(up) : (*matrices)[static_cast<std::size_t>(p)]) * local;
    (*rot)[j] =
        glm::normalize((p < 0 ? up : (*rot)[static_cast<std::size_t>(p)]) * sk.rest[j].rotation);
  }
}

bool near_identity(const glm::quat& q) noexcept {
  return std::abs(std::abs(q.w) - 1.0f) <= 1e-6f && std::abs(q.x) <= 1e-6f &&
         std::abs(q.y) <= 1e-6f && std::abs(q.z) <= 1e-6f;
}

bool near_vec(const glm::vec3& a, const glm::vec3& b, float tolerance) noexcept {
  return std::abs(a.x - b.x) <= tolerance && std::abs(a.y - b.y) <= tolerance &&
         std::abs(a.z - b.z) <= tolerance;
}

bool near_matrix(const glm::mat4& a, const glm::mat4& b) noexcept {
  for (int c = 0; c < 4; ++c)
    for (int r = 0; r < 4; ++r) {
      const float scale = std::max(1.0f, std::max(std::abs(a[c][r]), std::abs(b[c][r])));
      if (std::abs(a[c][r] - b[c][r]) > 1e-5f * scale) return false;
    }
  return true;
}

}  // namespace

std::string common_joint_prefix(std::span<const std::string> names) {
  if (names.size() < 2) return {};
  std::string_view common = without_namespace(names[0]);
  for (std::size_t i = 1; i < names.size() && !common.empty(); ++i) {
    const std::string_view n = without_namespace(names[i]);
    std::size_t k = 0;
    while (k < common.size() && k < n.size() && common[k] == n[k]) ++k;
    common = common.substr(0, k);
  }
  // Back to the last separator, and never the whole of some name: a key is never empty.
  while (!common.empty() && !is_separator(common.back())) common.remove_suffix(1);
  for (const std::string& name : names)
    if (without_namespace(name).size() == common.size()) return {};
  return std::string(common);
}

std::string joint_key(std::string_view name, std::string_view prefix) {
  std::string_view n = without_namespace(name);
  if (!prefix.empty() && n.size() > prefix.size() && n.substr(0, prefix.size()) == prefix)
    n.remove_prefix(prefix.size());
  std::string key(n);
  for (char& c : key) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return key;
}

JointMatch match_joints(const Skeleton& target, const Skeleton& source,
                        std::span<const std::pair<std::string, std::string>> joint_map) {
  JointMatch m;
  const std::size_t nt = target.size(), ns = source.size();
  m.source_of.assign(nt, -1);
  m.target_of.assign(ns, -1);
  auto pair = [&](std::size_t t, std::size_t s) {
    m.source_of[t] = static_cast<int32_t>(s);
    m.target_of[s] = static_cast<int32_t>(t);
  };
  // 1. The map file.
  for (const auto& [from, to] : joint_map) {
    const int32_t s = source.find(from), t = target.find(to);
    if (s < 0 || t < 0) {
      m.map_unused.push_back(from + " -> " + to);
      continue;
    }
    if (m.source_of[static_cast<std::size_t>(t)] >= 0 ||
        m.target_of[static_cast<std::size_t>(s)] >= 0)
      continue;
    pair(static_cast<std::size_t>(t), static_cast<std::size_t>(s));
    ++m.by_map;
  }
  // 2. Equal names.
  std::unordered_map<std::string_view, std::size_t> source_name;
  for (std::size_t s = 0; s < ns; ++s) source_name.try_emplace(source.names[s], s);
  for (std::size_t t = 0; t < nt; ++t) {
    if (m.source_of[t] >= 0) continue;
    const auto it = source_name.find(target.names[t]);
    if (it != source_name.end() && m.target_of[it->second] < 0) pair(t, it->second);
  }
  // 3. Equal keys, unique among each side's joints still unmatched.
  m.target_prefix = common_joint_prefix(target.names);
  m.source_prefix = common_joint_prefix(source.names);
  constexpr std::size_t kShared = static_cast<std::size_t>(-1);
  std::unordered_map<std::string, std::size_t> source_key, target_key;
  for (std::size_t s = 0; s < ns; ++s) {
    if (m.target_of[s] >= 0) continue;
    auto [it, fresh] = source_key.try_emplace(joint_key(source.names[s], m.source_prefix), s);
    if (!fresh) it->second = kShared;
  }
  for (std::size_t t = 0; t < nt; ++t) {
    if (m.source_of[t] >= 0) continue;
    auto [it, fresh] = target_key.try_emplace(joint_key(target.names[t], m.target_prefix), t);
    if (!fresh) it->second = kShared;
  }
  for (std::size_t t = 0; t < nt; ++t) {
    if (m.source_of[t] >= 0) continue;
    const std::string key = joint_key(target.names[t], m.target_prefix);
    if (target_key[key] == kShared) continue;
    const auto it = source_key.find(key);
    if (it == source_key.end() || it->second == kShared) continue;
    pair(t, it->second);
    ++m.by_key;
  }
  for (std::size_t t = 0; t < nt; ++t) {
    if (m.source_of[t] >= 0) {
      ++m.mapped;
    } else {
      m.unmapped.push_back(static_cast<int32_t>(t));
    }
  }
  for (std::size_t s = 0; s < ns; ++s)
    if (m.target_of[s] < 0) m.extra.push_back(static_cast<int32_t>(s));
  return m;
}

RetargetPlan plan_retarget(const Skeleton& target, const Skeleton& source, const JointMatch& match,
                           std::span<const ClipRuntime> clips, RetargetAxes axes) {
  RetargetPlan plan;
  const std::size_t nt = target.size();
  plan.joints.resize(nt);
  if (match.source_of.size() != nt || match.target_of.size() != source.size()) return plan;
  std::vector<glm::mat4> mt, ms;
  std::vector<glm::quat> rt, rs;
  rest_model(target, axes.target_z_up, &mt, &rt);
  rest_model(source, axes.source_z_up, &ms, &rs);
  const glm::quat up_t = upright(axes.target_z_up), up_s = upright(axes.source_z_up);
  // The hip: the first mapped joint whose source some clip moves.
  for (std::size_t t = 0; t < nt && plan.figures.hip < 0; ++t) {
    const int32_t s = match.source_of[t];
    if (s < 0) continue;
    for (const ClipRuntime& c : clips)
      if (static_cast<std::size_t>(s) < c.keyed().size() &&
          (c.keyed()[static_cast<std::size_t>(s)] & kKeyedTranslation) != 0)
        plan.figures.hip = static_cast<int32_t>(t);
  }
  for (std::size_t t = 0; t < nt; ++t) {
    RetargetPlan::Joint& j = plan.joints[t];
    j.source = match.source_of[t];
    if (j.source < 0) continue;
    const std::size_t s = static_cast<std::size_t>(j.source);
    const int32_t pt = target.parents[t], ps = source.parents[s];
    const glm::quat parent_t = pt < 0 ? up_t : rt[static_cast<std::size_t>(pt)];
    const glm::quat parent_s = ps < 0 ? up_s : rs[static_cast<std::size_t>(ps)];
    const glm::quat c = glm::normalize(glm::inverse(parent_t) * parent_s);
    const Transform& rest_t = target.rest[t];
    const Transform& rest_s = source.rest[s];
    j.left = c;
    j.right = glm::normalize(glm::inverse(rest_s.rotation) * glm::inverse(c) * rest_t.rotation);
    j.rotation_same = near_identity(j.left) && near_identity(j.right);
    for (int i = 0; i < 3; ++i)
      j.scale_ratio[i] = rest_s.scale[i] != 0.0f ? rest_t.scale[i] / rest_s.scale[i] : 1.0f;
    j.scale_same = near_vec(rest_t.scale, rest_s.scale, 1e-6f);
    if (static_cast<int32_t>(t) == plan.figures.hip) {
      const glm::mat4 parent_mt = pt < 0 ? glm::mat4_cast(up_t) : mt[static_cast<std::size_t>(pt)];
      const glm::mat4 parent_ms = ps < 0 ? glm::mat4_cast(up_s) : ms[static_cast<std::size_t>(ps)];
      const float ht = std::abs(mt[t][3].y);
      float hs = std::abs(ms[s][3].y);
      // A hip that rests at the origin (BVH: zero offsets, the motion places the body) is
      // measured where the first clip that moves it starts.
      for (std::size_t c = 0; c < clips.size() && hs <= 1e-6f; ++c) {
        Transform first;
        if ((clips[c].keyed()[s] & kKeyedTranslation) != 0 && sample_joint(clips[c], 0.0, s, first))
          hs = std::abs((parent_ms * glm::vec4(first.translation, 1.0f)).y);
      }
      plan.figures.target_hip_height = ht;
      plan.figures.source_hip_height = hs;
      const float k = ht > 1e-8f && hs > 1e-8f ? ht / hs : 1.0f;
      plan.figures.hip_scale = k;
      j.translation = near_matrix(parent_mt, parent_ms) && std::abs(k - 1.0f) <= 1e-6f
                          ? RetargetPlan::TranslationRule::Copy
                          : RetargetPlan::TranslationRule::Hip;
      j.translation_map =
          glm::inverse(parent_mt) * glm::scale(glm::mat4(1.0f), glm::vec3(k)) * parent_ms;
    } else {
      const float length =
          std::max(glm::length(rest_t.translation), glm::length(rest_s.translation));
      const bool same =
          near_vec(rest_t.translation, rest_s.translation, 1e-5f * std::max(length, 1e-3f));
      j.translation =
          same ? RetargetPlan::TranslationRule::Copy : RetargetPlan::TranslationRule::Drop;
    }
    if (!j.rotation_same || !j.scale_same || j.translation == RetargetPlan::TranslationRule::Hip ||
        j.translation == RetargetPlan::TranslationRule::Drop)
      ++plan.figures.rest_differs;
  }
  return plan;
}

std::string retarget_clip(const ClipRuntime& clip, const RetargetPlan& plan, const Skeleton& target,
                          const std::string& name, ClipRuntime* out,
                          std::vector<int32_t>* translation_dropped) {
  *out = ClipRuntime();
  if (plan.joints.size() != target.size()) return "the retarget plan is for another skeleton";
  const ClipArraysView a = clip.arrays();
  Clip raw;
  raw.name = name;
  raw.duration = a.duration;
  for (std::size_t t = 0; t < plan.joints.size(); ++t) {
    const RetargetPlan::Joint& j = plan.joints[t];
    if (j.source < 0 || static_cast<std::size_t>(j.source) >= a.joints) continue;
    const std::size_t s = static_cast<std::size_t>(j.source);
    JointChannel ch;
    ch.joint = static_cast<int32_t>(t);
    // One component's keys, each value (and tangent) through `map(value, is_tangent)`.
    auto read = [&](std::size_t component, auto& track, auto map) {
      const RuntimeTrack& rt = a.tracks[3 * s + component];
      if (rt.timeline == 0) return;
      const uint32_t begin = a.timeline_begin[rt.timeline], end = a.timeline_begin[rt.timeline + 1];
      const std::size_t keys = end - begin;
      const std::size_t per_key = rt.interpolation == Interpolation::CubicSpline ? 3 : 1;
      track.interpolation = rt.interpolation;
      track.times.assign(a.times.begin() + begin, a.times.begin() + end);
      track.values.reserve(keys * per_key);
      for (std::size_t k = 0; k < keys; ++k)
        for (std::size_t e = 0; e < per_key; ++e)
          track.values.push_back(
              map(a.values[rt.base + (per_key * k + e) * rt.stride], per_key == 3 && e != 1));
    };
    if (j.translation == RetargetPlan::TranslationRule::Drop) {
      if ((a.keyed[s] & kKeyedTranslation) != 0 && translation_dropped != nullptr)
        translation_dropped->push_back(static_cast<int32_t>(t));
    } else {
      read(0, ch.translation, [&](const glm::vec4& v, bool tangent) {
        if (j.translation == RetargetPlan::TranslationRule::Copy) return glm::vec3(v);
        return glm::vec3(j.translation_map * glm::vec4(glm::vec3(v), tangent ? 0.0f : 1.0f));
      });
    }
    read(1, ch.rotation, [&](const glm::vec4& v, bool tangent) {
      if (j.rotation_same) return vec_quat(v);
      const glm::quat q = j.left * vec_quat(v) * j.right;  // linear in q: tangents map alike
      return tangent ? q : glm::normalize(q);
    });
    read(2, ch.scale, [&](const glm::vec4& v, bool) {
      if (j.scale_same) return glm::vec3(v);
      return glm::vec3(v) * j.scale_ratio;
    });
    if (!ch.translation.empty() || !ch.rotation.empty() || !ch.scale.empty())
      raw.channels.push_back(std::move(ch));
  }
  return out->build(raw, target);
}

}  // namespace sv
