#include "app/center_task.h"

#include <algorithm>

#include "anim/model.h"

namespace sv {

CenterTask::~CenterTask() {
  if (state_ != nullptr) state_->progress.cancel = true;
  if (thread_.joinable()) thread_.join();
}

void CenterTask::start(const Model& model, bool eight) {
  if (state_ != nullptr) return;
  state_ = std::make_unique<State>();
  State* s = state_.get();
  thread_ = std::thread([s, &model, eight] {
    // Half the cores: the window and the CPU skinning path keep theirs.
    const unsigned threads = std::max(1u, std::thread::hardware_concurrency() / 2);
    s->result = compute_rotation_centers(model, eight, &s->progress, threads);
    s->finished.store(true, std::memory_order_release);
  });
}

void CenterTask::wait() {
  if (thread_.joinable()) thread_.join();
  collect();
}

void CenterTask::collect() const {
  if (collected_ || state_ == nullptr || !state_->finished.load(std::memory_order_acquire)) return;
  centers_ = std::move(state_->result);
  collected_ = true;
}

bool CenterTask::done() const noexcept {
  collect();
  return collected_;
}

float CenterTask::progress() const noexcept {
  if (state_ == nullptr) return 0.0f;
  if (collected_) return 1.0f;
  const auto total = state_->progress.total.load();
  const auto done = state_->progress.done.load();
  return total == 0 ? 0.0f
                    : static_cast<float>(static_cast<double>(done) / static_cast<double>(total));
}

}  // namespace sv
