// Clip: one animation as an importer reads it, per-joint keyframe tracks in seconds: the raw,
// editable form, used at import time only (ozz's RawAnimation). The importer (and tests, and the
// benchmarks' synthetic data) build Clips and convert each once with the builder,
// ClipRuntime::build (anim/clip_runtime.h); everything after import -- the viewer, --dump,
// --info, the fuzzers, the benchmarks -- samples only the runtime form. Nothing samples a Clip.
//
// Each animated joint has a JointChannel with up to three tracks (translation, rotation,
// scale). An empty track leaves that component at the joint's rest value. Interpolation
// follows glTF 2.0 exactly:
//   Step        the value of the key at or before t;
//   Linear      lerp for vectors, slerp along the shorter arc for rotations;
//   CubicSpline Hermite spline; `values` then holds three entries per key, in glTF order
//               (in-tangent, value, out-tangent), tangents in units per second; rotations are
//               normalised after evaluation.
// Key times are in seconds as doubles, strictly increasing, and finite (double: a float second
// has a step of 6e-5 s at 10 minutes; see clip_runtime.h). A clip's time runs over
// [0, duration]; keys may start after 0 (before the first key the first value holds, after the
// last the last value holds).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <glm/gtc/quaternion.hpp>
#include <glm/vec3.hpp>

namespace sv {

struct Skeleton;

enum class Interpolation : uint8_t { Step, Linear, CubicSpline };

template <class T>
struct Track {
  Interpolation interpolation = Interpolation::Linear;
  std::vector<double> times;  // seconds, strictly increasing
  std::vector<T> values;      // times.size() values, or 3 * times.size() for CubicSpline

  bool empty() const noexcept { return times.empty(); }
  // Number of values a track of this interpolation needs for its key count.
  std::size_t expected_values() const noexcept {
    return interpolation == Interpolation::CubicSpline ? 3 * times.size() : times.size();
  }
};

struct JointChannel {
  int32_t joint = -1;  // skeleton joint index
  Track<glm::vec3> translation;
  Track<glm::quat> rotation;
  Track<glm::vec3> scale;
};

struct Clip {
  Clip() = default;
  Clip(Clip&&) noexcept = default;
  Clip& operator=(Clip&&) noexcept = default;
  Clip(const Clip&) = delete;
  Clip& operator=(const Clip&) = delete;

  std::string name;
  double duration = 0.0;  // seconds, >= the last key time of every track
  std::vector<JointChannel> channels;

  // Empty when every channel names a joint of `skeleton` (at most one channel per joint),
  // every track has matching sizes, strictly increasing finite times and finite values;
  // otherwise a message naming the first problem.
  std::string validate(const Skeleton& skeleton) const;
};

}  // namespace sv
