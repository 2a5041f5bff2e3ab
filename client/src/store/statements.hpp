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

// Reactions land here next: act.subscribe, act.claim, act.ack, act.block,
// act.defer, act.reset, act.unblock, act.prioritize, act.query_streams.

}  // namespace act::store_sql
