// make_default_asset OUT.glb: writes skinview's default character, a rigged and animated
// humanoid, as glTF 2.0 binary. The file is checked in as assets/default.glb and the test suite
// rebuilds it and compares bytes, so everything here is deterministic: no time, no randomness,
// fixed ordering, numbers computed in double and rounded once to float. (GCC/Clang are told
// not to contract a*b+c into FMAs, which would change the last bits on some targets.)
//
// Writer: our own GlbWriter (glb_writer.h) over nlohmann::ordered_json rather than tinygltf's
// saver: it fixes key order, float text, alignment and padding ourselves, and its stored-deflate
// PNG cannot change with a zlib or stb version.
//
// The character (Y up, facing +Z, feet on y = 0, 1.8 units tall, A-pose with the arms 45 degrees
// down): 23 joints, every rest rotation the identity, so a joint's local axes are the model axes
// at bind time and its inverse bind matrix is a pure translation. One mesh of capsule and tube
// parts (tube_mesh.h) with smooth weights, one material with a base-colour factor and a small
// checker texture (the checker makes twisting visible). Clips, all looping (first key equals
// last key): idle, walk, wave, twist, run (walk's phase convention, so the two cross-fade in step
// with sync) and breathe (an additive layer: its first frame is the rest pose). Interpolations:
// mostly LINEAR; idle's head rotation is STEP (the head glances between fixed poses); walk's hips
// translation is CUBICSPLINE with tangents from the analytic derivative of the bob and sway
// curves. New clips go after the old ones, so clip indices stay what they were. A second mesh,
// the face (eyes and mouth on the head joint, a dark material), has two morph targets, blink
// and smile, which the last clip, face, animates (a glTF weights channel).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <functional>
#include <numbers>
#include <string>
#include <vector>

#include <glm/geometric.hpp>
#include <glm/gtc/quaternion.hpp>
#include <glm/vec3.hpp>

#include "glb_writer.h"
#include "tube_mesh.h"

namespace sv::tools {
namespace {

constexpr double kPi = std::numbers::pi;
constexpr double kDeg = kPi / 180.0;

// ---------------------------------------------------------------------------------------------
// Skeleton

// clang-format off
enum Joint : uint8_t {
  kRoot, kHips, kSpine1, kSpine2, kSpine3, kNeck, kHead,
  kClavicleL, kUpperArmL, kForearmL, kHandL,
  kClavicleR, kUpperArmR, kForearmR, kHandR,
  kThighL, kShinL, kFootL, kToeL,
  kThighR, kShinR, kFootR, kToeR,
  kJointCount
};
// clang-format on

struct JointDef {
  const char* name;
  int parent;
  glm::dvec3 pos;  // model space at bind time
};

// Arm direction in the A-pose: 45 degrees below horizontal; side = +1 left (+X), -1 right.
glm::dvec3 arm_dir(double side) { return glm::normalize(glm::dvec3(side, -1.0, 0.0)); }

constexpr double kUpperArmLen = 0.28, kForearmLen = 0.25, kHandLen = 0.16;

std::vector<JointDef> joint_defs() {
  const auto shoulder = [](double s) { return glm::dvec3(0.17 * s, 1.42, 0.0); };
  const auto elbow = [&](double s) { return shoulder(s) + arm_dir(s) * kUpperArmLen; };
  const auto wrist = [&](double s) { return elbow(s) + arm_dir(s) * kForearmLen; };
  return {
      {"root", -1, {0, 0, 0}},
      {"hips", kRoot, {0, 0.95, 0}},
      {"spine_01", kHips, {0, 1.05, 0}},
      {"spine_02", kSpine1, {0, 1.17, 0}},
      {"spine_03", kSpine2, {0, 1.30, 0}},
      {"neck", kSpine3, {0, 1.47, 0}},
      {"head", kNeck, {0, 1.58, 0}},
      {"clavicle_l", kSpine3, {0.03, 1.43, 0}},
      {"upperarm_l", kClavicleL, shoulder(1)},
      {"forearm_l", kUpperArmL, elbow(1)},
      {"hand_l", kForearmL, wrist(1)},
      {"clavicle_r", kSpine3, {-0.03, 1.43, 0}},
      {"upperarm_r", kClavicleR, shoulder(-1)},
      {"forearm_r", kUpperArmR, elbow(-1)},
      {"hand_r", kForearmR, wrist(-1)},
      {"thigh_l", kHips, {0.10, 0.90, 0}},
      {"shin_l", kThighL, {0.10, 0.50, 0}},
      {"foot_l", kShinL, {0.10, 0.09, 0}},
      {"toe_l", kFootL, {0.10, 0.03, 0.12}},
      {"thigh_r", kHips, {-0.10, 0.90, 0}},
      {"shin_r", kThighR, {-0.10, 0.50, 0}},
      {"foot_r", kShinR, {-0.10, 0.09, 0}},
      {"toe_r", kFootR, {-0.10, 0.03, 0.12}},
  };
}

// ---------------------------------------------------------------------------------------------
// Mesh

glm::vec3 f(const glm::dvec3& v) { return glm::vec3(v); }

// The tube `side` for `axis` such that cross(axis, side) points along `front` where it can.
glm::vec3 side_for(const glm::dvec3& axis, const glm::dvec3& front) {
  return f(glm::normalize(glm::cross(front, axis)));
}

MeshData build_mesh(const std::vector<JointDef>& j) {
  MeshData mesh;
  const glm::dvec3 up(0, 1, 0), down(0, -1, 0), front(0, 0, 1);

  // Torso: pelvis to shoulders, elliptical, weights hips -> spine_01..03 -> neck.
  {
    Tube t;
    const double y0 = 0.90;
    t.start = glm::vec3(0, y0, 0);
    t.axis = f(up);
    t.side = side_for(up, front);
    t.length = 0.54f;
    t.cap_start = 0.11f;
    t.cap_end = 0.07f;
    t.sides = 28;
    t.radii = {{0.00f, 0.150f, 0.105f},
               {0.17f, 0.128f, 0.092f},
               {0.38f, 0.165f, 0.110f},
               {0.54f, 0.150f, 0.085f}};
    t.joints = {kHips, kSpine1, kSpine2, kSpine3, kNeck};
    // The spine zones are wide and overlap, as a soft spine skin does: vertices between
    // them have three influences.
    t.boundaries = {{float(j[kSpine1].pos.y - y0), 0.08f},
                    {float(j[kSpine2].pos.y - y0), 0.10f},
                    {float(j[kSpine3].pos.y - y0), 0.09f},
                    {float(j[kNeck].pos.y - y0), 0.04f}};
    t.texel_scale = 1.0f / 0.8f;
    append_tube(t, mesh);
  }
  // Neck: spine_03 -> neck -> head.
  {
    Tube t;
    const double y0 = 1.40;
    t.start = glm::vec3(0, y0, 0);
    t.axis = f(up);
    t.side = side_for(up, front);
    t.length = 0.20f;
    t.cap_start = t.cap_end = 0.03f;
    t.radii = {{0.0f, 0.055f, 0.055f}, {0.2f, 0.048f, 0.052f}};
    t.joints = {kSpine3, kNeck, kHead};
    t.boundaries = {{float(j[kNeck].pos.y - y0), 0.03f}, {float(j[kHead].pos.y - y0), 0.03f}};
    t.texel_scale = 1.0f / 0.33f;
    append_tube(t, mesh);
  }
  // Head: a tall ellipsoid capsule reaching y = 1.8, chin blended with the neck.
  {
    Tube t;
    const double y0 = 1.60;
    t.start = glm::vec3(0, y0, 0);
    t.axis = f(up);
    t.side = side_for(up, front);
    t.length = 0.10f;
    t.cap_start = t.cap_end = 0.10f;
    t.sides = 28;
    t.ring_spacing = 0.025f;
    t.cap_rings = 10;
    t.radii = {{0.0f, 0.085f, 0.100f}};
    t.joints = {kNeck, kHead};
    t.boundaries = {{float(j[kHead].pos.y - y0), 0.03f}};
    t.texel_scale = 1.0f / 0.58f;
    append_tube(t, mesh);
  }
  // Nose: shows which way the character faces.
  {
    Tube t;
    t.start = glm::vec3(0, 1.655f, 0.085f);
    t.axis = f(front);
    t.side = side_for(front, up);
    t.length = 0.025f;
    t.cap_start = t.cap_end = 0.016f;
    t.sides = 12;
    t.cap_rings = 4;
    t.radii = {{0.0f, 0.016f, 0.016f}};
    t.joints = {kHead};
    append_tube(t, mesh);
  }
  for (const double s : {1.0, -1.0}) {
    const bool left = s > 0;
    const uint8_t clavicle = left ? kClavicleL : kClavicleR;
    const uint8_t upper = left ? kUpperArmL : kUpperArmR;
    const uint8_t fore = left ? kForearmL : kForearmR;
    const uint8_t hand = left ? kHandL : kHandR;
    const uint8_t thigh = left ? kThighL : kThighR;
    const uint8_t shin = left ? kShinL : kShinR;
    const uint8_t foot = left ? kFootL : kFootR;
    const uint8_t toe = left ? kToeL : kToeR;
    // Clavicle: a short capsule from the chest to the shoulder ball.
    {
      Tube t;
      const glm::dvec3 d = j[upper].pos - j[clavicle].pos;
      t.start = f(j[clavicle].pos);
      t.axis = f(glm::normalize(d));
      t.side = side_for(glm::normalize(d), front);
      t.length = float(glm::length(d));
      t.cap_start = 0.04f;
      t.cap_end = 0.05f;
      t.radii = {{0.0f, 0.05f, 0.055f}};
      t.joints = {kSpine3, clavicle, upper};
      t.boundaries = {{0.0f, 0.03f}, {t.length, 0.04f}};
      t.texel_scale = 1.0f / 0.33f;
      append_tube(t, mesh);
    }
    // Arm: shoulder to fingertips in one tube, so the elbow and the wrist bend smoothly.
    {
      Tube t;
      const glm::dvec3 d = arm_dir(s);
      t.start = f(j[upper].pos);
      t.axis = f(d);
      t.side = side_for(d, front);
      t.length = float(kUpperArmLen + kForearmLen + kHandLen);
      t.cap_start = 0.05f;
      t.cap_end = 0.02f;
      t.ring_spacing = 0.02f;
      t.radii = {{0.00f, 0.050f, 0.050f}, {0.12f, 0.043f, 0.046f}, {0.28f, 0.035f, 0.037f},
                 {0.40f, 0.037f, 0.040f}, {0.52f, 0.026f, 0.030f}, {0.60f, 0.018f, 0.044f},
                 {0.69f, 0.014f, 0.032f}};
      t.joints = {clavicle, upper, fore, hand};
      t.boundaries = {
          {0.0f, 0.04f}, {float(kUpperArmLen), 0.05f}, {float(kUpperArmLen + kForearmLen), 0.035f}};
      t.texel_scale = 1.0f / 0.25f;
      append_tube(t, mesh);
    }
    // Leg: hip to ankle, blending hips -> thigh -> shin -> foot.
    {
      Tube t;
      const double y0 = j[thigh].pos.y;
      t.start = f(j[thigh].pos);
      t.axis = f(down);
      t.side = side_for(down, front);
      t.length = float(y0 - j[foot].pos.y);
      t.cap_start = 0.07f;
      t.cap_end = 0.04f;
      t.ring_spacing = 0.02f;
      t.radii = {{0.00f, 0.075f, 0.078f},
                 {0.20f, 0.062f, 0.066f},
                 {0.40f, 0.048f, 0.052f},
                 {0.55f, 0.050f, 0.056f},
                 {0.81f, 0.038f, 0.040f}};
      t.joints = {kHips, thigh, shin, foot};
      t.boundaries = {
          {0.0f, 0.06f}, {float(y0 - j[shin].pos.y), 0.06f}, {float(y0 - j[foot].pos.y), 0.045f}};
      t.texel_scale = 1.0f / 0.4f;
      append_tube(t, mesh);
    }
    // Foot: heel to toe along +Z, sole touching y = 0, toes bending at the toe joint.
    {
      Tube t;
      const double z0 = -0.05;
      t.start = glm::vec3(float(j[foot].pos.x), 0.045f, float(z0));
      t.axis = f(front);
      t.side = side_for(front, up);
      t.length = 0.22f;
      t.cap_start = 0.045f;
      t.cap_end = 0.04f;
      t.radii = {{0.0f, 0.045f, 0.045f}, {0.15f, 0.050f, 0.034f}, {0.22f, 0.046f, 0.030f}};
      t.joints = {foot, toe};
      t.boundaries = {{float(j[toe].pos.z - z0), 0.03f}};
      t.texel_scale = 1.0f / 0.3f;
      append_tube(t, mesh);
    }
  }
  return mesh;
}

// A 64x64 checker of two warm tones with darker grid lines: cheap, and it makes the roll of a
// twisting forearm and the stretch of the skin visible.
std::vector<uint8_t> checker_png() {
  constexpr int kSize = 64, kCell = 8;
  std::vector<uint8_t> rgb;
  rgb.reserve(kSize * kSize * 3);
  for (int y = 0; y < kSize; ++y) {
    for (int x = 0; x < kSize; ++x) {
      const bool odd = ((x / kCell) + (y / kCell)) % 2 == 1;
      const bool line = x % kCell == 0 || y % kCell == 0;
      uint8_t c[3] = {235, 225, 210};
      if (odd) c[0] = 200, c[1] = 180, c[2] = 160;
      if (line) c[0] = 120, c[1] = 105, c[2] = 95;
      rgb.insert(rgb.end(), c, c + 3);
    }
  }
  return encode_png_rgb(kSize, kSize, rgb);
}

// ---------------------------------------------------------------------------------------------
// Clips

using dquat = glm::dquat;

dquat axis_angle(const glm::dvec3& axis, double degrees) {
  return glm::angleAxis(degrees * kDeg, glm::normalize(axis));
}

const glm::dvec3 kX(1, 0, 0), kY(0, 1, 0), kZ(0, 0, 1);

// Rotation that lowers (positive) or raises (negative) an arm from the A-pose, in its
// parent's frame: about +Z for the right arm, -Z for the left.
dquat arm_lower(double side, double degrees) { return axis_angle(kZ, -side * degrees); }

// Elbow bend bringing the forearm (rest direction d) towards +Z.
dquat elbow_bend(double side, double degrees) {
  return axis_angle(glm::cross(arm_dir(side), kZ), degrees);
}

enum class Path : uint8_t { Translation, Rotation, Scale };

struct Channel {
  uint8_t joint;
  Path path;
  std::string interpolation;  // "LINEAR", "STEP", "CUBICSPLINE"
  std::vector<double> times;
  std::vector<glm::dvec4> values;  // xyz (w unused) or quaternion x,y,z,w; x3 for cubic
};

struct ClipDef {
  std::string name;
  double duration;
  std::vector<Channel> channels;
};

glm::dvec4 as_vec4(const dquat& q) { return {q.x, q.y, q.z, q.w}; }
glm::dvec4 as_vec4(const glm::dvec3& v) { return {v.x, v.y, v.z, 0.0}; }

// Samples `fn(phase)` (phase in [0, 1)) at `keys` evenly spaced keys plus a final key that is an
// exact copy of the first, so the clip loops without a jump. Rotations are normalised and kept
// on the hemisphere of the previous key, so every slerp takes the short arc.
Channel sample_rotation(uint8_t joint, double duration, int keys,
                        const std::function<dquat(double)>& fn) {
  Channel c{joint, Path::Rotation, "LINEAR", {}, {}};
  for (int k = 0; k < keys; ++k) {
    dquat q = glm::normalize(fn(static_cast<double>(k) / keys));
    if (!c.values.empty() && glm::dot(glm::dvec4(q.x, q.y, q.z, q.w), c.values.back()) < 0.0)
      q = -q;
    c.times.push_back(duration * k / keys);
    c.values.push_back(as_vec4(q));
  }
  c.times.push_back(duration);
  c.values.push_back(c.values.front());
  return c;
}

Channel sample_vec3(uint8_t joint, Path path, double duration, int keys,
                    const std::function<glm::dvec3(double)>& fn) {
  Channel c{joint, path, "LINEAR", {}, {}};
  for (int k = 0; k < keys; ++k) {
    c.times.push_back(duration * k / keys);
    c.values.push_back(as_vec4(fn(static_cast<double>(k) / keys)));
  }
  c.times.push_back(duration);
  c.values.push_back(c.values.front());
  return c;
}

double wave(double phase, double cycles = 1.0, double offset = 0.0) {
  return std::sin(2.0 * kPi * (cycles * phase + offset));
}

// A walking or running gait's limbs, in one phase convention (so a synchronised cross-fade
// between gaits keeps the feet in phase): each function takes the side's phase q, the left
// side's q = p and the right side's half a cycle later, q = p + 0.5.
struct Gait {
  std::function<double(double)> thigh_fwd;  // forward swing of the thigh, degrees
  std::function<double(double)> knee;       // knee bend, degrees
  double foot_level;                        // the part of the leg's pitch the foot undoes
  double arm_swing;                         // the upper arm's swing against the leg, degrees
  double arm_down;                          // the arms below the A-pose, degrees
  std::function<double(double)> elbow;      // elbow bend, degrees
};

// Adds thigh, shin, foot, upper arm and forearm channels for both sides (left first).
void add_gait(ClipDef& clip, double T, int n, const Gait& g) {
  for (const double s : {1.0, -1.0}) {
    const bool left = s > 0;
    const double offset = left ? 0.0 : 0.5;  // the right side runs half a cycle behind
    clip.channels.push_back(sample_rotation(left ? kThighL : kThighR, T, n, [&](double p) {
      return axis_angle(kX, -g.thigh_fwd(p + offset));
    }));
    clip.channels.push_back(sample_rotation(left ? kShinL : kShinR, T, n, [&](double p) {
      return axis_angle(kX, g.knee(p + offset));
    }));
    clip.channels.push_back(sample_rotation(left ? kFootL : kFootR, T, n, [&](double p) {
      return axis_angle(kX, g.foot_level * (g.thigh_fwd(p + offset) - g.knee(p + offset)));
    }));
    clip.channels.push_back(sample_rotation(left ? kUpperArmL : kUpperArmR, T, n, [&](double p) {
      return axis_angle(kX, g.arm_swing * wave(p + offset)) * arm_lower(s, g.arm_down);
    }));
    clip.channels.push_back(sample_rotation(left ? kForearmL : kForearmR, T, n, [&](double p) {
      return elbow_bend(s, g.elbow(p + offset));
    }));
  }
}

ClipDef make_idle(const std::vector<JointDef>& j) {
  // Four seconds: one slow breath, a slight sway of the hips, arms relaxed at the sides, and a
  // head that glances left and right in steps.
  const double T = 4.0;
  const int n = 32;
  ClipDef clip{"idle", T, {}};
  const glm::dvec3 hips = j[kHips].pos - j[kRoot].pos;
  clip.channels.push_back(sample_vec3(kHips, Path::Translation, T, n, [&](double p) {
    return hips + glm::dvec3(0.012 * wave(p), -0.004 * (0.5 - 0.5 * wave(p, 2, 0.25)), 0.0);
  }));
  clip.channels.push_back(sample_rotation(kHips, T, n, [](double p) {
    return axis_angle(kZ, 1.2 * wave(p)) * axis_angle(kY, 2.0 * wave(p, 1, 0.25));
  }));
  const auto breath = [](double p) { return 0.5 - 0.5 * std::cos(2.0 * kPi * p); };
  clip.channels.push_back(sample_rotation(kSpine2, T, n, [&](double p) {
    return axis_angle(kX, -2.0 * breath(p)) * axis_angle(kZ, -0.8 * wave(p));
  }));
  // The chest swells a little: a non-uniform scale track, which also exercises normals under
  // non-uniform scale.
  clip.channels.push_back(sample_vec3(kSpine3, Path::Scale, T, n, [&](double p) {
    return glm::dvec3(1.0 + 0.015 * breath(p), 1.0, 1.0 + 0.03 * breath(p));
  }));
  for (const double s : {1.0, -1.0}) {
    const bool left = s > 0;
    clip.channels.push_back(sample_rotation(left ? kClavicleL : kClavicleR, T, n, [&](double p) {
      return axis_angle(kZ, s * 2.5 * breath(p));
    }));
    clip.channels.push_back(sample_rotation(left ? kUpperArmL : kUpperArmR, T, n, [&](double p) {
      return axis_angle(kX, 3.0 * wave(p, 1, s > 0 ? 0.0 : 0.5)) * arm_lower(s, 36.0);
    }));
    clip.channels.push_back(sample_rotation(left ? kForearmL : kForearmR, T, n, [&](double p) {
      return elbow_bend(s, 12.0 + 3.0 * breath(p));
    }));
  }
  // STEP: the head holds each glance until the next key.
  Channel head{kHead, Path::Rotation, "STEP", {}, {}};
  const double yaw[] = {0.0, 20.0, 0.0, -20.0, 0.0};
  for (int k = 0; k < 5; ++k) {
    head.times.push_back(T * k / 4);
    head.values.push_back(as_vec4(glm::normalize(axis_angle(kY, yaw[k]) * axis_angle(kX, 4.0))));
  }
  clip.channels.push_back(std::move(head));
  return clip;
}

ClipDef make_walk(const std::vector<JointDef>& j) {
  // One full cycle (two steps) in 1.2 s, walking in place: legs swing from the hips, knees bend
  // in the swing phase, feet stay roughly level, arms swing against the legs, hips bob twice.
  const double T = 1.2;
  const int n = 24;
  ClipDef clip{"walk", T, {}};

  // CUBICSPLINE: the hips bob and sway; tangents are the exact time derivatives (units/s).
  const glm::dvec3 hips = j[kHips].pos - j[kRoot].pos;
  // The hips sit lowest at double support (legs spread, p = 0.25 and 0.75) and highest when the
  // swing leg passes the stance leg (p = 0 and 0.5), which keeps the stance ankle near its
  // rest height of 0.09 for a 20-degree stride.
  const double drop = 0.019, bob = 0.017, sway = 0.02;
  {
    Channel c{kHips, Path::Translation, "CUBICSPLINE", {}, {}};
    const int keys = 8;
    const double w1 = 2.0 * kPi / T;
    for (int k = 0; k <= keys; ++k) {
      const double p = static_cast<double>(k % keys) / keys;  // the last key copies the first
      const glm::dvec3 value = hips + glm::dvec3(sway * std::sin(w1 * p * T),
                                                 bob * std::cos(2.0 * w1 * p * T) - drop, 0.0);
      const glm::dvec3 tangent(sway * w1 * std::cos(w1 * p * T),
                               -bob * 2.0 * w1 * std::sin(2.0 * w1 * p * T), 0.0);
      c.times.push_back(k == keys ? T : T * k / keys);
      c.values.push_back(as_vec4(tangent));  // in-tangent
      c.values.push_back(as_vec4(value));
      c.values.push_back(as_vec4(tangent));  // out-tangent
    }
    clip.channels.push_back(std::move(c));
  }
  clip.channels.push_back(sample_rotation(kHips, T, n, [](double p) {
    return axis_angle(kY, 6.0 * wave(p)) * axis_angle(kZ, 2.0 * wave(p, 1, 0.25));
  }));
  clip.channels.push_back(sample_rotation(kSpine2, T, n, [](double p) {
    return axis_angle(kY, -7.0 * wave(p)) * axis_angle(kX, 3.0);
  }));
  clip.channels.push_back(sample_rotation(
      kNeck, T, n, [](double p) { return axis_angle(kY, 1.0 * wave(p)) * axis_angle(kX, -2.0); }));

  // Forward swing of the thigh in degrees; knee bend peaks while the leg swings forward; the
  // foot undoes most of the shin's pitch so the sole stays near level, toes up at heel strike.
  add_gait(clip, T, n,
           Gait{[](double q) { return 20.0 * wave(q); },
                [](double q) {
                  const double c = std::cos(2.0 * kPi * q);
                  return 6.0 + 50.0 * (c > 0.0 ? c * c : 0.0);
                },
                0.9, 20.0, 38.0, [](double q) { return 18.0 + 12.0 * std::max(0.0, -wave(q)); }});
  return clip;
}

ClipDef make_run(const std::vector<JointDef>& j) {
  // One full cycle (two strides) in 0.7 s, running in place, in walk's phase convention (the
  // left thigh swings forward as sin(2 pi p) about a mean, the right half a cycle later), so a
  // cross-fade with sync keeps the feet in phase: bigger swings, knees folding high in the swing, a
  // bent stance knee at mid-stance (p = 0 right, 0.5 left) where the hips sit lowest, the trunk
  // leaning forward, arms bent at the elbow pumping against the legs.
  const double T = 0.7;
  const int n = 28;
  ClipDef clip{"run", T, {}};
  const glm::dvec3 hips = j[kHips].pos - j[kRoot].pos;
  const double drop = 0.003, bob = 0.025, sway = 0.012;
  clip.channels.push_back(sample_vec3(kHips, Path::Translation, T, n, [=](double p) {
    return hips + glm::dvec3(sway * wave(p), -drop - bob * std::cos(4.0 * kPi * p), 0.0);
  }));
  clip.channels.push_back(sample_rotation(kHips, T, n, [](double p) {
    return axis_angle(kY, 8.0 * wave(p)) * axis_angle(kZ, 3.0 * wave(p, 1, 0.25));
  }));
  clip.channels.push_back(sample_rotation(kSpine1, T, n, [](double) {
    return axis_angle(kX, 6.0);  // lean into the run
  }));
  clip.channels.push_back(sample_rotation(kSpine2, T, n, [](double p) {
    return axis_angle(kY, -10.0 * wave(p)) * axis_angle(kX, 4.0);
  }));
  clip.channels.push_back(sample_rotation(kNeck, T, n, [](double p) {
    return axis_angle(kY, 2.0 * wave(p)) * axis_angle(kX, -9.0);  // eyes ahead
  }));
  // The thigh forward of vertical by 14 degrees on average, so the foot lands under the hips
  // with the stance knee bent; the knee folds in the swing and gives at mid-stance.
  add_gait(clip, T, n,
           Gait{[](double q) { return 14.0 + 32.0 * wave(q); },
                [](double q) {
                  const double c = std::cos(2.0 * kPi * q);
                  return 12.0 + (c > 0.0 ? 85.0 * c * c : 18.0 * -c);
                },
                0.8, 35.0, 32.0, [](double q) { return 80.0 + 15.0 * wave(q); }});
  return clip;
}

ClipDef make_breathe(const std::vector<JointDef>&) {
  // 3.5 s, meant as an additive layer: one deep breath whose first frame is the rest pose, so
  // its difference from its first frame (the additive reference) is the breath alone: the chest
  // lifts and swells, the shoulders rise, the head stays level.
  const double T = 3.5;
  const int n = 28;
  ClipDef clip{"breathe", T, {}};
  const auto breath = [](double p) { return 0.5 - 0.5 * std::cos(2.0 * kPi * p); };
  clip.channels.push_back(sample_rotation(kSpine2, T, n, [&](double p) {
    return axis_angle(kX, -3.0 * breath(p));  // the chest lifts (leans back)
  }));
  clip.channels.push_back(sample_vec3(kSpine3, Path::Scale, T, n, [&](double p) {
    return glm::dvec3(1.0 + 0.02 * breath(p), 1.0, 1.0 + 0.05 * breath(p));
  }));
  for (const double s : {1.0, -1.0}) {
    clip.channels.push_back(sample_rotation(s > 0 ? kClavicleL : kClavicleR, T, n, [&](double p) {
      return axis_angle(kZ, s * 4.0 * breath(p));
    }));
  }
  clip.channels.push_back(sample_rotation(kNeck, T, n, [&](double p) {
    return axis_angle(kX, 3.0 * breath(p));  // keeps the head level
  }));
  return clip;
}

ClipDef make_wave(const std::vector<JointDef>&) {
  // Two seconds: the right arm raised, the forearm waving side to side four times, the hand
  // following through; the left arm at the side, the head tilted towards the wave.
  const double T = 2.0;
  const int n = 40;
  ClipDef clip{"wave", T, {}};
  clip.channels.push_back(sample_rotation(kClavicleR, T, n, [](double) {
    return axis_angle(kZ, 8.0);  // right shoulder up
  }));
  clip.channels.push_back(sample_rotation(kUpperArmR, T, n, [](double p) {
    return axis_angle(kX, -10.0 + 2.0 * wave(p)) * arm_lower(-1.0, -95.0);
  }));
  clip.channels.push_back(sample_rotation(kForearmR, T, n, [](double p) {
    return axis_angle(kZ, -35.0 - 25.0 * wave(p, 4)) * elbow_bend(-1.0, 15.0);
  }));
  clip.channels.push_back(sample_rotation(
      kHandR, T, n, [](double p) { return axis_angle(kZ, -12.0 * wave(p, 4, -0.1)); }));
  clip.channels.push_back(sample_rotation(kUpperArmL, T, n, [](double p) {
    return axis_angle(kX, 2.0 * wave(p)) * arm_lower(1.0, 36.0);
  }));
  clip.channels.push_back(
      sample_rotation(kForearmL, T, n, [](double) { return elbow_bend(1.0, 12.0); }));
  clip.channels.push_back(sample_rotation(kHead, T, n, [](double p) {
    return axis_angle(kZ, -6.0 - 1.5 * wave(p)) * axis_angle(kY, -10.0);
  }));
  return clip;
}

ClipDef make_twist(const std::vector<JointDef>&) {
  // Two seconds: the left forearm rolls about its own axis from 0 to 180 degrees and back, the
  // rest of the body in the A-pose. Linear blend skinning collapses the elbow's blend zone into
  // a "candy wrapper" at 180 degrees; dual-quaternion skinning does not.
  const double T = 2.0;
  const int n = 20;
  ClipDef clip{"twist", T, {}};
  clip.channels.push_back(sample_rotation(kForearmL, T, n, [](double p) {
    return axis_angle(arm_dir(1.0), 180.0 * (0.5 - 0.5 * std::cos(2.0 * kPi * p)));
  }));
  return clip;
}

// ---------------------------------------------------------------------------------------------
// Face: a second mesh on the head joint (eyes and a mouth, one dark material) with two morph
// targets, "blink" (each eye squashed to a slit about its centre) and "smile" (the mouth's
// corners rise and spread), and the clip "face" that animates their weights. The body mesh and
// the other clips are untouched.

constexpr double kEyeX = 0.033, kEyeY = 1.69, kEyeZ = 0.088, kEyeRadius = 0.014;
constexpr double kMouthY = 1.615, kMouthZ = 0.099, kMouthHalf = 0.028;

struct FaceData {
  MeshData mesh;
  std::vector<glm::vec3> blink;  // position deltas, one per vertex
  std::vector<glm::vec3> smile;
};

FaceData build_face() {
  FaceData face;
  const glm::dvec3 up(0, 1, 0), front(0, 0, 1), right(1, 0, 0);
  std::vector<uint8_t> is_eye;
  for (const double s : {1.0, -1.0}) {
    Tube t;
    t.start = glm::vec3(float(s * kEyeX), float(kEyeY), float(kEyeZ));
    t.axis = f(front);
    t.side = side_for(front, up);
    t.length = 0.0005f;
    t.cap_start = t.cap_end = float(kEyeRadius);
    t.sides = 16;
    t.cap_rings = 6;
    t.radii = {{0.0f, float(kEyeRadius), float(kEyeRadius)}};
    t.joints = {kHead};
    append_tube(t, face.mesh);
    is_eye.resize(face.mesh.positions.size(), 1);
  }
  {
    Tube t;
    t.start = glm::vec3(float(-kMouthHalf), float(kMouthY), float(kMouthZ));
    t.axis = f(right);
    t.side = side_for(right, up);
    t.length = float(2.0 * kMouthHalf);
    t.cap_start = t.cap_end = 0.005f;
    t.sides = 10;
    t.ring_spacing = 0.004f;
    t.cap_rings = 3;
    t.radii = {{0.0f, 0.005f, 0.004f}};
    t.joints = {kHead};
    append_tube(t, face.mesh);
    is_eye.resize(face.mesh.positions.size(), 0);
  }
  for (std::size_t v = 0; v < face.mesh.positions.size(); ++v) {
    const glm::dvec3 p(face.mesh.positions[v]);
    if (is_eye[v]) {
      face.blink.push_back(f(glm::dvec3(0.0, -0.85 * (p.y - kEyeY), 0.0)));
      face.smile.emplace_back(0.0f);
    } else {
      const double u = std::clamp(p.x / kMouthHalf, -1.0, 1.0);
      face.blink.emplace_back(0.0f);
      face.smile.push_back(f(glm::dvec3(0.004 * u, 0.011 * u * u - 0.002, -0.003 * u * u)));
    }
  }
  return face;
}

// The face clip's weights at time t (seconds; 3 s, looping): two blinks, each a 0.2-s triangle
// pulse (closed at 0.6 s and 2.3 s), and a smile that eases in over 0.9-1.3 s, holds, and eases
// out over 2.0-2.5 s. Sampled every 1/30 s, LINEAR.
constexpr double kFaceDuration = 3.0;
constexpr int kFaceKeys = 90;
double smoothstep(double a, double b, double x) {
  const double t = std::clamp((x - a) / (b - a), 0.0, 1.0);
  return t * t * (3.0 - 2.0 * t);
}
double blink_weight(double t) {
  return std::max({0.0, 1.0 - std::abs(t - 0.6) / 0.1, 1.0 - std::abs(t - 2.3) / 0.1});
}
double smile_weight(double t) { return smoothstep(0.9, 1.3, t) * (1.0 - smoothstep(2.0, 2.5, t)); }

// ---------------------------------------------------------------------------------------------
// Document

std::vector<float> to_floats(const std::vector<glm::vec3>& v) {
  std::vector<float> out;
  for (const auto& x : v) out.insert(out.end(), {x.x, x.y, x.z});
  return out;
}

std::vector<uint8_t> build_glb() {
  const std::vector<JointDef> joints = joint_defs();
  GlbWriter w("skinview tools/make_default_asset");
  Json& doc = w.json();

  // Nodes: the joints first (parents first), then the mesh node.
  std::vector<glm::vec3> global(joints.size());
  std::vector<std::vector<int>> children(joints.size());
  for (std::size_t i = 0; i < joints.size(); ++i) {
    if (joints[i].parent >= 0)
      children[static_cast<std::size_t>(joints[i].parent)].push_back(int(i));
  }
  std::vector<float> inverse_bind;
  for (std::size_t i = 0; i < joints.size(); ++i) {
    const JointDef& jd = joints[i];
    const int parent = jd.parent;
    // Local translation rounded to float once; the global position is accumulated in float the
    // way a reader does, so inverse_bind * bind-pose global is exactly the identity.
    const glm::vec3 local =
        parent < 0 ? f(jd.pos) : f(jd.pos - joints[static_cast<std::size_t>(parent)].pos);
    global[i] = parent < 0 ? local : global[static_cast<std::size_t>(parent)] + local;
    Json node{{"name", jd.name}};
    if (!children[i].empty()) node["children"] = children[i];
    if (local != glm::vec3(0.0f)) node["translation"] = {local.x, local.y, local.z};
    doc["nodes"].push_back(std::move(node));
    const float m[16] = {
        1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, -global[i].x, -global[i].y, -global[i].z, 1};
    inverse_bind.insert(inverse_bind.end(), m, m + 16);
  }
  const int mesh_node = static_cast<int>(joints.size());
  doc["nodes"].push_back(Json{{"name", "body"}, {"mesh", 0}, {"skin", 0}});
  const int face_node = mesh_node + 1;
  doc["nodes"].push_back(Json{{"name", "face"}, {"mesh", 1}, {"skin", 0}});
  doc["scenes"].push_back(Json{{"name", "default"}, {"nodes", {int(kRoot), mesh_node, face_node}}});

  std::vector<int> joint_nodes;
  for (std::size_t i = 0; i < joints.size(); ++i) joint_nodes.push_back(int(i));
  const int ibm = w.add_floats(inverse_bind, "MAT4", kNoTarget, false);
  doc["skins"].push_back(Json{{"name", "skeleton"},
                              {"inverseBindMatrices", ibm},
                              {"skeleton", int(kRoot)},
                              {"joints", joint_nodes}});

  // Mesh.
  const MeshData mesh = build_mesh(joints);
  std::vector<float> uvs, weights;
  std::vector<uint8_t> joint_ids;
  for (const auto& t : mesh.uvs) uvs.insert(uvs.end(), {t.x, t.y});
  for (const auto& v : mesh.weights) weights.insert(weights.end(), {v.x, v.y, v.z, v.w});
  for (const auto& v : mesh.joints) joint_ids.insert(joint_ids.end(), {v.x, v.y, v.z, v.w});
  Json attributes;
  attributes["POSITION"] = w.add_floats(to_floats(mesh.positions), "VEC3", kArrayBuffer, true);
  attributes["NORMAL"] = w.add_floats(to_floats(mesh.normals), "VEC3", kArrayBuffer, false);
  attributes["TEXCOORD_0"] = w.add_floats(uvs, "VEC2", kArrayBuffer, false);
  attributes["JOINTS_0"] = w.add_u8(joint_ids, "VEC4", kArrayBuffer);
  attributes["WEIGHTS_0"] = w.add_floats(weights, "VEC4", kArrayBuffer, false);
  int indices;
  if (mesh.positions.size() <= 65535) {
    std::vector<uint16_t> i16(mesh.indices.begin(), mesh.indices.end());
    indices = w.add_u16(i16, "SCALAR", kElementArrayBuffer);
  } else {
    indices = w.add_u32(mesh.indices, "SCALAR", kElementArrayBuffer);
  }
  doc["meshes"].push_back(Json{
      {"name", "body"},
      {"primitives",
       Json::array({Json{
           {"attributes", attributes}, {"indices", indices}, {"material", 0}, {"mode", 4}}})}});

  // The face: eyes and mouth on the head, blink and smile targets (default weights 0).
  const FaceData face = build_face();
  {
    std::vector<float> fw;
    std::vector<uint8_t> fj;
    for (const auto& v : face.mesh.weights) fw.insert(fw.end(), {v.x, v.y, v.z, v.w});
    for (const auto& v : face.mesh.joints) fj.insert(fj.end(), {v.x, v.y, v.z, v.w});
    Json fa;
    fa["POSITION"] = w.add_floats(to_floats(face.mesh.positions), "VEC3", kArrayBuffer, true);
    fa["NORMAL"] = w.add_floats(to_floats(face.mesh.normals), "VEC3", kArrayBuffer, false);
    fa["JOINTS_0"] = w.add_u8(fj, "VEC4", kArrayBuffer);
    fa["WEIGHTS_0"] = w.add_floats(fw, "VEC4", kArrayBuffer, false);
    std::vector<uint16_t> i16(face.mesh.indices.begin(), face.mesh.indices.end());
    const int face_indices = w.add_u16(i16, "SCALAR", kElementArrayBuffer);
    Json targets = Json::array();
    for (const auto* deltas : {&face.blink, &face.smile})
      targets.push_back(
          Json{{"POSITION", w.add_floats(to_floats(*deltas), "VEC3", kArrayBuffer, true)}});
    doc["meshes"].push_back(Json{{"name", "face"},
                                 {"primitives", Json::array({Json{{"attributes", fa},
                                                                  {"indices", face_indices},
                                                                  {"material", 1},
                                                                  {"mode", 4},
                                                                  {"targets", targets}}})},
                                 {"weights", {0.0, 0.0}},
                                 {"extras", {{"targetNames", {"blink", "smile"}}}}});
  }

  // Material with an embedded checker texture.
  const std::vector<uint8_t> png = checker_png();
  doc["images"].push_back(Json{
      {"name", "checker"}, {"bufferView", w.add_view(png, kNoTarget)}, {"mimeType", "image/png"}});
  doc["samplers"].push_back(
      Json{{"magFilter", 9729}, {"minFilter", 9987}, {"wrapS", 10497}, {"wrapT", 10497}});
  doc["textures"].push_back(Json{{"sampler", 0}, {"source", 0}});
  doc["materials"].push_back(Json{{"name", "skin"},
                                  {"pbrMetallicRoughness",
                                   {{"baseColorFactor", {0.80, 0.62, 0.50, 1.0}},
                                    {"baseColorTexture", {{"index", 0}, {"texCoord", 0}}},
                                    {"metallicFactor", 0.0},
                                    {"roughnessFactor", 0.7}}}});
  doc["materials"].push_back(Json{{"name", "eyes"},
                                  {"pbrMetallicRoughness",
                                   {{"baseColorFactor", {0.10, 0.07, 0.06, 1.0}},
                                    {"metallicFactor", 0.0},
                                    {"roughnessFactor", 0.4}}}});

  // Animations. Channels with identical key times share one input accessor.
  for (const ClipDef& clip : {make_idle(joints), make_walk(joints), make_wave(joints),
                              make_twist(joints), make_run(joints), make_breathe(joints)}) {
    Json anim{{"name", clip.name}, {"channels", Json::array()}, {"samplers", Json::array()}};
    std::vector<std::pair<std::vector<float>, int>> inputs;
    for (const Channel& c : clip.channels) {
      std::vector<float> times(c.times.begin(), c.times.end());
      int input = -1;
      for (const auto& [t, index] : inputs) {
        if (t == times) input = index;
      }
      if (input < 0) {
        input = w.add_floats(times, "SCALAR", kNoTarget, true);
        inputs.emplace_back(times, input);
      }
      std::vector<float> out;
      const bool rot = c.path == Path::Rotation;
      for (const auto& v : c.values) {
        out.insert(out.end(), {float(v.x), float(v.y), float(v.z)});
        if (rot) out.push_back(float(v.w));
      }
      const int output = w.add_floats(out, rot ? "VEC4" : "VEC3", kNoTarget, false);
      const int sampler = static_cast<int>(anim["samplers"].size());
      anim["samplers"].push_back(
          Json{{"input", input}, {"interpolation", c.interpolation}, {"output", output}});
      const char* path = c.path == Path::Translation ? "translation" : rot ? "rotation" : "scale";
      anim["channels"].push_back(
          Json{{"sampler", sampler}, {"target", {{"node", int(c.joint)}, {"path", path}}}});
    }
    doc["animations"].push_back(std::move(anim));
  }
  // The face clip: one weights channel on the face node (both targets per key).
  {
    std::vector<float> times, weights;
    for (int k = 0; k <= kFaceKeys; ++k) {
      const double t = kFaceDuration * k / kFaceKeys;
      times.push_back(float(t));
      weights.insert(weights.end(), {float(blink_weight(t)), float(smile_weight(t))});
    }
    const int input = w.add_floats(times, "SCALAR", kNoTarget, true);
    const int output = w.add_floats(weights, "SCALAR", kNoTarget, false);
    doc["animations"].push_back(Json{
        {"name", "face"},
        {"channels", Json::array({Json{{"sampler", 0},
                                       {"target", {{"node", face_node}, {"path", "weights"}}}}})},
        {"samplers",
         Json::array({Json{{"input", input}, {"interpolation", "LINEAR"}, {"output", output}}})}});
  }
  return w.finish();
}

}  // namespace
}  // namespace sv::tools

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s OUT.glb\n", argc > 0 ? argv[0] : "make_default_asset");
    return 2;
  }
  const std::vector<uint8_t> glb = sv::tools::build_glb();
  std::ofstream out(argv[1], std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(glb.data()), static_cast<std::streamsize>(glb.size()));
  out.close();
  if (!out) {
    std::fprintf(stderr, "%s: cannot write the file\n", argv[1]);
    return 1;
  }
  std::printf("%s: %zu bytes\n", argv[1], glb.size());
  return 0;
}
