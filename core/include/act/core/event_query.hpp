#pragma once
// The SQL text behind act.query: which predicates a call needs, as text with
// fixed parameter positions, so each filter combination is planned once.
#include <cstdint>
#include <string>

namespace act::core {

// Parameter positions, the same for every combination.
enum EventQueryParam : int {
  kParamStream = 1,         // text
  kParamAfter = 2,          // bigint
  kParamBefore = 3,         // bigint
  kParamNames = 4,          // text[]
  kParamCreatedAfter = 5,   // timestamptz
  kParamCreatedBefore = 6,  // timestamptz
  kParamCorrelation = 7,    // text
  kParamHorizon = 8,        // bigint
  kParamLimit = 9,          // bigint; NULL = no limit
  kParamFromVersion = 10,   // int
  kEventQueryParamCount = 10
};

struct EventQuery {
  bool stream = false;
  bool stream_exact = true;
  bool after = false;
  bool before = false;
  bool names = false;
  bool created_after = false;
  bool created_before = false;
  bool correlation = false;
  bool with_snaps = false;
  bool backward = false;
  bool capped = false;  // stay at or below the horizon
  bool hide_pii = false;  // the caller may not read pii: it reads as NULL
  bool work_only = false;  // never a snapshot or a tombstone (a drain's events)
  // One stream read after an id: version >= $10 as well, the caller having
  // found the stream's first version above that id. Without it the
  // (stream, version) index yields the stream from its first version and
  // every row up to `after` is read only to be filtered out.
  bool from_version = false;

  // One bit per flag: the key of the plan cache.
  std::uint32_t Key() const;
};

// SELECT * FROM act.events WHERE ... ORDER BY id LIMIT $9.
std::string EventQuerySql(const EventQuery& query);

// Exact-stream reads are never capped: a stream's versions are contiguous and
// writers must see their own commits (docs/concurrency.md).
inline bool NeedsHorizonCap(const EventQuery& query) { return !(query.stream && query.stream_exact); }

}  // namespace act::core
