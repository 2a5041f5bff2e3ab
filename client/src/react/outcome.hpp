#pragma once
// What handling one leased stream came to, and how a failure is judged
// against the reaction's retry budget (docs/reactions.md).
#include <cstdint>
#include <optional>
#include <string>

#include "act/reaction.hpp"
#include "act/subscriptions.hpp"

namespace act::react {

struct Outcome {
  std::int32_t handled = 0;   // events whose every reaction succeeded
  std::int64_t acked_at = -1; // the watermark to acknowledge
  std::optional<std::string> error;
  bool block = false;
  std::optional<Timestamp> defer_until;  // a handler asked for it
  std::optional<Timestamp> retry_at;     // backoff after a failure
  bool acknowledged = false;             // nothing left to send: acked in the projection's transaction, or left to expire
  bool lost = false;                     // that acknowledgement found the lease gone
  bool left = false;                     // another app's target: handed back untouched
  // The event whose handler threw (none: an infrastructure failure), and
  // the reaction or projection whose handler it was (empty: none ran).
  std::optional<std::int64_t> failed_id;
  std::string failed_name;
  std::string failed_stream;
  std::string failed_reaction;

  void failed_on(const Committed& event) {
    failed_id = event.id;
    failed_name = event.name;
    failed_stream = event.stream;
  }
};

// Nothing failed: acknowledge up to `at` (also how an untouched lease is handed back).
inline Outcome moved_to(std::int64_t at) {
  Outcome outcome;
  outcome.acked_at = at;
  return outcome;
}

// A failure at the lease's retry count: block once the budget is spent (or
// at once for a NonRetryableError), else retry after the backoff, if any.
Outcome failed(const Lease& lease, const ReactionOptions& options, std::int32_t handled, std::int64_t acked_at,
               const std::string& error, bool retryable, const Committed* event, const std::string& reaction);

}  // namespace act::react
