#pragma once
// act.verify_log's check of the stored checkpoints (act.checkpoints): each
// row's note against the row and the tree, its signatures by registered keys
// (act.log_keys), and no checkpoint larger than the tree. Needs SPI.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "act/core/event_hash.hpp"
#include "error_bridge.hpp"

namespace act::pg::log {

// size: the checkpoint's; none for a problem of no checkpoint (a registered key).
using CheckpointReporter = std::function<void(std::optional<int64> size, std::string problem)>;
// The root of the stored tree at a size; nullopt when it cannot be computed
// (a missing tile, reported elsewhere).
using RootAt = std::function<std::optional<core::Hash>(std::uint64_t size)>;

// The checkpoints with sizes in (begin, end], and every one above
// tree_size when end is the tree's size.
void VerifyCheckpoints(std::uint64_t begin, std::uint64_t end, std::uint64_t tree_size, const RootAt& root_at,
                       const CheckpointReporter& report);

}  // namespace act::pg::log
