// Act's Postgres store (@rotorsoft/act-pg 0.4): one table, by default
// "public"."events", whose rows already are Act's events. The id is the global
// order and versions count from 0, as in pg_act. A null data or meta is {}.
#include "import_source.hpp"

namespace actctl {

ImportSource ActPgSource(const std::string& schema, const std::string& table) {
  return {"act-pg",
          "SELECT id AS position, stream::text AS stream, version::bigint AS version, name::text AS name, "
          "COALESCE(data, '{}') AS data, COALESCE(meta, '{}') AS meta, created FROM " +
              QuoteIdentifier(schema) + "." + QuoteIdentifier(table)};
}

}  // namespace actctl
