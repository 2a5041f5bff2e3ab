#pragma once
// The jsonb inputs of act.subscribe, act.widen, act.ack and act.block,
// validated and normalized (docs/reference.md, "Subscriptions and the drain").
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "act/core/event_ref.hpp"

namespace act::core {

inline constexpr const char* kDefaultLane = "default";

struct SubscriptionEntry {
  std::string stream;
  std::optional<std::string> source;              // NULL = every stream
  std::optional<std::vector<std::string>> names;  // NULL = every event name
  std::int32_t priority = 0;
  std::string lane = kDefaultLane;
  std::optional<std::int64_t> mark;  // the entry's correlated_at
};

// Entries for one stream are merged as applying them in order would:
// highest priority and mark, last lane; source and names from the first.
std::vector<SubscriptionEntry> ParseSubscriptions(const nlohmann::json& input);

// act.widen's `names`: a non-empty JSON array of event names, each 1 to
// kMaxEventNameBytes bytes and never __snapshot__ or __tombstone__ (they are
// never work). Repeats are dropped; the first occurrence keeps its place.
std::vector<std::string> ParseAddedNames(const nlohmann::json& input);

struct CorrelatorLease {
  std::string key;
  std::string by;
  std::int64_t millis = 0;
};
// JSON null (or an absent argument) is no correlator.
std::optional<CorrelatorLease> ParseCorrelator(const nlohmann::json& input);

enum class LeaseUse { kAck, kBlock };

struct LeaseEntry {
  std::string stream;
  std::string by;
  std::int64_t at = 0;       // ack: the new watermark
  bool lagging = false;      // echoed back
  std::optional<std::int32_t> retry;
  std::optional<std::int64_t> due_epoch_ms;  // ack: defer until (epoch milliseconds)
  std::optional<std::string> due_text;       // ack: defer until (a timestamptz string)
  std::string error;                         // block: the error text
  bool HasDue() const { return due_epoch_ms.has_value() || due_text.has_value(); }
};

// Keys other than a lease's own and a claim row's columns are errors, so a
// claim row can be passed back as it is but a misspelt key is refused.
// A later entry for the same stream replaces an earlier one.
// `what` names the argument in messages ("leases", or "acks" of act.claim_events).
std::vector<LeaseEntry> ParseLeases(const nlohmann::json& input, LeaseUse use, const char* what = "leases");

// A source is a pattern when it holds a regex metacharacter; otherwise it
// names one stream literally. Every pattern (a source, a selector's stream or
// source, act.query's and act.query_stats' stream) is a PostgreSQL regex
// matched in the C collation: character classes such as [[:alpha:]] and \w,
// and (?i), act on ASCII only, the same at commit, in back-fill and in every
// read, whatever the database's collation (docs/sql.md).
bool IsPattern(std::string_view source);

// The work mark an event batch gives a subscription with these names: the
// highest id whose name is listed (all names when `names` is null), never a
// snapshot or tombstone. nullopt when the batch holds no work for it.
std::optional<std::int64_t> WorkMark(const std::optional<std::vector<std::string>>& names,
                                     const std::vector<EventRef>& events);

}  // namespace act::core
