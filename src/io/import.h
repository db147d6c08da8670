// The assimp importer: reads any file assimp opens and turns it into a flat sv::Model.
//
// This header is free of assimp; io/import.cpp is the only file in the tree that includes it.
// Every repair made to the data on the way (weights, influence limits, names, bad numbers, key
// order) is counted in the ImportReport, which the command line and the UI show.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "anim/model.h"

namespace sv {

struct ImportReport {
  // Counters; each non-zero one also has a human-readable line in `notes`.
  uint64_t vertices_over_4_influences = 0;  // had 5+ influences: smallest dropped, renormalised
  double largest_dropped_weight = 0.0;      // the largest single weight dropped by the 4-limit
  uint64_t vertices_renormalised = 0;       // stored weights did not sum to 1 (|sum-1| > 1e-4)
  uint64_t vertices_unweighted = 0;         // no weight at all: bound rigidly to the mesh's node
  uint64_t bones_without_node = 0;          // aiBone whose name matches no node: weights dropped
  uint64_t channels_without_node = 0;       // animation channel whose name matches no node: skipped
  uint64_t non_finite_values = 0;     // NaN/Inf in keys, matrices or vertices: replaced/skipped
  uint64_t keys_out_of_order = 0;     // keys with equal or decreasing time: dropped/sorted
  uint64_t rotations_normalised = 0;  // rotation keys whose length was not 1
  uint64_t meshes_skipped = 0;        // meshes with no triangles (points/lines only)
  std::vector<std::string> notes;     // one line per repair kind, e.g. "12 vertices had ..."
  std::string ticks_per_second_note;  // set when a clip gave no ticks per second
};

struct ImportResult {
  std::optional<Model> model;  // set on success
  ImportReport report;
  std::string error;  // on failure: one line naming the file and the reason

  bool ok() const noexcept { return model.has_value(); }
};

// Imports `path`. Never throws and never aborts on bad data: a file that cannot be read, that
// assimp rejects, or that holds nothing to show gives ok() == false with `error` set.
ImportResult import_model(const std::string& path);

}  // namespace sv
