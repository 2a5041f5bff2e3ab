#include "observe/observers.hpp"

#include <exception>

namespace act::app_detail {
namespace {

LogFields failure_fields(const ReactionFailure& failure) {
  LogFields fields{{"error", failure.error}};
  if (!failure.target.empty()) fields.emplace("target", failure.target);
  if (!failure.reaction.empty()) fields.emplace("reaction", failure.reaction);
  if (failure.event_id) fields.emplace("event_id", std::to_string(*failure.event_id));
  if (!failure.event_name.empty()) fields.emplace("event_name", failure.event_name);
  if (!failure.stream.empty()) fields.emplace("stream", failure.stream);
  if (!failure.target.empty()) fields.emplace("retry", std::to_string(failure.retry));
  if (failure.blocked) fields.emplace("blocked", "true");
  return fields;
}

std::string_view failure_message(const ReactionFailure& failure) {
  if (failure.target.empty()) return "worker cycle failed, tried again later";
  return failure.blocked ? "reaction failed, stream blocked until unblocked" : "reaction failed";
}

detail::Listeners with_default_logger(detail::Listeners listeners) {
  if (!listeners.logger) listeners.logger = stderr_logger();
  return listeners;
}

}  // namespace

Observers::Observers(detail::Listeners listeners) : listeners_(with_default_logger(std::move(listeners))) {}

void Observers::log(LogLevel level, std::string_view message, const LogFields& fields) const noexcept {
  try {
    listeners_.logger->log(level, message, fields);
  } catch (...) {  // a logger that cannot log has nobody left to tell
  }
}

// Calls a callback; its throw is logged, never passed on to the worker.
template <class Event>
void Observers::notify(std::string_view name, const std::function<void(const Event&)>& callback,
                       const Event& event) const noexcept {
  if (!callback) return;
  try {
    callback(event);
  } catch (const std::exception& thrown) {
    log(LogLevel::kError, "a callback threw", {{"callback", std::string(name)}, {"error", thrown.what()}});
  } catch (...) {
    log(LogLevel::kError, "a callback threw", {{"callback", std::string(name)}, {"error", "not a std::exception"}});
  }
}

void Observers::committed(const std::vector<Committed>& events) const noexcept {
  notify("on_committed", listeners_.on_committed, events);
}
void Observers::acked(const Acked& acked) const noexcept { notify("on_acked", listeners_.on_acked, acked); }
void Observers::blocked(const ReactionFailure& failure) const noexcept {
  notify("on_blocked", listeners_.on_blocked, failure);
}
void Observers::settled(const SettleResult& result) const noexcept {
  notify("on_settled", listeners_.on_settled, result);
}

void Observers::to_on_error(std::string_view where, std::string_view error,
                            const ReactionFailure* failure) const noexcept {
  if (!listeners_.on_error) return;
  try {
    WorkerError worker_error{std::string(where), std::string(error), std::nullopt};
    if (failure) worker_error.failure = *failure;
    notify("on_error", listeners_.on_error, worker_error);
  } catch (...) {  // out of memory building it: nothing to tell
  }
}

void Observers::heard_failure(std::string_view where, const ReactionFailure& failure) const noexcept {
  notify("on_failure", listeners_.on_failure, failure);
  to_on_error(where, failure.error, &failure);
}

void Observers::worker_failed(std::string_view where, const ReactionFailure& failure) const noexcept {
  if (!listeners_.on_failure) log_failure(failure);
  heard_failure(where, failure);
}

void Observers::log_failure(const ReactionFailure& failure) const noexcept {
  try {
    log(failure.blocked || failure.target.empty() ? LogLevel::kError : LogLevel::kWarning, failure_message(failure),
        failure_fields(failure));
  } catch (...) {
  }
}

void Observers::log_unheard(const DrainResult& result) const noexcept {
  if (listeners_.on_failure) return;  // the listener heard them in the cycle
  for (const ReactionFailure& failure : result.failures) log_failure(failure);
  const auto reported = static_cast<std::int32_t>(result.failures.size());
  if (result.failed > reported) {
    try {
      log(LogLevel::kWarning, "more failed attempts in the cycle",
          {{"count", std::to_string(result.failed - reported)}});
    } catch (...) {
    }
  }
}

void Observers::error(std::string_view where, std::string_view error, LogLevel level) const noexcept {
  try {
    log(level, "worker error", {{"where", std::string(where)}, {"error", std::string(error)}});
  } catch (...) {
  }
  to_on_error(where, error, nullptr);
}

}  // namespace act::app_detail
