#pragma once
// The write lock of one stream: act.commit and act.truncate take it before
// they read the stream's head, so writers of one stream follow each other
// and a commit's insert cannot meet a conflicting version (it needs no
// ON CONFLICT). Writers of different streams never wait on it.
#include "error_bridge.hpp"

namespace act::pg {

// pg_locks shows it as an advisory lock whose objsubid is this kind: no SQL
// advisory lock function can take it (they use 1 and 2), so no other session
// can hold a stream's writers back by guessing its key.
inline constexpr uint16 kStreamLockKind = 3;

// Takes the lock of the stream named by a text Datum until the transaction ends.
void LockStream(Datum stream);

}  // namespace act::pg
