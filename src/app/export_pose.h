// --export-pose OUT.glb: the skinned mesh at one time (clip, rest or bind pose, or a --layer /
// --crossfade blend; --method's skinning), written as a static glTF 2.0 binary that other tools
// open as a plain mesh.
//
// The pose comes from pose_model (io/dump.h), the path --dump writes, so the file's positions and
// normals are --dump's at the same options, vertex for vertex: vertices are written in the
// file's order (Mesh::source_vertex undone) and triangles renumbered to match. Each mesh becomes
// one node with no transform, its positions in model space as --dump's are; a file the viewer
// shows Z-up (SMD, MD5, or --up z) gets a root node turning it upright, so a Y-up glTF viewer
// shows what skinview shows. Materials keep their name, base colour and base-colour texture
// (the pixels the import worker decoded, encoded again as PNG: only images loaded under the
// import's rules are embedded, never a file's bytes), with metallic 0 and
// roughness 1, the plain diffuse look of the viewer's shading; UVs are kept. Nothing else (no
// skeleton, weights or animation): the result is the deformed shape, frozen.
//
// --export-pose-skinned keeps the rig with the pose as its new rest pose, for a rigger who wants
// to go on from the pose: every joint becomes a node (its posed local transform as TRS; nodes
// 0 .. joints - 1 in the skeleton's order), each mesh gets a skin over its bones with inverse
// bind matrices of the posed joints, and JOINTS_0 / WEIGHTS_0 are the mesh's (four influences,
// renormalised, as the viewer skins; with --influences 8, JOINTS_1 / WEIGHTS_1 carry the 5th-8th
// where the file has them). The positions are still the posed ones, so at the file's
// rest pose every palette entry is the identity: opened again (skinview --rest-pose, or any glTF
// viewer without animation) it shows exactly the pose. No animation is written: the clips were
// authored against the old rest pose.
//
// The writer is tools/glb_writer.h (deterministic bytes: same options, same file).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "skin/skin_method.h"

namespace sv {

struct Model;
struct Options;
struct PosedModel;
struct Scene;

// The .glb bytes of `pose` (of `model`; its images, decoded by the import worker, are embedded
// as PNG, and no file is read); `z_up` adds the root turn; `skinned` keeps the skeleton
// and the weights (below), with 4 or 8 `influences` per vertex. Returns "" or the reason.
std::string posed_glb(const Model& model, const PosedModel& pose, bool z_up, bool skinned,
                      int influences, std::vector<uint8_t>* out);

// The window's "Export pose (.glb)": the scene's pose as the window shows it this frame (its
// player, layers and cross-fade, skinning method: the animator as the window last evaluated it),
// skinned on the CPU and written to `path` (a .glb) as --export-pose writes it, turned upright
// when the scene is shown Z-up. "" or the one-line reason (nothing written then). On the
// window's thread, once per click. `method` is the one the window shows: CoR before its centres
// are known is refused rather than written as LBS.
std::string export_scene_pose(Scene& scene, SkinMethod method, bool skinned,
                              const std::string& path);

// The command: poses options.model as --dump would (--clip/--rest-pose/--bind-pose, --time, the
// blend) and writes options.export_pose; `up` is --up (auto|y|z). Exit status 0, or 2 with one
// line on stderr.
int run_export_pose(const Options& options, const std::string& up);

}  // namespace sv
