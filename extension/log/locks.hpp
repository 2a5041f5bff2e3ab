#pragma once
// pg_act's heavyweight locks, all transaction-scoped. The fence and the
// stream locks are advisory lock tags of kinds (pg_locks.objsubid) that no
// SQL advisory lock function can take (those use 1 and 2); the registry lock
// is a lock on the view act.subscriptions in modes only its owner can take
// with LOCK TABLE. So no other session can hold pg_act's writers back by
// taking these locks (docs/operations.md names the DDL queueing that remains).
#include <functional>
#include <vector>

#include "act/core/boundary_locks.hpp"

#include "error_bridge.hpp"

namespace act::pg {

// pg_locks: locktype 'advisory', classid kLockClassId, objid the object, objsubid kGlobalLockKind.
// (Object 2 was the registry lock in builds before the view lock.)
inline constexpr uint32 kLockClassId = 0x61637421;  // "act!"
inline constexpr uint16 kGlobalLockKind = 4;
inline constexpr uint32 kFenceObjectId = 1;
inline constexpr uint32 kSealerObjectId = 3;

// The commit fence (fenced mode): orders id assignment with visibility, so
// ids become visible in id order.
void TakeCommitFence();

// The sealer's lock: one transaction at a time appends to the log's Merkle
// tree (extension/merkle/sealer.hpp). Commits never take it.
void TakeSealerLock();

// The subscription registry lock: commits hold it shared while they mark
// subscriptions; a subscribe that adds rows holds it exclusively while it
// back-fills them. So a new subscription and a concurrent commit never miss
// each other, and commits never wait for one another on it. It is the view
// act.subscriptions locked ROW EXCLUSIVE (shared) or EXCLUSIVE: every commit
// takes it, and a weak relation lock is taken in the backend's fast-path
// slots, not in the shared lock table whose one partition every commit
// would otherwise queue on. Readers of the view (ACCESS SHARE) conflict with
// neither.
void TakeRegistryShared();
// In fenced mode it takes the commit fence first, as every commit does, so a
// transaction that subscribes and then commits keeps the one lock order.
void TakeRegistryExclusive();

// The write lock of one stream: act.commit and act.truncate take it before
// they read the stream's head, so writers of one stream follow each other
// and a commit's insert cannot meet a conflicting version. Writers of
// different streams never wait on it. Keyed by a 64-bit hash of the name
// (pg_locks: classid and objid), objsubid kStreamLockKind.
inline constexpr uint16 kStreamLockKind = 3;
void LockStream(Datum stream);

// A commit's locks: the stream's, then the registry shared. Never waits for
// the registry while holding a stream lock it took just now: a subscribe
// holding the registry exclusively may go on to commit to this very stream,
// and would deadlock with us (40P01). It lets that lock go, waits for the
// subscribe's transaction to end, and tries again (docs/concurrency.md).
//
// With `recheck` (a commit expecting a version, concurrent mode), it does not
// at once queue for a stream lock another transaction holds: it waits for
// that lock to be let go beside every other such waiter (a share wait: all
// wake at once), calls `recheck`, which throws when the holder's commit made
// the expectation stale, and queues for the lock only when it did not.
// Queued at once, the writers that lost a race would take the lock one after
// another only to fail, each ahead of the retry that can land.
void LockStreamAndRegistry(Datum stream, const std::function<void()>* recheck = nullptr);

// Consistency boundaries (core/boundary_locks.hpp, docs/dcb.md): writers
// take their names' and tags' keys shared, an append's condition its keys
// exclusive, all before the fence and the stream locks, in the plan's order.
// pg_locks: classid and objid the key, objsubid one of these kinds.
//
// With `recheck` (an append's condition), an exclusive key another
// transaction holds is not queued for at once, as LockStreamAndRegistry's
// `recheck`: it waits for the holder beside every other such waiter, calls
// `recheck`, which throws when the holder's commit failed the condition, and
// queues only when it did not. On a hot boundary the losers of a round then
// fail together instead of taking the lock one after another.
inline constexpr uint16 kTagLockKind = 5;
inline constexpr uint16 kTypeLockKind = 6;
void TakeBoundaryLocks(const std::vector<core::BoundaryLock>& locks, const std::function<void()>* recheck = nullptr);

// Waits while another session holds pg_advisory_lock(key) (a key of the
// single bigint form), without keeping it: act.test_claim_gate's wait.
void WaitForAdvisoryLock(int64 key);

}  // namespace act::pg
