#pragma once
// Sealing: appending to the log's Merkle tree every event with an id at or
// below the horizon that it does not hold yet, in id order. Never on the
// commit path: act.seal(), act.checkpoint(), act.truncate (before it
// deletes) and the seal worker of a preloaded library call it. One sealer at
// a time per database (a transaction-scoped lock); readers are never blocked.
#include "log_store.hpp"

namespace act::pg::log {

// Needs SPI. Seals up to the horizon and returns the tree now. Reads on the
// latest snapshot, so a REPEATABLE READ caller cannot skip an event its
// snapshot does not see.
LogState Seal();

// Seals, waiting up to timeout_ms for the horizon to reach `id` first (a
// commit still in flight below it). Throws 55000 naming what holds it back
// when the tree still does not cover `id`.
LogState SealThrough(int64 id, int timeout_ms);

}  // namespace act::pg::log
