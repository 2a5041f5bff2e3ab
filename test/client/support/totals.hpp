#pragma once
// The read model the projection tests share: a total per stream in
// `table`, and one row per applied event in `table`_applied (its primary
// key turns a second application of an event into an error).
#include <functional>
#include <string>
#include <utility>

#include "act/act.hpp"
#include "support/counter.hpp"
#include "support/database.hpp"

namespace act::test::totals {

inline void create(const std::string& table, Sql& sql) {
  sql.exec("CREATE TABLE IF NOT EXISTS " + table + " (stream text PRIMARY KEY, total int NOT NULL, events int NOT NULL)");
  sql.exec("CREATE TABLE IF NOT EXISTS " + table + "_applied (event_id bigint PRIMARY KEY)");
}

inline void empty(const std::string& table, Sql& sql) { sql.exec("TRUNCATE " + table + ", " + table + "_applied"); }

inline void apply(const std::string& table, int by, const Committed& event, Sql& sql) {
  sql.exec("INSERT INTO " + table + "_applied VALUES ($1)", {event.id});
  sql.exec("INSERT INTO " + table + " AS t VALUES ($1, $2, 1) ON CONFLICT (stream) "
           "DO UPDATE SET total = t.total + excluded.total, events = t.events + 1",
           {event.stream, by});
}

// A handler's way to die as a killed worker does: it writes a row no event
// has (-1), then its session ends before the transaction commits.
inline void kill_mid_transaction(const std::string& table, Sql& sql, const TestDatabase& database) {
  sql.exec("INSERT INTO " + table + "_applied VALUES (-1)");
  const std::string pid = sql.exec("SELECT pg_backend_pid()").front().text(0);
  database.sql("SELECT pg_terminate_backend(" + pid + ")");
  sql.exec("SELECT 1");  // fails: the server ended the session
}

// The builder with the read model's setup and truncate.
inline ProjectionBuilder kept_in(ProjectionBuilder builder, const std::string& table) {
  return std::move(builder)
      .setup([table](Sql& sql) { create(table, sql); })
      .truncate([table](Sql& sql) { empty(table, sql); });
}

// The builder with a per-event Incremented handler; on_event runs first (a test's way to fail or to kill).
inline ProjectionBuilder counting(ProjectionBuilder builder, const std::string& table,
                                  std::function<void(const Committed&, Sql&)> on_event = {}) {
  return std::move(builder).on<Incremented>(
      "Incremented", [table, on_event](const Incremented& incremented, const Committed& event, Sql& sql) {
        if (on_event) on_event(event, sql);
        apply(table, incremented.by, event, sql);
      });
}

}  // namespace act::test::totals
