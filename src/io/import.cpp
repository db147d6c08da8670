// The assimp importer: aiScene -> sv::Model. The only file in the tree that includes assimp.
//
// Post-processing is limited to steps that keep every mesh's vertex count and order
// (triangulation, smooth normals where a mesh has none, validation), so that Mesh::positions are
// assimp's mVertices one for one and dumps can be compared per vertex with other tools.
//
// Skeleton: every node on the path from the scene root to a bone node, a mesh node or an
// animated node, parents first in depth-first order. Node names are resolved to the first node
// of that name in depth-first order. "Model space" is the scene root's parent space: the root
// node's own transformation is the root joint's rest transform.
//
// glTF: assimp 5.2 reads every glTF sampler as linear. For .gltf/.glb files the file's own
// STEP and CUBICSPLINE samplers are re-read (gltf_interp.cpp) and replace those tracks.
#include "io/import.h"

#include <assimp/config.h>
#include <assimp/material.h>
#include <assimp/postprocess.h>
#include <assimp/scene.h>
#include <assimp/DefaultLogger.hpp>
#include <assimp/IOStream.hpp>
#include <assimp/IOSystem.hpp>
#include <assimp/Importer.hpp>
#include <assimp/Logger.hpp>

#include <fcntl.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <limits>
#include <mutex>
#include <new>
#include <numeric>
#include <optional>
#include <span>
#include <sstream>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include <glm/gtc/matrix_inverse.hpp>
#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/quaternion.hpp>
#include <glm/mat3x3.hpp>
#include <glm/mat4x4.hpp>

#include "anim/finite.h"
#include "io/import_detail.h"
#include "io/text_checks.h"
#include "io/x_check.h"

namespace sv {
namespace {

// assimp leaves mTicksPerSecond at 0 when a file does not say; 25 ticks/s is what assimp's own
// viewer and most engines assume then.
constexpr double kDefaultTicksPerSecond = 25.0;
// A weight above this is treated as garbage rather than as an unnormalised weight.
constexpr float kHugeWeight = 1.0e6f;
// Skin indices are 16-bit (Mesh::joints).
constexpr std::size_t kMaxSkinBones = 65535;

bool finite_matrix(const aiMatrix4x4& m) {
  for (int r = 0; r < 4; ++r)
    for (int c = 0; c < 4; ++c)
      if (!std::isfinite(m[r][c])) return false;
  return true;
}

// assimp is row-major with translation in a4,b4,c4; glm is column-major: m[col][row].
glm::dmat4 to_dmat4(const aiMatrix4x4& a) {
  glm::dmat4 m(1.0);
  for (int r = 0; r < 4; ++r)
    for (int c = 0; c < 4; ++c) m[c][r] = a[r][c];
  return m;
}

// Node matrix -> T * R * S (computed in double). Scale is the column lengths, negated as a whole
// when the matrix mirrors; shear is lost (no node in the test models has any).
Transform decompose(const glm::dmat4& m) {
  Transform t;
  t.translation = glm::vec3(m[3]);
  glm::dvec3 cols[3] = {glm::dvec3(m[0]), glm::dvec3(m[1]), glm::dvec3(m[2])};
  glm::dvec3 scale(glm::length(cols[0]), glm::length(cols[1]), glm::length(cols[2]));
  const double det = glm::determinant(glm::dmat3(m));
  if (det < 0.0) scale = -scale;
  bool degenerate = false;
  for (int i = 0; i < 3; ++i) {
    if (std::abs(scale[i]) > 1e-30)
      cols[i] /= scale[i];
    else
      degenerate = true;
  }
  if (degenerate) {
    // A zero scale axis: rebuild an orthonormal frame from what is left.
    int good[3];
    int n = 0;
    for (int i = 0; i < 3; ++i)
      if (std::abs(scale[i]) > 1e-30) good[n++] = i;
    if (n < 2) {
      cols[0] = {1, 0, 0};
      cols[1] = {0, 1, 0};
      cols[2] = {0, 0, 1};
    } else {
      const int bad = 3 - good[0] - good[1];
      const glm::dvec3 c = glm::cross(cols[(bad + 1) % 3], cols[(bad + 2) % 3]);
      cols[bad] = glm::length(c) > 1e-30 ? glm::normalize(c) : glm::dvec3(0.0);
    }
  }
  glm::dmat3 r(cols[0], cols[1], cols[2]);
  glm::dquat q = glm::quat_cast(r);
  const double len = glm::length(q);
  q = len > 0.0 ? q / len : glm::dquat(1, 0, 0, 0);
  t.rotation = glm::quat(q);
  t.scale = glm::vec3(scale);
  return t;
}

// assimp's global logger: keeps the error-level messages of the import running on this thread
// (they explain rejected files, and flag files assimp only half understood); drops the rest.
thread_local std::vector<std::string>* t_assimp_errors = nullptr;

class ErrorCollector final : public Assimp::Logger {
 public:
  ErrorCollector() : Logger(Logger::NORMAL) {}
  bool attachStream(Assimp::LogStream* stream, unsigned int) override {
    delete stream;  // the logger owns attached streams; this one has no use for them
    return false;
  }
  bool detachStream(Assimp::LogStream*, unsigned int) override { return false; }

 protected:
  void OnDebug(const char*) override {}
  void OnVerboseDebug(const char*) override {}
  void OnInfo(const char*) override {}
  void OnWarn(const char*) override {}
  void OnError(const char* message) override {
    if (t_assimp_errors && message && t_assimp_errors->size() < 64)
      t_assimp_errors->emplace_back(message);
  }
};

void install_logger() {
  static std::once_flag once;
  std::call_once(once, [] { Assimp::DefaultLogger::set(new ErrorCollector()); });
}

struct Influence {
  float weight;
  uint16_t bone;
};

struct Importer {
  const aiScene* scene = nullptr;
  std::string name;      // the file's path, or the label of a file held in memory
  std::string base_dir;  // folder that texture paths are relative to; empty: not resolved
  // glTF only: the file as tinygltf read it (its STEP/CUBICSPLINE samplers replace assimp's
  // linear keys).
  GltfSidecar* gltf = nullptr;
  ImportReport& report;
  Model model;
  std::vector<Clip> clips;  // raw, until build_runtime_clips() lays them out into model.clips

  // Every node, depth-first preorder.
  std::vector<const aiNode*> nodes;
  std::vector<int> node_parent;
  std::unordered_map<std::string, int> node_by_name;  // first node of each name
  std::vector<glm::dmat4> node_global;                // rest, model space
  std::vector<int> node_joint;                        // node -> joint, or -1

  std::vector<int> mesh_node;  // per aiMesh: first node holding it, or -1
  std::vector<int> mesh_uses;  // per aiMesh: how many nodes hold it
  std::vector<uint8_t> mesh_kept;

  uint64_t weights_nonfinite = 0;
  uint64_t meshes_unplaced = 0;
  uint64_t normals_missing = 0;
  uint64_t channels_duplicated = 0;
  uint64_t nonfinite_before_clips = 0;
  std::vector<std::string> instanced_meshes;

  explicit Importer(ImportReport& r) : report(r) {}

  std::string fail(const std::string& reason) const { return name + ": " + reason; }

  int find_node(const aiString& name) const {
    auto it = node_by_name.find(std::string(name.C_Str()));
    return it == node_by_name.end() ? -1 : it->second;
  }

  // assimp's node tree comes from the file: a child pointer may lead back to an ancestor (a
  // cycle, which would never end) or to a node that another parent already holds. Each node is
  // visited once; meeting one again, going deeper than kMaxNodeDepth or past kMaxNodes nodes
  // refuses the file.
  std::string walk_nodes() {
    struct Item {
      const aiNode* node;
      int parent;
      std::size_t depth;
    };
    std::vector<Item> stack{{scene->mRootNode, -1, 0}};
    std::unordered_set<const aiNode*> seen;
    while (!stack.empty()) {
      const Item item = stack.back();
      stack.pop_back();
      const aiNode* node = item.node;
      if (!seen.insert(node).second)
        return fail("node hierarchy is not a tree: node '" + std::string(node->mName.C_Str()) +
                    "' is reached twice (a cycle, or a child of two parents)");
      if (item.depth >= kMaxNodeDepth)
        return fail("node hierarchy is deeper than " + std::to_string(kMaxNodeDepth) + " levels");
      if (nodes.size() >= kMaxNodes)
        return fail("more than " + std::to_string(kMaxNodes) + " nodes");
      const int index = static_cast<int>(nodes.size());
      nodes.push_back(node);
      node_parent.push_back(item.parent);
      node_by_name.emplace(std::string(node->mName.C_Str()), index);
      if (node->mNumChildren > 0 && !node->mChildren) continue;
      for (unsigned i = node->mNumChildren; i-- > 0;)
        if (node->mChildren[i]) stack.push_back({node->mChildren[i], index, item.depth + 1});
    }
    node_global.resize(nodes.size());
    uint64_t bad = 0;
    for (std::size_t i = 0; i < nodes.size(); ++i) {
      glm::dmat4 local = to_dmat4(nodes[i]->mTransformation);
      if (!finite(local)) {
        local = glm::dmat4(1.0);
        ++bad;
      }
      node_global[i] = node_parent[i] < 0 ? local : node_global[node_parent[i]] * local;
    }
    if (bad) {
      report.non_finite_values += bad;
      report.notes.push_back(std::to_string(bad) +
                             " node transform(s) held NaN/Inf and were replaced by identity.");
    }
    return {};
  }

  std::string find_mesh_nodes() {
    if (scene->mNumMeshes > kMaxMeshes)
      return fail(std::to_string(scene->mNumMeshes) + " meshes, more than the limit of " +
                  std::to_string(kMaxMeshes));
    if (scene->mNumMeshes > 0 && !scene->mMeshes) return fail("mesh list is missing");
    mesh_node.assign(scene->mNumMeshes, -1);
    mesh_uses.assign(scene->mNumMeshes, 0);
    for (std::size_t n = 0; n < nodes.size(); ++n) {
      for (unsigned i = 0; i < nodes[n]->mNumMeshes && nodes[n]->mMeshes; ++i) {
        const unsigned m = nodes[n]->mMeshes[i];
        if (m >= scene->mNumMeshes) continue;
        if (mesh_node[m] < 0) mesh_node[m] = static_cast<int>(n);
        ++mesh_uses[m];
      }
    }
    mesh_kept.assign(scene->mNumMeshes, 0);
    std::size_t total_vertices = 0;
    for (unsigned m = 0; m < scene->mNumMeshes; ++m) {
      const aiMesh* mesh = scene->mMeshes[m];
      bool has_triangle = false;
      if (mesh && mesh->mVertices && mesh->mNumVertices > 0 && mesh->mFaces) {
        for (unsigned f = 0; f < mesh->mNumFaces && !has_triangle; ++f)
          has_triangle = mesh->mFaces[f].mNumIndices == 3;
      }
      if (!has_triangle) {
        ++report.meshes_skipped;
        continue;
      }
      const std::string mesh_name = "mesh '" + std::string(mesh->mName.C_Str()) + "': ";
      if (mesh->mNumVertices > kMaxVerticesPerMesh)
        return fail(mesh_name + std::to_string(mesh->mNumVertices) +
                    " vertices, more than the limit of " + std::to_string(kMaxVerticesPerMesh));
      total_vertices += mesh->mNumVertices;
      if (total_vertices > kMaxVerticesTotal)
        return fail("more than " + std::to_string(kMaxVerticesTotal) +
                    " vertices in all meshes together");
      if (mesh->mNumBones > 0 && !mesh->mBones) return fail(mesh_name + "bone list is missing");
      std::size_t weights = 0;
      for (unsigned b = 0; b < mesh->mNumBones; ++b)
        if (mesh->mBones[b]) weights += mesh->mBones[b]->mNumWeights;
      const std::size_t max_weights = kMaxWeightsPerVertex * mesh->mNumVertices + 65536;
      if (weights > max_weights)
        return fail(mesh_name + std::to_string(weights) + " bone weights for " +
                    std::to_string(mesh->mNumVertices) + " vertices, more than the limit of " +
                    std::to_string(max_weights));
      mesh_kept[m] = 1;
      if (mesh_node[m] < 0) {
        mesh_node[m] = 0;  // no node places it: show it at the root
        ++meshes_unplaced;
      }
      if (mesh_uses[m] > 1)
        instanced_meshes.push_back(std::string(mesh->mName.C_Str()) + "' (" +
                                   std::to_string(mesh_uses[m]) + " nodes");
    }
    return {};
  }

  std::string build_skeleton() {
    std::vector<uint8_t> needed(nodes.size(), 0);
    auto mark = [&](int n) {
      while (n >= 0 && !needed[n]) {
        needed[n] = 1;
        n = node_parent[n];
      }
    };
    for (unsigned m = 0; m < scene->mNumMeshes; ++m) {
      if (!mesh_kept[m]) continue;
      mark(mesh_node[m]);
      const aiMesh* mesh = scene->mMeshes[m];
      for (unsigned b = 0; b < mesh->mNumBones; ++b)
        if (mesh->mBones[b]) mark(find_node(mesh->mBones[b]->mName));
    }
    for (unsigned a = 0; a < scene->mNumAnimations; ++a) {
      const aiAnimation* anim = scene->mAnimations[a];
      if (!anim || !anim->mChannels) continue;
      for (unsigned c = 0; c < anim->mNumChannels; ++c)
        if (anim->mChannels[c]) mark(find_node(anim->mChannels[c]->mNodeName));
    }
    const auto joints = static_cast<std::size_t>(std::count(needed.begin(), needed.end(), 1));
    if (joints > kMaxJoints)
      return fail(std::to_string(joints) + " joints, more than the limit of " +
                  std::to_string(kMaxJoints));
    node_joint.assign(nodes.size(), -1);
    Skeleton& sk = model.skeleton;
    uint64_t sheared = 0;
    for (std::size_t n = 0; n < nodes.size(); ++n) {
      if (!needed[n]) continue;
      const int joint = static_cast<int>(sk.names.size());
      node_joint[n] = joint;
      sk.names.emplace_back(nodes[n]->mName.C_Str());
      sk.parents.push_back(node_parent[n] < 0 ? kNoParent : node_joint[node_parent[n]]);
      glm::dmat4 local = to_dmat4(nodes[n]->mTransformation);
      const Transform rest = finite(local) ? decompose(local) : Transform{};
      if (finite(local) && !matches(rest, local)) ++sheared;
      sk.rest.push_back(rest);
      sk.inverse_bind.push_back(glm::mat4(glm::inverse(node_global[n])));
      sk.is_bone.push_back(0);
    }
    if (sheared)
      report.notes.push_back(std::to_string(sheared) +
                             " node transform(s) hold shear or projection, which translation, "
                             "rotation and scale cannot express; their closest TRS is used.");
    return {};
  }

  // Whether T * R * S rebuilds the node matrix (to 1e-5 of its largest entry).
  static bool matches(const Transform& t, const glm::dmat4& m) {
    const glm::dmat4 r = glm::translate(glm::dmat4(1.0), glm::dvec3(t.translation)) *
                         glm::mat4_cast(glm::dquat(t.rotation)) *
                         glm::scale(glm::dmat4(1.0), glm::dvec3(t.scale));
    double largest = 1e-30, diff = 0.0;
    for (int c = 0; c < 4; ++c)
      for (int k = 0; k < 4; ++k) {
        largest = std::max(largest, std::abs(m[c][k]));
        diff = std::max(diff, std::abs(m[c][k] - r[c][k]));
      }
    return diff <= 1e-5 * largest;
  }

  std::string build_mesh(unsigned index, bool& bone_bound_joint_set,
                         std::vector<uint8_t>& inverse_bind_from_bone) {
    (void)bone_bound_joint_set;
    const aiMesh* src = scene->mMeshes[index];
    Mesh mesh;
    mesh.name = src->mName.C_Str();
    mesh.node = node_joint[mesh_node[index]];
    mesh.material =
        src->mMaterialIndex < scene->mNumMaterials ? static_cast<int32_t>(src->mMaterialIndex) : -1;
    const std::size_t nv = src->mNumVertices;

    mesh.positions.resize(nv);
    uint64_t bad_values = 0;
    for (std::size_t v = 0; v < nv; ++v) {
      glm::vec3 p(src->mVertices[v].x, src->mVertices[v].y, src->mVertices[v].z);
      if (!finite(p)) {
        p = glm::vec3(0.0f);
        ++bad_values;
      }
      mesh.positions[v] = p;
    }
    mesh.normals.assign(nv, glm::vec3(0.0f, 0.0f, 1.0f));
    if (src->mNormals) {
      for (std::size_t v = 0; v < nv; ++v) {
        glm::vec3 n(src->mNormals[v].x, src->mNormals[v].y, src->mNormals[v].z);
        // assimp's normal generation writes NaN for vertices used only by points or lines.
        if (finite(n) && glm::dot(n, n) > 0.0f) mesh.normals[v] = n;
      }
    } else {
      ++normals_missing;
    }
    if (src->mTextureCoords[0]) {
      mesh.uvs.resize(nv);
      for (std::size_t v = 0; v < nv; ++v) {
        glm::vec2 uv(src->mTextureCoords[0][v].x, src->mTextureCoords[0][v].y);
        mesh.uvs[v] = std::isfinite(uv.x) && std::isfinite(uv.y) ? uv : glm::vec2(0.0f);
      }
    }
    mesh.indices.reserve(static_cast<std::size_t>(src->mNumFaces) * 3);
    uint64_t faces_dropped = 0;
    for (unsigned f = 0; f < src->mNumFaces; ++f) {
      const aiFace& face = src->mFaces[f];
      if (face.mNumIndices != 3 || !face.mIndices) continue;  // points and lines are not drawn
      if (face.mIndices[0] >= nv || face.mIndices[1] >= nv || face.mIndices[2] >= nv) {
        ++faces_dropped;
        continue;
      }
      mesh.indices.insert(mesh.indices.end(), face.mIndices, face.mIndices + 3);
    }
    if (faces_dropped) {
      report.faces_dropped += faces_dropped;
      report.notes.push_back("Mesh '" + mesh.name + "': " + std::to_string(faces_dropped) +
                             " triangle(s) named a vertex past the mesh's end and were dropped.");
    }
    if (bad_values) {
      report.non_finite_values += bad_values;
      report.notes.push_back("Mesh '" + mesh.name + "': " + std::to_string(bad_values) +
                             " vertex position(s) held NaN/Inf and were set to 0.");
    }

    mesh.joints.assign(nv, glm::u16vec4(0));
    mesh.weights.assign(nv, glm::vec4(1.0f, 0.0f, 0.0f, 0.0f));
    mesh.vertex_flags.assign(nv, 0);

    if (src->mNumBones == 0) {
      // Rigid: one bone, the mesh's node, identity inverse bind -> the node's global transform.
      mesh.skinned = false;
      mesh.skin_joints = {mesh.node};
      mesh.inverse_bind = {glm::mat4(1.0f)};
      mesh.max_influences = 1;
      mesh.max_joint = 0;
      model.meshes.push_back(std::move(mesh));
      return {};
    }

    mesh.skinned = true;
    mesh.source_weight_sums.assign(nv, 0.0f);
    std::vector<std::vector<Influence>> influences(nv);
    uint64_t bones_dropped = 0;
    uint64_t weights_invalid = 0;
    for (unsigned b = 0; b < src->mNumBones; ++b) {
      const aiBone* bone = src->mBones[b];
      if (!bone) continue;
      const int node = find_node(bone->mName);
      if (node < 0 || node_joint[node] < 0) {
        ++bones_dropped;
        continue;
      }
      const int joint = node_joint[node];
      glm::mat4 offset;
      if (finite_matrix(bone->mOffsetMatrix)) {
        offset = glm::mat4(to_dmat4(bone->mOffsetMatrix));
      } else {
        ++report.non_finite_values;
        report.notes.push_back("Bone '" + std::string(bone->mName.C_Str()) +
                               "': offset matrix held NaN/Inf; its rest pose is used instead.");
        offset = glm::mat4(glm::inverse(node_global[node]));
      }
      if (mesh.skin_joints.size() >= kMaxSkinBones)
        return fail("mesh '" + mesh.name + "' binds more than 65535 bones");
      const auto skin_index = static_cast<uint16_t>(mesh.skin_joints.size());
      mesh.skin_joints.push_back(joint);
      mesh.inverse_bind.push_back(offset);
      model.skeleton.is_bone[joint] = 1;
      if (!inverse_bind_from_bone[joint]) {
        inverse_bind_from_bone[joint] = 1;
        model.skeleton.inverse_bind[joint] = offset;
      }
      for (unsigned w = 0; w < bone->mNumWeights; ++w) {
        const aiVertexWeight& vw = bone->mWeights[w];
        if (!std::isfinite(vw.mWeight)) {
          ++weights_nonfinite;
          continue;
        }
        if (vw.mVertexId >= nv || vw.mWeight < 0.0f || vw.mWeight > kHugeWeight) {
          ++weights_invalid;
          continue;
        }
        if (vw.mWeight == 0.0f) continue;
        influences[vw.mVertexId].push_back({vw.mWeight, skin_index});
      }
    }
    report.bones_without_node += bones_dropped;
    if (bones_dropped)
      report.notes.push_back("Mesh '" + mesh.name + "': " + std::to_string(bones_dropped) +
                             " bone(s) name no node; their weights were dropped.");
    if (weights_invalid)
      report.notes.push_back("Mesh '" + mesh.name + "': " + std::to_string(weights_invalid) +
                             " weight(s) were negative, huge or named no vertex and were dropped.");

    int rigid_bone = -1;  // skin index of the mesh's own node, for vertices left unweighted
    uint64_t truncated = 0, renormalised = 0, unweighted = 0;
    for (std::size_t v = 0; v < nv; ++v) {
      auto& inf = influences[v];
      mesh.max_influences = std::max(mesh.max_influences, static_cast<uint32_t>(inf.size()));
      if (inf.empty()) {
        if (rigid_bone < 0) {
          if (mesh.skin_joints.size() >= kMaxSkinBones)
            return fail("mesh '" + mesh.name + "' binds more than 65535 bones");
          rigid_bone = static_cast<int>(mesh.skin_joints.size());
          mesh.skin_joints.push_back(mesh.node);
          mesh.inverse_bind.push_back(glm::mat4(1.0f));
        }
        mesh.joints[v] = glm::u16vec4(static_cast<uint16_t>(rigid_bone), 0, 0, 0);
        mesh.weights[v] = glm::vec4(1.0f, 0.0f, 0.0f, 0.0f);
        mesh.vertex_flags[v] |= kVertexUnweighted;
        ++unweighted;
        continue;
      }
      std::stable_sort(inf.begin(), inf.end(),
                       [](const Influence& a, const Influence& b) { return a.weight > b.weight; });
      double total = 0.0;
      for (const Influence& i : inf) total += i.weight;
      mesh.source_weight_sums[v] = static_cast<float>(total);
      if (std::abs(total - 1.0) > 1e-4) {
        mesh.vertex_flags[v] |= kVertexRenormalised;
        ++renormalised;
      }
      if (inf.size() > 4) {
        mesh.vertex_flags[v] |= kVertexTruncated;
        ++truncated;
        report.largest_dropped_weight =
            std::max(report.largest_dropped_weight, static_cast<double>(inf[4].weight));
        inf.resize(4);
      }
      double kept = 0.0;
      for (const Influence& i : inf) kept += i.weight;
      glm::vec4 w(0.0f);
      glm::u16vec4 j(0);
      for (std::size_t k = 0; k < inf.size(); ++k) {
        w[static_cast<int>(k)] = static_cast<float>(inf[k].weight / kept);
        j[static_cast<int>(k)] = inf[k].bone;
      }
      mesh.weights[v] = w;
      mesh.joints[v] = j;
    }
    // Canonical influence order, vertices bound to the same bones together (the fast CPU
    // skinning path works on such runs), max_joint over all 4 slots (skin_lbs reads them all).
    group_vertices_by_bone_set(mesh);

    report.vertices_over_4_influences += truncated;
    report.vertices_renormalised += renormalised;
    report.vertices_unweighted += unweighted;
    if (truncated)
      report.notes.push_back("Mesh '" + mesh.name + "': " + std::to_string(truncated) +
                             " vertices had more than 4 influences (up to " +
                             std::to_string(mesh.max_influences) +
                             "); the 4 largest were kept and renormalised.");
    if (renormalised)
      report.notes.push_back("Mesh '" + mesh.name + "': " + std::to_string(renormalised) +
                             " vertices had weights not summing to 1; renormalised.");
    if (unweighted)
      report.notes.push_back("Mesh '" + mesh.name + "': " + std::to_string(unweighted) +
                             " vertices had no weight; bound rigidly to the mesh's node.");
    model.meshes.push_back(std::move(mesh));
    return {};
  }

  std::string build_meshes() {
    std::vector<uint8_t> inverse_bind_from_bone(model.skeleton.size(), 0);
    bool unused = false;
    for (unsigned m = 0; m < scene->mNumMeshes; ++m) {
      if (!mesh_kept[m]) continue;
      std::string error = build_mesh(m, unused, inverse_bind_from_bone);
      if (!error.empty()) return error;
    }
    if (report.meshes_skipped)
      report.notes.push_back(std::to_string(report.meshes_skipped) +
                             " mesh(es) had no triangles (points or lines only) and were skipped.");
    if (meshes_unplaced)
      report.notes.push_back(std::to_string(meshes_unplaced) +
                             " mesh(es) are placed by no node and are shown at the root.");
    for (const std::string& name : instanced_meshes)
      report.notes.push_back("Mesh '" + name +
                             ") is instanced on several nodes; only its first node (depth-first) "
                             "is shown.");
    if (normals_missing)
      report.notes.push_back(std::to_string(normals_missing) +
                             " mesh(es) have no normals; +Z is used.");
    if (weights_nonfinite) {
      report.non_finite_values += weights_nonfinite;
      report.notes.push_back(std::to_string(weights_nonfinite) +
                             " bone weight(s) held NaN/Inf and were dropped.");
    }
    return {};
  }

  std::string build_clips() {
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
    std::vector<std::string> refused;
    for (unsigned a = 0; a < scene->mNumAnimations; ++a) {
      const aiAnimation* anim = scene->mAnimations[a];
      Clip clip;
      clip.name = anim && anim->mName.length > 0 ? std::string(anim->mName.C_Str())
                                                 : "clip " + std::to_string(a);
      if (!anim) {
        clips.push_back(std::move(clip));
        continue;
      }
      if (anim->mDuration < 0.0) {  // zero is a single pose; negative has no meaning
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
      for (unsigned c = 0; c < anim->mNumChannels && anim->mChannels; ++c) {
        const aiNodeAnim* ch = anim->mChannels[c];
        if (!ch) continue;
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
      clips.push_back(std::move(clip));
    }
    if (!refused.empty()) {
      std::string list;
      for (std::size_t i = 0; i < refused.size() && i < 8; ++i)
        list += (i ? ", " : "") + refused[i];
      if (refused.size() > 8) list += ", ...";
      report.notes.push_back(std::to_string(refused.size()) +
                             " clip(s) of negative duration were dropped: " + list + ".");
    }
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

  void build_materials() {
    for (unsigned i = 0; i < scene->mNumMaterials; ++i) {
      const aiMaterial* src = scene->mMaterials ? scene->mMaterials[i] : nullptr;
      Material mat;
      if (src) {
        aiString name;
        if (src->Get(AI_MATKEY_NAME, name) == AI_SUCCESS) mat.name = name.C_Str();
        aiColor4D color;
        if (src->Get(AI_MATKEY_BASE_COLOR, color) == AI_SUCCESS ||
            src->Get(AI_MATKEY_COLOR_DIFFUSE, color) == AI_SUCCESS) {
          glm::vec4 c(color.r, color.g, color.b, color.a);
          if (std::isfinite(c.r) && std::isfinite(c.g) && std::isfinite(c.b) && std::isfinite(c.a))
            mat.base_color = c;
        }
        aiString tex;
        if (src->GetTexture(aiTextureType_BASE_COLOR, 0, &tex) == AI_SUCCESS ||
            src->GetTexture(aiTextureType_DIFFUSE, 0, &tex) == AI_SUCCESS) {
          const aiTexture* embedded = scene->GetEmbeddedTexture(tex.C_Str());
          if (embedded) {
            if (embedded->mHeight == 0 && embedded->pcData && embedded->mWidth > 0) {
              const auto* bytes = reinterpret_cast<const uint8_t*>(embedded->pcData);
              mat.texture_bytes.assign(bytes, bytes + embedded->mWidth);
            }
          } else if (tex.length > 0 && !base_dir.empty()) {
            std::filesystem::path p = std::filesystem::path(base_dir) / tex.C_Str();
            mat.texture_path = p.lexically_normal().string();
          }
        }
      }
      model.materials.push_back(std::move(mat));
    }
  }

  static double last_time(const JointChannel& jc) {
    double t = 0.0;
    if (!jc.translation.empty()) t = std::max<double>(t, jc.translation.times.back());
    if (!jc.rotation.empty()) t = std::max<double>(t, jc.rotation.times.back());
    if (!jc.scale.empty()) t = std::max<double>(t, jc.scale.times.back());
    return t;
  }

  // Joint of glTF node `name` (assimp names unnamed glTF nodes by their id), or -1.
  int joint_named(const std::string& name) const {
    auto it = node_by_name.find(name);
    return it == node_by_name.end() ? -1 : node_joint[it->second];
  }

  void apply_gltf_samplers() {
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

  // The one place the importer's raw clips become runtime clips (the builder,
  // ClipRuntime::build): nothing after import sees a Clip.
  std::string build_runtime_clips() {
    model.clips.resize(clips.size());
    for (std::size_t c = 0; c < clips.size(); ++c)
      if (std::string e = model.clips[c].build(clips[c], model.skeleton); !e.empty())
        return fail("invalid data: " + e);
    clips.clear();
    return {};
  }

  void note_key_repairs() {
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

  std::string run() {
    if (!scene->mRootNode) return fail("empty scene (no root node)");
    if (std::string e = walk_nodes(); !e.empty()) return e;
    if (std::string e = find_mesh_nodes(); !e.empty()) return e;
    if (std::string e = build_skeleton(); !e.empty()) return e;
    if (model.skeleton.size() == 0) return fail("nothing to show (no meshes and no animations)");
    if (std::string e = build_meshes(); !e.empty()) return e;
    nonfinite_before_clips = report.non_finite_values;
    if (std::string e = build_clips(); !e.empty()) return e;
    if (gltf) apply_gltf_samplers();
    note_key_repairs();
    if (std::string e = build_runtime_clips(); !e.empty()) return e;
    build_materials();
    if (model.meshes.empty() && model.clips.empty())
      return fail("nothing to show (no meshes and no animations)");
    if (std::string e = model.validate(); !e.empty()) return fail("invalid data: " + e);
    return {};
  }
};

// Some parsers inside assimp (OpenDDL for OpenGEX, ...) print to stdout/stderr directly. The
// command line promises one line of error output, and --dump may write JSON to stdout, so both
// file descriptors point at /dev/null while assimp runs. Process-wide: imports are not meant to
// run while another thread prints (the viewer turns this off: set_import_silences_stdio).
std::atomic<bool> g_silence_stdio{true};

class SilenceStdio {
 public:
  SilenceStdio() {
    if (!g_silence_stdio.load()) return;
#ifdef SKINVIEW_KEEP_STDIO
    // Fuzz builds: sanitizer and libFuzzer reports of a crash inside assimp must reach stderr.
    return;
#endif
    std::cout.flush();
    std::cerr.flush();
    std::fflush(stdout);
    std::fflush(stderr);
    const int null_fd = ::open("/dev/null", O_WRONLY | O_CLOEXEC);
    if (null_fd < 0) return;
    saved_out_ = ::dup(1);
    saved_err_ = ::dup(2);
    if (saved_out_ >= 0) ::dup2(null_fd, 1);
    if (saved_err_ >= 0) ::dup2(null_fd, 2);
    ::close(null_fd);
  }
  ~SilenceStdio() {
    std::fflush(stdout);
    std::fflush(stderr);
    if (saved_out_ >= 0) {
      ::dup2(saved_out_, 1);
      ::close(saved_out_);
    }
    if (saved_err_ >= 0) {
      ::dup2(saved_err_, 2);
      ::close(saved_err_);
    }
  }
  SilenceStdio(const SilenceStdio&) = delete;
  SilenceStdio& operator=(const SilenceStdio&) = delete;

 private:
  int saved_out_ = -1;
  int saved_err_ = -1;
};

// OFF headers declare their vertex and face counts up front; assimp 5.2 trusts them and spends
// minutes (or all memory) on a header that claims billions (invalid/OutOfMemory.off). Each
// vertex or face needs at least two bytes of text, so a claim beyond the file size is refused.
// `head` is the start of the file (the header is in the first few hundred bytes).
std::string check_off_header(std::string_view head, uint64_t size) {
  std::istringstream in{std::string(head)};
  std::string word;
  double counts[2] = {0, 0};
  int found = 0;
  // Skip the magic ("OFF", "COFF", "NOFF", "STOFF", ...) and comments; read two numbers.
  while (found < 2 && in >> word) {
    if (word[0] == '#') {
      std::string rest;
      std::getline(in, rest);
      continue;
    }
    char* end = nullptr;
    const double v = std::strtod(word.c_str(), &end);
    if (end == word.c_str()) {
      if (found > 0) break;
      continue;
    }
    counts[found++] = v;
  }
  if (found < 2) return {};
  const double budget = static_cast<double>(size) / 2.0;
  if (!(counts[0] <= budget && counts[1] <= budget && counts[0] >= 0 && counts[1] >= 0))
    return "OFF header declares " + std::to_string(static_cast<long long>(counts[0])) +
           " vertices and " + std::to_string(static_cast<long long>(counts[1])) +
           " faces, more than the file's " + std::to_string(size) + " bytes can hold";
  return {};
}

// assimp's readers can hand back a scene in which one object is reachable twice: the FBX reader
// lists a bone twice in aiMesh::mBones when a skin link is broken; a corrupt node graph puts a
// node under two parents or under itself. assimp's own destructors then free it twice, and its
// validation recurses forever on a cycle. Every repeated pointer that a destructor would free
// is cleared here (a node pointer reached twice is cut from its second parent), before
// validation or any destructor runs. Returns how many were cleared.
uint64_t unshare(aiScene& scene) {
  std::unordered_set<const void*> seen;
  uint64_t cleared = 0;
  // Clears `p` when it was seen before; true if it stays.
  auto keep = [&](auto*& p) {
    if (!p) return false;
    if (seen.insert(p).second) return true;
    p = nullptr;
    ++cleared;
    return false;
  };
  // Pointer lists are compacted (assimp's validation does not expect null entries).
  auto list = [&](auto**& items, unsigned& count) {
    if (!items) count = 0;
    unsigned kept = 0;
    for (unsigned i = 0; i < count; ++i)
      if (!items[i] || keep(items[i])) items[kept++] = items[i];
    count = kept;
  };
  if (scene.mRootNode) {
    std::vector<aiNode*> stack{scene.mRootNode};
    seen.insert(scene.mRootNode);
    while (!stack.empty()) {
      aiNode* node = stack.back();
      stack.pop_back();
      list(node->mChildren, node->mNumChildren);
      for (unsigned i = 0; i < node->mNumChildren; ++i)
        if (node->mChildren[i]) stack.push_back(node->mChildren[i]);
    }
  }
  list(scene.mMeshes, scene.mNumMeshes);
  for (unsigned m = 0; m < scene.mNumMeshes; ++m) {
    aiMesh* mesh = scene.mMeshes[m];
    if (!mesh) continue;
    keep(mesh->mVertices);
    keep(mesh->mNormals);
    keep(mesh->mTangents);
    keep(mesh->mBitangents);
    for (auto*& uv : mesh->mTextureCoords) keep(uv);
    for (auto*& c : mesh->mColors) keep(c);
    keep(mesh->mFaces);
    list(mesh->mBones, mesh->mNumBones);
    for (unsigned b = 0; b < mesh->mNumBones; ++b)
      if (aiBone* bone = mesh->mBones[b]; bone && !keep(bone->mWeights)) bone->mNumWeights = 0;
  }
  list(scene.mMaterials, scene.mNumMaterials);
  list(scene.mAnimations, scene.mNumAnimations);
  for (unsigned a = 0; a < scene.mNumAnimations; ++a) {
    aiAnimation* anim = scene.mAnimations[a];
    if (!anim) continue;
    list(anim->mChannels, anim->mNumChannels);
    for (unsigned c = 0; c < anim->mNumChannels; ++c) {
      aiNodeAnim* ch = anim->mChannels[c];
      if (!ch) continue;
      if (!keep(ch->mPositionKeys)) ch->mNumPositionKeys = 0;
      if (!keep(ch->mRotationKeys)) ch->mNumRotationKeys = 0;
      if (!keep(ch->mScalingKeys)) ch->mNumScalingKeys = 0;
    }
  }
  list(scene.mTextures, scene.mNumTextures);
  list(scene.mLights, scene.mNumLights);
  list(scene.mCameras, scene.mNumCameras);
  return cleared;
}

// assimp error messages that mean it threw away malformed geometry (faces with no indices) and
// carried on: skinview refuses such files instead of showing part of them.
bool is_malformed_geometry(const std::string& message) {
  return message.find("empty face") != std::string::npos ||
         message.find("Faces with zero indices") != std::string::npos;
}

std::string lower_extension(const std::string& path) {
  std::string ext = std::filesystem::path(path).extension().string();
  for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return ext;
}

std::string one_line(std::string s) {
  for (char& c : s)
    if (c == '\n' || c == '\r') c = ' ';
  while (!s.empty() && s.back() == ' ') s.pop_back();
  return s;
}

// The longest piece of an assimp (or tinygltf) message an error line keeps. Some of assimp's
// messages quote the input: "Cannot parse string \"...\" as a real number" holds everything
// from that point to the end of the file.
constexpr std::size_t kMaxQuotedError = 300;

// A third-party message made one readable line: control characters become spaces, and past
// kMaxQuotedError bytes it is cut (at a UTF-8 character boundary) and ends in "...".
std::string quoted_error(std::string s) {
  for (char& c : s)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = ' ';
  if (s.size() > kMaxQuotedError) {
    std::size_t cut = kMaxQuotedError;
    while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xc0) == 0x80) --cut;
    s.resize(cut);
    s += "...";
  }
  return one_line(std::move(s));
}

// What a failed allocation inside a reader means: assimp sizes arrays by counts read from the
// file. assimp catches std::bad_alloc itself and reports its what(), "std::bad_alloc".
constexpr const char* kOutOfMemory =
    "out of memory while reading: a count in the file asks for more memory than can be "
    "allocated (corrupt or hostile file)";

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

namespace {

// A no-op filesystem for files held in memory: assimp's memory reader falls back to the
// importer's IOSystem for every other file a format references, and this one opens none.
class NoFilesIOSystem final : public Assimp::IOSystem {
 public:
  bool Exists(const char*) const override { return false; }
  char getOsSeparator() const override { return '/'; }
  Assimp::IOStream* Open(const char*, const char*) override { return nullptr; }
  void Close(Assimp::IOStream* stream) override { delete stream; }
};

// Where the bytes of a model come from: a file (`bytes` empty) or a buffer in memory.
struct Source {
  std::string name;                // the path, or the caller's label: prefixes every error
  std::string ext;                 // lower case with the dot (".gltf"); from the hint in memory
  std::span<const uint8_t> bytes;  // the whole file, when it is held in memory
  uint64_t size = 0;               // the file's size in bytes
  bool in_memory() const { return !bytes.empty(); }
};

constexpr std::size_t kHeadBytes = 4096;

// Up to `n` bytes of the file from `offset` (fewer at its end).
std::string read_at(const Source& src, uint64_t offset, std::size_t n) {
  if (offset >= src.size) return {};
  n = static_cast<std::size_t>(std::min<uint64_t>(n, src.size - offset));
  if (src.in_memory())
    return std::string(reinterpret_cast<const char*>(src.bytes.data() + offset), n);
  std::ifstream in(src.name, std::ios::binary);
  in.seekg(static_cast<std::streamoff>(offset));
  std::string out(n, '\0');
  in.read(out.data(), static_cast<std::streamsize>(n));
  out.resize(static_cast<std::size_t>(std::max<std::streamsize>(in.gcount(), 0)));
  return out;
}

uint32_t le32(const std::string& s, std::size_t at) {
  uint32_t v = 0;
  for (int i = 3; i >= 0; --i) v = (v << 8) | static_cast<unsigned char>(s[at + i]);
  return v;
}

// Binary glTF: assimp 5.2.5 allocates the chunk lengths that the header claims before it reads
// them (a flipped byte asks for gigabytes). A header or chunk that claims more bytes than the
// file has is refused here. assimp recognises the format by its magic whatever the extension.
std::string check_glb_header(const Source& src) {
  const std::string header = read_at(src, 0, 20);
  if (header.size() < 4 || header.compare(0, 4, "glTF") != 0) return {};
  if (header.size() < 20) return "binary glTF header is truncated";
  if (le32(header, 4) != 2) return {};  // glTF 1.0 binary has another layout
  const uint64_t length = le32(header, 8);
  if (length > src.size)
    return "binary glTF header claims " + std::to_string(length) + " bytes, the file has " +
           std::to_string(src.size);
  uint64_t offset = 12;
  for (int chunk = 0; chunk < 2 && offset + 8 <= length; ++chunk) {
    const std::string head = read_at(src, offset, 8);
    if (head.size() < 8) return "binary glTF chunk header is truncated";
    const uint64_t chunk_length = le32(head, 0);
    if (chunk_length > length - offset - 8)
      return "binary glTF chunk " + std::to_string(chunk) + " claims " +
             std::to_string(chunk_length) + " bytes, past the end of the file";
    offset += 8 + ((chunk_length + 3) & ~uint64_t{3});
  }
  return {};
}

// Random access to the bytes of a Source: the buffer, or one open stream on the file.
class ByteReader {
 public:
  explicit ByteReader(const Source& src) : src_(src) {
    if (!src.in_memory()) file_.open(src.name, std::ios::binary);
  }
  // Reads exactly n bytes at `offset`; false past the end or on a read error.
  bool read(uint64_t offset, void* out, std::size_t n) {
    if (offset > src_.size || n > src_.size - offset) return false;
    if (n == 0) return true;  // `out` may be an empty vector's null data()
    if (src_.in_memory()) {
      std::memcpy(out, src_.bytes.data() + offset, n);
      return true;
    }
    file_.seekg(static_cast<std::streamoff>(offset));
    file_.read(static_cast<char*>(out), static_cast<std::streamsize>(n));
    return static_cast<std::size_t>(file_.gcount()) == n;
  }
  template <class T>
  bool read_le(uint64_t offset, T& out) {  // little-endian (every supported host is)
    return read(offset, &out, sizeof out);
  }

 private:
  const Source& src_;
  std::ifstream file_;
};

// Whether the FBX record whose name starts at `at` is an animation curve's "KeyValueFloat".
bool is_key_values(ByteReader& in, uint64_t at, uint8_t name_len) {
  static constexpr char kName[] = "KeyValueFloat";
  char name[sizeof kName - 1];
  return name_len == sizeof name && in.read(at, name, sizeof name) &&
         std::memcmp(name, kName, sizeof name) == 0;
}

// Animation curve values: assimp 5.2.5 adds intermediate rotation keys for every 180 degrees
// between two keys, so one corrupt value of 1e30 degrees makes it generate keys until memory
// runs out (24 GB and the OOM killer, for a 110 KB file). Values must be finite and within
// +-1e6 (degrees, or centimetres for translations: 10 km). The `len` stored bytes at `at` lie
// inside their record (the caller checks); they are read and inflated in 64 KiB pieces, so a
// count that claims gigabytes costs no more memory than a small one.
std::string check_key_values(ByteReader& in, uint64_t at, char type, uint32_t count,
                             uint32_t encoding, uint32_t len) {
  constexpr double kLimit = 1e6;
  constexpr std::size_t kPiece = std::size_t{1} << 16;  // a multiple of 4 and 8
  const std::size_t elem = type == 'f' ? 4 : 8;
  const uint64_t want = elem * uint64_t{count};
  uint64_t checked = 0;  // bytes of values checked so far
  // Checks the whole values in `bytes`; returns how many bytes it used.
  std::string error;
  auto check = [&](const unsigned char* bytes, std::size_t n) {
    const std::size_t whole = n / elem * elem;
    for (std::size_t i = 0; i < whole && error.empty(); i += elem) {
      double v = 0.0;
      if (type == 'f') {
        float f = 0.0f;
        std::memcpy(&f, bytes + i, 4);
        v = f;
      } else {
        std::memcpy(&v, bytes + i, 8);
      }
      if (!(std::abs(v) <= kLimit))
        error = "binary FBX animation curve value " + std::to_string(v) + " is out of range";
    }
    checked += whole;
    return whole;
  };
  std::vector<unsigned char> raw(kPiece), values(kPiece);
  if (encoding == 0) {
    if (want > len) return {};
    for (uint64_t off = 0; off < want && error.empty();) {
      const std::size_t n = static_cast<std::size_t>(std::min<uint64_t>(kPiece, want - off));
      if (!in.read(at + off, raw.data(), n)) return {};
      check(raw.data(), n);
      off += n;
    }
    return error;
  }
  if (encoding != 1) return {};
  z_stream z{};
  if (::inflateInit(&z) != Z_OK) return {};
  uint64_t consumed = 0;
  std::size_t have = 0;  // bytes of values waiting in `values` (less than one element)
  int rc = Z_OK;
  while (rc == Z_OK && error.empty()) {
    if (z.avail_in == 0 && consumed < len) {
      const std::size_t n = static_cast<std::size_t>(std::min<uint64_t>(kPiece, len - consumed));
      if (!in.read(at + consumed, raw.data(), n)) break;
      consumed += n;
      z.next_in = raw.data();
      z.avail_in = static_cast<uInt>(n);
    }
    z.next_out = values.data() + have;
    z.avail_out = static_cast<uInt>(kPiece - have);
    rc = ::inflate(&z, Z_NO_FLUSH);
    if (rc != Z_OK && rc != Z_STREAM_END) break;  // assimp reports a broken array itself
    const std::size_t filled = kPiece - z.avail_out;
    if (checked + filled > want) break;  // more values than declared: assimp reports it
    const std::size_t used = check(values.data(), filled);
    have = filled - used;
    std::memmove(values.data(), values.data() + used, have);
    if (rc == Z_OK && z.avail_in == 0 && consumed == len && z.avail_out != 0) break;  // truncated
  }
  ::inflateEnd(&z);
  return error;
}

// Binary FBX: every array property declares its element count, and assimp 5.2.5 allocates
// count * element size before it inflates or copies the data (a flipped byte asks for
// gigabytes). Each array must fit the bytes it has: stored plainly, exactly; deflated, at most
// deflate's 1032:1 ratio. Walks the record tree without reading the data; a structure it cannot
// follow is left to assimp, which rejects it.
std::string check_fbx_arrays(const Source& src) {
  static constexpr char kMagic[] = "Kaydara FBX Binary  ";
  ByteReader in(src);
  char magic[sizeof kMagic - 1];
  if (!in.read(0, magic, sizeof magic) || std::memcmp(magic, kMagic, sizeof magic) != 0) return {};
  uint32_t version = 0;
  if (!in.read_le(23, version)) return "binary FBX header is truncated";
  const bool wide = version >= 7500;  // 64-bit record offsets
  const uint64_t header = wide ? 25 : 13;
  struct Range {
    uint64_t begin, end;
  };
  std::vector<Range> stack{{27, src.size}};
  uint64_t arrays = 0;
  while (!stack.empty()) {
    const Range r = stack.back();
    stack.pop_back();
    for (uint64_t pos = r.begin; pos + header <= r.end;) {
      uint64_t end = 0, props = 0, props_len = 0;
      uint8_t name_len = 0;
      if (wide) {
        if (!in.read_le(pos, end) || !in.read_le(pos + 8, props) ||
            !in.read_le(pos + 16, props_len))
          return {};
      } else {
        uint32_t e = 0, n = 0, l = 0;
        if (!in.read_le(pos, e) || !in.read_le(pos + 4, n) || !in.read_le(pos + 8, l)) return {};
        end = e, props = n, props_len = l;
      }
      if (end == 0) break;  // the null record closing this list
      if (end <= pos || end > r.end || !in.read_le(pos + header - 1, name_len)) return {};
      uint64_t p = pos + header + name_len;
      const uint64_t props_end = p + props_len;
      if (props_end > end) return {};
      for (uint64_t k = 0; k < props && p < props_end; ++k) {
        char type = 0;
        if (!in.read_le(p, type)) return {};
        ++p;
        uint32_t len = 0;
        switch (type) {
          case 'C':
            p += 1;
            break;
          case 'Y':
            p += 2;
            break;
          case 'I':
          case 'F':
            p += 4;
            break;
          case 'D':
          case 'L':
            p += 8;
            break;
          case 'S':
          case 'R':
            if (!in.read_le(p, len)) return {};
            p += 4 + uint64_t{len};
            break;
          case 'b':
          case 'i':
          case 'f':
          case 'd':
          case 'l': {
            uint32_t count = 0, encoding = 0;
            if (!in.read_le(p, count) || !in.read_le(p + 4, encoding) || !in.read_le(p + 8, len))
              return {};
            const uint64_t elem = type == 'b' ? 1 : (type == 'i' || type == 'f') ? 4 : 8;
            const uint64_t bytes = elem * count;
            if ((encoding == 0 && bytes > len) ||
                (encoding == 1 && bytes > 1032 * uint64_t{len} + 1024))
              return "binary FBX array " + std::to_string(arrays) + " declares " +
                     std::to_string(count) + " elements in " + std::to_string(len) + " bytes";
            ++arrays;
            // Stored bytes past the record: a structure this walk cannot follow (assimp
            // rejects it); checked before the curve check below reads them.
            if (p + 12 + uint64_t{len} > props_end) return {};
            if ((type == 'f' || type == 'd') && is_key_values(in, pos + header, name_len))
              if (std::string e = check_key_values(in, p + 12, type, count, encoding, len);
                  !e.empty())
                return e;
            p += 12 + uint64_t{len};
            break;
          }
          default:
            return {};
        }
      }
      if (props_end < end) stack.push_back({props_end, end});
      pos = end;
    }
  }
  return {};
}

// MD5: from disk assimp reads FILE.md5mesh and then FILE.md5anim beside it (both named from the
// path up to its last dot, whatever the extension that brought assimp there), or FILE.md5anim
// alone; from memory its reader hands the same bytes to both. Each text assimp will read is
// checked (text_checks.h). Camera files are refused: they hold no model, and assimp 5.2.5
// indexes their frames by the cut list unchecked.
std::string check_md5_part(const std::string& path, Md5Part part, const std::string& label) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) return {};  // assimp skips what it cannot open
  Source file;
  file.name = path;
  file.size = std::filesystem::file_size(path, ec);
  if (ec || file.size == 0) return {};
  if (file.size > kMaxFileBytes)
    return label + std::to_string(file.size) + " bytes, more than the limit of " +
           std::to_string(kMaxFileBytes);
  const std::string text = read_at(file, 0, static_cast<std::size_t>(file.size));
  if (text.size() != file.size) return {};  // unreadable: assimp cannot open it either
  if (std::string e = check_md5_text(text, part); !e.empty()) return label + e;
  return {};
}

// DirectX .x: assimp reads a file as X when it starts with "xof " and its extension is .x, or
// one assimp does not know (it then goes by content).
std::string check_x(const Source& src) {
  if (read_at(src, 0, 4) != "xof ") return {};
  if (src.ext != ".x" && !src.ext.empty() &&
      Assimp::Importer().IsExtensionSupported(src.ext.c_str()))
    return {};
  return check_x_file(read_at(src, 0, static_cast<std::size_t>(src.size)));
}

bool is_md5(const Source& src) {
  if (src.ext == ".md5mesh" || src.ext == ".md5anim" || src.ext == ".md5camera") return true;
  // A file whose extension assimp does not know is matched by content: "MD5Version" in its
  // first 200 bytes makes it an MD5 file.
  std::string head = read_at(src, 0, 200);
  for (char& c : head) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (head.find("md5version") == std::string::npos) return false;
  return src.ext.empty() || !Assimp::Importer().IsExtensionSupported(src.ext.c_str());
}

std::string check_md5_files(const Source& src) {
  if (!is_md5(src)) return {};
  if (src.ext == ".md5camera")
    return "MD5 camera files hold no model (and assimp 5.2.5 reads their cut lists unchecked)";
  if (src.in_memory())
    return check_md5_text(read_at(src, 0, static_cast<std::size_t>(src.size)),
                          src.ext == ".md5anim" ? Md5Part::Anim : Md5Part::Both);
  const std::size_t dot = src.name.find_last_of('.');
  const std::string stem = dot == std::string::npos ? src.name : src.name.substr(0, dot + 1);
  if (src.ext != ".md5anim")
    if (std::string e = check_md5_part(stem + "md5mesh", Md5Part::Mesh,
                                       stem + "md5mesh" == src.name ? "" : stem + "md5mesh: ");
        !e.empty())
      return e;
  return check_md5_part(stem + "md5anim", Md5Part::Anim,
                        stem + "md5anim" == src.name ? "" : stem + "md5anim (read with it): ");
}

// Checks made before assimp sees the bytes, against its known failures on hostile headers.
std::string check_headers(const Source& src) {
  if (src.ext == ".off")
    if (std::string e = check_off_header(read_at(src, 0, kHeadBytes), src.size); !e.empty())
      return e;
  if (std::string e = check_glb_header(src); !e.empty()) return e;
  if (std::string e = check_md5_files(src); !e.empty()) return e;
  if (std::string e = check_x(src); !e.empty()) return e;
  if (src.ext == ".smd" || src.ext == ".vta")
    if (std::string e = check_smd_text(read_at(src, 0, static_cast<std::size_t>(src.size)));
        !e.empty())
      return e;
  return check_fbx_arrays(src);
}

// Reads, checks and converts one model: the one code path behind import_model and
// import_model_from_memory.
ImportResult import_source(const Source& src) {
  ImportResult result;
  try {
    if (src.size > kMaxFileBytes) {
      result.error = src.name + ": " + std::to_string(src.size) +
                     " bytes, more than the limit of " + std::to_string(kMaxFileBytes);
      return result;
    }
    if (std::string e = check_headers(src); !e.empty()) {
      result.error = src.name + ": " + e;
      return result;
    }

    // glTF: read by tinygltf first; what assimp would read out of bounds is refused here.
    std::optional<GltfSidecar> gltf;
    if (src.ext == ".gltf" || src.ext == ".glb") {
      gltf = src.in_memory() ? read_gltf_sidecar(src.bytes, src.ext == ".glb")
                             : read_gltf_sidecar(src.name);
      if (!gltf->problem.empty()) {
        result.error = src.name + ": glTF data out of range (" + gltf->problem + ")";
        return result;
      }
      // A glTF 2 file that tinygltf cannot read is malformed; assimp 5.2.5 would read it
      // without the range checks above (out-of-bounds reads). glTF 1.0 and Draco-compressed
      // files, which tinygltf does not read, are left to assimp.
      if (!gltf->parsed && !gltf->version1 && !gltf->draco) {
        result.error =
            src.name + ": not a valid glTF 2 file (" + quoted_error(gltf->parse_error) + ")";
        return result;
      }
    }

    install_logger();
    std::vector<std::string> assimp_errors;
    t_assimp_errors = &assimp_errors;
    struct Detach {
      ~Detach() { t_assimp_errors = nullptr; }
    } detach;
    Assimp::Importer importer;
    // BVH, MD5 anims etc. would otherwise get a generated "skeleton mesh": skinview draws
    // skeletons itself, so the meshes are only the file's own.
    importer.SetPropertyBool(AI_CONFIG_IMPORT_NO_SKELETON_MESHES, true);
    // Validation first (it rejects scenes that would crash later steps), except for scenes
    // without meshes (BVH, animation-only files), which it refuses outright. Then only steps
    // that keep vertex count and order: GenSmoothNormals acts on meshes without normals only;
    // Triangulate only splits faces.
    const aiScene* scene = nullptr;
    uint64_t shared = 0;
    {
      SilenceStdio quiet;
      if (src.in_memory()) {
        importer.SetIOHandler(new NoFilesIOSystem());
        const std::string hint = src.ext.empty() ? std::string() : src.ext.substr(1);
        scene = importer.ReadFileFromMemory(src.bytes.data(), src.bytes.size(), 0, hint.c_str());
      } else {
        scene = importer.ReadFile(src.name, 0);
      }
      if (scene) shared = unshare(const_cast<aiScene&>(*scene));
      if (scene && scene->mNumMeshes > 0)
        scene = importer.ApplyPostProcessing(aiProcess_ValidateDataStructure);
      if (scene)
        scene = importer.ApplyPostProcessing(aiProcess_Triangulate | aiProcess_GenSmoothNormals);
    }
    for (const std::string& e : assimp_errors) {
      if (scene && is_malformed_geometry(e)) {
        result.error = src.name + ": malformed geometry (" + quoted_error(e) + ")";
        return result;
      }
    }
    if (!scene) {
      std::string why = importer.GetErrorString();
      if (why.empty())
        why = "assimp could not read the file";
      else if (why == std::bad_alloc().what())
        why = kOutOfMemory;
      else
        why = quoted_error(std::move(why));
      result.error = src.name + ": " + why;
      return result;
    }
    if (scene->mNumMeshes == 0 && scene->mNumAnimations == 0) {
      result.error = src.name + ": empty scene (no meshes and no animations)";
      return result;
    }
    Importer imp(result.report);
    imp.scene = scene;
    imp.name = src.name;
    if (gltf) imp.gltf = &*gltf;
    if (!src.in_memory()) {
      imp.base_dir = std::filesystem::path(src.name).parent_path().string();
      if (imp.base_dir.empty()) imp.base_dir = ".";
    }
    std::string error = imp.run();
    if (!error.empty()) {
      result.error = one_line(error);
      result.report = ImportReport{};
      return result;
    }
    for (const std::string& e : assimp_errors)
      result.report.notes.push_back("assimp: " + quoted_error(e));
    if (shared)
      result.report.notes.push_back(
          "assimp's reader gave " + std::to_string(shared) +
          " object(s) twice (a bone listed twice, a node under two parents, ...); the repeats "
          "were removed.");
    result.model = std::move(imp.model);
  } catch (const std::bad_alloc&) {
    // assimp's readers size arrays by counts read from the file; a corrupt count asks for more
    // memory than there is, and the allocation fails before anything is read.
    result.model.reset();
    result.report = ImportReport{};
    result.error = src.name + ": " + kOutOfMemory;
  } catch (const std::exception& e) {
    result.model.reset();
    result.report = ImportReport{};
    result.error = src.name + ": " + assimp_error_line(e.what());
  } catch (...) {
    result.model.reset();
    result.report = ImportReport{};
    result.error = src.name + ": unknown error while importing";
  }
  return result;
}

}  // namespace

std::string assimp_error_line(std::string message) {
  if (message == std::bad_alloc().what()) return kOutOfMemory;
  return quoted_error(std::move(message));
}

ImportResult convert_scene(const aiScene& scene, const std::string& name) {
  ImportResult result;
  try {
    Importer imp(result.report);
    imp.scene = &scene;
    imp.name = name;
    if (std::string error = imp.run(); !error.empty()) {
      result.error = one_line(error);
      result.report = ImportReport{};
      return result;
    }
    result.model = std::move(imp.model);
  } catch (const std::exception& e) {
    result.model.reset();
    result.report = ImportReport{};
    result.error = name + ": " + one_line(e.what());
  }
  return result;
}

void set_import_silences_stdio(bool on) noexcept { g_silence_stdio.store(on); }

ImportResult import_model(const std::string& path) {
  ImportResult result;
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) {
    result.error = path + ": no such file";
    return result;
  }
  if (std::filesystem::is_directory(path, ec)) {
    result.error = path + ": is a directory, not a model file";
    return result;
  }
  Source src;
  src.name = path;
  src.ext = lower_extension(path);
  src.size = std::filesystem::file_size(path, ec);
  if (ec) src.size = 0;  // not a regular file (a FIFO, ...): assimp decides
  return import_source(src);
}

ImportResult import_model_from_memory(std::span<const uint8_t> bytes, const std::string& hint,
                                      const std::string& name) {
  ImportResult result;
  if (bytes.empty()) {
    result.error = name + ": empty file";
    return result;
  }
  Source src;
  src.name = name;
  src.ext = "." + hint;
  for (char& c : src.ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (src.ext == ".") src.ext.clear();
  src.bytes = bytes;
  src.size = bytes.size();
  return import_source(src);
}

std::vector<std::string> supported_extensions() {
  std::string list;  // "*.3ds;*.obj;..."
  Assimp::Importer().GetExtensionList(list);
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start < list.size()) {
    std::size_t end = list.find(';', start);
    if (end == std::string::npos) end = list.size();
    std::string ext = list.substr(start, end - start);
    start = end + 1;
    if (ext.rfind("*.", 0) == 0) ext.erase(0, 2);
    for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    // Refused before assimp reads it (see import_model): no model in a camera path.
    if (ext.empty() || ext == "md5camera") continue;
    if (std::find(out.begin(), out.end(), ext) == out.end()) out.push_back(std::move(ext));
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace sv
