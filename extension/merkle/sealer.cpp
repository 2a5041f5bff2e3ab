#include "sealer.hpp"

#include <map>
#include <string>
#include <utility>

#include "act/core/errors.hpp"
#include "act/core/merkle.hpp"
#include "horizon.hpp"
#include "locks.hpp"
#include "merkle/sealer_sql.hpp"
#include "spi.hpp"
#include "spi_rows.hpp"

namespace act::pg::log {

namespace {

namespace merkle = core::merkle;
namespace tlog = core::tlog;

constexpr Oid kIdRange[] = {INT8OID, INT8OID};
// Events in id order, a chunk at a time (through the primary key).
constexpr long kChunkRows = 8192;
SavedPlan g_events_to_seal(sealer_sql::kEventsToSeal, 2, kIdRange, PlanMode::kGeneric);
constexpr Oid kAfter[] = {INT8OID};
SavedPlan g_first_unsealed(sealer_sql::kFirstUnsealed, 1, kAfter, PlanMode::kGeneric);

std::string BadHash(int64 id, std::size_t bytes) {
  return "event " + std::to_string(id) + " has a hash of " + std::to_string(bytes) +
         " bytes, not 32: sealing stops before it";
}

// The right edge of every tile level while sealing: a tile is written as soon
// as it is full, the partial ones once at the end.
class EdgeTiles {
 public:
  explicit EdgeTiles(StoredTiles& stored) : stored_(stored) {}

  void Add(merkle::NodeId node, const Hash& hash) {
    if (node.level % tlog::kTileHeight != 0) return;
    const unsigned level = node.level / tlog::kTileHeight;
    const std::uint64_t index = node.index / tlog::kTileWidth;
    const std::uint64_t offset = node.index % tlog::kTileWidth;
    auto [found, fresh] = tiles_.try_emplace({level, index});
    std::vector<Hash>& tile = found->second;
    if (fresh && offset != 0) tile = stored_.Load(level, index);
    if (tile.size() != offset)
      throw core::SqlError(core::sqlstate::kDataCorrupted,
                           "act.log_tiles: tile " + tlog::TilePath({level, index, tlog::kTileWidth}) + " holds " +
                               std::to_string(tile.size()) + " hashes where the tree has " + std::to_string(offset));
    tile.push_back(hash);
    if (tile.size() == tlog::kTileWidth) {
      WriteTile(level, index, tile);
      tiles_.erase(found);
    }
  }

  void WritePartial() {
    for (const auto& [key, tile] : tiles_) WriteTile(key.first, key.second, tile);
    tiles_.clear();
  }

 private:
  StoredTiles& stored_;
  std::map<std::pair<unsigned, std::uint64_t>, std::vector<Hash>> tiles_;
};

// The entry bundle at the right edge, written when full and at the end.
class EdgeBundle {
 public:
  explicit EdgeBundle(std::uint64_t size) {
    bundle_.index = size / tlog::kTileWidth;
    if (size % tlog::kTileWidth != 0) {
      std::optional<EntryBundle> stored = ReadBundle(bundle_.index, ReadOn::kLatest);
      if (!stored || stored->ids.size() != size % tlog::kTileWidth)
        throw core::SqlError(core::sqlstate::kDataCorrupted,
                             "act.log_entries row " + std::to_string(bundle_.index) + " does not hold the " +
                                 std::to_string(size % tlog::kTileWidth) + " entries the tree has there");
      bundle_ = std::move(*stored);
    }
  }

  void Add(int64 id, const Hash& entry) {
    bundle_.ids.push_back(id);
    bundle_.entries.push_back(entry);
    if (bundle_.ids.size() == tlog::kTileWidth) {
      WriteBundle(bundle_);
      bundle_ = EntryBundle{bundle_.index + 1, {}, {}, {}};
    }
  }

  void WritePartial() {
    if (!bundle_.ids.empty()) WriteBundle(bundle_);
  }

 private:
  EntryBundle bundle_;
};

}  // namespace

LogState Seal() {
  TakeSealerLock();
  LogState state = ReadLogState(ReadOn::kLatest);
  // The horizon before the events are read: every id at or below it that
  // will ever be visible is visible to the reads below (docs/concurrency.md).
  const int64 horizon = Horizon();
  if (horizon <= state.sealed_upto_id) return state;

  StoredTiles stored(ReadOn::kLatest);
  merkle::Frontier frontier = merkle::Frontier::Load(stored, static_cast<std::uint64_t>(state.size));
  EdgeTiles tiles(stored);
  EdgeBundle bundle(frontier.size());
  const merkle::Frontier::Completed completed = [&tiles](merkle::NodeId node, const Hash& hash) {
    tiles.Add(node, hash);
  };

  int64 after = state.sealed_upto_id;
  bool stopped = false;
  while (!stopped) {
    Datum range[2] = {Int64GetDatum(after), Int64GetDatum(horizon)};
    ExecuteOnLatest(g_events_to_seal.Get(), range, nullptr, true, kChunkRows, SPI_OK_SELECT);
    // Copied out first: the writes below replace SPI's result.
    const uint64 rows = RowCount();
    std::vector<std::pair<int64, Hash>> chunk;
    chunk.reserve(rows);
    int64 stop_at = 0;
    for (uint64 row = 0; row < rows; ++row) {
      const int64 id = RowInt64(row, 1).value_or(0);
      const std::string_view stored_hash = RowText(row, 2).value_or("");
      if (stored_hash.size() != sizeof(Hash)) {
        stopped = true;
        stop_at = id;
        break;
      }
      chunk.emplace_back(id, HashFromBytes(stored_hash, "an event hash"));
    }
    for (const auto& [id, entry] : chunk) {
      frontier.Append(merkle::LeafHash(entry), completed);
      bundle.Add(id, entry);
      after = id;
    }
    if (stopped) after = stop_at - 1;  // the ids between the last entry and it are burned
    else if (rows < static_cast<uint64>(kChunkRows)) break;
  }
  tiles.WritePartial();
  bundle.WritePartial();

  state.size = static_cast<int64>(frontier.size());
  state.root = frontier.Root();
  state.sealed_upto_id = stopped ? after : horizon;
  WriteLogState(state);
  return state;
}

std::optional<std::string> SealStop(const LogState& state) {
  Datum after[1] = {Int64GetDatum(state.sealed_upto_id)};
  ExecuteOnLatest(g_first_unsealed.Get(), after, nullptr, true, 1, SPI_OK_SELECT);
  if (RowCount() == 0) return std::nullopt;
  const int64 bytes = RowInt64(0, 2).value_or(0);
  if (bytes == static_cast<int64>(sizeof(Hash))) return std::nullopt;
  return BadHash(RowInt64(0, 1).value_or(0), static_cast<std::size_t>(bytes));
}

LogState SealThrough(int64 id, int timeout_ms) {
  LogState state = Seal();
  if (state.sealed_upto_id >= id) return state;
  if (const std::optional<std::string> stop = SealStop(state)) throw core::SqlError(core::sqlstate::kDataCorrupted, *stop);
  const int64 horizon = WaitForHorizon(id - 1, timeout_ms);
  if (horizon >= id) state = Seal();
  if (state.sealed_upto_id >= id) return state;
  if (const std::optional<std::string> stop = SealStop(state)) throw core::SqlError(core::sqlstate::kDataCorrupted, *stop);
  throw core::SqlError(core::sqlstate::kObjectNotInPrerequisiteState,
                       "event " + std::to_string(id) + " cannot be sealed yet: the horizon is at " +
                           std::to_string(horizon) + ", held back by a transaction still in flight (act.horizon_holders())");
}

}  // namespace act::pg::log
