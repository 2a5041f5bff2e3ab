#include "locks.hpp"

#include <functional>
#include <string_view>

extern "C" {
#include "common/hashfn.h"
#include "storage/lmgr.h"
#include "storage/lock.h"
}

#include "arrays.hpp"
#include "horizon.hpp"
#include "relations.hpp"

namespace act::pg {
namespace {

LOCKTAG Tag(uint32 key1, uint32 key2, uint16 kind) {
  LOCKTAG tag;
  SET_LOCKTAG_ADVISORY(tag, MyDatabaseId, key1, key2, kind);
  return tag;
}

void Take(const LOCKTAG& tag, LOCKMODE mode) {
  const LOCKTAG* tag_ptr = &tag;
  Guard([tag_ptr, mode] { (void)LockAcquire(tag_ptr, mode, /*sessionLock=*/false, /*dontWait=*/false); });
}

bool TryTake(const LOCKTAG& tag, LOCKMODE mode) {
  const LOCKTAG* tag_ptr = &tag;
  return Guard([tag_ptr, mode] {
    return LockAcquire(tag_ptr, mode, /*sessionLock=*/false, /*dontWait=*/true) != LOCKACQUIRE_NOT_AVAIL;
  });
}

// Waits until the exclusive holder lets the lock go (at its transaction's
// end, or earlier when a savepoint it took the lock in rolls back): takes it
// in share mode and lets it go at once. Share waiters are granted together,
// so all of them wake at once.
void WaitForRelease(const LOCKTAG& tag) {
  const LOCKTAG* tag_ptr = &tag;
  Guard([tag_ptr] {
    (void)LockAcquire(tag_ptr, ShareLock, /*sessionLock=*/false, /*dontWait=*/false);
    LockRelease(tag_ptr, ShareLock, /*sessionLock=*/false);
    CHECK_FOR_INTERRUPTS();
  });
}

LOCKTAG StreamTag(Datum stream) {
  const std::string_view name = VarlenaBytes(stream);
  // 64 bits of the name: two streams share a lock (and wait for each other) about never.
  const uint64 key = hash_bytes_extended(reinterpret_cast<const unsigned char*>(name.data()),
                                         static_cast<int>(name.size()), 0);
  return Tag(static_cast<uint32>(key >> 32), static_cast<uint32>(key), kStreamLockKind);
}

}  // namespace

void TakeCommitFence() { Take(Tag(kLockClassId, kFenceObjectId, kGlobalLockKind), ExclusiveLock); }

void TakeSealerLock() { Take(Tag(kLockClassId, kSealerObjectId, kGlobalLockKind), ExclusiveLock); }

void TakeRegistryShared() {
  Guard([] { LockRelationOid(ActRelation("subscriptions"), RowExclusiveLock); });
}

void TakeRegistryExclusive() {
  if (!ConcurrentMode()) TakeCommitFence();
  Guard([] { LockRelationOid(ActRelation("subscriptions"), ExclusiveLock); });
}

void TakeBoundaryLocks(const std::vector<core::BoundaryLock>& locks, const std::function<void()>* recheck) {
  for (const core::BoundaryLock& lock : locks) {
    const uint16 kind = lock.kind == core::BoundaryKind::kTag ? kTagLockKind : kTypeLockKind;
    const LOCKTAG tag = Tag(static_cast<uint32>(lock.key >> 32), static_cast<uint32>(lock.key), kind);
    if (!lock.exclusive) {
      Take(tag, ShareLock);
      continue;
    }
    if (recheck) {
      if (TryTake(tag, ExclusiveLock)) continue;
      WaitForRelease(tag);
      (*recheck)();
    }
    Take(tag, ExclusiveLock);
  }
}

void LockStream(Datum stream) { Take(StreamTag(stream), ExclusiveLock); }

void LockStreamAndRegistry(Datum stream, const std::function<void()>* recheck) {
  const LOCKTAG tag = StreamTag(stream);
  const LOCKTAG* tag_ptr = &tag;
  for (;;) {
    // A lock this transaction held before cannot be let go: it guards what
    // the transaction wrote. Then it already holds the registry too (taken
    // with it), unless a rolled-back savepoint released it: wait then.
    const bool held_before = Guard([tag_ptr] { return LockHeldByMe(tag_ptr, ExclusiveLock); });
    if (recheck && !held_before) {
      if (!TryTake(tag, ExclusiveLock)) {
        // Still the head it expected: queue for the lock. Trying again
        // instead spins against the other share waiters letting theirs go.
        WaitForRelease(tag);
        (*recheck)();
        Take(tag, ExclusiveLock);
      }
    } else {
      Take(tag, ExclusiveLock);
    }
    const bool registry = Guard([] { return ConditionalLockRelationOid(ActRelation("subscriptions"), RowExclusiveLock); });
    if (registry) return;
    if (held_before) {
      TakeRegistryShared();
      return;
    }
    // A subscribe holds the registry: let the stream go, wait for the
    // subscribe to end without holding anything it may want, and start over.
    Guard([tag_ptr] {
      LockRelease(tag_ptr, ExclusiveLock, /*sessionLock=*/false);
      const Oid registry_oid = ActRelation("subscriptions");
      LockRelationOid(registry_oid, RowExclusiveLock);
      UnlockRelationOid(registry_oid, RowExclusiveLock);
    });
  }
}

void WaitForAdvisoryLock(int64 key) {
  // pg_advisory_lock(bigint)'s tag: the key's halves, objsubid 1.
  const auto bits = static_cast<uint64>(key);
  WaitForRelease(Tag(static_cast<uint32>(bits >> 32), static_cast<uint32>(bits), 1));
}

}  // namespace act::pg
