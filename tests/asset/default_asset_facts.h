// What tools/make_default_asset puts into assets/default.glb, written down once for the asset
// tests (the tinygltf structure test and the importer test). Change these together with the
// generator; the regeneration test fails until assets/default.glb is rebuilt as well.
#pragma once

#include <array>
#include <cstddef>
#include <string_view>

namespace sv::test::default_asset {

inline constexpr std::string_view kPath = SKINVIEW_SOURCE_DIR "/assets/default.glb";
inline constexpr std::size_t kMaxBytes = 1u << 20;

// The skin's joints, in node order (parents first); every rest rotation is the identity.
inline constexpr std::array<std::string_view, 23> kJoints = {
    "root",       "hips",       "spine_01",   "spine_02",  "spine_03", "neck",
    "head",       "clavicle_l", "upperarm_l", "forearm_l", "hand_l",   "clavicle_r",
    "upperarm_r", "forearm_r",  "hand_r",     "thigh_l",   "shin_l",   "foot_l",
    "toe_l",      "thigh_r",    "shin_r",     "foot_r",    "toe_r"};
// kParents[i] indexes kJoints; -1 for the root.
inline constexpr std::array<int, 23> kParents = {-1, 0,  1,  2, 3,  4,  5,  4, 7,  8,  9, 4,
                                                 11, 12, 13, 1, 15, 16, 17, 1, 19, 20, 21};

struct ClipFact {
  std::string_view name;
  float duration;  // seconds
};
inline constexpr std::array<ClipFact, 7> kClips = {{{"idle", 4.0f},
                                                    {"walk", 1.2f},
                                                    {"wave", 2.0f},
                                                    {"twist", 2.0f},
                                                    {"run", 0.7f},
                                                    {"breathe", 3.5f},
                                                    {"face", 3.0f}}};

// The body mesh (mesh 0).
inline constexpr std::size_t kVertices = 10611;
inline constexpr std::size_t kTriangles = 19272;

// The face mesh (mesh 1, node "face", material 1 "eyes"): both eyes, then the mouth, every vertex
// weighted 1 on the head; morph targets "blink" and "smile" (default weights 0). The clip
// "face" keys both weights every 1/30 s (91 keys, LINEAR): blink is a 0.2-s triangle pulse at
// kBlinkAt[i], smile eases in (smoothstep) over kSmileIn and out over kSmileOut.
inline constexpr std::size_t kFaceVertices = 673;
inline constexpr double kBlinkAt[2] = {0.6, 2.3};
inline constexpr double kBlinkHalfWidth = 0.1;
inline constexpr double kSmileIn[2] = {0.9, 1.3}, kSmileOut[2] = {2.0, 2.5};
// blink squashes each eye about its centre height (y 1.69) to 15 % of its height.
inline constexpr double kEyeCentreY = 1.69, kBlinkSquash = 0.85;

// idle: the head's rotation is a STEP track with keys every second: yaw 0, 20, 0, -20, 0
// degrees (about +Y), each after a 4-degree nod (about +X).
inline constexpr float kHeadStepYaw[5] = {0.0f, 20.0f, 0.0f, -20.0f, 0.0f};
inline constexpr float kHeadStepPitch = 4.0f;

// walk: the hips' translation is a CUBICSPLINE track, 9 keys every T/8 (T = 1.2 s), with
//   value(t)   = rest + (sway sin(w t), bob cos(2 w t) - drop, 0),   w = 2 pi / T
//   tangent(t) = d value / dt  (in units per second, glTF layout in-tangent, value, out-tangent)
inline constexpr float kHipsRestY = 0.95f;
inline constexpr double kWalkSway = 0.02, kWalkBob = 0.017, kWalkDrop = 0.019;

// walk and run share one phase convention, so a synchronised cross-fade keeps the feet in
// phase: at phase p (time / duration) the left thigh swings forward (a rotation of minus that
// many degrees about +X) by mean + swing * sin(2 pi p), the right thigh half a cycle later.
inline constexpr double kWalkThighMean = 0.0, kWalkThighSwing = 20.0;
inline constexpr double kRunThighMean = 14.0, kRunThighSwing = 32.0;

// breathe is an additive layer: its first frame is the rest pose (its additive reference), and
// at mid-breath (1.75 s) the chest (spine_03) is scaled by kBreatheChestScale.
inline constexpr float kBreatheChestScale[3] = {1.02f, 1.0f, 1.05f};

}  // namespace sv::test::default_asset
