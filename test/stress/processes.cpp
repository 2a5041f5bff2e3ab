#include "processes.hpp"

#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <exception>
#include <system_error>
#include <thread>

namespace stress {

Processes::~Processes() {
  for (pid_t pid : running_) {
    kill(pid, SIGKILL);
    waitpid(pid, nullptr, 0);
  }
}

pid_t Processes::Spawn(const std::function<int()>& body) {
  // Buffered output would otherwise be printed by the parent and the child.
  std::fflush(stdout);
  std::fflush(stderr);
  const pid_t pid = fork();
  if (pid < 0) throw std::system_error(errno, std::generic_category(), "fork");
  if (pid > 0) {
    running_.push_back(pid);
    return pid;
  }
  // A child outlives no killed parent; it leaves by _exit so it never runs the
  // parent's destructors (they would close the parent's connections and files).
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  int status = 1;
  try {
    status = body();
  } catch (const std::exception& error) {
    std::fprintf(stderr, "process %d: %s\n", getpid(), error.what());
  }
  std::fflush(stdout);
  std::fflush(stderr);
  _exit(status);
}

void Processes::Kill(pid_t pid) {
  kill(pid, SIGKILL);
  waitpid(pid, nullptr, 0);
  running_.erase(std::remove(running_.begin(), running_.end(), pid), running_.end());
}

int Processes::Wait(Clock::time_point deadline) {
  int failed = 0;
  bool late = false;
  while (!running_.empty()) {
    if (!late && Clock::now() >= deadline) {
      // Killed children end by a signal, so each counts as failed below.
      late = true;
      std::fprintf(stderr, "# %zu processes still running at the deadline: killed\n", running_.size());
      for (pid_t pid : running_) kill(pid, SIGKILL);
    }
    for (auto pid = running_.begin(); pid != running_.end();) {
      int status = 0;
      if (waitpid(*pid, &status, WNOHANG) == *pid) {
        if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) ++failed;
        pid = running_.erase(pid);
      } else {
        ++pid;
      }
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return failed;
}

}  // namespace stress
