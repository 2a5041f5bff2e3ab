#pragma once
// Which version of a projection is current, and moving that in one
// transaction (docs/reactions.md, "A new projection version"). One row per
// versioned projection in act_projection_versions, in the database of its
// read model (each partition's, on a partition set): the current version,
// and how far side effects have run.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "act/detail/reaction_model.hpp"
#include "act/pool.hpp"
#include "act/projection_version.hpp"
#include "db/session.hpp"

namespace act::react {

class Registry;

// The projections of the registry that need a row: a name with a later
// version, or with side effects to gate.
bool versioned(const Registry& registry, const detail::ProjectionModel& projection);

// At startup, after the setups: the table, a row for each versioned name
// (current: the lowest version this app declares, when no row exists yet),
// and the reading schema's views of the current version.
void set_up_versions(ConnectionPool& pool, const Registry& registry);

// In a projection's transaction, before its acknowledgement: whether this
// version is current, and if so the last event whose side effects have run
// (then raised to applied_to). Locks the row until the transaction ends, so
// a switch waits for it and it for a switch.
struct Gate {
  bool live = false;
  std::int64_t after = 0;  // run side effects of events above it
};
Gate pass_gate(db::Session& session, const detail::ProjectionModel& projection, std::int64_t applied_to);

// The current version of name; nullopt when no app declared a later version or a side effect of it here.
std::optional<std::int32_t> current_version(ConnectionPool& pool, const std::string& name);

ProjectionLag lag_of(ConnectionPool& pool, const detail::ProjectionModel& version,
                     const std::vector<std::string>& names);

// One partition's switch, in one transaction: the version becomes current
// when it has at most max_lag events still to apply; the views move and the
// side-effect mark is raised to its watermark. Events between the old mark
// and that watermark (applied by this version while it was not current, not
// yet reached by the old one) are handed to run_effects after the commit.
struct SwitchStep {
  bool switched = false;
  std::int32_t from = 1;
  std::int64_t lag = 0;
  std::vector<Committed> owed;  // events whose side effects nobody ran
};
SwitchStep switch_to(ConnectionPool& pool, const detail::ProjectionModel& version,
                     const std::vector<std::string>& names, std::int64_t max_lag);

// Drops what the version built and stops its subscription for good.
void drop_version(ConnectionPool& pool, const std::string& name, std::int32_t version);

}  // namespace act::react
