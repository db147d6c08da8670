// What a reload keeps of the session (live reload, app/file_watch.h; "Add animations...", which
// reads the model again with more clips): the clip and its time, speed, loop and play state, the
// layers over it, the selected joint and the up axis, carried over BY NAME, since the new file's
// clips and joints may have moved, been renamed or gone. The camera, the view and the panels are
// the window's and stay as they are.
//
// "Where they still apply": a clip or joint whose name the new model no longer has is dropped (the
// rest pose, no selection, the layer removed) and the note says so; a time past the clip's new end
// is clamped to it; a layer's mask is carried joint by joint (a new joint gets weight 1, as an
// unmasked layer has). A cross-fade in progress is dropped: the base clip plays on (the fade's
// state is times on the old clips).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "anim/model.h"
#include "anim/player.h"
#include "anim/stack_player.h"

namespace sv {

struct KeptSession {
  Player player;
  std::string clip;  // the player's clip's name; "" for the rest or bind pose (player.clip)
  bool z_up = false;
  std::string joint;  // the selected joint's name; "" none
  struct Layer {
    PlayedLayer layer;  // its clip index and mask are the old model's
    std::string clip;
    std::vector<std::string> mask_joints;  // the old joints the mask's weights belong to
  };
  std::vector<Layer> layers;
};

// Takes the session of `model` (what the window shows now) with its playback and selection.
KeptSession keep_session(const Model& model, const Player& player, const StackPlayer& stack,
                         bool z_up, int32_t joint);

// Puts `kept` onto `model` (the model read again): the player, the layers, the up axis and the
// selected joint (-1 when gone). Returns "" or one line naming what did not carry over
// ("clip 'walk' is gone: the rest pose; joint 'hand_r' is gone").
std::string restore_session(const KeptSession& kept, const Model& model, Player* player,
                            StackPlayer* stack, bool* z_up, int32_t* joint);

}  // namespace sv
