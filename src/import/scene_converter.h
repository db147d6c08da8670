// SceneConverter: the state of one aiScene -> sv::Model conversion, shared by its two halves:
// the node walk, skeleton, meshes and materials (convert_scene.cpp) and the clips
// (convert_clips.cpp). Internal to src/import; convert_scene() (convert.h) is the entry point.
//
// Skeleton: every node on the path from the scene root to a bone node, a mesh node or an
// animated node, parents first in depth-first order. Node names are resolved to the first node
// of that name in depth-first order. "Model space" is the scene root's parent space: the root
// node's own transformation is the root joint's rest transform.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include <assimp/scene.h>

#include <glm/mat4x4.hpp>

#include "anim/model.h"
#include "import/convert.h"
#include "import/images.h"
#include "io/import.h"

namespace sv {

// assimp is row-major with translation in a4,b4,c4; glm is column-major: m[col][row].
glm::dmat4 to_dmat4(const aiMatrix4x4& a);

struct SceneConverter {
  const aiScene* scene = nullptr;
  std::string name;  // the file's path, or the label of a file held in memory
  // Where textures may be read from and the pixel budget (images.h); image_rules.model_dir is
  // the folder texture paths are relative to, empty for a model held in memory.
  ImageRules image_rules;
  std::vector<std::string> texture_files;  // texture files read (real paths), for provenance
  // glTF only: the file as tinygltf read it (its STEP/CUBICSPLINE samplers replace assimp's
  // linear keys).
  GltfSidecar* gltf = nullptr;
  // The file is glTF (.gltf/.glb, 1 or 2): its materials' single-sidedness means back-face
  // culling (glTF 2.0 "doubleSided"), so TWOSIDED is read into Material::double_sided. Other
  // formats leave it true: assimp sets TWOSIDED false for Collada and others by default, though
  // their files said nothing about culling.
  bool gltf_file = false;
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
  std::vector<int> model_mesh_of;      // per aiMesh: its index in model.meshes, or -1
  std::vector<int> clip_of_animation;  // per aiAnimation: its index in `clips`, or -1 (refused)
  // Morph targets (convert_morphs.cpp): what was repaired, for the report.
  uint64_t morph_targets_mismatched = 0;  // anim meshes whose vertex count is not the mesh's
  uint64_t morph_values_nonfinite = 0;    // deltas or weights with NaN/Inf: set to 0 / dropped
  std::size_t morph_deltas = 0;           // target-vertex pairs so far (kMaxMorphDeltasTotal)

  explicit SceneConverter(ImportReport& r) : report(r) {}

  std::string fail(const std::string& reason) const { return name + ": " + reason; }
  // First node named `name` (depth-first), or -1.
  int node_named(const std::string& name) const;
  int find_node(const aiString& name) const { return node_named(std::string(name.C_Str())); }
  // Joint of glTF node `name` (assimp names unnamed glTF nodes by their id), or -1.
  int joint_named(const std::string& name) const;

  // The whole conversion: "" or the error line. Each step below returns the same.
  std::string run();
  // Why a scene with nothing to draw or play is refused.
  std::string nothing_to_show() const;

  // convert_scene.cpp
  std::string walk_nodes();
  std::string find_mesh_nodes();
  std::string build_skeleton();
  std::string build_mesh(unsigned index, std::vector<uint8_t>& inverse_bind_from_bone);
  std::string build_meshes();
  void build_materials();

  // convert_morphs.cpp: the anim meshes of `src` as deltas into mesh.morph_targets (in the
  // file's vertex order: build_mesh lays them out with the other streams), and the morph weight
  // channels of every clip into model.morph_clips (extending clip durations to their keys).
  std::string build_morph_targets(const aiMesh& src, Mesh& mesh);
  std::string build_morph_clips();
  // glTF: every weights channel as the file stores it (GltfSidecar::weights) replaces assimp's
  // track for the meshes on its node. True when any was applied.
  bool apply_gltf_weights(std::vector<MorphClip>& morph);

  // convert_clips.cpp
  std::string build_clips();
  void apply_gltf_samplers();
  void note_key_repairs();
  // The one place the importer's raw clips become runtime clips (the builder,
  // ClipRuntime::build): nothing after import sees a Clip.
  std::string build_runtime_clips();
};

}  // namespace sv
