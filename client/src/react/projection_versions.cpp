#include "react/projection_versions.hpp"

#include <algorithm>
#include <map>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "act/subscriptions.hpp"
#include "db/transact.hpp"
#include "db/transaction.hpp"
#include "react/projection_apply.hpp"
#include "react/projection_views.hpp"
#include "react/registry.hpp"
#include "store/reaction_calls.hpp"
#include "store/statements.hpp"

namespace act::react {
namespace {

// side_effects_at starts at the head when the row is made: side effects are
// for events committed after they were declared, not for the history.
constexpr const char* kCreateVersions =
    "CREATE TABLE IF NOT EXISTS act_projection_versions ("
    "name text PRIMARY KEY, current int NOT NULL, side_effects_at bigint NOT NULL, switched_at timestamptz)";

// Raises the mark only for the current version; returns the row as it was.
constexpr const char* kPassGate =
    "WITH old AS (SELECT current, side_effects_at FROM act_projection_versions WHERE name = $1 FOR UPDATE) "
    "UPDATE act_projection_versions v SET side_effects_at = CASE WHEN old.current = $2::int "
    "THEN greatest(old.side_effects_at, $3::bigint) ELSE old.side_effects_at END "
    "FROM old WHERE v.name = $1 RETURNING old.current, old.side_effects_at";

constexpr std::int32_t kCountPage = 10'000;

std::int64_t horizon(db::Session& session) {
  std::int64_t value = 0;
  session.run(store_sql::kHorizon, db::Params(), [&](const db::Row& row) { value = row.int64(0); });
  return value;
}

// The version's events in (after, through], page by page.
void each_event(db::Session& session, const detail::ProjectionModel& version, const std::vector<std::string>& names,
                std::int64_t after, std::int64_t through, const std::function<void(std::vector<Committed>&)>& on_page) {
  for (;;) {
    std::vector<Committed> page = read_page(session, version, names, after, through, kCountPage);
    if (page.empty()) return;
    after = page.back().id;
    const bool last = page.size() < static_cast<std::size_t>(kCountPage);
    on_page(page);
    if (last) return;
  }
}

std::int64_t events_after(db::Session& session, const detail::ProjectionModel& version,
                          const std::vector<std::string>& names, std::int64_t at) {
  std::int64_t count = 0;
  each_event(session, version, names, at, horizon(session),
             [&](std::vector<Committed>& page) { count += static_cast<std::int64_t>(page.size()); });
  return count;
}

Subscription subscription_of(db::Session& session, const detail::ProjectionModel& version) {
  std::optional<Subscription> row = reaction_calls::subscription_row(session, version.route.target);
  if (!row)
    throw std::logic_error("projection " + version.name + " version " + std::to_string(version.version) +
                           " has no subscription yet: start the app's reactions (or drain) first");
  return std::move(*row);
}

}  // namespace

bool versioned(const Registry& registry, const detail::ProjectionModel& projection) {
  if (projection.run_inline) return false;
  if (!projection.side_effects.empty()) return true;
  const auto& all = registry.projections();
  return std::any_of(all.begin(), all.end(),
                     [&](const auto& other) { return other->name == projection.name && other->version > 1; });
}

void set_up_versions(ConnectionPool& pool, const Registry& registry) {
  std::map<std::string, std::vector<const detail::ProjectionModel*>> by_name;
  for (const auto& projection : registry.projections()) {
    if (versioned(registry, *projection)) by_name[projection->name].push_back(projection.get());
  }
  if (by_name.empty()) return;
  db::transact(pool, [&](Sql& sql) {
    sql.exec(kSerializeSetUp);
    sql.exec(kCreateVersions);
    for (const auto& [name, versions] : by_name) {
      const auto lowest = std::min_element(versions.begin(), versions.end(),
                                           [](const auto* a, const auto* b) { return a->version < b->version; });
      sql.exec(
          "INSERT INTO act_projection_versions (name, current, side_effects_at) "
          "VALUES ($1, $2, act.max_event_id()) ON CONFLICT (name) DO NOTHING",
          {name, (*lowest)->version});
      const auto current = static_cast<std::int32_t>(
          sql.exec("SELECT current FROM act_projection_versions WHERE name = $1", {name}).front().int64(0));
      std::vector<std::string> shown;
      for (const detail::ProjectionModel* version : versions) {
        if (version->schema.empty()) continue;
        for (std::string& relation : relations_of(sql, version->schema)) shown.push_back(std::move(relation));
      }
      std::sort(shown.begin(), shown.end());
      shown.erase(std::unique(shown.begin(), shown.end()), shown.end());
      show_version(sql, name, current, shown, false);
    }
  });
}

Gate pass_gate(db::Session& session, const detail::ProjectionModel& projection, std::int64_t applied_to) {
  Gate gate;
  // The handlers ran in the version's schema; the table is where set-up made it.
  if (!projection.schema.empty()) session.exec("SET LOCAL search_path TO DEFAULT", db::Params(), {});
  session.exec(kPassGate,
               db::Params().text(std::string_view(projection.name)).number(projection.version).number(applied_to),
               [&](const db::Row& row) {
                 gate.live = row.int32(0) == projection.version;
                 gate.after = row.int64(1);
               });
  return gate;
}

std::optional<std::int32_t> current_version(ConnectionPool& pool, const std::string& name) {
  std::optional<std::int32_t> current;
  db::transact(pool, [&](Sql& sql) {
    if (sql.exec("SELECT 1 WHERE to_regclass('act_projection_versions') IS NOT NULL").empty()) return;
    const SqlResult row = sql.exec("SELECT current FROM act_projection_versions WHERE name = $1", {name});
    if (!row.empty()) current = static_cast<std::int32_t>(row.front().int64(0));
  });
  return current;
}

ProjectionLag lag_of(ConnectionPool& pool, const detail::ProjectionModel& version,
                     const std::vector<std::string>& names) {
  ProjectionLag lag;
  lag.name = version.name;
  lag.version = version.version;
  {
    ConnectionPool::Lease connection = pool.acquire();
    const Subscription row = subscription_of(connection.session(), version);
    lag.at = row.at;
    lag.live = row.correlated_at.value_or(row.at);
    lag.events = events_after(connection.session(), version, names, row.at);
  }
  lag.current = current_version(pool, version.name).value_or(1) == version.version;
  return lag;
}

SwitchStep switch_to(ConnectionPool& pool, const detail::ProjectionModel& version,
                     const std::vector<std::string>& names, std::int64_t max_lag) {
  SwitchStep step;
  ConnectionPool::Lease connection = pool.acquire();
  db::Session& session = connection.session();
  db::Transaction transaction(session);
  Sql sql(session);
  const SqlResult row = sql.exec(
      "SELECT current, side_effects_at FROM act_projection_versions WHERE name = $1 FOR UPDATE", {version.name});
  if (row.empty())
    throw std::logic_error("projection " + version.name +
                           " has no versions yet: declare its later version in the app and start it (or drain) first");
  step.from = static_cast<std::int32_t>(row.front().int64(0));
  const std::int64_t side_effects_at = row.front().int64(1);
  const Subscription subscription = subscription_of(session, version);
  step.lag = events_after(session, version, names, subscription.at);
  if (step.from == version.version) {
    step.switched = true;
    return step;
  }
  if (step.lag > max_lag) return step;  // rolled back: nothing moved
  const std::vector<std::string> shown =
      version.schema.empty() ? shown_relations(sql, version.name) : relations_of(sql, version.schema);
  show_version(sql, version.name, version.version, shown, true);
  sql.exec(
      "UPDATE act_projection_versions SET current = $2, side_effects_at = greatest(side_effects_at, $3::bigint), "
      "switched_at = now() WHERE name = $1",
      {version.name, version.version, subscription.at});
  if (!version.side_effects.empty() && subscription.at > side_effects_at) {
    each_event(session, version, names, side_effects_at, subscription.at, [&](std::vector<Committed>& page) {
      for (Committed& event : page) {
        if (version.side_effects.contains(event.name)) step.owed.push_back(std::move(event));
      }
    });
  }
  transaction.commit();
  step.switched = true;
  return step;
}

void drop_version(ConnectionPool& pool, const std::string& name, std::int32_t version) {
  db::transact(pool, [&](Sql& sql) {
    const SqlResult row = sql.exec("SELECT current FROM act_projection_versions WHERE name = $1 FOR UPDATE", {name});
    if (row.empty()) throw std::logic_error("projection " + name + " has no versions to drop");
    if (row.front().int64(0) == version)
      throw std::logic_error("version " + std::to_string(version) + " of projection " + name +
                             " is current: switch to another version before dropping it");
    drop_built(sql, name, version);
    // The contract has no call that deletes a subscription: deferred for
    // ever, it is never claimed again.
    sql.exec("SELECT act.defer($1::jsonb, '9999-12-31 00:00:00+00')",
             {nlohmann::json::array({projection_version_target(name, version)})});
  });
}

}  // namespace act::react
