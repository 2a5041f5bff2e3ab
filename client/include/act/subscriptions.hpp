#pragma once
// The store's reaction side (docs/reference.md, "Subscriptions and the drain"):
// subscription rows, claims and leases, and the filters that select rows.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "act/event.hpp"

namespace act {

inline constexpr std::string_view kDefaultLane = "default";

// One act.subscribe entry: a reaction target stream and what it reads.
struct SubscriptionSpec {
  std::string stream;
  std::optional<std::string> source;               // empty: every stream; a name, or a regex
  std::optional<std::vector<std::string>> names;   // empty: every event name
  std::int32_t priority = 0;
  std::string lane = std::string(kDefaultLane);
  std::optional<std::int64_t> correlated_at;       // raises the row's work mark
};

// The correlator lease of act.subscribe: one holder per key scans at a time.
struct CorrelatorLease {
  std::string key;
  std::string by;
  std::int32_t millis = 0;  // 0 or less hands the lease back
};

struct SubscribeResult {
  std::int32_t subscribed = 0;            // rows inserted
  std::int64_t watermark = -1;            // the highest `at` of any row
  std::int64_t correlated_at = -1;        // the correlate checkpoint (the lease key's, when one was given)
  std::optional<bool> correlating;        // the lease answer, when one was asked for
};

// What act.widen left of a subscription row: its names now and those the
// call added. Events of the added names at or below `at` are not handed over.
struct Widened {
  std::string stream;
  std::optional<std::vector<std::string>> names;  // empty: every event name
  std::vector<std::string> added;                 // empty: the row had them all
  std::int64_t at = -1;
  std::optional<std::int64_t> correlated_at;  // the work mark
};

// What act.take_over made of a move: the row that goes on under `stream`,
// from the watermark `at` of the row `former`, which is gone.
struct TakenOver {
  std::string stream;
  std::optional<std::string> source;  // empty: every stream
  std::int64_t at = -1;
  std::string former;
  std::optional<std::string> former_source;
};

// A claimed stream, as act.claim returns it and act.ack / act.block take it back.
struct Lease {
  std::string stream;
  std::optional<std::string> source;
  std::int64_t at = -1;  // the watermark: the last event handled
  std::string by;
  std::int32_t retry = 0;
  bool lagging = false;
  std::string lane = std::string(kDefaultLane);
};

struct Acknowledgement {
  Lease lease;
  std::int64_t at = -1;                    // the new watermark
  std::optional<Timestamp> due;            // defer the stream until then (not returned by ack)
  std::optional<std::int32_t> retry;       // with due: the retry count to keep
};

struct BlockedLease {
  Lease lease;
  std::string error;
};

// Which subscription rows an operation applies to: the listed streams when
// there is a list (an empty list selects no row), else the rows matching
// every given field (no field: all rows).
struct StreamFilter {
  static StreamFilter named(std::vector<std::string> streams) {
    StreamFilter filter;
    filter.streams = std::move(streams);
    return filter;
  }
  // One stream by its exact name.
  static StreamFilter exactly(std::string stream) {
    StreamFilter filter;
    filter.stream = std::move(stream);
    return filter;
  }

  std::optional<std::vector<std::string>> streams;  // by name; the fields below are then not used
  std::optional<std::string> stream;  // a name, or a regex when stream_exact is false
  bool stream_exact = true;
  std::optional<std::string> source;
  bool source_exact = true;
  std::optional<bool> blocked;
  std::optional<std::string> lane;
  // act.query_streams only: rows whose source may read one of these streams
  // (every stream, or matching one as a pattern or a literal; a hint that
  // may let a few extra rows through, never one that hides a row).
  std::optional<std::vector<std::string>> source_matches{};
};

// A row of act.subscriptions.
struct Subscription {
  std::string stream;
  std::optional<std::string> source;
  std::optional<std::vector<std::string>> names;
  std::int64_t at = -1;
  std::int32_t retry = -1;
  bool blocked = false;
  std::optional<std::string> error;
  std::optional<std::string> leased_by;
  std::optional<Timestamp> leased_until;
  std::int32_t priority = 0;
  std::string lane;
  std::optional<Timestamp> deferred_at;
  std::optional<std::int64_t> correlated_at;  // the work mark
};

// A source is a regex when it holds one of ^ $ . * + ? ( ) [ ] { } | \ (docs/reference.md).
bool is_pattern(std::string_view source) noexcept;

}  // namespace act
