// Posing a model at one time and writing it as JSON: the `skinview --dump` format that outside
// tools compare against per vertex, so its shape and spaces are a contract:
//
//   {"meshes":[{"name":S, "vertexCount":N, "positions":[x,y,z,...], "normals":[...],
//               "bindPositions":[...]}],
//    "bones":[{"name":S, "worldMatrix":[16 numbers, column-major]}]}
//
// A mesh with morph targets also has "morphTargets":[{"name":S, "defaultWeight":W}] beside its
// bindPositions and "morphWeights":[W per target] beside its positions (the weights the pose
// used; positions and normals are morphed, then skinned: anim/morph.h).
//
// or, for several times, {"meshes":[{"name","vertexCount","bindPositions"}],
// "frames":[{"time":T, "meshes":[{"name","vertexCount","positions","normals"}], "bones":[...]}]}.
//
// positions/normals: skinned (sum w_i * Global(bone_i) * Offset_i * p) in model space, i.e. the
// scene root's parent space with the root node's own transform included. bindPositions: the
// mesh's vertices as stored (assimp's mVertices). Vertices are written in the file's order (the
// Mesh stores them grouped by bone set; Mesh::source_vertex maps back). bones: every skeleton
// joint (node on the path to a bone, mesh or animated node) with its model-space matrix. Numbers
// are written with 9 significant digits (round-trips a float). A pose holding a value that is not
// finite (a float that overflowed to infinity once skinned, or NaN) is refused with where it is,
// before anything is written: never written as 0, never as a token JSON does not have.
#pragma once

#include <cstdint>
#include <ostream>
#include <span>
#include <string>
#include <vector>

#include <glm/mat4x4.hpp>
#include <glm/vec3.hpp>

#include "anim/animator.h"
#include "anim/layer_stack.h"
#include "anim/model.h"
#include "skin/skinned_pose.h"  // SkinChoice

namespace sv {

// The pose of a whole model at one time, copied out of the Animator that posed it.
struct PosedModel {
  std::vector<glm::mat4> joint_model;  // per joint, model space
  // Per mesh, per vertex in the Mesh's own (grouped) order, model space; normals unit length.
  std::vector<std::vector<glm::vec3>> positions;
  std::vector<std::vector<glm::vec3>> normals;
  std::vector<std::vector<float>> morph_weights;  // per mesh, per morph target (after overrides)
};

// Poses `model` with clip `clip` at `time` seconds (clamped into [0, duration]), or with the
// rest transforms of the file when clip < 0, or, with `bind_pose`, every joint where its inverse
// bind matrix puts it (the mesh exactly as stored), through the viewer's own path: an Animator
// (evaluate_pose, build_normal_palette, skin_lbs; anim/animator.h). Returns "" or what went
// wrong.
// `skin` chooses the skinning method (LBS by default; CoR needs its centres there).
std::string pose_model(const Model& model, int clip, double time, PosedModel& out,
                       bool bind_pose = false, const SkinChoice& skin = {});

// Poses the blend `stack` (anim/layer_stack.h) at clock time `time` (seconds >= 0; every clip
// loops), through the same Animator's layer stack. Returns "" or what went wrong.
std::string pose_model(const Model& model, const LayerStack& stack, double time, PosedModel& out,
                       const SkinChoice& skin = {});

// The inverse of Mesh::source_vertex: element k is where the mesh holds the file's vertex k, so
// the file's order is v[order[0]], v[order[1]], ...; empty when the mesh is in the file's order.
// --dump and --export-pose write vertices in this order.
std::vector<uint32_t> file_order(const Mesh& mesh);

struct DumpRequest {
  int clip = -1;              // -1: rest pose (or the bind pose, below)
  std::vector<double> times;  // seconds; at least one
  bool frames = false;        // true: the "frames" form even for one time
  bool bind_pose = false;     // with clip -1: the bind pose instead of the rest pose
  LayerStack blend;           // when blend.blends(): the blend at each time; `clip` is unused
  SkinChoice skin;            // the skinning method (--method); CoR's centres owned by the caller
};

// Writes the JSON above. Returns "" or what went wrong: a pose that cannot be made, or one with a
// value that is not finite (then nothing was written); a failed write (partial output).
std::string write_dump_json(const Model& model, const DumpRequest& request, std::ostream& out);

}  // namespace sv
