#pragma once
// Sealing: appending to the log's Merkle tree every event with an id at or
// below the horizon that it does not hold yet, in id order. Never on the
// commit path: act.seal(), act.checkpoint(), act.truncate (before it
// deletes) and the seal worker of a preloaded library call it. One sealer at
// a time per database (a transaction-scoped lock); readers are never blocked.
#include <optional>
#include <string>

#include "log_store.hpp"

namespace act::pg::log {

// Needs SPI. Seals up to the horizon and returns the tree now. Reads on the
// latest snapshot, so a REPEATABLE READ caller cannot skip an event its
// snapshot does not see. An event whose stored hash is not 32 bytes cannot
// be an entry: sealing stops just before it (SealStop says why), so what
// comes before it is still sealed and act.status() can name it.
LogState Seal();

// Why sealing cannot pass the first event the tree lacks: its hash is not
// 32 bytes. nullopt when nothing stops it.
std::optional<std::string> SealStop(const LogState& state);

// Seals, waiting up to timeout_ms for the horizon to reach `id` first (a
// commit still in flight below it). Throws 55000 naming what holds it back
// when the tree still does not cover `id`, XX001 when a corrupted event stops
// sealing below it.
LogState SealThrough(int64 id, int timeout_ms);

}  // namespace act::pg::log
