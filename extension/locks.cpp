#include "locks.hpp"

#include <string_view>

extern "C" {
#include "common/hashfn.h"
#include "storage/lmgr.h"
#include "storage/lock.h"
}

#include "arrays.hpp"
#include "relations.hpp"

namespace act::pg {
namespace {

void Take(uint32 key1, uint32 key2, uint16 kind, LOCKMODE mode) {
  Guard([key1, key2, kind, mode] {
    LOCKTAG tag;
    SET_LOCKTAG_ADVISORY(tag, MyDatabaseId, key1, key2, kind);
    (void)LockAcquire(&tag, mode, /*sessionLock=*/false, /*dontWait=*/false);
  });
}

}  // namespace

void TakeCommitFence() { Take(kLockClassId, kFenceObjectId, kGlobalLockKind, ExclusiveLock); }

void TakeRegistryShared() {
  Guard([] { LockRelationOid(ActRelation("subscriptions"), RowExclusiveLock); });
}

void TakeRegistryExclusive() {
  Guard([] { LockRelationOid(ActRelation("subscriptions"), ExclusiveLock); });
}

void LockStream(Datum stream) {
  const std::string_view name = VarlenaBytes(stream);
  // 64 bits of the name: two streams share a lock (and wait for each other) about never.
  const uint64 key = hash_bytes_extended(reinterpret_cast<const unsigned char*>(name.data()),
                                         static_cast<int>(name.size()), 0);
  Take(static_cast<uint32>(key >> 32), static_cast<uint32>(key), kStreamLockKind, ExclusiveLock);
}

}  // namespace act::pg
