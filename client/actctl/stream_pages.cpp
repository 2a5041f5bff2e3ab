#include "stream_pages.hpp"

namespace actctl {

namespace {

// Names read per statement.
constexpr int kPageSize = 1000;

// No SQL function lists stream names page by page without reading their
// events (act.query_stats reads every event after `after` for each page), so
// this walks the (stream, version) index of act.events, which act_reader may
// read, one index probe per stream (a skip scan). It pages in the
// database's collation: the index's order.
constexpr const char* kPageSql = R"(
WITH RECURSIVE names(stream) AS (
  (SELECT e.stream FROM act.events e WHERE e.stream > $1 ORDER BY e.stream LIMIT 1)
  UNION ALL
  SELECT (SELECT e.stream FROM act.events e WHERE e.stream > n.stream ORDER BY e.stream LIMIT 1)
    FROM names n WHERE n.stream IS NOT NULL
), page AS (
  SELECT n.stream FROM names n WHERE n.stream IS NOT NULL LIMIT $2
)
SELECT p.stream, m.matches,
       CASE WHEN m.matches THEN
         (SELECT max(e.version)::bigint - min(e.version) + 1 FROM act.events e WHERE e.stream = p.stream)
       END AS events
  FROM page p CROSS JOIN LATERAL (SELECT $3::text IS NULL OR p.stream COLLATE "C" ~ $3 AS matches) m
 ORDER BY p.stream)";

constexpr const char* kOneStreamSql =
    "SELECT max(e.version)::bigint - min(e.version) + 1 FROM act.events e WHERE e.stream = $1";

}  // namespace

StreamPages::StreamPages(pqxx::transaction_base& txn, const StreamFilter& filter) : txn_(txn), filter_(filter) {}

std::vector<StreamSize> StreamPages::Next() {
  std::vector<StreamSize> streams;
  if (done_) return streams;
  if (filter_.stream && !filter_.regex) {
    done_ = true;
    const pqxx::row row = txn_.exec_params1(kOneStreamSql, *filter_.stream);
    if (!row[0].is_null()) streams.push_back({*filter_.stream, row[0].as<std::int64_t>()});
    return streams;
  }
  const std::optional<std::string> pattern = filter_.stream;
  const pqxx::result page = txn_.exec_params(kPageSql, after_, kPageSize, pattern);
  for (const pqxx::row& row : page)
    if (row["matches"].as<bool>()) streams.push_back({row["stream"].c_str(), row["events"].as<std::int64_t>()});
  if (!page.empty()) after_ = page.back()["stream"].c_str();
  done_ = static_cast<int>(page.size()) < kPageSize;
  return streams;
}

}  // namespace actctl
