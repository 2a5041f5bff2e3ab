#pragma once
// The threads of one App::start(): joined on shutdown or, past a deadline,
// let go (detached). A thread let go runs on by itself, so whatever it uses
// it must own: the reactor's threads hold a share of the app's core.
#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace act::react {

class WorkerThreads {
 public:
  WorkerThreads() = default;
  WorkerThreads(const WorkerThreads&) = delete;
  WorkerThreads& operator=(const WorkerThreads&) = delete;
  ~WorkerThreads();  // joins what is left

  // body must not throw.
  void spawn(std::string name, std::function<void()> body);
  // Joins every thread that ends before `deadline` (none: waits for all) and
  // lets the others go; returns the names of those let go.
  std::vector<std::string> join(std::optional<std::chrono::steady_clock::time_point> deadline);
  bool empty() const noexcept { return threads_.empty(); }

 private:
  // Shared with the threads, so a thread let go can still say it ended.
  struct Ended {
    std::mutex mutex;
    std::condition_variable changed;
    std::vector<bool> flags;  // by spawn order
  };

  std::shared_ptr<Ended> ended_ = std::make_shared<Ended>();
  std::vector<std::thread> threads_;
  std::vector<std::string> names_;
};

}  // namespace act::react
