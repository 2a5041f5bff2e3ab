#pragma once
// The log as an auditor reads it (docs/hash-chain.md): the streams that hold
// events page by page, their hash chains checked in batches (act.verify),
// and what lies before a chain's first bad version; and the Merkle log's
// tables, proofs and checkpoints in one transaction (log_transaction.hpp).
// Beside act::Store, over the same kind of pool.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "act/log_transaction.hpp"
#include "act/pool.hpp"
#include "act/store.hpp"

namespace act {

// A stream with events, and how many its versions span (last - first + 1:
// the count, unless versions are missing).
struct StreamSpan {
  std::string stream;
  std::int64_t events = 0;
};

// One page of stream names in the database's collation order.
struct StreamPage {
  std::vector<StreamSpan> streams;  // the names read that match the pattern
  std::int32_t read = 0;            // names read, matching or not
  std::string last;                 // the last name read: where the next page starts
};

// What precedes a stream's first bad version.
struct ChainStart {
  std::optional<std::int32_t> previous_version;  // the highest version below it still stored
  bool anchored = false;                         // an anchor starts the stream at that version
};

// A row of act.verify_log: an entry whose event does not match it.
struct LogProblem {
  std::int64_t position = 0;
  std::optional<std::int64_t> id;  // none: the entry's event is gone
  std::string problem;
};

class LogStore {
 public:
  explicit LogStore(std::shared_ptr<ConnectionPool> pool);

  // Up to page_size names after `after` ("" : from the first), each with its
  // span when it matches `pattern` (a POSIX regex in the C collation; none:
  // every stream). A page that read fewer than page_size names is the last.
  // No SQL function lists names without reading their events, so this walks
  // act.events' (stream, version) index, one probe per stream.
  StreamPage stream_page(const std::string& after, std::int32_t page_size,
                         const std::optional<std::string>& pattern = std::nullopt);
  // The span of one stream; none when it has no events.
  std::optional<std::int64_t> stream_span(const std::string& stream);

  // act.verify of each stream, in the given order, in one round trip. A
  // stream without events has no row. Parallel query is off for the batch:
  // act.verify(stream) is planned for the whole log, and with workers each
  // call would start them (40 ms for a stream that takes 0.2 ms without).
  std::vector<ChainCheck> verify_streams(const std::vector<std::string>& streams);

  ChainStart chain_start(const std::string& stream, std::int32_t first_bad_version);

  // The newest checkpoints first, at most max_rows: one index scan
  // (act.checkpoints' key is the size), no transaction of its own.
  std::vector<StoredCheckpoint> checkpoints(std::int32_t max_rows);
  // act.verify_log over the entries from from_size to to_size (none: the
  // tree's size): each present event's hash recomputed and compared with
  // its entry, so its cost grows with the range. In position order.
  std::vector<LogProblem> verify_log(std::int64_t from_size, std::optional<std::int64_t> to_size);
  // The verifier keys registered for checkpoint signatures and witness
  // cosignatures (act.log_keys), as C2SP vkey texts, by name.
  std::vector<std::string> verifier_keys();

  // The Merkle log as of one moment: its reads share one snapshot.
  LogTransaction snapshot();
  // A transaction that seals, signs and stores checkpoints; kept only when committed.
  LogTransaction transaction();

 private:
  std::shared_ptr<ConnectionPool> pool_;
};

}  // namespace act
