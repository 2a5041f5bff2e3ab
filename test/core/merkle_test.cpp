#include "act/core/merkle.hpp"

#include <gtest/gtest.h>
#include <openssl/evp.h>

#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "act/core/errors.hpp"
#include "act/core/tlog_tiles.hpp"

namespace act::core::merkle {
namespace {

std::vector<std::uint8_t> Bytes(std::string_view hex) {
  std::vector<std::uint8_t> out;
  for (std::size_t i = 0; i + 1 < hex.size(); i += 2)
    out.push_back(static_cast<std::uint8_t>(std::stoi(std::string(hex.substr(i, 2)), nullptr, 16)));
  return out;
}

std::vector<std::uint8_t> Text(std::string_view text) { return {text.begin(), text.end()}; }

// Plain SHA-256, independent of the code under test.
Hash Sha256(std::string_view text) {
  Hash out{};
  unsigned int length = 0;
  if (EVP_Digest(text.data(), text.size(), out.data(), &length, EVP_sha256(), nullptr) != 1)
    throw std::runtime_error("SHA-256 failed");
  return out;
}

std::vector<std::string> Hexes(const Path& path) {
  std::vector<std::string> out;
  for (const Hash& hash : path) out.push_back(ToHex(hash));
  return out;
}

// Distinct leaf hashes for property tests.
std::vector<Hash> Leaves(std::size_t n) {
  std::vector<Hash> leaves;
  for (std::size_t i = 0; i < n; ++i) leaves.push_back(LeafHash(Text("entry " + std::to_string(i))));
  return leaves;
}

Hash Flip(Hash hash, std::size_t bit) {
  hash[bit / 8 % hash.size()] = static_cast<std::uint8_t>(hash[bit / 8 % hash.size()] ^ (1u << (bit % 8)));
  return hash;
}

// ---- RFC 6962 known answers (transparency-dev/merkle rfc6962 tests) ----------

TEST(MerkleVectors, EmptyTreeRoot) {
  EXPECT_EQ(ToHex(EmptyRoot()), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(ToHex(RootOf({})), ToHex(EmptyRoot()));
}

TEST(MerkleVectors, EmptyLeaf) {
  EXPECT_EQ(ToHex(LeafHash(std::span<const std::uint8_t>())),
            "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d");
}

TEST(MerkleVectors, Leaf) {
  EXPECT_EQ(ToHex(LeafHash(Text("L123456"))), "395aa064aa4c29f7010acfe3f25db9485bbd4b91897b6ad7ad547639252b4d56");
}

TEST(MerkleVectors, Children) {
  const std::vector<std::uint8_t> left = Text("N123");
  const std::vector<std::uint8_t> right = Text("N456");
  EXPECT_EQ(ToHex(NodeHash(std::span<const std::uint8_t>(left), std::span<const std::uint8_t>(right))),
            "aa217fe888e47007fa15edab33c2b492a722cb106c64667fc2b044444de66bbb");
}

// The 8-entry reference tree of Google's CT merkle_tree_test.
std::vector<Hash> ReferenceLeaves() {
  std::vector<Hash> leaves;
  for (const char* entry : {"", "00", "10", "2021", "3031", "40414243", "5051525354555657",
                            "606162636465666768696a6b6c6d6e6f"})
    leaves.push_back(LeafHash(Bytes(entry)));
  return leaves;
}

const char* const kReferenceRoots[] = {
    "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d",
    "fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125",
    "aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77",
    "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
    "4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4",
    "76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef",
    "ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c",
    "5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328",
};

TEST(MerkleVectors, ReferenceTreeRoots) {
  const std::vector<Hash> leaves = ReferenceLeaves();
  MemoryTree tree(leaves);
  for (std::size_t n = 1; n <= 8; ++n) {
    SCOPED_TRACE("size " + std::to_string(n));
    EXPECT_EQ(ToHex(RootOf(std::span<const Hash>(leaves).first(n))), kReferenceRoots[n - 1]);
    EXPECT_EQ(ToHex(RootAt(tree, n)), kReferenceRoots[n - 1]);
  }
}

TEST(MerkleVectors, ReferenceTreeInclusionProofs) {
  MemoryTree tree(ReferenceLeaves());
  EXPECT_EQ(Hexes(InclusionProof(tree, 0, 8)),
            (std::vector<std::string>{"96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7",
                                      "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
                                      "6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4"}));
  EXPECT_EQ(Hexes(InclusionProof(tree, 5, 8)),
            (std::vector<std::string>{"bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b",
                                      "ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0",
                                      "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7"}));
  EXPECT_EQ(Hexes(InclusionProof(tree, 2, 3)),
            (std::vector<std::string>{"fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125"}));
  EXPECT_EQ(Hexes(InclusionProof(tree, 1, 5)),
            (std::vector<std::string>{"6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d",
                                      "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
                                      "bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b"}));
  EXPECT_TRUE(InclusionProof(tree, 0, 1).empty());
}

TEST(MerkleVectors, ReferenceTreeConsistencyProofs) {
  MemoryTree tree(ReferenceLeaves());
  EXPECT_EQ(Hexes(ConsistencyProof(tree, 1, 8)),
            (std::vector<std::string>{"96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7",
                                      "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
                                      "6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4"}));
  EXPECT_EQ(Hexes(ConsistencyProof(tree, 6, 8)),
            (std::vector<std::string>{"0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a",
                                      "ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0",
                                      "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7"}));
  EXPECT_EQ(Hexes(ConsistencyProof(tree, 2, 5)),
            (std::vector<std::string>{"5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
                                      "bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b"}));
  EXPECT_TRUE(ConsistencyProof(tree, 0, 8).empty());
  EXPECT_TRUE(ConsistencyProof(tree, 8, 8).empty());
}

// ---- Attestia golden roots (attestia-spec §7.7): entries sha256("leaf-i") ----

TEST(MerkleVectors, AttestiaGoldenRoots) {
  std::vector<Hash> leaves;
  for (int i = 0; i < 5; ++i) leaves.push_back(LeafHash(Sha256("leaf-" + std::to_string(i))));
  const std::string leaf0 = ToHex(Sha256("leaf-0"));
  EXPECT_EQ(leaf0.substr(0, 8), "d2dbf006");
  EXPECT_EQ(leaf0.substr(58), "6c8188");
  const auto root = [&](std::size_t n) { return ToHex(RootOf(std::span<const Hash>(leaves).first(n))); };
  EXPECT_EQ(root(1), "3f16c0c2cd28088814f15c300b46158e83203cde690169a74602ca926fa2a8bc");
  EXPECT_EQ(root(2), "d3b4dcb90fabca433a71833cdc3f15c8827a424cf3f138675bccd1fca5b5bc76");
  EXPECT_EQ(root(3), "17b728310cebcc8bacd012024a708aa1a537ee01a4ce8881d2a803ebb3156d05");
  EXPECT_EQ(root(5), "2547bc21863a7989f484cf2be15bf376a8a726f31381ebece03a8431603f5a5d");
  // Attestia's 5-leaf proofs: index 2 has three steps, index 4 one.
  MemoryTree tree(leaves);
  EXPECT_EQ(InclusionProof(tree, 2, 5).size(), 3u);
  EXPECT_EQ(InclusionProof(tree, 4, 5).size(), 1u);
}

// ---- Shapes ---------------------------------------------------------------------

TEST(MerkleShape, SplitPoint) {
  EXPECT_EQ(SplitPoint(2), 1u);
  EXPECT_EQ(SplitPoint(3), 2u);
  EXPECT_EQ(SplitPoint(4), 2u);
  EXPECT_EQ(SplitPoint(5), 4u);
  EXPECT_EQ(SplitPoint(8), 4u);
  EXPECT_EQ(SplitPoint(9), 8u);
  EXPECT_EQ(SplitPoint(UINT64_MAX), std::uint64_t{1} << 63);
  EXPECT_THROW(SplitPoint(1), std::invalid_argument);
}

TEST(MerkleShape, RangeNodes) {
  EXPECT_EQ(RangeNodes({0, 1}), (std::vector<NodeId>{{0, 0}}));
  EXPECT_EQ(RangeNodes({0, 7}), (std::vector<NodeId>{{2, 0}, {1, 2}, {0, 6}}));
  EXPECT_EQ(RangeNodes({8, 16}), (std::vector<NodeId>{{3, 1}}));
  EXPECT_EQ(RangeNodes({8, 13}), (std::vector<NodeId>{{2, 2}, {0, 12}}));
  EXPECT_THROW(RangeNodes({3, 3}), std::invalid_argument);
  EXPECT_THROW(RangeNodes({2, 6}), std::invalid_argument);  // 4 leaves from 2: in no tree
}

TEST(MerkleShape, Ranges) {
  EXPECT_EQ(InclusionRanges(5, 7), (std::vector<LeafRange>{{4, 5}, {6, 7}, {0, 4}}));
  EXPECT_EQ(ConsistencyRanges(3, 7), (std::vector<LeafRange>{{2, 3}, {3, 4}, {0, 2}, {4, 7}}));
  EXPECT_THROW(InclusionRanges(7, 7), ValidationError);
  EXPECT_THROW(InclusionRanges(0, 0), ValidationError);
  EXPECT_THROW(ConsistencyRanges(8, 7), ValidationError);
  EXPECT_THROW(InclusionPathLength(3, 3), std::invalid_argument);
}

TEST(MerkleShape, ProofsBeyondTheSourceThrow) {
  MemoryTree tree(Leaves(5));
  EXPECT_THROW(RootAt(tree, 6), std::out_of_range);
  EXPECT_THROW(InclusionProof(tree, 1, 6), std::out_of_range);
  EXPECT_THROW(ConsistencyProof(tree, 2, 6), std::out_of_range);
  EXPECT_THROW(tree.Node({3, 0}), std::out_of_range);
  EXPECT_NO_THROW(tree.Node({2, 0}));
}

// ---- Properties ---------------------------------------------------------------

// Both node sources: all levels in memory, and C2SP tiles.
struct Trees {
  explicit Trees(std::size_t n) : leaves(Leaves(n)), memory(leaves) {
    for (const Hash& leaf : leaves) tiles.Append(leaf);
  }
  std::vector<Hash> leaves;
  MemoryTree memory;
  tlog::MemoryTiles tiles;
};

TEST(MerkleProperty, RootsAtEverySize) {
  Trees trees(300);
  Frontier frontier;
  for (std::uint64_t n = 0; n <= 300; ++n) {
    SCOPED_TRACE("size " + std::to_string(n));
    const Hash expected = RootOf(std::span<const Hash>(trees.leaves).first(static_cast<std::size_t>(n)));
    ASSERT_EQ(RootAt(trees.memory, n), expected);
    ASSERT_EQ(RootAt(trees.tiles, n), expected);
    ASSERT_EQ(frontier.Root(), expected);
    if (n < 300) frontier.Append(trees.leaves[static_cast<std::size_t>(n)]);
  }
}

TEST(MerkleProperty, EveryInclusionProofVerifiesAndMutationsFail) {
  constexpr std::uint64_t kMax = 300;
  Trees trees(kMax);
  const Hash other = LeafHash(Text("not an entry"));
  std::size_t proofs = 0;
  for (std::uint64_t n = 1; n <= kMax; ++n) {
    const Hash root = RootAt(trees.memory, n);
    const Hash bigger_root = RootAt(trees.memory, n == kMax ? n : n + 1);
    for (std::uint64_t i = 0; i < n; ++i) {
      SCOPED_TRACE("index " + std::to_string(i) + " size " + std::to_string(n));
      const Hash& leaf = trees.leaves[static_cast<std::size_t>(i)];
      const Path path = InclusionProof(trees.memory, i, n);
      // Tiles rehash up to 128 hashes per node: a sample is enough here.
      if (i % 7 == 0 || i + 1 == n) {
        ASSERT_EQ(InclusionProof(trees.tiles, i, n), path);
      }
      ASSERT_EQ(path.size(), InclusionPathLength(i, n));
      ASSERT_TRUE(VerifyInclusion(leaf, i, n, path, root));
      ++proofs;

      // Mutations: a flipped bit anywhere in the path, the wrong entry or root.
      for (std::size_t k = 0; k < path.size(); ++k) {
        Path bad = path;
        bad[k] = Flip(bad[k], k * 37 + i);
        ASSERT_FALSE(VerifyInclusion(leaf, i, n, bad, root)) << "bit flipped in element " << k;
      }
      ASSERT_EQ(CheckInclusion(other, i, n, path, root).fault, ProofFault::kRootMismatch);
      ASSERT_EQ(CheckInclusion(leaf, i, n, path, Flip(root, i)).fault, ProofFault::kRootMismatch);
      // Truncated and extended paths.
      if (!path.empty()) {
        ASSERT_EQ(CheckInclusion(leaf, i, n, Path(path.begin(), path.end() - 1), root).fault,
                  ProofFault::kPathLength);
        ASSERT_EQ(CheckInclusion(leaf, i, n, Path(path.begin() + 1, path.end()), root).fault,
                  ProofFault::kPathLength);
      }
      Path longer = path;
      longer.push_back(other);
      ASSERT_EQ(CheckInclusion(leaf, i, n, longer, root).fault, ProofFault::kPathLength);
      longer.insert(longer.begin(), other);
      longer.pop_back();
      ASSERT_EQ(CheckInclusion(leaf, i, n, longer, root).fault, ProofFault::kPathLength);
      // The wrong index: every other one in small trees, the neighbours in big ones.
      for (std::uint64_t j = 0; j < n; ++j) {
        if (j == i || (n > 32 && j + 1 != i && j != i + 1)) continue;
        ASSERT_FALSE(VerifyInclusion(leaf, j, n, path, root)) << "index " << j;
      }
      ASSERT_EQ(CheckInclusion(leaf, n, n, path, root).fault, ProofFault::kIndexNotInTree);
      // The wrong size, against the root of that size.
      if (n < kMax) {
        ASSERT_FALSE(VerifyInclusion(leaf, i, n + 1, path, bigger_root));
      }
      if (n > 1 && i < n - 1) {
        ASSERT_FALSE(VerifyInclusion(leaf, i, n - 1, path, RootAt(trees.memory, n - 1)));
      }
    }
  }
  EXPECT_EQ(proofs, kMax * (kMax + 1) / 2);
}

TEST(MerkleProperty, EveryConsistencyProofVerifiesAndMutationsFail) {
  constexpr std::uint64_t kMax = 64;
  Trees trees(kMax);
  std::vector<Hash> roots;
  for (std::uint64_t n = 0; n <= kMax; ++n) roots.push_back(RootAt(trees.memory, n));
  const Hash other = LeafHash(Text("not a node"));
  for (std::uint64_t n = 0; n <= kMax; ++n) {
    for (std::uint64_t m = 0; m <= n; ++m) {
      SCOPED_TRACE("from " + std::to_string(m) + " to " + std::to_string(n));
      const Hash& old_root = roots[static_cast<std::size_t>(m)];
      const Hash& new_root = roots[static_cast<std::size_t>(n)];
      const Path path = ConsistencyProof(trees.memory, m, n);
      ASSERT_EQ(ConsistencyProof(trees.tiles, m, n), path);
      ASSERT_EQ(path.size(), ConsistencyPathLength(m, n));
      ASSERT_TRUE(VerifyConsistency(m, old_root, n, new_root, path))
          << CheckConsistency(m, old_root, n, new_root, path).problem;

      for (std::size_t k = 0; k < path.size(); ++k) {
        Path bad = path;
        bad[k] = Flip(bad[k], k * 29 + m);
        ASSERT_FALSE(VerifyConsistency(m, old_root, n, new_root, bad)) << "bit flipped in element " << k;
      }
      ASSERT_FALSE(VerifyConsistency(m, Flip(old_root, n), n, new_root, path)) << "old root flipped";
      if (m > 0) {  // (every tree extends the empty one)
        ASSERT_FALSE(VerifyConsistency(m, old_root, n, Flip(new_root, m), path)) << "new root flipped";
      }
      if (m > 0 && m < n) {
        ASSERT_FALSE(VerifyConsistency(m, new_root, n, old_root, path)) << "swapped roots";
        ASSERT_EQ(CheckConsistency(m, old_root, n, new_root, Path(path.begin(), path.end() - 1)).fault,
                  ProofFault::kPathLength);
        ASSERT_EQ(CheckConsistency(m, old_root, n, new_root, Path(path.begin() + 1, path.end())).fault,
                  ProofFault::kPathLength);
        // The wrong old size (with that size's root), the wrong new size.
        if (m > 1) {
          ASSERT_FALSE(VerifyConsistency(m - 1, roots[static_cast<std::size_t>(m - 1)], n, new_root, path));
        }
        if (m + 1 < n) {
          ASSERT_FALSE(VerifyConsistency(m + 1, roots[static_cast<std::size_t>(m + 1)], n, new_root, path));
        }
        if (n < kMax) {
          ASSERT_FALSE(VerifyConsistency(m, old_root, n + 1, roots[static_cast<std::size_t>(n + 1)], path));
        }
        if (m + 1 < n) {
          ASSERT_FALSE(VerifyConsistency(m, old_root, n - 1, roots[static_cast<std::size_t>(n - 1)], path));
        }
      }
      Path longer = path;
      longer.push_back(other);
      ASSERT_EQ(CheckConsistency(m, old_root, n, new_root, longer).fault, ProofFault::kPathLength);
      if (m < n) {
        ASSERT_EQ(CheckConsistency(n, new_root, m, old_root, path).fault, ProofFault::kSizesOutOfOrder);
      }
    }
  }
}

TEST(MerkleVerify, EdgeCases) {
  const Hash a = LeafHash(Text("a"));
  const Hash b = LeafHash(Text("b"));
  // The empty tree is a prefix of every tree, with the empty root only.
  EXPECT_TRUE(VerifyConsistency(0, EmptyRoot(), 5, a, {}));
  EXPECT_EQ(CheckConsistency(0, a, 5, b, {}).fault, ProofFault::kOldRootMismatch);
  EXPECT_EQ(CheckConsistency(0, EmptyRoot(), 5, b, Path{a}).fault, ProofFault::kPathLength);
  // Same size: the same root, an empty path.
  EXPECT_TRUE(VerifyConsistency(3, a, 3, a, {}));
  EXPECT_EQ(CheckConsistency(3, a, 3, b, {}).fault, ProofFault::kNewRootMismatch);
  EXPECT_EQ(CheckConsistency(3, a, 3, a, Path{a}).fault, ProofFault::kPathLength);
  // A one-entry tree: its root is the leaf hash.
  EXPECT_TRUE(VerifyInclusion(a, 0, 1, {}, a));
  EXPECT_EQ(CheckInclusion(a, 0, 1, {}, b).fault, ProofFault::kRootMismatch);
  EXPECT_EQ(CheckInclusion(a, 0, 0, {}, EmptyRoot()).fault, ProofFault::kIndexNotInTree);
  // Every fault comes with a sentence, success with none.
  EXPECT_FALSE(CheckInclusion(a, 0, 1, {}, b).problem.empty());
  EXPECT_TRUE(CheckInclusion(a, 0, 1, {}, a).problem.empty());
}

TEST(MerkleVerify, HugeSizes) {
  // Shape only: the bit walks must not overflow at the top of the range.
  EXPECT_EQ(InclusionPathLength(0, UINT64_MAX), 64u);
  EXPECT_EQ(InclusionPathLength(UINT64_MAX - 1, UINT64_MAX), 63u);
  EXPECT_EQ(ConsistencyPathLength(std::uint64_t{1} << 63, UINT64_MAX), 1u);  // the right half
  const Hash a = LeafHash(Text("a"));
  EXPECT_EQ(CheckInclusion(a, 0, UINT64_MAX, Path(64, a), a).fault, ProofFault::kRootMismatch);
}

// ---- Frontier ------------------------------------------------------------------

TEST(MerkleFrontier, ReportsEveryCompletedSubtreeOnce) {
  const std::vector<Hash> leaves = Leaves(100);
  MemoryTree tree(leaves);
  Frontier frontier;
  std::vector<std::pair<NodeId, Hash>> completed;
  const Frontier::Completed collect = [&](NodeId id, const Hash& hash) { completed.emplace_back(id, hash); };
  for (const Hash& leaf : leaves) frontier.Append(leaf, collect);
  // 100 leaves + 50 + 25 + 12 + 6 + 3 + 1 perfect subtrees.
  EXPECT_EQ(completed.size(), 197u);
  for (const auto& [id, hash] : completed) EXPECT_EQ(tree.Node(id), hash);
  EXPECT_EQ(frontier.node_ids(), (std::vector<NodeId>{{6, 0}, {5, 2}, {2, 24}}));
}

TEST(MerkleFrontier, ResumesFromASource) {
  const std::vector<Hash> leaves = Leaves(77);
  MemoryTree tree(std::span<const Hash>(leaves).first(50));
  Frontier resumed = Frontier::Load(tree, 50);
  EXPECT_EQ(resumed.size(), 50u);
  EXPECT_EQ(resumed.nodes().size(), 3u);
  for (std::size_t i = 50; i < leaves.size(); ++i) resumed.Append(leaves[i]);
  EXPECT_EQ(resumed.Root(), RootOf(leaves));
  const Frontier copy(resumed.size(), resumed.nodes());
  EXPECT_EQ(copy.Root(), resumed.Root());
  EXPECT_THROW(Frontier(77, {}), ValidationError);
  EXPECT_EQ(Frontier::Load(tree, 0).Root(), EmptyRoot());
}

}  // namespace
}  // namespace act::core::merkle
