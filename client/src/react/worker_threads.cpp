#include "react/worker_threads.hpp"

#include <algorithm>

namespace act::react {

WorkerThreads::~WorkerThreads() { join(std::nullopt); }

void WorkerThreads::spawn(std::string name, std::function<void()> body) {
  std::size_t index = 0;
  {
    const std::lock_guard lock(ended_->mutex);
    index = ended_->flags.size();
    ended_->flags.push_back(false);
  }
  threads_.emplace_back([ended = ended_, index, body = std::move(body)]() mutable {
    body();
    // What the body held goes first: it may be the last share of the app.
    body = nullptr;
    {
      const std::lock_guard lock(ended->mutex);
      ended->flags[index] = true;
    }
    ended->changed.notify_all();
  });
  names_.push_back(std::move(name));
}

std::vector<std::string> WorkerThreads::join(std::optional<std::chrono::steady_clock::time_point> deadline) {
  std::vector<bool> ended;
  {
    std::unique_lock lock(ended_->mutex);
    const auto all_ended = [&] {
      return std::all_of(ended_->flags.begin(), ended_->flags.end(), [](bool flag) { return flag; });
    };
    if (deadline) {
      ended_->changed.wait_until(lock, *deadline, all_ended);
    } else {
      ended_->changed.wait(lock, all_ended);
    }
    ended = ended_->flags;
  }
  std::vector<std::string> let_go;
  for (std::size_t i = 0; i < threads_.size(); ++i) {
    if (ended[i]) {
      threads_[i].join();  // it has ended its work: this returns at once
    } else {
      threads_[i].detach();
      let_go.push_back(names_[i]);
    }
  }
  threads_.clear();
  names_.clear();
  ended_ = std::make_shared<Ended>();
  return let_go;
}

}  // namespace act::react
