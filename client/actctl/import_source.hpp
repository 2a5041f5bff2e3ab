#pragma once
// A store actctl import reads: how its rows map onto pg_act's events. Each
// peer's file (import_act_pg.cpp, import_message_db.cpp, import_emmett.cpp)
// writes its mapping as one SELECT, so what maps to what reads as SQL and
// the reader, the writer and the final check share it (docs/migrating.md).
#include <cstdint>
#include <string>

namespace actctl {

struct ImportSource {
  std::string name;  // as --from spells it: "act-pg", "message-db", "emmett"
  // A SELECT of the source's events with the columns
  //   position bigint     the source's global order, unique and increasing
  //   stream text, version bigint (0-based), name text,
  //   data jsonb, meta jsonb (the source's metadata and the keys it maps
  //   there, an object), created timestamptz (the source's own time)
  // in any order; the reader adds the order, the bounds and the limit.
  std::string events_sql;
};

// The peers' mappings. Act's Postgres store lets its user name the schema and
// table; Emmett keeps partitions in one table.
ImportSource ActPgSource(const std::string& schema, const std::string& table);
ImportSource MessageDbSource();
ImportSource EmmettSource(const std::string& partition);

// SQL quoting for the names above, which come from the command line.
std::string QuoteIdentifier(const std::string& name);  // "name", inner quotes doubled
std::string QuoteLiteral(const std::string& text);     // 'text', inner quotes doubled

}  // namespace actctl
