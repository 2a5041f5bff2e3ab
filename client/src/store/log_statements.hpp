#pragma once
// The SQL of act::LogTransaction (act/log_transaction.hpp): the Merkle log's
// functions and tables. Hashes as hex; times as epoch microseconds; arrays
// of indexes travel as jsonb (no array parameters in libpqxx 6).
#include "db/statement.hpp"

namespace act::store_sql {

// Every call, as its declaration in sql/api/ has it (`make client-calls`).
// call: api/log_size.sql
#define ACT_CALL_LOG_SIZE "act.log_size()"
// call: api/log_entries.sql
#define ACT_CALL_LOG_ENTRIES "act.log_entries($1::bigint, $2::bigint)"
// call: api/prove_consistency.sql
#define ACT_CALL_PROVE_CONSISTENCY "act.prove_consistency($1::bigint, $2::bigint)"
// call: api/prove_inclusion.sql
#define ACT_CALL_PROVE_INCLUSION "act.prove_inclusion($1::bigint, $2::bigint)"
// call: api/log_removals.sql
#define ACT_CALL_LOG_REMOVALS "act.log_removals()"
// call: api/verify_log.sql
#define ACT_CALL_VERIFY_LOG "act.verify_log($1::bigint, $2::bigint)"
// call: api/add_checkpoint_signature.sql
#define ACT_CALL_ADD_CHECKPOINT_SIGNATURE "act.add_checkpoint_signature($1::text)"

inline constexpr db::Statement kLogSize{"act_log_size", "act.log_size", "SELECT s.size FROM " ACT_CALL_LOG_SIZE " s"};

// act.checkpoints is readable by act_reader; no SQL function lists it.
inline constexpr db::Statement kCheckpointsBelow{
    "act_checkpoints_below", "act.checkpoints",
    "SELECT c.size, encode(c.root, 'hex'), c.note, (extract(epoch FROM c.created) * 1000000)::bigint "
    "FROM act.checkpoints c WHERE c.size < $1 ORDER BY c.size DESC LIMIT $2"};

// act.log_keys is readable by act_reader; no SQL function lists it.
inline constexpr db::Statement kVerifierKeys{"act_verifier_keys", "act.log_keys",
                                             "SELECT k.vkey FROM act.log_keys k ORDER BY k.name, k.vkey"};

inline constexpr db::Statement kVerifyLog{
    "act_verify_log", "act.verify_log",
    "SELECT v.position, v.id, v.problem FROM " ACT_CALL_VERIFY_LOG " v ORDER BY v.position"};

inline constexpr db::Statement kCheckpointNote{"act_checkpoint_note", "act.checkpoints",
                                               "SELECT c.note FROM act.checkpoints c WHERE c.size = $1"};

inline constexpr db::Statement kConsistencyProof{
    "act_consistency_proof", "act.prove_consistency",
    "SELECT encode(u.h, 'hex') FROM unnest(" ACT_CALL_PROVE_CONSISTENCY ") WITH ORDINALITY AS u(h, i) ORDER BY u.i"};

// The path as one text of hex hashes separated by commas, leaf side first.
inline constexpr db::Statement kInclusionProof{
    "act_inclusion_proof", "act.prove_inclusion",
    "SELECT p.leaf_index, p.tree_size, encode(p.leaf_hash, 'hex'), "
    "(SELECT string_agg(encode(u.h, 'hex'), ',' ORDER BY u.i) FROM unnest(p.path) WITH ORDINALITY AS u(h, i)), "
    "encode(p.root, 'hex') FROM " ACT_CALL_PROVE_INCLUSION " p"};

inline constexpr db::Statement kLogEntries{
    "act_log_entries", "act.log_entries",
    "SELECT p.position, p.id, encode(p.hash, 'hex') FROM " ACT_CALL_LOG_ENTRIES " p ORDER BY p.position"};

inline constexpr db::Statement kLogEntriesPresence{
    "act_log_entries_presence", "act.log_entries",
    "SELECT p.position, p.id, encode(p.hash, 'hex'), e.id IS NOT NULL FROM " ACT_CALL_LOG_ENTRIES " p "
    "LEFT JOIN act.events e ON e.id = p.id ORDER BY p.position"};

inline constexpr db::Statement kHashTiles{
    "act_hash_tiles", "act.log_tiles",
    "SELECT t.idx, t.hashes FROM act.log_tiles t WHERE t.level = $1 "
    "AND t.idx = ANY (ARRAY(SELECT jsonb_array_elements_text($2::jsonb)::bigint))"};

inline constexpr db::Statement kEntryBundles{
    "act_entry_bundles", "act.log_entries",
    "SELECT b.idx, b.entries FROM act.log_entries b "
    "WHERE b.idx = ANY (ARRAY(SELECT jsonb_array_elements_text($1::jsonb)::bigint))"};

// Columns of an event as its hash covers it: the act.events shape without
// pii (event_rows.hpp), then its tags.
#define ACT_CHAINED_COLUMNS                                                                                    \
  "e.id, e.stream, e.version, e.name, e.data::text, e.meta::text, NULL::text, "                                \
  "(extract(epoch FROM e.created) * 1000000)::bigint, encode(e.hash, 'hex'), "                                 \
  "(SELECT coalesce(json_agg(t.tag ORDER BY t.ord), '[]') FROM act.event_tags t WHERE t.id = e.id)::text"

inline constexpr db::Statement kChainedEventsBetween{
    "act_chained_events_between", "act.events",
    "SELECT " ACT_CHAINED_COLUMNS " FROM act.events e WHERE e.id > $1 AND e.id <= $2 ORDER BY e.id LIMIT $3"};

inline constexpr db::Statement kChainedEvent{"act_chained_event", "act.events",
                                             "SELECT " ACT_CHAINED_COLUMNS " FROM act.events e WHERE e.id = $1"};

inline constexpr db::Statement kChainedStreamEvents{
    "act_chained_stream_events", "act.events",
    "SELECT " ACT_CHAINED_COLUMNS " FROM act.events e WHERE e.stream = $1 AND e.version > $2 AND e.version <= $3 "
    "ORDER BY e.version LIMIT $4"};

#undef ACT_CHAINED_COLUMNS

inline constexpr db::Statement kStreamAnchors{"act_stream_anchors", "act.stream_anchors",
                                              "SELECT a.stream, a.version, encode(a.prev, 'hex') FROM act.stream_anchors a"};

inline constexpr db::Statement kRemovalRuns{
    "act_removal_runs", "act.log_removals",
    "SELECT r.record_id, r.record_position, lower(u), upper(u) FROM " ACT_CALL_LOG_REMOVALS " r "
    "LEFT JOIN LATERAL unnest(r.positions) u ON true ORDER BY r.record_id, lower(u)"};

// act.checkpoint(sign): api/checkpoint.sql's second declaration (the calls are
// written from a file's first).
inline constexpr db::Statement kCheckpoint{"act_checkpoint", "act.checkpoint", "SELECT act.checkpoint($1::boolean)"};

inline constexpr db::Statement kAddCheckpointSignature{"act_add_checkpoint_signature",
                                                       "act.add_checkpoint_signature",
                                                       "SELECT " ACT_CALL_ADD_CHECKPOINT_SIGNATURE};

}  // namespace act::store_sql
