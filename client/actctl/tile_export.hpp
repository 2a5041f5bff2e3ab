#pragma once
// actctl log export's tree walk (tile_export.cpp): the C2SP tlog-tiles of the
// tree of one size, read from act.log_tiles and act.log_entries (or, for full
// tiles an earlier export wrote, from the directory), checked level by level
// and staged in a TileDirectory. LogBroken (audit.hpp) names the first fault.
#include <cstdint>

#include "act/core/event_hash.hpp"
#include "act/log_transaction.hpp"
#include "tile_directory.hpp"

namespace actctl {

struct TileExportReport {
  std::uint64_t tiles_written = 0;    // hash tiles staged (full and partial)
  std::uint64_t bundles_written = 0;  // entry bundles staged
  std::uint64_t partial_written = 0;  // of both, partial ones
  std::uint64_t files_kept = 0;       // full tiles and bundles already in the directory, checked, not rewritten
};

// Stages every tile and entry bundle of the tree of `size` entries that the
// directory lacks (full ones only when missing; partial ones always) after
// checking the whole tree: each entry's leaf hash against its level-0 tile,
// each full tile's hash against the level above, and the root, computed from
// the tiles, against `root`. Staged files wait for TileDirectory::Publish,
// which the caller skips when this throws.
TileExportReport StageTiles(act::LogTransaction& log, TileDirectory& dir, std::uint64_t size,
                            const act::core::Hash& root);

// The root of the first `at_size` entries from the tiles of the tree of
// `tree_size` entries as the directory will hold them (staged, else on disk);
// LogBroken when a tile it needs is missing or malformed.
act::core::Hash RootFromTiles(const TileDirectory& dir, std::uint64_t tree_size, std::uint64_t at_size);

}  // namespace actctl
