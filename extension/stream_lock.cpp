#include "stream_lock.hpp"

#include <string_view>

extern "C" {
#include "common/hashfn.h"
#include "storage/lock.h"
}

#include "arrays.hpp"

namespace act::pg {

void LockStream(Datum stream) {
  const std::string_view name = VarlenaBytes(stream);
  const char* bytes = name.data();
  const int length = static_cast<int>(name.size());
  Guard([bytes, length] {
    // 64 bits of the name: two streams share a lock (and wait for each other) about never.
    const uint64 key = hash_bytes_extended(reinterpret_cast<const unsigned char*>(bytes), length, 0);
    LOCKTAG tag;
    SET_LOCKTAG_ADVISORY(tag, MyDatabaseId, static_cast<uint32>(key >> 32), static_cast<uint32>(key),
                         kStreamLockKind);
    (void)LockAcquire(&tag, ExclusiveLock, /*sessionLock=*/false, /*dontWait=*/false);
  });
}

}  // namespace act::pg
