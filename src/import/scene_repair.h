// Checking and repairing an aiScene in the import worker, in place of assimp's
// ValidateDataStructure step.
//
// assimp's validator throws at the first thing it dislikes, and running it as a gate refused
// real files that other tools open (B3D characters whose ANIM frame count is one short of
// their keys: "mPositionKeys[220].mTime (221) is larger than mDuration (220)"). skinview runs
// assimp without it and repairs the scene itself, right after assimp's reader and before the
// post-processing steps (triangulation, smooth normals) that would read outside arrays on some
// of those errors. Every error the 5.2.5 validator reports (ValidateDataStructure.cpp; the
// strings are in libassimp.so.5.2.4), and what becomes of it:
//
//   repaired here, before post-processing, and counted in the report:
//     a list entry that is null: an empty object in its place where others index the list
//       (meshes, materials, textures, animations: an empty mesh is then skipped), cut elsewhere
//       (node children, bones, channels, lights, cameras); repeats of one object (a bone listed
//       twice, a node under two parents): likewise (assimp's destructors would free them twice)
//     a face with no indices, a null index array, more than AI_MAX_FACE_INDICES (32,767)
//       indices or an index past the mesh's vertices: dropped
//     mPrimitiveTypes that do not match the faces: recomputed (triangulation trusts them)
//     a mesh with vertices counted but no position array: no vertices (skipped)
//     tangents without bitangents (or the reverse): both dropped (skinview uses neither)
//     a material property that is null, empty, or too short for its type, a string property
//       without its terminator: that material is replaced by the default one
//     a name (aiString) longer than MAXLEN or whose terminator is not at its length: cut at its
//       first NUL (at most 1,023 bytes) and its length set to match
//     a non-root node without its parent pointer: set
//   repaired in the conversion (convert_scene.cpp, convert_clips.cpp), counted in the report:
//     a key time past the clip's duration (+0.001 tick): the duration is extended to the last
//       key -- the B3D case above
//     a mesh's material index past the material list: the default material
//     a bone weight naming a vertex past the mesh: dropped
//     a node's mesh index past the mesh list: ignored
//     an animation channel with no keys: skipped; a clip with no channel: kept, it poses the
//       rest skeleton
//     a null list or array with a non-zero count (mMeshes, mBones, mChannels, key arrays,
//       node mMeshes/mChildren, bone weights): treated as empty
//   refused, by the conversion's limits (io/import.h): more vertices, faces or bone weights
//     than a mesh may have (the validator's AI_MAX_* bounds are looser)
//   not an error for skinview: no mesh at all (skeletons and clips alone are shown); cameras and
//     lights (null, duplicate or nodeless names, clip planes, cone angles), texture format hints,
//     texture index gaps and UV channel indices in materials, texture coordinate or colour
//     channels after an empty one, bones with duplicate names in one mesh (each keeps its own
//     inverse bind), meshes with the same name, morph-mesh channels: skinview reads none of these,
//     or reads them safely as they are.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

struct aiScene;

namespace sv {

struct SceneRepairs {
  uint64_t shared_objects = 0;      // objects reachable twice, cut or replaced
  uint64_t null_entries = 0;        // null list entries, cut or replaced by empty objects
  uint64_t faces_dropped = 0;       // faces without indices or with indices out of range
  uint64_t primitive_types = 0;     // meshes whose mPrimitiveTypes were recomputed
  uint64_t positions_missing = 0;   // meshes with a vertex count but no positions
  uint64_t tangents_dropped = 0;    // meshes with tangents or bitangents alone
  uint64_t materials_replaced = 0;  // materials with malformed properties
  uint64_t names_repaired = 0;      // aiStrings cut or their length fixed
  uint64_t parents_set = 0;         // nodes whose parent pointer was missing
  std::vector<std::string> notes;   // one line per kind of repair made
};

// Repairs `scene` in place (see above). Never throws; allocates only what it replaces.
SceneRepairs repair_scene(aiScene& scene);

}  // namespace sv
