#pragma once
// The tree stored as C2SP tlog-tiles (https://c2sp.org/tlog-tiles): tile N at
// tile level L holds the 256 consecutive node hashes at tree level 8L starting
// at node 256N, so level-0 tiles hold leaf hashes. A full tile never changes
// again; the right edge of each tile level is a partial tile of fewer hashes.
// Any perfect subtree's hash comes from one tile: read at a tile level, or
// hashed from an aligned slice of at most 128 hashes of one tile.
#include <cstdint>
#include <functional>
#include <map>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "act/core/merkle.hpp"

namespace act::core::tlog {

inline constexpr unsigned kTileHeight = 8;
inline constexpr unsigned kTileWidth = 1u << kTileHeight;  // hashes in a full tile

struct TileId {
  unsigned level = 0;
  std::uint64_t index = 0;
  unsigned width = kTileWidth;  // 1..256; below 256 a partial tile
  friend bool operator==(const TileId&, const TileId&) = default;
};

// "tile/<L>/<N>[.p/<W>]", N in 3-digit groups all but the last prefixed "x"
// (1234067 -> x001/x234/067).
std::string TilePath(const TileId& tile);
// "tile/entries/<N>[.p/<W>]": the entry bundle beside level-0 tile N.
std::string EntryBundlePath(std::uint64_t index, unsigned width = kTileWidth);

// The hashes at tile level L in a tree of `size` leaves: size >> 8L.
std::uint64_t HashesAtTileLevel(std::uint64_t size, unsigned tile_level);
// Tile (level, index) in a tree of `size` leaves: its width, 0 when it does
// not exist yet (or would be empty).
unsigned TileWidthAt(std::uint64_t size, unsigned tile_level, std::uint64_t tile_index);
// The partial tiles at the right edge of a tree of `size` leaves, lowest
// level first (the C2SP example: 70,000 leaves have partial tiles 0/273.p/112,
// 1/001.p/17 and 2/000.p/1).
std::vector<TileId> PartialTiles(std::uint64_t size);

// Where a perfect subtree's hash comes from: hashes [offset, offset + count)
// of tile (tile_level, tile_index), count = 2^(level % 8).
struct TileSlice {
  unsigned tile_level = 0;
  std::uint64_t tile_index = 0;
  unsigned offset = 0;
  unsigned count = 1;
};
TileSlice LocateNode(merkle::NodeId node);

// The hash of the perfect subtree over a tile slice (a power of two of hashes:
// pairs hashed level by level). Throws std::invalid_argument for another count.
Hash HashTileSlice(std::span<const Hash> hashes);

// A tile by (tile level, index), and a tile's stored hashes under its key.
using TileKey = std::pair<unsigned, std::uint64_t>;
using KeyedTile = std::pair<TileKey, std::vector<Hash>>;

// A NodeSource over tiles: asks ReadTile for each tile once (per source
// object) and computes nodes inside it. The database side derives from it; a
// source lives for one query, so its cache stays at O(log n) tiles.
class TileNodeSource : public merkle::NodeSource {
 public:
  Hash Node(merkle::NodeId id) override;
  // Runs `walk` over a stand-in source that only notes the tiles its nodes
  // come from, then has ReadTiles fetch the ones not read yet, all at once.
  // A proof or root reads nodes by the tree's shape alone, never by their
  // values, so the same walk over this source then finds every tile cached:
  // a store pays one round of reads instead of one per tile.
  void Prefetch(const std::function<void(merkle::NodeSource&)>& walk);

 protected:
  // Tiles among `tiles` with their stored hashes. An override may leave out
  // missing ones (ReadTile reports them when a node needs them); the default
  // reads them one by one through ReadTile.
  virtual std::vector<KeyedTile> ReadTiles(const std::vector<TileKey>& tiles);
  // The hashes of tile (level, index) as stored: the full 256, or the partial
  // tile's. Throw when the tile does not exist.
  virtual std::vector<Hash> ReadTile(unsigned level, std::uint64_t index) = 0;
  // Drops the tiles read so far (a partial tile may have grown since).
  void ForgetTiles();

 private:
  std::map<TileKey, std::vector<Hash>> cache_;
};

// Tiles in memory, filled by appending leaf hashes the way a sealer does (from
// a Frontier's completed nodes); for tests and tools.
class MemoryTiles : public TileNodeSource {
 public:
  void Append(const Hash& leaf_hash);
  std::uint64_t size() const { return frontier_.size(); }
  const merkle::Frontier& frontier() const { return frontier_; }
  // The stored hashes of one tile (as a table row would hold them).
  const std::vector<Hash>& Tile(unsigned level, std::uint64_t index) const;

 protected:
  std::vector<Hash> ReadTile(unsigned level, std::uint64_t index) override;

 private:
  merkle::Frontier frontier_;
  std::vector<std::vector<std::vector<Hash>>> tiles_;  // tiles_[level][index]
};

}  // namespace act::core::tlog
