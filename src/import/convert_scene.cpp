// aiScene -> sv::Model, first half: the node walk, the skeleton, the meshes (laid out for
// skinning) and the materials. convert_clips.cpp does the clips; scene_converter.h holds the
// state both share and says how the skeleton is chosen. Runs in the import worker only.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <exception>
#include <filesystem>
#include <span>
#include <string>
#include <unordered_set>
#include <utility>
#include <vector>

#include <assimp/material.h>
#include <assimp/scene.h>

#include <glm/gtc/matrix_inverse.hpp>
#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/quaternion.hpp>
#include <glm/mat3x3.hpp>
#include <glm/mat4x4.hpp>

#include "anim/finite.h"
#include "import/convert.h"
#include "import/scene_converter.h"
#include "skin/compact_streams.h"
#include "skin/weight_stats.h"

namespace sv {
namespace {

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

bool matches(const Transform& t, const glm::dmat4& m) {
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

struct Influence {
  float weight;
  uint16_t bone;
};

// "1e-4": a tolerance as the notes name it.
std::string tolerance_text(double tolerance) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%g", tolerance);
  return buf;
}

std::string percent_text(float share) {
  char text[32];
  std::snprintf(text, sizeof(text), "%.1f%%", 100.0 * static_cast<double>(share));
  return text;
}

// The 5th-8th largest of a vertex's influences (sorted by weight, largest first; more than 4 of
// them) into the mesh's second set, and the share of `total` the 4-limit cuts (anim/model.h).
// The streams are made on the mesh's first vertex with more than 4, so a mesh within the limit
// has none.
void keep_influences8(std::span<const Influence> inf, double total, std::size_t v, Mesh& mesh) {
  const std::size_t n = mesh.positions.size();
  if (mesh.joints2.empty()) {
    mesh.joints2.assign(n, glm::u16vec4(0));
    mesh.weights2.assign(n, glm::vec4(0.0f));
    mesh.cut_weights.assign(n, 0.0f);
  }
  const std::size_t kept = std::min<std::size_t>(inf.size(), 8);
  double top8 = 0.0, cut = 0.0;
  for (std::size_t k = 0; k < kept; ++k) top8 += inf[k].weight;
  for (std::size_t k = 4; k < inf.size(); ++k) cut += inf[k].weight;
  for (std::size_t k = 4; k < kept; ++k) {
    mesh.weights2[v][static_cast<int>(k - 4)] = static_cast<float>(inf[k].weight / top8);
    mesh.joints2[v][static_cast<int>(k - 4)] = inf[k].bone;
  }
  mesh.cut_weights[v] = static_cast<float>(std::min(1.0, cut / total));
}

}  // namespace

glm::dmat4 to_dmat4(const aiMatrix4x4& a) {
  glm::dmat4 m(1.0);
  for (int r = 0; r < 4; ++r)
    for (int c = 0; c < 4; ++c) m[c][r] = a[r][c];
  return m;
}

int SceneConverter::node_named(const std::string& name) const {
  auto it = node_by_name.find(name);
  return it == node_by_name.end() ? -1 : it->second;
}

int SceneConverter::joint_named(const std::string& name) const {
  const int node = node_named(name);
  return node < 0 ? -1 : node_joint[static_cast<std::size_t>(node)];
}

std::string SceneConverter::walk_nodes() {
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
    if (nodes.size() >= kMaxNodes) return fail("more than " + std::to_string(kMaxNodes) + " nodes");
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

std::string SceneConverter::find_mesh_nodes() {
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
    // Something to draw: a triangle, a line or a point, or vertices with no faces at all (a point
    // cloud: assimp's OBJ reader returns a file of bare vertices so).
    bool drawable = false;
    if (mesh && mesh->mVertices && mesh->mNumVertices > 0) {
      drawable = mesh->mNumFaces == 0 || !mesh->mFaces;
      for (unsigned f = 0; mesh->mFaces && f < mesh->mNumFaces && !drawable; ++f)
        drawable = mesh->mFaces[f].mNumIndices >= 1 && mesh->mFaces[f].mNumIndices <= 3;
    }
    if (!drawable) {
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

std::string SceneConverter::build_skeleton() {
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

std::string SceneConverter::build_mesh(unsigned index,
                                       std::vector<uint8_t>& inverse_bind_from_bone) {
  const aiMesh* src = scene->mMeshes[index];
  Mesh mesh;
  mesh.name = src->mName.C_Str();
  // How the report names it: "Mesh 'body'", or "Mesh 2 (no name)" rather than "Mesh ''".
  const std::string label = mesh.name.empty() ? "Mesh " + std::to_string(index) + " (no name)"
                                              : "Mesh '" + mesh.name + "'";
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
  for (unsigned f = 0; src->mFaces && f < src->mNumFaces; ++f) {
    const aiFace& face = src->mFaces[f];
    const unsigned k = face.mNumIndices;
    if (k < 1 || k > 3 || !face.mIndices) continue;  // polygons are triangulated already
    bool in_range = true;
    for (unsigned i = 0; i < k; ++i) in_range = in_range && face.mIndices[i] < nv;
    if (!in_range) {
      ++faces_dropped;
      continue;
    }
    // Triangles, and the lines and points the file holds besides (drawn as such).
    Stream<uint32_t>& to = k == 3 ? mesh.indices : k == 2 ? mesh.line_indices : mesh.point_indices;
    to.insert(to.end(), face.mIndices, face.mIndices + k);
  }
  if (src->mNumFaces == 0 || !src->mFaces) {
    // Bare vertices: a point cloud, every vertex a point.
    mesh.point_indices.resize(nv);
    for (std::size_t v = 0; v < nv; ++v) mesh.point_indices[v] = static_cast<uint32_t>(v);
  }
  if (!mesh.line_indices.empty() || !mesh.point_indices.empty())
    report.notes.push_back(label + ": " + std::to_string(mesh.line_indices.size() / 2) +
                           " line(s) and " + std::to_string(mesh.point_indices.size()) +
                           " point(s) besides " + std::to_string(mesh.indices.size() / 3) +
                           " triangle(s), drawn as lines and points in the mesh's colour.");
  if (faces_dropped) {
    report.faces_dropped += faces_dropped;
    report.notes.push_back(label + ": " + std::to_string(faces_dropped) +
                           " face(s) named a vertex past the mesh's end and were dropped.");
  }
  if (bad_values) {
    report.non_finite_values += bad_values;
    report.notes.push_back(label + ": " + std::to_string(bad_values) +
                           " vertex position(s) held NaN/Inf and were set to 0.");
  }

  if (std::string e = build_morph_targets(*src, mesh); !e.empty()) return e;

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
  // Each vertex's influences in one flat array, vertex v's from first[v] to first[v + 1], in the
  // file's order (bone by bone): counted, then filled. A vector per vertex cost a 1M-vertex mesh
  // a few million allocations (BENCHMARKS.md round 24).
  std::vector<int32_t> bone_skin_index(src->mNumBones, -1);  // -1: dropped
  uint64_t bones_dropped = 0;
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
      return fail(label + " binds more than 65535 bones");
    const auto skin_index = static_cast<uint16_t>(mesh.skin_joints.size());
    mesh.skin_joints.push_back(joint);
    mesh.inverse_bind.push_back(offset);
    model.skeleton.is_bone[joint] = 1;
    if (!inverse_bind_from_bone[joint]) {
      inverse_bind_from_bone[joint] = 1;
      model.skeleton.inverse_bind[joint] = offset;
    }
    bone_skin_index[b] = skin_index;
  }
  // A weight kept: finite, in [0, kHugeWeight] but not 0, on a vertex of the mesh.
  const auto kept_weight = [nv](const aiVertexWeight& vw) {
    return std::isfinite(vw.mWeight) && vw.mVertexId < nv && vw.mWeight > 0.0f &&
           vw.mWeight <= kHugeWeight;
  };
  std::vector<uint32_t> first(nv + 1, 0);
  uint64_t weights_invalid = 0;
  for (unsigned b = 0; b < src->mNumBones; ++b) {
    if (bone_skin_index[b] < 0) continue;
    const aiBone* bone = src->mBones[b];
    for (unsigned w = 0; w < bone->mNumWeights; ++w) {
      const aiVertexWeight& vw = bone->mWeights[w];
      if (kept_weight(vw)) {
        ++first[vw.mVertexId + 1];
      } else if (!std::isfinite(vw.mWeight)) {
        ++weights_nonfinite;
      } else if (vw.mVertexId >= nv || vw.mWeight < 0.0f || vw.mWeight > kHugeWeight) {
        ++weights_invalid;
      }
    }
  }
  for (std::size_t v = 0; v < nv; ++v) first[v + 1] += first[v];
  std::vector<Influence> influences(first[nv]);
  {
    std::vector<uint32_t> next(first.begin(), first.end() - 1);
    for (unsigned b = 0; b < src->mNumBones; ++b) {
      if (bone_skin_index[b] < 0) continue;
      const aiBone* bone = src->mBones[b];
      const auto skin_index = static_cast<uint16_t>(bone_skin_index[b]);
      for (unsigned w = 0; w < bone->mNumWeights; ++w) {
        const aiVertexWeight& vw = bone->mWeights[w];
        if (kept_weight(vw)) influences[next[vw.mVertexId]++] = {vw.mWeight, skin_index};
      }
    }
  }
  report.bones_without_node += bones_dropped;
  if (bones_dropped)
    report.notes.push_back(label + ": " + std::to_string(bones_dropped) +
                           " bone(s) name no node; their weights were dropped.");
  if (weights_invalid)
    report.notes.push_back(label + ": " + std::to_string(weights_invalid) +
                           " weight(s) were negative, huge or named no vertex and were dropped.");

  int rigid_bone = -1;  // skin index of the mesh's own node, for vertices left unweighted
  uint64_t truncated = 0, renormalised = 0, unweighted = 0, over_8 = 0;
  // Of the renormalised, those off by more than the weight-sum view's tolerance.
  uint64_t off_in_view = 0;
  for (std::size_t v = 0; v < nv; ++v) {
    std::span<Influence> inf(influences.data() + first[v], first[v + 1] - first[v]);
    mesh.max_influences = std::max(mesh.max_influences, static_cast<uint32_t>(inf.size()));
    if (inf.empty()) {
      if (rigid_bone < 0) {
        if (mesh.skin_joints.size() >= kMaxSkinBones)
          return fail(label + " binds more than 65535 bones");
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
    // Largest first, equal weights in the file's order: an insertion sort (stable) of the few
    // (std::stable_sort asked for a buffer per vertex).
    for (std::size_t i = 1; i < inf.size(); ++i) {
      const Influence x = inf[i];
      std::size_t k = i;
      for (; k > 0 && inf[k - 1].weight < x.weight; --k) inf[k] = inf[k - 1];
      inf[k] = x;
    }
    double total = 0.0;
    for (const Influence& i : inf) total += i.weight;
    mesh.source_weight_sums[v] = static_cast<float>(total);
    if (std::abs(total - 1.0) > kRenormaliseTolerance) {
      mesh.vertex_flags[v] |= kVertexRenormalised;
      ++renormalised;
      if (std::abs(static_cast<float>(total) - 1.0f) > kWeightSumTolerance) ++off_in_view;
    }
    if (inf.size() > 4) {
      mesh.vertex_flags[v] |= kVertexTruncated;
      ++truncated;
      report.largest_dropped_weight =
          std::max(report.largest_dropped_weight, static_cast<double>(inf[4].weight));
      keep_influences8(inf, total, v, mesh);
      if (inf.size() > 8) {
        mesh.vertex_flags[v] |= kVertexOver8;
        ++over_8;
      }
      report.largest_cut_weight =
          std::max(report.largest_cut_weight, static_cast<double>(mesh.cut_weights[v]));
      inf = inf.first(4);
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
  report.vertices_over_8_influences += over_8;
  report.vertices_renormalised += renormalised;
  report.vertices_unweighted += unweighted;
  if (truncated)
    report.notes.push_back(
        label + ": " + std::to_string(truncated) + " vertices had more than 4 influences (up to " +
        std::to_string(mesh.max_influences) + "): " + std::to_string(truncated - over_8) +
        " had 5-8, " + std::to_string(over_8) +
        " more than 8; the 4 largest were kept and renormalised (the 8 "
        "largest with --influences 8); the most cut from one vertex was " +
        percent_text(*std::max_element(mesh.cut_weights.begin(), mesh.cut_weights.end())) +
        " of its weight.");
  if (renormalised)
    report.notes.push_back(label + ": " + std::to_string(renormalised) +
                           " vertices had weights whose sum was off 1 by more than " +
                           tolerance_text(kRenormaliseTolerance) + "; renormalised (" +
                           std::to_string(off_in_view) + " of them by more than " +
                           tolerance_text(kWeightSumTolerance) +
                           ", the weight-sum view's tolerance).");
  if (unweighted)
    report.notes.push_back(label + ": " + std::to_string(unweighted) +
                           " vertices had no weight; bound rigidly to the mesh's node.");
  model.meshes.push_back(std::move(mesh));
  return {};
}

std::string SceneConverter::build_meshes() {
  std::vector<uint8_t> inverse_bind_from_bone(model.skeleton.size(), 0);
  model_mesh_of.assign(scene->mNumMeshes, -1);
  for (unsigned m = 0; m < scene->mNumMeshes; ++m) {
    if (!mesh_kept[m]) continue;
    model_mesh_of[m] = static_cast<int>(model.meshes.size());
    std::string error = build_mesh(m, inverse_bind_from_bone);
    if (!error.empty()) return error;
  }
  if (report.meshes_skipped)
    report.notes.push_back(std::to_string(report.meshes_skipped) +
                           " mesh(es) had nothing to draw (no vertices, or only faces of more than "
                           "3 corners) and were skipped.");
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

void SceneConverter::build_materials() {
  TextureLoader textures(image_rules, model, report);
  for (unsigned i = 0; i < scene->mNumMaterials; ++i) {
    const aiMaterial* src = scene->mMaterials ? scene->mMaterials[i] : nullptr;
    Material mat;
    if (src) {
      aiString name;
      if (src->Get(AI_MATKEY_NAME, name) == AI_SUCCESS) mat.name = name.C_Str();
      // assimp's glTF 2 importer always writes TWOSIDED from doubleSided (default false).
      if (int two_sided = 1; gltf_file && src->Get(AI_MATKEY_TWOSIDED, two_sided) == AI_SUCCESS)
        mat.double_sided = two_sided != 0;
      aiColor4D color;
      if (src->Get(AI_MATKEY_BASE_COLOR, color) == AI_SUCCESS ||
          src->Get(AI_MATKEY_COLOR_DIFFUSE, color) == AI_SUCCESS) {
        glm::vec4 c(color.r, color.g, color.b, color.a);
        if (std::isfinite(c.r) && std::isfinite(c.g) && std::isfinite(c.b) && std::isfinite(c.a))
          mat.base_color = c;
      }
      aiString tex;
      if ((src->GetTexture(aiTextureType_BASE_COLOR, 0, &tex) == AI_SUCCESS ||
           src->GetTexture(aiTextureType_DIFFUSE, 0, &tex) == AI_SUCCESS) &&
          tex.length > 0) {
        mat.texture_name = tex.C_Str();
        // Decoded here, in the worker, under its limits (images.h); the parent gets pixels.
        if (const aiTexture* embedded = scene->GetEmbeddedTexture(tex.C_Str())) {
          const std::string key =
              "embedded:" + std::to_string(reinterpret_cast<uintptr_t>(embedded));
          const auto* bytes = reinterpret_cast<const uint8_t*>(embedded->pcData);
          if (!bytes) {
            mat.image = textures.from_bytes({}, "", key, mat.texture_name, mat.name);
          } else if (embedded->mHeight == 0) {
            // Compressed: mWidth is its size in bytes, achFormatHint its extension.
            std::string hint(embedded->achFormatHint,
                             strnlen(embedded->achFormatHint, sizeof embedded->achFormatHint));
            mat.image = textures.from_bytes(std::span<const uint8_t>(bytes, embedded->mWidth), hint,
                                            key, mat.texture_name, mat.name);
          } else {
            const uint64_t texels = uint64_t{embedded->mWidth} * embedded->mHeight;
            mat.image = texels <= kMaxImagePixels
                            ? textures.from_bgra(embedded->mWidth, embedded->mHeight,
                                                 std::span<const uint8_t>(bytes, 4 * texels), key,
                                                 mat.texture_name, mat.name)
                            : textures.from_bgra(embedded->mWidth, embedded->mHeight, {}, key,
                                                 mat.texture_name, mat.name);
          }
        } else {
          mat.image = textures.from_file(mat.texture_name, mat.name);
        }
      }
    }
    model.materials.push_back(std::move(mat));
  }
  textures.finish();
  texture_files = textures.files_read();
}

std::string SceneConverter::nothing_to_show() const {
  if (report.meshes_skipped == 0) return "nothing to show (no meshes and no animations)";
  return "nothing to show (" + std::to_string(report.meshes_skipped) +
         " mesh(es) hold no vertices to draw; no animations)";
}

std::string SceneConverter::run() {
  if (!scene->mRootNode) return fail("empty scene (no root node)");
  if (std::string e = walk_nodes(); !e.empty()) return e;
  if (std::string e = find_mesh_nodes(); !e.empty()) return e;
  if (std::string e = build_skeleton(); !e.empty()) return e;
  if (model.skeleton.size() == 0) return fail(nothing_to_show());
  if (std::string e = build_meshes(); !e.empty()) return e;
  nonfinite_before_clips = report.non_finite_values;
  if (std::string e = build_clips(); !e.empty()) return e;
  if (gltf) apply_gltf_samplers();
  note_key_repairs();
  if (std::string e = build_morph_clips(); !e.empty()) return e;
  if (std::string e = build_runtime_clips(); !e.empty()) return e;
  build_materials();
  if (model.meshes.empty() && model.clips.empty()) return fail(nothing_to_show());
  // The compact streams, once, here where the float streams are final (the worker's CPU and its
  // limits, not the viewer's on every open: model format 12, BENCHMARKS.md round 25). One thread:
  // the worker starts none.
  for (Mesh& mesh : model.meshes) store_compact(mesh);
  if (std::string e = model.validate(); !e.empty()) return fail("invalid data: " + e);
  return {};
}

double file_unit_metres(const aiScene& scene, const std::string& ext) {
  if (ext == ".gltf" || ext == ".glb")
    return 1.0;                   // glTF 2.0: "the units for all linear
                                  // distances are meters"
  if (ext == ".dae") return 1.0;  // assimp scales the root by <unit meter> (default 1)
  if (ext != ".fbx" || scene.mMetaData == nullptr) return 0.0;
  // FBX: GlobalSettings' UnitScaleFactor, centimetres per unit (1: centimetres, 100: metres).
  double factor = 0.0;
  if (float f = 0.0f; scene.mMetaData->Get("UnitScaleFactor", f)) {
    factor = f;
  } else if (double d = 0.0; scene.mMetaData->Get("UnitScaleFactor", d)) {
    factor = d;
  }
  return std::isfinite(factor) && factor > 0.0 && factor < 1e9 ? factor * 0.01 : 0.0;
}

ImportResult convert_scene(const aiScene& scene, const std::string& name) {
  ImportResult result;
  try {
    SceneConverter imp(result.report);
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

}  // namespace sv
