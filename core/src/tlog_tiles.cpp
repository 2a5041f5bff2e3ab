#include "act/core/tlog_tiles.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <stdexcept>

namespace act::core::tlog {

namespace {

std::string Index(std::uint64_t index) {
  // Groups of three digits, most significant first.
  std::vector<unsigned> groups;
  do {
    groups.push_back(static_cast<unsigned>(index % 1000));
    index /= 1000;
  } while (index > 0);
  std::string out;
  for (auto group = groups.rbegin(); group != groups.rend(); ++group) {
    if (group != groups.rbegin()) out += '/';
    if (group + 1 != groups.rend()) out += 'x';
    const std::string digits = std::to_string(*group);
    out.append(3 - digits.size(), '0');
    out += digits;
  }
  return out;
}

std::string Partial(unsigned width) {
  if (width == 0 || width > kTileWidth)
    throw std::invalid_argument("a tile is 1 to 256 hashes wide, not " + std::to_string(width));
  return width == kTileWidth ? std::string() : ".p/" + std::to_string(width);
}

}  // namespace

std::string TilePath(const TileId& tile) {
  return "tile/" + std::to_string(tile.level) + "/" + Index(tile.index) + Partial(tile.width);
}

std::string EntryBundlePath(std::uint64_t index, unsigned width) {
  return "tile/entries/" + Index(index) + Partial(width);
}

std::uint64_t HashesAtTileLevel(std::uint64_t size, unsigned tile_level) {
  const unsigned shift = tile_level * kTileHeight;
  return shift >= 64 ? 0 : size >> shift;
}

unsigned TileWidthAt(std::uint64_t size, unsigned tile_level, std::uint64_t tile_index) {
  const std::uint64_t hashes = HashesAtTileLevel(size, tile_level);
  const std::uint64_t full = hashes / kTileWidth;
  if (tile_index < full) return kTileWidth;
  if (tile_index == full) return static_cast<unsigned>(hashes % kTileWidth);
  return 0;
}

std::vector<TileId> PartialTiles(std::uint64_t size) {
  std::vector<TileId> tiles;
  for (unsigned level = 0; HashesAtTileLevel(size, level) > 0; ++level) {
    const std::uint64_t hashes = HashesAtTileLevel(size, level);
    if (hashes % kTileWidth != 0)
      tiles.push_back({level, hashes / kTileWidth, static_cast<unsigned>(hashes % kTileWidth)});
  }
  return tiles;
}

TileSlice LocateNode(merkle::NodeId node) {
  const unsigned tile_level = node.level / kTileHeight;
  const unsigned height = node.level % kTileHeight;  // above the tile's level
  // The node's first hash at the tile level, and how many it spans there.
  const std::uint64_t first = node.index << height;
  return {tile_level, first / kTileWidth, static_cast<unsigned>(first % kTileWidth), 1u << height};
}

Hash HashTileSlice(std::span<const Hash> hashes) {
  if (hashes.empty() || !std::has_single_bit(hashes.size()))
    throw std::invalid_argument("a tile slice of " + std::to_string(hashes.size()) +
                                " hashes is not a perfect subtree");
  if (hashes.size() == 1) return hashes.front();
  // The level above the slice, then each next one in place: a tile's fits
  // on the stack (act.verify_log hashes one slice a tile).
  std::array<Hash, kTileWidth / 2> small;
  std::vector<Hash> large;
  std::span<Hash> level(small.data(), hashes.size() / 2);
  if (hashes.size() / 2 > small.size()) {
    large.resize(hashes.size() / 2);
    level = large;
  }
  for (std::size_t i = 0; i < level.size(); ++i) level[i] = merkle::NodeHash(hashes[2 * i], hashes[2 * i + 1]);
  for (std::size_t width = level.size(); width > 1; width /= 2)
    for (std::size_t i = 0; i < width / 2; ++i) level[i] = merkle::NodeHash(level[2 * i], level[2 * i + 1]);
  return level.front();
}

Hash TileNodeSource::Node(merkle::NodeId id) {
  const TileSlice slice = LocateNode(id);
  auto [entry, inserted] = cache_.try_emplace({slice.tile_level, slice.tile_index});
  if (inserted) {
    try {
      entry->second = ReadTile(slice.tile_level, slice.tile_index);
    } catch (...) {
      cache_.erase(entry);
      throw;
    }
  }
  const std::vector<Hash>& tile = entry->second;
  if (std::size_t{slice.offset} + slice.count > tile.size())
    throw std::out_of_range("subtree (level " + std::to_string(id.level) + ", index " + std::to_string(id.index) +
                            ") is not complete in tile " + TilePath({slice.tile_level, slice.tile_index}));
  return HashTileSlice(std::span<const Hash>(tile).subspan(slice.offset, slice.count));
}

void TileNodeSource::Prefetch(const std::function<void(merkle::NodeSource&)>& walk) {
  // Every node it is asked for hashes to zero: the walk's result is thrown away.
  class TileRecorder : public merkle::NodeSource {
   public:
    explicit TileRecorder(const std::map<TileKey, std::vector<Hash>>& cached)
        : cached_(cached) {}
    Hash Node(merkle::NodeId id) override {
      const TileSlice slice = LocateNode(id);
      const TileKey key{slice.tile_level, slice.tile_index};
      if (!cached_.contains(key) && std::find(wanted.begin(), wanted.end(), key) == wanted.end())
        wanted.push_back(key);
      return Hash{};
    }
    std::vector<TileKey> wanted;

   private:
    const std::map<TileKey, std::vector<Hash>>& cached_;
  };
  TileRecorder recorder(cache_);
  walk(recorder);
  if (recorder.wanted.empty()) return;
  for (auto& [key, hashes] : ReadTiles(recorder.wanted)) cache_.insert_or_assign(key, std::move(hashes));
}

std::vector<KeyedTile> TileNodeSource::ReadTiles(const std::vector<TileKey>& tiles) {
  std::vector<KeyedTile> read;
  for (const auto& key : tiles) read.emplace_back(key, ReadTile(key.first, key.second));
  return read;
}

void TileNodeSource::ForgetTiles() { cache_.clear(); }

void MemoryTiles::Append(const Hash& leaf_hash) {
  ForgetTiles();  // a partial tile read before is about to grow
  frontier_.Append(leaf_hash, [this](merkle::NodeId id, const Hash& hash) {
    if (id.level % kTileHeight != 0) return;
    const std::size_t level = id.level / kTileHeight;
    const auto index = static_cast<std::size_t>(id.index / kTileWidth);
    if (tiles_.size() <= level) tiles_.resize(level + 1);
    if (tiles_[level].size() <= index) tiles_[level].resize(index + 1);
    // Nodes complete left to right: this one is the tile's next hash.
    tiles_[level][index].push_back(hash);
  });
}

const std::vector<Hash>& MemoryTiles::Tile(unsigned level, std::uint64_t index) const {
  if (level >= tiles_.size() || index >= tiles_[level].size())
    throw std::out_of_range("no tile " + TilePath({level, index}) + " in a tree of " + std::to_string(size()) +
                            " entries");
  return tiles_[level][static_cast<std::size_t>(index)];
}

std::vector<Hash> MemoryTiles::ReadTile(unsigned level, std::uint64_t index) { return Tile(level, index); }

}  // namespace act::core::tlog
