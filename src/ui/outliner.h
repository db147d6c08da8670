// The outliner (the left panel): File (open, browse, recent), Meshes, and the joint tree with a
// name filter, as Blender's outliner shows a rig.
//
// The tree is drawn as a flat list of visible rows through ImGuiListClipper, so a frame costs
// the rows on screen, not the joints (the importer allows 65,536). The rows are rebuilt only when
// something changes them (the filter, a node opened or closed, the selection revealed, a new
// model): build_rows() below, pure and tested. Joints that skin vertices ("bones") are drawn in
// the text colour with their vertex count; plain nodes (on the path to a bone, holding a mesh,
// or animated) are drawn dimmed.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace sv {
struct Skeleton;
}

namespace sv::ui {

struct JointTreeState {
  char filter[128] = {};              // case-insensitive substring of joint names; "" = all
  std::vector<int32_t> first_child;   // per joint, -1 none
  std::vector<int32_t> next_sibling;  // per joint, -1 none
  std::vector<uint8_t> expanded;      // per joint: its children are shown (without a filter)
  std::vector<int32_t> rows;          // the visible joints, in display order
  std::vector<uint16_t> depth;        // per row: indentation level
  std::vector<uint8_t> matched;       // per row: 1 when the joint matches the filter
  std::vector<uint8_t> keep;          // build_rows' scratch: per joint, 1 matched, 2 on a path
  std::vector<std::pair<int32_t, uint16_t>> visit;  // build_rows' scratch: joints to draw
  std::size_t matches = 0;                          // joints matching the filter
  uint16_t max_depth = 0;                           // the deepest row's depth
  bool dirty = true;                                // rows must be rebuilt
  int32_t reveal = -1;                              // a joint to scroll to once rows are rebuilt
  int32_t seen_selection = -1;                      // the selection the tree last showed

  // Sizes everything for `skeleton` (allocates: on load). Opens every joint of a skeleton of at
  // most kOpenAll joints, otherwise the first two levels.
  void reset(const Skeleton& skeleton);
};

inline constexpr std::size_t kOpenAll = 200;

// Rebuilds rows/depth/matched from the skeleton, `expanded` and `filter`. Without a filter: a
// depth-first walk that enters a joint's children when it is expanded. With a filter: every
// matching joint and the ancestors on its path (shown dimmed, not matched), all open. Allocates
// only when the arrays grow past their largest size so far.
void build_rows(const Skeleton& skeleton, JointTreeState& state);

// Opens every ancestor of `joint` (so its row exists) and marks the rows dirty.
void expand_to(const Skeleton& skeleton, JointTreeState& state, int32_t joint);

}  // namespace sv::ui
