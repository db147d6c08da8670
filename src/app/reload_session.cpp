#include "app/reload_session.h"

#include <algorithm>
#include <utility>

namespace sv {
namespace {

int32_t clip_named(const Model& model, const std::string& name) {
  for (std::size_t i = 0; i < model.clips.size(); ++i)
    if (model.clips[i].name() == name) return static_cast<int32_t>(i);
  return -1;
}

std::string clip_name_of(const Model& model, int32_t clip) {
  return clip >= 0 && static_cast<std::size_t>(clip) < model.clips.size()
             ? model.clips[static_cast<std::size_t>(clip)].name()
             : std::string();
}

void add_note(std::string& notes, const std::string& line) {
  notes += (notes.empty() ? "" : "; ") + line;
}

}  // namespace

KeptSession keep_session(const Model& model, const Player& player, const StackPlayer& stack,
                         bool z_up, int32_t joint) {
  KeptSession k;
  k.player = player;
  k.clip = clip_name_of(model, k.player.clip);
  k.z_up = z_up;
  if (joint >= 0 && static_cast<std::size_t>(joint) < model.skeleton.size())
    k.joint = model.skeleton.names[static_cast<std::size_t>(joint)];
  for (const PlayedLayer& l : stack.layers) {
    KeptSession::Layer kept;
    kept.layer = l;
    kept.clip = clip_name_of(model, l.player.clip);
    if (!l.mask.empty()) kept.mask_joints = model.skeleton.names;
    k.layers.push_back(std::move(kept));
  }
  return k;
}

std::string restore_session(const KeptSession& kept, const Model& model, Player* player,
                            StackPlayer* stack, bool* z_up, int32_t* joint) {
  std::string notes;
  *player = kept.player;
  if (kept.player.clip >= 0) {
    player->clip = clip_named(model, kept.clip);
    if (player->clip < 0) {
      player->clip = kRestPose;
      player->time = 0.0;
      add_note(notes, "clip '" + kept.clip + "' is gone: the rest pose");
    } else {
      const double d = model.clips[static_cast<std::size_t>(player->clip)].duration();
      player->time = std::clamp(kept.player.time, 0.0, d);
    }
  }
  // The timeline's in and out points were set on the player's clip: they follow it.
  player->range_clip =
      kept.player.range_clip == kept.player.clip && player->clip >= 0 ? player->clip : kRestPose;
  *z_up = kept.z_up;
  *joint = -1;
  if (!kept.joint.empty()) {
    *joint = model.skeleton.find(kept.joint);
    if (*joint < 0) add_note(notes, "joint '" + kept.joint + "' is gone");
  }
  *stack = StackPlayer{};
  for (const KeptSession::Layer& k : kept.layers) {
    PlayedLayer l = k.layer;
    l.player.clip = clip_named(model, k.clip);
    if (l.player.clip < 0) {
      add_note(notes, "layer clip '" + k.clip + "' is gone");
      continue;
    }
    const double d = model.clips[static_cast<std::size_t>(l.player.clip)].duration();
    l.player.time = std::clamp(l.player.time, 0.0, d);
    l.reference_time = std::clamp(l.reference_time, 0.0, d);
    if (!k.layer.mask.empty()) {
      l.mask.assign(model.skeleton.size(), 1.0f);
      for (std::size_t j = 0; j < k.mask_joints.size() && j < k.layer.mask.size(); ++j) {
        const int32_t now = model.skeleton.find(k.mask_joints[j]);
        if (now >= 0) l.mask[static_cast<std::size_t>(now)] = k.layer.mask[j];
      }
    }
    stack->layers.push_back(std::move(l));
  }
  return notes;
}

}  // namespace sv
