#include "act/core/event_query.hpp"

#include <vector>

namespace act::core {

std::uint32_t EventQuery::Key() const {
  const bool flags[] = {stream, stream_exact, after,    before,    names,  created_after,
                        created_before, correlation, with_snaps, backward, capped, hide_pii, work_only, from_version};
  std::uint32_t key = 0;
  for (bool flag : flags) key = (key << 1) | (flag ? 1u : 0u);
  return key;
}

std::string EventQuerySql(const EventQuery& query) {
  std::vector<std::string> where;
  if (query.after) {
    where.push_back("id > $2");
  } else if (query.with_snaps && query.stream && query.stream_exact) {
    // Resume at the latest snapshot of the stream (both directions).
    where.push_back(
        "id >= (SELECT coalesce(max(s.id), -1) FROM act.events s "
        "WHERE s.stream = $1 AND s.name = '__snapshot__')");
  }
  // Patterns match in the C collation everywhere (kPatternCollation).
  if (query.stream) where.push_back(query.stream_exact ? "stream = $1" : "stream COLLATE \"C\" ~ $1");
  if (query.from_version) where.push_back("version >= $10");
  if (query.names) where.push_back("name = ANY ($4)");
  if (query.before) where.push_back("id < $3");
  if (query.created_after) where.push_back("created > $5");
  if (query.created_before) where.push_back("created < $6");
  if (query.correlation) where.push_back("(meta ->> 'correlation') = $7");
  if (query.work_only)
    where.push_back("name <> ALL ('{__snapshot__,__tombstone__}')");
  else if (!query.with_snaps)
    where.push_back("name <> '__snapshot__'");
  // One stream's cap goes outside the LIMIT (below): with both id bounds
  // here, a generic plan takes the closed range for a narrow one and walks
  // the primary key from $2 to the horizon, every stream's events.
  const bool one_stream = query.stream && query.stream_exact;
  if (query.capped && !one_stream) where.push_back("id <= $8");

  std::string sql = query.hide_pii
                        ? "SELECT id, stream, version, name, data, meta, NULL::jsonb AS pii, created, hash FROM act.events"
                        : "SELECT * FROM act.events";
  for (std::size_t i = 0; i < where.size(); ++i) sql += (i == 0 ? " WHERE " : " AND ") + where[i];
  // Within one stream version order is id order, and (stream, version) is
  // indexed: a generic plan then never walks the whole log for one stream.
  const std::string order = std::string(one_stream ? " ORDER BY version" : " ORDER BY id") + (query.backward ? " DESC" : "");
  sql += order + " LIMIT $9";
  // The same events: in one stream id order is version order, so those
  // above the horizon are the tail of the first $9 (or, backward, none of
  // them is below one that is above).
  if (query.capped && one_stream) sql = "SELECT * FROM (" + sql + ") e WHERE id <= $8" + order;
  return sql;
}

}  // namespace act::core
