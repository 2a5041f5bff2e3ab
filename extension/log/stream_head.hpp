#pragma once
// A stream's head (last version, closed or not, last hash) as a commit or a
// truncate must build on it.
#include <optional>
#include <string>

#include "act/core/event_hash.hpp"
#include "error_bridge.hpp"
#include "index_scan.hpp"

namespace act::pg {

struct StreamHead {
  int32 version = -1;  // -1: the stream has no events
  bool closed = false;
  core::Hash hash{};
};

// The head as a read-write statement sees it now: in READ COMMITTED the
// latest committed head (after the fence or the stream's lock), under a
// transaction snapshot the snapshot's; the transaction's own commits included.
StreamHead ReadHead(Datum stream);

// The head as the calling statement's snapshot shows it (act.version).
StreamHead ReadVisibleHead(Datum stream);

// The lowest version of the stream whose event's id is above `after`, as
// `snapshot` shows the stream (its head + 1 when there is
// none, 0 for an empty stream): the start of the (stream, version) index
// range that holds the stream's events after an id. Within a stream ids
// grow with versions, so it is found by bisecting versions, one index probe
// each; a short stream (under 64 versions) is not bisected: its first
// version is returned, the range being short anyway; 0, the lowest version,
// without a probe when `after` is negative (a watermark never moved).
// The read that uses it must see the stream through the same snapshot: a
// truncate committed in between would renumber it from 0.
int32 FirstVersionAfter(Datum stream, int64 after, ScanSnapshot snapshot);

// The head as the newest committed data has it, whatever the snapshot.
StreamHead ReadLatestHead(Datum stream);
bool SameHead(const StreamHead& a, const StreamHead& b);

// The head to build on. Under a transaction snapshot (REPEATABLE READ,
// SERIALIZABLE) that no longer shows the latest head, writing would fork the
// stream: a closed stream or a concurrency conflict, whatever was expected.
StreamHead CurrentHead(Datum stream, const std::string& name, std::optional<long long> expected);

}  // namespace act::pg
