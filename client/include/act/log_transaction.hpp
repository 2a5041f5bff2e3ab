#pragma once
// The Merkle log's tables and proofs (docs/verifiable-log.md) read, and its
// checkpoints signed, inside one transaction on one pooled connection: an
// auditor's reads as of one snapshot, or a signature stored all or nothing.
// Made by act::LogStore (log_store.hpp). Hashes come as hex, as the server
// encodes them; what they must hold is the reader's to check, so a NULL or
// malformed one is handed over as it is, not refused here.
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "act/stored_event.hpp"

namespace act {

// A row of act.checkpoints: a checkpoint act.checkpoint() kept.
struct StoredCheckpoint {
  std::int64_t size = 0;
  std::optional<std::string> root;  // hex
  std::optional<std::string> note;  // the C2SP checkpoint text, signed or not yet
  Timestamp created{};
};

// An entry of the log (act.log_entries): its event's id and hash.
struct LogEntry {
  std::int64_t position = 0;
  std::optional<std::int64_t> id;
  std::optional<std::string> hash;  // hex
};

// An entry, and whether its event is still in act.events.
struct LogEntryPresence {
  LogEntry entry;
  bool event_present = false;
};

// act.prove_inclusion of one event's entry.
struct InclusionProof {
  std::int64_t leaf_index = 0;
  std::int64_t tree_size = 0;
  std::optional<std::string> leaf_hash;  // hex
  std::vector<std::string> path;         // hex, leaf to root
  std::optional<std::string> root;       // hex
};

// An event as the hash chain covers it (docs/hash-chain.md): the stored
// event (without pii, which the hash does not cover), its stored hash, its
// tags in order.
struct ChainedEvent {
  StoredEvent event;
  std::optional<std::string> hash;  // hex
  std::vector<std::string> tags;
};

// A row of act.stream_anchors: where a truncated stream's chain restarts.
struct StreamAnchor {
  std::string stream;
  std::int32_t version = 0;
  std::optional<std::string> prev;  // hex
};

// One run of positions a removal record lists (act.log_removals), or the
// record alone when it lists none.
struct RemovalRun {
  std::int64_t record_id = 0;
  std::optional<std::int64_t> record_position;  // none until sealed
  std::optional<std::int64_t> begin;            // [begin, end)
  std::optional<std::int64_t> end;
};

class ConnectionPool;

class LogTransaction {
 public:
  enum class Access {
    kSnapshot,  // REPEATABLE READ, READ ONLY: every read as of the first one
    kWrite,     // READ COMMITTED: signs and stores; nothing is kept unless committed
  };
  // Holds the pool until it ends.
  LogTransaction(std::shared_ptr<ConnectionPool> pool, Access access);
  ~LogTransaction();  // rolls back unless committed
  LogTransaction(LogTransaction&&) noexcept;
  LogTransaction& operator=(LogTransaction&&) noexcept;

  // act.log_size(): entries in the tree now.
  std::int64_t log_size();
  // Up to `limit` rows of act.checkpoints below `below_size`, largest first.
  std::vector<StoredCheckpoint> checkpoints_below(std::int64_t below_size, std::int32_t limit);
  // The note stored for the checkpoint of `size`; none when there is no such row.
  std::optional<std::string> checkpoint_note(std::int64_t size);
  // act.prove_consistency between two tree sizes, leaf side first.
  std::vector<std::string> consistency_proof(std::int64_t old_size, std::int64_t new_size);
  // act.prove_inclusion of the entry of event `id` in the tree of `tree_size` entries.
  InclusionProof inclusion_proof(std::int64_t id, std::int64_t tree_size);
  // act.log_entries over positions [from, to), in position order.
  std::vector<LogEntry> entries(std::int64_t from, std::int64_t to);
  // The same, each with whether its event is present.
  std::vector<LogEntryPresence> entries_with_presence(std::int64_t from, std::int64_t to);
  // Hash tiles of one level (act.log_tiles) and entry bundles (act.log_entries,
  // the table) by index: index -> the stored bytes. Missing indexes have no key.
  std::map<std::int64_t, std::string> hash_tiles(std::int32_t level, const std::vector<std::int64_t>& indexes);
  std::map<std::int64_t, std::string> entry_bundles(const std::vector<std::int64_t>& indexes);

  // Events with ids in (after_id, up_to_id], id order, at most `limit`.
  std::vector<ChainedEvent> events_between(std::int64_t after_id, std::int64_t up_to_id, std::int32_t limit);
  std::optional<ChainedEvent> event(std::int64_t id);
  // A stream's events with versions in (after_version, up_to_version], version order, at most `limit`.
  std::vector<ChainedEvent> stream_events(const std::string& stream, std::int32_t after_version,
                                          std::int32_t up_to_version, std::int32_t limit);
  std::vector<StreamAnchor> stream_anchors();
  // Every removal record's runs, by record id, then run start.
  std::vector<RemovalRun> removal_runs();

  // kWrite only. act.checkpoint(sign): seals, then the checkpoint text
  // (signed by the database's key only when `sign`).
  std::string checkpoint(bool sign);
  // act.add_checkpoint_signature: stores the signatures of a signed note on
  // its checkpoint; returns the checkpoint's size.
  std::int64_t add_checkpoint_signature(const std::string& note);

  void commit();

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace act
