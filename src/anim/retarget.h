// Clips from another file onto this skeleton: joints matched by name once, at load, and each
// clip's keys rewritten for the target's rest pose (retargeting), then built into an ordinary
// runtime clip for the target (ClipRuntime::build). After this nothing knows a clip came from
// elsewhere: the player, layers, cross-fades, --dump and --record see clips like any other.
//
// Matching (match_joints), for each target joint in order, the first rule that finds a source
// joint not taken yet:
//  1. the joint map (--joint-map): pairs source name -> target name, names exact;
//  2. the same name, exactly;
//  3. the same key, ignoring case: a name's key drops its namespace (everything up to the last
//     ':' or '|': Mixamo's "mixamorig:Hips", Blender's "Armature|Hips", Maya's "ns:Hips") and
//     then its side's common prefix (the longest prefix that every namespace-free name of that
//     skeleton shares and that ends at a separator '_', '.', '-' or ' ': "Character1_Hips",
//     "Bip01 Spine"), each side its own. A key two still unmatched joints of one side share
//     matches nothing (assimp's "ROOT" beside a "root" joint: ROOT pairs by rule 2 first).
// A target joint nothing matches is "unmapped" (it keeps its rest pose, or the pose below in a
// layer); a source joint no target took is "extra" (its keys are dropped).
//
// Retargeting (the rule three.js's SkeletonUtils.retargetClip and Babylon's animation
// retargeting apply, in closed form): a mapped joint turns, in the world, the way its source
// joint turns from the source's rest, starting from the target's own rest; the hip (the first
// mapped joint, parents first, whose source keys translation) moves the source's root motion
// scaled by the ratio of the two hip heights; every other joint keeps the target's bone lengths.
// Each side is first stood upright (RetargetAxes: a Z-up file turned -90 degrees about X), so a
// Z-up clip walks forward on a Y-up character. With P the upright rest rotation of a joint's parent
// (quaternion product along the chain: uniform scales drop out) and R its rest rotation, on each
// side:
//     local_t = C * local_s * inverse(R_s) * inverse(C) * R_t,      C = inverse(P_t) * P_s
// which is exactly "world rotation = (world delta of the source) * (target's world rest)" when
// every parent obeys the same rule, so it needs no world poses per key, keeps the source's key
// times, and is linear in the quaternion (cubic-spline tangents map the same way). Hip:
//     t_t = inverse(M_t) * (k * M_s * t_s),   k = |hip_t| / |hip_s|
// with M each side's upright rest transform of the hip's parent and |hip| the height (upright Y)
// of the hip's rest position above the model origin: the files may differ in units (FBX's
// centimetres) and proportions. A source hip resting at height 0 (BVH: zero offsets, the motion
// places the body) is measured where the first clip that moves it starts; a hip still at 0 gives
// k = 1. Scale keys keep their ratio to the rest scale.
// Translation keys of other joints are used only where both rests agree (within 1e-5 of the
// bone's length): otherwise a longer or shorter source bone would stretch the target's.
// Joints whose rests agree on both sides (and their parents' too) get the source keys unchanged,
// bit for bit: the same rig in another file poses exactly as its own clips do.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <glm/gtc/quaternion.hpp>
#include <glm/mat4x4.hpp>
#include <glm/vec3.hpp>

#include "anim/clip_runtime.h"
#include "anim/skeleton.h"

namespace sv {

struct JointMatch {
  std::vector<int32_t> source_of;  // per target joint: its source joint, or -1 (unmapped)
  std::vector<int32_t> target_of;  // per source joint: its target joint, or -1 (extra)
  std::size_t mapped = 0;
  std::vector<int32_t> unmapped;  // target joints, in order
  std::vector<int32_t> extra;     // source joints, in order
  std::size_t by_map = 0;         // pairs the joint map made
  std::size_t by_key = 0;         // pairs made by key (namespace / prefix / case dropped)
  std::string target_prefix;      // the common prefix rule 3 dropped on each side ("": none)
  std::string source_prefix;
  std::vector<std::string> map_unused;  // joint-map entries naming a joint neither side has
};

// The key rule 3 compares: `name` without its namespace and without `prefix`, lower case.
std::string joint_key(std::string_view name, std::string_view prefix);
// The common prefix of a skeleton's namespace-free names that ends at a separator ("": none, or
// fewer than two names).
std::string common_joint_prefix(std::span<const std::string> names);

// Matches `source`'s joints to `target`'s (see the top of this file). `joint_map` pairs are
// (source name, target name). Allocates; load time only.
JointMatch match_joints(const Skeleton& target, const Skeleton& source,
                        std::span<const std::pair<std::string, std::string>> joint_map);

// What retargeting did, for the import report.
struct RetargetFigures {
  std::size_t rest_differs = 0;  // mapped joints with some component not copied unchanged
  int32_t hip = -1;              // target joint whose translation carries root motion, or -1
  float hip_scale = 1.0f;        // k above
  float target_hip_height = 0.0f;
  float source_hip_height = 0.0f;
};

// Per-joint constants, computed once per (target, source, match, the source's clips) and used for
// every clip of that file.
struct RetargetPlan {
  enum class TranslationRule : uint8_t {
    Copy,  // the source's keys as they are (rests agree)
    Hip,   // t_t = (translation_map * vec4(t_s, 1)).xyz: the root motion, scaled
    Drop,  // not used: the bone lengths differ, the target keeps its own
  };
  struct Joint {
    int32_t source = -1;         // -1: unmapped, nothing keyed
    bool rotation_same = false;  // rests agree: rotation keys copied unchanged
    bool scale_same = false;     // rest scales agree: scale keys copied unchanged
    glm::quat left{1, 0, 0, 0}, right{1, 0, 0, 0};  // local_t = left * local_s * right
    glm::vec3 scale_ratio{1.0f};                    // target rest scale / source rest scale
    TranslationRule translation = TranslationRule::Drop;
    glm::mat4 translation_map{1.0f};  // Hip only
  };
  std::vector<Joint> joints;  // per target joint
  RetargetFigures figures;
};

// Each side's up axis as its file's convention has it (app/viewer_scene.h format_is_z_up).
struct RetargetAxes {
  bool target_z_up = false;
  bool source_z_up = false;
};

// `clips` are the source file's (the hip is the first mapped joint, parents first, whose source
// joint one of them keys in translation). Allocates; load time only.
RetargetPlan plan_retarget(const Skeleton& target, const Skeleton& source, const JointMatch& match,
                           std::span<const ClipRuntime> clips, RetargetAxes axes = {});

// The source clip `clip` (laid out for the plan's source skeleton) as a runtime clip of `target`
// named `name`. Target joints whose source translation keys were dropped (TranslationRule::Drop
// where the clip keys them) are appended to *translation_dropped when it is given. Empty on
// success; otherwise the first problem, and *out is left empty.
std::string retarget_clip(const ClipRuntime& clip, const RetargetPlan& plan, const Skeleton& target,
                          const std::string& name, ClipRuntime* out,
                          std::vector<int32_t>* translation_dropped = nullptr);

}  // namespace sv
