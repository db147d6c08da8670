// A runtime clip's arrays: the view for writers, the checks for readers (clip_arrays.h), and
// what --info and the UI read from the layout (key counts and times).
#include "anim/clip_arrays.h"

#include <cmath>

#include "anim/clip_runtime.h"
#include "anim/skeleton.h"

namespace sv {

namespace {

std::string str(uint64_t v) { return std::to_string(v); }

const char* const kComponent[3] = {"translation", "rotation", "scale"};

// Joint j's component c, for messages.
std::string track_name(std::size_t i) {
  return "track " + str(i) + " (joint " + str(i / 3) + " " + kComponent[i % 3] + ")";
}

// Keys of timeline u (u < timeline_begin.size() - 1).
uint32_t keys_of(std::span<const uint32_t> timeline_begin, uint32_t u) noexcept {
  return timeline_begin[u + 1] - timeline_begin[u];
}

std::string check_timelines(const ClipArraysView& a) {
  const std::span<const uint32_t> b = a.timeline_begin;
  if (b.size() < 2) return "timeline_begin has " + str(b.size()) + " entries, fewer than 2";
  if (b[0] != 0 || b[1] != 1)
    return "timeline 0 (the constant one) does not span exactly times[0, 1)";
  for (std::size_t u = 1; u + 1 < b.size(); ++u)
    if (!(b[u + 1] > b[u])) return "timeline " + str(u) + " has no key";
  if (b.back() != a.times.size())
    return "timelines end at " + str(b.back()) + ", not at the " + str(a.times.size()) + " times";
  if (a.times[0] != 0.0) return "timeline 0 (the constant one) has a time other than 0";
  for (std::size_t u = 1; u + 1 < b.size(); ++u)
    for (uint32_t k = b[u]; k < b[u + 1]; ++k) {
      if (!std::isfinite(a.times[k]))
        return "timeline " + str(u) + " key " + str(k - b[u]) + " has a non-finite time";
      if (k > b[u] && !(a.times[k] > a.times[k - 1]))
        return "timeline " + str(u) + " key times not strictly increasing at key " + str(k - b[u]);
    }
  return {};
}

std::string check_track(const ClipArraysView& a, std::size_t i) {
  const RuntimeTrack& tr = a.tracks[i];
  const std::size_t timelines = a.timeline_begin.size() - 1;
  const auto interp = static_cast<uint8_t>(tr.interpolation);
  if (interp > static_cast<uint8_t>(Interpolation::CubicSpline))
    return track_name(i) + " has interpolation " + str(interp) + ", not one of 0, 1, 2";
  if (tr.timeline >= timelines)
    return track_name(i) + " names timeline " + str(tr.timeline) + " of " + str(timelines);
  if (tr.stride == 0) return track_name(i) + " has stride 0";
  if (tr.timeline == 0 && tr.interpolation != Interpolation::Step)
    return track_name(i) + " is a constant (timeline 0) but not Step";
  if (i / 3 >= a.joints && tr.timeline != 0)
    return track_name(i) + " pads the last 4 joints but is not a constant";
  // base + stride * (keys * per_key - 1) < values.size(), without overflow.
  const uint64_t entries = uint64_t{keys_of(a.timeline_begin, tr.timeline)} *
                           (tr.interpolation == Interpolation::CubicSpline ? 3u : 1u);  // >= 1
  const uint64_t n = a.values.size();
  if (tr.base >= n || (entries - 1) > (n - 1 - tr.base) / tr.stride)
    return track_name(i) + " reads past the " + str(n) + " values (base " + str(tr.base) +
           ", stride " + str(tr.stride) + ", " + str(entries) + " entries)";
  return {};
}

}  // namespace

bool uniform_flag(std::span<const RuntimeTrack> tracks, std::size_t group,
                  std::size_t component) noexcept {
  const RuntimeTrack& first = tracks[3 * (4 * group) + component];
  for (std::size_t l = 1; l < 4; ++l) {
    const RuntimeTrack& tr = tracks[3 * (4 * group + l) + component];
    if (tr.timeline != first.timeline || tr.stride != first.stride ||
        tr.interpolation != first.interpolation || tr.base != first.base + l)
      return false;
  }
  return true;
}

uint8_t keyed_bits(std::span<const RuntimeTrack> tracks, std::size_t joint) noexcept {
  uint8_t bits = 0;
  for (std::size_t c = 0; c < 3; ++c)
    if (tracks[3 * joint + c].timeline != 0) bits |= static_cast<uint8_t>(1u << c);
  return bits;
}

std::string check_clip_arrays(const ClipArraysView& a) {
  if (!std::isfinite(a.duration) || a.duration < 0.0) return "duration is negative or not finite";
  if (a.joints > kMaxRuntimeJoints)
    return str(a.joints) + " joints, more than the runtime's " + str(kMaxRuntimeJoints);
  const std::size_t padded = (std::size_t{a.joints} + 3) & ~std::size_t{3};
  if (std::string e = check_timelines(a); !e.empty()) return e;
  if (a.tracks.size() != 3 * padded)
    return str(a.tracks.size()) + " tracks for " + str(a.joints) + " joints (expected " +
           str(3 * padded) + ")";
  std::vector<uint8_t> used(a.timeline_begin.size() - 1, 0);
  for (std::size_t i = 0; i < a.tracks.size(); ++i) {
    if (std::string e = check_track(a, i); !e.empty()) return e;
    used[a.tracks[i].timeline] = 1;
  }
  for (std::size_t u = 1; u < used.size(); ++u)
    if (!used[u]) return "timeline " + str(u) + " is used by no track";
  for (std::size_t v = 0; v < a.values.size(); ++v)
    for (int c = 0; c < 4; ++c)
      if (!std::isfinite(a.values[v][c])) return "value " + str(v) + " is not finite";
  if (a.parents.size() != a.joints)
    return str(a.parents.size()) + " parents for " + str(a.joints) + " joints";
  for (std::size_t i = 0; i < a.parents.size(); ++i) {
    const int32_t p = a.parents[i];
    if (p != kNoParent && (p < 0 || static_cast<std::size_t>(p) >= i))
      return "joint " + str(i) + " has parent " + std::to_string(p) + ", which does not precede it";
  }
  if (a.uniform.size() != 3 * (padded / 4))
    return str(a.uniform.size()) + " uniform flags for " + str(a.joints) + " joints (expected " +
           str(3 * (padded / 4)) + ")";
  for (std::size_t f = 0; f < a.uniform.size(); ++f)
    if (a.uniform[f] != (uniform_flag(a.tracks, f / 3, f % 3) ? 1 : 0))
      return "uniform flag " + str(f) + " (joints " + str(4 * (f / 3)) + "-" +
             str(4 * (f / 3) + 3) + " " + kComponent[f % 3] + ") is " + str(a.uniform[f]) +
             ", its tracks say " + (uniform_flag(a.tracks, f / 3, f % 3) ? "1" : "0");
  if (a.keyed.size() != a.joints)
    return str(a.keyed.size()) + " keyed entries for " + str(a.joints) + " joints";
  for (std::size_t j = 0; j < a.keyed.size(); ++j)
    if (a.keyed[j] != keyed_bits(a.tracks, j))
      return "keyed entry " + str(j) + " (joint " + str(j) + ") is " + str(a.keyed[j]) +
             ", its tracks say " + str(keyed_bits(a.tracks, j));
  return {};
}

ClipArraysView ClipArrays::view() const noexcept {
  return {name, duration, joints, times, timeline_begin, tracks, values, parents, uniform, keyed};
}

ClipArrays ClipArrays::copy_of(const ClipArraysView& v) {
  ClipArrays a;
  a.name = std::string(v.name);
  a.duration = v.duration;
  a.joints = v.joints;
  a.times.assign(v.times.begin(), v.times.end());
  a.timeline_begin.assign(v.timeline_begin.begin(), v.timeline_begin.end());
  a.tracks.assign(v.tracks.begin(), v.tracks.end());
  a.values.assign(v.values.begin(), v.values.end());
  a.parents.assign(v.parents.begin(), v.parents.end());
  a.uniform.assign(v.uniform.begin(), v.uniform.end());
  a.keyed.assign(v.keyed.begin(), v.keyed.end());
  return a;
}

ClipArraysView ClipRuntime::arrays() const noexcept {
  return {name_,   duration_, joints_,  times_,   timeline_begin_,
          tracks_, values_,   parents_, uniform_, keyed_};
}

std::string ClipRuntime::adopt(ClipArrays&& a) {
  *this = ClipRuntime();
  if (std::string e = check_clip_arrays(a.view()); !e.empty()) return "clip '" + a.name + "': " + e;
  name_ = std::move(a.name);
  duration_ = a.duration;
  joints_ = a.joints;
  times_ = std::move(a.times);
  timeline_begin_ = std::move(a.timeline_begin);
  tracks_ = std::move(a.tracks);
  values_ = std::move(a.values);
  parents_ = std::move(a.parents);
  uniform_ = std::move(a.uniform);
  keyed_ = std::move(a.keyed);
  return {};
}

std::size_t ClipRuntime::channels() const noexcept {
  std::size_t n = 0;
  for (const uint8_t k : keyed_) n += k != 0;
  return n;
}

std::size_t ClipRuntime::keys() const noexcept {
  std::size_t n = 0;
  for (std::size_t i = 0; i < 3 * std::size_t{joints_}; ++i)
    if (tracks_[i].timeline != 0) n += keys_of(timeline_begin_, tracks_[i].timeline);
  return n;
}

std::span<const double> ClipRuntime::key_times(std::size_t joint, TrackPath path) const noexcept {
  if (joint >= joints_) return {};
  const uint32_t u = tracks_[3 * joint + static_cast<std::size_t>(path)].timeline;
  if (u == 0) return {};
  return std::span<const double>(times_).subspan(timeline_begin_[u], keys_of(timeline_begin_, u));
}

double ClipRuntime::adjacent_key_time(double time, int direction) const noexcept {
  // Every timeline but the constant one belongs to a keyed component (the contract).
  double best = time;
  bool found = false;
  for (std::size_t k = timeline_begin_[1]; k < times_.size(); ++k) {
    const double t = times_[k];
    const bool ok = direction > 0 ? t > time + 1e-6 : t < time - 1e-6;
    if (ok && (!found || (direction > 0 ? t < best : t > best))) {
      best = t;
      found = true;
    }
  }
  return best;
}

}  // namespace sv
