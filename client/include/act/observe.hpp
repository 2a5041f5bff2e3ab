#pragma once
// Watching an app from outside (docs/reactions.md, "Observing the app"): a
// logger port for what the library meets and must not swallow, and what the
// lifecycle callbacks of AppBuilder hear.
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "act/drain.hpp"

namespace act {

enum class LogLevel { kDebug, kInfo, kWarning, kError };
std::string_view to_string(LogLevel level) noexcept;

// A log line's context, for structured logs: target, lane, stream, error...
using LogFields = std::map<std::string, std::string, std::less<>>;

// The logger port: implement it to send the library's log lines to your own
// logging. Called from worker threads, from several at once: an
// implementation must be thread-safe. A throw from it is ignored.
class Logger {
 public:
  virtual ~Logger() = default;
  virtual void log(LogLevel level, std::string_view message, const LogFields& fields) = 0;
};

// One line per call on stderr, `pg_act: warning: message key=value ...`;
// lines below `threshold` are dropped. What an app logs to unless given a logger.
std::shared_ptr<Logger> stderr_logger(LogLevel threshold = LogLevel::kInfo);

// A watermark moved: the acknowledgement of `target` up to event `at` landed.
struct Acked {
  std::string lane;
  std::string target;
  std::int64_t at = -1;
};

// An error met on the reaction side: a failed handler attempt (failure set),
// or a cycle, correlate pass, flush or wake-up connection that the database
// refused (failure empty).
struct WorkerError {
  std::string where;  // "lane <name>", "correlator" or "waker"
  std::string error;
  std::optional<ReactionFailure> failure;
};

}  // namespace act
