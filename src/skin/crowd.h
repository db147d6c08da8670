// Crowd: N instances of one model, each with its own clip, time offset and placement, posed on
// the CPU as pose + palette per instance and skinned on the GPU ("animation instancing", Game
// Engine Architecture 13.5). The CPU never skins a crowd's vertices: what a crowd costs here is
// evaluate_pose (sample + local->model + palette, clip_runtime.h) and the normal palette (and
// the method palette for DQS / CoR) per palette group.
//
// Palette groups. Each instance belongs to one group; a group is one (clip, time offset) and
// owns one palette. Without sharing every instance is its own group, so N instances cost N
// palettes. With sharing (CrowdSettings::shared), instances in step -- the same clip at the same
// offset -- share their group, and only their model-to-world differs: a crowd of 1,000 on one
// clip in 8 phases costs 8 palettes. Random phases under sharing are drawn from `phase_groups`
// evenly spaced phases of the clip so that sharing has something to share.
//
// Which clip. Every instance plays the base clip (the player's) unless `cycle_clips`, where
// instance i plays clip (base + i) mod clips: a crowd of characters walking out of phase is one
// clip with random phases, the common case (and the one sharing pays for); cycling shows the
// whole library at once. Instance 0 always plays the base clip at offset 0 and stands at the
// origin, so it is exactly the single model the rest of the viewer shows (skeleton overlay,
// picking, inspector). The rest pose (no clip) poses every instance at rest; the bind pose puts
// every instance in the bind pose.
//
// Time. Instances on the base clip play at wrap(time + offset) of the player's own time, so the
// timeline scrubs the crowd and instance 0 equals the single model exactly; instances on other
// clips (cycle_clips) follow a continuous clock (advance()) so they do not restart when the
// base clip wraps.
//
// Placement. Instances stand on a square grid in the world's ground plane, `spacing` apart,
// filled ring by ring around instance 0 at the origin (the crowd stays centred on the model the
// camera framed). placement(i) is the translation; the renderer applies the file's up-axis fix
// before it (world = placement * up).
//
// Memory. configure() sizes every buffer for the count and the model (it allocates; call it when
// the settings or the model change); advance() and evaluate() never allocate. Groups are posed
// in parallel on a WorkerPool: each part of the pool has its own model-matrix scratch.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include <glm/mat3x3.hpp>
#include <glm/mat4x4.hpp>
#include <glm/vec3.hpp>

#include "anim/clip_runtime.h"
#include "anim/palette_layout.h"
#include "anim/player.h"
#include "skin/skin_method.h"

namespace sv {

struct Model;
class WorkerPool;

// The most instances a crowd may have: 10,000 default characters (61 joints) hold 10,000
// palettes of 61 bones, about 50 MiB of palettes on each side of the bus; past that a crowd is
// a different tool (impostors, LOD).
inline constexpr int32_t kMaxCrowd = 10000;

struct CrowdSettings {
  int32_t count = 1;          // instances, 1 .. kMaxCrowd
  float spacing = 1.0f;       // world units between neighbouring instances (> 0, finite)
  bool shared = false;        // instances in step share one palette
  bool random_phases = true;  // each instance but the first starts at a random point of its clip
  uint32_t seed = 1;          // of the random phases ("Randomise phases" picks another)
  bool cycle_clips = false;   // instance i plays clip (base + i) mod clips
  int32_t phase_groups = 8;   // shared + random phases: phases drawn from this many, 1 .. 1024
};

// What the window's Crowd section and the command line ask for.
struct CrowdRequest {
  bool on = false;
  CrowdSettings settings;  // spacing 0: automatic (app/crowd_frame.h), resolved when configured
};

// "" when the settings can make a crowd, else the one-line reason (count out of 1..kMaxCrowd,
// spacing not finite or not positive, phase_groups out of range).
std::string check_crowd(const CrowdSettings& settings);

// Seconds per stage of the last evaluate() (wall clock, all parts of the pool together).
struct CrowdTimes {
  double pose = 0.0;     // sample + local->model + palette, every group
  double palette = 0.0;  // normal palette (and method palette for DQS / CoR), every group
};

class Crowd {
 public:
  Crowd() = default;

  // Lays out `settings.count` instances of `model` on base clip `clip` (an index, kRestPose or
  // kBindPose) and sizes every buffer, with model-matrix scratch for `parts` pool parts (at
  // least 1). Allocates. "" on success, otherwise the reason, leaving the crowd empty.
  std::string configure(const Model& model, const CrowdSettings& settings, int32_t clip,
                        unsigned parts = 1);
  void clear() noexcept;

  // Moves the continuous clock the instances on other clips than the base follow by dt seconds.
  void advance(double dt) noexcept { clock_ += dt; }
  void set_clock(double seconds) noexcept { clock_ = seconds; }

  // Poses every group at `base_time` (the player's time in the base clip) and builds the normal
  // palettes, and the method palettes when `method` is not LBS. Splits the groups over `pool`
  // (may be null) when there are 64 or more and configure() gave scratch for pool->size()
  // parts (fewer are not worth waking threads for). False when the crowd is empty or does not
  // belong to `model`. Never allocates.
  bool evaluate(const Model& model, double base_time, SkinMethod method,
                WorkerPool* pool = nullptr) noexcept;

  bool empty() const noexcept { return instances_ == 0; }
  std::size_t instances() const noexcept { return instances_; }
  std::size_t groups() const noexcept { return groups_.size(); }
  // Palettes computed by the last evaluate() (= groups()), for the stats and the tests.
  std::size_t palettes_computed() const noexcept { return palettes_computed_; }
  std::size_t bones() const noexcept { return bones_; }  // per palette: every mesh's skin
  const CrowdSettings& settings() const noexcept { return settings_; }
  int32_t base_clip() const noexcept { return base_clip_; }
  const CrowdTimes& times() const noexcept { return times_; }

  // Per instance: its group, clip (kRestPose / kBindPose outside clips), offset (seconds) and
  // translation in the ground plane (world units).
  std::span<const uint32_t> instance_groups() const noexcept { return instance_group_; }
  int32_t instance_clip(std::size_t i) const noexcept { return groups_[instance_group_[i]].clip; }
  double instance_offset(std::size_t i) const noexcept {
    return groups_[instance_group_[i]].offset;
  }
  std::span<const glm::vec3> placements() const noexcept { return placement_; }
  // The time the last evaluate() posed group g at (seconds in its clip).
  double group_time(std::size_t g) const noexcept { return groups_[g].time; }

  // Every group's palette, group after group, bones() each (mesh m's bones start at the model's
  // palette base of m within its group, as in Animator::palette).
  std::span<const glm::mat4> palettes() const noexcept { return palette_; }
  std::span<const glm::mat3> normal_palettes() const noexcept { return normal_palette_; }
  std::span<const MethodBone> method_palettes() const noexcept { return method_palette_; }
  // The world-space extent of the placements (min, max), for framing.
  glm::vec3 placement_min() const noexcept { return placement_min_; }
  glm::vec3 placement_max() const noexcept { return placement_max_; }

 private:
  struct Group {
    int32_t clip = kRestPose;  // or kBindPose
    double offset = 0.0;
    double time = 0.0;
    RuntimeCursor cursor;
  };
  struct Job;
  static void pose_part(void* job, unsigned part, unsigned parts);
  static void palette_part(void* job, unsigned part, unsigned parts);

  CrowdSettings settings_;
  int32_t base_clip_ = -1;
  std::size_t instances_ = 0;
  std::size_t bones_ = 0;
  std::size_t palettes_computed_ = 0;
  double clock_ = 0.0;
  std::vector<Group> groups_;
  std::vector<uint32_t> instance_group_;
  std::vector<glm::vec3> placement_;
  glm::vec3 placement_min_{0.0f}, placement_max_{0.0f};
  PaletteLayout layout_;  // as the single model's Animator: bones, rest clip, bind palette
  std::vector<glm::mat4> scratch_;  // parts x joints model matrices
  std::size_t joints_ = 0;
  unsigned parts_ = 1;
  std::vector<glm::mat4> palette_;
  std::vector<glm::mat3> normal_palette_;
  std::vector<MethodBone> method_palette_;
  CrowdTimes times_;
};

}  // namespace sv
