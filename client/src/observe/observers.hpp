#pragma once
// The app's logger and lifecycle callbacks, called so that nothing they do
// reaches the thread that called them: a callback's throw is logged, a
// logger's is dropped.
#include <string>
#include <string_view>
#include <vector>

#include "act/detail/listeners.hpp"

namespace act::app_detail {

class Observers {
 public:
  explicit Observers(detail::Listeners listeners);

  void log(LogLevel level, std::string_view message, const LogFields& fields = {}) const noexcept;

  void committed(const std::vector<Committed>& events) const noexcept;
  void acked(const Acked& acked) const noexcept;
  void blocked(const ReactionFailure& failure) const noexcept;
  void settled(const SettleResult& result) const noexcept;

  // A failed attempt or a refused cycle, met by a cycle on any thread: to
  // on_failure and on_error. Nothing is logged: settle() and drain() return
  // it, and a worker logs what nobody heard (log_unheard).
  void heard_failure(std::string_view where, const ReactionFailure& failure) const noexcept;
  // A failure a worker met: to on_failure or, without one, the log; and on_error.
  void worker_failed(std::string_view where, const ReactionFailure& failure) const noexcept;
  // A worker's failures that no on_failure listener heard: to the log.
  void log_unheard(const DrainResult& result) const noexcept;
  // An error outside any cycle (a lost wake-up connection, a failed flush): logged, and to on_error.
  void error(std::string_view where, std::string_view error, LogLevel level = LogLevel::kError) const noexcept;

 private:
  template <class Event>
  void notify(std::string_view name, const std::function<void(const Event&)>& callback,
              const Event& event) const noexcept;
  void log_failure(const ReactionFailure& failure) const noexcept;
  void to_on_error(std::string_view where, std::string_view error, const ReactionFailure* failure) const noexcept;

  const detail::Listeners listeners_;
};

}  // namespace act::app_detail
