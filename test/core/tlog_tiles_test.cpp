#include "act/core/tlog_tiles.hpp"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

namespace act::core::tlog {
namespace {

using merkle::NodeId;

std::vector<Hash> Leaves(std::size_t n) {
  std::vector<Hash> leaves;
  for (std::size_t i = 0; i < n; ++i) {
    const std::string entry = "entry " + std::to_string(i);
    leaves.push_back(merkle::LeafHash(std::span<const std::uint8_t>(
        reinterpret_cast<const std::uint8_t*>(entry.data()), entry.size())));
  }
  return leaves;
}

TEST(TlogTiles, Paths) {
  EXPECT_EQ(TilePath({0, 1234067}), "tile/0/x001/x234/067");
  EXPECT_EQ(TilePath({0, 0}), "tile/0/000");
  EXPECT_EQ(TilePath({1, 999}), "tile/1/999");
  EXPECT_EQ(TilePath({1, 1000}), "tile/1/x001/000");
  EXPECT_EQ(TilePath({2, 0, 1}), "tile/2/000.p/1");
  EXPECT_EQ(TilePath({0, 273, 112}), "tile/0/273.p/112");
  EXPECT_EQ(EntryBundlePath(1234067), "tile/entries/x001/x234/067");
  EXPECT_EQ(EntryBundlePath(5, 200), "tile/entries/005.p/200");
  EXPECT_EQ(TilePath({0, UINT64_MAX}), "tile/0/x018/x446/x744/x073/x709/x551/615");
  EXPECT_THROW(TilePath({0, 0, 0}), std::invalid_argument);
  EXPECT_THROW(TilePath({0, 0, 257}), std::invalid_argument);
}

TEST(TlogTiles, TheSpecExampleOf70000Leaves) {
  // C2SP tlog-tiles: 273 full level-0 tiles and one of width 112, one full
  // level-1 tile and one of width 17, one level-2 tile of width 1.
  EXPECT_EQ(PartialTiles(70000), (std::vector<TileId>{{0, 273, 112}, {1, 1, 17}, {2, 0, 1}}));
  EXPECT_EQ(TileWidthAt(70000, 0, 272), 256u);
  EXPECT_EQ(TileWidthAt(70000, 0, 273), 112u);
  EXPECT_EQ(TileWidthAt(70000, 0, 274), 0u);
  EXPECT_EQ(TileWidthAt(70000, 1, 0), 256u);
  EXPECT_EQ(TileWidthAt(70000, 1, 1), 17u);
  EXPECT_EQ(TileWidthAt(70000, 2, 0), 1u);
  EXPECT_EQ(TileWidthAt(70000, 3, 0), 0u);
  EXPECT_EQ(HashesAtTileLevel(70000, 1), 273u);
  EXPECT_EQ(HashesAtTileLevel(UINT64_MAX, 8), 0u);
  EXPECT_TRUE(PartialTiles(0).empty());
  EXPECT_EQ(PartialTiles(65536), (std::vector<TileId>{{2, 0, 1}}));
}

TEST(TlogTiles, LocateNode) {
  auto located = LocateNode({0, 300});
  EXPECT_EQ(located.tile_level, 0u);
  EXPECT_EQ(located.tile_index, 1u);
  EXPECT_EQ(located.offset, 44u);
  EXPECT_EQ(located.count, 1u);
  located = LocateNode({3, 33});  // leaves 264..271: hashes 8..15 of tile 0/001
  EXPECT_EQ(located.tile_level, 0u);
  EXPECT_EQ(located.tile_index, 1u);
  EXPECT_EQ(located.offset, 8u);
  EXPECT_EQ(located.count, 8u);
  located = LocateNode({15, 5});  // 128 level-8 nodes from 640: tile 1/002, from 128
  EXPECT_EQ(located.tile_level, 1u);
  EXPECT_EQ(located.tile_index, 2u);
  EXPECT_EQ(located.offset, 128u);
  EXPECT_EQ(located.count, 128u);
  located = LocateNode({16, 7});
  EXPECT_EQ(located.tile_level, 2u);
  EXPECT_EQ(located.tile_index, 0u);
  EXPECT_EQ(located.offset, 7u);
  EXPECT_EQ(located.count, 1u);
}

TEST(TlogTiles, HashTileSlice) {
  const std::vector<Hash> leaves = Leaves(4);
  EXPECT_EQ(HashTileSlice(std::span<const Hash>(leaves).first(1)), leaves[0]);
  EXPECT_EQ(HashTileSlice(leaves), merkle::RootOf(leaves));
  EXPECT_THROW(HashTileSlice(std::span<const Hash>(leaves).first(3)), std::invalid_argument);
  EXPECT_THROW(HashTileSlice({}), std::invalid_argument);
}

TEST(TlogTiles, MemoryTilesHoldTheTreeOf70000Leaves) {
  const std::vector<Hash> leaves = Leaves(70000);
  MemoryTiles tiles;
  for (const Hash& leaf : leaves) tiles.Append(leaf);
  merkle::MemoryTree tree(leaves);
  EXPECT_EQ(merkle::RootAt(tiles, 70000), merkle::RootOf(leaves));
  EXPECT_EQ(tiles.frontier().Root(), merkle::RootOf(leaves));
  // Each stored tile holds exactly the hashes C2SP puts there.
  for (unsigned level = 0; level <= 2; ++level) {
    for (std::uint64_t index = 0; TileWidthAt(70000, level, index) > 0; ++index) {
      const std::vector<Hash>& tile = tiles.Tile(level, index);
      ASSERT_EQ(tile.size(), TileWidthAt(70000, level, index)) << TilePath({level, index});
      for (std::size_t k = 0; k < tile.size(); ++k)
        ASSERT_EQ(tile[k], tree.Node({level * kTileHeight, index * kTileWidth + k}));
    }
  }
  EXPECT_THROW(tiles.Tile(3, 0), std::out_of_range);
  // Roots and proofs at sizes around tile edges agree with the all-levels tree.
  for (std::uint64_t size : {1u, 255u, 256u, 257u, 511u, 65535u, 65536u, 65537u, 69999u, 70000u}) {
    SCOPED_TRACE("size " + std::to_string(size));
    ASSERT_EQ(merkle::RootAt(tiles, size), merkle::RootAt(tree, size));
    for (std::uint64_t index : {std::uint64_t{0}, size / 3, size - 1}) {
      ASSERT_EQ(merkle::InclusionProof(tiles, index, size), merkle::InclusionProof(tree, index, size));
      ASSERT_TRUE(merkle::VerifyInclusion(leaves[static_cast<std::size_t>(index)], index, size,
                                          merkle::InclusionProof(tiles, index, size), merkle::RootAt(tree, size)));
    }
    for (std::uint64_t old_size : {std::uint64_t{1}, size / 2, size - 1}) {
      if (old_size > size) continue;
      ASSERT_EQ(merkle::ConsistencyProof(tiles, old_size, size), merkle::ConsistencyProof(tree, old_size, size));
    }
  }
  EXPECT_THROW(merkle::RootAt(tiles, 70001), std::out_of_range);
}

// Reads are O(log n) tiles, each tile read once per source.
class CountingTiles : public TileNodeSource {
 public:
  explicit CountingTiles(const MemoryTiles& tiles) : tiles_(tiles) {}
  int reads = 0;

 protected:
  std::vector<Hash> ReadTile(unsigned level, std::uint64_t index) override {
    ++reads;
    return tiles_.Tile(level, index);
  }

 private:
  const MemoryTiles& tiles_;
};

TEST(TlogTiles, ProofsReadFewTiles) {
  MemoryTiles tiles;
  for (const Hash& leaf : Leaves(70000)) tiles.Append(leaf);
  CountingTiles counting(tiles);
  const merkle::Path path = merkle::InclusionProof(counting, 12345, 69999);
  EXPECT_EQ(path.size(), merkle::InclusionPathLength(12345, 69999));
  EXPECT_LE(counting.reads, 6);
  const int after_proof = counting.reads;
  merkle::InclusionProof(counting, 12345, 69999);
  EXPECT_EQ(counting.reads, after_proof);  // cached
  CountingTiles fresh(tiles);
  merkle::RootAt(fresh, 69999);
  EXPECT_LE(fresh.reads, 4);
  CountingTiles resume(tiles);
  EXPECT_EQ(merkle::Frontier::Load(resume, 70000).Root(), tiles.frontier().Root());
}

// A store that reads tiles in batches: after Prefetch the same walk needs
// no single read, and gives what it gives without the prefetch.
class BatchedTiles : public CountingTiles {
 public:
  using CountingTiles::CountingTiles;
  int batches = 0;
  std::size_t batched = 0;

 protected:
  std::vector<KeyedTile> ReadTiles(const std::vector<TileKey>& wanted) override {
    ++batches;
    batched += wanted.size();
    return TileNodeSource::ReadTiles(wanted);
  }
};

TEST(TlogTiles, PrefetchReadsEveryTileAWalkNeedsInOneBatch) {
  MemoryTiles tiles;
  for (const Hash& leaf : Leaves(70000)) tiles.Append(leaf);
  for (const auto& [index, size] : {std::pair<std::uint64_t, std::uint64_t>{12345, 69999}, {0, 1}, {69999, 70000},
                                    {256, 65537}}) {
    BatchedTiles batched(tiles);
    batched.Prefetch([&](merkle::NodeSource& source) {
      merkle::InclusionProof(source, index, size);
      merkle::RootAt(source, size);
    });
    EXPECT_EQ(batched.batches, 1);
    const int reads_in_batch = batched.reads;
    EXPECT_EQ(static_cast<std::size_t>(reads_in_batch), batched.batched);
    EXPECT_EQ(merkle::InclusionProof(batched, index, size), merkle::InclusionProof(tiles, index, size));
    EXPECT_EQ(merkle::RootAt(batched, size), merkle::RootAt(tiles, size));
    EXPECT_EQ(batched.reads, reads_in_batch) << "a tile read after the prefetch";
  }
  BatchedTiles consistency(tiles);
  consistency.Prefetch([](merkle::NodeSource& source) { merkle::ConsistencyProof(source, 1000, 70000); });
  const int reads_in_batch = consistency.reads;
  EXPECT_EQ(merkle::ConsistencyProof(consistency, 1000, 70000), merkle::ConsistencyProof(tiles, 1000, 70000));
  EXPECT_EQ(consistency.reads, reads_in_batch);
  consistency.Prefetch([](merkle::NodeSource& source) { merkle::ConsistencyProof(source, 1000, 70000); });
  EXPECT_EQ(consistency.batches, 1) << "nothing left to fetch: no second batch";
}

TEST(TlogTiles, AppendingAfterAReadSeesTheGrownTile) {
  const std::vector<Hash> leaves = Leaves(10);
  MemoryTiles tiles;
  for (std::size_t i = 0; i < 5; ++i) tiles.Append(leaves[i]);
  EXPECT_EQ(merkle::RootAt(tiles, 5), merkle::RootOf(std::span<const Hash>(leaves).first(5)));
  for (std::size_t i = 5; i < 10; ++i) tiles.Append(leaves[i]);
  EXPECT_EQ(merkle::RootAt(tiles, 10), merkle::RootOf(leaves));
}

}  // namespace
}  // namespace act::core::tlog
