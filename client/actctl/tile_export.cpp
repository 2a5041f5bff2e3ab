#include "tile_export.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "act/core/merkle.hpp"
#include "act/core/tlog_tiles.hpp"
#include "audit.hpp"

namespace actctl {

namespace {

namespace core = act::core;
namespace tlog = act::core::tlog;
using core::Hash;

constexpr std::uint64_t kPageTiles = 256;          // tiles per query: 2 MiB of hashes at level 0
constexpr std::size_t kEntryBytes = sizeof(Hash);  // an entry is an event's 32-byte hash
constexpr std::size_t kFullTileBytes = tlog::kTileWidth * sizeof(Hash);

std::vector<Hash> HashesOf(std::string_view bytes, std::size_t count) {
  std::vector<Hash> hashes(count);
  for (std::size_t i = 0; i < count; ++i) std::copy_n(bytes.data() + i * sizeof(Hash), sizeof(Hash), hashes[i].data());
  return hashes;
}

std::string TileBytes(std::span<const Hash> hashes) {
  std::string bytes;
  bytes.reserve(hashes.size() * sizeof(Hash));
  for (const Hash& hash : hashes) bytes.append(reinterpret_cast<const char*>(hash.data()), hash.size());
  return bytes;
}

// C2SP entry bundle: each entry prefixed by its length, a big-endian uint16.
std::string BundleBytes(std::span<const Hash> entries) {
  std::string bytes;
  bytes.reserve(entries.size() * (2 + kEntryBytes));
  for (const Hash& entry : entries) {
    bytes += static_cast<char>(kEntryBytes >> 8);
    bytes += static_cast<char>(kEntryBytes & 0xff);
    bytes.append(reinterpret_cast<const char*>(entry.data()), entry.size());
  }
  return bytes;
}

// A full bundle an earlier export wrote: 256 entries of 32 bytes, else nullopt.
std::optional<std::vector<Hash>> ParseFullBundle(std::string_view bytes) {
  if (bytes.size() != tlog::kTileWidth * (2 + kEntryBytes)) return std::nullopt;
  std::vector<Hash> entries(tlog::kTileWidth);
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const std::string_view entry = bytes.substr(i * (2 + kEntryBytes));
    if (static_cast<unsigned char>(entry[0]) != 0 || static_cast<unsigned char>(entry[1]) != kEntryBytes)
      return std::nullopt;
    std::copy_n(entry.data() + 2, kEntryBytes, entries[i].data());
  }
  return entries;
}

// Rows of act.log_tiles (one level) or act.log_entries by idx: idx -> bytes.
std::map<std::uint64_t, std::string> ReadRows(act::LogTransaction& log, std::optional<unsigned> level,
                                              const std::vector<std::uint64_t>& wanted) {
  const std::vector<std::int64_t> indexes(wanted.begin(), wanted.end());
  std::map<std::int64_t, std::string> found =
      level ? log.hash_tiles(static_cast<std::int32_t>(*level), indexes) : log.entry_bundles(indexes);
  std::map<std::uint64_t, std::string> rows;
  for (auto& [index, bytes] : found) rows.emplace(static_cast<std::uint64_t>(index), std::move(bytes));
  return rows;
}

// One level of the tree's tiles at a time, bottom up, each checked against
// what the level below says it must hold.
class TreeWalk {
 public:
  TreeWalk(act::LogTransaction& log, TileDirectory& dir, std::uint64_t size) : log_(log), dir_(dir), size_(size) {}

  // Checks and stages the tiles of `level` (level 0 with their entry
  // bundles); `below` holds the hash of every full tile of the level below.
  // Returns the hash of every full tile of this level.
  std::vector<Hash> Level(unsigned level, const std::vector<Hash>& below) {
    const std::uint64_t tiles = (tlog::HashesAtTileLevel(size_, level) + tlog::kTileWidth - 1) / tlog::kTileWidth;
    std::vector<Hash> above;
    for (std::uint64_t first = 0; first < tiles; first += kPageTiles) {
      const std::uint64_t end = std::min(tiles, first + kPageTiles);
      // A full file an earlier export wrote never changes: read from the directory, not the database.
      std::vector<std::uint64_t> tile_rows, bundle_rows;
      for (std::uint64_t index = first; index < end; ++index) {
        const bool partial = tlog::TileWidthAt(size_, level, index) < tlog::kTileWidth;
        if (partial || !dir_.Exists(tlog::TilePath({level, index}))) tile_rows.push_back(index);
        if (level == 0 && (partial || !dir_.Exists(tlog::EntryBundlePath(index)))) bundle_rows.push_back(index);
      }
      const auto tile_data = ReadRows(log_, level, tile_rows);
      const auto bundle_data = ReadRows(log_, std::nullopt, bundle_rows);
      for (std::uint64_t index = first; index < end; ++index) {
        const unsigned width = tlog::TileWidthAt(size_, level, index);
        const std::vector<Hash> hashes = Tile(level, index, width, tile_data);
        const std::string where = tlog::TilePath({level, index, width});
        if (level == 0) {
          const std::vector<Hash> entries = Bundle(index, width, bundle_data);
          for (unsigned i = 0; i < width; ++i)
            if (core::merkle::LeafHash(entries[i]) != hashes[i])
              throw LogBroken(fmt::format("entry {} is not in {}: its leaf hash is {}, the tile holds {}",
                                          index * tlog::kTileWidth + i, where,
                                          core::ToHex(core::merkle::LeafHash(entries[i])), core::ToHex(hashes[i])));
        } else {
          for (unsigned i = 0; i < width; ++i)
            if (below[index * tlog::kTileWidth + i] != hashes[i])
              throw LogBroken(fmt::format("{} holds {} at {}, but {} hashes to {}", where, core::ToHex(hashes[i]), i,
                                          tlog::TilePath({level - 1, index * tlog::kTileWidth + i}),
                                          core::ToHex(below[index * tlog::kTileWidth + i])));
        }
        if (width == tlog::kTileWidth) above.push_back(tlog::HashTileSlice(hashes));
      }
    }
    return above;
  }

  const TileExportReport& report() const { return report_; }

 private:
  // A tile's hashes: staged from its database row, or read from the directory.
  std::vector<Hash> Tile(unsigned level, std::uint64_t index, unsigned width,
                         const std::map<std::uint64_t, std::string>& rows) {
    const std::string path = tlog::TilePath({level, index, width});
    const auto row = rows.find(index);
    if (row == rows.end()) {
      const std::optional<std::string> file = dir_.Current(path);
      if (!file || file->size() != kFullTileBytes)
        throw LogBroken(fmt::format("the exported {} is not a full tile ({} bytes): remove it to export it again", path,
                                    file ? file->size() : 0));
      ++report_.files_kept;
      return HashesOf(*file, width);
    }
    if (row->second.size() < width * sizeof(Hash))
      throw LogBroken(fmt::format("act.log_tiles holds {} hashes for {}, which needs {}", row->second.size() / 32,
                                  tlog::TilePath({level, index}), width));
    std::vector<Hash> hashes = HashesOf(row->second, width);
    dir_.Stage(path, TileBytes(hashes));
    ++report_.tiles_written;
    if (width < tlog::kTileWidth) ++report_.partial_written;
    return hashes;
  }

  std::vector<Hash> Bundle(std::uint64_t index, unsigned width, const std::map<std::uint64_t, std::string>& rows) {
    const std::string path = tlog::EntryBundlePath(index, width);
    const auto row = rows.find(index);
    if (row == rows.end()) {
      const std::optional<std::string> file = dir_.Current(path);
      std::optional<std::vector<Hash>> entries;
      if (file) entries = ParseFullBundle(*file);
      if (!entries)
        throw LogBroken(fmt::format(
            "the exported {} is not a full entry bundle of 32-byte entries: remove it to export it again", path));
      ++report_.files_kept;
      return *entries;
    }
    if (row->second.size() < width * kEntryBytes)
      throw LogBroken(fmt::format("act.log_entries holds {} entries at idx {}, the tree needs {}",
                                  row->second.size() / kEntryBytes, index, width));
    std::vector<Hash> entries = HashesOf(row->second, width);
    dir_.Stage(path, BundleBytes(entries));
    ++report_.bundles_written;
    if (width < tlog::kTileWidth) ++report_.partial_written;
    return entries;
  }

  act::LogTransaction& log_;
  TileDirectory& dir_;
  std::uint64_t size_;
  TileExportReport report_;
};

// The tiles of one tree size as the directory will hold them.
class DirectoryTiles : public tlog::TileNodeSource {
 public:
  DirectoryTiles(const TileDirectory& dir, std::uint64_t size) : dir_(dir), size_(size) {}

 protected:
  std::vector<Hash> ReadTile(unsigned level, std::uint64_t index) override {
    const unsigned width = tlog::TileWidthAt(size_, level, index);
    if (width == 0)
      throw LogBroken(fmt::format("a tree of {} entries has no tile {}", size_, tlog::TilePath({level, index})));
    const std::string path = tlog::TilePath({level, index, width});
    const std::optional<std::string> bytes = dir_.Current(path);
    if (!bytes || bytes->size() != width * sizeof(Hash))
      throw LogBroken(fmt::format("{} is {} in the directory", path, bytes ? "malformed" : "missing"));
    return HashesOf(*bytes, width);
  }

 private:
  const TileDirectory& dir_;
  std::uint64_t size_;
};

}  // namespace

TileExportReport StageTiles(act::LogTransaction& log, TileDirectory& dir, std::uint64_t size, const Hash& root) {
  TreeWalk walk(log, dir, size);
  std::vector<Hash> below;
  for (unsigned level = 0; tlog::HashesAtTileLevel(size, level) > 0; ++level) below = walk.Level(level, below);
  const Hash computed = RootFromTiles(dir, size, size);
  if (computed != root)
    throw LogBroken(
        fmt::format("the root of the tiles is {}, not the checkpoint's {}", core::ToHex(computed), core::ToHex(root)));
  return walk.report();
}

Hash RootFromTiles(const TileDirectory& dir, std::uint64_t tree_size, std::uint64_t at_size) {
  DirectoryTiles tiles(dir, tree_size);
  return core::merkle::RootAt(tiles, at_size);
}

}  // namespace actctl
