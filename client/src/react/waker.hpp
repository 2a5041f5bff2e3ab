#pragma once
// Waits for commits on a connection of its own and wakes the workers:
// LISTEN act_commit when the database sends notifications, act.wait on the
// horizon otherwise (and as a check between notifications, for commits made
// with act.notify off). A lost connection is reopened with capped backoff.
// Only a hint: the workers drain on their own cycle too. A notification that
// names its stream is also passed on (the app's cache drops what it made stale).
#include <chrono>
#include <functional>
#include <string>

#include "act/drain.hpp"
#include "observe/observers.hpp"
#include "react/commit_notice.hpp"
#include "react/signal.hpp"

namespace act::react {

class Waker {
 public:
  using NoticeHandler = std::function<void(const CommitNotice&)>;

  Waker(std::string conninfo, WorkerOptions options, std::function<void()> wake, const app_detail::Observers& observers,
        NoticeHandler on_notice = {})
      : conninfo_(std::move(conninfo)),
        options_(options),
        wake_(std::move(wake)),
        observers_(observers),
        on_notice_(std::move(on_notice)) {}

  // Runs until stop is signalled.
  void run(Signal& stop);

 private:
  // Watches until stop or a failure; resets backoff once connected.
  void watch(Signal& stop, std::chrono::milliseconds& backoff);

  const std::string conninfo_;
  const WorkerOptions options_;
  const std::function<void()> wake_;
  const app_detail::Observers& observers_;  // told of each lost connection
  const NoticeHandler on_notice_;
};

}  // namespace act::react
