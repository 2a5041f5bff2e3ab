#pragma once
// A consistency boundary's query (docs/dcb.md) answered through the (tag, id)
// index of act.event_tags, without the executor: act.read and act.append's
// condition check ran a plan whose start-up cost more than the lookups. For
// queries whose every item has a tag; others run core/boundary_query.hpp's SQL.
#include <functional>
#include <string>
#include <vector>

#include "act/core/boundary_query.hpp"
#include "index_scan.hpp"

namespace act::pg {

bool EveryItemTagged(const core::Query& query);

// One snapshot for every scan of a read or a check, pushed as the active one
// while it lives: the statement's (as an SPI statement would take it now) or
// the latest. So the items of one query see the same rows.
class ActiveSnapshotScope {
 public:
  explicit ActiveSnapshotScope(ScanSnapshot snapshot);
  ~ActiveSnapshotScope();
  ActiveSnapshotScope(const ActiveSnapshotScope&) = delete;
  ActiveSnapshotScope& operator=(const ActiveSnapshotScope&) = delete;
};

// Lookups through the active snapshot (open within an ActiveSnapshotScope).
class TagIndexMatcher {
 public:
  TagIndexMatcher();
  // The ids of the events matching `item` (which has a tag) with after < id
  // <= at_most, in id order, to `on_match` until it returns false.
  void ForEachMatch(const core::QueryItem& item, int64 after, int64 at_most, const std::function<bool(int64)>& on_match);
  // The event's row, for its columns (event().Column, DeformedAt), or false.
  bool FindEvent(int64 id, int columns);
  IndexScan& event() { return events_; }
  // The event's tags in the order given.
  std::vector<std::string> Tags(int64 id);

 private:
  bool Matches(int64 id, const core::QueryItem& item);

  IndexScan events_;
  IndexScan tags_;
  int name_column_;
  int tag_column_;
};

}  // namespace act::pg
