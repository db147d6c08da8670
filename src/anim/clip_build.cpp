// The builder: a raw Clip (anim/clip.h) and its Skeleton into a ClipRuntime's flat layout
// (clip_runtime.h; the arrays' contract is in clip_arrays.h). Runs once per clip, at import.
#include <map>
#include <tuple>

#include <glm/gtc/quaternion.hpp>

#include "anim/clip_runtime.h"
#include "anim/skeleton.h"

namespace sv {

namespace {

constexpr std::size_t kT = 0, kR = 1, kS = 2;

glm::vec4 to_vec4(const glm::vec3& v) { return glm::vec4(v, 0.0f); }
glm::vec4 to_vec4(const glm::quat& q) { return glm::vec4(q.x, q.y, q.z, q.w); }

}  // namespace

std::string ClipRuntime::build(const Clip& clip, const Skeleton& skeleton) {
  *this = ClipRuntime();
  if (std::string e = skeleton.validate(); !e.empty()) return "skeleton: " + e;
  if (std::string e = clip.validate(skeleton); !e.empty()) return e;
  const std::size_t n = skeleton.size();
  if (n > kMaxRuntimeJoints)
    return "clip '" + clip.name + "': too many joints for the runtime layout";
  const std::size_t padded = (n + 3) & ~std::size_t{3};
  std::vector<const JointChannel*> channel(n, nullptr);
  for (const JointChannel& ch : clip.channels) channel[static_cast<std::size_t>(ch.joint)] = &ch;

  ClipRuntime rt;
  rt.name_ = clip.name;
  rt.duration_ = clip.duration;
  std::map<std::vector<double>, uint32_t> timeline_of;
  // What each track becomes, before the values are laid out block by block.
  struct Pending {
    uint32_t timeline = 0;
    uint32_t per_key = 1;
    Interpolation interpolation = Interpolation::Step;
    std::vector<glm::vec4> values;
  };
  std::vector<Pending> pending(3 * padded);
  const auto add = [&](Pending& p, const auto& track, const glm::vec4& rest) {
    if (track.empty()) {  // not keyed: the rest value, on the constant timeline
      p.values = {rest};
      return;
    }
    // A keyed component gets a timeline even with one key (its key time is shown and counted;
    // its value holds everywhere, as Step).
    auto [it, fresh] = timeline_of.try_emplace(track.times, 0u);
    if (fresh) {
      it->second = static_cast<uint32_t>(rt.timeline_begin_.size() - 1);
      rt.times_.insert(rt.times_.end(), track.times.begin(), track.times.end());
      rt.timeline_begin_.push_back(static_cast<uint32_t>(rt.times_.size()));
    }
    p.timeline = it->second;
    const bool cubic = track.interpolation == Interpolation::CubicSpline;
    if (track.times.size() == 1) {
      p.values = {to_vec4(track.values[cubic ? 1 : 0])};
      return;
    }
    p.per_key = cubic ? 3 : 1;
    p.interpolation = track.interpolation;
    for (const auto& v : track.values) p.values.push_back(to_vec4(v));
  };
  for (std::size_t j = 0; j < padded; ++j) {
    const JointChannel* ch = j < n ? channel[j] : nullptr;
    const Transform rest = j < n ? skeleton.rest[j] : Transform{};
    static const sv::Track<glm::vec3> kNoVec3{};
    static const sv::Track<glm::quat> kNoQuat{};
    add(pending[3 * j + kT], ch != nullptr ? ch->translation : kNoVec3, to_vec4(rest.translation));
    add(pending[3 * j + kR], ch != nullptr ? ch->rotation : kNoQuat, to_vec4(rest.rotation));
    add(pending[3 * j + kS], ch != nullptr ? ch->scale : kNoVec3, to_vec4(rest.scale));
  }

  // Blocks: tracks of one component sharing timeline and entries per key, joints in order.
  std::map<std::tuple<uint32_t, uint32_t, uint32_t, uint8_t>, std::vector<uint32_t>> blocks;
  for (uint32_t i = 0; i < pending.size(); ++i)
    blocks[{pending[i].timeline, pending[i].per_key, i % 3,
            static_cast<uint8_t>(pending[i].interpolation)}]
        .push_back(i);
  rt.tracks_.resize(pending.size());
  for (const auto& [key, members] : blocks) {
    const uint32_t stride = static_cast<uint32_t>(members.size());
    const std::size_t entries = pending[members[0]].values.size();
    const std::size_t base = rt.values_.size();
    if (base + entries * stride > (std::size_t{1} << 31))
      return "clip '" + clip.name + "': too many keys for the runtime layout";
    rt.values_.resize(base + entries * stride);
    for (uint32_t slot = 0; slot < stride; ++slot) {
      const Pending& p = pending[members[slot]];
      rt.tracks_[members[slot]] = {p.timeline, static_cast<uint32_t>(base + slot), stride,
                                   p.interpolation};
      for (std::size_t e = 0; e < entries; ++e) rt.values_[base + e * stride + slot] = p.values[e];
    }
  }
  rt.uniform_.assign(3 * (padded / 4), 0);
  for (std::size_t g = 0; g < padded / 4; ++g)
    for (std::size_t k = 0; k < 3; ++k)
      rt.uniform_[3 * g + k] = uniform_flag(rt.tracks_, g, k) ? 1 : 0;
  rt.keyed_.resize(n);
  for (std::size_t j = 0; j < n; ++j) rt.keyed_[j] = keyed_bits(rt.tracks_, j);
  rt.parents_ = skeleton.parents;
  rt.joints_ = static_cast<uint32_t>(n);
  *this = std::move(rt);
  return {};
}

}  // namespace sv
