// aiScene -> sv::Model: morph targets and their weight animation (anim/morph.h).
//
// Targets: assimp hands every format's morph target back as an aiAnimMesh holding ABSOLUTE
// positions and normals, "replacements" for the mesh's (glTF: assimp 5.2.5's glTF2 importer
// copies the base mesh and adds the file's deltas; FBX blend shapes and COLLADA morphs go the
// same way). skinview stores deltas, so the base is subtracted again: for glTF that gives back
// the file's deltas up to float rounding (tests/import/morph_import_test.cpp compares them with
// the accessors read from the .bin itself). An anim mesh without normals leaves the normals
// alone. The default weight is aiAnimMesh::mWeight (glTF's mesh.weights).
//
// Weights: an aiMeshMorphAnim channel names a node (glTF: the node holding the mesh; assimp 5.2.5
// names it after the node) or, failing that, a mesh; each key lists (target, weight) pairs. Every
// mesh on that node that has targets gets a MorphTrack; a target a key does not list keeps its
// default weight at that key. Key times are ticks like the joints' keys (glTF: milliseconds at
// 1000 ticks per second). For glTF, assimp 5.2.5 reads every weights sampler as linear (with a
// wrong stride for cubic splines) and clamps negative weights to 0, so each glTF weights channel
// is read again from the file itself (gltf_interp.cpp, GltfSidecar::weights) and replaces
// assimp's track, interpolation and all.
#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>
#include <vector>

#include <assimp/anim.h>
#include <assimp/mesh.h>
#include <assimp/scene.h>

#include "anim/finite.h"
#include "import/scene_converter.h"

namespace sv {
namespace {

glm::vec3 vec3(const aiVector3D& v) { return {v.x, v.y, v.z}; }

}  // namespace

std::string SceneConverter::build_morph_targets(const aiMesh& src, Mesh& mesh) {
  if (src.mNumAnimMeshes == 0 || !src.mAnimMeshes) return {};
  const std::size_t nv = mesh.vertex_count();
  if (src.mNumAnimMeshes > kMaxMorphTargetsPerMesh)
    return fail("mesh '" + mesh.name + "': " + std::to_string(src.mNumAnimMeshes) +
                " morph targets, more than the limit of " +
                std::to_string(kMaxMorphTargetsPerMesh));
  for (unsigned a = 0; a < src.mNumAnimMeshes; ++a) {
    const aiAnimMesh* am = src.mAnimMeshes[a];
    MorphTarget target;
    target.name =
        am && am->mName.length > 0 ? std::string(am->mName.C_Str()) : "target " + std::to_string(a);
    target.position_deltas.assign(nv, glm::vec3(0.0f));
    // A target that cannot be read stays, with zero deltas, so target indices keep matching
    // the file's (the weight channels name targets by index).
    if (!am || am->mNumVertices != nv) {
      ++morph_targets_mismatched;
      mesh.morph_targets.push_back(std::move(target));
      continue;
    }
    morph_deltas += nv;
    if (morph_deltas > kMaxMorphDeltasTotal)
      return fail("more than " + std::to_string(kMaxMorphDeltasTotal) +
                  " morph target vertices in all meshes together");
    target.default_weight = std::isfinite(am->mWeight) ? am->mWeight : 0.0f;
    if (am->mVertices) {
      for (std::size_t v = 0; v < nv; ++v) {
        const glm::vec3 d = vec3(am->mVertices[v]) - mesh.positions[v];
        if (finite(d))
          target.position_deltas[v] = d;
        else
          ++morph_values_nonfinite;
      }
    }
    if (am->mNormals && src.mNormals) {
      target.normal_deltas.assign(nv, glm::vec3(0.0f));
      for (std::size_t v = 0; v < nv; ++v) {
        // Against the normal as the file gave it: build_mesh replaced bad ones by +Z.
        const glm::vec3 d = vec3(am->mNormals[v]) - vec3(src.mNormals[v]);
        if (finite(d))
          target.normal_deltas[v] = d;
        else
          ++morph_values_nonfinite;
      }
    }
    mesh.morph_targets.push_back(std::move(target));
  }
  return {};
}

bool SceneConverter::apply_gltf_weights(std::vector<MorphClip>& morph) {
  uint64_t applied = 0, unmatched = 0;
  for (const GltfWeightsTrack& w : gltf->weights) {
    const int c = w.animation < clip_of_animation.size() ? clip_of_animation[w.animation] : -1;
    int node = node_named(w.node_name);
    if (node < 0) node = node_named(w.node_id_underscore);
    bool ok = c >= 0 && node >= 0 && !w.times.empty() && w.times.size() <= kMaxKeysPerTrack;
    for (std::size_t k = 0; ok && k < w.times.size(); ++k)
      ok = std::isfinite(w.times[k]) && w.times[k] >= 0.0 && w.times[k] < 1e30 &&
           (k == 0 || w.times[k] > w.times[k - 1]);
    for (std::size_t i = 0; ok && i < w.values.size(); ++i)
      ok = std::isfinite(w.values[i]) && std::abs(w.values[i]) < 1e6f;
    bool matched = false;
    for (unsigned m = 0; ok && m < scene->mNumMeshes; ++m) {
      const int mm = model_mesh_of.empty() ? -1 : model_mesh_of[m];
      if (mm < 0 || mesh_node[m] != node) continue;
      const std::size_t n = model.meshes[static_cast<std::size_t>(mm)].morph_targets.size();
      const std::size_t stride = w.interpolation == Interpolation::CubicSpline ? 3 : 1;
      if (n == 0 || w.values.size() != w.times.size() * n * stride) continue;
      MorphClip& mc = morph[static_cast<std::size_t>(c)];
      auto it = std::find_if(mc.tracks.begin(), mc.tracks.end(),
                             [&](const MorphTrack& t) { return t.mesh == uint32_t(mm); });
      if (it == mc.tracks.end()) it = mc.tracks.insert(mc.tracks.end(), MorphTrack{});
      it->mesh = static_cast<uint32_t>(mm);
      it->interpolation = w.interpolation;
      it->times = w.times;
      it->weights = w.values;
      Clip& clip = clips[static_cast<std::size_t>(c)];
      clip.duration = std::max(clip.duration, w.times.back());
      matched = true;
    }
    ++(matched ? applied : unmatched);
  }
  if (applied)
    report.notes.push_back(std::to_string(applied) +
                           " glTF morph weight channel(s) were read from the file itself (assimp "
                           "reads every one as linear and clamps negative weights to 0).");
  if (unmatched)
    report.notes.push_back(std::to_string(unmatched) +
                           " glTF morph weight channel(s) match no mesh with as many targets, or "
                           "hold bad keys; assimp's reading of them (if any) was kept.");
  return applied > 0;
}

std::string SceneConverter::build_morph_clips() {
  bool any = false;
  std::vector<MorphClip> morph(clips.size());
  uint64_t channels_unmatched = 0, keys_dropped = 0;
  std::size_t total_keys = 0;
  for (unsigned a = 0; a < scene->mNumAnimations && a < clip_of_animation.size(); ++a) {
    const aiAnimation* anim = scene->mAnimations[a];
    const int c = clip_of_animation[a];
    if (!anim || c < 0 || !anim->mMorphMeshChannels) continue;
    double tps = anim->mTicksPerSecond;
    if (!(std::isfinite(tps) && tps > 0.0)) tps = 25.0;  // as build_clips assumes
    Clip& clip = clips[static_cast<std::size_t>(c)];
    for (unsigned ch = 0; ch < anim->mNumMorphMeshChannels; ++ch) {
      const aiMeshMorphAnim* channel = anim->mMorphMeshChannels[ch];
      if (!channel || channel->mNumKeys == 0 || !channel->mKeys) continue;
      if (channel->mNumKeys > kMaxKeysPerTrack)
        return fail("clip '" + clip.name + "': a morph track of " +
                    std::to_string(channel->mNumKeys) + " keys, more than the limit of " +
                    std::to_string(kMaxKeysPerTrack));
      // The meshes it drives: those on the node of that name, else the meshes of that name.
      std::vector<uint32_t> meshes;
      const int node = find_node(channel->mName);
      for (unsigned m = 0; m < scene->mNumMeshes; ++m) {
        const int mm = model_mesh_of.empty() ? -1 : model_mesh_of[m];
        if (mm < 0 || model.meshes[static_cast<std::size_t>(mm)].morph_targets.empty()) continue;
        const bool on_node = node >= 0 && mesh_node[m] == node;
        if (on_node || (node < 0 && scene->mMeshes[m]->mName == channel->mName))
          meshes.push_back(static_cast<uint32_t>(mm));
      }
      if (meshes.empty()) {
        ++channels_unmatched;
        continue;
      }
      // Keys in time order, bad times and repeated times dropped.
      std::vector<unsigned> order;
      for (unsigned k = 0; k < channel->mNumKeys; ++k) {
        const double t = channel->mKeys[k].mTime / tps;
        if (std::isfinite(t) && t >= 0.0 && t < 1e30)
          order.push_back(k);
        else
          ++keys_dropped;
      }
      std::stable_sort(order.begin(), order.end(), [&](unsigned x, unsigned y) {
        return channel->mKeys[x].mTime < channel->mKeys[y].mTime;
      });
      for (const uint32_t m : meshes) {
        const Mesh& mesh = model.meshes[m];
        const std::size_t n = mesh.morph_targets.size();
        MorphTrack track;
        track.mesh = m;
        track.interpolation = Interpolation::Linear;
        for (const unsigned k : order) {
          const aiMeshMorphKey& key = channel->mKeys[k];
          const double t = key.mTime / tps;
          if (!track.times.empty() && t <= track.times.back()) {
            ++keys_dropped;
            continue;
          }
          track.times.push_back(t);
          const std::size_t at = track.weights.size();
          for (const MorphTarget& target : mesh.morph_targets)
            track.weights.push_back(target.default_weight);
          for (unsigned j = 0; j < key.mNumValuesAndWeights && key.mValues && key.mWeights; ++j) {
            const double w = key.mWeights[j];
            if (key.mValues[j] >= n) continue;
            if (std::isfinite(w) && std::abs(w) < 1e6)
              track.weights[at + key.mValues[j]] = static_cast<float>(w);
            else
              ++morph_values_nonfinite;
          }
        }
        if (track.times.empty()) continue;
        total_keys += track.times.size();
        if (total_keys > kMaxKeysTotal)
          return fail("more than " + std::to_string(kMaxKeysTotal) + " keys in all clips together");
        clip.duration = std::max(clip.duration, track.times.back());
        MorphClip& mc = morph[static_cast<std::size_t>(c)];
        const bool taken = std::any_of(mc.tracks.begin(), mc.tracks.end(),
                                       [&](const MorphTrack& t) { return t.mesh == m; });
        if (taken) continue;  // a second channel for the same mesh in one clip
        mc.tracks.push_back(std::move(track));
        any = true;
      }
    }
  }
  if (gltf && gltf->parsed) any = apply_gltf_weights(morph) || any;
  if (any) model.morph_clips = std::move(morph);
  if (morph_targets_mismatched)
    report.notes.push_back(std::to_string(morph_targets_mismatched) +
                           " morph target(s) have another vertex count than their mesh; they are "
                           "kept with no effect.");
  if (morph_values_nonfinite) {
    report.non_finite_values += morph_values_nonfinite;
    report.notes.push_back(std::to_string(morph_values_nonfinite) +
                           " morph delta(s) or weight(s) held NaN/Inf (or a huge weight); "
                           "deltas were set to 0, weights left at their default.");
  }
  if (channels_unmatched)
    report.notes.push_back(std::to_string(channels_unmatched) +
                           " morph weight channel(s) name no node or mesh with morph targets and "
                           "were skipped.");
  if (keys_dropped)
    report.notes.push_back(std::to_string(keys_dropped) +
                           " morph weight key(s) had a bad or repeated time and were dropped.");
  return {};
}

}  // namespace sv
