#pragma once
// The log's Merkle tree as stored (docs/verifiable-log.md, "Storage"):
//   act.log_state    one row: size, root, sealed_upto_id, sealed_at
//   act.log_tiles    C2SP tlog-tiles, one row per tile (level, idx, hashes)
//   act.log_entries  256 entries per row beside each level-0 tile: the event
//                    ids and the entry data (the events' stored hashes)
// Full rows never change again; only the right edge is rewritten, and only
// by the sealer (extension/merkle/sealer.hpp). Readers see one MVCC snapshot.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "act/core/tlog_tiles.hpp"
#include "error_bridge.hpp"

namespace act::pg::log {

using core::Hash;

struct LogState {
  int64 size = 0;
  Hash root{};
  int64 sealed_upto_id = 0;
  TimestampTz sealed_at = 0;
};

// Which snapshot reads use: the statement's, or the latest (the sealer, which
// must see every committed row whatever the isolation level).
enum class ReadOn { kStatement, kLatest };

// Needs SPI, as everything below.
LogState ReadLogState(ReadOn snapshot = ReadOn::kStatement);
void WriteLogState(const LogState& state);

// Tiles from act.log_tiles, each read once per object: a proof or root reads
// O(log n) rows. A missing tile is a damaged log (XX001 naming the tile).
class StoredTiles : public core::tlog::TileNodeSource {
 public:
  explicit StoredTiles(ReadOn snapshot = ReadOn::kStatement) : snapshot_(snapshot) {}
  // The stored hashes of one tile; empty when it does not exist.
  std::vector<Hash> Load(unsigned level, std::uint64_t index);

 protected:
  std::vector<Hash> ReadTile(unsigned level, std::uint64_t index) override;
  // One query for all of them (Prefetch).
  std::vector<core::tlog::KeyedTile> ReadTiles(const std::vector<core::tlog::TileKey>& tiles) override;

 private:
  ReadOn snapshot_;
};
void WriteTile(unsigned level, std::uint64_t index, const std::vector<Hash>& hashes);

// One row of act.log_entries: positions [index * 256, index * 256 + ids.size()).
struct EntryBundle {
  std::uint64_t index = 0;
  std::vector<int64> ids;
  std::vector<Hash> entries;  // the events' stored hashes, as sealed
  // What is wrong with the row, when a reader kept it anyway (ids and
  // entries of different lengths, entries not whole hashes): act.verify_log
  // reports it as a problem instead of failing (log_rows.hpp).
  std::optional<std::string> damage;
};
// A bundle's entries from the bytes of its row, its ids already set; a row
// whose bytes do not hold one whole hash per id gets its damage said instead.
void SetEntries(EntryBundle& bundle, std::string_view bytes);
std::optional<EntryBundle> ReadBundle(std::uint64_t index, ReadOn snapshot = ReadOn::kStatement);
void WriteBundle(const EntryBundle& bundle);

// The entry position of an event id; nullopt when no sealed entry has it.
std::optional<std::uint64_t> PositionOf(int64 id);
// The verifier keys of act.log_keys as registered (C2SP vkey texts), in
// vkey order; each caller parses them as strictly as it needs.
std::vector<std::string> RegisteredVerifierKeys(ReadOn snapshot);

// The bundle that would hold an id: the last one starting at or below it.
std::optional<std::uint64_t> BundleIndexOf(int64 id, ReadOn snapshot);

// A tree size a caller names, 0 .. the current size (22023 otherwise).
std::uint64_t CheckedSize(int64 size, const char* name, const LogState& state);
// Two sizes (or positions) [lower, upper) a caller names: each checked, and
// lower <= upper.
struct SizeRange {
  std::uint64_t lower;
  std::uint64_t upper;
};
SizeRange CheckedRange(int64 lower, const char* lower_name, int64 upper, const char* upper_name,
                       const LogState& state);

// Bytes of a bytea as hashes; XX001 naming `what` unless a multiple of 32.
std::vector<Hash> HashesFromBytes(std::string_view bytes, const char* what);
Hash HashFromBytes(std::string_view bytes, const char* what);

}  // namespace act::pg::log
