#pragma once
// Concurrent mode: the heads of recently written streams, in shared memory.
// A commit holding a stream's write lock takes the head from here instead of
// reading it through the (stream, version) index, a read that contends with
// the other commits' inserts on the same index pages.
//
// An entry changes only while its stream's write lock is held: act.commit
// stores the head it wrote from its transaction callback, once the commit is
// visible and before the lock is released; act.truncate drops the entry. A
// transaction's uncommitted heads are never shared: its later commits to the
// same stream read the index. Entries are keyed by database, act.events and
// a 128-bit hash of the stream's name; a full slot is overwritten.
// docs/concurrency.md gives the argument.
#include <optional>

#include "stream_head.hpp"

namespace act::pg {

// From _PG_init while shared_preload_libraries are loading.
void InstallHeadCache();

// The stream's committed head, if cached. Only in concurrent mode, in READ
// COMMITTED (a transaction snapshot must read its own view), with the
// stream's write lock held.
std::optional<StreamHead> CachedHead(Datum stream);

// The head this transaction's commit to the stream leaves; shared if and
// when the transaction commits (a rolled-back savepoint takes it back).
void RememberWrittenHead(Datum stream, const StreamHead& head);

// Drops the stream's entry at once (act.truncate, with the write lock held).
void ForgetHead(Datum stream);

}  // namespace act::pg
