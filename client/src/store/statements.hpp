#pragma once
// The SQL the client sends: one prepared statement per act function.
// Results come back as text the client can read without session settings:
// jsonb as text, created as epoch microseconds, hash as hex.
#include "db/statement.hpp"

namespace act::store_sql {

// Every call, as its declaration in sql/api/ has it (scripts/build-client-calls.sh
// writes each #define from the line before it; `make client-calls`).
// call: api/commit.sql
#define ACT_CALL_COMMIT "act.commit($1::text, $2::jsonb, $3::jsonb, $4::bigint)"
// call: api/commit_by_key.sql
#define ACT_CALL_COMMIT_BY_KEY "act.commit_by_key($1::text, $2::text)"
// call: api/query.sql named names=CASE WHEN $4::jsonb IS NULL THEN NULL ELSE ARRAY(SELECT jsonb_array_elements_text($4::jsonb)) END
#define ACT_CALL_QUERY "act.query(stream => $1::text, after => $2::bigint, before => $3::bigint, names => CASE WHEN $4::jsonb IS NULL THEN NULL ELSE ARRAY(SELECT jsonb_array_elements_text($4::jsonb)) END, max_events => $5::int, backward => $6::boolean, stream_exact => $7::boolean, created_after => $8::timestamptz, created_before => $9::timestamptz, correlation => $10::text, with_snaps => $11::boolean)"
// call: api/read.sql
#define ACT_CALL_READ "act.read($1::jsonb, $2::bigint, $3::int)"
// call: api/append.sql
#define ACT_CALL_APPEND "act.append($1::jsonb, $2::jsonb, $3::jsonb)"
// call: api/version.sql
#define ACT_CALL_VERSION "act.version($1::text)"
// call: api/max_event_id.sql
#define ACT_CALL_MAX_EVENT_ID "act.max_event_id()"
// call: api/horizon.sql
#define ACT_CALL_HORIZON "act.horizon()"
// call: api/wait.sql
#define ACT_CALL_WAIT "act.wait($1::bigint, $2::int)"
// call: api/query_stats.sql
#define ACT_CALL_QUERY_STATS "act.query_stats($1::jsonb, $2::jsonb)"
// call: api/truncate.sql
#define ACT_CALL_TRUNCATE "act.truncate($1::jsonb)"
// call: api/forget_pii.sql
#define ACT_CALL_FORGET_PII "act.forget_pii($1::text)"
// call: api/verify.sql
#define ACT_CALL_VERIFY "act.verify($1::text)"
// call: api/subscribe.sql
#define ACT_CALL_SUBSCRIBE "act.subscribe($1::jsonb, $2::bigint, $3::jsonb)"
// call: api/widen.sql
#define ACT_CALL_WIDEN "act.widen($1::text, $2::jsonb)"
// call: api/take_over.sql
#define ACT_CALL_TAKE_OVER "act.take_over($1::text, $2::text, $3::boolean)"
// call: api/claim.sql
#define ACT_CALL_CLAIM "act.claim($1::int, $2::int, $3::text, $4::int, $5::text)"
// call: api/claim_events.sql
#define ACT_CALL_CLAIM_EVENTS "act.claim_events($1::int, $2::int, $3::text, $4::int, $5::text, $6::int, $7::jsonb, $8::int, $9::int)"
// call: api/ack.sql
#define ACT_CALL_ACK "act.ack($1::jsonb)"
// call: api/block.sql
#define ACT_CALL_BLOCK "act.block($1::jsonb)"
// call: api/defer.sql
#define ACT_CALL_DEFER "act.defer($1::jsonb, $2::timestamptz)"
// call: api/reset.sql
#define ACT_CALL_RESET "act.reset($1::jsonb)"
// call: api/unblock.sql
#define ACT_CALL_UNBLOCK "act.unblock($1::jsonb)"
// call: api/prioritize.sql
#define ACT_CALL_PRIORITIZE "act.prioritize($1::jsonb, $2::int)"
// call: api/query_streams.sql
#define ACT_CALL_QUERY_STREAMS "act.query_streams($1::jsonb, $2::text, $3::int)"
// call: api/release.sql
#define ACT_CALL_RELEASE "act.release($1::jsonb)"
// call: api/status.sql
#define ACT_CALL_STATUS "act.status()"
// call: api/metrics.sql
#define ACT_CALL_METRICS "act.metrics()"
// call: api/lag.sql
#define ACT_CALL_LAG "act.lag($1::text, $2::int)"

// Columns of an act.events row, in the order event_rows.cpp reads them.
#define ACT_EVENT_COLUMNS                                                                              \
  "e.id, e.stream, e.version, e.name, e.data::text, e.meta::text, e.pii::text, "                       \
  "(extract(epoch FROM e.created) * 1000000)::bigint, encode(e.hash, 'hex')"

inline constexpr db::Statement kCommit{
    "act_commit", "act.commit",
    "SELECT " ACT_EVENT_COLUMNS " FROM " ACT_CALL_COMMIT " e"};

// The commit of an inline projection's transaction (react/inline_commit.cpp),
// queued behind BEGIN: a last column tells whether this transaction wrote
// the rows (false: a keyed commit answered with an earlier commit's rows,
// which its own transaction applied already). A replay writes nothing, and
// nothing before act.commit in that transaction takes a transaction id.
inline constexpr db::Statement kCommitInline{
    "act_commit_inline", "act.commit",
    "SELECT " ACT_EVENT_COLUMNS ", pg_current_xact_id_if_assigned() IS NOT NULL "
    "FROM " ACT_CALL_COMMIT " e"};

inline constexpr db::Statement kCommitByKey{
    "act_commit_by_key", "act.commit_by_key",
    "SELECT " ACT_EVENT_COLUMNS " FROM " ACT_CALL_COMMIT_BY_KEY " e"};

// names travel as a jsonb array (no array parameters in libpqxx 6).
inline constexpr db::Statement kQuery{
    "act_query", "act.query",
    "SELECT " ACT_EVENT_COLUMNS " FROM " ACT_CALL_QUERY " e"};

// act.query with the event's JSON as the server's text (act::StoredEvent), no hash.
inline constexpr db::Statement kQueryStored{
    "act_query_stored", "act.query",
    "SELECT e.id, e.stream, e.version, e.name, e.data::text, e.meta::text, e.pii::text, "
    "(extract(epoch FROM e.created) * 1000000)::bigint FROM " ACT_CALL_QUERY " e"};

inline constexpr db::Statement kAppend{"act_append", "act.append",
                                       "SELECT " ACT_EVENT_COLUMNS " FROM " ACT_CALL_APPEND " e"};

#undef ACT_EVENT_COLUMNS

// act.read's rows: the columns of an act.events row (act.read sends no pii
// and no hash), then the tags.
inline constexpr db::Statement kRead{
    "act_read", "act.read",
    "SELECT r.id, r.stream, r.version, r.name, r.data::text, r.meta::text, NULL::text,"
    " (extract(epoch FROM r.created) * 1000000)::bigint, NULL::text, to_json(r.tags)::text FROM " ACT_CALL_READ " r"};

inline constexpr db::Statement kVersion{"act_version", "act.version", "SELECT " ACT_CALL_VERSION};
inline constexpr db::Statement kMaxEventId{"act_max_event_id", "act.max_event_id", "SELECT " ACT_CALL_MAX_EVENT_ID};
inline constexpr db::Statement kHorizon{"act_horizon", "act.horizon", "SELECT " ACT_CALL_HORIZON};
inline constexpr db::Statement kWait{"act_wait", "act.wait", "SELECT " ACT_CALL_WAIT};

inline constexpr db::Statement kQueryStats{
    "act_query_stats", "act.query_stats",
    "SELECT s.stream, s.head::text, s.tail::text, s.count, s.names::text "
    "FROM " ACT_CALL_QUERY_STATS " s"};

inline constexpr db::Statement kTruncate{
    "act_truncate", "act.truncate",
    "SELECT t.stream, t.deleted, t.id, t.version, t.name, (extract(epoch FROM t.before) * 1000000)::bigint "
    "FROM " ACT_CALL_TRUNCATE " t"};

inline constexpr db::Statement kForgetPii{"act_forget_pii", "act.forget_pii", "SELECT " ACT_CALL_FORGET_PII};

inline constexpr db::Statement kVerify{
    "act_verify", "act.verify", "SELECT v.stream, v.events, v.valid, v.first_bad_version FROM " ACT_CALL_VERIFY " v"};

inline constexpr db::Statement kCreateExtension{"act_create_extension", "CREATE EXTENSION",
                                                "CREATE EXTENSION IF NOT EXISTS pg_act"};

// Reactions. Lease rows (claim, ack, block) share their first seven columns.
inline constexpr db::Statement kSubscribe{
    "act_subscribe", "act.subscribe",
    "SELECT s.subscribed, s.watermark, s.correlated_at, s.correlating "
    "FROM " ACT_CALL_SUBSCRIBE " s"};

inline constexpr db::Statement kWiden{
    "act_widen", "act.widen",
    "SELECT w.stream, to_jsonb(w.names)::text, to_jsonb(w.added)::text, w.at, w.correlated_at "
    "FROM " ACT_CALL_WIDEN " w"};

inline constexpr db::Statement kTakeOver{
    "act_take_over", "act.take_over",
    "SELECT t.stream, t.source, t.at, t.former, t.former_source FROM " ACT_CALL_TAKE_OVER " t"};

inline constexpr db::Statement kClaim{
    "act_claim", "act.claim",
    "SELECT c.stream, c.source, c.at, c.by, c.retry, c.lagging, c.lane FROM " ACT_CALL_CLAIM " c"};

// A drain cycle in one call: the previous cycle's acks ride on the claim; each row carries its events.
inline constexpr db::Statement kClaimEvents{
    "act_claim_events", "act.claim_events",
    "SELECT c.stream, c.source, c.at, c.by, c.retry, c.lagging, c.lane, c.events::text "
    "FROM " ACT_CALL_CLAIM_EVENTS " c"};

// A parked lane's claim (no acks ride on it): its transaction writes only
// leases, so it commits without waiting for the WAL flush. A crash can then
// lose the lease with the claim's reply already sent; the stream is claimed
// again after the restart, as when a lease runs out: a reaction is delivered
// at least once either way (docs/reactions.md).
inline constexpr db::Statement kClaimEventsParked{
    "act_claim_events_parked", "act.claim_events",
    "SELECT c.stream, c.source, c.at, c.by, c.retry, c.lagging, c.lane, c.events::text "
    "FROM (SELECT set_config('synchronous_commit', 'off', true)) AS unflushed, " ACT_CALL_CLAIM_EVENTS " c"};

inline constexpr db::Statement kAck{
    "act_ack", "act.ack", "SELECT a.stream, a.source, a.at, a.by, a.retry, a.lagging, a.lane FROM " ACT_CALL_ACK " a"};

inline constexpr db::Statement kBlock{
    "act_block", "act.block",
    "SELECT b.stream, b.source, b.at, b.by, b.retry, b.lagging, b.lane, b.error FROM " ACT_CALL_BLOCK " b"};

inline constexpr db::Statement kDefer{"act_defer", "act.defer", "SELECT " ACT_CALL_DEFER};
inline constexpr db::Statement kReset{"act_reset", "act.reset", "SELECT " ACT_CALL_RESET};
inline constexpr db::Statement kUnblock{"act_unblock", "act.unblock", "SELECT " ACT_CALL_UNBLOCK};
inline constexpr db::Statement kRelease{"act_release", "act.release", "SELECT " ACT_CALL_RELEASE};
inline constexpr db::Statement kPrioritize{"act_prioritize", "act.prioritize",
                                           "SELECT " ACT_CALL_PRIORITIZE};

inline constexpr db::Statement kQueryStreams{
    "act_query_streams", "act.query_streams",
    "SELECT q.stream, q.source, to_jsonb(q.names)::text, q.at, q.retry, q.blocked, q.error, q.leased_by, "
    "(extract(epoch FROM q.leased_until) * 1000000)::bigint, q.priority, q.lane, "
    "(extract(epoch FROM q.deferred_at) * 1000000)::bigint, q.correlated_at "
    "FROM " ACT_CALL_QUERY_STREAMS " q"};

// Store::wait_durable: one statement, its own transaction, whose commit
// waits for its flush whatever the session's setting (local to that
// transaction; read at its commit) and has a record to flush (a
// transaction id).
inline constexpr db::Statement kWaitDurable{
    "act_wait_durable", "synchronous_commit",
    "SELECT set_config('synchronous_commit', 'on', true), pg_current_xact_id()::text"};

// A timestamptz as the server reads it (its formats, the session's time zone).
inline constexpr db::Statement kServerTime{"act_server_time", "timestamptz",
                                           "SELECT (extract(epoch FROM $1::timestamptz) * 1000000)::bigint"};

// Monitoring (act/monitor.hpp). Intervals as microseconds, times as epoch microseconds.
#define ACT_MICROS(column) "(extract(epoch FROM " column ") * 1000000)::bigint"

// act.status()'s columns of the row `t`, in the order monitoring_calls.cpp reads them.
#define ACT_STATUS_COLUMNS(t)                                                                                \
  t ".mode, " t ".horizon, " t ".max_event_id, " t ".sealed_size, " t ".subscriptions, " t ".with_work, "     \
  t ".blocked, " t ".leased, " t ".expired_leases, " ACT_MICROS(t ".oldest_work_age") ", "                    \
  ACT_MICROS(t ".horizon_held_for") ", " t ".seal_stopped"

inline constexpr db::Statement kStatus{"act_status", "act.status",
                                       "SELECT " ACT_STATUS_COLUMNS("s") " FROM " ACT_CALL_STATUS " s"};

// A router (docs/scale-out.md) has the router script's functions, not the
// extension; its act.status_by_partition() has no declaration in sql/api/.
inline constexpr db::Statement kIsRouter{"act_is_router", "router detection",
                                         "SELECT to_regprocedure('act.status_by_partition()') IS NOT NULL "
                                         "AND NOT EXISTS (SELECT FROM pg_extension WHERE extname = 'pg_act')"};

inline constexpr db::Statement kStatusByPartition{
    "act_status_by_partition", "act.status_by_partition",
    "SELECT p.partition, p.reachable, p.error, " ACT_STATUS_COLUMNS("p") " FROM act.status_by_partition() p "
    "ORDER BY p.partition"};

#undef ACT_STATUS_COLUMNS

// Samples of one metric together, labels in a stable order (the exposition format wants them grouped).
inline constexpr db::Statement kMetrics{
    "act_metrics", "act.metrics",
    "SELECT m.metric, m.labels::text, m.value FROM " ACT_CALL_METRICS " m "
    "ORDER BY m.metric COLLATE \"C\", m.labels::text COLLATE \"C\""};

inline constexpr db::Statement kLag{
    "act_lag", "act.lag",
    "SELECT l.stream, l.lane_name, l.at, l.work_mark, l.waiting_id, " ACT_MICROS("l.waiting_since") ", "
    ACT_MICROS("l.age") ", l.blocked, l.error, l.leased_by, " ACT_MICROS("l.leased_until") ", l.retry "
    "FROM " ACT_CALL_LAG " l"};

#undef ACT_MICROS

// The log as an auditor reads it (act/log_store.hpp). Stream names page by
// page: a recursive walk of act.events' (stream, version) index, one probe
// per name (a skip scan), in the database's collation, the index's order.
inline constexpr db::Statement kStreamPage{
    "act_stream_page", "act.events",
    "WITH RECURSIVE names(stream) AS ("
    " (SELECT e.stream FROM act.events e WHERE e.stream > $1 ORDER BY e.stream LIMIT 1)"
    " UNION ALL"
    " SELECT (SELECT e.stream FROM act.events e WHERE e.stream > n.stream ORDER BY e.stream LIMIT 1)"
    " FROM names n WHERE n.stream IS NOT NULL"
    "), page AS (SELECT n.stream FROM names n WHERE n.stream IS NOT NULL LIMIT $2) "
    "SELECT p.stream, m.matches, CASE WHEN m.matches THEN"
    " (SELECT max(e.version)::bigint - min(e.version) + 1 FROM act.events e WHERE e.stream = p.stream) END "
    "FROM page p CROSS JOIN LATERAL (SELECT $3::text IS NULL OR p.stream COLLATE \"C\" ~ $3 AS matches) m "
    "ORDER BY p.stream"};

inline constexpr db::Statement kStreamSpan{
    "act_stream_span", "act.events",
    "SELECT max(e.version)::bigint - min(e.version) + 1 FROM act.events e WHERE e.stream = $1"};

// act.verify(stream text) of each name of a jsonb array, in its order.
inline constexpr db::Statement kVerifyStreams{
    "act_verify_streams", "act.verify",
    "SELECT v.stream, v.events, v.valid, v.first_bad_version "
    "FROM jsonb_array_elements_text($1::jsonb) WITH ORDINALITY AS s(stream, i) "
    "CROSS JOIN LATERAL act.verify(s.stream) v ORDER BY s.i"};

inline constexpr db::Statement kChainStart{
    "act_chain_start", "act.events",
    "SELECT (SELECT max(e.version) FROM act.events e WHERE e.stream = $1 AND e.version < $2), "
    "EXISTS (SELECT FROM act.stream_anchors a WHERE a.stream = $1 AND a.version = $2)"};

}  // namespace act::store_sql
