#pragma once
// Forked child processes for the stress scenarios: each child runs one
// function and exits; the group kills whatever still runs when it ends.
#include <sys/types.h>

#include <chrono>
#include <functional>
#include <vector>

namespace stress {

using Clock = std::chrono::steady_clock;

class Processes {
 public:
  Processes() = default;
  Processes(const Processes&) = delete;
  Processes& operator=(const Processes&) = delete;
  ~Processes();

  // Forks a child that runs body and exits with its result (1 when it throws).
  pid_t Spawn(const std::function<int()>& body);
  // SIGKILLs one child and reaps it.
  void Kill(pid_t pid);
  // Reaps every child, killing those still running at the deadline. Returns how
  // many failed: a non-zero exit, a signal, or the deadline.
  int Wait(Clock::time_point deadline);

 private:
  std::vector<pid_t> running_;
};

}  // namespace stress
