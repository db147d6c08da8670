// aiScene -> sv::Model, second half: the clips. Key times become seconds (assimp counts ticks;
// mTicksPerSecond 0 means "not given": 25 assumed), every track is cleaned (clean_track: bad
// keys dropped, order restored, rotations normalised), a clip's duration covers its last key,
// and glTF's STEP/CUBICSPLINE samplers, which assimp 5.2 reads as linear, are read from the file
// itself (gltf_interp.cpp) and replace those tracks.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <type_traits>
#include <vector>

#include <assimp/anim.h>
#include <assimp/scene.h>

#include <glm/gtc/quaternion.hpp>

#include "anim/finite.h"
#include "import/convert.h"
#include "import/scene_converter.h"

namespace sv {
namespace {

// assimp leaves mTicksPerSecond at 0 when a file does not say; 25 ticks/s is what assimp's own
// viewer and most engines assume then.
constexpr double kDefaultTicksPerSecond = 25.0;

double last_time(const JointChannel& jc) {
  double t = 0.0;
  if (!jc.translation.empty()) t = std::max<double>(t, jc.translation.times.back());
  if (!jc.rotation.empty()) t = std::max<double>(t, jc.rotation.times.back());
  if (!jc.scale.empty()) t = std::max<double>(t, jc.scale.times.back());
  return t;
}

// The first 8 items, comma-separated, then "..." when there are more.
std::string short_list(const std::vector<std::string>& items) {
  std::string list;
  for (std::size_t i = 0; i < items.size() && i < 8; ++i) list += (i ? ", " : "") + items[i];
  if (items.size() > 8) list += ", ...";
  return list;
}

// A tick count as a file would write it: "220", "12.5".
std::string number_text(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

}  // namespace

template <class V>
bool clean_track(KeyBuffer<V> keys, Interpolation interpolation, Track<V>& out,
                 ImportReport& report) {
  constexpr bool is_rotation = std::is_same_v<V, glm::quat>;
  const std::size_t stride = interpolation == Interpolation::CubicSpline ? 3 : 1;
  if (keys.values.size() != keys.times.size() * stride) return false;
  const std::size_t n = keys.times.size();

  // Drop keys with a non-finite time or value (or a zero-length rotation).
  std::vector<std::size_t> order;
  order.reserve(n);
  uint64_t dropped_bad = 0;
  for (std::size_t k = 0; k < n; ++k) {
    bool good = std::isfinite(keys.times[k]) && std::abs(keys.times[k]) < 1e30;
    for (std::size_t s = 0; s < stride && good; ++s) good = finite(keys.values[k * stride + s]);
    if constexpr (is_rotation) {
      if (good) good = glm::length(keys.values[k * stride + (stride == 3 ? 1 : 0)]) > 1e-12f;
    }
    if (good)
      order.push_back(k);
    else
      ++dropped_bad;
  }
  // Keys out of order are sorted; keys with a time already used are dropped (first one kept).
  uint64_t out_of_order = 0;
  for (std::size_t i = 1; i < order.size(); ++i)
    if (keys.times[order[i]] <= keys.times[order[i - 1]]) ++out_of_order;
  if (out_of_order)
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return keys.times[a] < keys.times[b]; });
  out = Track<V>{};
  out.interpolation = interpolation;
  uint64_t normalised = 0;
  for (std::size_t k : order) {
    const double t = keys.times[k];
    if (!out.times.empty() && t <= out.times.back()) continue;
    out.times.push_back(t);
    for (std::size_t s = 0; s < stride; ++s) {
      V value = keys.values[k * stride + s];
      if constexpr (is_rotation) {
        const bool is_value = stride == 1 || s == 1;  // cubic tangents are not unit
        if (is_value) {
          const float len = glm::length(value);
          if (std::abs(len - 1.0f) > 1e-5f) ++normalised;
          value = value / len;
        }
      }
      out.values.push_back(value);
    }
  }
  report.non_finite_values += dropped_bad;
  report.keys_out_of_order += out_of_order;
  report.rotations_normalised += normalised;
  return true;
}

template bool clean_track(KeyBuffer<glm::vec3>, Interpolation, Track<glm::vec3>&, ImportReport&);
template bool clean_track(KeyBuffer<glm::quat>, Interpolation, Track<glm::quat>&, ImportReport&);

std::string SceneConverter::build_clips() {
  if (scene->mNumAnimations > kMaxClips)
    return fail(std::to_string(scene->mNumAnimations) + " clips, more than the limit of " +
                std::to_string(kMaxClips));
  if (scene->mNumAnimations > 0 && !scene->mAnimations) return fail("clip list is missing");
  // Key counts first, over every clip, before any key is read.
  std::size_t total_keys = 0;
  for (unsigned a = 0; a < scene->mNumAnimations; ++a) {
    const aiAnimation* anim = scene->mAnimations[a];
    if (!anim || !anim->mChannels) continue;
    for (unsigned c = 0; c < anim->mNumChannels; ++c) {
      const aiNodeAnim* ch = anim->mChannels[c];
      if (!ch) continue;
      for (unsigned count : {ch->mNumPositionKeys, ch->mNumRotationKeys, ch->mNumScalingKeys}) {
        if (count > kMaxKeysPerTrack)
          return fail("clip '" + std::string(anim->mName.C_Str()) + "': a track of " +
                      std::to_string(count) + " keys, more than the limit of " +
                      std::to_string(kMaxKeysPerTrack));
        total_keys += count;
      }
    }
  }
  if (total_keys > kMaxKeysTotal)
    return fail(std::to_string(total_keys) +
                " keys in all clips together, more than the limit of " +
                std::to_string(kMaxKeysTotal));
  bool default_tps = false;
  std::vector<std::string> refused, extended;
  uint64_t clips_without_channels = 0, clips_of_morphs = 0, clips_of_mesh_swaps = 0;
  uint64_t channels_without_keys = 0;
  for (unsigned a = 0; a < scene->mNumAnimations; ++a) {
    const aiAnimation* anim = scene->mAnimations[a];
    Clip clip;
    clip.name = anim && anim->mName.length > 0 ? std::string(anim->mName.C_Str())
                                               : "clip " + std::to_string(a);
    if (!anim) {
      clip_of_animation.push_back(static_cast<int>(clips.size()));
      clips.push_back(std::move(clip));
      continue;
    }
    if (anim->mDuration < 0.0) {  // zero is a single pose; negative has no meaning
      clip_of_animation.push_back(-1);
      ++report.clips_refused;
      refused.push_back("'" + clip.name + "' (" + std::to_string(anim->mDuration) + " ticks)");
      continue;
    }
    double tps = anim->mTicksPerSecond;
    if (!(std::isfinite(tps) && tps > 0.0)) {
      tps = kDefaultTicksPerSecond;
      default_tps = true;
    }
    std::vector<int> channel_of_joint(model.skeleton.size(), -1);
    double last_key = 0.0;
    double last_tick = 0.0;  // the latest finite key time, in the file's ticks
    if (anim->mNumChannels == 0 || !anim->mChannels)
      ++(anim->mNumMorphMeshChannels > 0 ? clips_of_morphs
         : anim->mNumMeshChannels > 0    ? clips_of_mesh_swaps
                                         : clips_without_channels);
    for (unsigned c = 0; c < anim->mNumChannels && anim->mChannels; ++c) {
      const aiNodeAnim* ch = anim->mChannels[c];
      if (!ch) continue;
      if (ch->mNumPositionKeys + ch->mNumRotationKeys + ch->mNumScalingKeys == 0) {
        ++channels_without_keys;
        continue;
      }
      auto later = [&](double t) {
        if (std::isfinite(t)) last_tick = std::max(last_tick, t);
      };
      for (unsigned k = 0; k < ch->mNumPositionKeys && ch->mPositionKeys; ++k)
        later(ch->mPositionKeys[k].mTime);
      for (unsigned k = 0; k < ch->mNumRotationKeys && ch->mRotationKeys; ++k)
        later(ch->mRotationKeys[k].mTime);
      for (unsigned k = 0; k < ch->mNumScalingKeys && ch->mScalingKeys; ++k)
        later(ch->mScalingKeys[k].mTime);
      const int node = find_node(ch->mNodeName);
      if (node < 0 || node_joint[node] < 0) {
        ++report.channels_without_node;
        continue;
      }
      const int joint = node_joint[node];
      if (channel_of_joint[joint] >= 0) {
        ++channels_duplicated;
        continue;
      }
      JointChannel jc;
      jc.joint = joint;
      {
        KeyBuffer<glm::vec3> keys;
        for (unsigned k = 0; k < ch->mNumPositionKeys && ch->mPositionKeys; ++k) {
          const aiVectorKey& key = ch->mPositionKeys[k];
          keys.times.push_back(key.mTime / tps);
          keys.values.emplace_back(key.mValue.x, key.mValue.y, key.mValue.z);
        }
        clean_track(std::move(keys), Interpolation::Linear, jc.translation, report);
      }
      {
        KeyBuffer<glm::quat> keys;
        for (unsigned k = 0; k < ch->mNumRotationKeys && ch->mRotationKeys; ++k) {
          const aiQuatKey& key = ch->mRotationKeys[k];
          keys.times.push_back(key.mTime / tps);
          keys.values.emplace_back(key.mValue.w, key.mValue.x, key.mValue.y, key.mValue.z);
        }
        clean_track(std::move(keys), Interpolation::Linear, jc.rotation, report);
      }
      {
        KeyBuffer<glm::vec3> keys;
        for (unsigned k = 0; k < ch->mNumScalingKeys && ch->mScalingKeys; ++k) {
          const aiVectorKey& key = ch->mScalingKeys[k];
          keys.times.push_back(key.mTime / tps);
          keys.values.emplace_back(key.mValue.x, key.mValue.y, key.mValue.z);
        }
        clean_track(std::move(keys), Interpolation::Linear, jc.scale, report);
      }
      if (jc.translation.empty() && jc.rotation.empty() && jc.scale.empty()) continue;
      channel_of_joint[joint] = static_cast<int>(clip.channels.size());
      clip.channels.push_back(std::move(jc));
    }
    for (const JointChannel& jc : clip.channels) last_key = std::max(last_key, last_time(jc));
    double duration = anim->mDuration / tps;
    if (!(std::isfinite(duration) && duration > 0.0)) duration = 0.0;
    clip.duration = std::max(duration, last_key);
    // assimp's validator refused a key past the stated duration (by more than 0.001 tick); the
    // duration is extended to the last key instead (the clip always covers its keys).
    if (anim->mDuration > 0.0 && last_tick > anim->mDuration + 0.001) {
      ++report.clips_extended;
      extended.push_back("'" + clip.name + "' (" + number_text(anim->mDuration) + " -> " +
                         number_text(last_tick) + " ticks)");
    }
    clip_of_animation.push_back(static_cast<int>(clips.size()));
    clips.push_back(std::move(clip));
  }
  if (!extended.empty())
    report.notes.push_back(std::to_string(extended.size()) +
                           " clip(s) have keys past their stated duration; the duration was "
                           "extended to the last key: " +
                           short_list(extended) + ".");
  if (clips_without_channels)
    report.notes.push_back(std::to_string(clips_without_channels) +
                           " clip(s) animate nothing; they hold the rest pose.");
  if (clips_of_morphs)
    report.notes.push_back(std::to_string(clips_of_morphs) +
                           " clip(s) animate only morph target weights; their joints hold the "
                           "rest pose.");
  if (clips_of_mesh_swaps)
    report.notes.push_back(std::to_string(clips_of_mesh_swaps) +
                           " clip(s) animate only mesh swaps, which skinview does not play; they "
                           "hold the rest pose.");
  if (channels_without_keys)
    report.notes.push_back(std::to_string(channels_without_keys) +
                           " animation channel(s) held no keys and were skipped.");
  if (!refused.empty())
    report.notes.push_back(std::to_string(refused.size()) +
                           " clip(s) of negative duration were dropped: " + short_list(refused) +
                           ".");
  if (default_tps) {
    report.ticks_per_second_note =
        "Some clip gave no ticks per second; 25 ticks per second were assumed.";
    report.notes.push_back(report.ticks_per_second_note);
  }
  if (report.channels_without_node)
    report.notes.push_back(std::to_string(report.channels_without_node) +
                           " animation channel(s) name no node and were skipped.");
  if (channels_duplicated)
    report.notes.push_back(std::to_string(channels_duplicated) +
                           " animation channel(s) animate a node already animated by the same "
                           "clip and were skipped.");
  return {};
}

void SceneConverter::apply_gltf_samplers() {
  if (!gltf->parsed) {
    if (!gltf->warning.empty()) report.notes.push_back(gltf->warning);
    return;
  }
  std::vector<GltfTrackOverride>& overrides = gltf->overrides;
  uint64_t applied = 0, unmatched = 0;
  for (GltfTrackOverride& o : overrides) {
    if (o.animation >= clips.size()) {
      ++unmatched;
      continue;
    }
    if (o.vector.times.size() > kMaxKeysPerTrack || o.rotation.times.size() > kMaxKeysPerTrack) {
      ++unmatched;
      continue;
    }
    int joint = joint_named(o.node_name);
    if (joint < 0) joint = joint_named(o.node_id_brackets);
    if (joint < 0) joint = joint_named(o.node_id_underscore);
    if (joint < 0) {
      ++unmatched;
      continue;
    }
    Clip& clip = clips[o.animation];
    JointChannel* channel = nullptr;
    for (JointChannel& jc : clip.channels)
      if (jc.joint == joint) channel = &jc;
    if (!channel) {
      clip.channels.push_back(JointChannel{});
      channel = &clip.channels.back();
      channel->joint = joint;
    }
    bool ok = false;
    if (o.path == GltfTrackOverride::Path::Rotation) {
      ok = clean_track(std::move(o.rotation), o.interpolation, channel->rotation, report);
    } else if (o.path == GltfTrackOverride::Path::Translation) {
      ok = clean_track(std::move(o.vector), o.interpolation, channel->translation, report);
    } else {
      ok = clean_track(std::move(o.vector), o.interpolation, channel->scale, report);
    }
    if (!ok) {
      ++unmatched;
      continue;
    }
    ++applied;
    clip.duration = std::max(clip.duration, last_time(*channel));
  }
  if (applied)
    report.notes.push_back(std::to_string(applied) +
                           " glTF track(s) with STEP or CUBICSPLINE interpolation were read "
                           "from the file itself (assimp reads every track as linear).");
  if (unmatched)
    report.notes.push_back(std::to_string(unmatched) +
                           " glTF STEP/CUBICSPLINE track(s) could not be matched to a node and "
                           "were left linear.");
}

void SceneConverter::note_key_repairs() {
  if (report.keys_out_of_order)
    report.notes.push_back(std::to_string(report.keys_out_of_order) +
                           " animation key(s) were out of order or repeated a time; sorted, "
                           "repeats dropped.");
  if (report.rotations_normalised)
    report.notes.push_back(std::to_string(report.rotations_normalised) +
                           " rotation key(s) were not unit quaternions; normalised.");
  const uint64_t key_nonfinite = report.non_finite_values - nonfinite_before_clips;
  if (key_nonfinite)
    report.notes.push_back(std::to_string(key_nonfinite) +
                           " animation key(s) held NaN/Inf (or a zero rotation) and were "
                           "dropped.");
}

std::string SceneConverter::build_runtime_clips() {
  model.clips.resize(clips.size());
  for (std::size_t c = 0; c < clips.size(); ++c)
    if (std::string e = model.clips[c].build(clips[c], model.skeleton); !e.empty())
      return fail("invalid data: " + e);
  clips.clear();
  return {};
}

}  // namespace sv
