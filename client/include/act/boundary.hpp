#pragma once
// Dynamic consistency boundaries (docs/dcb.md): the events a decision
// depends on, named by type and tag wherever they are, read with
// Store::read; and the condition an append states (Store::append), so that
// it fails when such an event appeared after what the decision read.
//
//   act::EventQuery course{{{{"CourseDefined", "StudentEnrolled"}, {"course:c1"}}}};
//   std::int64_t last = -1;
//   store.read(course, -1, [&](const act::Committed& event) { fold(event); last = event.id; });
//   store.append({{"course-c1", enrolled}}, act::AppendCondition{course, last});
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "act/event.hpp"

namespace act {

// Matches an event whose name is one of types (empty: any name) and which
// carries every tag of tags (empty: no tag needed).
struct QueryItem {
  std::vector<std::string> types;
  std::vector<std::string> tags;
};

// Matches an event that matches any item; no item matches nothing.
// (act::Query is act.query's read of streams; this is act.read's query.)
struct EventQuery {
  std::vector<QueryItem> items;

  nlohmann::json to_json() const;
};

// What makes an append fail (40001, nothing written).
struct AppendCondition {
  // An event matching it with id > after: AppendConditionError.
  std::optional<EventQuery> fail_if_events_match;
  // Typically the last id the decision read; empty: the whole log.
  std::optional<std::int64_t> after;
  // Per stream, as act.commit's expected_version (-1: must not exist), for
  // streams the append writes or only reads: ConcurrencyError.
  std::map<std::string, std::int32_t> expected_versions;

  nlohmann::json to_json() const;
};

// One event of an append and the stream it goes to.
struct StreamMessage {
  std::string stream;
  Message message;
};

}  // namespace act
