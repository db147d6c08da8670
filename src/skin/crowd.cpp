#include "skin/crowd.h"

#include <algorithm>
#include <chrono>
#include <cmath>

#include <glm/matrix.hpp>

#include "anim/model.h"
#include "anim/pose.h"
#include "anim/stopwatch.h"
#include "anim/worker_pool.h"

namespace sv {
namespace {

using Clock = std::chrono::steady_clock;

// splitmix64: a seeded, portable sequence (std's distributions differ between libraries, and a
// picture or a test must not change with the standard library).
uint64_t next_random(uint64_t& state) noexcept {
  uint64_t z = (state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

double unit_random(uint64_t& state) noexcept {
  return static_cast<double>(next_random(state) >> 11) * 0x1.0p-53;  // [0, 1)
}

// The grid cells around (0, 0), ring by ring (ring r: max(|x|, |z|) == r), `count` of them.
void ring_cells(std::size_t count, std::vector<glm::vec3>& out, float spacing) {
  out.clear();
  if (count > 0) out.emplace_back(0.0f);
  for (int r = 1; out.size() < count; ++r) {
    // Front row (+z, towards the opening camera) first, then the sides, then the back row.
    for (int x = -r; x <= r && out.size() < count; ++x) out.emplace_back(x, 0, r);
    for (int z = r - 1; z > -r && out.size() < count; --z) {
      out.emplace_back(-r, 0, z);
      if (out.size() < count) out.emplace_back(r, 0, z);
    }
    for (int x = -r; x <= r && out.size() < count; ++x) out.emplace_back(x, 0, -r);
  }
  for (glm::vec3& p : out) p *= spacing;
}

}  // namespace

std::string check_crowd(const CrowdSettings& s) {
  if (s.count < 1 || s.count > kMaxCrowd)
    return "a crowd has 1 to " + std::to_string(kMaxCrowd) + " instances, not " +
           std::to_string(s.count);
  if (!std::isfinite(s.spacing) || s.spacing <= 0.0f)
    return "the crowd's spacing must be a positive number";
  if (s.phase_groups < 1 || s.phase_groups > 1024)
    return "the crowd's phase groups must be 1 to 1024, not " + std::to_string(s.phase_groups);
  return {};
}

void Crowd::clear() noexcept {
  instances_ = 0;
  palettes_computed_ = 0;
  groups_.clear();
  instance_group_.clear();
  placement_.clear();
}

std::string Crowd::configure(const Model& model, const CrowdSettings& settings, int32_t clip,
                             unsigned parts) {
  clear();
  if (std::string e = check_crowd(settings); !e.empty()) return e;
  const int32_t clips = static_cast<int32_t>(model.clips.size());
  if (clip >= clips || clip < kBindPose) return "no clip " + std::to_string(clip) + " to crowd";
  settings_ = settings;
  base_clip_ = clip;
  joints_ = model.skeleton.size();
  parts_ = std::max(parts, 1u);
  // The single model's layout (anim/palette_layout.h): the same bones in the same places.
  layout_ = PaletteLayout(model);
  if (!layout_.fits) return "the model's skins do not fit its skeleton";
  bones_ = layout_.bones();

  // Each instance's clip and offset; then one group per instance, or per distinct (clip,
  // offset) when sharing.
  const auto n = static_cast<std::size_t>(settings.count);
  uint64_t random = settings.seed;
  std::vector<std::pair<int32_t, double>> wanted(n);
  for (std::size_t i = 0; i < n; ++i) {
    int32_t c = clip;
    if (settings.cycle_clips && clip >= 0 && clips > 0)
      c = static_cast<int32_t>((static_cast<std::size_t>(clip) + i) %
                               static_cast<std::size_t>(clips));
    const double duration = c >= 0 ? model.clips[static_cast<std::size_t>(c)].duration() : 0.0;
    double offset = 0.0;
    if (i > 0 && settings.random_phases && duration > 0.0) {
      double u = unit_random(random);
      if (settings.shared) u = std::floor(u * settings.phase_groups) / settings.phase_groups;
      offset = u * duration;
    }
    wanted[i] = {c, offset};
  }
  instance_group_.resize(n);
  groups_.reserve(settings.shared ? std::min<std::size_t>(n, 1024) : n);
  for (std::size_t i = 0; i < n; ++i) {
    std::size_t g = groups_.size();
    if (settings.shared) {
      // Instances in step: the same clip at the same offset. A linear search over the groups
      // made so far: at most clips x phase_groups of them, at configure time only.
      for (std::size_t k = 0; k < groups_.size(); ++k)
        if (groups_[k].clip == wanted[i].first && groups_[k].offset == wanted[i].second) g = k;
    }
    if (g == groups_.size()) {
      Group group;
      group.clip = wanted[i].first;
      group.offset = wanted[i].second;
      group.cursor.reset(group.clip >= 0 ? model.clips[static_cast<std::size_t>(group.clip)]
                                         : layout_.rest);
      groups_.push_back(std::move(group));
    }
    instance_group_[i] = static_cast<uint32_t>(g);
  }
  ring_cells(n, placement_, settings.spacing);
  placement_min_ = placement_max_ = glm::vec3(0.0f);
  for (const glm::vec3& p : placement_) {
    placement_min_ = glm::min(placement_min_, p);
    placement_max_ = glm::max(placement_max_, p);
  }
  scratch_.assign(parts_ * joints_, glm::mat4(1.0f));
  palette_.assign(groups_.size() * bones_, glm::mat4(1.0f));
  normal_palette_.assign(groups_.size() * bones_, glm::mat3(1.0f));
  method_palette_.assign(groups_.size() * bones_, MethodBone{});
  instances_ = n;
  return {};
}

struct Crowd::Job {
  Crowd* crowd;
  const Model* model;
  double base_time;
  SkinMethod method;
  bool ok[64];  // per part; parts beyond 64 are refused by evaluate()
};

void Crowd::pose_part(void* context, unsigned part, unsigned parts) {
  Job& job = *static_cast<Job*>(context);
  Crowd& c = *job.crowd;
  const std::size_t groups = c.groups_.size();
  const std::size_t begin = groups * part / parts, end = groups * (part + 1) / parts;
  const std::span<glm::mat4> model(c.scratch_.data() + part * c.joints_, c.joints_);
  bool ok = true;
  for (std::size_t g = begin; g < end; ++g) {
    Group& group = c.groups_[g];
    const std::span<glm::mat4> palette(c.palette_.data() + g * c.bones_, c.bones_);
    if (group.clip == kBindPose) {
      std::copy(c.layout_.bind_palette.begin(), c.layout_.bind_palette.end(), palette.begin());
      continue;
    }
    const ClipRuntime& clip =
        group.clip >= 0 ? job.model->clips[static_cast<std::size_t>(group.clip)] : c.layout_.rest;
    // The base clip plays on the player's time (instance 0 is then the single model exactly);
    // other clips on the continuous clock.
    const double t = group.clip == c.base_clip_ ? job.base_time : c.clock_;
    group.time = group.offset == 0.0 && group.clip == c.base_clip_
                     ? job.base_time
                     : wrap_time(t + group.offset, clip.duration(), true);
    ok = ok && evaluate_pose(clip, group.time, group.cursor, c.layout_.skin_joints,
                             c.layout_.inverse_bind, model, palette);
  }
  job.ok[part] = ok;
}

void Crowd::palette_part(void* context, unsigned part, unsigned parts) {
  Job& job = *static_cast<Job*>(context);
  Crowd& c = *job.crowd;
  const std::size_t groups = c.groups_.size();
  const std::size_t begin = groups * part / parts, end = groups * (part + 1) / parts;
  const std::size_t first = begin * c.bones_, count = (end - begin) * c.bones_;
  const std::span<const glm::mat4> palette(c.palette_.data() + first, count);
  bool ok = build_normal_palette(palette, {c.normal_palette_.data() + first, count});
  if (job.method != SkinMethod::Lbs)
    ok = ok && build_method_palette(palette, {c.method_palette_.data() + first, count});
  job.ok[part] = ok;
}

bool Crowd::evaluate(const Model& model, double base_time, SkinMethod method,
                     WorkerPool* pool) noexcept {
  palettes_computed_ = 0;
  if (instances_ == 0 || model.skeleton.size() != joints_ ||
      static_cast<int32_t>(model.clips.size()) <= base_clip_)
    return false;
  Job job{this, &model, base_time, method, {}};
  // A group costs about a microsecond (BENCHMARKS.md, crowd/); waking the pool's threads costs
  // tens, so a few groups (shared palettes) are posed on this thread alone.
  constexpr std::size_t kGroupsWorthThreads = 64;
  const bool parallel = pool != nullptr && pool->size() <= parts_ && pool->size() <= 64 &&
                        pool->size() > 1 && groups_.size() >= kGroupsWorthThreads;
  const unsigned parts = parallel ? pool->size() : 1;
  auto run = [&](WorkerPool::Task task) {
    std::fill(job.ok, job.ok + parts, false);
    if (parallel) {
      pool->run(task, &job);
    } else {
      task(&job, 0, 1);
    }
    return std::all_of(job.ok, job.ok + parts, [](bool b) { return b; });
  };
  const auto t0 = Clock::now();
  if (!run(&Crowd::pose_part)) return false;
  times_.pose = seconds_since(t0);
  const auto t1 = Clock::now();
  if (!run(&Crowd::palette_part)) return false;
  times_.palette = seconds_since(t1);
  palettes_computed_ = groups_.size();
  return true;
}

}  // namespace sv
