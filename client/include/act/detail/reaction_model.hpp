#pragma once
// The type-erased reactions and projections the builders record and the
// drain runs (src/react).
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "act/event.hpp"
#include "act/reaction.hpp"
#include "act/sql.hpp"

namespace act::detail {

struct ReactionModel {
  std::string event;  // the event name it reacts to
  std::string name;   // unique per event
  std::optional<Route> route;  // a fixed route (static), or:
  std::function<std::optional<Route>(const Committed& event)> resolve;  // a function of the event (dynamic)
  ReactionOptions options;
  std::function<void(const Committed& event, ReactionContext& context)> handle;
  bool discloses_pii = false;  // false: sensitive fields removed from its events

  bool is_static() const noexcept { return route.has_value(); }
};

struct ProjectionModel {
  Route route;               // always a fixed target: its version's subscription (projection_version_target)
  std::string name;          // the projection's name, the same in every version
  std::int32_t version = 1;  // 1: builds where its setup says, as before versions existed
  // Where a later version builds: its setup, truncate and handlers run with
  // only this schema on the search_path. Empty for version 1.
  std::string schema;
  // Per-event handlers by event name; an empty one leaves the event to the batch handler.
  std::map<std::string, std::function<void(const Committed& event, Sql& sql)>, std::less<>> handlers;
  std::function<void(const std::vector<Committed>& events, Sql& sql)> batch;
  std::function<void(Sql& sql)> setup;     // run once when the app starts its reactions
  std::function<void(Sql& sql)> truncate;  // empties the read model before a rebuild
  ReactionOptions options;
  bool discloses_pii = false;  // false: sensitive fields removed from its events
  // Applied in the transaction of each commit of the app's actions, not by the drain (no subscription row).
  bool run_inline = false;
  // Called after the transaction that applied the event committed, and only
  // while this version is the current one (act/projection.hpp, side_effect).
  std::map<std::string, std::function<void(const Committed& event, ReactionContext& context)>, std::less<>>
      side_effects;
};

}  // namespace act::detail
