#include "import/scene_repair.h"

#include <assimp/anim.h>
#include <assimp/material.h>
#include <assimp/mesh.h>
#include <assimp/scene.h>
#include <assimp/texture.h>

#include <cstring>
#include <string>
#include <unordered_set>
#include <vector>

namespace sv {
namespace {

// An empty object of each kind that a list may hold in place of a null or repeated entry.
template <class T>
T* empty_object() {
  return new T();
}

// assimp's readers can hand back a scene in which one object is reachable twice: the FBX reader
// lists a bone twice in aiMesh::mBones when a skin link is broken; a corrupt node graph puts a
// node under two parents or under itself. assimp's own destructors then free it twice. Every
// repeated pointer a destructor would free is cleared: cut from a list whose order nothing
// refers to (node children, bones, channels, lights, cameras), replaced by an empty object in a
// list that others index (meshes by nodes, materials by meshes, textures by "*N" names,
// animations by glTF's track overrides). Null entries of the indexed lists become empty objects
// too; a null list with a count becomes an empty list.
struct Unsharer {
  std::unordered_set<const void*> seen;
  SceneRepairs& r;

  // Clears `p` when it was seen before; true if it stays.
  template <class T>
  bool keep(T*& p) {
    if (!p) return false;
    if (seen.insert(p).second) return true;
    p = nullptr;
    ++r.shared_objects;
    return false;
  }
  // A list nothing indexes: nulls and repeats are cut.
  template <class T>
  void compact(T**& items, unsigned& count) {
    if (!items) count = 0;
    unsigned kept = 0;
    for (unsigned i = 0; i < count; ++i) {
      if (!items[i]) ++r.null_entries;
      if (keep(items[i])) items[kept++] = items[i];
    }
    count = kept;
  }
  // A list others index: nulls and repeats become empty objects.
  template <class T>
  void fill(T**& items, unsigned& count) {
    if (!items) count = 0;
    for (unsigned i = 0; i < count; ++i) {
      const bool was_null = items[i] == nullptr;
      if (!keep(items[i])) {
        items[i] = empty_object<T>();
        seen.insert(items[i]);
        if (was_null) ++r.null_entries;
      }
    }
  }

  void run(aiScene& scene) {
    if (scene.mRootNode) {
      std::vector<aiNode*> stack{scene.mRootNode};
      seen.insert(scene.mRootNode);
      while (!stack.empty()) {
        aiNode* node = stack.back();
        stack.pop_back();
        compact(node->mChildren, node->mNumChildren);
        for (unsigned i = 0; i < node->mNumChildren; ++i) {
          if (!node->mChildren[i]->mParent) {
            node->mChildren[i]->mParent = node;
            ++r.parents_set;
          }
          stack.push_back(node->mChildren[i]);
        }
      }
    }
    fill(scene.mMeshes, scene.mNumMeshes);
    for (unsigned m = 0; m < scene.mNumMeshes; ++m) {
      aiMesh* mesh = scene.mMeshes[m];
      keep(mesh->mVertices);
      keep(mesh->mNormals);
      keep(mesh->mTangents);
      keep(mesh->mBitangents);
      for (auto*& uv : mesh->mTextureCoords) keep(uv);
      for (auto*& c : mesh->mColors) keep(c);
      keep(mesh->mFaces);
      compact(mesh->mBones, mesh->mNumBones);
      for (unsigned b = 0; b < mesh->mNumBones; ++b)
        if (aiBone* bone = mesh->mBones[b]; !keep(bone->mWeights)) bone->mNumWeights = 0;
    }
    fill(scene.mMaterials, scene.mNumMaterials);
    fill(scene.mAnimations, scene.mNumAnimations);
    for (unsigned a = 0; a < scene.mNumAnimations; ++a) {
      aiAnimation* anim = scene.mAnimations[a];
      compact(anim->mChannels, anim->mNumChannels);
      for (unsigned c = 0; c < anim->mNumChannels; ++c) {
        aiNodeAnim* ch = anim->mChannels[c];
        if (!keep(ch->mPositionKeys)) ch->mNumPositionKeys = 0;
        if (!keep(ch->mRotationKeys)) ch->mNumRotationKeys = 0;
        if (!keep(ch->mScalingKeys)) ch->mNumScalingKeys = 0;
      }
    }
    fill(scene.mTextures, scene.mNumTextures);
    compact(scene.mLights, scene.mNumLights);
    compact(scene.mCameras, scene.mNumCameras);
  }
};

// Cuts a name at its first NUL (at most MAXLEN - 1 bytes) and makes its length match.
void repair_name(aiString& s, SceneRepairs& r) {
  const void* nul = std::memchr(s.data, '\0', MAXLEN);
  const std::size_t len = nul ? static_cast<std::size_t>(static_cast<const char*>(nul) - s.data)
                              : std::size_t{MAXLEN - 1};
  if (!nul || s.length != len) {
    s.data[len] = '\0';
    s.length = static_cast<ai_uint32>(len);
    ++r.names_repaired;
  }
}

void repair_names(aiScene& scene, SceneRepairs& r) {
  if (scene.mRootNode) {
    std::vector<aiNode*> stack{scene.mRootNode};
    while (!stack.empty()) {
      aiNode* node = stack.back();
      stack.pop_back();
      repair_name(node->mName, r);
      for (unsigned i = 0; i < node->mNumChildren; ++i) stack.push_back(node->mChildren[i]);
    }
  }
  for (unsigned m = 0; m < scene.mNumMeshes; ++m) {
    aiMesh* mesh = scene.mMeshes[m];
    repair_name(mesh->mName, r);
    for (unsigned b = 0; b < mesh->mNumBones; ++b) repair_name(mesh->mBones[b]->mName, r);
  }
  for (unsigned a = 0; a < scene.mNumAnimations; ++a) {
    aiAnimation* anim = scene.mAnimations[a];
    repair_name(anim->mName, r);
    for (unsigned c = 0; c < anim->mNumChannels; ++c) repair_name(anim->mChannels[c]->mNodeName, r);
  }
  for (unsigned t = 0; t < scene.mNumTextures; ++t) repair_name(scene.mTextures[t]->mFilename, r);
}

// Faces the post-processing steps and the conversion can read: indices present, 1 to
// AI_MAX_FACE_INDICES of them, each naming a vertex of the mesh. The others are dropped; the
// primitive types are recomputed from what is left.
void repair_faces(aiMesh& mesh, SceneRepairs& r) {
  if (!mesh.mVertices && mesh.mNumVertices > 0) {
    // Nothing to index: every face goes, and so do the per-vertex counts (smooth normals would
    // read the missing positions).
    mesh.mNumVertices = 0;
    ++r.positions_missing;
  }
  if (!mesh.mFaces) mesh.mNumFaces = 0;
  unsigned kept = 0, types = 0;
  for (unsigned f = 0; f < mesh.mNumFaces; ++f) {
    aiFace& face = mesh.mFaces[f];
    bool good =
        face.mIndices != nullptr && face.mNumIndices > 0 && face.mNumIndices <= AI_MAX_FACE_INDICES;
    for (unsigned i = 0; good && i < face.mNumIndices; ++i)
      good = face.mIndices[i] < mesh.mNumVertices;
    if (!good) {
      ++r.faces_dropped;
      continue;
    }
    types |= face.mNumIndices == 1   ? aiPrimitiveType_POINT
             : face.mNumIndices == 2 ? aiPrimitiveType_LINE
             : face.mNumIndices == 3 ? aiPrimitiveType_TRIANGLE
                                     : aiPrimitiveType_POLYGON;
    if (kept != f) {
      aiFace& to = mesh.mFaces[kept];
      delete[] to.mIndices;  // a dropped face's indices, or null
      to.mIndices = face.mIndices;
      to.mNumIndices = face.mNumIndices;
      face.mIndices = nullptr;
      face.mNumIndices = 0;
    }
    ++kept;
  }
  // The array keeps its length (assimp frees it with delete[]); the count shrinks. Faces past the
  // count hold no indices.
  for (unsigned f = kept; f < mesh.mNumFaces; ++f) {
    delete[] mesh.mFaces[f].mIndices;
    mesh.mFaces[f].mIndices = nullptr;
    mesh.mFaces[f].mNumIndices = 0;
  }
  mesh.mNumFaces = kept;
  // A kind of face the mesh has but does not flag makes triangulation skip it (the validator's
  // error); flags for kinds it lacks are harmless and stay, as do other bits (NGON encoding).
  if ((mesh.mPrimitiveTypes & types) != types) {
    mesh.mPrimitiveTypes |= types;
    ++r.primitive_types;
  }
}

void repair_tangents(aiMesh& mesh, SceneRepairs& r) {
  if ((mesh.mTangents == nullptr) == (mesh.mBitangents == nullptr)) return;
  delete[] mesh.mTangents;
  delete[] mesh.mBitangents;
  mesh.mTangents = mesh.mBitangents = nullptr;
  ++r.tangents_dropped;
}

// Whether every property of `m` can be read safely by aiMaterial::Get (the validator's checks).
bool readable(const aiMaterial& m) {
  if (m.mNumProperties > 0 && !m.mProperties) return false;
  for (unsigned i = 0; i < m.mNumProperties; ++i) {
    const aiMaterialProperty* p = m.mProperties[i];
    if (!p || !p->mData || p->mDataLength == 0) return false;
    switch (p->mType) {
      case aiPTI_String: {
        if (p->mDataLength < 5) return false;
        uint32_t len = 0;
        std::memcpy(&len, p->mData, 4);
        if (uint64_t{4} + len + 1 > p->mDataLength || p->mData[p->mDataLength - 1] != '\0')
          return false;
        break;
      }
      case aiPTI_Float:
      case aiPTI_Integer:
        if (p->mDataLength < 4) return false;
        break;
      case aiPTI_Double:
        if (p->mDataLength < 8) return false;
        break;
      default:
        break;
    }
  }
  return true;
}

void plural_note(SceneRepairs& r, uint64_t n, const std::string& text) {
  if (n) r.notes.push_back(std::to_string(n) + " " + text);
}

}  // namespace

SceneRepairs repair_scene(aiScene& scene) {
  SceneRepairs r;
  Unsharer{{}, r}.run(scene);
  repair_names(scene, r);
  for (unsigned m = 0; m < scene.mNumMeshes; ++m) {
    repair_faces(*scene.mMeshes[m], r);
    repair_tangents(*scene.mMeshes[m], r);
  }
  for (unsigned i = 0; i < scene.mNumMaterials; ++i) {
    if (readable(*scene.mMaterials[i])) continue;
    delete scene.mMaterials[i];
    scene.mMaterials[i] = new aiMaterial();
    ++r.materials_replaced;
  }
  plural_note(r, r.shared_objects,
              "object(s) were given twice by assimp's reader (a bone listed twice, a node under "
              "two parents, ...); the repeats were removed.");
  plural_note(r, r.null_entries,
              "entries of the scene's lists (nodes, meshes, bones, materials, clips, ...) were "
              "missing: skipped, or empty ones stand in for them where others refer to them.");
  plural_note(r, r.faces_dropped,
              "face(s) had no indices, too many, or indices past their mesh's vertices; they "
              "were dropped.");
  plural_note(r, r.primitive_types,
              "mesh(es) declared primitive types their faces do not have; recomputed.");
  plural_note(r, r.positions_missing,
              "mesh(es) counted vertices but held no positions; they were skipped.");
  plural_note(r, r.tangents_dropped,
              "mesh(es) had tangents without bitangents or the reverse; both were dropped "
              "(skinview uses neither).");
  plural_note(r, r.materials_replaced,
              "material(s) held malformed properties; the default material stands in for them.");
  plural_note(r, r.names_repaired,
              "name(s) were longer than assimp allows or not terminated where their length "
              "says; cut at their end.");
  plural_note(r, r.parents_set, "node(s) had no parent pointer; set.");
  return r;
}

}  // namespace sv
