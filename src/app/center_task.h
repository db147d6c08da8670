// The centres of rotation of a scene's model (skin/rotation_centers.h), computed once per model
// on a thread of their own so the window keeps drawing: started when the model loads with CoR
// chosen, or when CoR is first chosen; polled once a frame (no waiting) and kept with the scene
// when done. The window shows progress() while it runs; --dump and --screenshot call wait().
//
// The model must outlive the task (the Scene declares the task after its model, so the task is
// destroyed first); destroying a running task cancels it and joins its thread.
#pragma once

#include <memory>
#include <thread>
#include <vector>

#include <glm/vec3.hpp>

#include "skin/rotation_centers.h"

namespace sv {

struct Model;

class CenterTask {
 public:
  CenterTask() = default;
  ~CenterTask();
  CenterTask(const CenterTask&) = delete;
  CenterTask& operator=(const CenterTask&) = delete;

  // Starts computing (once; later calls do nothing), with each mesh's 8 largest weights when
  // `eight` (rotation_centers.h). Allocates; starts a thread.
  void start(const Model& model, bool eight = false);
  // Blocks until the centres are known.
  void wait();
  bool started() const noexcept { return state_ != nullptr; }
  // True once the centres are known (then centers() holds one vector per mesh).
  bool done() const noexcept;
  // Fraction of vertices done, [0, 1].
  float progress() const noexcept;
  // The work budget's merge factor (skin/rotation_centers.h, "Budget"): 1 when exact.
  uint32_t merge() const noexcept { return state_ != nullptr ? state_->progress.merge.load() : 1; }
  // The subdivision depth the budget allowed (kMaxSubdivision when not reduced).
  int depth() const noexcept {
    return state_ != nullptr ? state_->progress.depth.load() : kMaxSubdivision;
  }
  const std::vector<std::vector<glm::vec3>>& centers() const noexcept { return centers_; }

 private:
  struct State {
    CenterProgress progress;
    std::vector<std::vector<glm::vec3>> result;
    std::atomic<bool> finished{false};
  };
  void collect() const;
  std::unique_ptr<State> state_;
  std::thread thread_;
  mutable std::vector<std::vector<glm::vec3>> centers_;  // moved out of state_ when finished
  mutable bool collected_ = false;
};

}  // namespace sv
