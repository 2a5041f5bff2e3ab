#include "react/outcome.hpp"

#include <chrono>

#include "backoff.hpp"

namespace act::react {

Outcome failed(const Lease& lease, const ReactionOptions& options, std::int32_t handled, std::int64_t acked_at,
               const std::string& error, bool retryable, const Committed* event, const std::string& reaction) {
  Outcome outcome;
  if (event) outcome.failed_on(*event);
  outcome.failed_reaction = reaction;
  outcome.handled = handled;
  outcome.acked_at = acked_at;
  outcome.error = error;
  outcome.block = options.block_on_error && (!retryable || lease.retry >= options.max_retries);
  if (!outcome.block && options.backoff) {
    outcome.retry_at = timestamp_now() + app_detail::backoff_delay(*options.backoff, lease.retry);
  }
  return outcome;
}

}  // namespace act::react
