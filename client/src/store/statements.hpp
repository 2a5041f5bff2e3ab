#pragma once
// The SQL the client sends: one prepared statement per act function.
// Results come back as text the client can read without session settings:
// jsonb as text, created as epoch microseconds, hash as hex.
#include "db/statement.hpp"

namespace act::store_sql {

// Columns of an act.events row, in the order event_rows.cpp reads them.
#define ACT_EVENT_COLUMNS                                                                              \
  "e.id, e.stream, e.version, e.name, e.data::text, e.meta::text, e.pii::text, "                       \
  "(extract(epoch FROM e.created) * 1000000)::bigint, encode(e.hash, 'hex')"

inline constexpr db::Statement kCommit{
    "act_commit", "act.commit",
    "SELECT " ACT_EVENT_COLUMNS " FROM act.commit($1, $2::jsonb, $3::jsonb, $4::int) e"};

// The commit of an inline projection's transaction (react/inline_commit.cpp),
// queued behind BEGIN: a last column tells whether this transaction wrote
// the rows (false: a keyed commit answered with an earlier commit's rows,
// which its own transaction applied already). A replay writes nothing, and
// nothing before act.commit in that transaction takes a transaction id.
inline constexpr db::Statement kCommitInline{
    "act_commit_inline", "act.commit",
    "SELECT " ACT_EVENT_COLUMNS ", pg_current_xact_id_if_assigned() IS NOT NULL "
    "FROM act.commit($1, $2::jsonb, $3::jsonb, $4::int) e"};

inline constexpr db::Statement kCommitByKey{
    "act_commit_by_key", "act.commit_by_key",
    "SELECT " ACT_EVENT_COLUMNS " FROM act.commit_by_key($1, $2) e"};

// names travel as a jsonb array (no array parameters in libpqxx 6).
inline constexpr db::Statement kQuery{
    "act_query", "act.query",
    "SELECT " ACT_EVENT_COLUMNS " FROM act.query(stream => $1, after => $2::bigint, before => $3::bigint, "
    "names => CASE WHEN $4::jsonb IS NULL THEN NULL ELSE ARRAY(SELECT jsonb_array_elements_text($4::jsonb)) END, "
    "max_events => $5::int, backward => $6::boolean, stream_exact => $7::boolean, "
    "created_after => $8::timestamptz, created_before => $9::timestamptz, correlation => $10, "
    "with_snaps => $11::boolean) e"};

#undef ACT_EVENT_COLUMNS

inline constexpr db::Statement kVersion{"act_version", "act.version", "SELECT act.version($1)"};
inline constexpr db::Statement kMaxEventId{"act_max_event_id", "act.max_event_id", "SELECT act.max_event_id()"};
inline constexpr db::Statement kHorizon{"act_horizon", "act.horizon", "SELECT act.horizon()"};
inline constexpr db::Statement kWait{"act_wait", "act.wait", "SELECT act.wait($1::bigint, $2::int)"};

inline constexpr db::Statement kQueryStats{
    "act_query_stats", "act.query_stats",
    "SELECT s.stream, s.head::text, s.tail::text, s.count, s.names::text "
    "FROM act.query_stats($1::jsonb, $2::jsonb) s"};

inline constexpr db::Statement kTruncate{
    "act_truncate", "act.truncate",
    "SELECT t.stream, t.deleted, t.id, t.version, t.name, (extract(epoch FROM t.before) * 1000000)::bigint "
    "FROM act.truncate($1::jsonb) t"};

inline constexpr db::Statement kForgetPii{"act_forget_pii", "act.forget_pii", "SELECT act.forget_pii($1)"};

inline constexpr db::Statement kVerify{
    "act_verify", "act.verify", "SELECT v.stream, v.events, v.valid, v.first_bad_version FROM act.verify($1) v"};

inline constexpr db::Statement kCreateExtension{"act_create_extension", "CREATE EXTENSION",
                                                "CREATE EXTENSION IF NOT EXISTS pg_act"};

// Reactions. Lease rows (claim, ack, block) share their first seven columns.
inline constexpr db::Statement kSubscribe{
    "act_subscribe", "act.subscribe",
    "SELECT s.subscribed, s.watermark, s.correlated_at, s.correlating "
    "FROM act.subscribe($1::jsonb, $2::bigint, $3::jsonb) s"};

inline constexpr db::Statement kWiden{
    "act_widen", "act.widen",
    "SELECT w.stream, to_jsonb(w.names)::text, to_jsonb(w.added)::text, w.at, w.correlated_at "
    "FROM act.widen($1, $2::jsonb) w"};

inline constexpr db::Statement kClaim{
    "act_claim", "act.claim",
    "SELECT c.stream, c.source, c.at, c.by, c.retry, c.lagging, c.lane FROM act.claim($1::int, $2::int, $3, $4::int, $5) c"};

// A drain cycle in one call: the previous cycle's acks ride on the claim; each row carries its events.
inline constexpr db::Statement kClaimEvents{
    "act_claim_events", "act.claim_events",
    "SELECT c.stream, c.source, c.at, c.by, c.retry, c.lagging, c.lane, c.events::text "
    "FROM act.claim_events($1::int, $2::int, $3, $4::int, $5, $6::int, $7::jsonb, $8::int) c"};

inline constexpr db::Statement kAck{
    "act_ack", "act.ack", "SELECT a.stream, a.source, a.at, a.by, a.retry, a.lagging, a.lane FROM act.ack($1::jsonb) a"};

inline constexpr db::Statement kBlock{
    "act_block", "act.block",
    "SELECT b.stream, b.source, b.at, b.by, b.retry, b.lagging, b.lane, b.error FROM act.block($1::jsonb) b"};

inline constexpr db::Statement kDefer{"act_defer", "act.defer", "SELECT act.defer($1::jsonb, $2::timestamptz)"};
inline constexpr db::Statement kReset{"act_reset", "act.reset", "SELECT act.reset($1::jsonb)"};
inline constexpr db::Statement kUnblock{"act_unblock", "act.unblock", "SELECT act.unblock($1::jsonb)"};
inline constexpr db::Statement kPrioritize{"act_prioritize", "act.prioritize",
                                           "SELECT act.prioritize($1::jsonb, $2::int)"};

inline constexpr db::Statement kQueryStreams{
    "act_query_streams", "act.query_streams",
    "SELECT q.stream, q.source, to_jsonb(q.names)::text, q.at, q.retry, q.blocked, q.error, q.leased_by, "
    "(extract(epoch FROM q.leased_until) * 1000000)::bigint, q.priority, q.lane, "
    "(extract(epoch FROM q.deferred_at) * 1000000)::bigint, q.correlated_at "
    "FROM act.query_streams($1::jsonb, $2, $3::int) q"};

}  // namespace act::store_sql
